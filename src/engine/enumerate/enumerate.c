/* enumerate.c — the reference engine: every candidate execution, judged one
 * by one by the model.
 *
 * For each choice of one path per thread (paths.h), the events are fixed;
 * what remains is, for each load, the write it reads from (same location,
 * same value), and for each location, the coherence order of its writes.
 * All combinations are built as `struct execution`s and checked: this
 * engine is the yardstick for the fast ones.  Only what counts for nothing
 * is left out: a thread's paths the test's filter rejects whatever the
 * other threads do, the co orders a model that chooses co cannot choose. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../engine.h"
#include "../../cat/analysis/cat_analysis.h" /* the co orders a model chooses */
#include "../paths.h"
#include "../result.h"
#include "../value_eqs.h"

typedef struct enum_ctx {
	const litmus_test *t;
	cat_model *m;
	diag *d;
	test_result *r;
	state_table states;
	path_set *paths;
	value_set *vals;            /* values each location may hold         */
	veq_numbers herd_vars;      /* herd's variable numbers (S<n>)         */
	veq_frame veq;              /* herd's value equations, this combination */
	bool veq_open;              /* some reads-from of this combination may
	                             * leave a value open (veq_may_leave_open):
	                             * only then are they judged             */
	/* the current combination */
	const thread_path **pick;   /* chosen path per thread               */
	int *base;                  /* index of a thread's first event       */
	bool toofar;                /* one chosen path was cut               */
	execution x;
	int n_loads;
	int *load_ev;               /* event index of each load              */
	int **load_cands;           /* writes each load may read from        */
	int *load_n_cands;
	int **loc_writes;           /* per location: its writes, init first  */
	int *loc_n_writes;
	int *co_last;               /* per location: co-last write           */
	int *co_scratch;            /* one location's writes, in co order    */
	const int *want_last;       /* enum_co: only the orders whose last
	                             * writes are these (NULL: every one)     */
	value *mem_final;           /* per location: final value             */
	value *state_vals;          /* scratch: displayed values             */
	/* stopping */
	long combinations;          /* path combinations tried               */
	double timeout;
	struct timespec start;
	bool stop;                  /* timeout, model failure, or speedcheck */
	bool speedcheck;            /* stop once the verdict is decided      */
	long budget;                /* engine_opts.budget                    */
	bool failed;                /* the model could not evaluate          */
	void (*on_candidate)(void *ctx, const engine_candidate *cand);
	void *candidate_ctx;
} enum_ctx;

static double elapsed(const struct timespec *start)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - start->tv_sec) + (double)(now.tv_nsec - start->tv_nsec) * 1e-9;
}

/* ---- reading a final state --------------------------------------------------- */

static value final_value(void *vctx, lval lv)
{
	const enum_ctx *c = vctx;
	if (lval_is_fault(lv) && lv.thread < c->t->n_threads) {
		/* vmsa: a fault is its thread's last event */
		const thread_path *p = c->pick[lv.thread];
		const path_event *e = p->n_ev > 0 ? &p->ev[p->n_ev - 1] : NULL;
		if (!e || e->kind != EV_FAULT)
			return value_no_fault();
		value f = value_fault(e->instr, e->loc, (int)e->val.num);
		return vmsa_cond_shows_fault(c->t->cond, lv.thread, f) ? f : value_no_fault();
	}
	if (lv.thread >= 0) {
		if (lv.thread < c->t->n_threads && lv.reg >= 0 && lv.reg < c->t->threads[lv.thread].n_regs) {
			const thread_path *p = c->pick[lv.thread];
			int load = p->reg_copy[lv.reg];
			return veq_shown(&c->veq, load >= 0 ? c->base[lv.thread] + load : -1, p->regs[lv.reg]);
		}
		return value_int(0);
	}
	if (lv.loc >= 0 && lv.loc < c->t->n_locs)
		return c->mem_final[lv.loc];
	return value_int(0);
}

/* ---- judging one complete candidate ------------------------------------------ */

static void judge(enum_ctx *c)
{
	test_result *r = c->r;
	const litmus_test *t = c->t;
	if (t->mixed_granule && !execution_mixed_co_ok(&c->x))
		return;   /* no candidate of herd's */
	result_count_candidate(r);
	if (c->budget > 0 && r->stats.candidates > c->budget) {
		r->over_budget = true;
		c->stop = true;
		return;
	}
	if ((r->stats.candidates & 255) == 0 && c->timeout > 0 && elapsed(&c->start) > c->timeout) {
		r->timed_out = true;
		c->stop = true;
		return;
	}
	for (int l = 0; l < t->n_locs; l++)
		c->mem_final[l] = veq_shown(&c->veq, c->veq.copy_of ? c->veq.copy_of[c->co_last[l]] : -1,
					    c->x.ev[c->co_last[l]].val);
	if (t->mixed_granule)
		mixed_finals(t, c->mem_final);
	if (t->filter && !cond_eval_final(t->filter, t, final_value, c)) {
		r->stats.filtered++;
		return;
	}
	cat_verdict v = { 0 };
	if (c->m) {
		if (!cat_model_check(c->m, &c->x, &v, c->d)) {
			c->failed = true;
			c->stop = true;
			return;
		}
	} else {
		v.allowed = true;
	}
	if (c->on_candidate && !c->toofar) {
		engine_candidate cand = { &c->x, &v, t->cond ? cond_eval_final(t->cond, t, final_value, c) : true,
					  c->state_vals, r->n_lvals };
		for (int i = 0; i < r->n_lvals; i++)
			c->state_vals[i] = final_value(c, r->lvals[i]);
		c->on_candidate(c->candidate_ctx, &cand);
	}
	result_count_execution(r, &c->states, t, &v, c->toofar, final_value, c, c->state_vals);
	if (c->speedcheck && (t->quant == Q_FORALL ? r->neg > 0 : r->pos > 0))
		c->stop = true;
}

/* ---- coherence orders: every permutation of each location's writes ------------- */

static void set_co(enum_ctx *c, int loc, const int *order, int k)
{
	/* order[0] is the initial write; the relation is the strict total
	 * order it lists (transitive). */
	for (int i = 0; i < k; i++) {
		uint64_t *row = brel_row(&c->x.co, order[i]);
		memset(row, 0, (size_t)c->x.co.words * sizeof *row);
	}
	for (int i = 0; i < k; i++)
		for (int j = i + 1; j < k; j++)
			brel_add(&c->x.co, order[i], order[j]);
	c->co_last[loc] = order[k - 1];
}

/* Next permutation of a[1..k-1] in lexicographic order; false after the
 * last one. */
static bool next_perm(int *a, int k)
{
	int i = k - 2;
	while (i >= 1 && a[i] >= a[i + 1])
		i--;
	if (i < 1)
		return false;
	int j = k - 1;
	while (a[j] <= a[i])
		j--;
	int tmp = a[i];
	a[i] = a[j];
	a[j] = tmp;
	for (int lo = i + 1, hi = k - 1; lo < hi; lo++, hi--) {
		tmp = a[lo];
		a[lo] = a[hi];
		a[hi] = tmp;
	}
	return true;
}

static void enum_co(enum_ctx *c, int loc)
{
	if (c->stop)
		return;
	if (loc == c->t->n_locs) {
		bool wanted = true;
		for (int l = 0; c->want_last && l < c->t->n_locs && wanted; l++)
			wanted = c->co_last[l] == c->want_last[l];
		if (wanted)
			judge(c);
		return;
	}
	int k = c->loc_n_writes[loc];
	int *order = xmalloc((size_t)k * sizeof *order);
	memcpy(order, c->loc_writes[loc], (size_t)k * sizeof *order);
	/* event indices increase along loc_writes, so this is the first
	 * permutation */
	do {
		set_co(c, loc, order, k);
		enum_co(c, loc + 1);
	} while (!c->stop && next_perm(order, k));
	free(order);
}

/* ---- coherence orders a model that chooses co can choose ----------------------- */

/* Make o (a relation over the events) the execution's co, if it is one the
 * engine builds: each location's writes totally ordered, its initial write
 * first, nothing else.  False, x.co then unspecified, if it is not. */
static bool set_co_from(enum_ctx *c, const brel *o)
{
	long pairs = 0, want = 0;
	for (size_t i = 0; i < (size_t)o->n * o->words; i++)
		pairs += bits_popcount(o->w[i]);
	for (int l = 0; l < c->t->n_locs; l++) {
		int k = c->loc_n_writes[l];
		const int *ws = c->loc_writes[l];
		want += (long)k * (k - 1) / 2;
		int *order = c->co_scratch;
		for (int i = 0; i < k; i++)
			order[i] = -1;
		for (int i = 0; i < k; i++) {
			/* its successors among its location's writes place it */
			int succ = 0;
			for (int j = 0; j < k; j++)
				succ += brel_has(o, ws[i], ws[j]);
			int pos = k - 1 - succ;
			if (pos < 0 || order[pos] >= 0 || (i == 0 && pos != 0))
				return false;
			order[pos] = ws[i];
		}
		set_co(c, l, order, k);
		for (int i = 0; i < k; i++)
			if (memcmp(brel_row(&c->x.co, ws[i]), brel_row(o, ws[i]), c->x.co.words * sizeof(uint64_t)))
				return false;
	}
	return pairs == want;
}

/* A co whose last write at each location is last[loc]: the others in
 * event order before it. */
static void set_co_ending(enum_ctx *c, const int *last)
{
	for (int l = 0; l < c->t->n_locs; l++) {
		int k = c->loc_n_writes[l], n = 0;
		int *order = c->co_scratch;
		for (int i = 0; i < k; i++)
			if (c->loc_writes[l][i] != last[l])
				order[n++] = c->loc_writes[l][i];
		order[n++] = last[l];
		set_co(c, l, order, n);
	}
}

/* Judge the orders of os (those whose last writes are `last`, when the
 * model read them). */
static void judge_orders(enum_ctx *c, const cat_co_orders *os, const int *last)
{
	for (int i = 0; i < os->n && !c->stop; i++) {
		if (!set_co_from(c, &os->v[i]))
			continue;
		bool same_last = true;
		for (int l = 0; l < c->t->n_locs && same_last; l++)
			same_last = !os->per_final_writes || c->co_last[l] == last[l];
		if (same_last)
			judge(c);
	}
}

/* Every co: under a model that chooses co itself from a set that reads
 * neither co nor fr (cat_model_co_orders), only the orders it can choose,
 * for each choice of the last writes if the set reads them, since any
 * other counts for nothing; else every permutation.  Not when every
 * candidate is shown (-show, -explain), forbidden ones too. */
static void try_cos(enum_ctx *c)
{
	if (!c->m || c->on_candidate || !cat_model_chooses_co_orders(c->m)) {
		enum_co(c, 0);
		return;
	}
	int nl = c->t->n_locs;
	int *pick = xcalloc((size_t)nl + 1, sizeof *pick), *last = xcalloc((size_t)nl + 1, sizeof *last);
	/* the last write of a location: any but its initial write, unless it
	 * has no other; as an odometer over the locations */
	for (int l = 0; l < nl; l++)
		pick[l] = c->loc_n_writes[l] > 1 ? 1 : 0;
	for (bool first = true;; first = false) {
		for (int l = 0; l < nl; l++)
			last[l] = c->loc_writes[l][pick[l]];
		set_co_ending(c, last);
		cat_co_orders os;
		if (!cat_model_co_orders(c->m, &c->x, &os)) {
			/* every order (with these last writes, after the first) */
			c->want_last = first ? NULL : last;
			enum_co(c, 0);
			c->want_last = NULL;
			if (first)
				break;
		} else {
			judge_orders(c, &os, last);
			bool per_last = os.per_final_writes;
			cat_co_orders_free(&os);
			if (!per_last)
				break;
		}
		int l = nl - 1;
		for (; l >= 0; l--) {
			if (++pick[l] < c->loc_n_writes[l])
				break;
			pick[l] = c->loc_n_writes[l] > 1 ? 1 : 0;
		}
		if (l < 0 || c->stop)
			break;
	}
	free(pick);
	free(last);
}

/* ---- reads-from: every matching write for each load ----------------------------- */

/* The least value location loc may hold (value_eqs.h: the one copy of a
 * self-justified cycle that is kept). */
static value least_value(void *vctx, int loc)
{
	const enum_ctx *c = vctx;
	const value_set *vs = &c->vals[loc];
	value m = vs->n ? vs->v[0] : value_int(0);
	for (int i = 1; i < vs->n; i++) {
		value v = vs->v[i];
		if (v.loc < m.loc || (v.loc == m.loc && v.num < m.num))
			m = v;
	}
	return m;
}

/* Whether herd has the candidate of the current reads-from: its value
 * equations may leave it unsolved, or give it a symbolic value that
 * another copy of it carries (value_eqs.h). */
static bool herd_solves(enum_ctx *c, const int *choice)
{
	if (!c->veq_open)
		return true;
	for (int i = 0; i < c->n_loads; i++)
		c->veq.src[c->load_ev[i]] = c->load_cands[i][choice[i]];
	return veq_judge(&c->veq, &c->x, least_value, c) == VEQ_KEEP;
}

/* Under -variant mixed: every choice of writes for the loads that herd
 * makes (execution_mixed_rf_ok), in the order of enum_rf's odometer, but
 * depth first, a choice for load i that disagrees with those of loads
 * before it cutting every choice after it: the granules of one read of 8
 * bytes would otherwise be tried with every write each. */
static void enum_rf_mixed(enum_ctx *c)
{
	int n = c->n_loads;
	if (n == 0) {
		if (herd_solves(c, NULL))
			try_cos(c);
		return;
	}
	int *choice = xmalloc((size_t)n * sizeof *choice);
	choice[0] = -1;
	int i = 0;
	while (i >= 0 && !c->stop) {
		if (choice[i] >= 0)
			brel_del(&c->x.rf, c->load_cands[i][choice[i]], c->load_ev[i]);
		if (++choice[i] >= c->load_n_cands[i]) {
			i--;
			continue;
		}
		int w = c->load_cands[i][choice[i]];
		brel_add(&c->x.rf, w, c->load_ev[i]);
		bool ok = true;
		for (int j = 0; j < i && ok; j++)
			ok = execution_mixed_rf_pair_ok(&c->x, c->load_ev[j], c->load_cands[j][choice[j]], c->load_ev[i], w);
		if (!ok)
			continue;
		if (i + 1 < n) {
			choice[++i] = -1;
		} else if (herd_solves(c, choice)) {
			try_cos(c);
		}
	}
	for (; i >= 0; i--)
		if (choice[i] >= 0 && choice[i] < c->load_n_cands[i])
			brel_del(&c->x.rf, c->load_cands[i][choice[i]], c->load_ev[i]);
	free(choice);
}

/* Every choice, for each load, of a write it may read from, as an odometer
 * (the last load's choice turns fastest, as a recursion over the loads
 * would): no C stack frame per load, however many loads a path has. */
static void enum_rf(enum_ctx *c)
{
	int n = c->n_loads;
	for (int i = 0; i < n; i++)
		if (c->load_n_cands[i] == 0)
			return;
	if (c->t->mixed_granule) {
		enum_rf_mixed(c);
		return;
	}
	int *choice = xcalloc((size_t)n + 1, sizeof *choice);
	for (int i = 0; i < n; i++)
		brel_add(&c->x.rf, c->load_cands[i][0], c->load_ev[i]);
	for (;;) {
		if (herd_solves(c, choice))
			try_cos(c);
		if (c->stop)
			break;
		int i = n - 1;
		for (; i >= 0; i--) {
			brel_del(&c->x.rf, c->load_cands[i][choice[i]], c->load_ev[i]);
			choice[i] = choice[i] + 1 < c->load_n_cands[i] ? choice[i] + 1 : 0;
			brel_add(&c->x.rf, c->load_cands[i][choice[i]], c->load_ev[i]);
			if (choice[i] != 0)
				break;
		}
		if (i < 0)
			break;
	}
	for (int i = 0; i < n; i++)
		brel_del(&c->x.rf, c->load_cands[i][choice[i]], c->load_ev[i]);
	free(choice);
}

/* ---- one combination of paths ------------------------------------------------ */

static void free_combination(enum_ctx *c)
{
	for (int i = 0; i < c->n_loads; i++)
		free(c->load_cands[i]);
	free(c->load_cands);
	free(c->load_n_cands);
	free(c->load_ev);
	c->load_cands = NULL;
	c->load_n_cands = NULL;
	c->load_ev = NULL;
	c->n_loads = 0;
	for (int l = 0; l < c->t->n_locs; l++)
		free(c->loc_writes[l]);
	veq_frame_free(&c->veq);
	free(c->co_scratch);
	c->co_scratch = NULL;
	execution_free(&c->x);
}

static void run_combination(enum_ctx *c)
{
	const litmus_test *t = c->t;
	c->toofar = false;
	for (int i = 0; i < t->n_threads; i++)
		c->toofar |= c->pick[i]->toofar;
	paths_execution(t, c->pick, c->base, &c->x);
	execution *x = &c->x;
	int n = x->n;
	c->co_scratch = xmalloc(((size_t)n + 1) * sizeof *c->co_scratch);
	/* writes per location, initial write first */
	for (int l = 0; l < t->n_locs; l++) {
		c->loc_writes[l] = xmalloc((size_t)n * sizeof **c->loc_writes);
		c->loc_n_writes[l] = 0;
		c->loc_writes[l][c->loc_n_writes[l]++] = l;
	}
	int n_loads = 0;
	for (int e = t->n_locs; e < n; e++) {
		if (x->ev[e].kind == EV_WRITE)
			c->loc_writes[x->ev[e].loc][c->loc_n_writes[x->ev[e].loc]++] = e;
		else if (x->ev[e].kind == EV_READ)
			n_loads++;
	}
	c->load_ev = xmalloc(((size_t)n_loads + 1) * sizeof *c->load_ev);
	c->load_cands = xcalloc((size_t)n_loads + 1, sizeof *c->load_cands);
	c->load_n_cands = xcalloc((size_t)n_loads + 1, sizeof *c->load_n_cands);
	c->n_loads = n_loads;
	bool feasible = true;
	int li = 0;
	for (int e = t->n_locs; e < n; e++) {
		if (x->ev[e].kind != EV_READ)
			continue;
		int loc = x->ev[e].loc;
		c->load_ev[li] = e;
		c->load_cands[li] = xmalloc(((size_t)c->loc_n_writes[loc] + 1) * sizeof **c->load_cands);
		for (int k = 0; k < c->loc_n_writes[loc]; k++) {
			int w = c->loc_writes[loc][k];
			/* As herd, a load never reads from a write of its own
			 * thread that comes after it (a later instruction, or the
			 * write of its own xchg). */
			if (x->ev[w].thread == x->ev[e].thread && w > e)
				continue;
			/* herd gives a vmsa variable that only PA(...) names no
			 * initial write to read */
			if (w == loc && t->locs[loc].no_init)
				continue;
			if (value_eq(x->ev[w].val, x->ev[e].val))
				c->load_cands[li][c->load_n_cands[li]++] = w;
		}
		if (c->load_n_cands[li] == 0)
			feasible = false;
		li++;
	}
	/* herd's value equations matter only where a value may go round a
	 * cycle: their frame is built only where a write carries a load's
	 * value, and judged only where a cycle is possible */
	c->veq_open = false;
	if (feasible && veq_paths_carry_loads(t, c->pick)) {
		veq_frame_build(&c->veq, t, c->pick, c->base, x, &c->herd_vars);
		c->veq_open = veq_may_leave_open(&c->veq, x, n_loads, c->load_ev, c->load_cands, c->load_n_cands);
	}
	if (feasible)
		enum_rf(c);
	free_combination(c);
}

/* ---- the filter on one thread's paths ------------------------------------------- */

typedef struct path_filter {
	const litmus_test *t;
	int thread;
	const thread_path *p;
	bool copies;        /* some thread stores a load's value unchanged */
} path_filter;

/* Only this thread's registers are known.  One holding a load's value
 * unchanged may be shown symbolic (veq_shown), but only when the load can
 * read around a cycle of plain copies, which takes a write that stores a
 * load's value unchanged. */
static partial_value path_reg(void *vctx, lval lv)
{
	const path_filter *f = vctx;
	partial_value pv = { 0 };
	if (lv.thread == f->thread && lv.reg >= 0 && lv.reg < f->t->threads[lv.thread].n_regs) {
		pv.known = true;
		pv.v = f->p->regs[lv.reg];
		pv.maybe_symbolic = f->copies && f->p->reg_copy[lv.reg] >= 0;
	}
	return pv;
}

/* judge() drops a candidate the filter rejects before anything about it
 * counts (statistics aside), so a path that makes the filter false
 * whatever the other threads and memory hold needs no combination. */
static bool filter_may_keep(void *vctx, const thread_path *p)
{
	path_filter *f = vctx;
	f->p = p;
	return cond_eval_partial(f->t->filter, f->t, path_reg, f) != TRI_FALSE;
}

static void drop_filtered_paths(const litmus_test *t, path_set *paths)
{
	if (!t->filter)
		return;
	bool copies = false;
	for (int i = 0; i < t->n_threads; i++)
		for (int k = 0; k < paths[i].n && !copies; k++)
			copies = veq_path_copies_load(&paths[i].p[k]);
	for (int i = 0; i < t->n_threads; i++) {
		path_filter f = { t, i, NULL, copies };
		paths_keep(&paths[i], filter_may_keep, &f);
	}
}

/* Every choice of one path per thread. */
static void enum_paths(enum_ctx *c, int i)
{
	if (c->stop)
		return;
	if (i == c->t->n_threads) {
		/* most combinations may have no feasible reads-from at all: look
		 * at the clock here too */
		if ((++c->combinations & 63) == 0 && c->timeout > 0 && elapsed(&c->start) > c->timeout) {
			c->r->timed_out = true;
			c->stop = true;
			return;
		}
		run_combination(c);
		return;
	}
	const path_set *ps = &c->paths[i];
	for (int k = 0; k < ps->n && !c->stop; k++) {
		c->pick[i] = &ps->p[k];
		enum_paths(c, i + 1);
	}
}

static bool enumerate_run(const litmus_test *t, cat_model *m, const engine_opts *o, test_result *r, diag *d)
{
	enum_ctx c = { 0 };
	c.t = t;
	c.m = m;
	c.d = d;
	c.r = r;
	c.timeout = o->timeout;
	c.speedcheck = o->speedcheck;
	c.budget = o->budget;
	c.on_candidate = o->on_candidate;
	c.candidate_ctx = o->candidate_ctx;
	clock_gettime(CLOCK_MONOTONIC, &c.start);
	int unroll = o->unroll >= 0 ? o->unroll : ENGINE_UNROLL_DEFAULT;
	double deadline = o->timeout > 0 ? paths_clock() + o->timeout : 0;
	bool paths_timed_out = false;
	paths_build(t, unroll, deadline, true, &c.paths, &r->stats.value_rounds, &paths_timed_out, &c.vals, d);
	if (paths_timed_out) {
		r->timed_out = true;
		c.stop = true;
	}
	for (int i = 0; i < t->n_threads; i++)
		r->stats.paths += c.paths[i].n;
	drop_filtered_paths(t, c.paths);
	veq_numbers_build(t, c.paths, unroll, &c.herd_vars);
	size_t nt = (size_t)t->n_threads + 1, nl = (size_t)t->n_locs + 1;
	c.pick = xcalloc(nt, sizeof *c.pick);
	c.base = xcalloc(nt, sizeof *c.base);
	c.loc_writes = xcalloc(nl, sizeof *c.loc_writes);
	c.loc_n_writes = xcalloc(nl, sizeof *c.loc_n_writes);
	c.co_last = xcalloc(nl, sizeof *c.co_last);
	c.mem_final = xcalloc(nl, sizeof *c.mem_final);
	c.state_vals = result_state_scratch(r);
	enum_paths(&c, 0);
	r->addr_dropped = paths_addr_dropped(t, c.paths);
	result_sort_flags(r);
	state_table_free(&c.states);
	paths_free(t, c.paths);
	value_sets_free(t, c.vals);
	veq_numbers_free(&c.herd_vars);
	free(c.pick);
	free(c.base);
	free(c.loc_writes);
	free(c.loc_n_writes);
	free(c.co_last);
	free(c.mem_final);
	free(c.state_vals);
	if (c.failed) {
		srcloc at = { t->file, 0, 0 };
		diag_error(d, at, "the model could not evaluate an execution of test %s", t->name ? t->name : "?");
		return false;
	}
	return true;
}

const engine_desc enumerate_engine = {
	.name = "enumerate",
	.title = "the enumerator",
	.caps = ENGINE_REFERENCE | ENGINE_EVERY_CANDIDATE | ENGINE_COUNTS | ENGINE_SKIPCHECKS |
		ENGINE_SPEEDCHECK,
	.run = enumerate_run,
};
