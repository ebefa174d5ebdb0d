/* thread_interp.h — (private to src/engine, and src/session's one way in)
 * the one thread interpreter: ti_run (thread_run.c) runs a thread's ops
 * for the enumerator (thread_paths.c, which forks at every load, one path
 * per value), RSMC (rsmc_thread.c, which replays the decisions committed
 * so far and stops at a branch on a value not yet known) and the session
 * (sstate_thread.c, as RSMC's, its events then committed by hand), each
 * deciding what differs through its policy (ti_policy, below).  Under it,
 * how an op reads its operands, how values, taints and "determined" flags
 * flow through registers, which dependencies an event gets and how an
 * event is described are defined once, here, so that all three compute
 * the same events, registers and dependencies for the same path.
 *
 * Dependencies are found by taint tracking: a register carries the set of
 * loads (fetch/event indices) its value was computed from.  An access
 * whose address uses a tainted register gets addr edges, a store whose
 * data is tainted gets data edges, and every event after a conditional
 * branch on a tainted register gets ctrl edges from those loads.
 *
 * RSMC and the session have values that are not known yet (loads not
 * committed, store-conditionals whose outcome is not committed); a second
 * taint, "xtaint", carries the store-conditionals whose unknown outcome a
 * value depends on, for its xdep edges.  The enumerator knows every value
 * (but for its speculation, paths_build), so its state leaves both out
 * (known == NULL). */
#ifndef WEFT_ENGINE_THREAD_INTERP_H
#define WEFT_ENGINE_THREAD_INTERP_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"

/* A small sorted set of event indices (a taint). */
typedef struct idxset {
	int n;
	size_t cap;
	int *v;
} idxset;

/* Set operations, shared with value_eqs.c. */
static inline void idxset_free(idxset *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

static inline void idxset_copy_into(idxset *dst, const idxset *src)
{
	memset(dst, 0, sizeof *dst);
	if (src->n) {
		GROW(dst->v, dst->cap, (size_t)src->n);
		memcpy(dst->v, src->v, (size_t)src->n * sizeof *dst->v);
		dst->n = src->n;
	}
}

/* dst := src, dst keeping its buffer */
static inline void idxset_assign(idxset *dst, const idxset *src)
{
	if (src->n) {
		GROW(dst->v, dst->cap, (size_t)src->n);
		memcpy(dst->v, src->v, (size_t)src->n * sizeof *dst->v);
	}
	dst->n = src->n;
}

static inline void idxset_set1(idxset *s, int x)
{
	GROW(s->v, s->cap, 1);
	s->v[0] = x;
	s->n = 1;
}

/* dst := a | b; dst may be a or b */
static inline void idxset_union(idxset *dst, const idxset *a, const idxset *b)
{
	idxset u = { 0 };
	GROW(u.v, u.cap, (size_t)(a->n + b->n) + 1);
	int i = 0, j = 0;
	while (i < a->n || j < b->n) {
		if (j >= b->n || (i < a->n && a->v[i] < b->v[j]))
			u.v[u.n++] = a->v[i++];
		else if (i >= a->n || b->v[j] < a->v[i])
			u.v[u.n++] = b->v[j++];
		else {
			u.v[u.n++] = a->v[i++];
			j++;
		}
	}
	idxset_free(dst);
	*dst = u;
}

/* Warnings are given once per run of an engine.  addr_dropped: where a
 * path was first dropped because an address computed from values read
 * from memory is no location (herd drops such candidates); file NULL
 * when none was. */
typedef struct interp_warned {
	bool addr, arith, reg, tlbi, jump;
	srcloc addr_dropped;
	int *access_size;   /* per location, the size of the first access
	                     * met, 0 for none (herd's check that a test not
	                     * run as mixed-size reaches each location with
	                     * one size); allocated by that access, freed by
	                     * interp_warned_free */
} interp_warned;

void interp_warned_free(interp_warned *w);

/* herd's catdep dependencies along a path (herd_deps.c). */
typedef struct herd_taint herd_taint;

/* What stays the same while one thread runs. */
typedef struct ti_ctx {
	const litmus_test *t;
	const thread *th;
	int unroll;             /* herd's unroll limit of backward jumps */
	interp_warned *warned;
	diag *d;
	bool herd_deps;         /* also track herd's catdep dependencies
	                         * (exec.h, enum herd_dep): the enumerator,
	                         * for an architecture that asks */
	const bool *uncounted;  /* NULL, or per op: a backward jump from it
	                         * is not counted against unroll (the await
	                         * engine's await loops, whose iterations
	                         * that go round again it drops) */
} ti_ctx;

/* The interpreter state along one path: registers and control. */
typedef struct ti_state {
	value *val;      /* register values */
	bool *known;     /* NULL: every value known (the enumerator) */
	idxset *taint;   /* loads each register depends on */
	bool *var;       /* per register: its value is one of herd's variables
	                  * (it comes from a load, a store-conditional's or a
	                  * choice's outcome), not computed from constants */
	idxset *xtaint;  /* NULL with known: store-conditionals of unknown
	                  * outcome each register depends on */
	idxset ctrl;     /* loads that earlier conditional branches tested */
	int n_scopes;    /* C's ifs open on this path (ACC_CTRL_SCOPE) ... */
	size_t cap_scopes;
	idxset *scopes;  /* ... and ctrl as it was before each */
	idxset xctrl;    /* store-conditionals they tested (xtaint only) */
	int *visits;     /* per op index: backward jumps taken to it */
	int instance;    /* executed instructions so far (the current one's
	                  * number) */
	herd_taint *hd;  /* NULL unless ti_ctx.herd_deps */
} ti_state;

/* Where the dependencies of a thread's events go; xdep NULL without
 * xtaint. */
typedef struct ti_deps {
	dep_list *addr, *data, *ctrl, *xdep;
} ti_deps;

/* An address that reads a register whose value is not known yet (RSMC). */
#define TI_LOC_UNKNOWN (-2)

/* The context of thread ti of t (ti < 0: none yet, the caller sets th per
 * thread): what every engine and the session give the interpreter, said
 * once.  herd_deps asks for herd's catdep dependencies, which only the
 * architectures that ask for them (arch.herd_deps) get. */
ti_ctx ti_ctx_of(const litmus_test *t, int ti, int unroll, interp_warned *warned, diag *d, bool herd_deps);

/* A fresh state at the thread's first op: registers at their initial
 * values, known.  `unknowns`: track unknown values and
 * xtaint (RSMC). */
void ti_state_init(ti_state *s, const ti_ctx *c, bool unknowns);
/* dst := an independent copy of src (the enumerator forks a path);
 * whatever dst held is overwritten, not freed. */
void ti_state_copy(ti_state *dst, const ti_state *src, const ti_ctx *c);
void ti_state_free(ti_state *s, const ti_ctx *c);

/* Start executing op pc: count the instruction instance. */
void ti_begin_op(const ti_ctx *c, ti_state *s, int pc);

/* Read operand x of op o; *known (may be NULL when the state tracks no
 * unknowns) tells whether the value is known.  False (warned once) for a
 * register the thread does not have: the path is dropped. */
bool ti_operand(const ti_ctx *c, const ti_state *s, const op *o, const operand *x, value *v, bool *known);

/* The location of fence op o's event into *loc: -1 unless o has one
 * (ACC_LOCATED: C's lock events), TI_LOC_UNKNOWN when its address is
 * not known yet (RSMC).  False (said once) drops the path. */
bool ti_fence_loc(const ti_ctx *c, const ti_state *s, const op *o, int *loc);

/* Run an ALU op.  False (warned once): the path is dropped. */
bool ti_alu(const ti_ctx *c, ti_state *s, const op *o);

/* Read the operands of an access (load, store, store-conditional): the
 * location into *loc (TI_LOC_UNKNOWN when its address is not known yet),
 * for stores the data into *v and *kv (whether known).  Also checks the
 * destination register of loads and store-conditionals.  False (said once
 * per run) drops the path: an address that is not exactly a location's is
 * an error (herd rejects such a test), the rest warnings. */
bool ti_access(const ti_ctx *c, const ti_state *s, const op *o, int *loc, value *v, bool *kv);

/* The event that op o (index op_index) fetches: kind, instruction and
 * instance; for an access its location loc (-1 when TI_LOC_UNKNOWN),
 * value val and flags; for a fence its name.  What the engine decides (a
 * load's value in RSMC, commits) it adds itself. */
path_event ti_event(const ti_state *s, const op *o, int op_index, enum event_kind kind, int loc, value val);

/* Record the dependencies of event e fetched by op o: ctrl from the loads
 * earlier branches tested, and for an access addr from its address
 * registers and (stores) data from its data register. */
void ti_record_deps(const ti_state *s, const op *o, int e, const ti_deps *out);

/* A load (event e) sets its destination register to the value read, if
 * known (RSMC: not yet committed when not). */
void ti_set_loaded(ti_state *s, const op *o, int e, value v, bool known);
/* A store-conditional (event e, -1 for a failing one without an event)
 * sets its destination register to its success flag; with known false
 * (RSMC, outcome not committed) the flag depends on e's outcome. */
void ti_set_stcond_flag(ti_state *s, const op *o, int e, value flag, bool known);
/* Whether store-conditional o, writing location loc, may succeed: its
 * reservation operand (o->b, see prog.h) must hold loc's address.  True
 * when it has none, or (*known = false) when that value is not known yet. */
bool ti_stcond_may_succeed(const ti_ctx *c, const ti_state *s, const op *o, int loc, bool *known);

/* After a branch op (its event fetched if conditional, v the tested
 * value): the loads it tested now control everything after it; set *pc to
 * the next op.  False when the unroll limit cuts the path there: as in
 * herd (which, for PPC and x86, never knows a register's value while it
 * builds a thread's events), every backward jump taken counts one visit of
 * its target, whatever decides its condition, and the visit beyond
 * `unroll` cuts the path.  So every path is finite. */
bool ti_branch_follow(const ti_ctx *c, ti_state *s, const op *o, value v, int *pc);
/* The op a BR_INDIRECT branch holding v goes to, or -1 when v is no code
 * place of c's thread (prog.h's BR_INDIRECT). */
int ti_indirect_target(const ti_ctx *c, value v);

/* ---- the one loop over a thread's ops (thread_run.c) ----------------------

 * ti_run runs a thread's ops for every engine and the session: the
 * dispatch on the op kind, the step before each op, ALU ops, reading an
 * access's operands, fences, TLBI, branches and the unroll limit are its
 * own.  Where the three differ, it asks a policy (ti_policy), a small
 * struct of functions the engine fills once:
 *
 *                    enumerator          rsmc              session
 *   load             forks, one path     replays the       replays the
 *                    per value (vmsa:    committed value   committed value
 *                    translates first)   (unknown if not)  (unknown if not)
 *   store, store-    fails when no       replays the       waits while the
 *   conditional      reservation, else   committed outcome reservation is
 *                    forks fail/succeed  (reserved ones    not known; replays
 *                                        go to enumerate)  the outcome
 *   choice           forks 1 and 0       error (handed     a pseudo-event,
 *                                        over)             waits for 1 or 0
 *   BR_EITHER        forks               the fall-through  error
 *                                        (handed over)
 *   unknown access   drops the path      fetches it with   waits
 *   address          (speculation)       loc unknown
 *   unknown lock     fetches it          waits             waits
 *   address
 *   unknown branch   forks both ways     waits             waits
 *                    after its event
 *   TLBI             its event           error             error
 *   step             deadline (work      deadline every    at most SESSION_MAX_STEPS
 *                    units)              4096 ops          ops
 *   end, cut, fail   emit / drop         status            done, cut, error
 *
 * pop (src/engine/pop/pop_thread.c) runs a thread from its start for each
 * step it asks of it: a load replays the value its step read, the probed
 * one reads the latest write; a store replays, or is the probed step (an
 * atomic store paired with the atomic read before it joins that read's
 * step); a store-conditional and TLBI are refused before it runs; a choice
 * and BR_EITHER replay the way taken, or take the way asked; nothing is
 * ever unknown; step: deadline every 4096 ops; end, cut, fail: the
 * thread's end, its cut, its dropped path.
 *
 * An unknown value is only ever seen by rsmc, the session and the
 * enumerator's speculation (paths_build); an ifetch fetch is a load with
 * ACC_IFETCH, and its commit an unconditional branch with ACC_COMMIT, whose
 * event ti_run fetches (rsmc and the session refuse ifetch tests).
 *
 * Every hook that returns bool returns true to go on and false when the
 * run is over: the hook has then done what ends it (freed or handed over
 * the path, recorded a status).  ctx is the engine's own. */

/* Why a run cannot go on: what thread_interp warned of, or what an engine
 * does not run. */
enum ti_fail {
	TI_FAIL_ALU,       /* arithmetic on an address, division by zero,
	                    * or a register the thread does not have */
	TI_FAIL_ACCESS,    /* an address that is not a location's, or a
	                    * register the thread does not have */
	TI_FAIL_LOCK,      /* a located fence's address is not a location */
	TI_FAIL_REGISTER,  /* a branch tests a register the thread lacks */
	TI_FAIL_PAGE,      /* TLBI's register does not hold a page */
	TI_FAIL_TLBI,      /* TLBI where the policy runs no vmsa */
	TI_FAIL_DROP,      /* an ACC_DROP branch taken: herd has no such
	                    * execution (the enumerator drops the path) */
	TI_FAIL_JUMP,      /* a BR_INDIRECT branch to a value that is no
	                    * code place of its thread, or not known */
};

/* What a run meets that is not known yet. */
enum ti_unknown {
	TI_UNKNOWN_ADDRESS,   /* an access's address */
	TI_UNKNOWN_LOCK,      /* a located fence's address */
	TI_UNKNOWN_BRANCH,    /* a conditional branch's tested value */
};

typedef struct ti_policy {
	/* before each op (pc in range): false stops (deadline, step limit) */
	bool (*step)(void *ctx, const ti_state *s);
	/* the thread ran off its code, or (cut) the unroll limit cut it */
	void (*end)(void *ctx, bool cut);
	/* op o cannot run: the run is over */
	void (*fail)(void *ctx, const op *o, enum ti_fail why);
	/* append the event of op o at index pc with its dependencies, for a
	 * fence, a TLBI or a branch (which rsmc and the session commit at
	 * once); returns its index */
	int (*event)(void *ctx, const op *o, int pc, enum event_kind kind, int loc, value val);
	/* NULL or: op o (an ALU op, a located fence, a tested branch) is
	 * about to read its operands (the enumerator's value equations) */
	void (*reads)(void *ctx, const op *o);
	/* a load of loc (TI_LOC_UNKNOWN if unknown_address went on) */
	bool (*load)(void *ctx, const op *o, int pc, int loc);
	/* a store or a store-conditional of v (known: whether v is) to loc */
	bool (*store)(void *ctx, const op *o, int pc, int loc, value v, bool known);
	/* OP_CHOICE: set o's register to 1 or 0, or stop */
	bool (*choice)(void *ctx, const op *o, int pc);
	/* a BR_EITHER branch: *pc the next op to run, or stop */
	bool (*either)(void *ctx, const op *o, int *pc);
	/* something not known yet: true goes on with it unknown */
	bool (*unknown)(void *ctx, const op *o, enum ti_unknown what);
	/* after a branch on an unknown value went on (its event fetched):
	 * start the path where it is taken; the caller goes on where not.
	 * NULL when unknown stops at every branch */
	bool (*fork_taken)(void *ctx, const op *o, int pc);
	/* NULL or: the tested branch o (at pc, not BR_EITHER) goes this
	 * way (taken: to its target), when it is known */
	void (*turn)(void *ctx, const op *o, int pc, bool taken);
	bool tlbi;   /* TLBI runs (vmsa), else fails with TI_FAIL_TLBI */
} ti_policy;

/* Run s from op pc to its end or until a hook stops it.  same_instance:
 * op pc goes on in the instruction instance it started (the
 * enumerator's vmsa translation comes back to its access). */
void ti_run(const ti_policy *p, void *ctx, const ti_ctx *c, ti_state *s, int pc, bool same_instance);

/* A value for which a branch of condition cond is taken, or not. */
value ti_branch_value(enum branch_cond cond, bool taken);

/* herd's catdep dependencies (herd_deps.c): each event fetched adds its
 * edges of every relation of enum herd_dep to out[0..XD_N-1].  The
 * register flow is kept by ti_alu, ti_set_loaded, ti_set_stcond_flag and
 * ti_branch_follow themselves. */
void ti_record_herd_deps(ti_state *s, const op *o, int e, enum event_kind kind, int loc, dep_list *out);

herd_taint *herd_taint_new(int n_regs, int n_locs);
herd_taint *herd_taint_copy(const herd_taint *h);
void herd_taint_free(herd_taint *h);
void herd_taint_new_instance(herd_taint *h);
void herd_taint_alu(herd_taint *h, const op *o);
void herd_taint_loaded(herd_taint *h, const op *o, int e);
void herd_taint_clear_reg(herd_taint *h, int d);
void herd_taint_branch(herd_taint *h, const op *o);
void herd_taint_event(herd_taint *h, const op *o, int e, enum event_kind kind, int loc, dep_list *out);

/* Dependency lists.  Copy and free are inline: RSMC copies every
 * thread's lists with each state it tries (rsmc_state_copy). */
/* Add the edge from -> to unless it is there; a list gets its edges
 * grouped by `to`, in fetch order (ti_record_deps). */
void dep_list_add(dep_list *l, int from, int to);

/* dst := src, reusing dst's buffer. */
static inline void dep_list_copy_into(dep_list *dst, const dep_list *src)
{
	if (src->n) {
		GROW(dst->e, dst->cap, (size_t)src->n);
		memcpy(dst->e, src->e, (size_t)src->n * sizeof *dst->e);
	}
	dst->n = src->n;
}

static inline void dep_list_free(dep_list *l)
{
	free(l->e);
	l->e = NULL;
	l->n = 0;
	l->cap = 0;
}

#endif
