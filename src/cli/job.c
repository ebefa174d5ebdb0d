/* job.c — one test in a worker: parse, run, print, compare. */
#include <stdlib.h>
#include <string.h>

#include "job.h"
#include "../arch/arch.h"
#include "../litmus/litmus.h"
#include "../report/report.h"

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

const char *job_model_name(const suite_run *s, const char *arch)
{
	if (s->o->models.n > 0)
		return s->o->models.v[0];
	const struct arch *a = arch ? arch_find(arch) : NULL;
	return a ? a->default_model : NULL;
}

const char *job_name(void *ctx, int i)
{
	const suite_run *s = ctx;
	return s->plan->v[i].name;
}

/* The identity fields of a YAML document; *key_out must be freed. */
static yaml_test_info info_of(const suite_run *s, const test_entry *e, const char *name,
			      const char *arch, const char *model, char **key_out)
{
	*key_out = model ? suite_model_key(model) : NULL;
	return (yaml_test_info){ name, e->path, arch, *key_out, s->o->engine };
}

static void print_failure(const suite_run *s, const test_entry *e, const char *model, const char *verdict,
			  const char *detail_key, double detail, FILE *out)
{
	if (s->o->format == FMT_YAML) {
		char *key;
		yaml_test_info info = info_of(s, e, e->name, e->arch, model, &key);
		yaml_emit_failure(out, &info, verdict, detail_key, detail);
		free(key);
	} else if (detail_key) {
		fprintf(out, "Test %s %s %g\n\n", e->name, verdict, detail);
	} else {
		fprintf(out, "Test %s %s\n\n", e->name, verdict);
	}
}

static void run_test(const suite_run *s, const test_entry *e, const litmus_test *t, job_report *rep,
		     strbuf *notes, diag *d)
{
	const weft_options *o = s->o;
	const char *model = job_model_name(s, t->arch_name);
	cat_model *m = model ? model_cache_get(s->models, model, d) : NULL;
	if (!m) {
		if (!model)
			diag_error(d, (srcloc){ t->file, 1, 1 }, "no default model for architecture %s", t->arch_name);
		rep->errors++;
		if (o->format == FMT_YAML)
			print_failure(s, e, model, "Error", NULL, 0, stdout);
		return;
	}
	test_result r;
	if (!engine_run(o->engine, t, m, &s->eo, &r, d)) {
		rep->errors++;
		if (o->format == FMT_YAML)
			print_failure(s, e, model, "Error", NULL, 0, stdout);
		return;
	}
	if (r.timed_out) {
		rep->timeouts++;
		print_failure(s, e, model, "Timeout", "timeout", o->timeout, stdout);
	} else {
		if (o->format == FMT_YAML) {
			char *key;
			yaml_test_info info = info_of(s, e, t->name, t->arch_name, model, &key);
			info.engine = r.engine ? r.engine : o->engine;
			yaml_emit_result(stdout, &info, t, &r);
			free(key);
		} else {
			report_herd(stdout, t, &r, true, o->stats);
		}
		if (verdict_ok(t->quant, r.pos, r.neg))
			rep->ok++;
		else
			rep->no++;
		if (s->expect) {
			char *key = suite_model_key(model);
			rep->mismatches += expect_check(s->expect, t, key, &r, notes);
			free(key);
		}
	}
	test_result_free(&r);
}

void job_run(void *ctx, int i, job_report *rep, strbuf *notes)
{
	const suite_run *s = ctx;
	const test_entry *e = &s->plan->v[i];
	diag d = { stderr, 0, 0 };
	if (s->o->action == ACT_CHECK && has_suffix(e->path, ".cat")) {
		if (!cat_check_file(e->path, &s->models->path, &d))
			rep->errors++;
		return;
	}
	litmus_test *t = litmus_parse_file(e->path, &d);
	if (!t) {
		rep->errors++;
		if (s->o->action == ACT_RUN && s->o->format == FMT_YAML)
			print_failure(s, e, job_model_name(s, e->arch), "Error", NULL, 0, stdout);
		return;
	}
	if (s->o->action == ACT_DUMP)
		litmus_test_dump(t, stdout);
	else if (s->o->action == ACT_RUN)
		run_test(s, e, t, rep, notes, &d);
	litmus_test_free(t);
}

void job_abnormal(void *ctx, int i, enum job_end end, int detail, FILE *out)
{
	const suite_run *s = ctx;
	const test_entry *e = &s->plan->v[i];
	const char *model = s->o->action == ACT_RUN ? job_model_name(s, e->arch) : NULL;
	/* -check prints nothing on stdout: its records go with the diagnostics. */
	if (s->o->action == ACT_CHECK)
		out = stderr;
	switch (end) {
	case JOB_FINISHED:
		break;
	case JOB_TIMEOUT:
		print_failure(s, e, model, "Timeout", "timeout", s->o->timeout, out);
		break;
	case JOB_OUT_OF_MEMORY:
		if (s->o->format == FMT_YAML && s->o->maxmem_mb)
			print_failure(s, e, model, "OutOfMemory", "maxmem", (double)s->o->maxmem_mb, out);
		else
			print_failure(s, e, model, "OutOfMemory", NULL, 0, out);
		break;
	case JOB_CRASHED_SIGNAL:
		if (s->o->format == FMT_YAML)
			print_failure(s, e, model, "Crashed", "signal", detail, out);
		else
			fprintf(out, "Test %s Crashed signal %d\n\n", e->name, detail);
		break;
	case JOB_CRASHED_EXIT:
		if (s->o->format == FMT_YAML)
			print_failure(s, e, model, "Crashed", "exit", detail, out);
		else
			fprintf(out, "Test %s Crashed exit %d\n\n", e->name, detail);
		break;
	}
}
