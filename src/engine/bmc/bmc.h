/* bmc.h — (private to src/engine/bmc) the symbolic engine's encoding of one
 * test into SAT, after "Partial Orders for Efficient BMC of Concurrent
 * Software" (Alglave, Kroening, Tautschnig, CAV 2013).
 *
 * The threads' paths come from the thread interpreter (paths.h): for the
 * usual straight-line test, every path of a thread has the same events and
 * differs only in the values its loads return.  Paths with the same events
 * and dependencies (a "skeleton") are one encoding: a selector variable per
 * path, one-hot per thread, says which is taken, and each event's value is
 * a one-hot choice over what its paths give it.  Tests whose threads
 * branch on values or compute addresses have several skeletons: each
 * combination of skeletons is encoded and solved in turn (bmc.c).
 *
 * Over those events: rf one-hot per read over the writes of its location,
 * with value equality (the paper's rf variables); co a total order per
 * location, initial write first (order variables with transitivity, cubic
 * in the writes of one location); fr and the co-last writes derived.  The
 * model's checks come as terms over rf, co, fr and FW (cat.h,
 * cat_model_symbolic) and are compiled to gates (bmc_model.c); acyclicity
 * by vertex elimination (bmc_acyclic.c), never a transitive closure.
 *
 * Relations are n*n arrays of literals (row i: from event i), sets n
 * literals, SAT_FALSE where nothing can be.  Every array is owned by the
 * bmc_enc that made it.
 */
#ifndef WEFT_BMC_H
#define WEFT_BMC_H

#include "../engine.h"
#include "../../cat/analysis/cat_analysis.h" /* the symbolic form */
#include "../paths.h"
#include "../result.h"
#include "sat.h"

/* The engine's run (engine_desc.run): bmc.c's, or bmc_absent.c's refusal
 * in a build without CaDiCaL. */
bool bmc_run(const litmus_test *t, cat_model *m, const engine_opts *o, test_result *r, diag *d);

/* bmc's own counters (engine_stats.own), named in bmc_engine.c. */
enum bmc_own_stat {
	BMC_SAT_CALLS,   /* calls of the SAT solver              */
	BMC_SAT_VARS,    /* variables, summed over its solvers   */
	BMC_SAT_CLAUSES, /* clauses, summed over its solvers     */
};

/* The values one thing (an event, a final register or location) may take
 * and, for each, the literal that it takes it (exactly one is true). */
typedef struct bmc_dom {
	int n;
	size_t cap;
	value *v;
	int *lit;
} bmc_dom;

/* A displayed or tested lval: its final values, as the engine computes
 * them (raw) and as herd compares and shows them (typed). */
typedef struct bmc_lval {
	lval lv;
	bmc_dom raw, typed;
} bmc_lval;

typedef struct bmc_enc {
	sat *s;
	const litmus_test *t;
	execution x;           /* the skeleton's events, po, deps, rmw      */
	int n;                 /* x.n                                       */
	int *base;             /* per thread: its first event               */
	/* per thread: the paths of this skeleton and their selectors */
	int *n_paths;
	const thread_path ***paths;
	int **sel;
	bmc_dom *val;          /* per event: its value (accesses)           */
	int *rf, *co, *fr;     /* n * n                                     */
	int *fw;               /* n: a write with no co-successor           */
	int *fw_model;         /* n: the models' FW, herd's: fw but initial
	                        * writes (a location no store wrote takes
	                        * its final value from no event)           */
	int full;              /* no chosen path was cut by the unroll limit */
	int model_on;          /* the model's checks hold (bmc_model_encode
	                        * guards them by it, so that -explain can
	                        * ask for an execution the model forbids)  */
	int cut;               /* some chosen path was (lower bound)         */
	int n_lvals;
	bmc_lval *lvals;
} bmc_enc;

static inline int *bmc_at(int *rel, int n, int i, int j) { return &rel[(size_t)i * (size_t)n + (size_t)j]; }

/* bmc_prog.c: encode the program over the skeleton whose paths per thread
 * are paths[i][0..n_paths[i]) (all with the same events).  Returns false
 * (reported) for what the encoding does not support. */
bool bmc_prog_encode(bmc_enc *e, sat *s, const litmus_test *t, const thread_path ***paths, const int *n_paths,
                     diag *d);
void bmc_enc_free(bmc_enc *e);
/* The lval's entry (its domains made on first use). */
bmc_lval *bmc_lval_of(bmc_enc *e, lval lv);
/* The literal of a condition (exact); `typed`: values as herd compares
 * them in conditions and filters (cond_eval_final), else raw. */
int bmc_cond_lit(bmc_enc *e, const cond *c, bool typed);

/* bmc_model.c: assert the model's checks; the flags' literals (each true
 * only where its flag fires) into flag_lit[0..cs->n_checks), 0 for a check
 * that is no flag or cannot fire. */
bool bmc_model_encode(bmc_enc *e, const cat_symbolic *cs, int *flag_lit, diag *d);

/* bmc_acyclic.c: literals g such that g implies r (an upper bound: each
 * r[i][j] true when the pair is in the relation) is acyclic; vertex
 * elimination (Rankooh and Rintanen): no closure is built. */
void bmc_acyclic(sat *s, const int *r, int n, int g);
/* A literal that implies r (a lower bound) has a cycle: r's transitive
 * closure by squaring, then its diagonal. */
int bmc_has_cycle(sat *s, const int *r, int n);
/* The transitive closure of r by squaring, gates with polarity pol;
 * returned array owned by the caller. */
int *bmc_closure(sat *s, const int *r, int n, int pol);

/* bmc_states.c: the distinct final states of the encoded skeleton into
 * r and tab (the blocking clauses also rule out the states r holds
 * already), whether a cut execution is allowed (r->loop) and the flags
 * that fire; with speedcheck, only one state that decides the verdict.
 * Each state's witness is replayed (bmc_witness_check) under m.  Returns
 * 1, 0 when the deadline (paths_clock time, 0: none) passed, -1 after an
 * error reported through d. */
int bmc_states(bmc_enc *e, cat_model *m, test_result *r, state_table *tab, const int *flag_lit,
               const cat_symbolic *cs, const engine_opts *o, double deadline, diag *d);

/* bmc_witness.c: the execution of the solver's current model (its paths,
 * rf and co) is well formed, ends in state vals (r's displayed lvals,
 * typed) and, when want_allowed, is allowed by m (NULL: no model) as the
 * enumerator judges.  It is then handed to o->on_candidate, if any (with
 * holds: the condition holds in vals).  False after an internal error
 * reported through d. */
bool bmc_witness(bmc_enc *e, cat_model *m, const test_result *r, const value *vals, bool holds, bool want_allowed,
                 const engine_opts *o, diag *d);

#endif
