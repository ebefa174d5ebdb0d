/* test_cat_build.h — building small candidate executions by hand for the cat
 * unit tests: initial writes, then per-thread events in program order, then
 * rf / co / dependency edges by event index.  co is closed transitively and
 * po is the per-thread order of creation. */
#ifndef WEFT_TEST_CAT_BUILD_H
#define WEFT_TEST_CAT_BUILD_H

#include <string.h>

#include "../../src/arch/arch.h"
#include "../../src/exec/exec.h"

enum { XB_MAX_EVENTS = 256, XB_MAX_EDGES = 1024 };

typedef struct xb_edge {
	char rel; /* 'f' rf, 'c' co, 'a' addr, 'd' data, 'k' ctrl, 'x' rmw */
	int from, to;
} xb_edge;

typedef struct xb {
	litmus_test test;
	arch arch;
	int n;
	event ev[XB_MAX_EVENTS];
	int nedges;
	xb_edge edges[XB_MAX_EDGES];
	int next_instr[16];
	int next_po[16];
	execution x;
	bool built;
} xb;

/* arch_fences: NULL-terminated fence names of the pretend architecture
 * (NULL: no architecture; fence names are then looked up by event). */
static inline void xb_init(xb *b, const char *arch_name, const char *const *arch_fences)
{
	memset(b, 0, sizeof *b);
	if (arch_name) {
		b->arch.name = arch_name;
		b->arch.fences = arch_fences;
		b->test.arch = &b->arch;
	}
}

static inline int xb_event(xb *b, enum event_kind k, int thread, int loc, int val, bool new_instr)
{
	int i = b->n++;
	event *e = &b->ev[i];
	memset(e, 0, sizeof *e);
	e->kind = k;
	e->thread = thread;
	e->loc = loc;
	e->val = value_int(val);
	if (thread >= 0) {
		if (!new_instr && b->next_instr[thread] > 0)
			e->instr = b->next_instr[thread] - 1;
		else
			e->instr = b->next_instr[thread]++;
		e->po_index = b->next_po[thread]++;
		e->op = e->po_index;
	} else {
		e->instr = -1;
		e->op = -1;
		e->po_index = -1;
		e->flags |= EVF_INIT;
	}
	return i;
}

static inline int xb_iw(xb *b, int loc) { return xb_event(b, EV_WRITE, -1, loc, 0, true); }
static inline int xb_w(xb *b, int t, int loc, int v) { return xb_event(b, EV_WRITE, t, loc, v, true); }
static inline int xb_r(xb *b, int t, int loc, int v) { return xb_event(b, EV_READ, t, loc, v, true); }
static inline int xb_fence(xb *b, int t, const char *name)
{
	int i = xb_event(b, EV_FENCE, t, -1, 0, true);
	b->ev[i].fence = name;
	return i;
}
static inline int xb_branch(xb *b, int t) { return xb_event(b, EV_BRANCH, t, -1, 0, true); }
/* An atomic read-modify-write instruction (xchg): R then W of one instr. */
static inline int xb_xchg(xb *b, int t, int loc, int rv, int wv, int *w_out)
{
	int r = xb_event(b, EV_READ, t, loc, rv, true);
	int w = xb_event(b, EV_WRITE, t, loc, wv, false);
	b->ev[r].flags |= EVF_ATOMIC;
	b->ev[w].flags |= EVF_ATOMIC;
	b->edges[b->nedges++] = (xb_edge){ 'x', r, w };
	*w_out = w;
	return r;
}
static inline void xb_edge_add(xb *b, char rel, int from, int to)
{
	b->edges[b->nedges++] = (xb_edge){ rel, from, to };
}
static inline void xb_rf(xb *b, int w, int r) { xb_edge_add(b, 'f', w, r); }
static inline void xb_co(xb *b, int w1, int w2) { xb_edge_add(b, 'c', w1, w2); }

static inline execution *xb_build(xb *b)
{
	execution *x = &b->x;
	execution_init(x, &b->test, b->n);
	memcpy(x->ev, b->ev, (size_t)b->n * sizeof *x->ev);
	for (int i = 0; i < b->n; i++)
		for (int j = 0; j < b->n; j++)
			if (b->ev[i].thread >= 0 && b->ev[i].thread == b->ev[j].thread &&
			    b->ev[i].po_index < b->ev[j].po_index)
				brel_add(&x->po, i, j);
	for (int k = 0; k < b->nedges; k++) {
		xb_edge *e = &b->edges[k];
		brel *r = e->rel == 'f' ? &x->rf : e->rel == 'c' ? &x->co : e->rel == 'a' ? &x->addr :
		          e->rel == 'd' ? &x->data : e->rel == 'k' ? &x->ctrl : &x->rmw;
		brel_add(r, e->from, e->to);
	}
	/* Initial writes are co-before every other write of their location. */
	for (int i = 0; i < b->n; i++)
		for (int j = 0; j < b->n; j++)
			if ((b->ev[i].flags & EVF_INIT) && b->ev[j].kind == EV_WRITE && !(b->ev[j].flags & EVF_INIT) &&
			    b->ev[i].loc == b->ev[j].loc)
				brel_add(&x->co, i, j);
	brel_transitive_closure(&x->co);
	b->built = true;
	return x;
}

static inline void xb_free(xb *b)
{
	if (b->built)
		execution_free(&b->x);
	b->built = false;
}

#endif
