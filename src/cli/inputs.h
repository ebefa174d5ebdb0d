/* inputs.h — turning command-line arguments into the list of files to read.
 *
 * An argument is a file, a directory (every *.litmus file below it, sorted by
 * path), or `@LIST`: a file naming one path a line, relative to the list's own
 * folder (blank lines and lines starting with '#' are skipped; a listed
 * directory or @LIST is expanded in turn).
 */
#ifndef WEFT_INPUTS_H
#define WEFT_INPUTS_H

#include <stdbool.h>

#include "../util/util.h"

typedef struct input_list {
	int n;
	size_t cap;
	char **paths;   /* owned */
} input_list;

/* Expand one argument, appending to *l.  Reports unreadable inputs through d
 * and returns false (what could be expanded is still appended). */
bool inputs_expand(input_list *l, const char *arg, diag *d);
void inputs_free(input_list *l);

#endif
