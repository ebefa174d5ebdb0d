/* sstate_thread.c — fetch one thread's events as far as the committed
 * values allow: the session's policy for the engines' own thread
 * interpreter (ti_run, src/engine/thread_interp.h).  Operands, registers,
 * dependencies by taint tracking, instruction instances and the unroll
 * limit (every backward jump taken counts a visit of its target) are
 * theirs, so that a complete session execution is the very execution the
 * enumerator builds, loops included.  What is the session's own: a value
 * may be unknown (a load not committed, a store-conditional not decided),
 * and fetching stops at a conditional branch on an unknown value, at an
 * access whose address is unknown and at a choice not made. */
#include <stdlib.h>
#include <string.h>

#include "../arch/arch.h"
#include "../engine/thread_interp.h"
#include "session_int.h"


void sthread_free(sthread *th)
{
	free(th->ev);
	dep_list_free(&th->addr);
	dep_list_free(&th->data);
	dep_list_free(&th->ctrl);
	for (int k = 0; k < XD_N; k++)
		dep_list_free(&th->hd[k]);
	free(th->regs);
	memset(th, 0, sizeof *th);
}

/* Fetch event `kind` of op o (its dependencies recorded); its index.
 * failed: a store-conditional committed as failing, which has no event on
 * the enumerator's path, so none in herd's dependencies either. */
static int fetch(sthread *out, ti_state *s, const op *o, int pc, enum event_kind kind, int loc, value v,
                 bool failed)
{
	GROW(out->ev, out->cap, (size_t)out->n + 1);
	int e = out->n++;
	path_event pe = ti_event(s, o, pc, kind, loc, v);
	sev *ev = &out->ev[e];
	memset(ev, 0, sizeof *ev);
	ev->kind = pe.kind;
	ev->op = pe.op;
	ev->instr = pe.instr;
	ev->instance = pe.instance;
	ev->loc = pe.loc;
	ev->val = pe.val;
	ev->val_known = true;
	ev->flags = pe.flags;
	ev->fence = pe.fence;
	ev->stcond = o->kind == OP_STCOND;
	ev->src = (sref){ -2, -1 };
	ti_deps deps = { &out->addr, &out->data, &out->ctrl, NULL };
	ti_record_deps(s, o, e, &deps);
	if (!failed)
		ti_record_herd_deps(s, o, e, kind, loc, out->hd);
	return e;
}

/* ---- the session's policy for ti_run ----------------------------------------- */

/* One fetch of a thread: the commits of old are replayed into out. */
typedef struct srun {
	const ti_ctx *c;
	ti_state *s;
	const sthread *old;
	sthread *out;
	long steps;
} srun;

/* the event old had where out's next one goes, if any */
static const sev *was_at(const srun *x)
{
	return x->old && x->out->n < x->old->n ? &x->old->ev[x->out->n] : NULL;
}

static bool s_step(void *ctx, const ti_state *s)
{
	(void)s;
	srun *x = ctx;
	if (++x->steps <= SESSION_MAX_STEPS)
		return true;
	x->out->error = "the thread runs too long without reading memory";
	return false;
}

static void s_end(void *ctx, bool cut)
{
	srun *x = ctx;
	x->out->done = true;
	x->out->cut = cut;
}

static void s_fail(void *ctx, const op *o, enum ti_fail why)
{
	(void)o;
	static const char *const says[] = {
		[TI_FAIL_ALU] = "arithmetic on an address, a division by zero, or a register the thread does not "
		                "have",
		[TI_FAIL_ACCESS] = "a memory access to an address that is not a location, or a register the thread "
		                   "does not have",
		[TI_FAIL_LOCK] = "a lock operation on an address that is not a location",
		[TI_FAIL_REGISTER] = "an instruction uses a register the thread does not have",
		[TI_FAIL_PAGE] = "TLBI's register does not hold a page",
		[TI_FAIL_TLBI] = "TLBI (herd's vmsa variant) is not supported here",
		[TI_FAIL_DROP] = "this alternative of the compare-exchange does not hold for the value read (herd "
		                 "has no such execution)",
		[TI_FAIL_JUMP] = "an indirect branch (BR, BLR, RET) to another thread's code is not supported",
	};
	srun *x = ctx;
	x->out->error = says[why];
}

static bool is_fence(const sev *e, const char *name)
{
	return e->kind == EV_FENCE && e->loc >= 0 && e->fence && !strcmp(e->fence, name);
}

/* a fence's or a branch's event is committed as it is fetched, but for a
 * lock write (herd's LKW), which waits for the user's place in the lock
 * order, as a store for its place in coherence */
static int s_event(void *ctx, const op *o, int pc, enum event_kind kind, int loc, value val)
{
	srun *x = ctx;
	const sev *was = was_at(x);
	int e = fetch(x->out, x->s, o, pc, kind, loc, val, false);
	sev *ev = &x->out->ev[e];
	ev->lock_write = is_fence(ev, "LKW");
	ev->committed = !ev->lock_write || (was && was->lock_write && was->committed);
	return e;
}

/* A lock read (herd's LKR) is in the execution with its lock write, the
 * po-next LKW of its location (lock.cat's lk-rmw), and an unlock (UL)
 * once the lock write po-before it is: not before the lock is taken. */
static void hold_lock_events(sthread *th)
{
	for (int k = 0; k < th->n; k++) {
		sev *e = &th->ev[k];
		if (is_fence(e, "LKR")) {
			int m = k + 1;
			while (m < th->n && !(th->ev[m].lock_write && th->ev[m].loc == e->loc))
				m++;
			e->committed = m < th->n && th->ev[m].committed;
		} else if (is_fence(e, "UL")) {
			int m = k - 1;
			while (m >= 0 && !(th->ev[m].lock_write && th->ev[m].loc == e->loc))
				m--;
			e->committed = m < 0 || th->ev[m].committed;
		}
	}
}

/* Is the po-last write to loc fetched so far a store-conditional not
 * decided yet?  herd's lrs (a write to the po-next reads of its location)
 * carries a dependency through memory from a store-conditional that
 * succeeds, none from one that fails (it is no event): until it is
 * decided, what a read of loc depends on is not known. */
static bool after_undecided_stcond(const sthread *out, int loc)
{
	for (int k = out->n - 1; k >= 0; k--) {
		const sev *e = &out->ev[k];
		if (e->kind == EV_WRITE && e->loc == loc)
			return e->stcond && !e->committed && !e->failed;
	}
	return false;
}

/* its value is the committed one, else not known yet */
static bool s_load(void *ctx, const op *o, int pc, int loc)
{
	srun *x = ctx;
	if (x->c->herd_deps && after_undecided_stcond(x->out, loc)) {
		/* the dependencies a catdep model reads (herd_deps.c) are
		 * those of the committed events' paths, so that its checks
		 * on partial executions may judge early (cat_mono.c) */
		x->out->waits = "at a read of a location after a store-conditional to it not decided yet (herd's "
		                "dependencies through memory wait for its outcome)";
		return false;
	}
	const sev *was = was_at(x);
	bool committed = was && was->committed;
	int e = fetch(x->out, x->s, o, pc, EV_READ, loc, committed ? was->val : value_int(0), false);
	sev *ev = &x->out->ev[e];
	ev->val_known = committed;
	if (committed) {
		ev->committed = true;
		ev->src = was->src;
	}
	ti_set_loaded(x->s, o, e, ev->val, committed);
	return true;
}

static bool s_store(void *ctx, const op *o, int pc, int loc, value v, bool known)
{
	srun *x = ctx;
	const sev *was = was_at(x);
	/* herd's reservation rule, the enumerator's own: without one for
	 * this address it can only fail */
	bool res_known = true;
	bool unreserved = o->kind == OP_STCOND && !ti_stcond_may_succeed(x->c, x->s, o, loc, &res_known);
	if (!res_known) {
		x->out->waits = "at a store-conditional whose reservation depends on a load not committed yet";
		return false;
	}
	int e = fetch(x->out, x->s, o, pc, EV_WRITE, loc, v, was && was->failed);
	sev *ev = &x->out->ev[e];
	ev->unreserved = unreserved;
	ev->val_known = known;
	if (was && (was->committed || was->failed)) {
		ev->committed = was->committed;
		ev->failed = was->failed;
	}
	if (o->kind == OP_STCOND)
		ti_set_stcond_flag(x->s, o, e, value_int(ev->committed ? 1 : 0), ev->committed || ev->failed);
	return true;
}

/* shown as a pseudo-event the user commits with 1 or 0; the thread waits
 * there until then */
static bool s_choice(void *ctx, const op *o, int pc)
{
	srun *x = ctx;
	const sev *was = was_at(x);
	sthread *out = x->out;
	GROW(out->ev, out->cap, (size_t)out->n + 1);
	sev *ev = &out->ev[out->n++];
	path_event pe = ti_event(x->s, o, pc, EV_BRANCH, -1, value_int(0));
	memset(ev, 0, sizeof *ev);
	ev->kind = EV_BRANCH;
	ev->choice = true;
	ev->op = pe.op;
	ev->instr = pe.instr;
	ev->instance = pe.instance;
	ev->loc = -1;
	ev->src = (sref){ -2, -1 };
	if (!was || !was->choice || !was->committed) {
		out->waits = "at a choice between alternatives not made yet";
		return false;
	}
	ev->committed = ev->val_known = true;
	ev->val = was->val;
	ti_set_stcond_flag(x->s, o, -1, was->val, true);
	return true;
}

static bool s_either(void *ctx, const op *o, int *pc)
{
	(void)o, (void)pc;
	srun *x = ctx;
	x->out->error = "an instruction with variants herd explores each (CAS) is not supported here";
	return false;
}

static bool s_unknown(void *ctx, const op *o, enum ti_unknown what)
{
	(void)o;
	static const char *const says[] = {
		[TI_UNKNOWN_ADDRESS] = "at an access whose address depends on a load not committed yet",
		[TI_UNKNOWN_LOCK] = "at a lock operation on an address not known yet",
		[TI_UNKNOWN_BRANCH] = "at a branch on a value not known yet",
	};
	srun *x = ctx;
	x->out->waits = says[what];
	return false;
}

static const ti_policy session_policy = {
	.step = s_step,
	.end = s_end,
	.fail = s_fail,
	.event = s_event,
	.load = s_load,
	.store = s_store,
	.choice = s_choice,
	.either = s_either,
	.unknown = s_unknown,
	.tlbi = false,   /* session_new refuses vmsa tests */
};

void sthread_fetch(const sstate *st, int ti, sthread *old, sthread *out)
{
	const thread *th = &st->t->threads[ti];
	memset(out, 0, sizeof *out);
	/* the session says what stops a thread in words of its own (waits,
	 * error): the interpreter's warnings are not wanted */
	interp_warned warned = { .addr = true, .arith = true, .reg = true, .tlbi = true };
	/* herd's dependencies as the enumerator computes them, for a
	 * catdep model (herd's aarch64.cat) to read */
	ti_ctx c = ti_ctx_of(st->t, ti, st->unroll, &warned, NULL, st->herd_deps);
	ti_state s;
	ti_state_init(&s, &c, true);
	srun x = { &c, &s, old, out, 0 };
	ti_run(&session_policy, &x, &c, &s, 0, false);
	hold_lock_events(out);
	out->has_hd = c.herd_deps;
	size_t nr = (size_t)(th->n_regs > 0 ? th->n_regs : 1);
	out->regs = xmalloc(nr * sizeof *out->regs);
	memcpy(out->regs, s.val, nr * sizeof *out->regs);
	ti_state_free(&s, &c);
	interp_warned_free(&warned);
}
