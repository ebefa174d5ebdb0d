/* results_doc.c — what a document of weft's -format yaml (or json) output means as a
 * saved result, whichever reader took it apart (results_yaml.c with
 * libyaml, results_fast.c for weft's own layout). */
#include <stdlib.h>
#include <string.h>

#include "results_int.h"

static bool to_long(const char *s, long *out)
{
	if (!s || !*s)
		return false;
	char *end;
	long v = strtol(s, &end, 10);
	if (*end)
		return false;
	*out = v;
	return true;
}

void saved_doc_free(saved_doc *x)
{
	char **fields[] = { &x->name, &x->model, &x->verdict, &x->kind, &x->condition, &x->file, &x->run_id,
			    &x->weft, &x->engine, &x->options, &x->shard, &x->model_file, &x->fingerprint };
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		free(*fields[i]);
	for (int k = 0; k < x->n_models; k++)
		free(x->models[k]);
	free(x->models);
	for (int k = 0; k < x->n_state_lines; k++)
		free(x->state_lines[k]);
	free(x->state_lines);
	memset(x, 0, sizeof *x);
}

static void keep(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

const char *saved_doc_scalar(saved_doc *x, enum doc_section sec, const char *key, const char *value)
{
	static const char *const top_keys[] = { "name", "model", "verdict", "kind", "condition", "model_file",
						"model_fingerprint", "file" };
	static const char *const run_keys[] = { "id", "weft", "engine", "options", "shard" };
	if (sec == DOC_TOP) {
		char **fields[] = { &x->name, &x->model, &x->verdict, &x->kind, &x->condition, &x->model_file,
				    &x->fingerprint, &x->file };
		for (size_t i = 0; i < sizeof top_keys / sizeof *top_keys; i++)
			if (!strcmp(key, top_keys[i])) {
				keep(fields[i], value);
				return NULL;
			}
		if (!strcmp(key, "positive"))
			return (x->has_pos = to_long(value, &x->pos)) ? NULL : "'positive' wants a whole number";
		if (!strcmp(key, "negative"))
			return (x->has_neg = to_long(value, &x->neg)) ? NULL : "'negative' wants a whole number";
		if (!strcmp(key, "seq"))
			return to_long(value, &x->seq) ? NULL : "'seq' wants a whole number";
		if (!strcmp(key, "states") || !strcmp(key, "stats") || !strcmp(key, "run"))
			return "wants a list or a mapping, not a single value";
	} else if (sec == DOC_RUN) {
		char **fields[] = { &x->run_id, &x->weft, &x->engine, &x->options, &x->shard };
		for (size_t i = 0; i < sizeof run_keys / sizeof *run_keys; i++)
			if (!strcmp(key, run_keys[i])) {
				keep(fields[i], value);
				return NULL;
			}
		if (!strcmp(key, "selected"))
			return to_long(value, &x->selected) ? NULL : "'selected' wants a whole number";
		if (!strcmp(key, "models"))
			return "'models' wants a list of model labels";
	} else {
		if (!strcmp(key, "candidates"))
			return to_long(value, &x->candidates) ? NULL : "'candidates' wants a whole number";
		if (!strcmp(key, "forbidden"))
			return to_long(value, &x->forbidden) ? NULL : "'forbidden' wants a whole number";
	}
	return NULL;   /* a key of no use to a table */
}

void saved_doc_model(saved_doc *x, const char *label)
{
	x->models = xrealloc(x->models, ((size_t)x->n_models + 1) * sizeof *x->models);
	x->models[x->n_models++] = xstrdup(label);
}

void saved_doc_state(saved_doc *x, const char *line)
{
	x->state_lines = xrealloc(x->state_lines, ((size_t)x->n_state_lines + 1) * sizeof *x->state_lines);
	x->state_lines[x->n_state_lines++] = xstrdup(line);
}

static bool parse_shard(const char *text, int *k, int *n)
{
	int a, b;
	char tail;
	if (!text || sscanf(text, "%d/%d%c", &a, &b, &tail) != 2 || a < 1 || b < a)
		return false;
	*k = a;
	*n = b;
	return true;
}

/* The producer of a document in words: what a column must not mix. */
static char *producer_text(const saved_doc *x)
{
	strbuf b = { 0 };
	if (x->weft)
		sb_printf(&b, "weft %s -engine %s %s", x->weft, x->engine ? x->engine : "?", x->options ? x->options : "");
	else
		sb_printf(&b, "weft (no run recorded)%s%s", x->engine ? " -engine " : "", x->engine ? x->engine : "");
	if (x->fingerprint)
		sb_printf(&b, ", model %s (fingerprint %.8s)", x->model_file ? x->model_file : x->model, x->fingerprint);
	else
		sb_printf(&b, ", model %s (not loaded)", x->model);
	return sb_take(&b);
}

static bool parse_verdict(const saved_set *s, const saved_doc *x, saved_result *res, diag *d)
{
	static const struct {
		const char *word;
		enum saved_status st;
	} failures[] = { { "Timeout", SAVED_TIMEOUT }, { "Error", SAVED_ERROR }, { "Crashed", SAVED_CRASHED },
			 { "OutOfMemory", SAVED_OUT_OF_MEMORY } };
	for (size_t i = 0; i < sizeof failures / sizeof *failures; i++)
		if (!strcmp(x->verdict, failures[i].word)) {
			res->status = failures[i].st;
			return true;
		}
	srcloc at = { s->files[res->file], x->line, 1 };
	if (strcmp(x->verdict, "Ok") && strcmp(x->verdict, "No")) {
		diag_error(d, at, "unknown verdict '%s' (Ok, No, Timeout, Error, Crashed, OutOfMemory)", x->verdict);
		return false;
	}
	if (!x->has_pos || !x->has_neg) {
		diag_error(d, at, "the result of '%s' has no positive and negative counts", res->name);
		return false;
	}
	res->ok = !strcmp(x->verdict, "Ok");
	res->status = x->pos > 0 ? SAVED_ALLOWED : SAVED_FORBIDDEN;
	return true;
}

bool saved_doc_add(saved_set *s, int file, saved_doc *x, diag *d)
{
	srcloc at = { s->files[file], x->line, 1 };
	if (!x->name || !x->model || !x->verdict) {
		diag_error(d, at, "not a saved result: a document of weft's -format yaml or json output has a name, "
			   "a model and a verdict");
		return false;
	}
	char *producer = producer_text(x);
	saved_result *res = saved_add(s, file);
	res->producer = saved_producer(s, producer);
	free(producer);
	res->line = x->line;
	res->name = x->name;
	res->model = x->model;
	res->path = x->file;
	x->name = x->model = x->file = NULL;
	if (!parse_verdict(s, x, res, d))
		return false;
	res->pos = x->pos;
	res->neg = x->neg;
	res->n_states = x->n_states;
	if (x->states_kept && x->n_state_lines == x->n_states)
		res->states = state_set_text(x->state_lines, x->n_state_lines);
	res->has_stats = x->has_stats;
	res->candidates = x->candidates;
	res->forbidden = x->forbidden;
	res->seq = x->seq > 0 && x->seq <= 1000000000 ? (int)x->seq : 0;
	if (x->kind) {
		res->quant_known = true;
		res->quant = !strcmp(x->kind, "Forbidden") ? Q_NOT_EXISTS : !strcmp(x->kind, "Required") ? Q_FORALL : Q_EXISTS;
	}
	res->condition = x->condition;
	x->condition = NULL;
	if (x->shard && !parse_shard(x->shard, &res->shard_k, &res->shard_n)) {
		diag_error(d, at, "'shard' wants K/N with 1 <= K <= N, not '%s'", x->shard);
		return false;
	}
	if (x->run_id) {
		long sel = x->selected > 0 && x->selected <= 1000000000 ? x->selected : 0;
		res->run = saved_run_of(s, x->run_id, (int)sel, res->shard_n, x->n_models, x->models);
	}
	return true;
}
