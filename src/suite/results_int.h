/* results_int.h — between the readers of saved results (results_*.c). */
#ifndef WEFT_RESULTS_INT_H
#define WEFT_RESULTS_INT_H

#include "suite.h"

/* A new result at the end of s, zeroed but for its order, its run (-1) and
 * its file; the caller fills the rest. */
saved_result *saved_add(saved_set *s, int file);
/* The index of producer `text` (added when new). */
int saved_producer(saved_set *s, const char *text);
/* The index of run `id` (added, with these fields, when new). */
int saved_run_of(saved_set *s, const char *id, int selected, int shard_n, int n_models, char **models);

/* The readers of one file's text (NUL-terminated, len bytes), files[file]. */
bool saved_read_yaml(saved_set *s, int file, const char *text, size_t len, diag *d);
bool saved_read_herd(saved_set *s, int file, const char *text, size_t len, diag *d);

#endif
