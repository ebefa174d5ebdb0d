/* rvf.h — the rvf engine (-engine rvf): the reads-value-from exploration of
 * the seed paper (../shared/papers/rvf-reads-value-from-smc.txt, RVF-SMC)
 * under sequential consistency, for the models recognised by their content
 * as SC (weft's and herd's sc.cat, as pop recognises them).
 *
 * Two interleavings are in one class when they have the same events and
 * every read obtains the same value: the threads then end in the same
 * states.  rvf explores one interleaving per class (often far fewer than
 * the executions herd counts), each class a node of a recursion
 * (rvf_explore.c):
 *   - a node holds a set X of events (a prefix of each thread), for each
 *     read of X the writes it may read from (its good writes: one value's
 *     writes, fixed when the read joined X), and a witness: an SC
 *     interleaving of X where every read reads from one of its good writes;
 *   - it extends the witness with the writes each thread does next, then
 *     takes the reads the threads do next one by one: for each value the
 *     writes of X give a read, the read joins X with those writes as its
 *     good ones, and VerifySC (rvf_verify.c) looks for a witness; a child
 *     node goes on from each witness found;
 *   - a causal map keeps a read, once it was tried against every write
 *     of the node, from reading any of them in the node's later children;
 *     a backtrack signal stops a node from trying its next reads when no
 *     descendant found a write of another thread for the read it tried
 *     (the paper's Lemma 1: no class needs a later write for it).
 * A thread's steps are pop's (pop_thread_step, one thread interpreter):
 * reads, writes, a read-modify-write as one event, and choices of the
 * thread alone (branched both ways as they come).  The final values of the
 * locations a state shows are reads of an observer that runs after every
 * thread has ended, so that a class fixes them too.
 *
 * Output: herd's block with the states every class reaches and the verdict;
 * Positive and Negative count distinct final states (as bmc's do), since a
 * class is no execution of herd's.  -stats: classes, VerifySC calls,
 * those that found no witness, the instances the extended witness already
 * answered, VerifySC's time (microseconds) and its share of rvf's time.
 *
 * An atomic read herd pairs with a later write of its thread (a
 * load-reserve and its store-conditional) asks more than values: no write
 * of another thread may come between them (sc.cat's atomicity).  VerifySC keeps the pairs
 * whole, and a witness extended by such a write that breaks one is
 * searched again (none: the way where the store-conditional stores has
 * no class).
 *
 * Not supported (a located error): what pop refuses (pop_refuses). */
#ifndef WEFT_ENGINE_RVF_H
#define WEFT_ENGINE_RVF_H

#include <stdbool.h>

#include "../engine.h"
#include "../pop/pop.h"

/* rvf's own counters, engine_stats.own[i] (named in rvf_engine.c). */
enum rvf_stat {
	RVF_CLASSES,       /* maximal interleavings explored: one per class  */
	RVF_VERIFY_CALLS,  /* VerifySC runs                                   */
	RVF_VERIFY_FAILED, /* of those, instances with no witness             */
	RVF_VERIFY_SKIPPED,/* instances the extended witness already answered
	                    * (the paper's auxiliary trace): no VerifySC run  */
	RVF_VERIFY_US,     /* VerifySC's time, microseconds                   */
	RVF_VERIFY_SHARE,  /* its share of the exploration's time, percent    */
	RVF_N_STATS
};
_Static_assert((int)RVF_N_STATS <= (int)ENGINE_OWN_STATS, "rvf's counters fit engine_stats.own");

/* ---- the events of a node (rvf_explore.c builds them) ----------------------- */

/* An event of X.  Threads 0 .. T-1 are the test's, T the observer of the
 * final values, T + 1 the initial writes (one per location, idx = loc). */
typedef struct rvf_event {
	int th, idx;         /* thread, its event number there                */
	enum pop_kind kind;  /* PK_READ, PK_WRITE or PK_RMW                   */
	int loc;
	value rval, wval;
	bool atomic;         /* in herd's rmw pairing (pop_step.atomic)      */
	int good, n_good;    /* reads: its good writes, rvf_events.good[good ..
	                      * good + n_good) (event numbers)                */
} rvf_event;

/* X: the events in the order they joined (a stack: a child's events are
 * dropped when it returns), each thread's in its order. */
typedef struct rvf_events {
	int T, L;            /* the test's threads, its locations             */
	int n;
	size_t cap;
	rvf_event *ev;
	int *good;           /* the good-write lists, a stack like ev         */
	int n_good;
	size_t cap_good;
	int **by_th;         /* per thread (T + 2): its events, in order      */
	int *count;          /* per thread: how many                          */
	size_t *cap_th;
} rvf_events;

/* ---- VerifySC (rvf_verify.c) -------------------------------------------------- */

/* Scratch space VerifySC keeps from call to call (owned; rvf_verify_free). */
typedef struct rvf_verifier rvf_verifier;

rvf_verifier *rvf_verifier_new(void);
void rvf_verifier_free(rvf_verifier *v);

/* A witness of X: an interleaving of X's events (the initial writes
 * first, left out of it) that keeps each thread's order, where each read
 * reads from one of its good writes, no write of another thread comes
 * between the halves of a pair (rvf_pair_of) and the observer's reads
 * come after every other event.  aux (n_aux events, a trace where all but
 * one read are satisfied) guides the search: events are tried in its
 * order.  On
 * success the witness is written to out (room for X's events but the
 * initial ones) and true returned. */
bool rvf_verify_sc(rvf_verifier *v, const rvf_events *X, const int *aux, int n_aux, int *out);

/* sc.cat's atomicity: herd pairs an atomic read with the next atomic
 * access of its location in its thread when that is a write (a
 * load-reserve and its store-conditional; a PK_RMW is a pair in itself);
 * no write of another thread may come between the two (herd's rmw &
 * (fre; coe), both external).  The pair of read r in X: its
 * write's event number, or -1. */
int rvf_pair_of(const rvf_events *X, int r);
/* Does the interleaving tr (n events of X) keep every pair whole? */
bool rvf_atomic_ok(const rvf_events *X, const int *tr, int n);

/* ---- the exploration (rvf_explore.c) ---------------------------------------- */

/* Explore t's classes; each maximal one is counted into r (its final
 * state, the filter and the unroll limit as herd).  Returns false when
 * an error was reported. */
bool rvf_explore(pop_run_ctx *rc, const engine_opts *o, test_result *r);

#endif
