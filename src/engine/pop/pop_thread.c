/* pop_thread.c — pop's policy for the thread interpreter (ti_run,
 * thread_interp.h): run a thread from its first op, replaying what its
 * earlier steps read and chose, and stop once its next step is known.
 *
 * A step begins at a load, a store or a choice (OP_CHOICE, BR_EITHER, a
 * store-conditional that may store: way 0 stores, its write the step
 * after).  An atomic read opens a read-modify-write: the atomic write of
 * its location that comes next, before any other access, belongs to the
 * same step (herd's rmw pairs them; sc.cat's atomicity asks that no write
 * of another thread come between, which one step gives).  On an assembly
 * architecture only a single-event AMO's halves (ACC_FUSED, one instance)
 * pair so; pop_engine.c refuses the other instructions with two accesses.
 * A pair further apart (a load-reserve and its store-conditional) is two
 * steps, which pop_explore.c checks when the execution is complete.
 *
 * The step probed runs on past its own access only to see whether a paired
 * write follows (and past a failing store-conditional, for a watcher: the
 * await engine sees where the branch after it goes); the thread stops
 * when the step after it begins.  A
 * thread has every value it needs (a read of the probed step takes the
 * latest write), so nothing is ever unknown. */
#include <stdlib.h>
#include <string.h>

#include "pop.h"
#include "../../arch/arch.h"

typedef struct prun {
	pop_run_ctx *rc;
	ti_ctx c;
	ti_state s;
	const pop_dec *dec;
	int n_dec;              /* steps replayed; the next is probed       */
	const value *mem;
	int alt;                /* the way the probed step takes if a choice */
	int k;                  /* steps begun                              */
	int n_events;           /* event numbers for the taints             */
	int open_loc;           /* an atomic read's location, until the next
	                         * access: its write joins its step; -1     */
	int open_instance;
	bool c_rmw;             /* C: an atomic read pairs with the next
	                         * atomic write of its location            */
	long ops;
	pop_step *out;
	value *regs;
	const pop_watch *w;     /* NULL, or what watches the run            */
} prun;

static bool probing(const prun *r)
{
	return r->k == r->n_dec + 1;
}

/* A new step begins at op pc: false (stop) when it is the one after the
 * probe. */
static bool begin_step(prun *r, int pc)
{
	if (probing(r))
		return false;
	if (r->w && r->w->begin)
		r->w->begin(r->w->ctx, pc, r->k);
	r->k++;
	r->open_loc = -1;
	return true;
}

static void ended(prun *r, enum pop_end how)
{
	if (r->k > r->n_dec)
		return;   /* the probed step came first: its end is next time */
	r->out->kind = PK_END;
	r->out->end = how;
	if (r->regs && r->c.th->n_regs > 0)
		memcpy(r->regs, r->s.val, (size_t)r->c.th->n_regs * sizeof *r->regs);
}

static bool p_step(void *ctx, const ti_state *s)
{
	(void)s;
	prun *r = ctx;
	if (r->w && r->w->stop && r->w->stop(r->w->ctx))
		return false;
	if ((++r->ops & 4095) == 0 && r->rc->deadline > 0 && paths_clock() > r->rc->deadline) {
		r->rc->timed_out = true;
		ended(r, PE_ERROR);
		return false;
	}
	return true;
}

static void p_end(void *ctx, bool cut)
{
	ended(ctx, cut ? PE_CUT : PE_DONE);
}

/* what ti_access and the like warned of drops the path, as the enumerator
 * drops it; what they reported as an error is in the diag's count */
static void p_fail(void *ctx, const op *o, enum ti_fail why)
{
	(void)o, (void)why;
	ended(ctx, PE_DROPPED);
}

static int p_event(void *ctx, const op *o, int pc, enum event_kind kind, int loc, value val)
{
	(void)o, (void)pc, (void)kind, (void)loc, (void)val;
	prun *r = ctx;
	return r->n_events++;
}

static bool p_load(void *ctx, const op *o, int pc, int loc)
{
	prun *r = ctx;
	if (!begin_step(r, pc))
		return false;
	int i = r->k - 1;
	value v = i < r->n_dec ? r->dec[i].rval : r->mem[loc];
	if (probing(r)) {
		r->out->kind = PK_READ;
		r->out->loc = loc;
		r->out->rval = v;
		r->out->atomic = (o->flags & (ACC_ATOMIC | ACC_EXCL)) != 0;
	}
	ti_set_loaded(&r->s, o, r->n_events++, v, true);
	if ((r->c_rmw && (o->flags & ACC_ATOMIC)) || (o->flags & ACC_FUSED)) {
		r->open_loc = loc;
		r->open_instance = r->s.instance;
	}
	return true;
}

static bool pairs_with_open_read(const prun *r, const op *o, int loc)
{
	if (r->open_loc != loc || !(o->flags & ACC_ATOMIC))
		return false;
	if (o->flags & ACC_FUSED)
		return r->s.instance == r->open_instance;
	return r->c_rmw;
}

/* the way of the step: replayed, or the one asked for */
static int choice_way(prun *r)
{
	int i = r->k - 1;
	int a = i < r->n_dec ? r->dec[i].alt : r->alt;
	if (probing(r)) {
		r->out->kind = PK_CHOICE;
		r->out->alt = a;
		r->out->loc = -1;
	}
	return a;
}

/* A store-conditional that may store is a choice, way 0 storing (its
 * write the next step), way 1 failing; one without its reservation fails
 * (the enumerator's rule) and is no step.  False: the run stops. */
static bool stcond_way(prun *r, const op *o, int pc, int loc, bool *stores)
{
	bool known;
	*stores = false;
	if (!ti_stcond_may_succeed(&r->c, &r->s, o, loc, &known)) {
		ti_set_stcond_flag(&r->s, o, -1, value_int(0), true);
		return true;
	}
	if (!begin_step(r, pc))
		return false;
	if (probing(r))
		r->out->stcond = true;
	if (choice_way(r) != 0) {
		/* failing: on to the next step (a watcher sees where it goes) */
		ti_set_stcond_flag(&r->s, o, -1, value_int(0), true);
		return true;
	}
	if (probing(r))
		return false;   /* way 0 is the step probed: its write is next */
	*stores = true;
	return true;
}

static bool p_store(void *ctx, const op *o, int pc, int loc, value v, bool known)
{
	(void)known;
	prun *r = ctx;
	if (o->kind == OP_STCOND) {
		bool stores;
		if (!stcond_way(r, o, pc, loc, &stores))
			return false;
		if (!stores)
			return true;
	} else if (pairs_with_open_read(r, o, loc)) {
		if (probing(r)) {
			r->out->kind = PK_RMW;
			r->out->wval = v;
			r->out->atomic = true;
		}
		r->open_loc = -1;
		return true;
	}
	if (!begin_step(r, pc))
		return false;
	if (probing(r)) {
		r->out->kind = PK_WRITE;
		r->out->loc = loc;
		r->out->wval = v;
		r->out->atomic = (o->flags & (ACC_ATOMIC | ACC_EXCL)) != 0;
	}
	if (o->kind == OP_STCOND)
		ti_set_stcond_flag(&r->s, o, r->n_events++, value_int(1), true);
	return true;
}

static bool p_choice(void *ctx, const op *o, int pc)
{
	prun *r = ctx;
	if (!begin_step(r, pc))
		return false;
	ti_set_stcond_flag(&r->s, o, -1, value_int(choice_way(r) ? 0 : 1), true);
	return true;
}

/* way 0 falls through, way 1 jumps (the enumerator's order) */
static bool p_either(void *ctx, const op *o, int *pc)
{
	prun *r = ctx;
	if (!begin_step(r, *pc))
		return false;
	*pc = choice_way(r) ? o->target : *pc + 1;
	return true;
}

/* every value is known: never called */
static bool p_unknown(void *ctx, const op *o, enum ti_unknown what)
{
	(void)o, (void)what;
	ended(ctx, PE_ERROR);
	return false;
}

static void p_turn(void *ctx, const op *o, int pc, bool taken)
{
	(void)o;
	prun *r = ctx;
	if (r->w && r->w->turn)
		r->w->turn(r->w->ctx, pc, taken, r->k);
}

static const ti_policy pop_policy = {
	.step = p_step,
	.end = p_end,
	.fail = p_fail,
	.event = p_event,
	.load = p_load,
	.store = p_store,
	.choice = p_choice,
	.either = p_either,
	.unknown = p_unknown,
	.turn = p_turn,
	.tlbi = false,   /* pop_engine.c refuses vmsa tests */
};

void pop_thread_step(pop_run_ctx *rc, int ti, const pop_dec *dec, int n, const value *mem, int alt,
                     pop_step *out, value *regs, const pop_watch *w)
{
	const litmus_test *t = rc->t;
	prun r = { 0 };
	r.rc = rc;
	r.c = ti_ctx_of(t, ti, rc->unroll, &rc->warned, rc->d, false);
	r.dec = dec;
	r.n_dec = n;
	r.mem = mem;
	r.alt = alt;
	r.open_loc = -1;
	r.c_rmw = t->arch && t->arch->po_within_instruction;
	r.out = out;
	r.regs = regs;
	r.w = w;
	r.c.uncounted = w ? w->uncounted : NULL;
	memset(out, 0, sizeof *out);
	out->kind = PK_END;
	out->end = PE_ERROR;
	out->loc = -1;
	ti_state_init(&r.s, &r.c, false);
	ti_run(&pop_policy, &r, &r.c, &r.s, 0, false);
	ti_state_free(&r.s, &r.c);
}
