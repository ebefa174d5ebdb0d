/* rsmc.h — (private to src/engine) the RSMC engine of Abdulla, Atig,
 * Jonsson and Leonardsson (CAV 2016), see ../shared/docs/RSMC.md.
 *
 * A state is a partly built execution: per thread, the events fetched so
 * far along the control path the committed events decide, and among them
 * the committed ones with their parameters (a load: the write it reads
 * from; a store: its place in coherence; a store-conditional: failure or
 * its place).  Threads are re-interpreted from their first op whenever one
 * of their loads or store-conditionals commits (rsmc_thread.c), so the
 * registers, addresses, dependencies and the fetched events are always
 * those the thread interpreter of the enumerator (thread_paths.c) would
 * compute on the same path: same events, same po/addr/data/ctrl/rmw (both
 * are built on thread_interp.h).
 *
 * Events are named by (thread, fetch index) — an `eref`.  The fetch index
 * counts every event the thread has fetched, including a store-conditional
 * that later fails (it then has no event in the execution).
 */
#ifndef WEFT_ENGINE_RSMC_H
#define WEFT_ENGINE_RSMC_H

#include <stdbool.h>

#include "../engine.h"
#include "../../cat/analysis/cat_analysis.h" /* partial checks, declared orders */
#include "../paths.h"
#include "../thread_interp.h"

/* Why rsmc left a test to the enumerator (test_result.fallback). */
enum rsmc_fallback {
	FALLBACK_NONE,
	FALLBACK_VMSA,            /* herd's vmsa variant (page tables)      */
	FALLBACK_IFETCH,          /* herd's ifetch variant (fetched code)    */
	FALLBACK_MIXED,           /* herd's mixed-size variant               */
	FALLBACK_ORDER_CYCLE,     /* the commit order may have a cycle       */
	FALLBACK_CATDEP,          /* the model computes herd's dependencies,
	                           * on a test weft builds none for         */
	FALLBACK_VARIANTS,        /* an instruction herd runs as variants    */
	FALLBACK_INDIRECT,        /* a branch to where a register says       */
	FALLBACK_RESERVATION,     /* a store-conditional needs a reservation */
	FALLBACK_C_RMW,           /* a C RMW of two events, or a choice      */
	FALLBACK_C_LOCKS,         /* C lock/srcu events, order not proven    */
	FALLBACK_BLOCKED,         /* a run blocked                           */
	FALLBACK_DECLARED_BLOCKED,/* a run blocked in the model's own order:
	                           * the model's author's to mend (a warning) */
	FALLBACK_ADDR_DROPPED,    /* a run stopped at an address, read from
	                           * memory, that is no location (herd drops
	                           * such candidates; rsmc's run cannot go on) */
	FALLBACK_SMALL_CATDEP,    /* a catdep model, and the enumerator
	                           * answered within its budget (faster there:
	                           * rsmc_reference_first)                    */
	FALLBACK_N
};
_Static_assert((int)FALLBACK_N <= (int)ENGINE_FALLBACK_MAX, "rsmc's reasons fit engine_desc's bound");

/* The engine's run (engine_desc.run, rsmc_engine.c). */
bool rsmc_run(const litmus_test *t, cat_model *m, const engine_opts *o, test_result *r, diag *d);

/* An event of a state: thread -1 names the initial write of location k. */
typedef struct eref {
	int t, k;
} eref;

static inline bool eref_eq(eref a, eref b) { return a.t == b.t && a.k == b.k; }

/* Parameters of a commit. */
enum {
	PARAM_FAIL = -1, /* a store-conditional that fails                 */
	PARAM_ANY = -2,  /* template only: every allowed parameter ("*")   */
};

/* A fetched event of a thread. */
typedef struct fev {
	enum event_kind kind;
	int op, instr, instance;
	int loc;            /* -1 while the address is unknown (accesses) */
	value val;          /* store: data (when known); load: value read  */
	bool loc_known, val_known;
	bool stcond;        /* a store-conditional                          */
	unsigned flags;     /* EVF_ATOMIC, EVF_EXCL                         */
	const char *fence;
	/* decisions (kept from one re-interpretation to the next) */
	bool committed;     /* loads, stores: committed; fences and branches
	                     * are committed as soon as they are fetched     */
	bool failed;        /* committed store-conditional that failed      */
	eref rf;            /* committed load: the write it reads from      */
} fev;

enum tstatus {
	TS_RUNNING,  /* stopped at a conditional branch on an unknown value */
	TS_DONE,     /* reached the end of its code                         */
	TS_TOOFAR,   /* cut by the unroll limit                             */
	TS_ERROR,    /* an odd program: the path is dropped                 */
	TS_TIMEOUT,  /* stopped at the deadline (rsmc_thread_eval)          */
};

/* One thread of a state. */
typedef struct tstate {
	int n_ev;
	size_t cap_ev;
	fev *ev;
	dep_list addr, data, ctrl;
	dep_list xdep;      /* commit-before only: events whose address, data
	                     * or control depends on a store-conditional's
	                     * unknown outcome, from that store-conditional  */
	bool has_hd;        /* hd is built (rstate.herd_deps)                */
	dep_list hd[XD_N];  /* herd's dependency relations (exec.h), as the
	                     * enumerator computes them on the same path     */
	value *regs;        /* register values (final when done)             */
	int n_regs;         /* entries of regs                               */
	enum tstatus status;
} tstate;

/* Per location: committed (non-initial, successful) writes in coherence
 * order. */
typedef struct costate {
	int n;
	size_t cap;
	eref *w;
} costate;

typedef struct rstate {
	int n_threads, n_locs;
	bool herd_deps;     /* the threads track herd's dependencies: the
	                     * model is catdep, on an architecture that
	                     * builds them (arch.h)                          */
	tstate *th;
	costate *co;
} rstate;

/* Warnings are given once per run, as the enumerator does (the flags of
 * the shared thread interpreter). */
typedef interp_warned rsmc_warned;

/* ---- rsmc_thread.c --------------------------------------------------------- */

/* Re-run thread `ti` of `s` from its first op with the decisions recorded
 * in its events (load values come from their rf writes), fetching as far as
 * possible.  Sets the thread's status: TS_TIMEOUT once `deadline` (a
 * paths_clock() time, 0: none) has passed, so that a loop unrolled a
 * million times still lets a test stop at its -timeout. */
void rsmc_thread_eval(const litmus_test *t, rstate *s, int ti, int unroll, double deadline, rsmc_warned *w,
                      diag *d);
void rsmc_state_init(rstate *s, const litmus_test *t);
/* Copy src into dst: dst zero-initialised, or a state of the same test
 * whose buffers are reused. */
void rsmc_state_copy(rstate *dst, const rstate *src);
void rsmc_state_free(rstate *s);
/* The value written by a committed write (or the initial value). */
value rsmc_write_value(const litmus_test *t, const rstate *s, eref w);

/* ---- rsmc_exec.c ----------------------------------------------------------- */

/* The execution of the committed events of s (initial writes first, then
 * each thread's events in order, failed store-conditionals left out): as
 * enumerate.c builds it when every event is committed.  `map`, if not
 * NULL, gets for each thread an array of execution indices per fetch index
 * (-1: not in the execution); free with rsmc_map_free. */
void rsmc_build_execution(const litmus_test *t, const rstate *s, execution *x, int ***map);
void rsmc_map_free(const rstate *s, int **map);

/* Executions kept by size, so that building one per commit allocates
 * nothing once each size has been seen.  Zero-initialise; one test only
 * (the events point into it). */
typedef struct rsmc_xcache {
	int n;            /* entries of x and have */
	execution *x;     /* by event count */
	bool *have;
	rstate *from;     /* by event count: the state x was built from */
	int *map;         /* fetch index -> execution index, all threads */
	size_t cap_map;
	int **rows;       /* per thread: its part of map */
	size_t cap_rows;
} rsmc_xcache;

/* As rsmc_build_execution, into c: valid until the next call on c. */
const execution *rsmc_build_cached(const litmus_test *t, const rstate *s, rsmc_xcache *c);
void rsmc_xcache_free(rsmc_xcache *c);

/* ---- cb.c: commit-before orders ------------------------------------------- */

enum cb_kind {
	CB_POWER,   /* cbPOWER of the paper                               */
	CB_TSO,     /* weft's order for x86-TSO                           */
	CB_SC,      /* weft's order for SC                                */
	CB_GENERIC, /* cb0 | po-loc | addr;po, for any other model        */
	CB_MODEL,   /* the model's own `let commit_before = ...` (cb_model.c) */
};

/* The built-in order of a declared commit_before, from its canonical
 * text (cat_model_canonical_definition); false if it is none of them. */
bool cb_declared_kind(const char *canonical, enum cb_kind *kind);
/* The built-in order of a model whose order is proved and tested, from its
 * fingerprint (cat_model_fingerprint); false for any other model. */
bool cb_proven_kind(const char *fingerprint, enum cb_kind *kind);
const char *cb_kind_name(enum cb_kind k);

/* The commit-before order over the fetched memory events of s: a relation
 * over the "cb index" of each fetched event (cb_index below), transitively
 * closed.  Only loads and stores (and store-conditionals not known to have
 * failed) take part. */
typedef struct cb_graph {
	int n;          /* fetched events of all threads */
	int *base;      /* per thread: cb index of its fetch index 0 */
	brel rel;
} cb_graph;

/* The pairs of built-in order k (not CB_MODEL) within one thread:
 * program-order pairs and dependencies, over ts's fetch indices, not
 * closed (cb_static.c). */
void cb_thread_pairs(enum cb_kind k, const tstate *ts, brel *r);
/* One of the built-in orders (any kind but CB_MODEL). */
void cb_compute(enum cb_kind k, const rstate *s, cb_graph *g);
void cb_free(cb_graph *g);
static inline int cb_index(const cb_graph *g, eref e) { return g->base[e.t] + e.k; }

/* The order an RSMC run uses: a built-in kind, or (CB_MODEL) the relation
 * the model binds to `commit_before` at top level, evaluated on each state.
 * Owned by the run: cb_order_init, then cb_order_compute per state, then
 * cb_order_free (before the model). */
typedef struct cb_order {
	enum cb_kind kind;
	bool declared;           /* the model binds commit_before itself */
	bool proven;             /* a model of cb.c's proven_models, with the
	                          * order proved for it: rsmc needs no
	                          * static check of the test (cb_static.c) */
	/* CB_MODEL only */
	cat_model *m;            /* borrowed; its own evaluator is used */
	const litmus_test *t;    /* borrowed */
	diag *d;                 /* where evaluation errors go */
	bool failed;             /* commit_before could not be evaluated (the
	                          * error was reported): every later graph
	                          * enables nothing, so the run ends at once */
} cb_order;

/* The model's `commit_before` if it binds one (a built-in kind when
 * cb_declared_kind recognises it, else CB_MODEL); else the order of a
 * proven model (cb_proven_kind); else CB_GENERIC; CB_SC without a model.
 * Never by the model's title or file name. */
void cb_order_init(cb_order *o, const litmus_test *t, cat_model *m, diag *d);
/* As cb_compute, for o's order.  CB_MODEL: on an evaluation error (e.g.
 * commit_before is an event set), reports it through o->d once, sets
 * o->failed and returns a graph in which no event is enabled. */
void cb_order_compute(cb_order *o, const rstate *s, cb_graph *g);
void cb_order_free(cb_order *o);
/* How -stats names o's order: its kind's name, "declared" for CB_MODEL,
 * with "(proven)" for a proven model (static text). */
const char *cb_order_label(const cb_order *o);

/* ---- cb_static.c: can a built-in order have a cycle in this test? ------- */

/* Could some candidate execution of t (any thread paths, any rf) have a
 * cycle in order k (not CB_MODEL)?  Such an execution can never be built
 * by committing in an order that respects k, so rsmc would miss it if the
 * model allowed it.  Over-approximated over every thread path the
 * enumerator would take; false means no execution of t has one.  Warnings
 * of the path builder are not repeated (the engine that answers gives
 * them). */
bool cb_may_cycle(enum cb_kind k, const litmus_test *t, int unroll, double deadline);

/* Does an instruction of t write a value, or at an address, computed from
 * its own read (AArch64's LDADD, x86's LOCK ADD; not a fused AMO, one
 * event for the models: RISC-V's amoadd; not in C, whose po orders them:
 * arch.h's po_within_instruction)?  Such a
 * dependency is in every order but in no model's po: herd relates the
 * events of one instruction by iico, so sc.cat's (po | rf | co | fr) can
 * allow an execution whose cb has a cycle through it (an LDADD reading a
 * write po-after the read that reads its own write: tests/rsmc/
 * SC-LDADD-iico), which the proof of CB_SC does not cover.  x86-TSO
 * forbids such a cycle (the write's read reads a write co-before it, and
 * ghb then closes one through co) and PPC has no such instruction. */
bool cb_instr_dep(const litmus_test *t);

/* ---- cb_model.c: the model's own order ------------------------------------ */

/* The name a model gives its commit-before order (RSMC.md). */
#define CB_MODEL_NAME "commit_before"

/* Add to g (allocated over s's fetched events, see cb_compute) the pairs
 * of o->m's commit_before on the execution of s's fetched events (see
 * cb_model.c), not closed.  False after reporting through o->d. */
bool cb_model_edges(cb_order *o, const rstate *s, cb_graph *g);

#endif
