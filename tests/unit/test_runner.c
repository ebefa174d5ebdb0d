/* test_runner.c — the worker pool with fake jobs: ordered output whatever the
 * number of workers, and timeouts, crashes and memory blow-ups reported in
 * place without ending the run. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../../src/cli/runner.h"
#include "check.h"

enum fake_kind { FAKE_PRINT, FAKE_BIG, FAKE_ABORT, FAKE_SLEEP, FAKE_HOG, FAKE_ERROR };

typedef struct fake_suite {
	int n;
	const enum fake_kind *kinds;
} fake_suite;

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static void fake_run(void *ctx, int i, job_report *rep, strbuf *notes, live_counts *live)
{
	const fake_suite *s = ctx;
	(void)live;
	/* Uneven durations, so workers finish out of order. */
	nap((long)((i * 7919) % 13) * 3);
	switch (s->kinds[i]) {
	case FAKE_PRINT:
		printf("Test T%d Allowed\nline of %d\n\n", i, i);
		fprintf(stderr, "note from %d\n", i);
		*(i % 2 ? &rep->ok : &rep->no) += 1;
		break;
	case FAKE_BIG:
		/* More than a pipe holds: the parent must drain while it runs. */
		for (int k = 0; k < 20000; k++)
			printf("T%d big line %d\n", i, k);
		rep->ok++;
		break;
	case FAKE_ABORT:
		printf("half a block that must not appear\n");
		fflush(stdout);
		fprintf(stderr, "last words of %d\n", i);
		abort();
	case FAKE_SLEEP:
		printf("never finished\n");
		fflush(stdout);
		sleep(30);
		rep->ok++;
		break;
	case FAKE_HOG:
		for (;;) {
			char *p = xmalloc(16 << 20);
			memset(p, 1, 16 << 20);
		}
	case FAKE_ERROR:
		fprintf(stderr, "t%d.litmus:1:1: error: bad\n", i);
		rep->errors++;
		sb_printf(notes, "mismatch in %d\n", i);
		rep->mismatches++;
		break;
	}
}

static void fake_abnormal(void *ctx, int i, enum job_end end, int detail, FILE *out)
{
	(void)ctx;
	static const char *const what[] = { "Finished", "Timeout", "OutOfMemory", "Crashed signal",
					     "Crashed exit" };
	fprintf(out, "Test T%d %s %d\n\n", i, what[end], end >= JOB_CRASHED_SIGNAL ? detail : 0);
}

/* Run the suite with stdout sent to a temporary file; return its text. */
static char *run_captured(const fake_suite *s, const runner_limits *lim, run_totals *t);

/* Run the fake suite with stdout (returned) and, when err is not NULL,
 * stderr (into *err) captured. */
static char *run_captured_both(const fake_suite *s, const runner_limits *lim, run_totals *t, char **err)
{
	char err_path[] = "/tmp/weft-test-runner-err-XXXXXX";
	int efd = -1, saved_err = -1;
	if (err) {
		efd = mkstemp(err_path);
		if (efd < 0) {
			perror("mkstemp");
			exit(1);
		}
		fflush(stderr);
		saved_err = dup(STDERR_FILENO);
		dup2(efd, STDERR_FILENO);
	}
	char *text = run_captured(s, lim, t);
	if (err) {
		fflush(stderr);
		dup2(saved_err, STDERR_FILENO);
		close(saved_err);
		close(efd);
		diag d = { .out = stderr };
		*err = read_whole_file(err_path, NULL, &d);
		unlink(err_path);
	}
	return text;
}

static char *run_captured(const fake_suite *s, const runner_limits *lim, run_totals *t)
{
	char path[] = "/tmp/weft-test-runner-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0) {
		perror("mkstemp");
		exit(1);
	}
	fflush(stdout);
	int saved = dup(STDOUT_FILENO);
	dup2(fd, STDOUT_FILENO);
	job_callbacks cb = { .run = fake_run, .abnormal = fake_abnormal, .ctx = (void *)s };
	runner_run(lim, &cb, s->n, NULL, t);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	close(fd);
	diag d = { .out = stderr };
	char *text = read_whole_file(path, NULL, &d);
	unlink(path);
	return text;
}

static void test_order_independent_of_workers(void)
{
	enum fake_kind kinds[40];
	for (int i = 0; i < 40; i++)
		kinds[i] = i == 17 ? FAKE_BIG : i == 23 ? FAKE_ERROR : FAKE_PRINT;
	fake_suite s = { 40, kinds };
	run_totals t1, t4;
	runner_limits one = { 1, 0, 0 }, four = { 4, 0, 0 };
	char *a = run_captured(&s, &one, &t1);
	char *b = run_captured(&s, &four, &t4);
	CHECK(a && b && !strcmp(a, b), "-j 1 and -j 4 outputs differ");
	/* In input order: T0 before T1 ... before T39. */
	const char *prev = a;
	bool ordered = true;
	for (int i = 0; i < 40 && ordered; i++) {
		if (kinds[i] != FAKE_PRINT)
			continue;
		char key[32];
		snprintf(key, sizeof key, "Test T%d ", i);
		const char *at = strstr(a, key);
		ordered = at && at >= prev;
		prev = at ? at : prev;
	}
	CHECK(ordered, "blocks are not in job order");
	CHECK(strstr(a, "T17 big line 19999\n") != NULL, "big output truncated");
	CHECK(t1.jobs == 40 && t4.jobs == 40, "jobs %d %d", t1.jobs, t4.jobs);
	CHECK(t4.sum.ok == 18 + 1 && t4.sum.no == 20, "ok %d no %d", t4.sum.ok, t4.sum.no);
	CHECK(t4.sum.errors == 1 && t4.sum.mismatches == 1, "errors %d mismatches %d", t4.sum.errors,
	      t4.sum.mismatches);
	CHECK(t4.notes.s && !strcmp(t4.notes.s, "mismatch in 23\n"), "notes '%s'", t4.notes.s ? t4.notes.s : "");
	free(a);
	free(b);
	sb_free(&t1.notes);
	sb_free(&t4.notes);
}

static void test_failures_stay_in_their_place(void)
{
	enum fake_kind kinds[] = { FAKE_PRINT, FAKE_ABORT, FAKE_PRINT, FAKE_SLEEP, FAKE_PRINT, FAKE_HOG, FAKE_PRINT };
	int n = (int)(sizeof kinds / sizeof kinds[0]);
	bool can_limit = runner_can_limit_memory();
	if (!can_limit)
		kinds[5] = FAKE_PRINT; /* sanitizer build: -maxmem is not enforced */
	fake_suite s = { n, kinds };
	/* room for the memory hog to reach its limit on a busy machine before
	 * the timeout (the sleeping job needs the timeout) */
	runner_limits lim = { 2, 3.0, 64 };
	run_totals t;
	time_t before = time(NULL);
	char *out = run_captured(&s, &lim, &t);
	CHECK(time(NULL) - before < 20, "the sleeping job was not killed in time");
	CHECK(out != NULL, "no output");
	if (!out)
		return;
	CHECK(strstr(out, "Test T1 Crashed signal 6\n") != NULL, "abort not reported:\n%s", out);
	CHECK(strstr(out, "Test T3 Timeout 0\n") != NULL, "timeout not reported:\n%s", out);
	CHECK(strstr(out, "half a block") == NULL && strstr(out, "never finished") == NULL,
	      "partial output of a failed job was printed");
	if (can_limit)
		CHECK(strstr(out, "Test T5 OutOfMemory 0\n") != NULL, "out of memory not reported:\n%s", out);
	const char *t0 = strstr(out, "Test T0 "), *t1 = strstr(out, "Test T1 "), *t2 = strstr(out, "Test T2 ");
	const char *t3 = strstr(out, "Test T3 "), *t6 = strstr(out, "Test T6 ");
	CHECK(t0 && t1 && t2 && t3 && t6 && t0 < t1 && t1 < t2 && t2 < t3 && t3 < t6,
	      "records are not in place:\n%s", out);
	CHECK(t.jobs == n, "jobs %d", t.jobs);
	CHECK(t.crashed == 1 && t.sum.timeouts == 1, "crashed %d timeouts %d", t.crashed, t.sum.timeouts);
	CHECK(t.out_of_memory == (can_limit ? 1 : 0), "out of memory %d", t.out_of_memory);
	free(out);
	sb_free(&t.notes);
}

static void test_empty_run(void)
{
	fake_suite s = { 0, NULL };
	runner_limits lim = { 3, 0, 0 };
	run_totals t;
	char *out = run_captured(&s, &lim, &t);
	CHECK(out && out[0] == '\0' && t.jobs == 0, "an empty run printed something");
	free(out);
	sb_free(&t.notes);
}

/* Without -maxmem a worker runs several jobs in a row: a job that crashes
 * or times out in the middle of such a batch gets its record, the jobs
 * before it keep their output, and those after it run in a new worker. */
static void test_failures_inside_a_batch(void)
{
	enum fake_kind kinds[24];
	for (int i = 0; i < 24; i++)
		kinds[i] = i == 3 ? FAKE_ABORT : i == 14 ? FAKE_SLEEP : FAKE_PRINT;  /* batches of 6 */
	fake_suite s = { 24, kinds };
	runner_limits lim = { 1, 2.0, 0 };
	run_totals t;
	char *out = run_captured(&s, &lim, &t);
	CHECK(out != NULL, "no output");
	if (!out)
		return;
	CHECK(strstr(out, "Test T3 Crashed signal 6\n") != NULL, "abort not reported:\n%s", out);
	CHECK(strstr(out, "Test T14 Timeout 0\n") != NULL, "timeout not reported:\n%s", out);
	const char *prev = out;
	bool ordered = true;
	for (int i = 0; i < 24 && ordered; i++) {
		char key[32];
		snprintf(key, sizeof key, "Test T%d ", i);
		const char *at = strstr(out, key);
		ordered = at && at >= prev;
		prev = at ? at : prev;
	}
	CHECK(ordered, "a job is missing or out of place:\n%s", out);
	CHECK(strstr(out, "half a block") == NULL && strstr(out, "never finished") == NULL,
	      "partial output of a failed job was printed");
	CHECK(t.jobs == 24 && t.crashed == 1 && t.sum.timeouts == 1, "jobs %d crashed %d timeouts %d", t.jobs,
	      t.crashed, t.sum.timeouts);
	CHECK(t.sum.ok + t.sum.no == 22, "ok %d no %d", t.sum.ok, t.sum.no);
	free(out);
	sb_free(&t.notes);
}

/* A crashed worker keeps its voice: what it wrote on stderr while running
 * the job that killed it comes after the job's record, and nothing of the
 * jobs before it. */
static void test_crash_keeps_its_stderr(void)
{
	enum fake_kind kinds[] = { FAKE_PRINT, FAKE_ABORT, FAKE_PRINT };
	fake_suite s = { 3, kinds };
	runner_limits lim = { 1, 0, 0 };
	run_totals t;
	char *err = NULL;
	char *out = run_captured_both(&s, &lim, &t, &err);
	CHECK(out && strstr(out, "Test T1 Crashed signal 6\n") != NULL, "abort not reported:\n%s", out ? out : "");
	CHECK(err && strstr(err, "weft: the worker's stderr ended with:\n  | last words of 1\n") != NULL,
	      "the crashed job's stderr is not shown:\n%s", err ? err : "");
	CHECK(err && strstr(err, "  | note from") == NULL, "an earlier job's stderr is in the tail:\n%s", err);
	free(out);
	free(err);
	sb_free(&t.notes);
}

int main(void)
{
	test_failures_inside_a_batch();
	test_order_independent_of_workers();
	test_failures_stay_in_their_place();
	test_empty_run();
	test_crash_keeps_its_stderr();
	return test_summary("test_runner");
}
