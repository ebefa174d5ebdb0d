/* cat_co_orders.c — which coherence orders an engine need try under a
 * model that chooses co itself (`with co from S`, cat_choice.c).
 *
 * With co from S, an execution whose co is the engine's counts once per
 * element of S that orders the execution's writes as its co does; an
 * execution whose co no element of S gives counts for nothing, whatever
 * the rest of the model says.  So when S reads neither co nor fr
 * (choice_memo_ok), the orders worth trying are the projections on the
 * memory writes (W) of S's elements, under every combination of the
 * earlier choices' elements, and, when S reads FW, for each choice of the
 * last writes in turn (an order counts only under the S of its own last
 * writes): the enumerator tries those instead of every
 * permutation of every location's writes, and counts the same executions
 * the same number of times (the branches are chosen and counted as
 * before, from the same S).  Checks between the choices are not run here:
 * an order they would rule out is only tried for nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "../cat_int.h"
#include "cat_analysis.h"

typedef struct orders {
	const cat_eval *ev;
	const uint64_t *w;   /* W, the memory writes */
	size_t nw;           /* words of one relation */
	cat_co_orders *out;
	size_t cap;
	brel scratch;        /* the projection being looked up */
	/* open addressing on the orders' hashes: index + 1, 0 empty */
	int *slots;
	size_t nslots;
} orders;

static uint64_t hash_bits(const uint64_t *b, size_t n)
{
	uint64_t h = 1469598103934665603u;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 1099511628211u;
		h ^= h >> 29;
	}
	return h;
}

static void rehash(orders *o)
{
	size_t ns = o->nslots ? o->nslots * 2 : 64;
	int *sl = xcalloc(ns, sizeof *sl);
	for (int i = 0; i < o->out->n; i++) {
		size_t h = (size_t)hash_bits(o->out->v[i].w, o->nw) & (ns - 1);
		while (sl[h])
			h = (h + 1) & (ns - 1);
		sl[h] = i + 1;
	}
	free(o->slots);
	o->slots = sl;
	o->nslots = ns;
}

/* Keep e's projection on W x W, once. */
static void add_projection(orders *o, const cval *e)
{
	const cat_eval *ev = o->ev;
	brel *p = &o->scratch;
	for (int a = 0; a < ev->n; a++) {
		uint64_t *row = brel_row(p, a);
		const uint64_t *from = e->kind == V_REL ? e->u.bits + (size_t)a * ev->words : NULL;
		bool in_w = (o->w[a >> 6] >> (a & 63)) & 1;
		for (int k = 0; k < ev->words; k++)
			row[k] = from && in_w ? from[k] & o->w[k] : 0;
	}
	if ((size_t)(o->out->n + 1) * 2 > o->nslots)
		rehash(o);
	size_t h = (size_t)hash_bits(p->w, o->nw) & (o->nslots - 1);
	for (; o->slots[h]; h = (h + 1) & (o->nslots - 1))
		if (!memcmp(o->out->v[o->slots[h] - 1].w, p->w, o->nw * sizeof(uint64_t)))
			return;
	if ((size_t)o->out->n == o->cap) {
		o->cap = o->cap ? o->cap * 2 : 16;
		o->out->v = xrealloc(o->out->v, o->cap * sizeof *o->out->v);
	}
	o->out->v[o->out->n] = *p;
	o->scratch = brel_new(ev->n);
	o->slots[h] = ++o->out->n;
}

/* Every element of the co choice `target` under every element of each
 * earlier choice from `c` on. */
static bool walk(cat_model *m, cat_eval *ev, int c, int target, orders *o)
{
	int n;
	cval *elts;
	if (c == target) {
		if (!cat_eval_choice_all(ev, c, &n, &elts))
			return false;
		for (int i = 0; i < n; i++) {
			if (elts[i].kind != V_REL && elts[i].kind != V_EMPTY)
				return false;
			add_projection(o, &elts[i]);
		}
		return true;
	}
	if (!cat_eval_choice_set(ev, c, &n, &elts))
		return false;
	for (int i = 0; i < n; i++) {
		cat_eval_bind_choice(ev, c, &elts[i]);
		if (!walk(m, ev, c + 1, target, o))
			return false;
	}
	return true;
}

void cat_co_orders_free(cat_co_orders *o)
{
	for (int i = 0; i < o->n; i++)
		brel_free(&o->v[i]);
	free(o->v);
	o->v = NULL;
	o->n = 0;
}

/* The model's one choice of co whose set reads neither co nor fr, or -1
 * (none, several, or one reading them): fixed when the model is loaded. */
static int co_choice(const cat_model *m)
{
	int target = -1;
	for (int c = 0; c < m->nchoices; c++) {
		const cat_slot *sl = &m->slots[m->choices[c].slot];
		if (sl->co_filter) {
			if (target >= 0 || !sl->choice_memo_ok)
				return -1;
			target = c;
		}
	}
	return target;
}

bool cat_model_chooses_co_orders(const cat_model *m)
{
	return co_choice(m) >= 0;
}

bool cat_model_co_orders(cat_model *m, const execution *x, cat_co_orders *out)
{
	*out = (cat_co_orders){ 0, NULL, false };
	int target = co_choice(m);
	if (target < 0)
		return false;
	out->per_final_writes = m->slots[m->choices[target].slot].choice_reads_fw;
	cat_eval *ev = &m->ev;
	cat_eval_begin(ev, x);
	cval w;
	if (!cat_eval_slot(ev, B_W, &w) || w.kind != V_SET) {
		cat_clear_error(ev);
		return false;
	}
	orders o = { ev, w.u.bits, (size_t)ev->n * (size_t)ev->words, out, 0, brel_new(ev->n), NULL, 0 };
	/* a set too large to keep whole (cat_eval_co_pruned) is built with
	 * one order of the events beyond the memory writes (the lock
	 * writes), as those are not projected */
	ev->co_project = true;
	bool ok = walk(m, ev, 0, target, &o);
	ev->co_project = false;
	brel_free(&o.scratch);
	free(o.slots);
	if (!ok) {
		/* the engine tries every order; judging them reports the error
		 * where the model's own run meets it */
		cat_clear_error(ev);
		cat_co_orders_free(out);
		return false;
	}
	return true;
}
