/* conds.h — herd's -conds FILE: other final conditions for named tests.
 *
 * The file has one entry a line, `NAME CONDITION`: NAME a test's name (the
 * second word of its first line), CONDITION written as at the end of a
 * test (`exists (1:r1=1 /\ 1:r3=0)`, `~exists ...`, `forall ...`),
 * optionally in double quotes.  `#` or `%` starts a comment (outside the
 * quotes), as in herd's files; blank lines are skipped.  A later line for
 * the same name wins.
 *
 * Ownership: conds_load returns a set owned by the caller (conds_free);
 * the strings conds_find returns belong to it.
 */
#ifndef WEFT_CONDS_H
#define WEFT_CONDS_H

#include "../util/util.h"

typedef struct conds_set conds_set;

/* The files' entries together (herd's -conds cumulates; a later file's
 * line for a name wins); NULL, after reporting `file:line:col: error: ...`
 * through d, when a file cannot be read or a line is not an entry. */
conds_set *conds_load(const char *const *paths, int n, diag *d);
/* The condition given for test `name`, or NULL. */
const char *conds_find(const conds_set *c, const char *name);
/* Where that entry is (for messages): its line in the file. */
srcloc conds_where(const conds_set *c, const char *name);
void conds_free(conds_set *c);

#endif
