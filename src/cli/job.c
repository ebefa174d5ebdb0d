/* job.c — one test in a worker: parse, run, print, compare. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "../arch/arch.h"
#include "../litmus/litmus.h"
#include "../report/report.h"
#include "../report/report_extra.h"

int job_n_models(const suite_run *s)
{
	return s->o->models.n > 0 ? s->o->models.n : 1;
}

const char *job_model_at(const suite_run *s, const char *arch, int k)
{
	if (s->o->models.n > 0)
		return k < s->o->models.n ? s->o->models.v[k] : NULL;
	return model_cache_default(s->models, arch ? arch_find(arch) : NULL, NULL);
}

void job_note_default_models(const weft_options *o, const model_cache *models, const test_plan *plan, diag *d)
{
	if (o->models.n > 0)
		return;
	const arch *said[16];
	int n_said = 0;
	for (int i = 0; i < plan->n; i++) {
		const arch *a = plan->v[i].arch ? arch_find(plan->v[i].arch) : NULL;
		bool herds;
		if (!a || !model_cache_default(models, a, &herds))
			continue;
		const char *note = herds ? a->herd_default_note : a->default_model_note;
		if (!note)
			continue;
		bool seen = false;
		for (int k = 0; k < n_said && !seen; k++)
			seen = said[k] == a;
		if (seen || n_said == (int)(sizeof said / sizeof *said))
			continue;
		said[n_said++] = a;
		diag_note(d, (srcloc){ NULL, 0, 0 }, "%s", note);
	}
}

const char *job_model_name(const suite_run *s, const char *arch)
{
	return job_model_at(s, arch, 0);
}

/* "FILE.cat:LINE:COL: " at the start of a diagnostic line. */
static bool located_in_model(const char *line, size_t len)
{
	const char *colon = memchr(line, ':', len);
	while (colon && colon - line < (ptrdiff_t)len) {
		if (colon - line >= 4 && !strncmp(colon - 4, ".cat", 4))
			return colon + 1 < line + len && colon[1] >= '0' && colon[1] <= '9';
		colon = memchr(colon + 1, ':', len - (size_t)(colon + 1 - line));
	}
	return false;
}

void job_put_err(void *ctx, int i, const char *text, size_t len)
{
	const suite_run *s = ctx;
	if (s->judging)
		judging_err(s->judging, i, text, len);
	for (const char *p = text, *end = text + len; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = (size_t)((nl ? nl + 1 : end) - p);
		bool repeat = false;
		if (s->said && located_in_model(p, n)) {
			/* said holds "\nLINE\n" for each line printed */
			char *key = xasprintf("\n%.*s%s", (int)n, p, nl ? "" : "\n");
			repeat = s->said->s && strstr(s->said->s, key);
			if (!repeat)
				sb_puts(s->said, key + (s->said->len ? 1 : 0));
			free(key);
		}
		if (!repeat)
			fwrite(p, 1, n, stderr);
		p += n;
	}
}

void job_reported(void *ctx, int i, const job_report *rep)
{
	const suite_run *s = ctx;
	if (s->handovers)
		handover_add(s->handovers, rep->handed_over, s->plan->v[i].name);
}

bool job_names_handovers(const suite_run *s)
{
	return s->o->verbose;
}

const char *job_name(void *ctx, int i)
{
	const suite_run *s = ctx;
	return s->plan->v[i].name;
}

/* The label of `model` in this run's output (owned). */
static char *label_of(const suite_run *s, const char *model)
{
	const char *label = s->labels ? run_models_label(s->labels, model) : NULL;
	return label ? xstrdup(label) : suite_model_key(model);
}

static enum doc_syntax doc_syntax_of(const weft_options *o)
{
	return o->format == FMT_JSON ? DOC_JSON : DOC_YAML;
}

/* The identity fields of a result document, with what produced it; *key_out
 * must be freed. */
static doc_test_info info_of(const suite_run *s, const test_entry *e, const char *name,
			      const char *arch, const char *model, const char *engine, char **key_out)
{
	*key_out = model ? label_of(s, model) : NULL;
	doc_test_info info = { name, e->path, arch, *key_out, engine, e->seq, NULL, NULL, NULL, NULL };
	if (s->prov) {
		info.run = &s->prov->info;
		const model_origin *mo = provenance_model(s->prov, model);
		if (mo && mo->file) {
			info.model_file = mo->file;
			info.model_fingerprint = mo->fingerprint;
		}
	}
	return info;
}

static void print_failure(const suite_run *s, const test_entry *e, const char *model, const char *verdict,
			  const char *detail_key, double detail, FILE *out)
{
	if (format_is_documents(s->o->format)) {
		char *key;
		doc_test_info info = info_of(s, e, e->name, e->arch, model, s->o->engine, &key);
		doc_emit_failure(out, doc_syntax_of(s->o), &info, verdict, detail_key, detail);
		free(key);
	} else if (detail_key) {
		fprintf(out, "Test %s %s %g\n\n", e->name, verdict, detail);
	} else {
		fprintf(out, "Test %s %s\n\n", e->name, verdict);
	}
}

/* A test the engine gave up on: in YAML, its condition too, as the table
 * record of a direct run has it (a hardware column judges with it). */
static void print_timeout(const suite_run *s, const test_entry *e, const litmus_test *t, const char *model)
{
	if (!format_is_documents(s->o->format)) {
		print_failure(s, e, model, "Timeout", "timeout", s->o->timeout, stdout);
		return;
	}
	char *key;
	doc_test_info info = info_of(s, e, t->name, t->arch_name, model, s->o->engine, &key);
	strbuf cond = { 0 };
	report_condition(t, &cond);
	info.condition = cond.s ? cond.s : "";
	doc_emit_failure(stdout, doc_syntax_of(s->o), &info, "Timeout", "timeout", s->o->timeout);
	sb_free(&cond);
	free(key);
}

static void table_failure(const suite_run *s, const char *model, enum cell_status st)
{
	char *key = model ? label_of(s, model) : xstrdup("?");
	table_record_status(stdout, key, st);
	free(key);
}

/* herd's block; under several -model options, a `Model LABEL` line ends
 * it (after Hash and Stats, where herd's log tools stop reading a block),
 * or the blocks of one test could not be told apart. */
static void print_block(const suite_run *s, const litmus_test *t, const test_result *r, const char *label)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = s->o->models.n > 1 ? open_memstream(&text, &len) : NULL;
	herd_report_opts ro = { true, s->o->stats, s->o->hexa };
	if (!mem) {
		report_herd_opts(stdout, t, r, &ro);
		return;
	}
	report_herd_opts(mem, t, r, &ro);
	fclose(mem);
	/* the block ends with a blank line: the Model line goes before it */
	if (len > 0 && text[len - 1] == '\n')
		len--;
	fwrite(text, 1, len, stdout);
	if (len > 0)
		printf("Model %s\n\n", label);
	free(text);
}

/* The engine's run of t under `model`, with the explainer listening when
 * -explain or -show asks for it.  Returns false after reporting. */
static bool run_engine(const suite_run *s, const litmus_test *t, const char *model, cat_model *m,
		       test_result *r, explainer **ex, diag *d)
{
	const weft_options *o = s->o;
	engine_opts eo = s->eo;
	*ex = NULL;
	if (o->explain || o->show != SHOW_NONE) {
		char *key = label_of(s, model);
		explain_opts xo = { o->explain, (enum show_which)o->show, o->output, key, o->nshow };
		*ex = explainer_new(t, &xo);
		free(key);
		eo.on_candidate = explainer_on_candidate;
		eo.candidate_ctx = *ex;
	}
	return engine_run(o->engine, t, m, &eo, r, d);
}

/* herd's warning after a block whose verdict says Loop: some path was cut
 * by the unroll limit, so executions it would have led to are missing. */
static void warn_loop(const litmus_test *t, diag *d)
{
	const thread *th = NULL;
	const op *jump = litmus_first_back_jump(t, &th);
	srcloc at = { t->file, 1, 1 };
	if (jump && jump->instr >= 0 && jump->instr < th->n_instrs)
		at = th->instrs[jump->instr].loc;
	diag_warning(d, at, "unrolling limit exceeded at %s, legal outcomes may be missing",
		     jump && jump->label ? jump->label : "a loop");
}

/* An engine that gave up at -timeout: how far it got, said at the test,
 * and where an answer may be had, since herd's `Timeout` line says
 * neither. */
static void note_timeout(const suite_run *s, const litmus_test *t, const char *model, const test_result *r, diag *d)
{
	const char *engine = r->engine ? r->engine->name : s->o->engine;
	char *label = label_of(s, model);
	strbuf b = { 0 };
	sb_printf(&b, "%s timed out after %g s under %s with -engine %s: ", t->name, s->o->timeout, label, engine);
	if (r->engine && !(r->engine->caps & ENGINE_COUNTS))
		sb_puts(&b, "its states so far are not shown");
	else
		sb_printf(&b, "%ld allowed execution%s found, %ld candidate%s judged", r->stats.complete,
			  r->stats.complete == 1 ? "" : "s", r->stats.candidates, r->stats.candidates == 1 ? "" : "s");
	if (strcmp(engine, "bmc") != 0)
		sb_puts(&b, "; -engine bmc answers which states are reachable without visiting every execution, "
			    "under the models it takes");
	diag_note(d, (srcloc){ t->file, 1, 1 }, "%s", b.s);
	sb_free(&b);
	free(label);
}

/* Test t under one model: its block (or YAML document, or table record),
 * counted into *rep. */
static void run_model(const suite_run *s, const test_entry *e, const litmus_test *t, const char *model,
		      job_report *rep, strbuf *notes, diag *d)
{
	const weft_options *o = s->o;
	bool table = o->table != TBL_NONE;
	/* one of several models, written for other architectures: left out
	 * (its table cell stays empty; the parent said so once) */
	if (model && o->models.n > 1 && !model_cache_applies(s->models, model, t->arch_name))
		return;
	cat_model *m = model ? model_cache_get_test(s->models, model, t, d) : NULL;
	if (!m) {
		if (!model)
			diag_error(d, (srcloc){ t->file, 1, 1 }, "no default model for architecture %s", t->arch_name);
		rep->errors++;
		if (table)
			table_failure(s, model, CELL_ERROR);
		else if (format_is_documents(o->format))
			print_failure(s, e, model, "Error", NULL, 0, stdout);
		return;
	}
	test_result r;
	explainer *ex;
	int errors_before = d->errors;
	bool ran = run_engine(s, t, model, m, &r, &ex, d);
	/* an error on the way (an access through an address that is not a
	 * location: herd rejects the test) leaves no answer to give */
	if (ran && d->errors > errors_before) {
		test_result_free(&r);
		ran = false;
	}
	if (!ran) {
		explainer_free(ex);
		rep->errors++;
		if (table)
			table_failure(s, model, CELL_ERROR);
		else if (format_is_documents(o->format))
			print_failure(s, e, model, "Error", NULL, 0, stdout);
		return;
	}
	if (r.fallback) {
		rep->handed_over |= handover_bit(r.fallback);
		/* a warning (the model's own order blocked: its author's to
		 * mend) is said even for a run of one test */
		const engine_desc *eng = engine_find(o->engine);
		if (job_names_handovers(s) || (s->plan->n == 1 && eng && r.fallback == eng->fallback_warning)) {
			char *label = label_of(s, model);
			handover_say(t, label, eng, r.fallback, d);
			free(label);
		}
	}
	if (r.timed_out) {
		rep->timeouts++;
		if (!s->o->quiet)
			note_timeout(s, t, model, &r, d);
		if (table)
			table_failure(s, model, CELL_TIMEOUT);
		else
			print_timeout(s, e, t, model);
	} else {
		char *key = label_of(s, model);
		if (table) {
			/* only -diff compares state sets: other tables do without */
			char *states = o->table == TBL_DIFF ? state_set_of_result(t, &r) : NULL;
			table_record_print(stdout, key, r.pos > 0 ? CELL_ALLOWED : CELL_FORBIDDEN, t->quant, &r, states);
			free(states);
		} else if (format_is_documents(o->format)) {
			char *ikey;
			doc_test_info info = info_of(s, e, t->name, t->arch_name, model, r.engine ? r.engine->name : o->engine,
						      &ikey);
			doc_emit_result(stdout, doc_syntax_of(o), &info, t, &r);
			free(ikey);
		} else {
			print_block(s, t, &r, key);
		}
		if (r.loop)
			warn_loop(t, d);
		if (ex && !explainer_finish(ex, m, &r, stdout, d))
			rep->errors++;
		if (verdict_ok(t->quant, r.pos, r.neg))
			rep->ok++;
		else
			rep->no++;
		if (s->expect)
			rep->mismatches += expect_check(s->expect, t, key, &r, notes, &rep->compared);
		free(key);
	}
	explainer_free(ex);
	test_result_free(&r);
}

static void run_test(const suite_run *s, const test_entry *e, const litmus_test *t, job_report *rep,
		     strbuf *notes, diag *d)
{
	if (s->o->table != TBL_NONE)
		table_record_condition(stdout, t);
	for (int k = 0; k < job_n_models(s); k++)
		run_model(s, e, t, job_model_at(s, t->arch_name, k), rep, notes, d);
}

void job_run(void *ctx, int i, job_report *rep, strbuf *notes, live_counts *live)
{
	const suite_run *s = ctx;
	const test_entry *e = &s->plan->v[i];
	diag d = { .out = stderr };
	if (s->o->action == ACT_CHECK && (str_has_suffix(e->path, ".cat") || str_has_suffix(e->path, ".bell"))) {
		if (!model_check_file(s->models, e->path, &d))
			rep->errors++;
		return;
	}
	litmus_test *t = litmus_parse_file_variants(e->path, model_cache_macros(s->models, s->o), s->macros,
	                                            s->models->variants, &d);
	if (!t) {
		rep->errors++;
		for (int k = 0; s->o->action == ACT_RUN && k < job_n_models(s); k++) {
			if (s->o->table != TBL_NONE)
				table_failure(s, job_model_at(s, e->arch, k), CELL_ERROR);
			else if (format_is_documents(s->o->format))
				print_failure(s, e, job_model_at(s, e->arch, k), "Error", NULL, 0, stdout);
		}
		return;
	}
	const char *condition = s->o->action == ACT_RUN ? conds_find(s->conds, t->name) : NULL;
	if (condition) {
		/* -conds: the test with the condition the file gives it */
		litmus_test *t2 = litmus_with_condition(t, condition, &d);
		if (!t2)
			diag_note(&d, conds_where(s->conds, t->name), "in the condition given for %s here", t->name);
		litmus_test_free(t);
		t = t2;
		if (!t) {
			rep->errors++;
			return;
		}
	}
	if (s->o->action == ACT_DUMP)
		litmus_test_dump(t, stdout);
	else if (s->o->action == ACT_RUN) {
		/* the engine keeps this job's live counts */
		suite_run with_live = *s;
		with_live.eo.live = live;
		run_test(&with_live, e, t, rep, notes, &d);
	}
	litmus_test_free(t);
}

static enum cell_status cell_of_end(enum job_end end)
{
	switch (end) {
	case JOB_TIMEOUT: return CELL_TIMEOUT;
	case JOB_OUT_OF_MEMORY: return CELL_OUT_OF_MEMORY;
	case JOB_CRASHED_SIGNAL: case JOB_CRASHED_EXIT: return CELL_CRASHED;
	case JOB_FINISHED: break;
	}
	return CELL_ERROR;
}

/* The record of one model's run of a test that did not finish. */
static void abnormal_record(const suite_run *s, const test_entry *e, const char *model, enum job_end end,
			    int detail, FILE *out)
{
	switch (end) {
	case JOB_FINISHED:
		break;
	case JOB_TIMEOUT:
		print_failure(s, e, model, "Timeout", "timeout", s->o->timeout, out);
		break;
	case JOB_OUT_OF_MEMORY:
		if (format_is_documents(s->o->format) && s->o->maxmem_mb)
			print_failure(s, e, model, "OutOfMemory", "maxmem", (double)s->o->maxmem_mb, out);
		else
			print_failure(s, e, model, "OutOfMemory", NULL, 0, out);
		break;
	case JOB_CRASHED_SIGNAL:
		if (format_is_documents(s->o->format))
			print_failure(s, e, model, "Crashed", "signal", detail, out);
		else
			fprintf(out, "Test %s Crashed signal %d\n\n", e->name, detail);
		break;
	case JOB_CRASHED_EXIT:
		if (format_is_documents(s->o->format))
			print_failure(s, e, model, "Crashed", "exit", detail, out);
		else
			fprintf(out, "Test %s Crashed exit %d\n\n", e->name, detail);
		break;
	}
}

void job_abnormal(void *ctx, int i, enum job_end end, int detail, FILE *out)
{
	const suite_run *s = ctx;
	const test_entry *e = &s->plan->v[i];
	bool run = s->o->action == ACT_RUN;
	/* -check prints nothing on stdout: its records go with the diagnostics. */
	if (s->o->action == ACT_CHECK)
		out = stderr;
	if (run && s->o->table != TBL_NONE) {
		for (int k = 0; k < job_n_models(s); k++) {
			const char *model = job_model_at(s, e->arch, k);
			char *key = model ? label_of(s, model) : xstrdup("?");
			table_record_status(out, key, cell_of_end(end));
			free(key);
		}
		return;
	}
	/* herd text has one record for the test; YAML one document per
	 * (test, model), so that every pair has its document. */
	int n = run && format_is_documents(s->o->format) ? job_n_models(s) : 1;
	for (int k = 0; k < n; k++)
		abnormal_record(s, e, run ? job_model_at(s, e->arch, k) : NULL, end, detail, out);
}
