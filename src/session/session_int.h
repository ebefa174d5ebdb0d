/* session_int.h — (private to src/session) the state behind a session.
 *
 * A state (sstate) is built from a list of commits (sdecision) by
 * replaying them: each commit marks one event of a thread, and the thread
 * is fetched again from its first op with the values committed so far
 * (sstate_thread.c).  Events are referred to by (thread, index in the
 * thread's fetched events), which does not change as more is fetched;
 * thread -1 is the initial write of location `index`.
 */
#ifndef WEFT_SESSION_INT_H
#define WEFT_SESSION_INT_H

#include "session.h"
#include "../cat/analysis/cat_analysis.h" /* partial checks of a prefix */
#include "../engine/engine.h"   /* ENGINE_UNROLL_DEFAULT */
#include "../engine/paths.h"    /* dep_list: the engines' thread interpreter
                                 * fetches the session's events too */

/* An event of a thread, or an initial write (thread -1, index = loc). */
typedef struct sref {
	int thread, index;
} sref;

static inline bool sref_eq(sref a, sref b) { return a.thread == b.thread && a.index == b.index; }

/* One commit. */
typedef struct sdecision {
	sref ev;
	sref src;      /* load: the store it reads                       */
	sref after;    /* store: the store it follows in coherence       */
	bool fail;     /* store-conditional: it fails (no event)         */
	bool pick;     /* a choice: its alternative 1 (else 0)           */
} sdecision;

/* A fetched event of a thread. */
typedef struct sev {
	enum event_kind kind;
	int op, instr, instance;
	int loc;              /* -1 for fences and branches            */
	value val;
	bool val_known;       /* loads: once committed; stores: once
	                       * their data is known                   */
	unsigned flags;       /* EVF_ATOMIC, EVF_EXCL                  */
	const char *fence;
	bool stcond;          /* a store-conditional                   */
	bool unreserved;      /* a store-conditional with no reservation
	                       * for its address (ti_stcond_may_succeed,
	                       * the enumerator's rule): it can only fail */
	bool choice;          /* herd's two alternatives of spin_trylock
	                       * and spin_is_locked (OP_CHOICE): a branch
	                       * point, no event of the execution; once
	                       * committed, val is the alternative taken
	                       * (1 or 0) and it gives its name up       */
	bool lock_write;      /* C's spin_lock taking its lock (herd's LKW,
	                       * a fence with a location): committed as a
	                       * store is, after the lock write (or the
	                       * initial write) that took the lock before
	                       * it; its LKR joins the execution with it */
	bool committed;
	bool failed;          /* a store-conditional that failed: not an
	                       * event of the execution                */
	sref src;             /* committed loads: the store read       */
} sev;

typedef struct sthread {
	int n;
	size_t cap;
	sev *ev;
	dep_list addr, data, ctrl;
	bool has_hd;          /* hd is built (the architecture asks:
	                       * catdep models read it)                */
	dep_list hd[XD_N];    /* herd's dependency relations (exec.h)  */
	bool done;            /* ran to its end (or was cut)           */
	bool cut;             /* cut by the unroll limit               */
	const char *error;    /* static text: the path cannot go on    */
	const char *waits;    /* static text: why fetching stopped
	                       * before the end (NULL when it did not) */
	value *regs;          /* register values (final once done)     */
} sthread;

typedef struct sstate {
	const litmus_test *t;
	int unroll;
	bool herd_deps;       /* the threads track herd's dependencies
	                       * (a catdep model's, on AArch64)        */
	int n_dec;
	size_t cap_dec;
	sdecision *dec;
	sthread *th;          /* t->n_threads                          */
	int *n_co;            /* per location: committed stores in     */
	sref **co;            /* coherence order, the initial one first */
	/* the view: every fetched event, initial writes first */
	int n_view;
	sref *view;
	char **name;          /* per view entry ("" for a failed
	                       * store-conditional)                    */
	/* the execution of the committed events */
	execution x;
	int *x_of_view;       /* -1: not in the execution              */
	int *view_of_x;
} sstate;

/* ---- sstate.c ----------------------------------------------------------------- */

/* The state after decisions dec[0..n) (validated when they were made);
 * herd_deps: track herd's dependencies (sthread.hd). */
void sstate_build(sstate *st, const litmus_test *t, int unroll, bool herd_deps, const sdecision *dec, int n);
void sstate_free(sstate *st);
/* st + one more decision, as a new state. */
void sstate_extend(sstate *out, const sstate *st, const sdecision *d);
const sev *sstate_ev(const sstate *st, sref r);
int sstate_view_index(const sstate *st, sref r);
/* The view entry called `name`, or -1. */
int sstate_find(const sstate *st, const char *name);
bool sstate_enabled(const sstate *st, sref r);
bool sstate_complete(const sstate *st);
/* The final value of an lval (meaningful once complete). */
value sstate_final(const sstate *st, lval lv);
/* "W x=1 (P0)" */
void sstate_describe(const sstate *st, sref r, strbuf *sb);
/* The parameters of enabled event r, as decisions, in order. */
int sstate_params(const sstate *st, sref r, sdecision **out);
/* A parameter's name ("i(x)", "c", "fail"). */
void sstate_param_name(const sstate *st, const sdecision *d, strbuf *sb);
/* The commits of st as `commit` arguments ("d c"), each named as the
 * events were named when it was made (a store-conditional that fails
 * gives its name up, so later names move): a script that replays them.
 * n_dec strings, owned by the caller. */
char **sstate_commit_texts(const sstate *st);
/* A canonical key of what is committed (for the search's memo). */
char *sstate_key(const sstate *st);

/* ---- sstate_thread.c ------------------------------------------------------------ */

/* Fetch thread `ti` again from its first op, keeping the commits of the
 * events it fetched before (old, may be empty). */
void sthread_fetch(const sstate *st, int ti, sthread *old, sthread *out);
void sthread_free(sthread *th);

/* ---- verdict.c ------------------------------------------------------------------- */

typedef struct sverdict {
	bool allowed;
	int check;            /* the failing check's index, -1       */
	char *check_name;
	char *cycle;          /* its witness, one line               */
	int n_steps;
	cat_step *steps;      /* copied (via strings owned)           */
} sverdict;

/* Judge the execution of st: every check when complete, else the
 * monotone ones.  False (the reason in *why, the model's messages
 * through d) when evaluation fails. */
bool sverdict_of(cat_model *m, const sstate *st, sverdict *v, diag *d, strbuf *why);
void sverdict_free(sverdict *v);
/* The witness of check `check` on x as one line, events named by
 * names[] (indices of x); `keep`, when not NULL, gets the explanation. */
bool witness_line(cat_model *m, const execution *x, char *const *names, int check, strbuf *line,
		  cat_explanation *keep, diag *d, strbuf *why);
/* Letters for the events of a complete execution (as -explain). */
char **execution_names(const execution *x);
void names_free(char **names, int n);

/* ---- session.c ----------------------------------------------------------------- */

struct session {
	const litmus_test *t;
	cat_model *m;
	int unroll;
	double search_seconds;  /* goto's limit; 0: none (session_set_search_limit) */
	bool herd_deps;     /* the model is catdep (and the test AArch64) */
	sstate cur;
	/* what undo goes back to: the commits of each earlier state */
	int n_hist;
	size_t cap_hist;
	struct history { int n; sdecision *dec; } *hist;
	/* the current state as session.h shows it */
	int n_events;
	session_event *events;
	int n_commits;
	char **commits;
	/* drops the evaluation messages the front-end does not want
	 * (verdicts say what failed) */
	diag quiet;
};

/* Move to the state of decisions dec[0..n); `remember`: undo comes back. */
void session_set_state(session *s, const sdecision *dec, int n, bool remember);
/* The decision `event param` of the current state, or false with why. */
bool session_find_decision(session *s, const char *event, const char *param, sdecision *d, strbuf *why);
/* The final state's line ("1:r1=1; x=2;"). */
void sstate_state_line(const sstate *st, strbuf *out);

#endif
