/* rsmc_thread.c — RSMC's policy for the thread interpreter (ti_run,
 * thread_interp.h): run a thread from its first op with the decisions
 * taken so far (values of committed loads, outcomes of committed
 * store-conditionals), fetch as far as the first conditional branch on a
 * value not yet known.
 *
 * The enumerator runs the same loop, so the two compute the same events,
 * instances, dependencies, unroll cuts and dropped paths for the same
 * path; what is left here is RSMC's own, the replay of the decisions.
 * Unknown values (loads not yet committed, outcomes of store-conditionals
 * not yet committed) flow through the registers as "unknown"; a store's
 * data or an access's address may be unknown while the event waits to be
 * committed. */
#include <stdlib.h>
#include <string.h>

#include "rsmc.h"

/* ---- states ----------------------------------------------------------------- */

void rsmc_state_init(rstate *s, const litmus_test *t)
{
	memset(s, 0, sizeof *s);
	s->n_threads = t->n_threads;
	s->n_locs = t->n_locs;
	s->th = xcalloc((size_t)t->n_threads + 1, sizeof *s->th);
	s->co = xcalloc((size_t)t->n_locs + 1, sizeof *s->co);
	for (int i = 0; i < t->n_threads; i++) {
		int nr = t->threads[i].n_regs > 0 ? t->threads[i].n_regs : 1;
		s->th[i].regs = xcalloc((size_t)nr, sizeof *s->th[i].regs);
		s->th[i].n_regs = nr;
	}
}

void rsmc_state_copy(rstate *dst, const rstate *src)
{
	/* dst's buffers, if it has some from a state of the same test, are
	 * reused: the explorer copies one state into the same place for each
	 * parameter it tries */
	if (!dst->th || dst->n_threads != src->n_threads || dst->n_locs != src->n_locs) {
		rsmc_state_free(dst);
		dst->th = xcalloc((size_t)src->n_threads + 1, sizeof *dst->th);
		dst->co = xcalloc((size_t)src->n_locs + 1, sizeof *dst->co);
	}
	dst->n_threads = src->n_threads;
	dst->n_locs = src->n_locs;
	dst->herd_deps = src->herd_deps;
	for (int i = 0; i < src->n_threads; i++) {
		const tstate *a = &src->th[i];
		tstate *b = &dst->th[i];
		b->n_ev = a->n_ev;
		if (a->n_ev) {
			GROW(b->ev, b->cap_ev, (size_t)a->n_ev);
			memcpy(b->ev, a->ev, (size_t)a->n_ev * sizeof *b->ev);
		}
		dep_list_copy_into(&b->addr, &a->addr);
		dep_list_copy_into(&b->data, &a->data);
		dep_list_copy_into(&b->ctrl, &a->ctrl);
		dep_list_copy_into(&b->xdep, &a->xdep);
		b->has_hd = a->has_hd;
		for (int k = 0; a->has_hd && k < XD_N; k++)
			dep_list_copy_into(&b->hd[k], &a->hd[k]);
		b->status = a->status;
		if (b->n_regs != a->n_regs || !b->regs)
			b->regs = xrealloc(b->regs, ((size_t)a->n_regs + 1) * sizeof *b->regs);
		b->n_regs = a->n_regs;
		memcpy(b->regs, a->regs, (size_t)a->n_regs * sizeof *b->regs);
	}
	for (int l = 0; l < src->n_locs; l++) {
		const costate *a = &src->co[l];
		costate *b = &dst->co[l];
		if (a->n) {
			GROW(b->w, b->cap, (size_t)a->n);
			memcpy(b->w, a->w, (size_t)a->n * sizeof *b->w);
		}
		b->n = a->n;
	}
}

void rsmc_state_free(rstate *s)
{
	for (int i = 0; i < s->n_threads; i++) {
		tstate *th = &s->th[i];
		free(th->ev);
		dep_list_free(&th->addr);
		dep_list_free(&th->data);
		dep_list_free(&th->ctrl);
		dep_list_free(&th->xdep);
		for (int k = 0; k < XD_N; k++)
			dep_list_free(&th->hd[k]);
		free(th->regs);
	}
	for (int l = 0; l < s->n_locs; l++)
		free(s->co[l].w);
	free(s->th);
	free(s->co);
	memset(s, 0, sizeof *s);
}

value rsmc_write_value(const litmus_test *t, const rstate *s, eref w)
{
	if (w.t < 0)
		return t->locs[w.k].init;
	return s->th[w.t].ev[w.k].val;
}

/* ---- the interpreter ----------------------------------------------------------- */

typedef struct interp {
	ti_ctx c;
	ti_state r;       /* registers and control (thread_interp.h) */
	tstate *out;
	const fev *old;   /* decisions of the previous run */
	int n_old;
	double deadline;  /* paths_clock() time, 0: none */
	long steps;
} interp;

/* Append the next fetched event, with its dependencies; carry over the
 * decisions of the previous run for this fetch index. */
static fev *push_event(interp *ip, const op *o, int op_index, enum event_kind kind, int loc, value val)
{
	tstate *ts = ip->out;
	GROW(ts->ev, ts->cap_ev, (size_t)ts->n_ev + 1);
	int e = ts->n_ev++;
	path_event pe = ti_event(&ip->r, o, op_index, kind, loc, val);
	fev *f = &ts->ev[e];
	memset(f, 0, sizeof *f);
	f->kind = pe.kind;
	f->op = pe.op;
	f->instr = pe.instr;
	f->instance = pe.instance;
	f->loc = pe.loc;
	f->loc_known = loc >= 0;
	f->val = pe.val;
	f->flags = pe.flags;
	f->fence = pe.fence;
	f->rf.t = -1;
	f->rf.k = -1;
	if (e < ip->n_old && ip->old[e].op == op_index) {
		f->committed = ip->old[e].committed;
		f->failed = ip->old[e].failed;
		f->rf = ip->old[e].rf;
		if (kind == EV_READ)
			f->val = ip->old[e].val;   /* a committed load's value */
	}
	ti_deps out = { &ts->addr, &ts->data, &ts->ctrl, &ts->xdep };
	ti_record_deps(&ip->r, o, e, &out);
	/* a store-conditional that failed is no event of the enumerator's
	 * path: it takes no part in herd's dependencies either */
	if (!f->failed)
		ti_record_herd_deps(&ip->r, o, e, kind, loc, ts->hd);
	return f;
}

/* ---- rsmc's policy for ti_run ------------------------------------------------ */

static bool r_step(void *ctx, const ti_state *s)
{
	(void)s;
	interp *ip = ctx;
	if ((++ip->steps & 4095) == 0 && ip->deadline > 0 && paths_clock() > ip->deadline) {
		ip->out->status = TS_TIMEOUT;
		return false;
	}
	return true;
}

static void r_end(void *ctx, bool cut)
{
	interp *ip = ctx;
	ip->out->status = cut ? TS_TOOFAR : TS_DONE;
}

static void r_fail(void *ctx, const op *o, enum ti_fail why)
{
	(void)o, (void)why;
	interp *ip = ctx;
	ip->out->status = TS_ERROR;
}

/* a fence's or a branch's event is committed as it is fetched */
static int r_event(void *ctx, const op *o, int pc, enum event_kind kind, int loc, value val)
{
	interp *ip = ctx;
	push_event(ip, o, pc, kind, loc, val)->committed = true;
	return ip->out->n_ev - 1;
}

/* its value is the committed one, else not known yet */
static bool r_load(void *ctx, const op *o, int pc, int loc)
{
	interp *ip = ctx;
	fev *f = push_event(ip, o, pc, EV_READ, loc, value_int(0));
	f->val_known = f->committed;
	ti_set_loaded(&ip->r, o, ip->out->n_ev - 1, f->val, f->committed);
	return true;
}

/* thread_paths.c gives a failed store-conditional no event and no edges;
 * rsmc_build_execution leaves out its edges too */
static bool r_store(void *ctx, const op *o, int pc, int loc, value v, bool known)
{
	interp *ip = ctx;
	fev *f = push_event(ip, o, pc, EV_WRITE, loc, v);
	f->val_known = known;
	f->stcond = o->kind == OP_STCOND;
	if (f->stcond)
		ti_set_stcond_flag(&ip->r, o, ip->out->n_ev - 1, value_int(f->committed && !f->failed ? 1 : 0),
		                   f->committed);
	return true;
}

/* rsmc_run hands such a test to the enumerator */
static bool r_choice(void *ctx, const op *o, int pc)
{
	(void)o, (void)pc;
	interp *ip = ctx;
	ip->out->status = TS_ERROR;
	return false;
}

/* rsmc hands such tests to the enumerator (rsmc.c): here, the
 * fall-through only */
static bool r_either(void *ctx, const op *o, int *pc)
{
	(void)ctx, (void)o;
	++*pc;
	return true;
}

/* an access is fetched with its address unknown, to be committed later;
 * a lock and a branch wait for their value */
static bool r_unknown(void *ctx, const op *o, enum ti_unknown what)
{
	(void)o;
	interp *ip = ctx;
	if (what == TI_UNKNOWN_ADDRESS)
		return true;
	ip->out->status = TS_RUNNING;
	return false;
}

static const ti_policy rsmc_policy = {
	.step = r_step,
	.end = r_end,
	.fail = r_fail,
	.event = r_event,
	.load = r_load,
	.store = r_store,
	.choice = r_choice,
	.either = r_either,
	.unknown = r_unknown,
	.tlbi = false,   /* rsmc_run hands vmsa tests to the enumerator */
};

void rsmc_thread_eval(const litmus_test *t, rstate *s, int ti, int unroll, double deadline, rsmc_warned *w,
                      diag *d)
{
	const thread *th = &t->threads[ti];
	tstate *ts = &s->th[ti];
	tstate fresh = { 0 };
	interp ip = { 0 };
	ip.c = ti_ctx_of(t, ti, unroll, w, d, s->herd_deps);
	ti_state_init(&ip.r, &ip.c, true);
	fresh.has_hd = s->herd_deps;
	ip.out = &fresh;
	ip.old = ts->ev;
	ip.n_old = ts->n_ev;
	ip.deadline = deadline;
	ti_run(&rsmc_policy, &ip, &ip.c, &ip.r, 0, false);
	int nr = th->n_regs > 0 ? th->n_regs : 1;
	fresh.regs = xmalloc((size_t)nr * sizeof *fresh.regs);
	fresh.n_regs = nr;
	memcpy(fresh.regs, ip.r.val, (size_t)nr * sizeof *fresh.regs);
	ti_state_free(&ip.r, &ip.c);
	free(ts->ev);
	dep_list_free(&ts->addr);
	dep_list_free(&ts->data);
	dep_list_free(&ts->ctrl);
	dep_list_free(&ts->xdep);
	for (int k = 0; k < XD_N; k++)
		dep_list_free(&ts->hd[k]);
	free(ts->regs);
	*ts = fresh;
}
