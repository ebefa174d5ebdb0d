/* job.h — what a worker does with one test, and the record that stands in
 * for a test that did not finish.  These are the runner's callbacks for a
 * suite of litmus tests (see runner.h).
 */
#ifndef WEFT_JOB_H
#define WEFT_JOB_H

#include "conds.h"
#include "handovers.h"
#include "judging.h"
#include "labels.h"
#include "models.h"
#include "options.h"
#include "provenance.h"
#include "runner.h"
#include "select.h"
#include "../engine/engine.h"
#include "../suite/suite.h"

/* Everything a worker needs, prepared by the parent before the fork. */
typedef struct suite_run {
	const weft_options *o;
	const test_plan *plan;
	model_cache *models;
	const expect_set *expect;   /* NULL: no -expect */
	const conds_set *conds;     /* NULL: no -conds */
	engine_opts eo;
	struct outcome_table *table; /* -table: filled in the parent from the
	                              * workers' records; NULL otherwise */
	const struct run_models *labels; /* the models' labels (labels.h);
	                                  * NULL: each model's short name */
	const run_provenance *prov; /* what -format yaml says produced each
	                             * document; NULL: nothing */
	const struct c_macros *macros; /* -macros read once (NULL: none, or
	                                * each test reads it and says why
	                                * it cannot) */
	strbuf *said;               /* in the parent: the model diagnostics
	                             * job_put_err has printed, one a line */
	handover_tally *handovers;  /* in the parent: the tests the engine left to
	                             * the enumerator, from job_reported */
	struct judging *judging;    /* -judge: in the parent, each test's
	                             * diagnostics and block judged; NULL
	                             * otherwise */
} suite_run;

/* How many models a test of architecture `arch` (header word, may be NULL)
 * runs under: every -model, else the architecture's default alone. */
int job_n_models(const suite_run *s);
/* Its k-th model (0 <= k < job_n_models): the k-th -model, else the
 * architecture's default; NULL when unknown. */
const char *job_model_at(const suite_run *s, const char *arch, int k);
/* The first one. */
const char *job_model_name(const suite_run *s, const char *arch);
/* Without -model: a note, once for each architecture of the plan whose
 * default model is not herd7's (arch.default_model_note) or is herd's
 * found in its library (arch.herd_default_note), before any result is
 * read as herd's. */
void job_note_default_models(const weft_options *o, const model_cache *models, const test_plan *plan, diag *d);

/* runner callbacks; ctx is a suite_run. */
void job_run(void *ctx, int i, job_report *rep, strbuf *notes, live_counts *live);
void job_abnormal(void *ctx, int i, enum job_end end, int detail, FILE *out);
const char *job_name(void *ctx, int i);
/* A job's diagnostics, less the lines located in a .cat file that an
 * earlier job already printed: a model's error found while running tests
 * (one the probe did not meet) is said once, not once per test. */
void job_put_err(void *ctx, int i, const char *text, size_t len);
/* A job's report: its hand-overs go into s->handovers, in job order. */
void job_reported(void *ctx, int i, const job_report *rep);
/* Whether a test rsmc leaves to the enumerator is named where it runs
 * (-v), rather than in job_reported's summary (a run of several tests) or
 * not at all (a run of one test, whose output stays herd's: see
 * handovers.h). */
bool job_names_handovers(const suite_run *s);

#endif
