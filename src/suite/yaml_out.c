/* yaml_out.c — one YAML document per test, written with libyaml's emitter. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "suite.h"
#include "../report/report.h"

/* libyaml reports failures through its return values; the first one stops
 * further output of the document (and is said once on stderr). */
typedef struct emitter {
	yaml_emitter_t e;
	bool failed;
} emitter;

static void emit(emitter *em, yaml_event_t *ev)
{
	if (em->failed) {
		yaml_event_delete(ev);
		return;
	}
	if (!yaml_emitter_emit(&em->e, ev)) {
		em->failed = true;
		fprintf(stderr, "weft: cannot write YAML: %s\n", em->e.problem ? em->e.problem : "unknown error");
	}
}

/* Would a plain scalar `s` be read back (YAML 1.1, as PyYAML does) as
 * something else than a string: a number, a boolean, null?  Then it is
 * quoted.  Erring towards quoting costs nothing. */
static bool looks_typed(const char *s)
{
	static const char *const words[] = { "y", "n", "yes", "no", "on", "off", "true", "false", "null",
					     "~", ".inf", "-.inf", "+.inf", ".nan", NULL };
	if (!*s)
		return true;
	for (int i = 0; words[i]; i++)
		if (!strcasecmp(s, words[i]))
			return true;
	const char *p = s + (*s == '+' || *s == '-');
	const char *digits = "0123456789_:.eE+-";
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2, digits = "0123456789abcdefABCDEF_";
	else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
		p += 2, digits = "01_";
	bool digit = false;
	for (; *p; p++) {
		if (!strchr(digits, *p))
			return false;
		digit |= *p >= '0' && *p <= '9';
	}
	return digit;
}

static void scalar_styled(emitter *em, const char *s, yaml_scalar_style_t style)
{
	yaml_event_t ev;
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1, style);
	emit(em, &ev);
}

static void str(emitter *em, const char *s)
{
	if (!s)
		s = "";
	scalar_styled(em, s, looks_typed(s) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
}

static void num(emitter *em, long n)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%ld", n);
	scalar_styled(em, buf, YAML_PLAIN_SCALAR_STYLE);
}

static void real(emitter *em, double x)
{
	char buf[64];
	/* Whole numbers (a timeout of 60) as such; others with a fixed six
	 * decimals, which YAML reads back as a float whatever the value. */
	if (x == (double)(long long)x && x > -1e15 && x < 1e15)
		snprintf(buf, sizeof buf, "%lld", (long long)x);
	else
		snprintf(buf, sizeof buf, "%.6f", x);
	scalar_styled(em, buf, YAML_PLAIN_SCALAR_STYLE);
}

static void boolean(emitter *em, bool b)
{
	scalar_styled(em, b ? "true" : "false", YAML_PLAIN_SCALAR_STYLE);
}

static void map_start(emitter *em, bool flow)
{
	yaml_event_t ev;
	yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	emit(em, &ev);
}

static void map_end(emitter *em)
{
	yaml_event_t ev;
	yaml_mapping_end_event_initialize(&ev);
	emit(em, &ev);
}

static void seq_start(emitter *em, bool flow)
{
	yaml_event_t ev;
	yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
	emit(em, &ev);
}

static void seq_end(emitter *em)
{
	yaml_event_t ev;
	yaml_sequence_end_event_initialize(&ev);
	emit(em, &ev);
}

static void key_str(emitter *em, const char *k, const char *v)
{
	str(em, k);
	str(em, v);
}

static void key_num(emitter *em, const char *k, long v)
{
	str(em, k);
	num(em, v);
}

static void emit_run(emitter *em, const yaml_run_info *run)
{
	str(em, "run");
	map_start(em, true);
	key_str(em, "id", run->id);
	key_str(em, "weft", run->weft);
	key_str(em, "engine", run->engine);
	key_str(em, "options", run->options);
	if (run->n_models > 0) {
		str(em, "models");
		seq_start(em, true);
		for (int i = 0; i < run->n_models; i++)
			str(em, run->models[i]);
		seq_end(em);
	}
	key_num(em, "selected", run->selected);
	if (run->shard_n > 0) {
		char shard[48];
		snprintf(shard, sizeof shard, "%d/%d", run->shard_k, run->shard_n);
		key_str(em, "shard", shard);
	}
	map_end(em);
}

/* Opens the stream, the document and the test's mapping with its identity. */
static void begin(emitter *em, FILE *out, const yaml_test_info *info)
{
	memset(em, 0, sizeof *em);
	yaml_emitter_initialize(&em->e);
	yaml_emitter_set_output_file(&em->e, out);
	yaml_emitter_set_unicode(&em->e, 1);
	yaml_emitter_set_width(&em->e, -1);
	yaml_event_t ev;
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	emit(em, &ev);
	/* Explicit "---": documents of several workers concatenate into one
	 * valid stream. */
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
	emit(em, &ev);
	map_start(em, false);
	key_str(em, "name", info->name);
	key_str(em, "file", info->file);
	if (info->arch)
		key_str(em, "arch", info->arch);
	if (info->model)
		key_str(em, "model", info->model);
	if (info->engine)
		key_str(em, "engine", info->engine);
	if (info->seq > 0)
		key_num(em, "seq", info->seq);
	if (info->run)
		emit_run(em, info->run);
	if (info->model_file)
		key_str(em, "model_file", info->model_file);
	if (info->model_fingerprint)
		key_str(em, "model_fingerprint", info->model_fingerprint);
}

static void end(emitter *em)
{
	map_end(em);
	yaml_event_t ev;
	yaml_document_end_event_initialize(&ev, 1);
	emit(em, &ev);
	yaml_stream_end_event_initialize(&ev);
	emit(em, &ev);
	yaml_emitter_flush(&em->e);
	yaml_emitter_delete(&em->e);
}

static const char *kind_name(enum quantifier q)
{
	return q == Q_EXISTS ? "Allowed" : q == Q_NOT_EXISTS ? "Forbidden" : "Required";
}

typedef struct state_line {
	char *text;
	int index;
} state_line;

static int compare_lines(const void *a, const void *b)
{
	return strcmp(((const state_line *)a)->text, ((const state_line *)b)->text);
}

static void emit_states(emitter *em, const litmus_test *t, const test_result *r)
{
	state_line *lines = xcalloc((size_t)(r->n_states ? r->n_states : 1), sizeof *lines);
	for (int i = 0; i < r->n_states; i++) {
		lines[i].text = report_state_line(t, r, i);
		lines[i].index = i;
	}
	qsort(lines, (size_t)r->n_states, sizeof *lines, compare_lines);
	str(em, "states");
	seq_start(em, false);
	strbuf b = { 0 };
	for (int k = 0; k < r->n_states; k++) {
		const final_state *s = &r->states[lines[k].index];
		map_start(em, false);
		key_str(em, "state", lines[k].text);
		str(em, "bindings");
		map_start(em, true);
		for (int v = 0; v < r->n_lvals; v++) {
			lval lv = r->lvals[v];
			sb_reset(&b);
			if (lval_is_fault(lv))
				sb_printf(&b, "fault(P%d)", t->threads[lv.thread].id);
			else if (lv.thread >= 0)
				sb_printf(&b, "%d:%s", t->threads[lv.thread].id, t->threads[lv.thread].regs[lv.reg].name);
			else
				sb_puts(&b, t->locs[lv.loc].name);
			str(em, b.s);
			if (value_is_symbolic(s->vals[v]) || value_is_instr(s->vals[v])) {
				sb_reset(&b);
				value_print(t, s->vals[v], &b);
				str(em, b.s);
			} else if (lval_is_fault(lv)) {
				/* vmsa: the fault the condition names, or none */
				sb_reset(&b);
				if (value_is_fault(s->vals[v]))
					vmsa_fault_print(t, lv.thread, s->vals[v], &b);
				str(em, value_is_fault(s->vals[v]) ? b.s + 1 : "none");
			} else if (value_is_pte(s->vals[v]) || value_is_page(s->vals[v])) {
				sb_reset(&b);
				vmsa_value_print(t, s->vals[v], false, &b);
				str(em, b.s);
			} else if (s->vals[v].loc < 0) {
				num(em, (long)s->vals[v].num);
			} else {
				sb_reset(&b);
				sb_puts(&b, t->locs[s->vals[v].loc].name);
				if (s->vals[v].num)
					sb_printf(&b, "+%lld", (long long)s->vals[v].num);
				str(em, b.s);
			}
		}
		map_end(em);
		key_num(em, "count", s->count);
		str(em, "holds");
		boolean(em, s->holds);
		map_end(em);
		free(lines[k].text);
	}
	seq_end(em);
	sb_free(&b);
	free(lines);
}

static void emit_stats(emitter *em, const test_result *r)
{
	const engine_stats *st = &r->stats;
	str(em, "stats");
	map_start(em, true);
	if (r->order)
		key_str(em, "order", r->order);
	if (r->fallback)
		key_str(em, "fallback", "enumerate");
	key_num(em, "paths", st->paths);
	key_num(em, "candidates", st->candidates);
	key_num(em, "complete", st->complete);
	key_num(em, "allowed", st->allowed);
	key_num(em, "forbidden", st->forbidden);
	key_num(em, "filtered", st->filtered);
	key_num(em, "toofar", st->toofar);
	key_num(em, "blocked", st->blocked);
	key_num(em, "commits", st->commits);
	key_num(em, "value_rounds", st->value_rounds);
	/* the engine's own counters (bmc's solver work), where it did some */
	for (int i = 0; r->engine && i < ENGINE_OWN_STATS && r->engine->own_stats_yaml[i]; i++)
		if (st->own[i])
			key_num(em, r->engine->own_stats_yaml[i], st->own[i]);
	map_end(em);
}

void yaml_emit_result(FILE *out, const yaml_test_info *info, const litmus_test *t, const test_result *r)
{
	emitter em;
	begin(&em, out, info);
	key_str(&em, "kind", kind_name(t->quant));
	strbuf cond = { 0 };
	report_condition(t, &cond);
	key_str(&em, "condition", cond.s ? cond.s : "");
	sb_free(&cond);
	emit_states(&em, t, r);
	key_num(&em, "positive", r->pos);
	key_num(&em, "negative", r->neg);
	key_str(&em, "verdict", verdict_ok(t->quant, r->pos, r->neg) ? "Ok" : "No");
	key_str(&em, "outcome", outcome_name(r->pos, r->neg));
	key_str(&em, "observation", r->pos == 0 ? "Never" : r->neg == 0 ? "Always" : "Sometimes");
	str(&em, "loop");
	boolean(&em, r->loop);
	str(&em, "flags");
	seq_start(&em, true);
	for (int i = 0; i < r->n_flags; i++)
		str(&em, r->flags[i]);
	seq_end(&em);
	char hash[33];
	test_hash(t, hash);
	key_str(&em, "hash", hash);
	str(&em, "time");
	real(&em, r->time);
	emit_stats(&em, r);
	end(&em);
}

void yaml_emit_failure(FILE *out, const yaml_test_info *info, const char *verdict,
		       const char *detail_key, double detail)
{
	emitter em;
	begin(&em, out, info);
	if (info->condition)
		key_str(&em, "condition", info->condition);
	key_str(&em, "verdict", verdict);
	if (detail_key) {
		str(&em, detail_key);
		real(&em, detail);
	}
	end(&em);
}
