/* rsmc.c — the RSMC exploration (paper section 3, Fig. 7; RSMC.md):
 * Explore / DetectRace / Traverse with, per load committed by Explore, the
 * set Q of branches to traverse from where it was committed, and the part of
 * Q already explored.
 *
 * Explore(state): fetch and commit local instructions as far as possible
 * (done by rsmc_thread_eval after each commit); if the run is complete,
 * judge it; else commit the first enabled access (lowest thread, then
 * program order) with each parameter the model's monotone checks allow
 * (asked when the run ends, see "deferred checks" below).
 * For a store, DetectRace then looks for the loads committed by Explore
 * earlier in the run that could read from it (same location, not
 * commit-before the store), and for those a branch ends with, which the
 * Explore that traversed the branch committed (the paper's Fig. 8(b)):
 * the events of the sub-run after the state where Explore met such a load
 * that are commit-before the store (cut), in a canonical order
 * (normalize), then the store with any parameter, then the load reading
 * from it, form a branch added to that load's Q.  When the load's own
 * parameters are done, each branch of its Q not yet explored is traversed
 * from the state where the load was committed; when the load commits in
 * it, Explore goes on.  (Giving no races to the load a branch ends with
 * lost executions: tests/rsmc/SC-race+branch-load, RC11-race+branch-end.)
 *
 * Branch events are named by (thread, fetch index) and carry the op, so a
 * replay that fetched another instruction there blocks instead of
 * committing the wrong event.
 *
 * Two places commit two events as one step, with one model check on the
 * state holding both, where committing the first alone would start runs
 * that can only block (the paper's blocked runs): a race branch's store
 * with any parameter and the load reading it (traverse_race_pair), and the
 * read and write of an atomic read-modify-write (explore_rmw_write).  Over
 * the whole corpus this takes the blocked runs from 30,087 (power) and
 * 24,169 (sc) on PPC to 0, with the same complete runs. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rsmc.h"
#include "../../arch/arch.h"
#include "../result.h"

/* One parameterized commit: in the current run, or in a branch template. */
typedef struct crec {
	eref e;
	int op;
	bool load;
	eref src;            /* load: the write read                      */
	int pos;             /* store: co position, PARAM_FAIL, PARAM_ANY  */
	struct frame *fr;    /* run: a load that gets races: the Q of the
	                      * Explore call that committed it, or whose
	                      * branch ends with it (see detect_race)      */
	int start;           /* run, with fr: where that call's state ends
	                      * the run (the load's own index, or the first
	                      * event of the branch)                       */
} crec;

typedef struct branch {
	int n;
	crec *r;
} branch;

/* Explore's record for one load it committed: Q and explored (Q[0..next)). */
typedef struct frame {
	int n;
	size_t cap;
	branch *q;
	int next;
} frame;

typedef struct rctx {
	const litmus_test *t;
	cat_model *m;
	cat_partial *partial;   /* evaluators of the model's checks */
	rsmc_xcache xc;         /* executions handed to them */
	diag *d;
	test_result *r;
	cb_order cb;            /* the commit-before order (cb.c) */
	bool uniproc;           /* the model checks SC per location */
	bool early;             /* the model judges runs before they are
	                         * complete (judges_partial_runs)          */
	bool blocked;           /* a run blocked: the exploration stopped, its
	                         * answer may miss executions (rsmc_run)      */
	int unroll;
	rsmc_warned warned;
	state_table states;
	value *state_vals;
	value *mem_final;
	const rstate *judged;   /* the state final_value reads */
	/* the current run */
	int n_run;
	size_t cap_run;
	crec *run;
	/* the states from the root to the one being explored (deferred checks) */
	int n_path;
	size_t cap_path;
	const rstate **path;
	int verified;           /* path[0..verified] are known to be allowed   */
	int unwind;             /* >= 0: path[unwind] is forbidden: go back to
	                         * its parent, which goes on with its next
	                         * parameter                                   */
	/* the explicit stack of Explore and Traverse (below) */
	int depth, n_frames;
	size_t cap_frames;
	struct xframe **frames;
	bool ret;               /* the result of the frame popped last */
	/* stopping */
	double deadline;
	long ticks;
	bool stop, failed;
} rctx;


/* ---- small helpers ----------------------------------------------------------- */

static const fev *ev_of(const rstate *s, eref e)
{
	return &s->th[e.t].ev[e.k];
}

static bool dead(const rstate *s)
{
	for (int i = 0; i < s->n_threads; i++)
		if (s->th[i].status == TS_ERROR)
			return true;
	return false;
}

static bool is_access(const fev *f)
{
	return (f->kind == EV_READ || f->kind == EV_WRITE) && !f->failed;
}

static bool complete(const rstate *s)
{
	for (int i = 0; i < s->n_threads; i++) {
		const tstate *ts = &s->th[i];
		if (ts->status != TS_DONE && ts->status != TS_TOOFAR)
			return false;
		for (int k = 0; k < ts->n_ev; k++)
			if (!ts->ev[k].committed)
				return false;
	}
	return true;
}

static void run_push(rctx *c, crec r)
{
	GROW(c->run, c->cap_run, (size_t)c->n_run + 1);
	c->run[c->n_run++] = r;
}

static bool out_of_time(rctx *c)
{
	if (c->stop)
		return true;
	if ((++c->ticks & 15) == 0 && c->deadline > 0 && paths_clock() > c->deadline) {
		c->r->timed_out = true;
		c->stop = true;
	}
	return c->stop;
}

/* ---- deferred checks --------------------------------------------------------------
 *
 * Explore commits loads and stores without asking the model (commit(...,
 * false)): a check of the complete run a state leads to answers for every
 * state on its path, the checks being monotone (the execution of each
 * prefix of a run is a sub-execution of the run's).  In the SB+nW family
 * nearly every state lies on allowed runs, and in the corpus most do.  So
 * the states of the current path are kept, with how far from the root they
 * are known to be allowed; a check passing on a state makes it and all its
 * ancestors known.  Before anything is counted or derived from a state
 * (judging a complete run, a blocked run, DetectRace), the path up to it is
 * made known: the deepest unknown state is checked and, if forbidden, the
 * first forbidden one is found by bisection (being forbidden is inherited
 * downwards); the exploration then goes back to that state's parent, which
 * goes on as if that parameter had been rejected at once.  Every state
 * explored is thus allowed, as before, and the same runs are counted; a
 * forbidden commit costs a descent to its subtree's first leaf and a few
 * checks instead of one check, an allowed one costs no check.  Traverse
 * and the paired commits below still check at once (their blocked runs
 * are counted where they happen). */

static void path_push(rctx *c, const rstate *s, bool checked)
{
	GROW(c->path, c->cap_path, (size_t)c->n_path + 1);
	c->path[c->n_path++] = s;
	if (checked)
		c->verified = c->n_path - 1;
}

/* Pop the deepest state.  True when the caller must stop too: the
 * exploration is going back past it. */
static bool path_pop(rctx *c)
{
	int d = --c->n_path;
	if (c->verified >= d)
		c->verified = d - 1;
	if (c->unwind == d)
		c->unwind = -1;
	return c->unwind >= 0;
}

static bool halted(const rctx *c)
{
	return c->stop || c->unwind >= 0;
}

static bool allowed(rctx *c, const rstate *s);

/* Make path[0..d] known to be allowed; false (and unwinding set) when one
 * of them is forbidden. */
static bool verify(rctx *c, int d)
{
	if (c->verified >= d || !c->m)
		return true;
	int lo = c->verified + 1, hi = d;
	if (allowed(c, c->path[d])) {
		c->verified = d;
		return true;
	}
	if (c->stop)
		return false;
	/* path[hi] is forbidden: find the first forbidden in [lo, hi] */
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;
		if (allowed(c, c->path[mid])) {
			c->verified = mid;
			lo = mid + 1;
		} else {
			hi = mid;
		}
	}
	c->unwind = lo;
	return false;
}

/* Is e (fetched, uncommitted access) enabled: address and data known and
 * every cb-predecessor committed? */
static bool enabled(const rstate *s, const cb_graph *g, eref e)
{
	const fev *f = ev_of(s, e);
	if (!is_access(f) || f->committed || !f->loc_known || (f->kind == EV_WRITE && !f->val_known))
		return false;
	int ie = cb_index(g, e);
	for (int i = 0; i < s->n_threads; i++)
		for (int k = 0; k < s->th[i].n_ev; k++)
			if (brel_has(&g->rel, g->base[i] + k, ie) && !s->th[i].ev[k].committed)
				return false;
	return true;
}

/* ---- judging a complete run ---------------------------------------------------- */

static value final_value(void *vctx, lval lv)
{
	const rctx *c = vctx;
	if (lv.thread >= 0) {
		const tstate *ts = lv.thread < c->judged->n_threads ? &c->judged->th[lv.thread] : NULL;
		if (ts && lv.reg >= 0 && lv.reg < c->t->threads[lv.thread].n_regs)
			return ts->regs[lv.reg];
		return value_int(0);
	}
	if (lv.loc >= 0 && lv.loc < c->t->n_locs)
		return c->mem_final[lv.loc];
	return value_int(0);
}

static void judge(rctx *c, const rstate *s)
{
	test_result *r = c->r;
	const litmus_test *t = c->t;
	c->judged = s;
	for (int l = 0; l < t->n_locs; l++) {
		const costate *co = &s->co[l];
		c->mem_final[l] = co->n ? rsmc_write_value(t, s, co->w[co->n - 1]) : t->locs[l].init;
	}
	/* s is the deepest path state (judge is called by explore); a run
	 * counts (candidates, filtered, ...) only once its path up to s is
	 * known to be allowed, as when every commit was checked at once */
	if (t->filter) {
		if (!verify(c, c->n_path - 2))
			return;
		result_count_candidate(r);
		if (!cond_eval_final(t->filter, t, final_value, c)) {
			r->stats.filtered++;
			return;
		}
	}
	cat_verdict v = { 0 };
	if (c->m) {
		const execution *x = rsmc_build_cached(t, s, &c->xc);
		bool ok = cat_partial_check_all(c->partial, x, &v, c->d);
		if (!ok) {
			c->failed = true;
			c->stop = true;
			return;
		}
	} else {
		v.allowed = true;
	}
	if (v.allowed)
		c->verified = c->n_path - 1;
	else if (!verify(c, c->n_path - 2))
		return;   /* forbidden before its last commit */
	if (!t->filter)
		result_count_candidate(r);
	bool toofar = false;
	for (int i = 0; i < s->n_threads; i++)
		toofar = toofar || s->th[i].status == TS_TOOFAR;
	result_count_execution(r, &c->states, t, &v, toofar, final_value, c, c->state_vals);
}

/* ---- committing --------------------------------------------------------------- */

/* Position of committed write w in the coherence list of its location; -1
 * for the initial write. */
static int co_pos(const rstate *s, eref w)
{
	if (w.t < 0)
		return -1;
	const costate *co = &s->co[s->th[w.t].ev[w.k].loc];
	for (int i = 0; i < co->n; i++)
		if (eref_eq(co->w[i], w))
			return i;
	return -1;
}

/* SC per location on the committed events, decided without the model:
 * would committing e with parameter src (load) or pos (store) close a cycle
 * of po-loc | rf | co | fr through e and one committed access of its own
 * thread?  Every order of cb.c contains po-loc, which is valid only for
 * models that check SC per location (power.cat/ppc.cat: uniproc /
 * scperlocation, tso.cat/x86tso.cat: uniproc, sc.cat: sc); for those the
 * model would reject such a commit anyway, so asking it is wasted work.
 * Only used with c->uniproc (the orders named for those models). */
/* What that needs of e's own thread, the same for every parameter of e in
 * one state (so found once per state and event): each committed access o
 * of e's location and thread, other than e's instruction instance: po
 * before or after e, a store or a load, and the co index of o (a store) or
 * of the write it reads (a load), in the list before e is inserted. */
typedef struct uproc {
	int n;
	struct uacc {
		bool before, write;
		int oi;
	} *o;
} uproc;

static uproc uniproc_prepare(const rstate *s, eref e)
{
	const fev *f = ev_of(s, e);
	const tstate *ts = &s->th[e.t];
	uproc u = { 0, xmalloc(((size_t)ts->n_ev + 1) * sizeof *u.o) };
	for (int k = 0; k < ts->n_ev; k++) {
		const fev *o = &ts->ev[k];
		if (k == e.k || !o->committed || o->failed || o->instance == f->instance || !o->loc_known ||
		    o->loc != f->loc || (o->kind != EV_READ && o->kind != EV_WRITE))
			continue;
		u.o[u.n].before = k < e.k;
		u.o[u.n].write = o->kind == EV_WRITE;
		u.o[u.n].oi = o->kind == EV_WRITE ? co_pos(s, (eref){ e.t, k }) : co_pos(s, o->rf);
		u.n++;
	}
	return u;
}

static bool uniproc_rejects(const rstate *s, const uproc *u, eref e, eref src, int pos)
{
	bool load = ev_of(s, e)->kind == EV_READ;
	int wi = load ? co_pos(s, src) : 0;   /* load: co index of its source */
	for (int i = 0; i < u->n; i++) {
		bool before = u->o[i].before;
		int oi = u->o[i].oi;
		if (!load) {
			/* e lands at pos: old indices >= pos are co-after e */
			if (before ? oi >= pos : oi < pos)
				return true;
		} else if (u->o[i].write) {
			/* o po-before e: e must not read a write co-before o;
			 * o po-after e: e must read a write co-before o */
			if (before ? wi < oi : oi <= wi)
				return true;
		} else {
			/* two loads in po read co-ordered writes in that order */
			if (before ? wi < oi : oi < wi)
				return true;
		}
	}
	return false;
}

/* Commit access e of s with parameter src (load) or pos (store) into
 * *out (zero-initialised, or a state whose buffers rsmc_state_copy reuses;
 * the caller frees it).  Returns false when the parameter is not possible
 * or, with `check`, the model's monotone checks reject the result. */
static bool commit(rctx *c, const rstate *s, const uproc *u, eref e, eref src, int pos, rstate *out,
		   bool check)
{
	const fev *f = ev_of(s, e);
	if (f->kind == EV_READ) {
		/* the write must be committed, of this location, and not a
		 * po-later write of the same thread */
		if (src.t >= 0) {
			if (src.t >= s->n_threads || src.k >= s->th[src.t].n_ev)
				return false;
			const fev *w = ev_of(s, src);
			if (w->kind != EV_WRITE || !w->committed || w->failed || w->loc != f->loc)
				return false;
			if (src.t == e.t && src.k > e.k)
				return false;
		} else if (src.k != f->loc) {
			return false;
		}
	} else if (pos != PARAM_FAIL && (pos < 0 || pos > s->co[f->loc].n)) {
		return false;
	} else if (pos == PARAM_FAIL && !f->stcond) {
		return false;
	}

	if (c->uniproc && !(f->kind == EV_WRITE && pos == PARAM_FAIL)) {
		uproc own = { 0, NULL };
		if (!u)
			own = uniproc_prepare(s, e);
		bool rej = uniproc_rejects(s, u ? u : &own, e, src, pos);
		free(own.o);
		if (rej) {
			c->r->stats.commits++;
			return false;
		}
	}
	rsmc_state_copy(out, s);
	fev *g = &out->th[e.t].ev[e.k];
	g->committed = true;
	bool reeval = false;
	if (g->kind == EV_READ) {
		g->rf = src;
		g->val = rsmc_write_value(c->t, out, src);
		g->val_known = true;
		reeval = true;
	} else if (pos == PARAM_FAIL) {
		g->failed = true;
		reeval = true;
	} else {
		costate *co = &out->co[g->loc];
		GROW(co->w, co->cap, (size_t)co->n + 1);
		memmove(co->w + pos + 1, co->w + pos, (size_t)(co->n - pos) * sizeof *co->w);
		co->w[pos] = e;
		co->n++;
		reeval = g->stcond;
	}
	if (reeval) {
		rsmc_thread_eval(c->t, out, e.t, c->unroll, c->deadline, &c->warned, c->d);
		if (out->th[e.t].status == TS_TIMEOUT) {
			c->r->timed_out = true;
			c->stop = true;
			return false;
		}
	}
	c->r->stats.commits++;
	if (dead(out))
		return false;
	if (!check || complete(out))
		return true;   /* a complete run is judged by every check */
	return allowed(c, out);
}

/* The parameters of access e, in a fixed order: a load's possible writes
 * (initial write, then coherence order), a store's co positions (a
 * store-conditional's failure first). */
typedef struct params {
	int n;
	eref *src;
	int *pos;
} params;

static params params_of(const rstate *s, eref e, bool with_fail)
{
	const fev *f = ev_of(s, e);
	const costate *co = &s->co[f->loc];
	params p = { 0, xmalloc(((size_t)co->n + 2) * sizeof(eref)), xmalloc(((size_t)co->n + 2) * sizeof(int)) };
	if (f->kind == EV_READ) {
		p.src[p.n] = (eref){ -1, f->loc };
		p.pos[p.n++] = 0;
		for (int i = 0; i < co->n; i++) {
			if (co->w[i].t == e.t && co->w[i].k > e.k)
				continue;
			p.src[p.n] = co->w[i];
			p.pos[p.n++] = 0;
		}
	} else {
		if (f->stcond && with_fail) {
			p.src[p.n] = (eref){ -1, -1 };
			p.pos[p.n++] = PARAM_FAIL;
		}
		for (int i = 0; i <= co->n; i++) {
			p.src[p.n] = (eref){ -1, -1 };
			p.pos[p.n++] = i;
		}
	}
	return p;
}

static void params_free(params *p)
{
	free(p->src);
	free(p->pos);
}

/* ---- DetectRace: cut and normalize ---------------------------------------------- */

static bool crec_eq(const crec *a, const crec *b)
{
	return eref_eq(a->e, b->e) && a->op == b->op && a->load == b->load &&
	       (a->load ? eref_eq(a->src, b->src) : a->pos == b->pos);
}

static bool branch_eq(const branch *a, const branch *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (!crec_eq(&a->r[i], &b->r[i]))
			return false;
	return true;
}

/* Add b to fr's Q unless it is there already (fr takes b.r). */
static void frame_add(frame *fr, branch b)
{
	for (int i = 0; i < fr->n; i++)
		if (branch_eq(&fr->q[i], &b)) {
			free(b.r);
			return;
		}
	GROW(fr->q, fr->cap, (size_t)fr->n + 1);
	fr->q[fr->n++] = b;
}

static void frame_free(frame *fr)
{
	for (int i = 0; i < fr->n; i++)
		free(fr->q[i].r);
	free(fr->q);
}

/* Position of committed write w in the coherence list of its location. */
static int co_index(const costate *co, eref w)
{
	for (int i = 0; i < co->n; i++)
		if (eref_eq(co->w[i], w))
			return i;
	return -1;
}

/* Build the branch for load run[ri] and store ew (enabled in s): the
 * events of the run from run[ri].start on, but the load, that are
 * cb-before ew, then ew, then the load reading it. */
static branch make_branch(rctx *c, const rstate *s, const cb_graph *g, int ri, eref ew)
{
	int iw = cb_index(g, ew);
	int from = c->run[ri].start;
	int m = c->n_run - from;
	int *pick = xmalloc(((size_t)m + 1) * sizeof *pick);   /* run indices kept */
	int np = 0;
	for (int j = from; j < c->n_run; j++)
		if (j != ri && brel_has(&g->rel, cb_index(g, c->run[j].e), iw))
			pick[np++] = j;
	/* normalize: a cb-respecting order, the least (thread, fetch index)
	 * first among the events whose kept cb-predecessors are placed */
	bool *placed = xcalloc((size_t)np + 1, sizeof *placed);
	branch b = { 0, xmalloc(((size_t)np + 2) * sizeof(crec)) };
	/* writes committed before the branch's start, and template writes
	 * placed so far */
	bool *before = xcalloc((size_t)c->n_run + 1, sizeof *before);
	for (int j = 0; j < from; j++)
		before[j] = !c->run[j].load;
	for (int done = 0; done < np; done++) {
		int best = -1;
		for (int a = 0; a < np; a++) {
			if (placed[a])
				continue;
			eref ea = c->run[pick[a]].e;
			bool ready = true;
			for (int q = 0; q < np && ready; q++)
				if (!placed[q] && q != a &&
				    brel_has(&g->rel, cb_index(g, c->run[pick[q]].e), cb_index(g, ea)))
					ready = false;
			if (!ready)
				continue;
			if (best < 0) {
				best = a;
			} else {
				eref eb = c->run[pick[best]].e;
				if (ea.t < eb.t || (ea.t == eb.t && ea.k < eb.k))
					best = a;
			}
		}
		if (best < 0)
			best = 0;   /* cannot happen: cb is a partial order */
		placed[best] = true;
		crec r = c->run[pick[best]];
		r.fr = NULL;
		if (!r.load && r.pos != PARAM_FAIL) {
			/* its co position among the writes committed before it in
			 * the new order, as ordered in s */
			const fev *f = ev_of(s, r.e);
			const costate *co = &s->co[f->loc];
			int me = co_index(co, r.e), pos = 0;
			for (int j = 0; j < c->n_run; j++) {
				if (!before[j])
					continue;
				const crec *o = &c->run[j];
				if (o->pos == PARAM_FAIL)
					continue;
				int idx = co_index(co, o->e);
				if (idx >= 0 && idx < me)
					pos++;
			}
			r.pos = pos;
		}
		before[pick[best]] = !r.load;
		b.r[b.n++] = r;
	}
	const fev *fw = ev_of(s, ew);
	crec w = { ew, fw->op, false, { -1, -1 }, PARAM_ANY, NULL, 0 };
	b.r[b.n++] = w;
	crec rd = c->run[ri];
	rd.src = ew;
	rd.fr = NULL;
	b.r[b.n++] = rd;
	free(pick);
	free(placed);
	free(before);
	return b;
}

/* Can branch event r commit next in s: the same instruction fetched there,
 * an access of the same kind, and enabled? */
static bool replayable(rctx *c, const rstate *s, const crec *r)
{
	bool ok = r->e.t >= 0 && r->e.t < s->n_threads && r->e.k < s->th[r->e.t].n_ev &&
	          ev_of(s, r->e)->op == r->op && is_access(ev_of(s, r->e)) &&
	          (ev_of(s, r->e)->kind == EV_READ) == r->load;
	if (ok) {
		cb_graph g;
		cb_order_compute(&c->cb, s, &g);
		ok = enabled(s, &g, r->e);
		cb_free(&g);
	}
	return ok;
}

/* Does the model allow state s: its monotone checks, or every check when s
 * is complete (as judge() would decide it)? */
static bool allowed(rctx *c, const rstate *s)
{
	if (!c->m)
		return true;
	if (!c->early && !complete(s))
		return true;
	const execution *x = rsmc_build_cached(c->t, s, &c->xc);
	cat_verdict v = { 0 };
	bool ok = complete(s) ? cat_partial_check_all(c->partial, x, &v, c->d)
	                      : cat_partial_check(c->partial, x, &v, c->d);
	if (!ok) {
		c->failed = true;
		c->stop = true;
	}
	return ok && v.allowed;
}

static void detect_race(rctx *c, const rstate *s, const cb_graph *g, eref ew)
{
	const fev *fw = ev_of(s, ew);
	int iw = cb_index(g, ew);
	for (int i = 0; i < c->n_run; i++) {
		const crec *rr = &c->run[i];
		if (!rr->load || !rr->fr)
			continue;
		eref er = rr->e;
		if (ev_of(s, er)->loc != fw->loc)
			continue;
		if (er.t == ew.t && ew.k > er.k)
			continue;
		if (brel_has(&g->rel, cb_index(g, er), iw))
			continue;
		frame_add(rr->fr, make_branch(c, s, g, i, ew));
	}
}

/* ---- the explicit stack ----------------------------------------------------------
 *
 * Explore, Traverse and their helpers call one another once per commit, so
 * written as C functions their recursion would be as deep as the longest
 * run (a loop unrolled -unroll times makes that as long as a user likes).
 * They are written instead as steps of frames on a stack of their own: a
 * step runs until it finishes (the frame is popped, its result in c->ret)
 * or calls another (the callee is pushed; the caller resumes at f->pc when
 * the callee is done).  Each function below reads as the recursive one it
 * replaces: a call is "push, set pc, return false", and the label the pc
 * names is where the recursive call returned.  The locals that live across
 * a call are fields of the frame.  Frames are kept from one use to the
 * next, and with them the buffers of their states (rsmc_state_copy reuses
 * them). */

enum xkind {
	X_EXPLORE,    /* explore(s, given) */
	X_STORE,      /* explore_store(s, e, params, uproc, check, given) */
	X_RMW,        /* explore_rmw_write(s, e) */
	X_TRAVERSE,   /* traverse(s, b, at) */
	X_PAIR,       /* traverse_race_pair(s, b, at) */
};

typedef struct xframe {
	enum xkind kind;
	int pc;                 /* 0: start; else where to resume */
	bool ret;               /* the result, when the frame is done */
	/* arguments */
	const rstate *s;
	const cb_graph *given;  /* explore: s's order from its parent (or NULL);
	                         * store: the order of s                      */
	eref e;                 /* explore: the access committed; store: the
	                         * store; rmw: the write                      */
	const params *pp;       /* store: e's parameters (the caller's)       */
	const uproc *up;
	bool check;
	const branch *b;        /* traverse, pair: the branch and the index  */
	int at;
	/* locals */
	cb_graph own;           /* explore: s's order when not given; rmw: s's */
	const cb_graph *gp;
	params p;
	uproc u;
	frame fr;               /* explore: the Q of the load it commits     */
	branch copy;            /* explore: the branch being traversed       */
	eref w;                 /* explore: the load's rmw write             */
	const cb_graph *inherit;
	rstate ns, nw;          /* the states committed into (buffers kept)   */
	int i;
	bool any, stop, last;
} xframe;

/* Push a frame of kind k on state s; the caller sets the other arguments. */
static xframe *xpush(rctx *c, enum xkind k, const rstate *s)
{
	if (c->depth == c->n_frames) {
		GROW(c->frames, c->cap_frames, (size_t)c->n_frames + 1);
		c->frames[c->n_frames++] = xcalloc(1, sizeof(xframe));
	}
	xframe *f = c->frames[c->depth++];
	rstate ns = f->ns, nw = f->nw;
	memset(f, 0, sizeof *f);
	f->ns = ns;
	f->nw = nw;
	f->kind = k;
	f->s = s;
	return f;
}

static xframe *push_explore(rctx *c, const rstate *s, const cb_graph *given)
{
	xframe *x = xpush(c, X_EXPLORE, s);
	x->given = given;
	return x;
}

static xframe *push_traverse(rctx *c, const rstate *s, const branch *b, int at)
{
	xframe *x = xpush(c, X_TRAVERSE, s);
	x->b = b;
	x->at = at;
	return x;
}

static void frames_free(rctx *c)
{
	for (int i = 0; i < c->n_frames; i++) {
		rsmc_state_free(&c->frames[i]->ns);
		rsmc_state_free(&c->frames[i]->nw);
		free(c->frames[i]);
	}
	free(c->frames);
}

/* ---- Traverse ----------------------------------------------------------------- */

/* Count a blocked run at the deepest path state, once it is known to be
 * allowed (else it was never a run). */
static void blocked_here(rctx *c)
{
	if (!halted(c) && verify(c, c->n_path - 1)) {
		c->r->stats.blocked++;
		/* Theorem 4 needs every run to complete (deadlock freedom):
		 * the races this run would have met later are never seen, and
		 * the executions they lead to may be lost.  Stop; rsmc_run
		 * leaves the test to the enumerator. */
		c->blocked = true;
		c->stop = true;
	}
}

/* The last two events of a race branch: ew with any parameter, then er
 * reading ew.  The branch exists only so that er reads ew, so the pair is
 * one step here: for each position of ew, both are committed and the
 * model is asked once, on the state with both (which, its checks being
 * monotone, also answers for ew alone).  A position from which er cannot
 * read ew starts no run; Traverse as the paper writes it would commit ew
 * there and block at er[ew].  The branch is a blocked run only when no
 * position lets er read ew (a run the pair completes is judged instead). */
static bool step_pair(rctx *c, xframe *f)
{
	const crec *w = &f->b->r[f->at], *rd = &f->b->r[f->at + 1];
	if (f->pc)
		goto explored;
	f->p = params_of(f->s, w->e, false);
	f->u = uniproc_prepare(f->s, w->e);
	for (f->i = 0; f->i < f->p.n && !f->stop && !halted(c); f->i++) {
		if (!commit(c, f->s, &f->u, w->e, f->p.src[f->i], f->p.pos[f->i], &f->nw, false))
			continue;
		bool ok = replayable(c, &f->nw, rd) && commit(c, &f->nw, NULL, rd->e, rd->src, rd->pos, &f->ns, false);
		/* a pair that completes the run is judged (explore), as
		 * commit leaves a complete run to every check: forbidden,
		 * it is a run that ended, not one that blocked */
		bool done = ok && complete(&f->ns);
		if (!ok || (!done && !allowed(c, &f->ns)))
			continue;
		f->any = true;
		crec rec = *w;
		rec.pos = f->p.pos[f->i];
		run_push(c, rec);
		run_push(c, *rd);
		path_push(c, &f->ns, c->m != NULL && !done);
		push_explore(c, &f->ns, NULL);
		f->pc = 1;
		return false;
explored:
		f->stop = path_pop(c);
		c->n_run -= 2;
	}
	params_free(&f->p);
	free(f->u.o);
	if (!f->any)
		blocked_here(c);
	return true;
}

/* Branch b from index `at` on, from s, the deepest path state. */
static bool step_traverse(rctx *c, xframe *f)
{
	const crec *r = &f->b->r[f->at];
	enum { START, PAIR_DONE, ANY_DONE, ONE_DONE };
	switch (f->pc) {
	case PAIR_DONE: return true;
	case ANY_DONE: goto any_done;
	case ONE_DONE: goto one_done;
	default: break;
	}
	if (out_of_time(c))
		return true;
	if (!replayable(c, f->s, r)) {
		blocked_here(c);
		return true;
	}
	f->last = f->at + 1 == f->b->n;
	if (!r->load && r->pos == PARAM_ANY && c->m && f->at + 2 == f->b->n && f->b->r[f->at + 1].load &&
	    eref_eq(f->b->r[f->at + 1].src, r->e)) {
		xframe *x = xpush(c, X_PAIR, f->s);
		x->b = f->b;
		x->at = f->at;
		f->pc = PAIR_DONE;
		return false;
	}
	if (!r->load && r->pos == PARAM_ANY) {
		f->p = params_of(f->s, r->e, false);
		f->u = uniproc_prepare(f->s, r->e);
		for (f->i = 0; f->i < f->p.n && !f->stop && !halted(c); f->i++) {
			if (!commit(c, f->s, &f->u, r->e, f->p.src[f->i], f->p.pos[f->i], &f->ns, true))
				continue;
			f->any = true;
			crec rec = *r;
			rec.pos = f->p.pos[f->i];
			run_push(c, rec);
			path_push(c, &f->ns, c->m != NULL);
			if (f->last)
				push_explore(c, &f->ns, NULL);
			else
				push_traverse(c, &f->ns, f->b, f->at + 1);
			f->pc = ANY_DONE;
			return false;
any_done:
			f->stop = path_pop(c);
			c->n_run--;
		}
		params_free(&f->p);
		free(f->u.o);
		if (!f->any)
			blocked_here(c);
		return true;
	}
	if (!commit(c, f->s, NULL, r->e, r->src, r->pos, &f->ns, true)) {
		blocked_here(c);
		return true;
	}
	run_push(c, *r);
	path_push(c, &f->ns, c->m != NULL && !complete(&f->ns));
	/* a branch ends with ew[*] and er[ew], which a model's run takes
	 * as one step (step_pair): a last step here is a run without a
	 * model, which nothing forbids */
	if (f->last)
		push_explore(c, &f->ns, NULL);
	else
		push_traverse(c, &f->ns, f->b, f->at + 1);
	f->pc = ONE_DONE;
	return false;
one_done:
	path_pop(c);
	c->n_run--;
	return true;
}

/* Explore from s, the deepest path state, after committing its store e at
 * each of the positions pp (checked by the model at once or not, see the
 * deferred checks above).  `given` is s's commit-before graph.  The result:
 * whether any position was followed. */
static bool step_store(rctx *c, xframe *f)
{
	const fev *ev = ev_of(f->s, f->e);
	if (f->pc)
		goto explored;
	/* a store's commit changes only co (and a store-conditional re-runs
	 * its thread): the orders of cb.c do not read co */
	f->inherit = c->cb.kind != CB_MODEL && !ev->stcond ? f->given : NULL;
	for (f->i = 0; f->i < f->pp->n && !f->stop && !halted(c); f->i++) {
		if (!commit(c, f->s, f->up, f->e, f->pp->src[f->i], f->pp->pos[f->i], &f->ns, f->check))
			continue;
		f->any = true;
		crec rec = { f->e, ev->op, false, { -1, -1 }, f->pp->pos[f->i], NULL, 0 };
		run_push(c, rec);
		path_push(c, &f->ns, f->check && c->m != NULL && !complete(&f->ns));
		push_explore(c, &f->ns, f->inherit);
		f->pc = 1;
		return false;
explored:
		f->stop = path_pop(c);
		c->n_run--;
	}
	f->ret = f->any;
	return true;
}

/* The write of read e's atomic read-modify-write instruction (x86 XCHG, a
 * locked instruction, C's xchg): the next access of e's thread when it is
 * an atomic write of e's location that cannot fail (of e's instance, or
 * of the next one: C's primitives order their read and write by po, as
 * herd does).  {-1, -1} if none. */
static eref rmw_partner(const rstate *s, eref e)
{
	const fev *f = ev_of(s, e);
	const tstate *ts = &s->th[e.t];
	if (!(f->flags & EVF_ATOMIC) || f->stcond)
		return (eref){ -1, -1 };
	for (int k = e.k + 1; k < ts->n_ev; k++) {
		const fev *o = &ts->ev[k];
		if (o->kind == EV_WRITE && (o->flags & EVF_ATOMIC) && !o->stcond && o->loc_known && o->loc == f->loc)
			return (eref){ e.t, k };
		if (o->kind == EV_READ || o->kind == EV_WRITE)
			break;
	}
	return (eref){ -1, -1 };
}

/* Explore from s, where the read of an atomic read-modify-write has just
 * been committed (last in the run) but not checked, by committing its
 * write e next, at each position the model allows for the pair.  The
 * model can only judge the pair once both are there (the write must come
 * right after the write read in coherence), so two such reads of one write
 * are let through one by one and the second write then has no place: the
 * run blocks.  Committing the write at once, when it is enabled, and
 * checking the two together starts no such run.  The result: whether any
 * run went on from s. */
static bool step_rmw(rctx *c, xframe *f)
{
	enum { START, ALONE_DONE, STORE_DONE };
	switch (f->pc) {
	case ALONE_DONE: goto alone_done;
	case STORE_DONE: goto store_done;
	default: break;
	}
	cb_order_compute(&c->cb, f->s, &f->own);
	if (!enabled(f->s, &f->own, f->e)) {
		/* not yet possible: the read alone, as any other (a run
		 * it completes is judged, as in step_pair) */
		bool done = complete(f->s);
		f->any = done || allowed(c, f->s);
		if (f->any) {
			path_push(c, f->s, c->m != NULL && !done);
			push_explore(c, f->s, NULL);
			f->pc = ALONE_DONE;
			return false;
alone_done:
			path_pop(c);
		}
		cb_free(&f->own);
		f->ret = f->any;
		return true;
	}
	f->p = params_of(f->s, f->e, true);
	f->u = uniproc_prepare(f->s, f->e);
	xframe *x = xpush(c, X_STORE, f->s);
	x->e = f->e;
	x->pp = &f->p;
	x->up = &f->u;
	x->check = true;
	x->given = &f->own;
	f->pc = STORE_DONE;
	return false;
store_done:
	f->any = c->ret;
	/* DetectRace needs s allowed: a committed write after it says so */
	if (!halted(c) && (f->any || allowed(c, f->s)))
		detect_race(c, f->s, &f->own, f->e);
	params_free(&f->p);
	free(f->u.o);
	cb_free(&f->own);
	f->ret = f->any;
	return true;
}

/* ---- Explore ------------------------------------------------------------------- */

/* Explore from s, the deepest path state.  `given`, if not NULL, is s's
 * commit-before order, inherited from the parent state. */
static bool step_explore(rctx *c, xframe *f)
{
	enum { START, STORE_DONE, READ_DONE, RMW_DONE, BRANCH_DONE };
	switch (f->pc) {
	case STORE_DONE: goto store_done;
	case READ_DONE: goto read_done;
	case RMW_DONE: goto rmw_done;
	case BRANCH_DONE: goto branch_done;
	default: break;
	}
	if (out_of_time(c))
		return true;
	if (complete(f->s)) {
		judge(c, f->s);
		return true;
	}
	if (!f->given)
		cb_order_compute(&c->cb, f->s, &f->own);
	f->gp = f->given ? f->given : &f->own;
	f->e = (eref){ -1, -1 };
	for (int i = 0; i < f->s->n_threads && f->e.t < 0; i++)
		for (int k = 0; k < f->s->th[i].n_ev; k++)
			if (enabled(f->s, f->gp, (eref){ i, k })) {
				f->e = (eref){ i, k };
				break;
			}
	if (f->e.t < 0) {
		/* nothing can commit: a cb cycle, or a thread waiting forever */
		blocked_here(c);
		goto done;
	}
	f->p = params_of(f->s, f->e, true);
	f->u = uniproc_prepare(f->s, f->e);
	if (ev_of(f->s, f->e)->kind == EV_WRITE) {
		/* the model is asked later (deferred checks, above) */
		xframe *x = xpush(c, X_STORE, f->s);
		x->e = f->e;
		x->pp = &f->p;
		x->up = &f->u;
		x->check = false;
		x->given = f->gp;
		f->pc = STORE_DONE;
		return false;
store_done:
		f->any = c->ret;
		if (!f->any)
			blocked_here(c);
		if (!halted(c) && verify(c, c->n_path - 1))
			detect_race(c, f->s, f->gp, f->e);
	} else {
		f->w = rmw_partner(f->s, f->e);
		for (f->i = 0; f->i < f->p.n && !f->stop && !halted(c); f->i++) {
			/* asked later (deferred checks, above); with its rmw
			 * write, the pair is checked as a whole */
			if (!commit(c, f->s, &f->u, f->e, f->p.src[f->i], 0, &f->ns, false))
				continue;
			crec rec = { f->e, ev_of(f->s, f->e)->op, true, f->p.src[f->i], 0, &f->fr, c->n_run };
			run_push(c, rec);
			if (f->w.t < 0) {
				f->any = true;
				path_push(c, &f->ns, false);
				push_explore(c, &f->ns, NULL);
				f->pc = READ_DONE;
				return false;
read_done:
				f->stop = path_pop(c);
			} else {
				xframe *x = xpush(c, X_RMW, &f->ns);
				x->e = f->w;
				f->pc = RMW_DONE;
				return false;
rmw_done:
				f->any = c->ret || f->any;
			}
			c->n_run--;
		}
		if (!f->any)
			blocked_here(c);
		while (f->fr.next < f->fr.n && !halted(c)) {
			/* copy: traversing may add to fr.q and move it */
			const branch *b = &f->fr.q[f->fr.next++];
			f->copy = (branch){ b->n, xmalloc((size_t)b->n * sizeof(crec)) };
			memcpy(f->copy.r, b->r, (size_t)b->n * sizeof(crec));
			/* the load the branch ends with was committed by this
			 * call: its races, found in the runs that go on from
			 * the branch, are this call's branches, made from the
			 * whole run after this state (the paper's Fig. 8(b))  */
			f->copy.r[b->n - 1].fr = &f->fr;
			f->copy.r[b->n - 1].start = c->n_run;
			push_traverse(c, f->s, &f->copy, 0);
			f->pc = BRANCH_DONE;
			return false;
branch_done:
			free(f->copy.r);
			f->copy.r = NULL;
		}
		frame_free(&f->fr);
	}
	params_free(&f->p);
	free(f->u.o);
done:
	if (!f->given)
		cb_free(&f->own);
	return true;
}

/* Run the frames on the stack until it is empty. */
static void run_frames(rctx *c)
{
	while (c->depth > 0) {
		xframe *f = c->frames[c->depth - 1];
		bool done = false;
		switch (f->kind) {
		case X_EXPLORE: done = step_explore(c, f); break;
		case X_STORE: done = step_store(c, f); break;
		case X_RMW: done = step_rmw(c, f); break;
		case X_TRAVERSE: done = step_traverse(c, f); break;
		case X_PAIR: done = step_pair(c, f); break;
		}
		if (done) {
			c->ret = f->ret;
			c->depth--;
		}
	}
}

/* ---- the engine ------------------------------------------------------------------ */

/* The conditions rsmc's answer rests on (the paper's Theorem 4), and how
 * each is met:
 *   - the model's checks judged early are monotone: cat_mono.c decides
 *     which are; the others are judged on complete executions only;
 *   - the order is valid (acyclic on every allowed execution, with
 *     cb-predecessors that never change while an event is enabled): proved
 *     for the orders of cb.c's proven models; for any other model whose
 *     order is built in, cb_may_cycle shows per test that no execution
 *     has a cycle, else the test goes to the enumerator; an order the model
 *     declares in cat is its author's responsibility;
 *   - deadlock freedom (every run it explores completes, so every race is
 *     seen): checked as it goes, a blocked run stops the exploration and
 *     the test goes to the enumerator (a warning for a declared order).
 * The answer printed is therefore never one that may miss executions. */
/* A store-conditional that may store only under a reservation (RISC-V's
 * sc): rsmc's races assume every store-conditional may succeed, so such a
 * test goes to the enumerator. */
/* An instruction with variants herd explores each (BR_EITHER, AArch64's
 * CAS): rsmc's interpreter follows one path per thread, so such a test
 * goes to the enumerator. */
static bool has_branch(const litmus_test *t, enum branch_cond cond)
{
	for (int i = 0; i < t->n_threads; i++)
		for (int k = 0; k < t->threads[i].n_ops; k++)
			if (t->threads[i].ops[k].kind == OP_BRANCH && t->threads[i].ops[k].cond == cond)
				return true;
	return false;
}

static bool has_reserved_stcond(const litmus_test *t)
{
	for (int i = 0; i < t->n_threads; i++)
		for (int k = 0; k < t->threads[i].n_ops; k++)
			if (t->threads[i].ops[k].kind == OP_STCOND && t->threads[i].ops[k].b.kind != OPND_NONE)
				return true;
	return false;
}

/* A read-modify-write whose read and write are po-ordered instructions
 * (C's primitives, as herd orders them) or that may fail, writing nothing
 * (C's cmpxchg and atomic_add_unless: a branch inside the primitive), or
 * a choice between alternatives (spin_trylock, spin_is_locked).
 * rsmc pairs an atomic read with its write when it commits the read, and
 * misses executions of such pairs (C-SB+l-o-o-u+l-o-o-u-X under sc), so
 * such a test goes to the enumerator. */
static bool has_c_rmw(const litmus_test *t)
{
	if (!t->arch || !t->arch->rmw_primitives)
		return false;   /* AArch64's silent branches (CAS) rsmc does model */
	for (int i = 0; i < t->n_threads; i++) {
		const thread *th = &t->threads[i];
		for (int k = 0; k < th->n_ops; k++) {
			const op *o = &th->ops[k];
			if ((o->kind == OP_BRANCH && (o->flags & ACC_SILENT)) || o->kind == OP_CHOICE)
				return true;
			if (o->kind == OP_STORE && (o->flags & ACC_ATOMIC) && k > 0) {
				/* its read: the thread's previous access */
				int j = k - 1;
				while (j >= 0 && th->ops[j].kind != OP_LOAD && th->ops[j].kind != OP_STORE)
					j--;
				if (j >= 0 && th->ops[j].kind == OP_LOAD && (th->ops[j].flags & ACC_ATOMIC) &&
				    th->ops[j].instr != o->instr)
					return true;
			}
		}
	}
	return false;
}

/* C's lock and srcu events (fences with a location).  Under an order that
 * is not a proven one (the generic order: herd's sc.cat read with the
 * kernel's bell is not recognised as sc.cat), rsmc misses executions of
 * such tests (C-PaulEMcKenney-psc+sr-sr under sc.cat: 18 of herd's 19,
 * the enumerator finds 19), so they go to the enumerator there. */
static bool has_c_located_fence(const litmus_test *t)
{
	if (!t->arch || !t->arch->lock_events)
		return false;
	for (int i = 0; i < t->n_threads; i++)
		for (int k = 0; k < t->threads[i].n_ops; k++)
			if (t->threads[i].ops[k].kind == OP_FENCE && (t->threads[i].ops[k].flags & ACC_LOCATED))
				return true;
	return false;
}

/* Does the model judge runs before they are complete (the early cut), or
 * complete runs only?  Both are the paper's exploration, sound by its
 * Theorem 4 for a valid order that is deadlock free: the early cut is
 * the paper's transition system, where a commit must leave the partial
 * execution allowed; judging complete runs only is the same exploration
 * under the model that allows every partial execution, deadlock free
 * whatever the order, the model's verdict applied to each complete run.
 * (The early cut once lost executions under sc and tso, tests/rsmc/
 * SC-race+branch-load: not the cut's fault but detect_race's, which gave
 * no races to the load a race branch ends with, as the paper does.)
 * Validity is proved for the proven orders (cb_instr_dep aside) and
 * checked per test for the others (cb_may_cycle); a run that blocks stops
 * the exploration and the test goes to the enumerator.  So:
 *   - cbPOWER under a proven POWER model: the early cut, the paper's
 *     (its Theorem 3: deadlock free);
 *   - SC and TSO under a proven model: deadlock free on a test without
 *     atomic read-modify-writes (cb.c: committing in the order, a read of
 *     the co-last write and a write placed last in co close no cycle, as
 *     every relation out of them reaches uncommitted events only), so the
 *     early cut, which spares whole forbidden subtrees (SB+8W under sc:
 *     117 commits, 175,113 judging complete runs only).  With such an
 *     rmw they are not (its atomicity may leave a write no place: under
 *     sc, 38 of 900 random PPC, RISC-V and C tests blocked and went to the
 *     enumerator), so complete runs only, SC per location (uniproc,
 *     deadlock free with po-loc in the order) still cutting at once;
 *   - any other order: the early cut, a blocked run handing the test to
 *     the enumerator, as nothing proves it deadlock free either way and
 *     its models (aarch64.cat, the C models) need the cut's speed.
 * Measured on tests/rsmc_families.py's random tests of every architecture
 * under every model (test_rsmc_families.py): the enumerator's blocks,
 * counts included. */
static bool has_atomic_rmw(const litmus_test *t)
{
	for (int i = 0; i < t->n_threads; i++)
		for (int k = 0; k < t->threads[i].n_ops; k++) {
			const op *o = &t->threads[i].ops[k];
			if (o->kind == OP_STCOND ||
			    ((o->kind == OP_LOAD || o->kind == OP_STORE) && (o->flags & (ACC_ATOMIC | ACC_EXCL))))
				return true;
		}
	return false;
}

static bool judges_partial_runs(const cb_order *o, const litmus_test *t)
{
	if (!o->proven || o->kind == CB_POWER)
		return true;
	return !has_atomic_rmw(t);
}

bool rsmc_run(const litmus_test *t, cat_model *m, const engine_opts *o, test_result *r, diag *d)
{
	rctx c = { 0 };
	c.t = t;
	c.m = m;
	c.partial = m ? cat_partial_new(m) : NULL;
	c.d = d;
	c.r = r;
	cb_order_init(&c.cb, t, m, d);   /* declared, proven, else generic */
	/* the proven orders are those of models that check SC per location */
	c.uniproc = c.cb.proven;
	c.early = judges_partial_runs(&c.cb, t);
	r->order = cb_order_label(&c.cb);
	c.unroll = o->unroll >= 0 ? o->unroll : ENGINE_UNROLL_DEFAULT;
	c.deadline = o->timeout > 0 ? paths_clock() + o->timeout : 0;
	c.state_vals = result_state_scratch(r);
	c.mem_final = xcalloc((size_t)t->n_locs + 1, sizeof *c.mem_final);
	rstate s0;
	rsmc_state_init(&s0, t);
	/* a catdep model reads herd's dependencies, which the threads then
	 * track as the enumerator's do */
	s0.herd_deps = m && cat_model_computes_deps(m) && t->arch && t->arch->herd_deps;
	bool timed_out = false;
	/* vmsa's translations (a PTE read, a commit, the access or a fault
	 * that ends the thread) are the enumerator's only */
	for (int i = 0; i < t->n_threads && !t->vmsa; i++) {
		rsmc_thread_eval(t, &s0, i, c.unroll, c.deadline, &c.warned, d);
		timed_out = timed_out || s0.th[i].status == TS_TIMEOUT;
	}
	r->timed_out = r->timed_out || timed_out;
	c.unwind = -1;
	c.verified = -1;
	enum rsmc_fallback cannot = FALLBACK_NONE;
	if (t->vmsa)
		cannot = FALLBACK_VMSA;
	else if (t->ifetch)
		cannot = FALLBACK_IFETCH;
	else if (t->mixed_granule)
		cannot = FALLBACK_MIXED;
	else if ((!c.cb.proven || (c.cb.kind == CB_SC && cb_instr_dep(t))) && c.cb.kind != CB_MODEL &&
	         cb_may_cycle(c.cb.kind, t, c.unroll, c.deadline))
		cannot = FALLBACK_ORDER_CYCLE;
	else if (m && cat_model_computes_deps(m) && !s0.herd_deps)
		cannot = FALLBACK_CATDEP;
	else if (has_branch(t, BR_EITHER))
		cannot = FALLBACK_VARIANTS;
	else if (has_branch(t, BR_INDIRECT))
		cannot = FALLBACK_INDIRECT;
	else if (has_reserved_stcond(t))
		cannot = FALLBACK_RESERVATION;
	else if (has_c_rmw(t))
		cannot = FALLBACK_C_RMW;
	else if (!c.cb.proven && has_c_located_fence(t))
		cannot = FALLBACK_C_LOCKS;
	if (!dead(&s0) && !cannot && !timed_out) {
		path_push(&c, &s0, true);
		push_explore(&c, &s0, NULL);
		run_frames(&c);
		path_pop(&c);
	}
	rsmc_state_free(&s0);
	r->addr_dropped = c.warned.addr_dropped;
	interp_warned_free(&c.warned);
	result_sort_flags(r);
	state_table_free(&c.states);
	free(c.state_vals);
	free(c.mem_final);
	free(c.run);
	free(c.path);
	frames_free(&c);
	cat_partial_free(c.partial);
	c.failed |= c.cb.failed;   /* reported by cb_order_compute */
	if (!c.failed && !r->timed_out && cannot)
		r->fallback = cannot;
	else if (!c.failed && !r->timed_out && c.blocked)
		/* a run stopped at an address that is no location is not the
		 * commit order's block */
		r->fallback = c.warned.addr_dropped.file ? FALLBACK_ADDR_DROPPED
		              : c.cb.declared ? FALLBACK_DECLARED_BLOCKED : FALLBACK_BLOCKED;
	cb_order_free(&c.cb);
	rsmc_xcache_free(&c.xc);
	if (c.failed) {
		srcloc at = { t->file, 0, 0 };
		diag_error(d, at, "the model could not evaluate an execution of test %s", t->name ? t->name : "?");
		return false;
	}
	return true;
}
