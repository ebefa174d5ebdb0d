/* handovers.h — telling the user which tests an engine left to the
 * reference engine.
 *
 * An engine may not vouch for some tests (test_result.fallback says why,
 * in its descriptor's words: rsmc's are engine_desc.fallback_reason); the
 * reference engine answers them instead.  With -v, a run says so for each
 * test, at the test; without, a suite run says it once, at the end: per
 * reason, how many tests and the first few names; a run of one test says
 * nothing (-stats shows `fallback enumerate`) but the warning: its output
 * is then herd7's, stderr included, as scripts written for herd7 compare
 * it (the kernel's cmplitmushist.sh).  The tally is kept in the parent
 * from the workers' reports, in test order, so it does not depend on -j
 * or on timing.
 */
#ifndef WEFT_HANDOVERS_H
#define WEFT_HANDOVERS_H

#include <stdbool.h>

#include "../engine/engine.h"
#include "../prog/prog.h"
#include "../util/util.h"

/* Names a summary line shows before "and N more". */
enum { HANDOVER_NAMES = 5 };

typedef struct handover_tally {
	const engine_desc *engine;                   /* the engine asked for */
	int tests[ENGINE_FALLBACK_MAX];              /* tests per reason */
	const char *first[ENGINE_FALLBACK_MAX][HANDOVER_NAMES]; /* borrowed
	                                              * from the caller, who
	                                              * keeps them for the run */
} handover_tally;

/* The note (the warning, for the reason that is the model's author's to
 * mend) that engine e left test t under `model` (its label in the run's
 * output) to the reference engine, and why. */
void handover_say(const litmus_test *t, const char *model, const engine_desc *e, int why, diag *d);

/* One test's reasons: bit k set for reason k under some model. */
unsigned handover_bit(int why);
void handover_add(handover_tally *h, unsigned reasons, const char *test_name);

/* The run's summary on d, for a run that did not name each test where it
 * ran (nothing when no test was handed over); `model` names the run's
 * only model, NULL when there are several or the architectures'
 * defaults.  It ends saying how to see every test (-v). */
void handover_summary(const handover_tally *h, const char *model, diag *d);

#endif
