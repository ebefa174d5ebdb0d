/* await.h — the await engine (-engine await): spin loops answered as the
 * seed paper does (../shared/papers/awamoche-await-aware-dpor.txt), one
 * iteration each, whatever -unroll, under sequential consistency (models
 * recognised by their content, as pop and rsmc recognise them).
 *
 * prog.h's prog_find_loops says which loops are await loops (an iteration
 * that goes round again writes nothing and leaves nothing the next one
 * reads) and confirmation-CAS loops (their writes are all conditional).
 * For those, an iteration that goes round again is an assume that failed:
 * it is dropped, the thread back where the iteration began, and the values
 * it read (stale reads) are kept as what the thread waits on.  The thread
 * is blocked until some location it read holds another value: run again
 * on the same memory, the iteration would read the same values and fail
 * again.  So each await contributes the one iteration that exits, and an
 * end where no thread can move while one is blocked is a real liveness
 * violation: under SC no write can come, the thread spins forever.
 *
 * Why that loses nothing: an execution of the real program whose await
 * went round k times is the execution without those k iterations (they
 * wrote nothing and the exiting iteration reads no register they set),
 * with the same interleaving of everything else, which the exploration
 * reaches by not running the thread until its last iteration begins.
 * Blocking only drops the schedules in which a failed iteration ran.
 *
 * The exploration (await_explore.c) is over SC states, not interleavings:
 * a state is the memory and each thread's steps so far (the values they
 * read, the ways their choices took), its blocked reads and its open
 * reservation; each state is expanded once (a hash set of the states
 * seen), so every interleaving of the same steps meets at one state and
 * each end is counted once.  What a thread does is asked of pop's steps
 * (pop_thread_step: the one thread interpreter, run from the thread's
 * start replaying the steps it made, stopped once its next step is known),
 * watched by await_thread.c, which says when an await's iteration went
 * round again.
 *
 * Counts are this engine's own: an execution is one end of the
 * exploration, every thread done: each thread's path (the values its
 * steps read, its choices) and the final memory, so two of herd's
 * executions that differ only in which of two equal writes a read saw, or
 * in the coherence order of writes overwritten by a later one, are one.
 *
 * Not supported (a located error): what pop refuses (pop_refuses: models
 * other than SC, instructions of an assembly architecture with two
 * accesses that are not one event, vmsa, ifetch, indirect branches); an
 * iteration of a confirmation-CAS loop that wrote and still went round
 * (await_explore.c). */
#ifndef WEFT_ENGINE_AWAIT_H
#define WEFT_ENGINE_AWAIT_H

#include <stdbool.h>

#include "../engine.h"
#include "../pop/pop.h"   /* a thread's steps: pop_thread_step, pop_refuses */

/* ---- a thread's await loops (await_thread.c) ------------------------------------ */

/* An await's iteration that went round again during a run. */
typedef struct aw_fail {
	bool failed;
	int from;         /* the iteration's first step (the steps before it
	                   * are kept)                                     */
	int branch;       /* its loop's branch op                          */
} aw_fail;

/* A thread's await loops, as a run looks them up. */
typedef struct aw_loops {
	int n;
	prog_loop *l;     /* await and CAS loops only (owned)               */
	int *at_branch;   /* per op: the loop whose branch it is, or -1     */
	bool *uncounted;  /* per op: ti_ctx.uncounted                       */
} aw_loops;

/* *out: per thread of t (owned; aw_loops_free). */
void aw_loops_init(aw_loops **out, const litmus_test *t);
void aw_loops_free(aw_loops *loops, const litmus_test *t);

/* Thread ti's next step, as pop_thread_step gives it, and *fail: whether
 * an await's iteration went round again after the step (out the step;
 * PK_END with PE_ERROR when none began). */
void aw_thread_step(pop_run_ctx *rc, const aw_loops *loops, int ti, const pop_dec *dec, int n, const value *mem,
                    int alt, pop_step *out, aw_fail *fail, value *regs);

/* ---- the exploration (await_explore.c) ----------------------------------------- */

/* the engine's own counters, engine_stats.own[i] (named in await_engine.c) */
enum aw_stat {
	AW_EXECUTIONS,   /* ends with every thread done                    */
	AW_BLOCKED,      /* ends where a thread can neither move nor wait:
	                  * goal 0                                          */
	AW_LIVENESS,     /* ends where an await spins forever: no thread
	                  * can move, one is blocked                        */
	AW_STATES,       /* distinct states expanded                        */
	AW_DROPPED,      /* failed iterations dropped                       */
	AW_PRUNED,       /* of those, ones whose state was not explored, a
	                  * write of another thread being next            */
	AW_N_STATS
};
_Static_assert((int)AW_N_STATS <= (int)ENGINE_OWN_STATS, "await's counters fit engine_stats.own");

/* The flag an end with a liveness violation raises (herd_text's
 * "Flag liveness-violation"). */
#define AW_LIVENESS_FLAG "liveness-violation"

/* Explore t's SC states; each end is counted into r.  Returns false when
 * an error was reported. */
bool aw_explore(pop_run_ctx *rc, const aw_loops *loops, const engine_opts *o, test_result *r);

#endif
