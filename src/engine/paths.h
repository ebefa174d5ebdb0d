/* paths.h — (private to src/engine) the enumerator's thread paths: every
 * control path of every thread, with the values its loads may return (the
 * one thread interpreter, ti_run, forking at every load).
 *
 * Loads are not tied to writes here: a load may return any value its
 * location can hold.  Those value sets are computed first, by a fixpoint
 * (start from the initial values, run every thread, add every value stored,
 * until nothing new appears).  enumerate.c then pairs each load with the
 * writes of the same value.
 *
 * Dependencies are found by taint tracking through registers (defined in
 * thread_interp.h, shared with RSMC and the session): a register carries the
 * set of loads its value was computed from.  An access whose address uses
 * a tainted register gets addr edges, a store whose data is tainted gets
 * data edges, and every event after a conditional branch on a tainted
 * register gets ctrl edges from those loads.
 */
#ifndef WEFT_ENGINE_PATHS_H
#define WEFT_ENGINE_PATHS_H

#include <stdbool.h>

#include "../exec/exec.h"
#include "../prog/prog.h"
#include "../util/util.h"

/* An event of one thread path.  Dependencies are in the path's edge lists,
 * as indices into the path's events. */
typedef struct path_event {
	enum event_kind kind;
	int op, instr;
	int instance;       /* which executed instruction (loops run one
	                     * instruction several times): events of one
	                     * instance are not ordered by po, as in herd  */
	int loc;            /* memory location, -1 for fences and branches */
	value val;          /* value read or written                        */
	unsigned flags;     /* EVF_ATOMIC, EVF_EXCL                         */
	const char *fence;  /* EV_FENCE                                     */
	int copy_of;        /* EV_WRITE: the path's load whose value it
	                     * stores unchanged, -1 (value_eqs.h)           */
	bool val_used;      /* EV_READ: an equation herd cannot solve
	                     * without its value uses it (value_eqs.h)      */
} path_event;

typedef struct dep_edge {
	int from, to;
} dep_edge;

typedef struct dep_list {
	int n;
	size_t cap;
	dep_edge *e;
} dep_list;

/* One control path of one thread, with one value per load. */
typedef struct thread_path {
	int n_ev;
	path_event *ev;
	dep_list addr, data, ctrl;
	bool has_hd;        /* hd is built (ti_ctx.herd_deps)               */
	dep_list hd[XD_N];  /* herd's catdep relations (exec.h)             */
	value *regs;        /* final register values (thread's n_regs)     */
	int *reg_copy;      /* per register: the load whose value it ends
	                     * up holding unchanged, -1 (value_eqs.h)      */
	dep_list vdata;     /* load -> write: the loads a write's value is
	                     * computed from, when not a copy (value_eqs.h) */
	int *turns;         /* the way each conditional branch went, in
	                     * order: op * 2 + taken (value_eqs.h)        */
	int n_turns;
	bool toofar;        /* cut by the unroll limit                      */
} thread_path;

typedef struct path_set {
	int n;
	size_t cap;
	thread_path *p;
	srcloc addr_dropped; /* where a path of the thread was dropped for an
	                      * address, computed from values read, that is no
	                      * location (herd drops those candidates); file
	                      * NULL when none was */
} path_set;

/* The first thread's addr_dropped that is set (file NULL when none). */
static inline srcloc paths_addr_dropped(const litmus_test *t, const path_set *paths)
{
	srcloc none = { NULL, 0, 0 };
	for (int i = 0; i < t->n_threads; i++)
		if (paths[i].addr_dropped.file)
			return paths[i].addr_dropped;
	return none;
}

/* The values a location may hold, each once. */
typedef struct value_set {
	int n;
	size_t cap;
	value *v;
} value_set;

bool value_set_add(value_set *s, value v);   /* true if it was new */
bool value_set_has(const value_set *s, value v);

/* All paths of all threads of `t`.  `paths` gets t->n_threads path sets;
 * `rounds` the number of fixpoint rounds.  Every path is finite: each
 * backward jump counts against `unroll` (thread_interp.h).  Problems drop
 * the path concerned and are reported once each through d: an address
 * that is not a location's as an error (herd rejects the test), division
 * by zero and the like as warnings.  Returns false only when
 * the value sets were still incomplete after the safety cap of rounds
 * (also reported); the paths are then those of the last round. */
/* `deadline`: a CLOCK_MONOTONIC time in seconds after which the build
 * stops and sets *timed_out (0: no deadline); it is looked at while
 * threads run, not only between paths. */
/* `vals`: when not NULL, gets the value set of each location (t->n_locs
 * of them, freed with value_sets_free).
 * `speculate`: the value sets also get what a thread stores after testing
 * a value no execution gave it yet (each load of a thread that tests
 * values also returns an unknown value, a test of it goes both ways, and
 * such paths add the known values they store, nothing else).  herd's
 * equations find executions whose values justify themselves that way
 * (crypto-control-data: x is 1 because y was stored 1 because x was not
 * 0); value_eqs.h keeps those herd solves. */
bool paths_build(const litmus_test *t, int unroll, double deadline, bool speculate, path_set **paths,
                 long *rounds, bool *timed_out, value_set **vals, diag *d);
void value_sets_free(const litmus_test *t, value_set *vals);
/* herd's ifetch: every value a fetched code location may hold (vals, per
 * location) is an instruction its fetches test for; else reported through
 * d (fetch_check.c) and false. */
bool paths_check_fetches(const litmus_test *t, const value_set *vals, diag *d);
/* Seconds of CLOCK_MONOTONIC, the clock of deadlines. */
double paths_clock(void);
void paths_free(const litmus_test *t, path_set *paths);
/* Drop, freeing them, the paths of ps that keep(ctx, path) refuses; the
 * others stay in their order. */
void paths_keep(path_set *ps, bool (*keep)(void *ctx, const thread_path *p), void *ctx);

/* The static part of the execution made of path pick[i] for each thread i
 * (paths_exec.c): the initial writes (event l for location l), then each
 * thread's events in order (base[i]: thread i's first), po, addr, data,
 * ctrl and rmw (herd's pairing of atomic accesses); rf and co empty.  x
 * is initialised here (execution_free releases it). */
void paths_execution(const litmus_test *t, const thread_path *const *pick, int *base, execution *x);

#endif
