/* cb_static.c — can a commit-before order have a cycle in some execution
 * of a test?
 *
 * Why it matters.  rsmc builds an execution by committing its events one
 * at a time in an order that respects cb, each read after the write it
 * reads.  An execution whose cb (with its rf) has a cycle can never be
 * built: if the model allows it, rsmc misses it, silently and with no
 * blocked run (the paper's validity condition: cb acyclic on every allowed
 * execution).  For the models of cb.c's proven_models that is proved; for
 * any other model it is not known, and a model that allows values out of
 * thin air (no check forbids a cycle of dependencies and rf) or forgets
 * SC per location really has such executions.  So for those models rsmc
 * asks, per test, whether any execution could have such a cycle, and
 * leaves the test to the enumerator when one could.
 *
 * How.  Every thread path the enumerator would consider (paths_build: all
 * control paths under the value sets of the locations) gives its events
 * and dependencies.  An event is identified across paths by its thread,
 * op and occurrence of that op on the path, so that the paths of one
 * thread share their common events.  The order's own pairs within each
 * path (cb.c's cb_thread_pairs) and every possible rf pair (a write to a
 * read of a location both may access: another thread's, or a po-earlier
 * one of the same path) form one graph; a cycle in any execution's cb is a
 * cycle in it.  No cycle there: no execution of the test has one.  The
 * graph over-approximates (events of different paths of a thread mix, any
 * write may feed any read of its location), so a cycle here only means the
 * test goes to the enumerator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rsmc.h"
#include "../../arch/arch.h"

/* An event of one thread, over all its paths. */
typedef struct snode {
	int thread, op, occ;
	bool write, read;
	int n_locs;
	size_t cap_locs;
	int *locs;
} snode;

typedef struct sgraph {
	int n;
	size_t cap;
	snode *node;
	/* pairs, kept as a list while nodes are still being found */
	int n_pairs;
	size_t cap_pairs;
	int (*pair)[2];
} sgraph;

static int node_of(sgraph *g, int thread, int op, int occ)
{
	for (int i = 0; i < g->n; i++)
		if (g->node[i].thread == thread && g->node[i].op == op && g->node[i].occ == occ)
			return i;
	GROW(g->node, g->cap, (size_t)g->n + 1);
	snode *s = &g->node[g->n];
	memset(s, 0, sizeof *s);
	s->thread = thread;
	s->op = op;
	s->occ = occ;
	return g->n++;
}

static void node_add_loc(snode *s, int loc)
{
	for (int i = 0; i < s->n_locs; i++)
		if (s->locs[i] == loc)
			return;
	GROW(s->locs, s->cap_locs, (size_t)s->n_locs + 1);
	s->locs[s->n_locs++] = loc;
}

static void pair_add(sgraph *g, int a, int b)
{
	GROW(g->pair, g->cap_pairs, (size_t)g->n_pairs + 1);
	g->pair[g->n_pairs][0] = a;
	g->pair[g->n_pairs][1] = b;
	g->n_pairs++;
}

static bool share_loc(const snode *a, const snode *b)
{
	for (int i = 0; i < a->n_locs; i++)
		for (int j = 0; j < b->n_locs; j++)
			if (a->locs[i] == b->locs[j])
				return true;
	return false;
}

/* The nodes and within-thread pairs of one path of thread ti. */
static void add_path(sgraph *g, enum cb_kind k, int ti, const thread_path *p, int n_ops)
{
	int *occ = xcalloc((size_t)n_ops + 1, sizeof *occ);
	int *node = xmalloc(((size_t)p->n_ev + 1) * sizeof *node);
	fev *ev = xcalloc((size_t)p->n_ev + 1, sizeof *ev);
	for (int i = 0; i < p->n_ev; i++) {
		const path_event *pe = &p->ev[i];
		int op = pe->op >= 0 && pe->op < n_ops ? pe->op : n_ops;
		node[i] = node_of(g, ti, pe->op, occ[op]++);
		snode *s = &g->node[node[i]];
		if (pe->kind == EV_READ || pe->kind == EV_WRITE) {
			s->read = s->read || pe->kind == EV_READ;
			s->write = s->write || pe->kind == EV_WRITE;
			node_add_loc(s, pe->loc);
		}
		fev *f = &ev[i];
		f->kind = pe->kind;
		f->op = pe->op;
		f->instr = pe->instr;
		f->instance = pe->instance;
		f->loc = pe->loc;
		f->loc_known = f->val_known = true;
		f->val = pe->val;
		f->flags = pe->flags;
		f->fence = pe->fence;
	}
	tstate ts = { 0 };
	ts.n_ev = p->n_ev;
	ts.ev = ev;
	ts.addr = p->addr;
	ts.data = p->data;
	ts.ctrl = p->ctrl;
	brel r = brel_new(p->n_ev);
	cb_thread_pairs(k, &ts, &r);
	for (int a = 0; a < p->n_ev; a++) {
		for (int b = 0; b < p->n_ev; b++)
			if (brel_has(&r, a, b))
				pair_add(g, node[a], node[b]);
		/* rf within the thread: from a po-earlier write of the path */
		if (ev[a].kind != EV_WRITE)
			continue;
		for (int b = a + 1; b < p->n_ev; b++)
			if (ev[b].kind == EV_READ && ev[b].loc == ev[a].loc && ev[b].instance != ev[a].instance)
				pair_add(g, node[a], node[b]);
	}
	brel_free(&r);
	free(ev);
	free(node);
	free(occ);
}

bool cb_may_cycle(enum cb_kind k, const litmus_test *t, int unroll, double deadline)
{
	path_set *paths = NULL;
	long rounds = 0;
	bool timed_out = false;
	/* the engine that answers reports the path builder's warnings */
	diag quiet = { .drop = true };
	paths_build(t, unroll, deadline, true, &paths, &rounds, &timed_out, NULL, &quiet);
	sgraph g = { 0 };
	for (int ti = 0; ti < t->n_threads; ti++)
		for (int pi = 0; pi < paths[ti].n; pi++)
			add_path(&g, k, ti, &paths[ti].p[pi], t->threads[ti].n_ops);
	paths_free(t, paths);
	/* rf between threads: a write to a read of a location both access */
	for (int a = 0; a < g.n; a++)
		for (int b = 0; b < g.n; b++)
			if (g.node[a].write && g.node[b].read && g.node[a].thread != g.node[b].thread &&
			    share_loc(&g.node[a], &g.node[b]))
				pair_add(&g, a, b);
	brel r = brel_new(g.n);
	for (int i = 0; i < g.n_pairs; i++)
		brel_add(&r, g.pair[i][0], g.pair[i][1]);
	bool cycle = timed_out || !brel_acyclic(&r);
	brel_free(&r);
	for (int i = 0; i < g.n; i++)
		free(g.node[i].locs);
	free(g.node);
	free(g.pair);
	return cycle;
}

/* Is r a register `taint` marks? */
static bool tainted(const bool *taint, int n, operand r)
{
	return r.kind == OPND_REG && r.reg >= 0 && r.reg < n && taint[r.reg];
}

bool cb_instr_dep(const litmus_test *t)
{
	if (t->arch && t->arch->po_within_instruction)
		return false;   /* C: po orders them (arch.h) */
	for (int i = 0; i < t->n_threads; i++) {
		const thread *th = &t->threads[i];
		bool *taint = xcalloc((size_t)th->n_regs + 1, sizeof *taint);
		bool dep = false;
		for (int k = 0, cur = -1; k < th->n_ops && !dep; k++) {
			const op *o = &th->ops[k];
			if (o->instr != cur) {
				/* registers read by a later instruction
				 * give dependencies in po */
				memset(taint, 0, ((size_t)th->n_regs + 1) * sizeof *taint);
				cur = o->instr;
			}
			bool in = tainted(taint, th->n_regs, o->a) || tainted(taint, th->n_regs, o->b);
			/* a fused AMO's read and write are one event for
			 * the models (RISC-V's amoadd): no cycle through it */
			if ((o->kind == OP_STORE || o->kind == OP_STCOND) && !(o->flags & ACC_FUSED))
				dep = tainted(taint, th->n_regs, o->a) || tainted(taint, th->n_regs, o->addr.base) ||
				      tainted(taint, th->n_regs, o->addr.index);
			else if (o->dst >= 0 && o->dst < th->n_regs)
				taint[o->dst] = o->kind == OP_LOAD || (o->kind == OP_ALU && in);
		}
		free(taint);
		if (dep)
			return true;
	}
	return false;
}
