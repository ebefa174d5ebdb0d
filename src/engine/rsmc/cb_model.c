/* cb_model.c — a commit-before order named by the model itself:
 * `let commit_before = <relation>` at top level of the model or of a file
 * it includes (RSMC.md; herd ignores the unused binding).
 *
 * On each state the relation is evaluated by the model's own evaluator
 * (cat_model_eval_relation) on the execution of the state's FETCHED
 * events, committed or not, numbered as rsmc_exec.c numbers the committed
 * ones (initial writes 0..L-1, then each thread's events in fetch order;
 * store-conditionals known to have failed are no events):
 *   events     every fetched load, store, fence and branch, with its
 *              flags and fence name; a load's value where it is known;
 *   location   where the address is known; an access whose address is
 *              not known yet gets a pseudo-location of its own (L + its cb
 *              index), so it is in no `loc` pair with another event and
 *              in its own `classes-loc` class;
 *   po         between the fetched events of different instruction
 *              instances, in fetch order;
 *   addr data ctrl   as the thread interpreter computed them;
 *   rmw        herd's pairing (as rsmc_exec.c) over the fetched atomic
 *              accesses, a store-conditional whose outcome is unknown
 *              counting as a write; stops at an atomic access whose
 *              address is unknown, which might come in between;
 *   rf         only for committed loads (from the initial write or a
 *              thread's write);
 *   co         only over committed stores (initial write first).
 * So fr, FW and every derived relation are those of the committed part,
 * and the static relations (po, deps, loc where known) are final ones.
 * The pairs between two events of threads are kept (pairs with an initial
 * write are dropped: it is committed from the start); cb.c adds the
 * structural pairs, closes and keeps the pairs between accesses.
 *
 * Why this is safe.  The engine commits an access only when its address
 * (and, for a store, its data) is known (rsmc.c's enabled() tests
 * loc_known / val_known), and the structural pairs addr | data | ctrl |
 * xdep | rf that cb.c adds to every order make each load that an
 * address, a value or a fetch depends on commit first.  A pseudo-location
 * only makes the model's relation smaller while an address is unknown: it
 * can never let an event commit without its inputs.  What it can do is
 * miss a po-loc pair that appears once the address is known; an order
 * that uses po-loc should therefore contain addr;po (as cbPOWER and our
 * generic default do) so that no later access commits before an earlier
 * access's address is known.  Whether the order is valid for the model
 * (every allowed execution reachable) and how often it blocks is the
 * model author's responsibility: -stats counts blocked runs, and tests
 * compare such models with -engine enumerate. */
#include <stdlib.h>
#include <string.h>

#include "rsmc.h"

static bool in_exec(const fev *f)
{
	return !f->failed;
}

static bool is_atomic(const fev *f)
{
	return (f->flags & (EVF_ATOMIC | EVF_EXCL)) != 0;
}

static bool is_access(const fev *f)
{
	return f->kind == EV_READ || f->kind == EV_WRITE;
}

static void add_deps(brel *rel, const dep_list *l, const int *map)
{
	for (int i = 0; i < l->n; i++) {
		int a = map[l->e[i].from], b = map[l->e[i].to];
		if (a >= 0 && b >= 0)
			brel_add(rel, a, b);
	}
}

/* herd's pairing of an atomic read with the next atomic access of its
 * location in the thread, over what is fetched. */
static void add_rmw(const tstate *ts, const int *map, execution *x)
{
	for (int r = 0; r < ts->n_ev; r++) {
		const fev *fr = &ts->ev[r];
		if (fr->kind != EV_READ || !is_atomic(fr) || !in_exec(fr) || !fr->loc_known)
			continue;
		for (int w = r + 1; w < ts->n_ev; w++) {
			const fev *e = &ts->ev[w];
			if (!in_exec(e) || !is_atomic(e) || !is_access(e))
				continue;
			if (!e->loc_known)
				break;
			if (e->loc != fr->loc)
				continue;
			if (e->kind == EV_WRITE && !(e->flags & EVF_NO_RMW))
				brel_add(&x->rmw, map[r], map[w]);
			break;
		}
	}
}

/* The execution of s's fetched events (see above); map[cb index] gets the
 * execution index of each fetched event (-1: none). */
static void build_fetched(const litmus_test *t, const rstate *s, const cb_graph *g, execution *x, int *map)
{
	int n = t->n_locs;
	for (int i = 0; i < s->n_threads; i++)
		for (int k = 0; k < s->th[i].n_ev; k++)
			map[g->base[i] + k] = in_exec(&s->th[i].ev[k]) ? n++ : -1;
	execution_init(x, t, n);
	for (int l = 0; l < t->n_locs; l++) {
		event *e = &x->ev[l];
		e->kind = EV_WRITE;
		e->loc = l;
		e->val = t->locs[l].init;
		e->flags = EVF_INIT;
	}
	for (int i = 0; i < s->n_threads; i++) {
		const tstate *ts = &s->th[i];
		const int *row = map + g->base[i];
		int po_index = 0;
		for (int k = 0; k < ts->n_ev; k++) {
			const fev *f = &ts->ev[k];
			int me = row[k];
			if (me < 0)
				continue;
			event *e = &x->ev[me];
			e->kind = f->kind;
			e->thread = i;
			e->instr = f->instr;
			e->op = f->op;
			e->po_index = po_index++;
			e->instance = f->instance;
			e->flags = f->flags;
			e->fence = f->fence;
			if (is_access(f))
				e->loc = f->loc_known ? f->loc : t->n_locs + g->base[i] + k;
			if (f->val_known)
				e->val = f->val;
			for (int j = k + 1; j < ts->n_ev; j++)
				if (row[j] >= 0 && ts->ev[j].instance != f->instance)
					brel_add(&x->po, me, row[j]);
			if (f->kind == EV_READ && f->committed)
				brel_add(&x->rf, f->rf.t < 0 ? f->rf.k : map[g->base[f->rf.t] + f->rf.k], me);
		}
		add_deps(&x->addr, &ts->addr, row);
		add_deps(&x->data, &ts->data, row);
		add_deps(&x->ctrl, &ts->ctrl, row);
		add_rmw(ts, row, x);
	}
	for (int l = 0; l < t->n_locs; l++) {
		const costate *c = &s->co[l];
		for (int a = 0; a < c->n; a++) {
			int wa = map[g->base[c->w[a].t] + c->w[a].k];
			brel_add(&x->co, l, wa);
			for (int b = a + 1; b < c->n; b++)
				brel_add(&x->co, wa, map[g->base[c->w[b].t] + c->w[b].k]);
		}
	}
}

bool cb_model_edges(cb_order *o, const rstate *s, cb_graph *g)
{
	const litmus_test *t = o->t;
	int *map = xmalloc(((size_t)g->n + 1) * sizeof *map);
	execution x;
	build_fetched(t, s, g, &x, map);
	brel r;
	bool ok = cat_model_eval_relation(o->m, &x, CB_MODEL_NAME, &r, o->d);
	if (ok) {
		/* back from execution indices to cb indices, threads' events only */
		int *cb_of = xmalloc(((size_t)x.n + 1) * sizeof *cb_of);
		for (int i = 0; i < x.n; i++)
			cb_of[i] = -1;
		for (int i = 0; i < g->n; i++)
			if (map[i] >= 0)
				cb_of[map[i]] = i;
		for (int a = t->n_locs; a < x.n; a++)
			for (int b = t->n_locs; b < x.n; b++)
				if (brel_has(&r, a, b))
					brel_add(&g->rel, cb_of[a], cb_of[b]);
		free(cb_of);
		brel_free(&r);
	}
	execution_free(&x);
	free(map);
	return ok;
}
