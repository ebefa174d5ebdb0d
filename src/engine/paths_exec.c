/* paths_exec.c — the static part of an execution made of one path per
 * thread: what every engine that pairs paths with reads-from and coherence
 * builds the same way (paths.h, paths_execution). */
#include <string.h>

#include "paths.h"

static bool is_atomic_access(const event *e)
{
	return (e->flags & (EVF_ATOMIC | EVF_EXCL)) != 0;
}

/* herd's pairing of atomic accesses: each atomic load with the first
 * po-later atomic store to the same location, unless another atomic load
 * of that location comes in between. */
static void add_rmw(execution *x, int first, int last)
{
	for (int r = first; r < last; r++) {
		if (x->ev[r].kind != EV_READ || !is_atomic_access(&x->ev[r]))
			continue;
		for (int w = r + 1; w < last; w++) {
			const event *e = &x->ev[w];
			if (!is_atomic_access(e) || e->loc != x->ev[r].loc)
				continue;
			if (e->kind == EV_READ)
				break;
			if (e->kind == EV_WRITE) {
				if (!(e->flags & EVF_NO_RMW))
					brel_add(&x->rmw, r, w);
				break;
			}
		}
	}
}

static void add_deps(brel *rel, const dep_list *l, int base)
{
	for (int i = 0; i < l->n; i++)
		brel_add(rel, base + l->e[i].from, base + l->e[i].to);
}

void paths_execution(const litmus_test *t, const thread_path *const *pick, int *base, execution *x)
{
	int n = t->n_locs;
	for (int i = 0; i < t->n_threads; i++) {
		base[i] = n;
		n += pick[i]->n_ev;
	}
	execution_init(x, t, n);
	for (int l = 0; l < t->n_locs; l++) {
		event *e = &x->ev[l];
		memset(e, 0, sizeof *e);
		e->kind = EV_WRITE;
		e->thread = -1;
		e->instr = -1;
		e->op = -1;
		e->po_index = 0;
		e->loc = l;
		e->val = t->locs[l].init;
		e->flags = EVF_INIT;
	}
	for (int i = 0; i < t->n_threads; i++) {
		const thread_path *p = pick[i];
		int b = base[i];
		for (int k = 0; k < p->n_ev; k++) {
			event *e = &x->ev[b + k];
			const path_event *pe = &p->ev[k];
			memset(e, 0, sizeof *e);
			e->kind = pe->kind;
			e->thread = i;
			e->instr = pe->instr;
			e->op = pe->op;
			e->po_index = k;
			e->instance = pe->instance;
			e->loc = pe->loc;
			e->val = pe->val;
			e->flags = pe->flags;
			e->fence = pe->fence;
			/* po orders instructions: the events of one instruction
			 * (the read and write of an xchg) are not po-related */
			for (int j = k + 1; j < p->n_ev; j++)
				if (p->ev[j].instance != pe->instance)
					brel_add(&x->po, b + k, b + j);
		}
		add_deps(&x->addr, &p->addr, b);
		add_deps(&x->data, &p->data, b);
		add_deps(&x->ctrl, &p->ctrl, b);
		if (p->has_hd) {
			if (!x->has_herd_deps)
				execution_init_herd_deps(x);
			for (int k = 0; k < XD_N; k++)
				add_deps(&x->hd[k], &p->hd[k], b);
		}
		add_rmw(x, b, b + p->n_ev);
	}
}
