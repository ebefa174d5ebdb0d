/* progress.h — the live progress line and the final summary, on stderr.
 *
 * The progress line is drawn only when stderr is a terminal (and not -q):
 *   [ 812/11269]  3 failed  41.2/s  ETA 4m13s  MP+sync+addr
 * and, for the test named there, what its engine has done so far once it
 * has run a second (one long test is not a frozen line):
 *   [0/1]  0 failed  0.0/s  ETA ?  lock5: 1.31M candidates, 24.0k executions, 412k/s
 * It is redrawn at most ten times a second and cleared before any other
 * stderr output, so diagnostics never end up glued to it.
 */
#ifndef WEFT_PROGRESS_H
#define WEFT_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

#include "runner.h"

typedef struct progress {
	bool enabled;
	FILE *out;
	int total, done, failed, unexpected;
	double start, last_draw;   /* monotonic seconds */
	const char *current;       /* borrowed name of the oldest test running */
	double current_start;      /* when it was first named */
	long candidates, executions; /* its work so far (progress_work) */
	bool drawn;                /* a line is on the screen */
} progress;

/* Monotonic clock in seconds. */
double progress_now(void);

void progress_init(progress *p, FILE *out, int total, bool enabled);
/* `name` is the test to show as running now. */
void progress_started(progress *p, const char *name);
void progress_finished(progress *p, bool failed, bool unexpected);
/* The work the named test has done so far (0, 0: nothing known). */
void progress_work(progress *p, long candidates, long executions);
/* Redraw if due. */
void progress_tick(progress *p);
/* Erase the line (before other output to the same terminal). */
void progress_clear(progress *p);

/* The one-line summary:
 *   weft: 120 tests, 80 Ok, 38 No, 1 timeout, 1 error in 12.3s
 * with ", N out of memory", ", N crashed", ", N unexpected" added when not
 * zero. */
void summary_print(FILE *out, const run_totals *t, double seconds);
/* The same counts for a table made from saved results (-results), which
 * took no time to run: `... 1 error (saved results)`. */
void summary_print_saved(FILE *out, const run_totals *t);

#endif
