/* thread_paths.c — run each thread symbolically over its ops, forking at
 * every load (one branch per value the location may hold) and at every
 * store-conditional (success, failure).  See paths.h.  The loop over the
 * ops is ti_run's and what an op does to registers and which events and
 * dependencies it gives is thread_interp.c's, shared with RSMC and the
 * session; the forking (the enumerator's policy) and the value sets are
 * this file's. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "thread_interp.h"
#include "value_eqs.h"
#include "../arch/arch.h"

/* ---- value sets ---------------------------------------------------------- */

bool value_set_has(const value_set *s, value v)
{
	for (int i = 0; i < s->n; i++)
		if (value_eq(s->v[i], v))
			return true;
	return false;
}

bool value_set_add(value_set *s, value v)
{
	if (value_set_has(s, v))
		return false;
	GROW(s->v, s->cap, (size_t)s->n + 1);
	s->v[s->n++] = v;
	return true;
}

/* ---- interpreter state: one partial path ------------------------------------ */

typedef struct istate {
	ti_state r;       /* registers and control (thread_interp.h) */
	int n_ev;
	size_t cap_ev;
	path_event *ev;
	dep_list addr, data, ctrl_edges;
	dep_list hd[XD_N];   /* with ip->c.herd_deps */
	veq_regs vr;         /* what herd's equations see of the registers */
	dep_list vdata;      /* value_eqs.h */
	bool unknown_read;   /* a load returned an unknown value: a path
	                      * run only for the values it stores          */
	int phys;            /* vmsa: the access at this path's pc has been
	                      * translated to this data location; -1 */
	int unknown_access;  /* -variant mixed, speculating: the first op of
	                      * the split access whose first granule returned
	                      * an unknown value (its other granules do too);
	                      * -1 */
} istate;

typedef struct interp {
	ti_ctx c;
	const value_set *vals;   /* values each location may hold         */
	value_set *stored;       /* values stored this round, per location */
	path_set *out;
	long max_path_stores;    /* most store events on one path so far */
	double deadline;         /* see paths_build; 0: none */
	long emitted;
	unsigned long work;      /* ops run and event copies made, and when
	                          * out_of_time next looks at the clock */
	unsigned long next_clock;
	bool timed_out;
	interp_warned warned;
	bool speculate;          /* this thread's loads also return an unknown
	                          * value (see paths_build)                   */
} interp;

static istate *istate_new(const interp *ip)
{
	istate *s = xcalloc(1, sizeof *s);
	s->phys = -1;
	s->unknown_access = -1;
	ti_state_init(&s->r, &ip->c, ip->speculate);
	veq_regs_init(&s->vr, ip->c.th->n_regs);
	return s;
}

static istate *istate_clone(const interp *ip, const istate *s)
{
	istate *c = xcalloc(1, sizeof *c);
	ti_state_copy(&c->r, &s->r, &ip->c);
	c->unknown_read = s->unknown_read;
	c->phys = s->phys;
	c->unknown_access = s->unknown_access;
	if (s->n_ev) {
		GROW(c->ev, c->cap_ev, (size_t)s->n_ev);
		memcpy(c->ev, s->ev, (size_t)s->n_ev * sizeof *c->ev);
	}
	c->n_ev = s->n_ev;
	dep_list_copy_into(&c->addr, &s->addr);
	dep_list_copy_into(&c->data, &s->data);
	dep_list_copy_into(&c->ctrl_edges, &s->ctrl_edges);
	for (int k = 0; k < XD_N; k++)
		dep_list_copy_into(&c->hd[k], &s->hd[k]);
	veq_regs_copy(&c->vr, &s->vr);
	dep_list_copy_into(&c->vdata, &s->vdata);
	return c;
}

static void istate_free(const interp *ip, istate *s)
{
	ti_state_free(&s->r, &ip->c);
	free(s->ev);
	dep_list_free(&s->addr);
	dep_list_free(&s->data);
	dep_list_free(&s->ctrl_edges);
	for (int k = 0; k < XD_N; k++)
		dep_list_free(&s->hd[k]);
	veq_regs_free(&s->vr);
	dep_list_free(&s->vdata);
	free(s);
}

/* Append the event of op o with its dependencies. */
static void push_event(istate *s, const op *o, int op_index, enum event_kind kind, int loc, value val)
{
	GROW(s->ev, s->cap_ev, (size_t)s->n_ev + 1);
	int e = s->n_ev++;
	s->ev[e] = ti_event(&s->r, o, op_index, kind, loc, val);
	ti_deps out = { &s->addr, &s->data, &s->ctrl_edges, NULL };
	ti_record_deps(&s->r, o, e, &out);
	ti_record_herd_deps(&s->r, o, e, kind, loc, s->hd);
}

/* Append an event of op o with no dependency of its own (vmsa's commit
 * and fault: herd relates them to their instruction's read by iico
 * only); returns its index. */
static int push_bare_event(istate *s, const op *o, int op_index, enum event_kind kind, int loc, value val,
                           unsigned flags)
{
	GROW(s->ev, s->cap_ev, (size_t)s->n_ev + 1);
	int e = s->n_ev++;
	s->ev[e] = ti_event(&s->r, o, op_index, kind, loc, val);
	s->ev[e].flags |= flags;
	return e;
}

double paths_clock(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static void emit(interp *ip, istate *s, bool toofar)
{
	if (s->unknown_read)
		return;
	if ((++ip->emitted & 1023) == 0 && ip->deadline > 0 && paths_clock() > ip->deadline)
		ip->timed_out = true;
	if (ip->timed_out)
		return;
	path_set *ps = ip->out;
	GROW(ps->p, ps->cap, (size_t)ps->n + 1);
	thread_path *p = &ps->p[ps->n++];
	memset(p, 0, sizeof *p);
	p->n_ev = s->n_ev;
	p->ev = s->ev;
	s->ev = NULL;
	s->n_ev = 0;
	s->cap_ev = 0;
	p->addr = s->addr;
	p->data = s->data;
	p->ctrl = s->ctrl_edges;
	memset(&s->addr, 0, sizeof s->addr);
	memset(&s->data, 0, sizeof s->data);
	memset(&s->ctrl_edges, 0, sizeof s->ctrl_edges);
	p->has_hd = ip->c.herd_deps;
	for (int k = 0; k < XD_N; k++) {
		p->hd[k] = s->hd[k];
		memset(&s->hd[k], 0, sizeof s->hd[k]);
	}
	int nr = ip->c.th->n_regs > 0 ? ip->c.th->n_regs : 1;
	p->regs = xmalloc((size_t)nr * sizeof *p->regs);
	memcpy(p->regs, s->r.val, (size_t)nr * sizeof *p->regs);
	p->reg_copy = xmalloc((size_t)nr * sizeof *p->reg_copy);
	for (int r = 0; r < nr; r++)
		p->reg_copy[r] = r < s->vr.n ? s->vr.copy[r] : -1;
	p->vdata = s->vdata;
	memset(&s->vdata, 0, sizeof s->vdata);
	veq_take_turns(&s->vr, &p->turns, &p->n_turns);
	p->toofar = toofar;
	long n_stores = 0;
	for (int k = 0; k < p->n_ev; k++)
		n_stores += p->ev[k].kind == EV_WRITE;
	if (n_stores > ip->max_path_stores)
		ip->max_path_stores = n_stores;
}

/* A path waiting to be run: its state and the op it is at. */
typedef struct pending {
	istate *s;
	int pc;
} pending;

/* The paths still to run, depth first: forking pushes the branches in
 * reverse, so they run in the order a recursive walk would take (the
 * first value of a load first, a store-conditional's failure before its
 * success).  An explicit stack: a thread with many loads must not take
 * as many C stack frames. */
typedef struct pending_stack {
	int n;
	size_t cap;
	pending *v;
} pending_stack;

static void push_pending(pending_stack *st, istate *s, int pc)
{
	GROW(st->v, st->cap, (size_t)st->n + 1);
	st->v[st->n].s = s;
	st->v[st->n].pc = pc;
	st->n++;
}

/* How much work (an op run, an event copied into a fork) between two
 * looks at the clock: about a tenth of a millisecond. */
enum { CLOCK_EVERY = 4096 };

/* Is the deadline past?  Looked up every CLOCK_EVERY units of work, so
 * that one long thread, or the forks of a long path, cannot overrun it. */
static bool out_of_time(interp *ip, unsigned long work)
{
	ip->work += work;
	if (!ip->timed_out && ip->deadline > 0 && ip->work >= ip->next_clock) {
		ip->next_clock = ip->work + CLOCK_EVERY;
		if (paths_clock() > ip->deadline)
			ip->timed_out = true;
	}
	return ip->timed_out;
}

/* An error at op o's instruction that drops the paths reaching it, said
 * once (*said). */
static void refuse_once(interp *ip, bool *said, const op *o, const char *why)
{
	if (*said)
		return;
	*said = true;
	const thread *th = ip->c.th;
	srcloc at = o->instr >= 0 && o->instr < th->n_instrs ? th->instrs[o->instr].loc
	                                                      : (srcloc){ ip->c.t->file, 0, 0 };
	diag_error(ip->c.d, at, "%s", why);
}

/* herd's TLBI takes a page, tlb_v, which only `LSR Xd,Xv,#12` of a
 * variable's address gives: anything else drops the path. */
static void tlbi_not_a_page(interp *ip, const op *o)
{
	refuse_once(ip, &ip->warned.tlbi, o, "TLBI's register must hold a page (LSR Xd,Xv,#12 of a variable's "
	            "address): the paths that reach it are dropped");
}

/* An indirect branch (BR, BLR, RET) goes to a label of its own thread
 * that a register holds: weft refuses one to anything else (another
 * thread's code, which herd runs there), and one to a value read from
 * memory, which the enumerator's first paths, with values not known yet,
 * cannot follow. */
static void jump_not_a_label(interp *ip, const op *o)
{
	refuse_once(ip, &ip->warned.jump, o, "an indirect branch (BR, BLR, RET) to another thread's code, or "
	            "to an address read from memory, is not supported");
}

/* vmsa (prog.h): the translation of access o (at pc) to virtual location
 * loc.  One path per value PTE(loc) may hold: the implicit read of the
 * entry, the commit, then either a fault that ends the thread or, back
 * on the stack at pc with s->phys set, the access to the page the entry
 * maps.  An access to a page-table entry itself is not translated; from
 * EL0 it faults (herd's entries of entries deny EL0).  Takes s. */
static void translate(interp *ip, pending_stack *st, istate *s, const op *o, int pc, int loc)
{
	const litmus_test *t = ip->c.t;
	int tix = (int)(ip->c.th - t->threads);
	bool el0 = t->el0 && t->el0[tix];
	bool is_write = o->kind != OP_LOAD;
	int ploc = t->locs[loc].pte;
	if (ploc < 0) {
		/* an access to PTE(v) itself */
		if (el0) {
			push_bare_event(s, o, pc, EV_FAULT, loc, value_int(VMSA_PERMISSION), 0);
			emit(ip, s, false);
			istate_free(ip, s);
			return;
		}
		s->phys = loc;
		push_pending(st, s, pc);
		return;
	}
	const value_set *vs = &ip->vals[ploc];
	if (vs->n == 0 || out_of_time(ip, (unsigned long)vs->n * (unsigned long)s->n_ev)) {
		istate_free(ip, s);
		return;
	}
	veq_use_address(&s->vr, &o->addr, s->ev);
	/* pushed last first: the first value runs first */
	for (int i = vs->n - 1; i >= 0; i--) {
		istate *k = i > 0 ? istate_clone(ip, s) : s;
		value pte = vs->v[i];
		push_event(k, o, pc, EV_READ, ploc, pte);
		k->ev[k->n_ev - 1].flags |= EVF_IMP;
		push_bare_event(k, o, pc, EV_BRANCH, -1, value_int(0), EVF_COMMIT);
		int fault = vmsa_check(pte, is_write, el0);
		if (fault >= 0) {
			push_bare_event(k, o, pc, EV_FAULT, loc, value_int(fault), 0);
			emit(ip, k, false);
			istate_free(ip, k);
			continue;
		}
		k->phys = pte_oa(pte);
		push_pending(st, k, pc);
	}
}

/* vmsa: the location access o (at pc) reaches into *loc; false when s
 * went to translate (forked or ended by a fault): the caller returns. */
static bool at_physical(interp *ip, pending_stack *st, istate *s, const op *o, int pc, int *loc)
{
	if (s->phys >= 0) {
		*loc = s->phys;
		s->phys = -1;
		return true;
	}
	if (!ip->c.t->vmsa)
		return true;
	translate(ip, st, s, o, pc, *loc);
	return false;
}

/* ---- the enumerator's policy for ti_run --------------------------------------- */

/* One run of ti_run: the path s being run, the stack its forks go to. */
typedef struct erun {
	interp *ip;
	pending_stack *st;
	istate *s;
} erun;

static bool e_step(void *ctx, const ti_state *r)
{
	erun *x = ctx;
	/* an event gets a ctrl edge from every load a branch before it
	 * tested: that is the op's cost on a long path */
	if (!out_of_time(x->ip, 1 + (unsigned long)r->ctrl.n))
		return true;
	istate_free(x->ip, x->s);
	return false;
}

static void e_end(void *ctx, bool cut)
{
	erun *x = ctx;
	emit(x->ip, x->s, cut);
	istate_free(x->ip, x->s);
}

/* the path is dropped (thread_interp said why, once) */
static void e_fail(void *ctx, const op *o, enum ti_fail why)
{
	erun *x = ctx;
	if (why == TI_FAIL_PAGE)
		tlbi_not_a_page(x->ip, o);
	if (why == TI_FAIL_JUMP)
		jump_not_a_label(x->ip, o);
	istate_free(x->ip, x->s);
}

static int e_event(void *ctx, const op *o, int pc, enum event_kind kind, int loc, value val)
{
	erun *x = ctx;
	push_event(x->s, o, pc, kind, loc, val);
	return x->s->n_ev - 1;
}

static void e_reads(void *ctx, const op *o)
{
	istate *s = ((erun *)ctx)->s;
	if (o->kind == OP_ALU)
		veq_alu(&s->vr, o, s->ev);
	else if (o->kind == OP_FENCE)
		veq_use_address(&s->vr, &o->addr, s->ev);
	else
		veq_use(&s->vr, &o->a, s->ev);
}

/* Load op o (at pc, of loc) returns a value not known on path s. */
static void load_unknown(istate *s, const op *o, int pc, int loc)
{
	push_event(s, o, pc, EV_READ, loc, value_int(0));
	ti_set_loaded(&s->r, o, s->n_ev - 1, value_int(0), false);
	veq_loaded(&s->vr, o->dst, s->n_ev - 1);
	s->unknown_read = true;
}

/* One path per value loc may hold (and, speculating, one where the value
 * is not known): all go onto the stack. */
static bool e_load(void *ctx, const op *o, int pc, int loc)
{
	erun *x = ctx;
	interp *ip = x->ip;
	pending_stack *st = x->st;
	istate *s = x->s;
	if (!at_physical(ip, st, s, o, pc, &loc))
		return false;
	const value_set *vs = &ip->vals[loc];
	if (vs->n == 0) {
		istate_free(ip, s);
		return false;
	}
	veq_use_address(&s->vr, &o->addr, s->ev);
	if (out_of_time(ip, (unsigned long)(vs->n - 1) * (unsigned long)s->n_ev)) {
		istate_free(ip, s);
		return false;
	}
	/* A split access (-variant mixed) is speculated on as one: its
	 * granules all return an unknown value or all known ones.  A value
	 * joined from known and unknown granules is unknown, as the whole
	 * one is, and forking each granule apart made a thread of byte
	 * granules fork (values + 1)^8 ways per doubleword load (herd's
	 * MP+fence.rw.rw+ctrl-rfi-si-addr+VAR1 took 4.3 s, now 0.01 s). */
	bool later_granule = o->access_size > 0 && o->access_back > 0;
	if (later_granule && s->unknown_access == pc - o->access_back) {
		load_unknown(s, o, pc, loc);
		push_pending(st, s, pc + 1);
		return false;
	}
	if (ip->speculate && !later_granule) {
		/* one more path where the load returns a value not known:
		 * what it stores after a test of that value joins the value
		 * sets (paths_build) */
		istate *k = istate_clone(ip, s);
		load_unknown(k, o, pc, loc);
		if (o->access_size > 0)
			k->unknown_access = pc;
		push_pending(st, k, pc + 1);
	}
	/* the clones are made before s takes the last value */
	int first = st->n;
	for (int i = vs->n - 1; i >= 0; i--)
		push_pending(st, i + 1 < vs->n ? istate_clone(ip, s) : NULL, pc + 1);
	st->v[first].s = s;
	for (int i = 0; i < vs->n; i++) {
		istate *k = st->v[st->n - 1 - i].s;
		push_event(k, o, pc, EV_READ, loc, vs->v[i]);
		ti_set_loaded(&k->r, o, k->n_ev - 1, vs->v[i], true);
		veq_loaded(&k->vr, o->dst, k->n_ev - 1);
	}
	return false;
}

/* A store; a store-conditional without a reservation for loc fails, else
 * it forks: the failing path (no event, flag 0) runs first. */
static bool e_store(void *ctx, const op *o, int pc, int loc, value v, bool known)
{
	erun *x = ctx;
	interp *ip = x->ip;
	istate *s = x->s;
	if (!at_physical(ip, x->st, s, o, pc, &loc))
		return false;
	istate *fail = NULL;
	if (o->kind == OP_STCOND) {
		if (out_of_time(ip, (unsigned long)s->n_ev)) {
			istate_free(ip, s);
			return false;
		}
		bool res_known;
		veq_constant(&s->vr, o->dst);
		if (!ti_stcond_may_succeed(&ip->c, &s->r, o, loc, &res_known)) {
			ti_set_stcond_flag(&s->r, o, -1, value_int(0), true);
			return true;
		}
		fail = istate_clone(ip, s);
		ti_set_stcond_flag(&fail->r, o, -1, value_int(0), true);
	}
	veq_use_address(&s->vr, &o->addr, s->ev);
	push_event(s, o, pc, EV_WRITE, loc, v);
	veq_store(&s->vr, &o->a, s->n_ev - 1, s->ev, &s->vdata);
	if (known)
		value_set_add(&ip->stored[loc], v);
	if (!fail)
		return true;
	ti_set_stcond_flag(&s->r, o, s->n_ev - 1, value_int(1), true);
	push_pending(x->st, s, pc + 1);
	push_pending(x->st, fail, pc + 1);
	return false;
}

/* both alternatives: this path takes 1, a clone (run first) 0 */
static bool e_choice(void *ctx, const op *o, int pc)
{
	erun *x = ctx;
	istate *s = x->s;
	if (out_of_time(x->ip, (unsigned long)s->n_ev)) {
		istate_free(x->ip, s);
		return false;
	}
	veq_constant(&s->vr, o->dst);
	istate *zero = istate_clone(x->ip, s);
	ti_set_stcond_flag(&zero->r, o, -1, value_int(0), true);
	ti_set_stcond_flag(&s->r, o, -1, value_int(1), true);
	veq_turn(&zero->vr, pc, false);
	veq_turn(&s->vr, pc, true);
	push_pending(x->st, s, pc + 1);
	push_pending(x->st, zero, pc + 1);
	return false;
}

/* one path each way, the fall-through first */
static bool e_either(void *ctx, const op *o, int *pc)
{
	erun *x = ctx;
	if (out_of_time(x->ip, (unsigned long)x->s->n_ev)) {
		istate_free(x->ip, x->s);
		return false;
	}
	push_pending(x->st, istate_clone(x->ip, x->s), o->target);
	push_pending(x->st, x->s, *pc + 1);
	return false;
}

/* Only speculation has unknown values: a path whose access address is
 * unknown is dropped, a lock's is fetched unknown, a branch goes both
 * ways (e_fork_taken). */
static bool e_unknown(void *ctx, const op *o, enum ti_unknown what)
{
	(void)o;
	erun *x = ctx;
	if (what != TI_UNKNOWN_ADDRESS)
		return true;
	istate_free(x->ip, x->s);
	return false;
}

static bool e_fork_taken(void *ctx, const op *o, int pc)
{
	erun *x = ctx;
	interp *ip = x->ip;
	if (out_of_time(ip, (unsigned long)x->s->n_ev)) {
		istate_free(ip, x->s);
		return false;
	}
	istate *other = istate_clone(ip, x->s);
	veq_turn(&other->vr, pc, true);
	if (ti_branch_follow(&ip->c, &other->r, o, ti_branch_value(o->cond, true), &pc))
		push_pending(x->st, other, pc);
	else
		istate_free(ip, other);
	return true;
}

/* the path records the way its branch went (value_eqs.h: veq_turn) */
static void e_turn(void *ctx, const op *o, int pc, bool taken)
{
	(void)o;
	erun *x = ctx;
	veq_turn(&x->s->vr, pc, taken);
}

static const ti_policy enumerate_policy = {
	.step = e_step,
	.end = e_end,
	.fail = e_fail,
	.event = e_event,
	.reads = e_reads,
	.load = e_load,
	.store = e_store,
	.choice = e_choice,
	.either = e_either,
	.unknown = e_unknown,
	.fork_taken = e_fork_taken,
	.turn = e_turn,
	.tlbi = true,
};

/* Run state s from op pc until it ends, is cut or forks (its forks go onto
 * the stack).  Takes ownership of s. */
static void run_path(interp *ip, pending_stack *st, istate *s, int pc)
{
	erun x = { ip, st, s };
	/* a translated access goes on in its instruction's instance */
	ti_run(&enumerate_policy, &x, &ip->c, &s->r, pc, s->phys >= 0);
}

/* Every path of the current thread, from its first op. */
static void explore(interp *ip)
{
	pending_stack st = { 0 };
	push_pending(&st, istate_new(ip), 0);
	while (st.n > 0) {
		pending p = st.v[--st.n];
		if (ip->timed_out)
			istate_free(ip, p.s);
		else
			run_path(ip, &st, p.s, p.pc);
	}
	free(st.v);
}

/* ---- the fixpoint -------------------------------------------------------- */

static void path_free(thread_path *p)
{
	free(p->ev);
	free(p->addr.e);
	free(p->data.e);
	free(p->ctrl.e);
	for (int k = 0; k < XD_N; k++)
		free(p->hd[k].e);
	free(p->regs);
	free(p->reg_copy);
	free(p->vdata.e);
	free(p->turns);
}

static void path_set_clear(path_set *ps)
{
	for (int i = 0; i < ps->n; i++)
		path_free(&ps->p[i]);
	ps->n = 0;
}

void paths_keep(path_set *ps, bool (*keep)(void *ctx, const thread_path *p), void *ctx)
{
	int n = 0;
	for (int i = 0; i < ps->n; i++) {
		if (keep(ctx, &ps->p[i]))
			ps->p[n++] = ps->p[i];
		else
			path_free(&ps->p[i]);
	}
	ps->n = n;
}

void paths_free(const litmus_test *t, path_set *paths)
{
	if (!paths)
		return;
	for (int i = 0; i < t->n_threads; i++) {
		path_set_clear(&paths[i]);
		free(paths[i].p);
	}
	free(paths);
}

/* An upper bound on the store events of one execution: a thread without
 * backward jumps runs each op at most once; each backward jump (at most
 * `unroll` per target) runs each op at most once more. */
static long max_stores_per_execution(const litmus_test *t, int unroll)
{
	long total = 0;
	for (int i = 0; i < t->n_threads; i++) {
		const thread *th = &t->threads[i];
		long stores = 0, back_targets = 0;
		for (int k = 0; k < th->n_ops; k++) {
			const op *o = &th->ops[k];
			if (o->kind == OP_STORE || o->kind == OP_STCOND)
				stores++;
			if (o->kind == OP_BRANCH && o->target <= k)
				back_targets++;
		}
		total += stores * (1 + (long)unroll * back_targets);
	}
	return total;
}

/* The value sets grow round by round: round r sees every value that a
 * chain of r-1 stores can produce (each store computing its value from a
 * value read, produced by the previous store of the chain).  In one
 * execution a chain uses each store event at most once, so after
 * max_stores_per_execution + 1 rounds every value an execution can read
 * is there, even when the sets keep growing (a counter incremented by
 * several threads: the extra values never find a matching write).  A loop
 * on known values (no unroll limit) may store more often than the static
 * bound says: the longest paths seen raise it. */
void value_sets_free(const litmus_test *t, value_set *vals)
{
	if (!vals)
		return;
	for (int l = 0; l < t->n_locs; l++)
		free(vals[l].v);
	free(vals);
}

/* Whether a thread tests a value: only then can a load's value decide
 * what the thread stores. */
static bool tests_values(const thread *th)
{
	for (int k = 0; k < th->n_ops; k++) {
		const op *o = &th->ops[k];
		if (o->kind == OP_BRANCH && o->cond != BR_ALWAYS && o->cond != BR_EITHER && !(o->flags & ACC_SILENT))
			return true;
	}
	return false;
}

bool paths_build(const litmus_test *t, int unroll, double deadline, bool speculate, path_set **paths_out,
                 long *rounds, bool *timed_out, value_set **vals_out, diag *d)
{
	int nl = t->n_locs;
	value_set *vals = xcalloc((size_t)nl + 1, sizeof *vals);
	value_set *stored = xcalloc((size_t)nl + 1, sizeof *stored);
	path_set *paths = xcalloc((size_t)t->n_threads + 1, sizeof *paths);
	for (int l = 0; l < nl; l++)
		value_set_add(&vals[l], t->locs[l].init);
	long enough = max_stores_per_execution(t, unroll) + 1;
	interp ip = { 0 };
	ip.c = ti_ctx_of(t, -1, unroll, &ip.warned, d, true);
	ip.vals = vals;
	ip.stored = stored;
	ip.deadline = deadline;
	bool complete = false;
	long round = 0;
	for (;;) {
		round++;
		for (int l = 0; l < nl; l++)
			stored[l].n = 0;
		long observed = 0;   /* loops on known values may exceed the bound */
		for (int i = 0; i < t->n_threads; i++) {
			path_set_clear(&paths[i]);
			ip.c.th = &t->threads[i];
			ip.speculate = speculate && tests_values(ip.c.th);
			ip.out = &paths[i];
			ip.max_path_stores = 0;
			ip.warned.addr_dropped = (srcloc){ NULL, 0, 0 };
			explore(&ip);
			paths[i].addr_dropped = ip.warned.addr_dropped;
			observed += ip.max_path_stores;
		}
		if (ip.timed_out)
			break;
		if (observed + 1 > enough)
			enough = observed + 1;
		bool changed = false;
		for (int l = 0; l < nl; l++)
			for (int k = 0; k < stored[l].n; k++)
				if (value_set_add(&vals[l], stored[l].v[k]))
					changed = true;
		if (!changed || round >= enough) {
			complete = true;
			break;
		}
		if (round >= PATHS_MAX_VALUE_ROUNDS)
			break;
	}
	*timed_out = ip.timed_out;
	if (!complete && !ip.timed_out) {
		srcloc at = { t->file, 0, 0 };
		diag_warning(d, at, "the values memory may hold keep growing after %ld rounds; "
		             "some executions may be missing", round);
	}
	for (int l = 0; l < nl; l++)
		free(stored[l].v);
	free(stored);
	if (t->ifetch && complete)
		paths_check_fetches(t, vals, d);
	if (vals_out)
		*vals_out = vals;
	else
		value_sets_free(t, vals);
	interp_warned_free(&ip.warned);
	*paths_out = paths;
	*rounds = round;
	return complete;
}
