/* rvf_explore.c — RVF-SMC (the paper's Algorithm 2): the recursion over
 * nodes (X, good writes, witness, causal map) that rvf.h describes.
 *
 * A node (node()):
 *   1. extends X and its witness with every write the threads do next (a
 *      write comes after the witness's reads, so it stays a witness); a
 *      choice of a thread is branched at once, each way a node of its own;
 *      each new write raises the backtrack signal of every read on the
 *      recursion's stack that it could have been read by (same location,
 *      another thread);
 *   2. the reads the threads do next (the observer's next read once every
 *      thread has ended) are tried in turn, those the causal map does not
 *      constrain first: for each value the writes of X visible to the read
 *      give (po hides a write its own thread overwrote before the read,
 *      the observer sees only a thread's last write of each location), the
 *      read joins X with those writes as its good ones; the witness with
 *      the read appended answers at once when the location's last write is
 *      one of them, else VerifySC looks for a witness, guided by it;
 *   3. after a read's values the causal map forbids it every write of X for
 *      the node's later children; an unconstrained plain read whose signal
 *      stayed down ends the node (Lemma 1; rvf.h says why not an atomic
 *      one);
 *   4. a node where every thread ended and the observer read everything is
 *      a class: its final state is counted.
 *
 * Thread steps come from pop_thread_step, replaying the thread's decisions
 * (values read, ways chosen); each thread's next step is cached while its
 * decisions stay. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rvf.h"
#include "../paths.h"
#include "../result.h"

typedef struct tstate {
	pop_dec *dec;        /* its decisions: one per step taken            */
	int n;
	size_t cap;
	bool cached;         /* next holds the step after dec[0 .. cached_n) */
	int cached_n;
	pop_step next;
	value *regs;         /* final registers, when next is PK_END         */
} tstate;

typedef struct anc {
	int th, loc;         /* a read being tried on the recursion's stack  */
	bool signal;         /* a write of another thread to loc was found   */
} anc;

typedef struct rvf {
	pop_run_ctx *rc;
	const litmus_test *t;
	test_result *r;
	state_table states;
	int T, L;
	rvf_events X;
	tstate *ts;          /* T threads                                    */
	value *mem;          /* the initial values, one set while probing    */
	int *obs_loc;        /* the observer's reads: these locations        */
	int n_obs;
	int *obs_slot;       /* per location: its read's number, -1: none    */
	anc *anc;
	int n_anc;
	size_t cap_anc;
	int cm_row;          /* a causal map: T + 1 rows of this many ints   */
	rvf_verifier *ver;
	value *state_vals;
	int errors;
	bool stop;
	long nodes;
	double verify_time;
} rvf;

/* This thread's CPU time, seconds: VerifySC's share is of the CPU the
 * exploration had, whatever else the machine runs. */
static double cpu_now(void)
{
	struct timespec now;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
	return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

/* ---- X -------------------------------------------------------------------------------- */

static bool ev_writes(const rvf_event *e)
{
	return e->kind == PK_WRITE || e->kind == PK_RMW;
}

static int add_event(rvf *R, int th, enum pop_kind kind, int loc, value rval, value wval)
{
	rvf_events *X = &R->X;
	GROW(X->ev, X->cap, (size_t)X->n + 1);
	GROW(X->by_th[th], X->cap_th[th], (size_t)X->count[th] + 1);
	rvf_event *e = &X->ev[X->n];
	memset(e, 0, sizeof *e);
	e->th = th;
	e->idx = X->count[th];
	e->kind = kind;
	e->loc = loc;
	e->rval = rval;
	e->wval = wval;
	X->by_th[th][X->count[th]++] = X->n;
	return X->n++;
}

static void drop_events(rvf *R, int n, int n_good)
{
	rvf_events *X = &R->X;
	while (X->n > n)
		X->count[X->ev[--X->n].th]--;
	X->n_good = n_good;
}

/* A new write: the reads on the stack it could have given a value to. */
static void signal_write(rvf *R, const rvf_event *w)
{
	for (int i = 0; i < R->n_anc; i++)
		if (R->anc[i].loc == w->loc && R->anc[i].th != w->th)
			R->anc[i].signal = true;
}

/* ---- threads -------------------------------------------------------------------------------- */

static void push_dec(rvf *R, int th, value rval, int alt)
{
	tstate *s = &R->ts[th];
	GROW(s->dec, s->cap, (size_t)s->n + 1);
	if (s->cached && s->cached_n > s->n)
		s->cached = false;
	s->dec[s->n].rval = rval;
	s->dec[s->n].alt = alt;
	s->n++;
}

static const pop_step *probe(rvf *R, int th, int alt)
{
	tstate *s = &R->ts[th];
	if (alt == 0 && s->cached && s->cached_n == s->n)
		return &s->next;
	pop_thread_step(R->rc, th, s->dec, s->n, R->mem, alt, &s->next, s->regs, NULL);
	s->cached = alt == 0;
	s->cached_n = s->n;
	if ((s->next.kind == PK_END && s->next.end == PE_ERROR) || R->rc->d->errors > R->errors)
		R->stop = true;
	return &s->next;
}

/* Thread th's next step when its read (at loc) obtains v: a read, or a
 * read-modify-write and what it writes (a compare-and-swap writes only
 * when it reads what it compares with). */
static pop_step step_reading(rvf *R, int th, int loc, value v)
{
	tstate *s = &R->ts[th];
	value saved = R->mem[loc];
	pop_step st;
	R->mem[loc] = v;
	pop_thread_step(R->rc, th, s->dec, s->n, R->mem, 0, &st, NULL, NULL);
	R->mem[loc] = saved;
	if (R->rc->d->errors > R->errors)
		R->stop = true;
	else if ((st.kind != PK_READ && st.kind != PK_RMW) || st.loc != loc) {
		/* the step was probed reading another value: it cannot change */
		srcloc at = { R->t->file, 0, 0 };
		diag_error(R->rc->d, at, "internal error: rvf: thread %d's read changed with its value", th);
		R->stop = true;
	}
	return st;
}

/* ---- classes ---------------------------------------------------------------------------------- */

static value final_value(void *ctx, lval lv)
{
	const rvf *R = ctx;
	if (lv.thread >= 0) {
		if (lv.thread < R->T && lv.reg >= 0 && lv.reg < R->t->threads[lv.thread].n_regs)
			return R->ts[lv.thread].regs[lv.reg];
		return value_no_fault();
	}
	if (lv.loc >= 0 && lv.loc < R->L && R->obs_slot[lv.loc] >= 0)
		return R->X.ev[R->X.by_th[R->T][R->obs_slot[lv.loc]]].rval;
	return lv.loc >= 0 && lv.loc < R->L ? R->t->locs[lv.loc].init : value_int(0);
}

static void complete(rvf *R)
{
	test_result *r = R->r;
	r->stats.own[RVF_CLASSES]++;
	bool toofar = false;
	for (int t = 0; t < R->T; t++) {
		if (R->ts[t].next.end == PE_DROPPED)
			return;   /* herd has no such execution */
		toofar |= R->ts[t].next.end == PE_CUT;
	}
	result_count_sc_execution(r, &R->states, R->t, toofar, final_value, R, R->state_vals);
}

/* VerifySC on X, guided by aux (n_aux events), timed and counted. */
static bool verify(rvf *R, const int *aux, int n_aux, int *wit)
{
	double t0 = cpu_now();
	bool found = rvf_verify_sc(R->ver, &R->X, aux, n_aux, wit);
	R->verify_time += cpu_now() - t0;
	R->r->stats.own[RVF_VERIFY_CALLS]++;
	R->r->stats.own[RVF_VERIFY_FAILED] += !found;
	return found;
}

/* ---- the recursion ------------------------------------------------------------------------------ */

static void node(rvf *R, const int *cm, const int *sigma, int n_sigma);

static int *cm_of(int *cm, const rvf *R, int th)
{
	return &cm[(size_t)th * (size_t)R->cm_row];
}

/* Thread th's events all happen before the observer's; one thread's
 * write is hidden from its later reads by its own later write. */
static bool hidden(const rvf *R, int id, int reader)
{
	const rvf_events *X = &R->X;
	const rvf_event *w = &X->ev[id];
	if (w->th > R->T) {
		/* the initial write: hidden by any write the reader's thread
		 * (every thread, for the observer) did before it */
		for (int t = 0; t < R->T; t++) {
			if (reader != R->T && t != reader)
				continue;
			for (int k = 0; k < X->count[t]; k++) {
				const rvf_event *e = &X->ev[X->by_th[t][k]];
				if (ev_writes(e) && e->loc == w->loc)
					return true;
			}
		}
		return false;
	}
	if (reader != R->T && reader != w->th)
		return false;
	for (int k = w->idx + 1; k < X->count[w->th]; k++) {
		const rvf_event *e = &X->ev[X->by_th[w->th][k]];
		if (ev_writes(e) && e->loc == w->loc)
			return true;
	}
	return false;
}

/* The last write of loc in the trace (the initial one: event loc). */
static int last_write(const rvf *R, const int *tr, int n, int loc)
{
	for (int i = n - 1; i >= 0; i--) {
		const rvf_event *e = &R->X.ev[tr[i]];
		if (ev_writes(e) && e->loc == loc)
			return tr[i];
	}
	return loc;
}

/* Try read r of thread th (its next step st; the observer's: st NULL)
 * with each value X's visible writes give it; st_trace is the node's
 * extended witness.  cm is the node's causal map, constraining r when
 * its row is set. */
static void try_read(rvf *R, int th, const pop_step *st, const int *cm, const int *st_trace, int n_st)
{
	rvf_events *X = &R->X;
	int loc = st ? st->loc : R->obs_loc[X->count[R->T]];
	const int *row = &cm[(size_t)th * (size_t)R->cm_row];
	int n0 = X->n, g0 = X->n_good;
	/* the sources: writes of X to loc, visible, not forbidden */
	int *src = xmalloc(((size_t)n0 + 1) * sizeof *src), n_src = 0;
	for (int id = 0; id < n0; id++) {
		const rvf_event *w = &X->ev[id];
		if (!ev_writes(w) || w->loc != loc)
			continue;
		if (row[0] && w->idx < row[1 + w->th])
			continue;
		if (!hidden(R, id, th))
			src[n_src++] = id;
	}
	int active = last_write(R, st_trace, n_st, loc);
	int *child_cm = xmalloc((size_t)(R->T + 1) * (size_t)R->cm_row * sizeof *child_cm);
	int *aux = xmalloc(((size_t)n_st + 2) * sizeof *aux);
	int *wit = xmalloc(((size_t)n_st + 2) * sizeof *wit);
	memcpy(aux, st_trace, (size_t)n_st * sizeof *aux);
	for (int i = 0; i < n_src && !R->stop; i++) {
		value v = X->ev[src[i]].wval;
		bool first = true;
		for (int k = 0; k < i; k++)
			if (value_eq(X->ev[src[k]].wval, v))
				first = false;
		if (!first)
			continue;   /* this value was tried */
		/* the value's writes, good for the read */
		GROW(X->good, X->cap_good, (size_t)X->n_good + (size_t)n_src);
		int good = X->n_good;
		bool answered = false;
		for (int k = i; k < n_src; k++)
			if (value_eq(X->ev[src[k]].wval, v)) {
				X->good[X->n_good++] = src[k];
				answered |= src[k] == active;
			}
		pop_step got = { .kind = PK_READ, .loc = loc };
		if (st)
			got = step_reading(R, th, loc, v);
		if (R->stop)
			break;
		int id = add_event(R, th, got.kind, loc, v, got.wval);
		X->ev[id].good = good;
		X->ev[id].n_good = X->n_good - good;
		X->ev[id].atomic = got.atomic;
		if (th < R->T)
			push_dec(R, th, v, 0);
		aux[n_st] = id;
		bool found = true;
		if (answered) {
			R->r->stats.own[RVF_VERIFY_SKIPPED]++;
			memcpy(wit, aux, ((size_t)n_st + 1) * sizeof *wit);
		} else {
			found = verify(R, aux, n_st + 1, wit);
		}
		if (found) {
			if (got.kind == PK_RMW)
				signal_write(R, &X->ev[id]);
			memcpy(child_cm, cm, (size_t)(R->T + 1) * (size_t)R->cm_row * sizeof *child_cm);
			cm_of(child_cm, R, th)[0] = 0;
			node(R, child_cm, wit, n_st + 1);
		}
		if (th < R->T)
			R->ts[th].n--;
		drop_events(R, n0, g0);
	}
	free(wit);
	free(aux);
	free(child_cm);
	free(src);
}

static void node(rvf *R, const int *cm_in, const int *sigma, int n_sigma)
{
	rvf_events *X = &R->X;
	if (R->stop)
		return;
	if ((++R->nodes & 63) == 0 && R->rc->deadline > 0 && paths_clock() > R->rc->deadline) {
		R->rc->timed_out = true;
		R->stop = true;
		return;
	}
	int n0 = X->n, g0 = X->n_good;
	int *saved_n = xmalloc(((size_t)R->T + 1) * sizeof *saved_n);
	for (int t = 0; t < R->T; t++)
		saved_n[t] = R->ts[t].n;
	int *cm = xmalloc((size_t)(R->T + 1) * (size_t)R->cm_row * sizeof *cm);
	memcpy(cm, cm_in, (size_t)(R->T + 1) * (size_t)R->cm_row * sizeof *cm);
	int *tr = NULL;
	/* 1. the writes each thread does next; a choice branches */
	int choice = -1;
	for (int t = 0; t < R->T && !R->stop && choice < 0; t++)
		for (;;) {
			const pop_step *st = probe(R, t, 0);
			if (R->stop || st->kind != PK_WRITE) {
				if (st->kind == PK_CHOICE)
					choice = t;
				break;
			}
			int id = add_event(R, t, PK_WRITE, st->loc, value_int(0), st->wval);
			X->ev[id].atomic = st->atomic;
			push_dec(R, t, value_int(0), 0);
			signal_write(R, &X->ev[id]);
		}
	int n_tr = n_sigma + (X->n - n0);
	tr = xmalloc(((size_t)n_tr + 1) * sizeof *tr);
	if (n_sigma > 0)
		memcpy(tr, sigma, (size_t)n_sigma * sizeof *tr);
	for (int id = n0; id < X->n; id++)
		tr[n_sigma + id - n0] = id;
	if (R->stop)
		goto out;
	if (!rvf_atomic_ok(X, tr, n_tr)) {
		/* a store-conditional's write appended after another thread's
		 * write that follows its load-reserve: another witness, or none
		 * (sc.cat forbids every interleaving where it stores) */
		int *wit = xmalloc(((size_t)n_tr + 1) * sizeof *wit);
		bool found = verify(R, tr, n_tr, wit);
		free(tr);
		tr = wit;
		if (!found)
			goto out;
	}
	if (choice >= 0) {
		for (int a = 0; a < 2 && !R->stop; a++) {
			if (a > 0 && probe(R, choice, 1)->kind != PK_CHOICE)
				break;
			push_dec(R, choice, value_int(0), a);
			node(R, cm, tr, n_tr);
			R->ts[choice].n--;
		}
		goto out;
	}
	/* 2. the reads enabled: unconstrained first */
	int *order = xmalloc(((size_t)R->T + 1) * sizeof *order), n_order = 0;
	for (int pass = 0; pass < 2; pass++)
		for (int t = 0; t < R->T; t++) {
			const pop_step *st = &R->ts[t].next;
			if ((st->kind == PK_READ || st->kind == PK_RMW) && (cm_of(cm, R, t)[0] != 0) == (pass == 1))
				order[n_order++] = t;
		}
	if (n_order == 0) {
		/* every thread has ended: the observer reads, or it is a class */
		if (X->count[R->T] < R->n_obs)
			order[n_order++] = R->T;
		else
			complete(R);
	}
	for (int i = 0; i < n_order && !R->stop; i++) {
		int th = order[i];
		/* a copy: the children probe the thread further */
		pop_step st = { 0 };
		if (th < R->T)
			st = *probe(R, th, 0);
		if (R->stop)
			break;
		/* the signal stops a node at a plain read only: the paper's
		 * Lemma 1 moves the read earlier, which for a read-modify-write
		 * moves its write too (a compare-and-swap of another thread may
		 * then fail and write nothing) */
		bool signalled = cm_of(cm, R, th)[0] == 0 && (th == R->T || !st.atomic);
		if (signalled) {
			GROW(R->anc, R->cap_anc, (size_t)R->n_anc + 1);
			R->anc[R->n_anc].th = th;
			R->anc[R->n_anc].loc = th < R->T ? st.loc : R->obs_loc[X->count[R->T]];
			R->anc[R->n_anc].signal = false;
			R->n_anc++;
		}
		try_read(R, th, th < R->T ? &st : NULL, cm, tr, n_tr);
		/* 3. no later child reads it from a write of this node */
		int *row = cm_of(cm, R, th);
		row[0] = 1;
		for (int t = 0; t <= R->T + 1; t++)
			row[1 + t] = X->count[t];
		if (signalled && !R->anc[--R->n_anc].signal)
			break;
	}
	free(order);
out:
	free(tr);
	free(cm);
	drop_events(R, n0, g0);
	for (int t = 0; t < R->T; t++)
		R->ts[t].n = saved_n[t];
	free(saved_n);
}

/* ---- the run ---------------------------------------------------------------------------------------- */

static void observe(rvf *R, lval lv)
{
	if (lv.thread >= 0 || lv.loc < 0 || lv.loc >= R->L || R->obs_slot[lv.loc] >= 0)
		return;
	R->obs_slot[lv.loc] = R->n_obs;
	R->obs_loc[R->n_obs++] = lv.loc;
}

static void observe_cond(rvf *R, const cond *c)
{
	if (!c)
		return;
	observe_cond(R, c->l);
	observe_cond(R, c->r);
	if (c->kind == COND_EQ || c->kind == COND_NE) {
		observe(R, c->lhs);
		if (c->rhs_is_lval)
			observe(R, c->rhs_lval);
	}
}

bool rvf_explore(pop_run_ctx *rc, const engine_opts *o, test_result *r)
{
	(void)o;
	const litmus_test *t = rc->t;
	rvf R = { 0 };
	R.rc = rc;
	R.t = t;
	R.r = r;
	R.T = t->n_threads;
	R.L = t->n_locs;
	R.errors = rc->d->errors;
	R.cm_row = R.T + 3;
	R.ver = rvf_verifier_new();
	R.X.T = R.T;
	R.X.L = R.L;
	R.X.by_th = xcalloc((size_t)R.T + 2, sizeof *R.X.by_th);
	R.X.count = xcalloc((size_t)R.T + 2, sizeof *R.X.count);
	R.X.cap_th = xcalloc((size_t)R.T + 2, sizeof *R.X.cap_th);
	R.ts = xcalloc((size_t)R.T + 1, sizeof *R.ts);
	for (int i = 0; i < R.T; i++)
		R.ts[i].regs = xcalloc((size_t)t->threads[i].n_regs + 1, sizeof *R.ts[i].regs);
	R.mem = xmalloc(((size_t)R.L + 1) * sizeof *R.mem);
	R.obs_loc = xmalloc(((size_t)R.L + 1) * sizeof *R.obs_loc);
	R.obs_slot = xmalloc(((size_t)R.L + 1) * sizeof *R.obs_slot);
	for (int l = 0; l < R.L; l++) {
		R.mem[l] = t->locs[l].init;
		R.obs_slot[l] = -1;
		int id = add_event(&R, R.T + 1, PK_WRITE, l, value_int(0), t->locs[l].init);
		(void)id;
	}
	for (int i = 0; i < r->n_lvals; i++)
		observe(&R, r->lvals[i]);
	observe_cond(&R, t->cond);
	observe_cond(&R, t->filter);
	R.state_vals = result_state_scratch(r);
	int *cm = xcalloc((size_t)(R.T + 1) * (size_t)R.cm_row, sizeof *cm);
	double t0 = cpu_now();
	node(&R, cm, NULL, 0);
	double spent = cpu_now() - t0;
	r->stats.own[RVF_VERIFY_US] = (long)(R.verify_time * 1e6);
	r->stats.own[RVF_VERIFY_SHARE] = spent > 0 ? (long)(100.0 * R.verify_time / spent + 0.5) : 0;
	r->timed_out |= rc->timed_out;
	/* Positive and Negative count the distinct final states */
	r->pos = r->neg = 0;
	for (int i = 0; i < r->n_states; i++) {
		r->states[i].count = 1;
		if (r->states[i].holds)
			r->pos++;
		else
			r->neg++;
	}
	free(cm);
	state_table_free(&R.states);
	for (int i = 0; i < R.T; i++) {
		free(R.ts[i].regs);
		free(R.ts[i].dec);
	}
	free(R.ts);
	for (int i = 0; i < R.T + 2; i++)
		free(R.X.by_th[i]);
	free(R.X.by_th);
	free(R.X.count);
	free(R.X.cap_th);
	free(R.X.ev);
	free(R.X.good);
	free(R.mem);
	free(R.obs_loc);
	free(R.obs_slot);
	free(R.anc);
	free(R.state_vals);
	rvf_verifier_free(R.ver);
	return rc->d->errors == R.errors;
}
