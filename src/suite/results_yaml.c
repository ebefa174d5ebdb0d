/* results_yaml.c — weft's -format yaml documents read back as saved results.
 *
 * Read with libyaml's event parser rather than its document loader: a
 * table needs a handful of fields of each document, not the tree of its
 * states and bindings, and tens of thousands of documents must read in well
 * under a second.  Unknown keys are skipped, so that documents written by a
 * later weft with more to say still read. */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "results_int.h"

typedef struct reader {
	yaml_parser_t p;
	yaml_event_t ev;
	bool have_event;
	saved_set *s;
	int file;
	diag *d;
} reader;

static srcloc here(const reader *r)
{
	return (srcloc){ r->s->files[r->file], (int)r->ev.start_mark.line + 1, (int)r->ev.start_mark.column + 1 };
}

/* The next event into r->ev; false after reporting a syntax error. */
static bool next(reader *r)
{
	if (r->have_event)
		yaml_event_delete(&r->ev);
	r->have_event = false;
	if (!yaml_parser_parse(&r->p, &r->ev)) {
		diag_error(r->d, (srcloc){ r->s->files[r->file], (int)r->p.problem_mark.line + 1,
					   (int)r->p.problem_mark.column + 1 },
			   "YAML: %s", r->p.problem ? r->p.problem : "malformed");
		return false;
	}
	r->have_event = true;
	return true;
}

static const char *scalar(const reader *r)
{
	return r->ev.type == YAML_SCALAR_EVENT ? (const char *)r->ev.data.scalar.value : NULL;
}

/* Skip the node whose first event is r->ev (a scalar, or a whole mapping
 * or sequence). */
static bool skip(reader *r)
{
	int depth = 0;
	do {
		switch (r->ev.type) {
		case YAML_MAPPING_START_EVENT: case YAML_SEQUENCE_START_EVENT: depth++; break;
		case YAML_MAPPING_END_EVENT: case YAML_SEQUENCE_END_EVENT: depth--; break;
		default: break;
		}
		if (depth == 0)
			return true;
	} while (next(r));
	return false;
}

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

/* What one document says, before it becomes a saved_result. */
typedef struct doc {
	char *name, *model, *verdict, *kind, *condition, *run_id, *weft, *engine, *options, *shard;
	char *model_file, *fingerprint;
	long pos, neg, seq, selected, candidates, forbidden;
	bool has_pos, has_neg, has_stats;
	int n_states;
	int n_models;
	char **models;
	int line;
} doc;

static void doc_free(doc *x)
{
	char **fields[] = { &x->name, &x->model, &x->verdict, &x->kind, &x->condition, &x->run_id, &x->weft,
			    &x->engine, &x->options, &x->shard, &x->model_file, &x->fingerprint };
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++)
		free(*fields[i]);
	for (int k = 0; k < x->n_models; k++)
		free(x->models[k]);
	free(x->models);
}

static void keep(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

/* A number where one is wanted; false after reporting. */
static bool number(reader *r, const char *key, long *out)
{
	if (to_long(scalar(r), out))
		return true;
	diag_error(r->d, here(r), "'%s' wants a whole number", key);
	return false;
}

/* states: a sequence of mappings; only their number is kept. */
static bool read_states(reader *r, doc *x)
{
	if (r->ev.type != YAML_SEQUENCE_START_EVENT) {
		diag_error(r->d, here(r), "'states' wants a list of states");
		return false;
	}
	for (;;) {
		if (!next(r))
			return false;
		if (r->ev.type == YAML_SEQUENCE_END_EVENT)
			return true;
		x->n_states++;
		if (!skip(r))
			return false;
	}
}

/* A flow or block mapping of scalars (run:, stats:); `on_pair` is given
 * each key with the reader at its value. */
typedef bool (*pair_fn)(reader *r, doc *x, const char *key);

static bool read_mapping(reader *r, doc *x, const char *what, pair_fn on_pair)
{
	if (r->ev.type != YAML_MAPPING_START_EVENT) {
		diag_error(r->d, here(r), "'%s' wants a mapping", what);
		return false;
	}
	for (;;) {
		if (!next(r))
			return false;
		if (r->ev.type == YAML_MAPPING_END_EVENT)
			return true;
		char *key = scalar(r) ? xstrdup(scalar(r)) : NULL;
		if (!key) {
			diag_error(r->d, here(r), "expected a key in '%s'", what);
			return false;
		}
		bool ok = next(r) && on_pair(r, x, key);
		free(key);
		if (!ok)
			return false;
	}
}

static bool stats_pair(reader *r, doc *x, const char *key)
{
	if (!strcmp(key, "candidates"))
		return number(r, "candidates", &x->candidates);
	if (!strcmp(key, "forbidden"))
		return number(r, "forbidden", &x->forbidden);
	return skip(r);
}

static bool read_models(reader *r, doc *x)
{
	if (r->ev.type != YAML_SEQUENCE_START_EVENT) {
		diag_error(r->d, here(r), "'models' wants a list of model labels");
		return false;
	}
	for (;;) {
		if (!next(r))
			return false;
		if (r->ev.type == YAML_SEQUENCE_END_EVENT)
			return true;
		if (!scalar(r)) {
			diag_error(r->d, here(r), "'models' wants a list of model labels");
			return false;
		}
		x->models = xrealloc(x->models, ((size_t)x->n_models + 1) * sizeof *x->models);
		x->models[x->n_models++] = xstrdup(scalar(r));
	}
}

static bool run_pair(reader *r, doc *x, const char *key)
{
	static const char *const texts[] = { "id", "weft", "engine", "options", "shard" };
	char **fields[] = { &x->run_id, &x->weft, &x->engine, &x->options, &x->shard };
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
		if (!strcmp(key, texts[i])) {
			if (!scalar(r)) {
				diag_error(r->d, here(r), "'run: %s' wants a single value", key);
				return false;
			}
			keep(fields[i], scalar(r));
			return true;
		}
	if (!strcmp(key, "selected"))
		return number(r, "selected", &x->selected);
	if (!strcmp(key, "models"))
		return read_models(r, x);
	return skip(r);
}

/* One top-level key of a document, the reader at its value. */
static bool top_pair(reader *r, doc *x, const char *key)
{
	static const char *const texts[] = { "name", "model", "verdict", "kind", "condition", "model_file",
					     "model_fingerprint" };
	char **fields[] = { &x->name, &x->model, &x->verdict, &x->kind, &x->condition, &x->model_file,
			    &x->fingerprint };
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
		if (!strcmp(key, texts[i])) {
			if (!scalar(r)) {
				diag_error(r->d, here(r), "'%s' wants a single value", key);
				return false;
			}
			keep(fields[i], scalar(r));
			return true;
		}
	if (!strcmp(key, "positive"))
		return (x->has_pos = true) && number(r, key, &x->pos);
	if (!strcmp(key, "negative"))
		return (x->has_neg = true) && number(r, key, &x->neg);
	if (!strcmp(key, "seq"))
		return number(r, key, &x->seq);
	if (!strcmp(key, "states"))
		return read_states(r, x);
	if (!strcmp(key, "stats"))
		return (x->has_stats = true) && read_mapping(r, x, "stats", stats_pair);
	if (!strcmp(key, "run"))
		return read_mapping(r, x, "run", run_pair);
	return skip(r);
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
static char *producer_text(const doc *x)
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

static bool parse_verdict(const reader *r, const doc *x, saved_result *res)
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
	if (strcmp(x->verdict, "Ok") && strcmp(x->verdict, "No")) {
		diag_error(r->d, (srcloc){ r->s->files[r->file], x->line, 1 },
			   "unknown verdict '%s' (Ok, No, Timeout, Error, Crashed, OutOfMemory)", x->verdict);
		return false;
	}
	if (!x->has_pos || !x->has_neg) {
		diag_error(r->d, (srcloc){ r->s->files[r->file], x->line, 1 },
			   "the result of '%s' has no positive and negative counts", res->name);
		return false;
	}
	res->ok = !strcmp(x->verdict, "Ok");
	res->status = x->pos > 0 ? SAVED_ALLOWED : SAVED_FORBIDDEN;
	return true;
}

/* The document read into x becomes a result. */
static bool add_doc(reader *r, doc *x)
{
	srcloc at = { r->s->files[r->file], x->line, 1 };
	if (!x->name || !x->model || !x->verdict) {
		diag_error(r->d, at, "not a saved result: a document of weft's -format yaml output has a name, "
			   "a model and a verdict");
		return false;
	}
	char *producer = producer_text(x);
	saved_result *res = saved_add(r->s, r->file);
	res->producer = saved_producer(r->s, producer);
	free(producer);
	res->line = x->line;
	res->name = x->name;
	res->model = x->model;
	x->name = x->model = NULL;
	if (!parse_verdict(r, x, res))
		return false;
	res->pos = x->pos;
	res->neg = x->neg;
	res->n_states = x->n_states;
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
		diag_error(r->d, at, "'shard' wants K/N with 1 <= K <= N, not '%s'", x->shard);
		return false;
	}
	if (x->run_id) {
		long sel = x->selected > 0 && x->selected <= 1000000000 ? x->selected : 0;
		res->run = saved_run_of(r->s, x->run_id, (int)sel, res->shard_n, x->n_models, x->models);
	}
	return true;
}

/* One document: its root mapping's start is in r->ev. */
static bool read_doc(reader *r)
{
	doc x;
	memset(&x, 0, sizeof x);
	x.line = (int)r->ev.start_mark.line + 1;
	if (r->ev.type != YAML_MAPPING_START_EVENT) {
		diag_error(r->d, here(r), "not a saved result: expected a document of weft's -format yaml output");
		return false;
	}
	bool ok = true;
	for (;;) {
		if (!(ok = next(r)))
			break;
		if (r->ev.type == YAML_MAPPING_END_EVENT)
			break;
		if (!scalar(r)) {
			diag_error(r->d, here(r), "expected a key");
			ok = false;
			break;
		}
		char *key = xstrdup(scalar(r));
		ok = next(r) && top_pair(r, &x, key);
		free(key);
		if (!ok)
			break;
	}
	ok = ok && add_doc(r, &x);
	doc_free(&x);
	return ok;
}

bool saved_read_yaml(saved_set *s, int file, const char *text, size_t len, diag *d)
{
	reader r;
	memset(&r, 0, sizeof r);
	r.s = s;
	r.file = file;
	r.d = d;
	yaml_parser_initialize(&r.p);
	yaml_parser_set_input_string(&r.p, (const unsigned char *)text, len);
	bool ok = true;
	while (ok && next(&r) && r.ev.type != YAML_STREAM_END_EVENT) {
		if (r.ev.type != YAML_DOCUMENT_START_EVENT)
			continue;
		if (!next(&r))
			break;
		if (r.ev.type == YAML_SCALAR_EVENT && !*scalar(&r))
			continue;   /* an empty document */
		ok = read_doc(&r);
	}
	ok = ok && r.have_event && r.ev.type == YAML_STREAM_END_EVENT;
	if (r.have_event)
		yaml_event_delete(&r.ev);
	yaml_parser_delete(&r.p);
	return ok;
}
