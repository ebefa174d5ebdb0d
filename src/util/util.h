/* util.h — the small shared toolbox: checked allocation, growable strings,
 * and located diagnostics.
 *
 * Every module reports problems through a `struct diag` handed to it by its
 * caller; nothing here keeps global state.  Allocation failure is the one
 * condition we do not recover from: the x*alloc functions print a message and
 * exit(2), so callers never need to test for NULL. */
#ifndef WEFT_UTIL_H
#define WEFT_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "weft_limits.h"

void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* printf into a freshly allocated string owned by the caller. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* An invariant of weft's own (a bug if it fails, never the user's input:
 * inputs get located errors).  Checked in the sanitizer and fuzzing
 * builds (configure --enable-sanitizers / --enable-fuzzing define
 * WEFT_CHECKED), where a failure prints where and aborts; compiled out
 * elsewhere, so it may sit on hot paths.  The condition must have no side
 * effects. */
#ifdef WEFT_CHECKED
#define WEFT_ASSERT(cond) ((cond) ? (void)0 : weft_assert_failed(#cond, __FILE__, __LINE__))
#else
#define WEFT_ASSERT(cond) ((void)0)
#endif
_Noreturn void weft_assert_failed(const char *cond, const char *file, int line);

/* Grow a dynamic array `*arr` of `*cap` elements of `elem` bytes so that it
 * holds at least `need` elements. */
void grow_array(void **arr, size_t *cap, size_t need, size_t elem);
#define GROW(arr, cap, need) grow_array((void **)&(arr), &(cap), (need), sizeof *(arr))

/* Does s end with suffix? */
bool str_has_suffix(const char *s, const char *suffix);

/* The edit distance (insertions, deletions, substitutions and swaps of
 * two neighbours) between a[0..alen) and b, or limit + 1 when it is
 * above limit; for "did you mean" suggestions, so short strings only. */
size_t str_distance(const char *a, size_t alen, const char *b, size_t limit);

/* Work a job has done so far, written by the worker process as it goes and
 * read by the parent for its progress line, in memory the two share (a torn
 * read only mis-draws one frame of the line). */
typedef struct live_counts {
	volatile long candidates;   /* candidate executions judged */
	volatile long executions;   /* allowed executions counted  */
} live_counts;

/* A growable NUL-terminated string. Zero-initialise before use. */
typedef struct strbuf {
	char *s;
	size_t len, cap;
} strbuf;
void sb_putc(strbuf *b, char c);
void sb_puts(strbuf *b, const char *s);
void sb_putn(strbuf *b, const char *s, size_t n);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_reset(strbuf *b);
/* Return the string (caller owns it) and leave the buffer empty. */
char *sb_take(strbuf *b);
void sb_free(strbuf *b);

/* A position in a source file.  `file` is borrowed: it must outlive the loc
 * (parsers keep the file name in the object they build). line and col are
 * 1-based; line 0 means "no position". */
typedef struct srcloc {
	const char *file;
	int line, col;
} srcloc;

/* A sink for diagnostics.  Messages are printed as
 *   file:line:col: error: message
 * to `out` (stderr when NULL), or appended to `collect` (one a line) when
 * it is set, or dropped with `drop` (a probe, a trial evaluation whose
 * messages only matter as a count); errors and warnings are counted
 * either way. */
typedef struct diag {
	FILE *out;
	int errors, warnings;
	bool drop;          /* print nothing                               */
	strbuf *collect;    /* not NULL: the messages go here, not to out   */
} diag;
void diag_error(diag *d, srcloc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_warning(diag *d, srcloc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void diag_verror(diag *d, srcloc at, const char *fmt, va_list ap);
/* Information that changes no exit status (counted nowhere). */
void diag_note(diag *d, srcloc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Pass on, as they are and uncounted, the messages another diag collected
 * (NULL: none), wherever d sends its own. */
void diag_put_collected(diag *d, const char *messages);

/* Read a whole file into a NUL-terminated buffer (caller frees).  Returns
 * NULL and reports through `d` when it cannot.  `*len` gets the size. */
char *read_whole_file(const char *path, size_t *len, diag *d);

/* A growable list of owned paths. */
typedef struct path_list {
	int n;
	size_t cap;
	char **v;
} path_list;
void path_list_free(path_list *l);

/* Append to *out the files below dir (at any depth; hidden names skipped)
 * whose names end with one of `suffixes` (NULL-terminated), sorted by path
 * so that runs do not depend on the order the file system lists them in.
 * False (after reporting through d) when a folder cannot be read; what was
 * found elsewhere is appended all the same. */
bool files_below(const char *dir, const char *const *suffixes, path_list *out, diag *d);

/* MD5 of `n` bytes, written as 32 lowercase hex digits plus NUL into hex. */
void md5_hex(const void *data, size_t n, char hex[33]);

#endif
