/* rsmc_exec.c — the execution of the committed part of an RSMC state, built
 * with the conventions of enumerate.c (initial writes as events 0..L-1,
 * then each thread's events in program order; po between different
 * instruction instances; dependencies from taint tracking; herd's rmw
 * pairing of atomic accesses).  When every event is committed this is the
 * very execution the enumerator builds for the same choices.
 *
 * On a partial state, relations only link committed events: the model's
 * monotone checks (cat_model_check_partial) may then fail early but never
 * wrongly, since every extension adds events and edges. */
#include <stdlib.h>
#include <string.h>

#include "rsmc.h"

static bool in_exec(const fev *f)
{
	return f->committed && !f->failed;
}

static bool is_atomic(const fev *f)
{
	return (f->flags & (EVF_ATOMIC | EVF_EXCL)) != 0;
}

/* herd's pairing (enumerate.c add_rmw), on what is certain: an atomic
 * access whose address is not known yet, or a store-conditional not yet
 * committed, may or may not come in between, so stop there. */
static void add_rmw(const tstate *ts, int *const map, execution *x)
{
	for (int r = 0; r < ts->n_ev; r++) {
		const fev *fr = &ts->ev[r];
		if (fr->kind != EV_READ || !is_atomic(fr) || !in_exec(fr))
			continue;
		for (int w = r + 1; w < ts->n_ev; w++) {
			const fev *e = &ts->ev[w];
			if (e->failed || !is_atomic(e) || (e->kind != EV_READ && e->kind != EV_WRITE))
				continue;
			if (!e->loc_known || (e->stcond && !e->committed))
				break;
			if (e->loc != fr->loc)
				continue;
			if (e->kind == EV_READ)
				break;
			if (in_exec(e) && !(e->flags & EVF_NO_RMW))
				brel_add(&x->rmw, map[r], map[w]);
			break;
		}
	}
}

static void add_deps(brel *rel, const dep_list *l, int *const map)
{
	for (int i = 0; i < l->n; i++) {
		int a = map[l->e[i].from], b = map[l->e[i].to];
		if (a >= 0 && b >= 0)
			brel_add(rel, a, b);
	}
}

void rsmc_map_free(const rstate *s, int **map)
{
	if (!map)
		return;
	for (int i = 0; i < s->n_threads; i++)
		free(map[i]);
	free(map);
}

/* Number the events of s (map[i][k]: execution index of thread i's fetch
 * index k, -1 if not in the execution); returns the event count. */
static int number_events(const litmus_test *t, const rstate *s, int *const *map)
{
	int n = t->n_locs;
	for (int i = 0; i < s->n_threads; i++) {
		const tstate *ts = &s->th[i];
		for (int k = 0; k < ts->n_ev; k++)
			map[i][k] = in_exec(&ts->ev[k]) ? n++ : -1;
	}
	return n;
}

/* Fill x (events and relations of the right size, relations empty). */
/* Instances never decrease along the thread's events, so the events of one
 * instruction instance are contiguous. */
static bool instances_grouped(const tstate *ts)
{
	for (int k = 1; k < ts->n_ev; k++)
		if (ts->ev[k].instance < ts->ev[k - 1].instance)
			return false;
	return true;
}

/* po of one thread whose instances are grouped, from its last group back:
 * an event is po-before every mapped event of a later instance, which is
 * the po row of the nearest later group with a mapped event plus that
 * group's own events: one row copy per event instead of a scan of every
 * later event. */
static void po_rows(const tstate *ts, brel *po, const int *row_map)
{
	int nxt_first = -1, nxt_lo = 0, nxt_hi = 0;  /* next group: [lo, hi) */
	for (int hi = ts->n_ev; hi > 0;) {
		int lo = hi - 1;
		while (lo > 0 && ts->ev[lo - 1].instance == ts->ev[hi - 1].instance)
			lo--;
		int first = -1;
		for (int k = lo; k < hi; k++) {
			int me = row_map[k];
			if (me < 0)
				continue;
			if (first < 0)
				first = me;
			if (nxt_first < 0)
				continue;
			uint64_t *dst = brel_row(po, me);
			const uint64_t *src = brel_row(po, nxt_first);
			for (int w = 0; w < po->words; w++)
				dst[w] |= src[w];
			for (int j = nxt_lo; j < nxt_hi; j++)
				if (row_map[j] >= 0)
					brel_add(po, me, row_map[j]);
		}
		if (first >= 0) {
			nxt_first = first;
			nxt_lo = lo;
			nxt_hi = hi;
		}
		hi = lo;
	}
}

static void fill_co(const litmus_test *t, const rstate *s, execution *x, int *const *map);

static void fill_execution(const litmus_test *t, const rstate *s, execution *x, int *const *map)
{
	for (int l = 0; l < t->n_locs; l++) {
		event *e = &x->ev[l];
		memset(e, 0, sizeof *e);
		e->kind = EV_WRITE;
		e->thread = -1;
		e->instr = -1;
		e->op = -1;
		e->loc = l;
		e->val = t->locs[l].init;
		e->flags = EVF_INIT;
	}
	for (int i = 0; i < s->n_threads; i++) {
		const tstate *ts = &s->th[i];
		int po_index = 0;
		bool grouped = instances_grouped(ts);
		if (grouped)
			po_rows(ts, &x->po, map[i]);
		for (int k = 0; k < ts->n_ev; k++) {
			const fev *f = &ts->ev[k];
			if (f->failed)
				continue;
			int me = map[i][k];
			if (me >= 0) {
				event *e = &x->ev[me];
				memset(e, 0, sizeof *e);
				e->kind = f->kind;
				e->thread = i;
				e->instr = f->instr;
				e->op = f->op;
				e->po_index = po_index;
				e->instance = f->instance;
				e->loc = f->loc;
				e->val = f->val;
				e->flags = f->flags;
				e->fence = f->fence;
				if (!grouped)
					for (int j = k + 1; j < ts->n_ev; j++)
						if (map[i][j] >= 0 && ts->ev[j].instance != f->instance)
							brel_add(&x->po, me, map[i][j]);
				if (f->kind == EV_READ) {
					int w = f->rf.t < 0 ? f->rf.k : map[f->rf.t][f->rf.k];
					brel_add(&x->rf, w, me);
				}
			}
			po_index++;
		}
		add_deps(&x->addr, &ts->addr, map[i]);
		add_deps(&x->data, &ts->data, map[i]);
		add_deps(&x->ctrl, &ts->ctrl, map[i]);
		if (ts->has_hd) {
			if (!x->has_herd_deps)
				execution_init_herd_deps(x);
			for (int k = 0; k < XD_N; k++)
				add_deps(&x->hd[k], &ts->hd[k], map[i]);
		}
		add_rmw(ts, map[i], x);
	}
	fill_co(t, s, x, map);
}

/* co of x from s's coherence lists (x's co empty). */
static void fill_co(const litmus_test *t, const rstate *s, execution *x, int *const *map)
{
	for (int l = 0; l < t->n_locs; l++) {
		const costate *c = &s->co[l];
		/* from the last write back: each row is the next write's row
		 * plus the next write */
		for (int a = c->n - 1, wb = -1; a >= 0; a--) {
			int wa = map[c->w[a].t][c->w[a].k];
			brel_add(&x->co, l, wa);
			if (wb >= 0) {
				uint64_t *dst = brel_row(&x->co, wa);
				const uint64_t *src = brel_row(&x->co, wb);
				for (int w = 0; w < x->co.words; w++)
					dst[w] |= src[w];
				brel_add(&x->co, wa, wb);
			}
			wb = wa;
		}
	}
}

void rsmc_build_execution(const litmus_test *t, const rstate *s, execution *x, int ***map_out)
{
	int **map = xcalloc((size_t)s->n_threads + 1, sizeof *map);
	for (int i = 0; i < s->n_threads; i++)
		map[i] = xmalloc(((size_t)s->th[i].n_ev + 1) * sizeof **map);
	execution_init(x, t, number_events(t, s, map));
	fill_execution(t, s, x, map);
	if (map_out)
		*map_out = map;
	else
		rsmc_map_free(s, map);
}

static bool same_deps(const dep_list *a, const dep_list *b)
{
	return a->n == b->n && (a->n == 0 || memcmp(a->e, b->e, (size_t)a->n * sizeof *a->e) == 0);
}

static bool same_fev(const fev *a, const fev *b)
{
	return a->kind == b->kind && a->op == b->op && a->instr == b->instr && a->instance == b->instance &&
	       a->loc == b->loc && value_eq(a->val, b->val) && a->loc_known == b->loc_known &&
	       a->val_known == b->val_known && a->stcond == b->stcond && a->flags == b->flags &&
	       a->fence == b->fence && a->committed == b->committed && a->failed == b->failed &&
	       eref_eq(a->rf, b->rf);
}

/* Do s and the state x was built from give the same execution except
 * perhaps for co: same events with the same values, reads-from and
 * dependencies?  (Everything fill_execution reads but the co lists.) */
static bool same_but_co(const rstate *a, const rstate *b)
{
	if (a->n_threads != b->n_threads)
		return false;
	for (int i = 0; i < a->n_threads; i++) {
		const tstate *x = &a->th[i], *y = &b->th[i];
		if (x->n_ev != y->n_ev || !same_deps(&x->addr, &y->addr) || !same_deps(&x->data, &y->data) ||
		    !same_deps(&x->ctrl, &y->ctrl) || x->has_hd != y->has_hd)
			return false;
		for (int k = 0; x->has_hd && k < XD_N; k++)
			if (!same_deps(&x->hd[k], &y->hd[k]))
				return false;
		for (int k = 0; k < x->n_ev; k++)
			if (!same_fev(&x->ev[k], &y->ev[k]))
				return false;
	}
	return true;
}

const execution *rsmc_build_cached(const litmus_test *t, const rstate *s, rsmc_xcache *c)
{
	size_t total = 1;
	for (int i = 0; i < s->n_threads; i++)
		total += (size_t)s->th[i].n_ev;
	GROW(c->map, c->cap_map, total);
	GROW(c->rows, c->cap_rows, (size_t)s->n_threads + 1);
	size_t at = 0;
	for (int i = 0; i < s->n_threads; i++) {
		c->rows[i] = c->map + at;
		at += (size_t)s->th[i].n_ev;
	}
	int n = number_events(t, s, c->rows);
	if (n >= c->n) {
		int nn = n + 8;
		c->x = xrealloc(c->x, (size_t)nn * sizeof *c->x);
		c->have = xrealloc(c->have, (size_t)nn * sizeof *c->have);
		c->from = xrealloc(c->from, (size_t)nn * sizeof *c->from);
		for (int i = c->n; i < nn; i++) {
			c->have[i] = false;
			memset(&c->from[i], 0, sizeof c->from[i]);
		}
		c->n = nn;
	}
	execution *x = &c->x[n];
	if (c->have[n] && same_but_co(&c->from[n], s)) {
		/* e.g. the runs that differ in the place of their last store */
		memset(x->co.w, 0, (size_t)x->co.n * (size_t)x->co.words * sizeof *x->co.w);
		fill_co(t, s, x, c->rows);
		return x;
	}
	if (!c->have[n]) {
		execution_init(x, t, n);
		c->have[n] = true;
	} else {
		brel *r[] = { &x->po, &x->rf, &x->co, &x->addr, &x->data, &x->ctrl, &x->rmw };
		for (int i = 0; i < 7; i++)
			memset(r[i]->w, 0, (size_t)r[i]->n * (size_t)r[i]->words * sizeof *r[i]->w);
		for (int k = 0; x->has_herd_deps && k < XD_N; k++)
			memset(x->hd[k].w, 0, (size_t)x->hd[k].n * (size_t)x->hd[k].words * sizeof *x->hd[k].w);
	}
	x->test = t;
	fill_execution(t, s, x, c->rows);
	rsmc_state_copy(&c->from[n], s);
	return x;
}

void rsmc_xcache_free(rsmc_xcache *c)
{
	for (int i = 0; i < c->n; i++) {
		if (c->have[i])
			execution_free(&c->x[i]);
		rsmc_state_free(&c->from[i]);
	}
	free(c->from);
	free(c->x);
	free(c->have);
	free(c->map);
	free(c->rows);
	memset(c, 0, sizeof *c);
}
