/* main.c — the `weft` command: options in, result blocks out.
 *
 * Only command-line plumbing lives here: inputs are expanded and selected
 * (cli/inputs, cli/select), models and expectations are loaded once, then
 * every test runs in a worker process (cli/runner, cli/job). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "c/c.h"
#include "cli/inputs.h"
#include "cli/interactive.h"
#include "serve/serve.h"
#include "cli/job.h"
#include "cli/judging.h"
#include "cli/options.h"
#include "cli/progress.h"
#include "cli/provenance.h"
#include "cli/runner.h"
#include "cli/select.h"
#include "cli/tabulate.h"
#include "report/report_extra.h"

/* How long past -timeout the parent waits before it kills a worker: the
 * engine stops itself at the timeout, this catches a test stuck elsewhere
 * (parsing, the model). */
static double kill_deadline(double timeout)
{
	return timeout > 0 ? timeout * 1.1 + 1.0 : 0;
}

static int default_workers(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	return n >= 1 ? (int)(n > 256 ? 256 : n) : 1;
}

/* Load every model the plan needs, once, before any fork.  Returns false
 * when one could not be loaded (reported through d). */
static bool preload_models(const suite_run *s, diag *d)
{
	bool ok = true;
	for (int i = 0; i < s->plan->n; i++)
		for (int k = 0; k < job_n_models(s); k++) {
			const char *name = job_model_at(s, s->plan->v[i].arch, k);
			const char *arch = s->plan->v[i].arch;
			/* With several models, one written for another
			 * architecture leaves that architecture's tests out;
			 * alone, it is an error (model_cache_get_for). */
			if (name && s->o->models.n > 1 && model_cache_get(s->models, name, d) &&
			    !model_cache_applies(s->models, name, arch)) {
				model_cache_note_skip(s->models, name, arch, d);
				continue;
			}
			if (name && !model_cache_get_for(s->models, name, arch, d))
				ok = false;
		}
	return ok;
}

/* -table: the rows (tests in input order) and the columns (models in
 * command-line order, or each architecture's default as first met); the
 * workers' records fill the cells. */
static void table_collect(void *ctx, int i, const char *out, size_t len)
{
	suite_run *s = ctx;
	table_records_read(s->table, i, out, len);
}

static void table_prepare(outcome_table *t, const suite_run *s)
{
	table_init(t);
	t->stats = s->o->stats;
	t->caption = s->o->caption;
	t->label = s->o->label;
	for (int i = 0; i < s->plan->n; i++)
		for (int k = 0; k < job_n_models(s); k++) {
			const char *name = job_model_at(s, s->plan->v[i].arch, k);
			if (name)
				table_column(t, run_models_label(s->labels, name));
		}
	for (int i = 0; i < s->plan->n; i++)
		table_add_row(t, s->plan->v[i].name);
}

/* -judge: each test's block and diagnostics are judged, not printed. */
static void judge_collect(void *ctx, int i, const char *out, size_t len)
{
	suite_run *s = ctx;
	judging_test(s->judging, i, out, len);
}

/* What a table needs from outside the run: got before any test runs, so
 * that a missing -hardware log or an -o that cannot be written is said at
 * once, not after an hour of tests. */
typedef struct table_io {
	hw_log *hw;   /* -hardware, or NULL */
	FILE *out;    /* -o's file, or stdout */
} table_io;

static bool table_io_open(table_io *io, const weft_options *o, diag *d)
{
	io->hw = NULL;
	io->out = stdout;
	if (o->hardware) {
		/* the reports read no file: the log's text is handed to them */
		size_t len;
		char *text = read_whole_file(o->hardware, &len, d);
		io->hw = text ? hw_log_parse(o->hardware, text, d) : NULL;
		free(text);
		if (!io->hw)
			return false;
	}
	if (o->output && !(io->out = fopen(o->output, "w"))) {
		diag_error(d, (srcloc){ o->output, 0, 0 }, "cannot write the table: %s", strerror(errno));
		hw_log_free(io->hw);
		io->hw = NULL;
		io->out = stdout;
		return false;
	}
	return true;
}

static void table_io_close(table_io *io)
{
	hw_log_free(io->hw);
	io->hw = NULL;
	if (io->out != stdout)
		fclose(io->out);
	io->out = stdout;
}

/* -show and -explain write their .dot files into -o's folder: made now if
 * missing (its parent must exist), before any test runs. */
static bool dot_folder_make(const weft_options *o, diag *d)
{
	if (!o->output || (o->show == SHOW_NONE && !o->explain) || o->table != TBL_NONE)
		return true;
	struct stat st;
	if (stat(o->output, &st) == 0 && S_ISDIR(st.st_mode))
		return true;
	if (mkdir(o->output, 0777) == 0)
		return true;
	diag_error(d, (srcloc){ o->output, 0, 0 }, "cannot make the folder for the .dot files: %s", strerror(errno));
	return false;
}

/* -format yaml|json -o FILE: the documents go to FILE (a shard's saved results,
 * e.g. from a job array where redirecting is awkward), opened before any
 * test runs. */
static bool results_file_open(const weft_options *o, diag *d)
{
	if (o->action != ACT_RUN || !format_is_documents(o->format) || !o->output || o->table != TBL_NONE ||
	    o->show != SHOW_NONE || o->explain)
		return true;
	if (freopen(o->output, "w", stdout))
		return true;
	diag_error(d, (srcloc){ o->output, 0, 0 }, "cannot write the results: %s", strerror(errno));
	return false;
}

/* Fill the hardware column and write the table to io's file (closed
 * then).  Returns false after reporting. */
/* -diff: the differences between the table's two columns, the counts by
 * kind on stderr; *differ tells whether any test differs. */
static bool diff_write(FILE *out, const outcome_table *t, const weft_options *o, bool *differ, diag *d)
{
	if (t->n_models != 2) {
		diag_error(d, (srcloc){ "-diff", 0, 0 },
			   "compares two models, and %s %d: give two -model (with -results, -model chooses two of "
			   "the saved columns)", o->results.n > 0 ? "the saved results have" : "this run has",
			   t->n_models);
		return false;
	}
	int counts[DIFF_KINDS];
	int n = table_diff_write(out, t, 0, 1, counts);
	*differ = n > 0;
	if (!o->quiet) {
		fprintf(stderr, "weft -diff: %s vs %s: %d of %d test%s differ", t->models[0], t->models[1], n,
			t->n_rows, t->n_rows == 1 ? "" : "s");
		for (int k = DIFF_VERDICT; k < DIFF_KINDS; k++)
			fprintf(stderr, "%s%d %s", k == DIFF_VERDICT ? ": " : ", ", counts[k],
				diff_kind_word((enum diff_kind)k));
		fputc('\n', stderr);
	}
	return true;
}

/* -table-order: the rows in the order asked for (given order: as built). */
static void table_order(outcome_table *t, const weft_options *o, const selector *sel)
{
	if (o->order == ORDER_NAME) {
		table_sort_rows(t, NULL);
	} else if (o->order == ORDER_NAMES) {
		int *rank = xcalloc((size_t)t->n_rows + 1, sizeof *rank);
		for (int i = 0; i < t->n_rows; i++)
			rank[i] = selector_names_rank(sel, t->rows[i].name);
		table_sort_rows(t, rank);
		free(rank);
	}
}

static bool table_finish(outcome_table *t, const weft_options *o, const selector *sel, table_io *io, bool *differ,
			 diag *d)
{
	table_order(t, o, sel);
	if (io->hw) {
		/* a log titled like a model's column gets its own label too */
		const char *title = o->hardware_label ? o->hardware_label : hw_log_title(io->hw);
		bool taken = false;
		for (int m = 0; m < t->n_models; m++)
			taken = taken || !strcmp(t->models[m], title);
		t->hardware = taken ? xasprintf("%s (hardware)", title) : xstrdup(title);
		for (int i = 0; i < t->n_rows; i++)
			t->rows[i].hw = hw_log_lookup_for(io->hw, t->rows[i].name, t->rows[i].condition);
	}
	FILE *out = io->out;
	io->out = stdout;
	static const enum table_format formats[] = { TABLE_MARKDOWN, TABLE_MARKDOWN, TABLE_LATEX, TABLE_CSV,
						     TABLE_LATEX_DOC, TABLE_HTML };
	static const enum table_cells cells[] = { TABLE_CELLS_VERDICT, TABLE_CELLS_COUNTS, TABLE_CELLS_STATES };
	bool ok = true;
	if (o->table == TBL_DIFF)
		ok = diff_write(out, t, o, differ, d);
	else
		table_write(out, t, formats[o->table], cells[o->cells]);
	ok = !ferror(out) && ok;
	if (out != stdout)
		ok = (fclose(out) == 0) && ok;
	else
		ok = (fflush(out) == 0) && ok;
	if (!ok)
		diag_error(d, (srcloc){ o->output ? o->output : "<stdout>", 0, 0 }, "could not write the table");
	return ok;
}

static int run_suite(const weft_options *o, const selector *sel, const test_plan *plan, expect_set *expect,
		     const conds_set *conds)
{
	diag d = { .out = stderr };
	model_cache models;
	model_cache_init(&models, o);
	suite_run s = { .o = o, .plan = plan, .models = &models, .expect = expect, .conds = conds };
	/* the .def of C tests, read once for every test; one that cannot be
	 * read is read (and refused, located) by each test that needs it */
	c_macros *macros = NULL;
	const char *macros_path = model_cache_macros(&models, o);
	if (macros_path) {
		diag quiet = { .drop = true };
		macros = c_macros_read(macros_path, &quiet);
	}
	s.macros = macros;
	s.eo.timeout = o->timeout;
	s.eo.stats = o->stats;
	s.eo.unroll = o->unroll >= 0 ? o->unroll : ENGINE_UNROLL_DEFAULT;
	s.eo.speedcheck = o->speedcheck == SPEED_FAST;
	s.eo.weft_chose = !o->engine_given;
	int status = 0;
	table_io io = { NULL, stdout };
	bool tabulate = o->action == ACT_RUN && o->table != TBL_NONE;
	if ((tabulate && !table_io_open(&io, o, &d)) || (o->action == ACT_RUN && !dot_folder_make(o, &d)) ||
	    !results_file_open(o, &d)) {
		model_cache_free(&models);
		c_macros_free(macros);
		return 1;
	}
	if (o->action == ACT_RUN) {
		/* Failed models are remembered in the cache: their tests are
		 * counted as errors without the message repeated. */
		if (!preload_models(&s, &d))
			status = 1;
	}
	run_models labels;
	run_models_init(&labels, o, plan, &models, &d);
	if (o->action == ACT_RUN)
		job_note_default_models(o, &models, plan, &d);
	s.labels = &labels;
	run_provenance prov;
	provenance_init(&prov, o, plan, &labels, &models);
	if (format_is_documents(o->format))
		s.prov = &prov;
	if (expect) {
		/* Keys become labels now, so that a key that names no model of
		 * the run is found before anything runs, not after nothing
		 * was compared. */
		expect_resolve(expect, run_models_resolve, &labels);
		if (labels.bad_keys > 0) {
			table_io_close(&io);
			provenance_free(&prov);
			run_models_free(&labels);
			model_cache_free(&models);
			c_macros_free(macros);
			return 1;
		}
	}
	if (o->maxmem_mb > 0 && !runner_can_limit_memory())
		fputs("weft: warning: -maxmem is not enforced in sanitizer builds\n", stderr);
	/* The engine's timeout applies to each model's run of a test. */
	runner_limits lim = { o->jobs > 0 ? o->jobs : default_workers(),
			      kill_deadline(o->timeout * job_n_models(&s)), o->maxmem_mb };
	job_callbacks cb = { job_run, job_abnormal, job_name, &s, NULL, job_put_err, job_reported };
	strbuf said = { 0 };
	s.said = &said;
	handover_tally handovers = { .engine = engine_find(o->engine) };
	s.handovers = &handovers;
	outcome_table table;
	if (tabulate) {
		table_prepare(&table, &s);
		s.table = &table;
		cb.collect = table_collect;
	}
	judging judged;
	judging_init(&judged, plan, o->verbose, stdout);
	if (o->judge && o->action == ACT_RUN) {
		s.judging = &judged;
		cb.collect = judge_collect;
	}
	progress pr;
	progress_init(&pr, stderr, plan->n, o->action == ACT_RUN && !o->quiet && isatty(STDERR_FILENO));
	run_totals t;
	double start = progress_now();
	runner_run(&lim, &cb, plan->n, &pr, &t);
	t.models = job_n_models(&s);
	double seconds = progress_now() - start;
	if (tabulate) {
		bool differ = false;
		if (!t.output_closed && (!table_finish(&table, o, sel, &io, &differ, &d) || differ))
			status = 1;
		table_io_close(&io);
		table_free(&table);
	}
	if (s.judging && !t.output_closed && !judging_summary(&judged))
		status = 1;
	judging_free(&judged);
	if (t.sum.mismatches > 0) {
		fprintf(stderr, "weft: %d expectation%s not met:\n", t.sum.mismatches,
			t.sum.mismatches == 1 ? "" : "s");
		fputs(t.notes.s, stderr);
	}
	if (expect && o->action == ACT_RUN && !t.output_closed) {
		fprintf(stderr, "weft: -expect: %d test%s compared, %d mismatch%s\n", t.sum.compared,
			t.sum.compared == 1 ? "" : "s", t.sum.mismatches, t.sum.mismatches == 1 ? "" : "es");
		if (t.sum.compared == 0) {
			fputs("weft: error: -expect compared nothing: no test run has an expectation "
			      "under the model it ran with\n", stderr);
			status = 1;
		}
	}
	if (o->action == ACT_RUN && !job_names_handovers(&s) && plan->n > 1 && !o->quiet && !t.output_closed)
		handover_summary(&handovers, o->models.n == 1 ? run_models_label(&labels, o->models.v[0]) : NULL, &d);
	if (o->action == ACT_RUN && t.jobs > 1 && !o->quiet && !t.output_closed)
		summary_print(stderr, &t, seconds);
	int resource_failures = t.sum.timeouts + t.out_of_memory + t.crashed;
	if (t.sum.errors > 0 || t.sum.mismatches > 0 || (resource_failures > 0 && !o->failures_ok) ||
	    t.output_closed)
		status = 1;
	sb_free(&t.notes);
	sb_free(&said);
	provenance_free(&prov);
	run_models_free(&labels);
	model_cache_free(&models);
	c_macros_free(macros);
	return status;
}

/* -results: the table from saved results, nothing run.  Returns the exit
 * status. */
static int run_saved(const weft_options *o)
{
	diag d = { .out = stderr };
	selector *sel = selector_new(o, &d);
	if (!sel)
		return 2;
	table_io io = { NULL, stdout };
	if (!table_io_open(&io, o, &d)) {
		selector_free(sel);
		return 1;
	}
	outcome_table table;
	table_init(&table);
	table.stats = o->stats;
	table.caption = o->caption;
	table.label = o->label;
	run_totals t;
	int status = 0;
	bool tabulated = tabulate_saved(&table, o, sel, &t, &d);
	t.models = table.n_models;
	bool differ = false;
	if (!tabulated || !table_finish(&table, o, sel, &io, &differ, &d) || differ)
		status = 1;
	else if (t.jobs > 1 && !o->quiet)
		summary_print_saved(stderr, &t);
	table_io_close(&io);
	table_free(&table);
	selector_free(sel);
	return status;
}

int main(int argc, char **argv)
{
	weft_options o;
	int rc = options_parse(&o, argc, argv);
	if (rc != 0) {
		options_free(&o);
		return rc;
	}
	if (o.action == ACT_HELP) {
		options_print_help(stdout);
		options_free(&o);
		return 0;
	}
	if (o.action == ACT_VERSION) {
		printf("weft %s\n", PACKAGE_VERSION);
		options_free(&o);
		return 0;
	}
	if (o.serve) {
		rc = serve_run(&o);
		options_free(&o);
		return rc;
	}
	if (o.interactive) {
		rc = interactive_run(&o, stdin, stdout);
		options_free(&o);
		return rc;
	}
	if (o.results.n > 0) {
		rc = run_saved(&o);
		options_free(&o);
		return rc;
	}
	if (o.inputs.n == 0) {
		fputs("weft: no input files\n", stderr);
		fputs("Try 'weft -help'.\n", stderr);
		options_free(&o);
		return 2;
	}
	diag d = { .out = stderr };
	selector *sel = selector_new(&o, &d);
	expect_set *expect = o.expect_files.n > 0 ? expect_new() : NULL;
	bool config_ok = sel != NULL;
	for (int i = 0; config_ok && i < o.expect_files.n; i++)
		config_ok = expect_read(expect, o.expect_files.v[i], &d);
	conds_set *conds = config_ok && o.conds.n > 0 ? conds_load(o.conds.v, o.conds.n, &d) : NULL;
	if (o.conds.n > 0 && !conds)
		config_ok = false;
	if (!config_ok) {
		selector_free(sel);
		expect_free(expect);
		options_free(&o);
		return 2;
	}
	input_list in = { 0 };
	int status = 0;
	for (int i = 0; i < o.inputs.n; i++)
		if (!inputs_expand(&in, o.inputs.v[i], &d))
			status = 1;
	test_plan plan = { 0 };
	plan_build(&plan, in.n, in.paths, sel, o.shard_k, o.shard_n);
	if (plan.selected == 0) {
		/* A run that checked nothing must not look like one that passed. */
		if (status == 0 && in.n == 0)
			fputs("weft: error: no tests: the inputs hold no .litmus file\n", stderr);
		else if (status == 0)
			fprintf(stderr, "weft: error: no tests selected: none of the %d tests found passes "
				"-select, -names and -excl\n", in.n);
		status = 1;
	} else if (run_suite(&o, sel, &plan, expect, conds) != 0) {
		status = 1;
	}
	plan_free(&plan);
	inputs_free(&in);
	selector_free(sel);
	expect_free(expect);
	conds_free(conds);
	options_free(&o);
	return status;
}
