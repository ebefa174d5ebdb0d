/* pop.h — the pop engine (-engine pop): the Parsimonious-OPtimal DPOR of
 * the seed paper (../shared/papers/pop-parsimonious-optimal-dpor.txt) over
 * the interleavings of a test's threads, for models recognised by their
 * content as sequential consistency (weft's and herd's sc.cat, cb.c's
 * fingerprints).
 *
 * Under SC an execution herd counts (one path per thread, rf, co) is one
 * Mazurkiewicz class of interleavings: events are dependent when they are
 * of one thread, or access one location and one of them writes.  pop
 * explores one interleaving per class:
 *   - a race (two dependent events of two threads, adjacent in happens-
 *     before) is reversed only when it is parsimonious (its first event is
 *     in no schedule, its second is fresh: every schedule head between them
 *     happens before it), by the schedule made of what happens before the
 *     second event (pop_explore.c);
 *   - the new schedule is explored at once (eager reversal), so what is
 *     kept is the current sequence and the recursion's saved suffixes;
 *   - read schedules reversed against one write sleep for each other in
 *     an order of their classes (the paper's sleep sets of schedules),
 *     each kept as one characterisation, not as the list of the
 *     schedules it sleeps for, so memory stays polynomial where that
 *     list grows exponentially (pop_sleep.c).
 *
 * What a thread does is asked of the one thread interpreter (ti_run) with
 * pop's policy (pop_thread.c): a thread runs from its start, replaying the
 * values its earlier steps read and the choices they took, and stops at
 * its next step.  A step is one access, or an atomic read with the atomic
 * write next to it (C's read-modify-writes, RISC-V's single-event AMOs):
 * one event for the race analysis, a write when it wrote.  A choice
 * (spin_trylock, a CAS's variants, whether a store-conditional with its
 * reservation stores) is a step of its thread alone, its second way
 * explored as a schedule of one event; a store-conditional that stores is
 * that choice, then its write.  Fences, branches and C's lock events order
 * nothing under SC (sc.cat knows no locks) and are no steps.  herd's rmw
 * pairs an atomic read with a later write of its thread that is not in
 * its step (a load-reserve and its store-conditional): an execution with
 * a write of another thread between them is one sc.cat's atomicity
 * forbids, explored (its races count) but not counted.
 *
 * Not supported (a located error, pop_engine.c): models other than SC,
 * instructions of an assembly architecture with two accesses that are not
 * one event (herd's po does not order the events of one instruction
 * there: xchg, SWP, CAS), vmsa and ifetch tests. */
#ifndef WEFT_ENGINE_POP_H
#define WEFT_ENGINE_POP_H

#include <stdbool.h>
#include <stdint.h>

#include "../engine.h"
#include "../thread_interp.h"

/* ---- a thread's steps (pop_thread.c) ------------------------------------- */

enum pop_kind {
	PK_READ,    /* a read of loc, rval                                 */
	PK_WRITE,   /* a write of wval to loc                              */
	PK_RMW,     /* an atomic read of rval and write of wval, one event */
	PK_CHOICE,  /* a choice of its thread alone: way alt of 2          */
	PK_END,     /* the thread has no step left: how, in end             */
};

enum pop_end {
	PE_DONE,    /* it ran off its code                                 */
	PE_CUT,     /* the unroll limit cut it (herd's "Loop")             */
	PE_DROPPED, /* a path herd drops (an address read from memory that
	             * is no location, a division by zero: warned once)    */
	PE_ERROR,   /* an error was reported (through the diag), or time ran
	             * out: the exploration stops                          */
};

typedef struct pop_step {
	enum pop_kind kind;
	int loc;          /* accesses                                       */
	value rval, wval; /* value read (PK_READ, PK_RMW), written          */
	int alt;          /* PK_CHOICE: the way taken (0 or 1)              */
	bool atomic;      /* an access of herd's rmw pairing (ACC_ATOMIC,
	                   * ACC_EXCL); a PK_RMW is paired in itself        */
	bool stcond;      /* PK_CHOICE: a store-conditional's (way 1 fails) */
	enum pop_end end; /* PK_END                                         */
} pop_step;

/* What a thread's earlier step decided, to replay it. */
typedef struct pop_dec {
	value rval;       /* what it read                                   */
	int alt;          /* the way a choice took                          */
} pop_dec;

/* What stays the same while a test is explored. */
typedef struct pop_run_ctx {
	const litmus_test *t;
	int unroll;
	double deadline;          /* paths_clock() time, 0: none            */
	bool timed_out;
	interp_warned warned;     /* warnings said once per run             */
	diag *d;
} pop_run_ctx;

/* What another engine watches while a thread runs (the await engine's
 * loops, src/engine/await): NULL for pop's own runs. */
typedef struct pop_watch {
	const bool *uncounted;  /* ti_ctx.uncounted                         */
	/* step k (from 0) begins at op pc */
	void (*begin)(void *ctx, int pc, int k);
	/* the tested branch at op pc goes this way; k steps begun */
	void (*turn)(void *ctx, int pc, bool taken, int k);
	/* before each op: true ends the run (the step probed stays out) */
	bool (*stop)(void *ctx);
	void *ctx;
} pop_watch;

/* rc for a run of t with o's unroll limit and timeout, reporting through
 * d; pop_run_ctx_finish gives r what the run warned of (the dropped
 * address) and sorts its flags, and frees the warnings. */
void pop_run_ctx_init(pop_run_ctx *rc, const litmus_test *t, const engine_opts *o, diag *d);
void pop_run_ctx_finish(pop_run_ctx *rc, test_result *r);

/* Thread ti's next step after the n steps of dec: a read takes mem[loc]
 * (the latest write), a choice way alt.  regs (its n_regs values) gets the
 * thread's final registers when the step is PK_END.  w: NULL, or what
 * watches the run. */
void pop_thread_step(pop_run_ctx *rc, int ti, const pop_dec *dec, int n, const value *mem, int alt,
                     pop_step *out, value *regs, const pop_watch *w);

/* ---- what pop cannot run (pop_engine.c) --------------------------------------- */

/* Whether t under m is one pop's steps cannot run (pop.h's "Not
 * supported"); if so says why, located, as "not supported by WHO: ...". */
bool pop_refuses(const litmus_test *t, cat_model *m, const char *who, diag *d);

/* ---- the exploration (pop_explore.c) -------------------------------------- */

/* pop's own counters, engine_stats.own[i] (named in pop_engine.c). */
enum pop_stat {
	POP_EXECUTIONS,   /* maximal interleavings explored: one per class  */
	POP_REDUNDANT,    /* of those, ones of a class explored before (-stats
	                   * keeps a fingerprint of each of the first 2^18
	                   * to see it): goal 0                              */
	POP_BLOCKED,      /* explorations every continuation of which the
	                   * sleep sets forbade: goal 0                      */
	POP_INFEASIBLE,   /* of the executions, those sc.cat's atomicity
	                   * forbids (a write of another thread between a
	                   * load-reserve and its store-conditional): not
	                   * counted                                         */
	POP_DEPTH,        /* deepest nesting of explorations (schedules and
	                   * choices)                                        */
	POP_PEAK_BYTES,   /* peak bytes of the exploration's own structures:
	                   * the sequence, its clocks, sleep sets, read
	                   * schedules and the saved suffixes                */
	POP_N_STATS
};
_Static_assert((int)POP_N_STATS <= (int)ENGINE_OWN_STATS, "pop's counters fit engine_stats.own");

/* Explore t's interleavings; each maximal one is counted into r (its
 * final state, Positive or Negative, the filter and the unroll limit as
 * herd).  Returns false when an error was reported. */
bool pop_explore(pop_run_ctx *rc, const engine_opts *o, test_result *r);

/* ---- sleep sets (pop_sleep.c) ------------------------------------------------ */

/* The read schedules one read schedule sleeps for, characterised rather
 * than listed: every read schedule reversed against the same write (the
 * step widx of thread wth, at position base of the sequence) whose key
 * (pop_explore.c's trace key: one number per class of the schedule) is
 * smaller than `key`, the key of the schedule this entry was made for.
 * Such a schedule is performed by a read of loc whose happens-before
 * predecessors from base on are its steps, none of them another access of
 * loc, while the write is not performed: pop_explore.c's sleeps() checks
 * that for each read.  Once the write is performed the entry is spent. */
typedef struct pop_sleeper {
	int base;
	int wth, widx;
	int loc;
	uint64_t key;
} pop_sleeper;

/* A sleep set: the entries of the read schedules on the way to a state
 * (owned; pop_sleepset_free).  One entry per read schedule the current
 * sequence went through, so its size is bounded by the recursion's depth,
 * whatever number of schedules each entry stands for. */
typedef struct pop_sleepset {
	int n;
	size_t cap;
	pop_sleeper *s;
} pop_sleepset;

/* Bytes a set holds (the peak counter). */
size_t pop_sleepset_bytes(const pop_sleepset *s);
/* dst := the entries of src whose write count[wth] <= widx says is not
 * performed yet (count: each thread's steps in the sequence; NULL: all). */
void pop_sleepset_copy(pop_sleepset *dst, const pop_sleepset *src, const int *count);
void pop_sleepset_free(pop_sleepset *s);
void pop_sleepset_add(pop_sleepset *s, pop_sleeper z);

#endif
