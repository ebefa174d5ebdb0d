/* cat_value.h — run-time values of the cat evaluator and the arena that holds
 * them (internal to src/cat).
 *
 * One evaluation of a model on one execution allocates every value, frame
 * and bit vector from an arena that is reset before the next evaluation, so
 * values never need freeing one by one and may share storage freely: a value
 * is never modified once built.
 *
 * Kinds mirror herd's interpreter: a polymorphic empty value ({}), the
 * universe (_), event sets, relations, tags, sets of values (e.g. the sets of
 * event sets made by classes-loc), tuples, closures, primitives, procedures.
 */
#ifndef WEFT_CAT_VALUE_H
#define WEFT_CAT_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cat_ast.h"

/* ---- arena ------------------------------------------------------------------ */

typedef struct arena_chunk arena_chunk;
typedef struct arena {
	arena_chunk *head;   /* current chunk; older ones follow */
	size_t total;        /* bytes handed out since the last reset */
} arena;

/* 8-byte aligned, zero-filled memory valid until the next reset. */
void *arena_alloc(arena *a, size_t n);
/* Forget everything allocated; keeps one chunk for reuse. */
void arena_reset(arena *a);
void arena_free(arena *a);

/* ---- values ------------------------------------------------------------------ */

enum cval_kind {
	V_EMPTY,   /* {}: empty, of any set or relation type */
	V_UNIV,    /* _: all events, or all pairs */
	V_SET,     /* event set: `words` words */
	V_REL,     /* relation: n rows of `words` words */
	V_TAG,     /* 'name */
	V_VSET,    /* set of values: elts[0..n) sorted by cval_compare, distinct */
	V_TUPLE,   /* elts[0..n) */
	V_CLO,     /* closure */
	V_PRIM,    /* built-in function: prim */
	V_PROC,    /* procedure: proc */
};

struct frame;
struct closure;

/* An event or a pair taken out of a set by a set match (herd's Event and
 * Pair values) is a one-event V_SET or one-pair V_REL with n == CV_ELEMENT:
 * {e1, ..., en} of such events is an event set (of pairs, a relation),
 * and e ++ S adds e to the event set or relation S.  Every operator makes
 * plain values (n == 0). */
enum { CV_ELEMENT = 1 };

typedef struct cval {
	enum cval_kind kind;
	int n;
	union {
		uint64_t *bits;
		const char *tag;
		struct cval *elts;
		struct closure *clo;
		int prim;
		const struct cat_ins *proc;
	} u;
} cval;

typedef struct closure {
	const cat_ex *fun;     /* a CE_FUN node */
	struct frame *env;     /* frame the function was made in (NULL: top) */
} closure;

/* Local variables of one scope (function parameters, let-in bindings, a
 * procedure body); `up` is the enclosing scope's frame. */
typedef struct frame {
	struct frame *up;
	int n;
	cval v[];
} frame;

const char *cval_kind_name(enum cval_kind k);

/* Total order used by sets of values (tags by name, sets and relations by
 * their bits, tuples and value sets element by element); an empty value
 * compares equal to every empty set or relation. */
int cval_compare(const cval *a, const cval *b, int words, int n);

#endif
