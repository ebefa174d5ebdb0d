/* select.h — which of the input files to run: test names, -select/-excl
 * regexes, -names/-excl name files, and -shard slices.
 *
 * Selection works on the test's name as its header gives it (the second word
 * of the first line, a trailing ".litmus" removed — herd7's rule), read
 * without parsing the test, so that choosing 50 tests out of 10,000 costs
 * 10,000 first lines, not 10,000 parses.
 */
#ifndef WEFT_SELECT_H
#define WEFT_SELECT_H

#include <stdbool.h>

#include "options.h"
#include "../util/util.h"

typedef struct test_entry {
	const char *path;   /* borrowed (from the input list)                  */
	char *name;         /* header name, or the file's base name if the
	                     * header cannot be read (owned)                   */
	char *arch;         /* header's first word, NULL if unreadable (owned) */
	int input_index;    /* position in the expanded input list             */
	int seq;            /* position among the selected tests, from 1, before
	                     * -shard's slice: where a saved result goes back
	                     * when the shards are joined                      */
} test_entry;

typedef struct test_plan {
	int n;
	size_t cap;
	test_entry *v;
	int selected;   /* tests the selector kept, before -shard's slice */
	char selection_md5[33]; /* MD5 of their names, one a line: the same in
	                         * every shard of a run */
} test_plan;

/* Read the header of a litmus file: its first non-blank line's first word
 * (*arch) and second word (*name, ".litmus" removed).  Returns false, leaving
 * both NULL, when the file cannot be read or the line has fewer than two
 * words.  Both strings are owned by the caller. */
bool litmus_header_read(const char *path, char **arch, char **name);

/* The name filters of one run, compiled. */
typedef struct selector selector;

/* Compile -select/-excl regexes and read -names/-excl files.  Returns NULL
 * after reporting through d (bad regex: "-select: error: ..."; unreadable or
 * empty name file: a located error). */
selector *selector_new(const weft_options *o, diag *d);
void selector_free(selector *s);
/* Where the -names files first list `name` (0 for their first name line),
 * -1 when they do not. */
int selector_names_rank(const selector *s, const char *name);
/* Whether a test of this name passes every filter. */
bool selector_accepts(const selector *s, const char *name);

/* Build the plan: one entry per path, in order, kept when the selector
 * accepts its name (a file whose header cannot be read is always kept, so
 * that its error is reported rather than silently skipped), then only the
 * shard's slice when shard_n > 0.  Files ending in ".cat" (for -check) keep
 * their path as name. */
void plan_build(test_plan *p, int n_paths, char *const *paths, const selector *s,
		int shard_k, int shard_n);
void plan_free(test_plan *p);

#endif
