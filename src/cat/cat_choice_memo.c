/* cat_choice_memo.c — the value of a `with co from S` set kept from one
 * execution to the next.
 *
 * S (cos-opt.cat's generate_cos(cobase), after lock.cat widened W) is the
 * costly part of a model that builds co itself: every linearisation of
 * every location's writes, crossed.  An engine tries many executions that
 * differ only in co (the enumerator's innermost loop), and when S reads
 * neither co nor fr (cat_choice.c decides it: choice_memo_ok) its value
 * is a function of what it can read: the static part of the execution,
 * rf, FW (co's last writes, which stdlib.cat's co0 puts last) if S reads
 * it, and the elements the earlier choices are bound to.  Those are the key;
 * the value is copied out of the evaluation's arena into the memo's own,
 * which lives until the key changes.  A value holding a closure is not
 * kept (its frames live in the evaluation's arena).
 */
#include <stdlib.h>
#include <string.h>

#include "cat_int.h"

/* A copy of v in a, or false when v holds something that cannot be copied
 * out of its evaluation (a closure, a procedure). */
static bool deep_copy(const cat_eval *ev, arena *a, const cval *v, cval *out)
{
	*out = *v;
	switch (v->kind) {
	case V_SET: case V_REL: {
		size_t nw = cv_nwords(ev, v->kind);
		out->u.bits = arena_alloc(a, (nw ? nw : 1) * sizeof(uint64_t));
		memcpy(out->u.bits, v->u.bits, nw * sizeof(uint64_t));
		return true;
	}
	case V_VSET: case V_TUPLE:
		out->u.elts = arena_alloc(a, (size_t)(v->n ? v->n : 1) * sizeof(cval));
		for (int i = 0; i < v->n; i++)
			if (!deep_copy(ev, a, &v->u.elts[i], &out->u.elts[i]))
				return false;
		return true;
	case V_EMPTY: case V_UNIV: case V_TAG: case V_PRIM:
		return true;
	case V_CLO: case V_PROC:
		return false;
	}
	return false;
}

static size_t rf_words(const cat_eval *ev)
{
	return (size_t)ev->n * (size_t)ev->words;
}

/* The current rf as the evaluator sees it (n rows of `words` words). */
static const uint64_t *current_rf(const cat_eval *ev)
{
	const brel *rf = &ev->x->rf;
	return rf->w && rf->n == ev->n && rf->words == ev->words ? rf->w : NULL;
}

/* FW, for a set that reads it: the writes no other write follows in co. */
static const uint64_t *current_fw(cat_eval *ev)
{
	cval fw;
	if (!cat_eval_slot(ev, B_FW, &fw) || fw.kind != V_SET) {
		cat_clear_error(ev);
		return NULL;
	}
	return fw.u.bits;
}

static bool key_matches(const choice_memo *mm, cat_eval *ev, int c)
{
	if (!mm->valid || mm->choice != c || mm->static_gen != ev->static_gen || mm->n != ev->n)
		return false;
	const uint64_t *rf = current_rf(ev);
	if (!rf || memcmp(rf, mm->rf, rf_words(ev) * sizeof(uint64_t)))
		return false;
	if (mm->fw) {
		const uint64_t *fw = current_fw(ev);
		if (!fw || memcmp(fw, mm->fw, (size_t)ev->words * sizeof(uint64_t)))
			return false;
	}
	for (int k = 0; k < c; k++) {
		const cval *now = &ev->slot_val[ev->m->choices[k].slot];
		if (cval_compare(now, &mm->earlier[k], ev->words, ev->n))
			return false;
	}
	return true;
}

bool choice_memo_get(const choice_memo *mm, cat_eval *ev, int c, cval *out)
{
	if (!key_matches(mm, ev, c))
		return false;
	*out = mm->value;
	return true;
}

void choice_memo_put(choice_memo *mm, cat_eval *ev, int c, const cval *v)
{
	mm->valid = false;
	mm->w = NULL;
	mm->hashes = NULL;
	arena_reset(&mm->ar);
	const uint64_t *rf = current_rf(ev);
	if (!rf)
		return;
	size_t nw = rf_words(ev);
	mm->rf = arena_alloc(&mm->ar, (nw ? nw : 1) * sizeof(uint64_t));
	memcpy(mm->rf, rf, nw * sizeof(uint64_t));
	mm->fw = NULL;
	if (ev->m->slots[ev->m->choices[c].slot].choice_reads_fw) {
		const uint64_t *fw = current_fw(ev);
		if (!fw)
			return;
		mm->fw = arena_alloc(&mm->ar, (size_t)(ev->words ? ev->words : 1) * sizeof(uint64_t));
		memcpy(mm->fw, fw, (size_t)ev->words * sizeof(uint64_t));
	}
	mm->earlier = arena_alloc(&mm->ar, (size_t)(c ? c : 1) * sizeof(cval));
	for (int k = 0; k < c; k++)
		if (!deep_copy(ev, &mm->ar, &ev->slot_val[ev->m->choices[k].slot], &mm->earlier[k]))
			return;
	if (!deep_copy(ev, &mm->ar, v, &mm->value))
		return;
	mm->choice = c;
	mm->static_gen = ev->static_gen;
	mm->n = ev->n;
	mm->valid = true;
}

uint64_t choice_proj_hash(const cat_eval *ev, const uint64_t *rows, const uint64_t *w)
{
	uint64_t h = 1469598103934665603u;
	for (int a = 0; a < ev->n; a++) {
		if (!((w[a >> 6] >> (a & 63)) & 1))
			continue;
		for (int k = 0; k < ev->words; k++) {
			h ^= rows ? rows[(size_t)a * ev->words + k] & w[k] : 0;
			h *= 1099511628211u;
			h ^= h >> 31;
		}
	}
	return h;
}

const uint64_t *choice_memo_hashes(choice_memo *mm, const cat_eval *ev, const cval *s, const uint64_t *w)
{
	if (!mm->valid || s->kind != V_VSET || s->u.elts != mm->value.u.elts || s->n != mm->value.n ||
	    mm->n != ev->n)
		return NULL;
	size_t ww = (size_t)(ev->words ? ev->words : 1);
	if (mm->w && !memcmp(mm->w, w, (size_t)ev->words * sizeof(uint64_t)))
		return mm->hashes;
	mm->w = arena_alloc(&mm->ar, ww * sizeof(uint64_t));
	memcpy(mm->w, w, (size_t)ev->words * sizeof(uint64_t));
	mm->hashes = arena_alloc(&mm->ar, (size_t)(s->n ? s->n : 1) * sizeof(uint64_t));
	for (int i = 0; i < s->n; i++) {
		const cval *e = &s->u.elts[i];
		mm->hashes[i] = choice_proj_hash(ev, e->kind == V_REL ? e->u.bits : NULL, w);
	}
	return mm->hashes;
}

void choice_memo_free(choice_memo *mm)
{
	arena_free(&mm->ar);
	memset(mm, 0, sizeof *mm);
}
