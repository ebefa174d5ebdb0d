/* result_doc.c — the document of one test under one model, laid out once
 * for -format yaml and -format json (doc_writer.h writes either). */
#include <stdlib.h>
#include <string.h>

#include "doc_writer.h"
#include "../report/report.h"

static void key_str(doc_writer *em, const char *k, const char *v)
{
	doc_str(em, k);
	doc_str(em, v);
}

static void key_num(doc_writer *em, const char *k, long v)
{
	doc_str(em, k);
	doc_num(em, v);
}

static void emit_run(doc_writer *em, const doc_run_info *run)
{
	doc_str(em, "run");
	doc_map_start(em, true);
	key_str(em, "id", run->id);
	key_str(em, "weft", run->weft);
	key_str(em, "engine", run->engine);
	key_str(em, "options", run->options);
	if (run->n_models > 0) {
		doc_str(em, "models");
		doc_seq_start(em, true);
		for (int i = 0; i < run->n_models; i++)
			doc_str(em, run->models[i]);
		doc_seq_end(em);
	}
	key_num(em, "selected", run->selected);
	if (run->shard_n > 0) {
		char shard[48];
		snprintf(shard, sizeof shard, "%d/%d", run->shard_k, run->shard_n);
		key_str(em, "shard", shard);
	}
	doc_map_end(em);
}

/* Opens the document and the test's mapping with its identity. */
static void begin(doc_writer *em, FILE *out, enum doc_syntax syntax, const doc_test_info *info)
{
	doc_begin(em, out, syntax);
	doc_map_start(em, false);
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

static void end(doc_writer *em)
{
	doc_map_end(em);
	doc_end(em);
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

static void emit_states(doc_writer *em, const litmus_test *t, const test_result *r)
{
	state_line *lines = xcalloc((size_t)(r->n_states ? r->n_states : 1), sizeof *lines);
	for (int i = 0; i < r->n_states; i++) {
		lines[i].text = report_state_line(t, r, i);
		lines[i].index = i;
	}
	qsort(lines, (size_t)r->n_states, sizeof *lines, compare_lines);
	doc_str(em, "states");
	doc_seq_start(em, false);
	strbuf b = { 0 };
	for (int k = 0; k < r->n_states; k++) {
		const final_state *s = &r->states[lines[k].index];
		doc_map_start(em, false);
		key_str(em, "state", lines[k].text);
		doc_str(em, "bindings");
		doc_map_start(em, true);
		for (int v = 0; v < r->n_lvals; v++) {
			lval lv = r->lvals[v];
			sb_reset(&b);
			if (lval_is_fault(lv))
				sb_printf(&b, "fault(P%d)", t->threads[lv.thread].id);
			else if (lv.thread >= 0)
				sb_printf(&b, "%d:%s", t->threads[lv.thread].id, t->threads[lv.thread].regs[lv.reg].name);
			else
				sb_puts(&b, t->locs[lv.loc].name);
			doc_str(em, b.s);
			if (value_is_symbolic(s->vals[v]) || value_is_instr(s->vals[v])) {
				sb_reset(&b);
				value_print(t, s->vals[v], &b);
				doc_str(em, b.s);
			} else if (lval_is_fault(lv)) {
				/* vmsa: the fault the condition names, or none */
				sb_reset(&b);
				if (value_is_fault(s->vals[v]))
					vmsa_fault_print(t, lv.thread, s->vals[v], &b);
				doc_str(em, value_is_fault(s->vals[v]) ? b.s + 1 : "none");
			} else if (value_is_pte(s->vals[v]) || value_is_page(s->vals[v])) {
				sb_reset(&b);
				vmsa_value_print(t, s->vals[v], false, &b);
				doc_str(em, b.s);
			} else if (s->vals[v].loc < 0) {
				doc_num(em, (long)s->vals[v].num);
			} else {
				sb_reset(&b);
				sb_puts(&b, t->locs[s->vals[v].loc].name);
				if (s->vals[v].num)
					sb_printf(&b, "+%lld", (long long)s->vals[v].num);
				doc_str(em, b.s);
			}
		}
		doc_map_end(em);
		key_num(em, "count", s->count);
		doc_str(em, "holds");
		doc_bool(em, s->holds);
		doc_map_end(em);
		free(lines[k].text);
	}
	doc_seq_end(em);
	sb_free(&b);
	free(lines);
}

static void emit_stats(doc_writer *em, const test_result *r)
{
	const engine_stats *st = &r->stats;
	doc_str(em, "stats");
	doc_map_start(em, true);
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
	doc_map_end(em);
}

void doc_emit_result(FILE *out, enum doc_syntax syntax, const doc_test_info *info, const litmus_test *t,
		     const test_result *r)
{
	doc_writer em;
	begin(&em, out, syntax, info);
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
	doc_str(&em, "loop");
	doc_bool(&em, r->loop);
	doc_str(&em, "flags");
	doc_seq_start(&em, true);
	for (int i = 0; i < r->n_flags; i++)
		doc_str(&em, r->flags[i]);
	doc_seq_end(&em);
	char hash[33];
	test_hash(t, hash);
	key_str(&em, "hash", hash);
	doc_str(&em, "time");
	doc_real(&em, r->time);
	emit_stats(&em, r);
	end(&em);
}

void doc_emit_failure(FILE *out, enum doc_syntax syntax, const doc_test_info *info, const char *verdict,
		      const char *detail_key, double detail)
{
	doc_writer em;
	begin(&em, out, syntax, info);
	if (info->condition)
		key_str(&em, "condition", info->condition);
	key_str(&em, "verdict", verdict);
	if (detail_key) {
		doc_str(&em, detail_key);
		doc_real(&em, detail);
	}
	end(&em);
}
