/* cat_value.c — building, converting and comparing the evaluator's values
 * (see cat_value.h), and the pending-error mechanism. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat_int.h"

/* ---- errors ----------------------------------------------------------------------------- */

bool cat_fail(cat_eval *ev, srcloc at, const char *fmt, ...)
{
	if (ev->err)
		return false;
	ev->err = true;
	ev->err_loc = at;
	sb_reset(&ev->err_msg);
	if (ev->in_try > 0)
		return false;
	char buf[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	sb_puts(&ev->err_msg, buf);
	return false;
}

void cat_clear_error(cat_eval *ev)
{
	ev->err = false;
	sb_reset(&ev->err_msg);
}

void cat_eval_report(cat_eval *ev, diag *d)
{
	if (!ev->err)
		return;
	diag_error(d, ev->err_loc, "%s", ev->err_msg.s ? ev->err_msg.s : "evaluation failed");
	cat_clear_error(ev);
}

/* With its article, for messages: "found an event set". */
const char *cval_kind_name(enum cval_kind k)
{
	switch (k) {
	case V_EMPTY: return "an empty set";
	case V_UNIV: return "the universe";
	case V_SET: return "an event set";
	case V_REL: return "a relation";
	case V_TAG: return "a tag";
	case V_VSET: return "a set of values";
	case V_TUPLE: return "a tuple";
	case V_CLO: return "a function";
	case V_PRIM: return "a primitive";
	case V_PROC: return "a procedure";
	}
	return "a value";
}

/* ---- building values ------------------------------------------------------------------------ */

cval cv_set(cat_eval *ev)
{
	cval v = { V_SET, 0, { 0 } };
	v.u.bits = arena_alloc(ev->cur, (size_t)(ev->words ? ev->words : 1) * sizeof(uint64_t));
	return v;
}

cval cv_rel(cat_eval *ev)
{
	cval v = { V_REL, 0, { 0 } };
	size_t sz = (size_t)ev->n * (size_t)ev->words;
	v.u.bits = arena_alloc(ev->cur, (sz ? sz : 1) * sizeof(uint64_t));
	return v;
}

size_t cv_nwords(const cat_eval *ev, enum cval_kind k)
{
	return k == V_SET ? (size_t)ev->words : (size_t)ev->n * (size_t)ev->words;
}

cval cv_copy(cat_eval *ev, const cval *src)
{
	cval v = src->kind == V_SET ? cv_set(ev) : cv_rel(ev);
	memcpy(v.u.bits, src->u.bits, cv_nwords(ev, src->kind) * sizeof(uint64_t));
	return v;
}

cval cv_empty(void)
{
	cval v = { V_EMPTY, 0, { 0 } };
	return v;
}

void cv_fill_all(const cat_eval *ev, uint64_t *w)
{
	for (int i = 0; i < ev->words; i++)
		w[i] = ~(uint64_t)0;
	if (ev->words)
		w[ev->words - 1] &= bits_last_word_mask(ev->n);
}

cval cv_univ_rel(cat_eval *ev)
{
	cval v = cv_rel(ev);
	for (int i = 0; i < ev->n; i++)
		cv_fill_all(ev, v.u.bits + (size_t)i * ev->words);
	return v;
}

cval cv_id_rel(cat_eval *ev)
{
	cval v = cv_rel(ev);
	rel_reflexive_raw(v.u.bits, ev->n, ev->words);
	return v;
}

bool cv_bits_zero(const uint64_t *w, size_t k)
{
	for (size_t i = 0; i < k; i++)
		if (w[i])
			return false;
	return true;
}

/* Event set view of v (empty: all zero, universe: every event). */
bool cv_as_set(cat_eval *ev, const cval *v, srcloc at, cval *out)
{
	switch (v->kind) {
	case V_SET:
		*out = *v;
		return true;
	case V_EMPTY:
		*out = cv_set(ev);
		return true;
	case V_UNIV:
		*out = cv_set(ev);
		cv_fill_all(ev, out->u.bits);
		return true;
	default:
		return cat_fail(ev, at, "an event set was expected, found %s", cval_kind_name(v->kind));
	}
}

bool cv_as_rel(cat_eval *ev, const cval *v, srcloc at, cval *out)
{
	switch (v->kind) {
	case V_REL:
		*out = *v;
		return true;
	case V_EMPTY:
		*out = cv_rel(ev);
		return true;
	case V_UNIV:
		*out = cv_univ_rel(ev);
		return true;
	default:
		return cat_fail(ev, at, "a relation was expected, found %s", cval_kind_name(v->kind));
	}
}

/* herd lifts a tag to the singleton set of that tag in set operations. */
cval cv_tag2set(cat_eval *ev, const cval *v)
{
	if (v->kind != V_TAG)
		return *v;
	cval s = { V_VSET, 1, { 0 } };
	s.u.elts = arena_alloc(ev->cur, sizeof(cval));
	s.u.elts[0] = *v;
	return s;
}

/* ---- comparing values -------------------------------------------------------------------------- */

bool cv_is_empty(const cat_eval *ev, const cval *v)
{
	switch (v->kind) {
	case V_EMPTY: return true;
	case V_SET: case V_REL: return cv_bits_zero(v->u.bits, cv_nwords(ev, v->kind));
	case V_VSET: return v->n == 0;
	default: return false;
	}
}

int cval_compare(const cval *a, const cval *b, int words, int n)
{
	if (a->kind == V_EMPTY || b->kind == V_EMPTY) {
		/* An empty value equals every empty container and precedes the
		 * non-empty ones. */
		cat_eval tmp = { 0 };
		tmp.words = words;
		tmp.n = n;
		bool ea = cv_is_empty(&tmp, a), eb = cv_is_empty(&tmp, b);
		if (ea || eb)
			return (int)eb - (int)ea == 0 ? 0 : (ea ? -1 : 1);
	}
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	switch (a->kind) {
	case V_EMPTY: case V_UNIV:
		return 0;
	case V_TAG:
		return strcmp(a->u.tag, b->u.tag);
	case V_SET: case V_REL: {
		size_t k = a->kind == V_SET ? (size_t)words : (size_t)n * (size_t)words;
		for (size_t i = 0; i < k; i++)
			if (a->u.bits[i] != b->u.bits[i])
				return a->u.bits[i] < b->u.bits[i] ? -1 : 1;
		return 0;
	}
	case V_VSET: case V_TUPLE: {
		if (a->n != b->n)
			return a->n < b->n ? -1 : 1;
		for (int i = 0; i < a->n; i++) {
			int c = cval_compare(&a->u.elts[i], &b->u.elts[i], words, n);
			if (c)
				return c;
		}
		return 0;
	}
	case V_PRIM:
		return a->u.prim - b->u.prim;
	case V_CLO:
		return a->u.clo == b->u.clo ? 0 : (a->u.clo < b->u.clo ? -1 : 1);
	case V_PROC:
		return a->u.proc == b->u.proc ? 0 : (a->u.proc < b->u.proc ? -1 : 1);
	}
	return 0;
}

int cv_cmp(const cat_eval *ev, const cval *a, const cval *b) { return cval_compare(a, b, ev->words, ev->n); }

/* Sort and de-duplicate `n` values into a new value set. */
cval cat_make_vset(cat_eval *ev, const cval *src, int n)
{
	cval s = { V_VSET, 0, { 0 } };
	s.u.elts = arena_alloc(ev->cur, (size_t)(n ? n : 1) * sizeof(cval));
	/* Insertion sort: value sets are small (partitions, tag sets). */
	for (int i = 0; i < n; i++) {
		int lo = 0, hi = s.n;
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			if (cv_cmp(ev, &s.u.elts[mid], &src[i]) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo < s.n && cv_cmp(ev, &s.u.elts[lo], &src[i]) == 0)
			continue;
		memmove(&s.u.elts[lo + 1], &s.u.elts[lo], (size_t)(s.n - lo) * sizeof(cval));
		s.u.elts[lo] = src[i];
		s.n++;
	}
	return s;
}

/* Where x is, or would go, in sorted value set s. */
static int vset_place(const cat_eval *ev, const cval *s, const cval *x, bool *found)
{
	int lo = 0, hi = s->n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		int c = cv_cmp(ev, &s->u.elts[mid], x);
		if (c == 0) {
			*found = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = false;
	return lo;
}

cval cat_vset_insert(cat_eval *ev, const cval *s, const cval *x)
{
	bool found;
	int at = vset_place(ev, s, x, &found);
	if (found)
		return *s;
	cval r = { V_VSET, s->n + 1, { 0 } };
	r.u.elts = arena_alloc(ev->cur, (size_t)r.n * sizeof(cval));
	memcpy(r.u.elts, s->u.elts, (size_t)at * sizeof(cval));
	r.u.elts[at] = *x;
	memcpy(r.u.elts + at + 1, s->u.elts + at, (size_t)(s->n - at) * sizeof(cval));
	return r;
}

bool cv_vset_has(const cat_eval *ev, const cval *s, const cval *x)
{
	bool found;
	vset_place(ev, s, x, &found);
	return found;
}

/* a is a subset of b (sets, relations, value sets). */
bool cv_subset(cat_eval *ev, const cval *a, const cval *b, srcloc at, bool *res)
{
	if (cv_is_empty(ev, a)) {
		*res = true;
		return true;
	}
	if (b->kind == V_UNIV) {
		*res = true;
		return true;
	}
	if (a->kind == V_UNIV) {
		*res = b->kind == V_UNIV;
		return true;
	}
	if (b->kind == V_EMPTY) {
		*res = false;
		return true;
	}
	if ((a->kind == V_SET || a->kind == V_REL) && a->kind == b->kind) {
		size_t k = cv_nwords(ev, a->kind);
		for (size_t i = 0; i < k; i++)
			if (a->u.bits[i] & ~b->u.bits[i]) {
				*res = false;
				return true;
			}
		*res = true;
		return true;
	}
	if (a->kind == V_VSET && b->kind == V_VSET) {
		for (int i = 0; i < a->n; i++)
			if (!cv_vset_has(ev, b, &a->u.elts[i])) {
				*res = false;
				return true;
			}
		*res = true;
		return true;
	}
	return cat_fail(ev, at, "cannot compare %s with %s", cval_kind_name(a->kind), cval_kind_name(b->kind));
}

