/* judging.h — weft -judge: a run's tests held against their Result:
 * comments, as the kernel's checkalllitmus.sh does test by test with herd7.
 *
 * The run is the ordinary one (workers, models, -conf linux-kernel.cfg);
 * instead of printing each test's block, the parent hands the block and the
 * test's diagnostics here, in test order, and judge_output (suite.h) says
 * what the kernel's judgelitmus.sh would.  Each test that fails gets the
 * kernel's line on stdout as it is judged (a forgiven one its " --- "
 * line), and the run ends with one summary line.  Tests without a Result:
 * comment that run are counted apart (-v names them), never passed; those
 * that do not run fail like any other.
 */
#ifndef WEFT_JUDGING_H
#define WEFT_JUDGING_H

#include <stdbool.h>
#include <stdio.h>

#include "select.h"
#include "../util/util.h"

typedef struct judging {
	const test_plan *plan;   /* borrowed */
	bool verbose;            /* name the tests without a Result: comment */
	FILE *out;               /* the kernel's lines and the summary */
	int passed, forgiven, failed, unjudged;
	int err_job;             /* the test whose diagnostics err holds, or -1 */
	strbuf err;
} judging;

void judging_init(judging *j, const test_plan *plan, bool verbose, FILE *out);
/* Test i's diagnostics (they come before its output). */
void judging_err(judging *j, int i, const char *text, size_t len);
/* Test i's output (its block, or the record standing in for it): judge it
 * and print its line, if any. */
void judging_test(judging *j, int i, const char *out, size_t len);
/* The summary line; whether some test was judged and every judged test
 * passed. */
bool judging_summary(const judging *j);
void judging_free(judging *j);

#endif
