/* explain_int.h — (private to src/report) what explanations and execution
 * graphs share: names and descriptions of events, edge labels read off an
 * execution, copies of executions, and writing one graph.
 *
 * Names: a thread's events get letters in program order, thread after
 * thread (a, b, ..., z, aa, ab, ...); the initial write of location x is
 * "i(x)".  Descriptions: "W x=1 (P0)", "R y=0 (P1)", "F sync (P0)",
 * "B (P0)" (a branch), "W x=0 (init)"; an atomic access is "R*" / "W*".
 */
#ifndef WEFT_EXPLAIN_INT_H
#define WEFT_EXPLAIN_INT_H

#include "report_extra.h"

/* Event names of one execution (owned). */
typedef struct event_names {
	int n;
	char **name;
} event_names;

void event_names_init(event_names *nm, const execution *x);
void event_names_free(event_names *nm);

/* Write x as a picture (dot_write_picture) to `path`, its events named as
 * explanations name them, the `n_hl` edges of `hl` as the witness, and the
 * relations of m's show directives (m may be NULL).  False, with the
 * reason in *why, when the file cannot be written. */
bool dot_write_file(const char *path, const execution *x, const char *title, const cat_step *hl, int n_hl,
		    cat_model *m, strbuf *why);

#endif
