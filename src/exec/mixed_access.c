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

bool execution_mixed_rf_ok(const execution *x)
{
	const litmus_test *t = x->test;
	int n = x->n;
	int *src = xmalloc((size_t)(n ? n : 1) * sizeof *src);
	for (int r = 0; r < n; r++)
		src[r] = -1;
	for (int w = 0; w < n; w++)
		for (int r = 0; r < n; r++)
			if (brel_has(&x->rf, w, r))
				src[r] = w;
	bool ok = true;
	for (int r = 0; r < n && ok; r++) {
		if (x->ev[r].kind != EV_READ || src[r] < 0)
			continue;
		const event *w = &x->ev[src[r]];
		for (int r2 = 0; r2 < n && ok; r2++) {
			if (r2 == r || x->ev[r2].kind != EV_READ || src[r2] < 0 || !same_access(t, &x->ev[r], &x->ev[r2]))
				continue;
			/* does w's access write the granule r2 reads? */
			bool covers = false;
			for (int w2 = 0; w2 < n && !covers; w2++)
				covers = x->ev[w2].kind == EV_WRITE && x->ev[w2].loc == x->ev[r2].loc &&
				         same_access(t, w, &x->ev[w2]);
			const event *w2 = &x->ev[src[r2]];
			ok = !covers || same_access(t, w, w2) || access_bytes(t, w2) < access_bytes(t, w);
		}
	}
	free(src);
	return ok;
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
