/* mixed_access.c — the reads-from herd builds under -variant mixed
 * (exec.h's execution_mixed_rf_ok).  herd covers a read access with the
 * write accesses that meet it, smallest first: a write taken gives every
 * granule of the read it has that no smaller write gave.  So when a
 * granule of a read comes from write W, each other granule of the read
 * that W writes comes from W or from a smaller write. */
#include <stdlib.h>

#include "exec.h"

/* The location whose granule l is (itself when not split). */
static int whole_of(const litmus_test *t, int l)
{
	return l >= 0 && t->locs[l].array >= 0 && t->locs[t->locs[l].array].granules ? t->locs[l].array : l;
}

/* The first op of the access of thread event e. */
static int first_op(const litmus_test *t, const event *e)
{
	return e->op - t->threads[e->thread].ops[e->op].access_back;
}

/* The size of the access of write event w: its location's for an
 * initial write. */
static int access_bytes(const litmus_test *t, const event *w)
{
	if (w->flags & EVF_INIT) {
		const location *l = &t->locs[whole_of(t, w->loc)];
		return l->granules ? l->granules * t->mixed_granule : t->mixed_granule;
	}
	const op *o = &t->threads[w->thread].ops[w->op];
	return o->access_size ? o->access_size : o->size;
}

/* Whether memory events a and b are granules of one access: one instance
 * of one split op, or one location's initial write. */
static bool same_access(const litmus_test *t, const event *a, const event *b)
{
	if ((a->flags | b->flags) & EVF_INIT)
		return (a->flags & b->flags & EVF_INIT) && whole_of(t, a->loc) == whole_of(t, b->loc);
	return a->thread == b->thread && a->instance == b->instance && a->op >= 0 && b->op >= 0 &&
	       first_op(t, a) == first_op(t, b);
}

/* Read r takes from write w: does that let read r2 take from w2? */
static bool granule_ok(const execution *x, int r, int w, int r2, int w2)
{
	const litmus_test *t = x->test;
	const event *ew = &x->ev[w], *ew2 = &x->ev[w2];
	if (!same_access(t, &x->ev[r], &x->ev[r2]) || same_access(t, ew, ew2) ||
	    access_bytes(t, ew2) < access_bytes(t, ew))
		return true;
	/* r2 reads another write, as large or larger: w's access must not
	 * write the granule r2 reads */
	for (int e = 0; e < x->n; e++)
		if (x->ev[e].kind == EV_WRITE && x->ev[e].loc == x->ev[r2].loc && same_access(t, ew, &x->ev[e]))
			return false;
	return true;
}

bool execution_mixed_rf_pair_ok(const execution *x, int r1, int w1, int r2, int w2)
{
	return granule_ok(x, r1, w1, r2, w2) && granule_ok(x, r2, w2, r1, w1);
}

bool execution_mixed_co_ok(const execution *x)
{
	const litmus_test *t = x->test;
	int n = x->n;
	for (int a = 0; a < n; a++)
		for (int b = 0; b < n; b++) {
			if (!brel_has(&x->co, a, b) || (x->ev[a].flags & EVF_INIT))
				continue;
			/* a co b on one granule: no granule both write the other
			 * way round */
			for (int a2 = 0; a2 < n; a2++) {
				if (x->ev[a2].kind != EV_WRITE || !same_access(t, &x->ev[a], &x->ev[a2]))
					continue;
				for (int b2 = 0; b2 < n; b2++)
					if (x->ev[b2].kind == EV_WRITE && x->ev[b2].loc == x->ev[a2].loc &&
					    same_access(t, &x->ev[b], &x->ev[b2]) && brel_has(&x->co, b2, a2))
						return false;
			}
		}
	return true;
}
