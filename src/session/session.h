/* session.h — exploring one test by hand: commit the events of an
 * execution one at a time, choosing what each load reads and where each
 * store goes in coherence, and see what the model says of every choice.
 * The terminal front-end (src/cli/interactive.c, `weft -i`) drives it; it
 * knows nothing of terminals, so another front-end can drive it too.
 *
 * The state is a list of commits.  A thread's events are fetched in
 * program order as far as the values committed so far allow: fetching
 * stops at a conditional branch on a value not read yet, and at an access
 * whose address is not known yet.  Every fetched load is enabled; a store
 * is enabled once its value is known.  So events may be committed in any
 * order those rules allow (a store before the loads po-before it), which
 * reaches every execution without a cycle in dependencies and rf.
 *
 * A load's parameter is a committed store of its location (the initial
 * write counts; never a store of its own thread po-after it); a store's
 * parameter is the committed store it follows immediately in coherence
 * (a store-conditional may also "fail").  Parameters are written as event
 * names: `a`, `b`, ... in program order, thread after thread, `i(x)` for
 * the initial write of x, as -explain names them (names of later threads
 * move when a branch lets an earlier thread fetch more events).
 *
 * The model's verdict on a choice is the verdict on the execution of the
 * committed events after it: every check when that execution is complete,
 * else the monotone checks only (those that cannot hold again once they
 * fail).  A refusal names the failing check and a cycle of base relations.
 *
 * Ownership: a session borrows its test and model (they must outlive it)
 * and owns everything else; strings it returns in strbufs are the
 * caller's.  Nothing is kept between sessions.
 */
#ifndef WEFT_SESSION_H
#define WEFT_SESSION_H

#include <stdbool.h>

#include "../cat/cat.h"
#include "../prog/prog.h"
#include "../util/util.h"

typedef struct session session;

/* A session on test t under model m, nothing committed.  `unroll` as
 * engine_opts' (negative: herd's default, 2).  NULL (after reporting
 * through d) when the model cannot evaluate the test's first state, or
 * computes herd's dependencies (catdep) on an architecture for which weft
 * does not build them (all but AArch64). */
session *session_new(const litmus_test *t, cat_model *m, int unroll, diag *d);
void session_free(session *s);

/* ---- what there is ---------------------------------------------------------- */

/* One fetched event (initial writes first, then each thread's events in
 * program order). */
typedef struct session_event {
	char *name;        /* "a", "i(x)"                                  */
	char *desc;        /* "W x=1 (P0)", "R x (P1)" before it reads      */
	int thread;        /* -1: an initial write                         */
	bool memory;       /* a load or a store (fences and branches are
	                    * part of the execution as soon as fetched)    */
	bool committed;    /* in the execution (initial writes, fences and
	                    * branches always)                              */
	bool enabled;      /* may be committed now                         */
	bool lock_write;   /* C's spin_lock taking its lock (herd's LKW): its
	                    * parameter is the lock write (or the initial
	                    * write) that took the lock just before it, the
	                    * lock order being the user's choice          */
} session_event;

/* One parameter of an enabled event, with the model's verdict. */
typedef struct session_choice {
	char *param;       /* a store's name, or "fail"                    */
	bool allowed;
	char *check;       /* the failing check (NULL when allowed)        */
	char *cycle;       /* its witness in base relations, one line      */
} session_choice;

typedef struct session_choices {
	int n;
	session_choice *v;
} session_choices;

int session_n_events(const session *s);
const session_event *session_event_at(const session *s, int i);
/* Why thread `thread` (an index) has not fetched its events to the end:
 * NULL when it has, else a phrase ("at a branch on a value not known
 * yet", "cut by the unroll limit", an error of the program). */
const char *session_thread_status(const session *s, int thread);
/* Every commit made, as `commit` arguments ("d c"), in order. */
int session_n_commits(const session *s);
const char *session_commit_text(const session *s, int i);
/* Every thread has run to its end and every access is committed. */
bool session_complete(const session *s);
/* A complete execution the test's `filter` rejects (herd counts it
 * nowhere); false without a filter or before completion. */
bool session_filtered(const session *s);
/* The final state of a complete execution, herd's way:
 * "1:r1=1; 1:r3=0; [x]=1;" (the condition's lvals and the `locations`). */
void session_final_state(const session *s, strbuf *out);

/* The choices of enabled event `event` (each judged by the model).
 * False, with the reason in *why, when there is no such enabled event
 * or the model cannot evaluate. */
bool session_choices_of(session *s, const char *event, session_choices *out, strbuf *why);
void session_choices_free(session_choices *c);

/* ---- moving ---------------------------------------------------------------- */

/* Commit `event` with `param`.  Refused (false, the reason in *why: an
 * unknown event or parameter, or the failing check and its cycle) when
 * the model forbids the result. */
bool session_commit(session *s, const char *event, const char *param, strbuf *why);
/* Undo the last command that changed the state (commit, auto, goto,
 * reset).  False when there is nothing to undo. */
bool session_undo(session *s);
void session_reset(session *s);
/* Complete the execution, each step the first enabled event (stores
 * first) with its first allowed parameter, backing up when a state has an
 * event with no allowed parameter.  Says what it did in *out; false when
 * no allowed completion exists (the state is then unchanged). */
bool session_auto(session *s, strbuf *out);

/* Search for an allowed execution of the test whose final state satisfies
 * `state` (a condition in litmus syntax, e.g. "1:r1=1 /\ 1:r3=0"; NULL:
 * the test's condition's proposition, for forall its counterexamples).
 * When one exists, the state becomes it (undo goes back) and *out says
 * "reached" with its commits.  When none does, *out names the checks
 * forbidding the candidate executions reaching it and, on the candidate
 * that fails the fewest, one cycle per failing check.  False, after
 * reporting through d, when `state` does not parse or evaluation fails. */
bool session_goto(session *s, const char *state, strbuf *out, diag *d);

/* Bound goto's search to `seconds` of wall-clock time (0, the default: no
 * bound).  A search cut short says so, and never that a state is
 * unreachable or forbidden; an allowed execution it found is still gone
 * to.  A front-end that answers others meanwhile (weft -serve) sets one. */
void session_set_search_limit(session *s, double seconds);

/* ---- looking ---------------------------------------------------------------- */

/* Why the model allows or forbids committing `event` with `param` (the
 * state is unchanged).  False with the reason when there is no such
 * choice. */
bool session_why(session *s, const char *event, const char *param, strbuf *out);
/* Every check's verdict on the current execution (a partial execution
 * judges the monotone checks only). */
bool session_checks(session *s, strbuf *out);
/* Draw the current execution as Graphviz: threads in columns, P0 on the
 * left, events not committed yet dashed.  With `event` and `param` (else
 * NULL), the execution after that commit instead, allowed or not, a
 * failing check's witness bold magenta.  False with the reason in *why. */
bool session_dot(session *s, const char *path, const char *event, const char *param, strbuf *why);

/* The picture session_dot draws, as nodes and edges, for a front-end that
 * draws it itself.  Nodes: the initial writes (thread -1), then each
 * thread's events in program order; `row` is a node's place in its column
 * (the initial writes' row counted apart).  Edges as src/report's
 * dot_picture_edges gives them: `look` is how the dot writer styles the
 * edge ("po", "rf", "co", "fr", "addr", "data", "ctrl", "rmw", "lock" (the
 * order C's spin_locks take a lock in, when chosen), "shown" for
 * the model's show directives, "witness" for the failing check's cycle,
 * "pending" for po through events not committed yet; static text). */
typedef struct session_node {
	char *name;        /* "a", "i(x)"                               */
	char *label;       /* "a: W x=1"                                */
	int thread;        /* -1: an initial write                      */
	int row;
	bool pending;      /* not committed yet                         */
} session_node;

typedef struct session_edge {
	char *from, *to;   /* node names                                */
	char *label;       /* "po,addr", "rf:rfe"                        */
	const char *look;
} session_edge;

typedef struct session_graph {
	char *title;       /* as session_dot's                          */
	bool allowed;
	char *check;       /* the failing check, NULL when allowed       */
	char *cycle;       /* its witness in one line, or NULL           */
	int n_nodes;
	session_node *nodes;
	int n_edges;
	session_edge *edges;
} session_graph;

/* The current execution, or with `event` and `param` the one after that
 * commit (allowed or not), as session_dot would draw it.  False with the
 * reason in *why.  *g owned by the caller (session_graph_free). */
bool session_graph_of(session *s, const char *event, const char *param, session_graph *g, strbuf *why);
void session_graph_free(session_graph *g);

#endif
