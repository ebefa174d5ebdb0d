/* runner.h — run jobs in worker processes, output in job order.
 *
 * Jobs (tests) run in forked worker processes, at most `workers` at a time,
 * each worker a batch of consecutive jobs (one job under a memory limit, so
 * the limit is the job's).  A worker's stdout and stderr go to temporary
 * files and it says on a pipe where each job starts and ends; the parent cuts
 * each job's bytes out and writes them in job order, so the output does not
 * depend on the number of workers.  A job that runs past its deadline is
 * killed with its worker; one that dies (signal, out of memory) is reported
 * through a callback that prints a record in its place, and the jobs after it
 * in its batch run in a new worker.  Nothing a job does can end the run.
 *
 * The worker is forked from the parent, so it sees everything the parent
 * prepared (loaded models, expectations) without asking for it.
 */
#ifndef WEFT_RUNNER_H
#define WEFT_RUNNER_H

#include <stdbool.h>
#include <stdio.h>

#include "../util/util.h"

/* What a job counts, sent from the worker to the parent when it finishes. */
typedef struct job_report {
	int errors;      /* inputs that could not be read, parsed or run      */
	int ok, no;      /* result blocks whose verdict is Ok / No            */
	int timeouts;    /* tests that hit -timeout (the engine's own stop, or
	                  * the parent's kill)                                 */
	int mismatches;  /* -expect disagreements                             */
	int compared;    /* (test, model) runs -expect had expectations for   */
	unsigned handed_over; /* reasons rsmc left the test to the enumerator
	                       * (handovers.h's bits), under any model        */
} job_report;

/* How a job ended. */
enum job_end {
	JOB_FINISHED,       /* it sent its report                           */
	JOB_TIMEOUT,        /* killed at its deadline                       */
	JOB_OUT_OF_MEMORY,  /* allocation failed (exit status 2, no report) */
	JOB_CRASHED_SIGNAL, /* killed by signal `detail`                    */
	JOB_CRASHED_EXIT,   /* exit status `detail` without (or after) its
	                     * report: e.g. a sanitizer's finding           */
};

typedef struct job_callbacks {
	/* In the worker: do job i, writing results to stdout and diagnostics
	 * to stderr; count into *rep; append to *notes what the parent should
	 * print after the whole run (in job order); keep *live (zeroed
	 * before the job, NULL when the run has none) up to date with the
	 * work done, for the progress line. */
	void (*run)(void *ctx, int i, job_report *rep, strbuf *notes, live_counts *live);
	/* In the parent: job i ended abnormally (end != JOB_FINISHED; detail is
	 * the signal or exit status); write the record that stands in for its
	 * output. */
	void (*abnormal)(void *ctx, int i, enum job_end end, int detail, FILE *out);
	/* The job's name, for the progress line. */
	const char *(*name)(void *ctx, int i);
	void *ctx;
	/* When not NULL, in the parent: job i's output (what it printed, then
	 * the abnormal record if any), in job order, instead of stdout (e.g. to
	 * gather a table). */
	void (*collect)(void *ctx, int i, const char *out, size_t len);
	/* When not NULL, in the parent: write job i's diagnostics to stderr
	 * (e.g. leaving out what an earlier job already said); else they are
	 * written as they are.  Called before job i's output is written or
	 * collected. */
	void (*put_err)(void *ctx, int i, const char *text, size_t len);
	/* When not NULL, in the parent, in job order: job i's report, for a
	 * job that sent one (e.g. to say what the jobs met once, at the end,
	 * the same whatever the number of workers). */
	void (*reported)(void *ctx, int i, const job_report *rep);
} job_callbacks;

typedef struct runner_limits {
	int workers;        /* >= 1 */
	double timeout;     /* wall-clock seconds per job, 0: none */
	long maxmem_mb;     /* address-space limit per job (then one job per
	                     * worker), 0: none */
} runner_limits;

typedef struct run_totals {
	int jobs;            /* jobs run                                    */
	int models;          /* models each test ran under: Ok, No and
	                      * timeouts count a test under a model       */
	job_report sum;      /* finished jobs' reports, plus killed timeouts */
	int out_of_memory;
	int crashed;
	strbuf notes;        /* the jobs' notes, in job order (owned)       */
	bool output_closed;  /* stdout could not be written (a closed pipe):
	                      * the run was stopped there                 */
} run_totals;

struct progress;

/* Whether -maxmem can be enforced in this build (address-space limits and
 * AddressSanitizer's huge reservations do not mix). */
bool runner_can_limit_memory(void);

/* Run jobs 0..n-1.  `pr` (may be NULL) is told as jobs start and finish and
 * is cleared before anything is written to stderr.  *t is zeroed first;
 * free t->notes after. */
void runner_run(const runner_limits *lim, const job_callbacks *cb, int n, struct progress *pr,
		run_totals *t);

#endif
