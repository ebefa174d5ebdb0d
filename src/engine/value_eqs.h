/* value_eqs.h — (private to src/engine) herd7's value equations, as far as
 * they decide which candidate executions exist and what their final states
 * print.
 *
 * herd gives every value read a variable, and a candidate's reads-from adds
 * one equation per read (read := value written).  Its solver only
 * propagates constants forward and unifies variables that are plain copies
 * of each other.  So, for a candidate:
 *   - a read is *determined* when the write it reads from is an initial
 *     write, stores a constant, stores a copy of a determined read, or
 *     stores a value computed from determined reads only;
 *   - a read that is not determined justifies itself through a po u rf
 *     cycle.  If any equation herd cannot solve uses it (arithmetic on it,
 *     a test of it, an address made from it) herd drops the candidate
 *     ("remaining equations");
 *   - otherwise every such read is a plain copy around a cycle: herd keeps
 *     one candidate with the cycle's value left symbolic, printed S<n>.
 * weft's enumerator gives each read a concrete value (paths.h); for such a
 * cycle it builds one candidate per value the cycle may carry.  This module
 * keeps the one whose cycle carries the least value its locations may hold
 * and names the cycle's value as herd does; the others are dropped.
 *
 * Two parts: what a thread path records of its values while it is built
 * (thread_paths.c: veq_regs), and the judgement of one candidate
 * (enumerate.c: veq_judge). */
#ifndef WEFT_ENGINE_VALUE_EQS_H
#define WEFT_ENGINE_VALUE_EQS_H

#include <stdbool.h>

#include "thread_interp.h"

/* ---- along a path ------------------------------------------------------------ */

/* Where each register's value comes from, as herd's equations see it. */
typedef struct veq_regs {
	int n;
	int *copy;      /* the path's load whose value the register holds
	                 * unchanged (a copy: herd unifies), or -1        */
	idxset *from;   /* the loads the value is computed from          */
	int *turns;     /* the way each conditional branch went (veq_turn) */
	int n_turns;
	size_t cap_turns;
} veq_regs;

void veq_regs_init(veq_regs *v, int n_regs);
void veq_regs_copy(veq_regs *dst, const veq_regs *src);   /* dst uninitialised */
void veq_regs_free(veq_regs *v);

/* What herd makes of ALU op o while it builds a thread: its result is
 * one of its operands unchanged (MOV, a sign or zero extension, x + 0,
 * x | 0), a value known whatever the operands (x ^ x, x == x, x != x),
 * or a new variable of its equations (anything else on a register). */
enum veq_alu_kind { VEQ_COPY_A, VEQ_COPY_B, VEQ_KNOWN, VEQ_NEW };
enum veq_alu_kind veq_alu_kind(const op *o);

/* Op o (an ALU op) is about to run: its destination's source.  An op
 * herd cannot compute on unsolved variables marks the loads it uses
 * (path_event.val_used in ev). */
void veq_alu(veq_regs *v, const op *o, path_event *ev);
/* Load event e set register reg. */
void veq_loaded(veq_regs *v, int reg, int e);
/* Register reg got a value no load gives (a store-conditional's flag). */
void veq_constant(veq_regs *v, int reg);
/* A test or an address uses operand x: its loads are used. */
void veq_use(const veq_regs *v, const operand *x, path_event *ev);
void veq_use_address(const veq_regs *v, const address *a, path_event *ev);
/* The conditional branch at op k went this way (taken: to its target):
 * a turn of the path (thread_path.turns), as op * 2 + taken. */
void veq_turn(veq_regs *v, int k, bool taken);
/* Hand the turns over (to a finished path): *turns is the caller's. */
void veq_take_turns(veq_regs *v, int **turns, int *n_turns);
/* Write event e stores operand data: records ev[e].copy_of, or the loads
 * its value is computed from as edges load -> e in vdata. */
void veq_store(const veq_regs *v, const operand *data, int e, path_event *ev, dep_list *vdata);

/* ---- one candidate --------------------------------------------------------------- */

/* herd's variable numbers (its S<n>) for the loads of every path of
 * every thread (value_numbers.c).  Owned by the caller, veq_numbers_free
 * releases it; each path's are worked out when first asked for. */
typedef struct veq_numbers {
	const litmus_test *t;
	const path_set *paths;   /* per thread, as the caller keeps them   */
	int *n_paths;            /* [thread]: how many there were then      */
	struct hv_shape *shapes; /* [thread]: how herd numbers it (value_numbers.c) */
	int *thread_base;        /* [thread]: the variables of the threads before */
	int ***path_var;         /* [thread][path]: per event, the variable of
	                          * a load's value from 1 for the thread (0:
	                          * no load), or NULL not yet worked out     */
} veq_numbers;

void veq_numbers_build(const litmus_test *t, const path_set *paths, int unroll, veq_numbers *out);
/* Path p of paths[thread_ix]: the variable of each event (a load's),
 * from 1 for the thread (add thread_base); NULL for a path not there. */
const int *veq_numbers_of(veq_numbers *nums, int thread_ix, const thread_path *p);
void veq_numbers_free(veq_numbers *nums);

/* One path combination's events as the judgement sees them (global event
 * indices, built once per combination by veq_frame_build). */
typedef struct veq_frame {
	int n;
	int *copy_of;        /* per write: the load whose value it stores unchanged, -1 */
	int *from_start;     /* per write: its computed-from loads are
	                      * from[from_start[w] .. from_start[w+1]-1]   */
	int *from;
	bool *used;          /* per load: an equation herd cannot solve uses it */
	int *herd_var;       /* per load: herd's variable for its value    */
	/* per candidate (veq_judge) */
	int *src;            /* per load: the write it reads from          */
	bool *det;
	int *sym;            /* per load: its symbol number, 0 when determined */
	int *uf_parent, *uf_rank;
} veq_frame;

void veq_frame_build(veq_frame *f, const litmus_test *t, const thread_path *const *pick, const int *base,
                     const execution *x, veq_numbers *nums);
void veq_frame_free(veq_frame *f);

/* Whether some write of path p stores a load's value unchanged: only a
 * cycle of such copies leaves a value symbolic (veq_shown). */
bool veq_path_copies_load(const thread_path *p);
/* Whether some write of the paths pick[0 .. t->n_threads-1] stores a
 * value copied or computed from a load.  When none does, every value of
 * the combination is a constant or an initial value, so no reads-from can
 * leave one open: veq_judge need not run, nor its frame be built. */
bool veq_paths_carry_loads(const litmus_test *t, const thread_path *const *pick);

/* Whether some choice of reads-from of this combination, each load
 * load_ev[i] reading one of its candidate writes cands[i][0 ..
 * n_cands[i]-1], may leave a load undetermined.  When not, veq_judge
 * would keep every candidate of the combination, with no symbolic value
 * (f->sym stays 0), so it need not run: most tests have no value that can
 * flow around a po u rf cycle.  Uses f's per-candidate scratch. */
bool veq_may_leave_open(veq_frame *f, const execution *x, int n_loads, const int *load_ev,
                        int *const *cands, const int *n_cands);

enum veq_verdict {
	VEQ_KEEP,        /* herd has this candidate                           */
	VEQ_UNSOLVED,    /* herd drops it: an unsolvable equation remains     */
	VEQ_DUPLICATE,   /* herd has it, with a symbolic value this copy does
	                  * not carry (another copy is kept)                  */
};

/* Judge the candidate whose reads-from is f->src (filled by the caller).
 * least(loc, ctx): the least value location loc may hold. */
enum veq_verdict veq_judge(veq_frame *f, const execution *x, value (*least)(void *ctx, int loc), void *ctx);

/* The value herd prints for a value that copies load `load` (a global
 * event index, -1: none) of the judged candidate: symbolic or `concrete`. */
value veq_shown(const veq_frame *f, int load, value concrete);

#endif
