/* tabulate.h — a table from saved results (-results): nothing runs.
 *
 * The -results paths are read (suite.h, saved results), joined and checked
 * (shards, producers; -force), then the tests the selector accepts become
 * rows in the runs' test order and the model labels columns: the order
 * -model gives (its arguments as labels, or their short names), else each
 * run's -model labels, then any other label in the order first met.  The
 * result is the table a direct run would have filled, cell for cell.
 */
#ifndef WEFT_TABULATE_H
#define WEFT_TABULATE_H

#include <stdbool.h>

#include "options.h"
#include "runner.h"
#include "select.h"
#include "../report/report_extra.h"

/* Fill t (initialised by the caller) and *tot (the counts a run's summary
 * would give: tests, Ok, No, timeouts, errors, crashed, out of memory).
 * Returns false after reporting through d; t may then be partly filled. */
bool tabulate_saved(outcome_table *t, const weft_options *o, const selector *sel, run_totals *tot, diag *d);

#endif
