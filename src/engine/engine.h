/* engine.h — run a litmus test against a memory model: every candidate
 * execution the program can have, judged by the model, summed up as final
 * states and counts.
 *
 * Engines are named, each by a descriptor (engine_desc) in its own folder
 * under src/engine/ and one line of engine.c's registry, which says what
 * it can do.  The reference engine (enumerate/enumerate.c): it
 * builds every candidate execution the way herd7 counts them and asks the
 * cat model about each one.  It is meant to be simple and obviously right,
 * the oracle that faster engines are compared with.
 *
 * What counts as one candidate execution (herd7's rules):
 *   - per thread, one control path: the values read decide the branches;
 *     a store-conditional either succeeds or fails; every backward jump,
 *     whatever decides its condition, may be taken at most `unroll` times
 *     per target, a path that would take it once more is cut and dropped
 *     (herd prints "Loop" when such a cut execution was allowed by the
 *     model);
 *   - per load, the write it reads from: same location, same value (the
 *     initial write counts);
 *   - per location, a coherence order: a total order of its writes with the
 *     initial write first.
 * An execution is counted when the model allows it and the filter (if any)
 * holds on its final state.
 *
 * Ownership: engine_run() fills a test_result owned by the caller, released
 * with test_result_free().
 */
#ifndef WEFT_ENGINE_H
#define WEFT_ENGINE_H

#include <stdbool.h>

#include "../cat/cat.h"
#include "../prog/prog.h"
#include "../util/util.h"

/* One candidate execution as the model judged it, for engine_opts'
 * on_candidate (explanations, execution graphs).  Everything is borrowed
 * and valid only during the call; the callback must not use the model. */
typedef struct engine_candidate {
	const execution *x;
	const cat_verdict *verdict; /* what the model said (allowed when there
	                             * is no model)                        */
	bool holds;                 /* the condition's proposition holds in
	                             * its final state (true without one)  */
	const value *state;         /* the displayed lvals' final values, in
	                             * test_result.lvals order              */
	int n_state;                /* their number (test_result.n_lvals)   */
} engine_candidate;

/* Bounds of an engine's descriptor: its own -stats counters, its reasons
 * for leaving a test to the reference engine (a bit each in a mask). */
enum { ENGINE_OWN_STATS = 6, ENGINE_FALLBACK_MAX = 16 };

/* herd7's default -unroll. */
#define ENGINE_UNROLL_DEFAULT 2

typedef struct engine_opts {
	double timeout; /* seconds of wall-clock time; <= 0: no limit          */
	bool stats;     /* count the work done (always counted; kept for rsmc) */
	int unroll;     /* backward jumps taken at most this many times per
	                 * target (herd's -unroll; ENGINE_UNROLL_DEFAULT is
	                 * herd's default); 0: none is taken                 */
	bool speedcheck;/* herd's -speedcheck fast: stop at the first counted
	                 * execution that decides the verdict (a positive one
	                 * for exists and ~exists, a negative one for forall);
	                 * the enumerator honours it, the result then holds
	                 * only what was found until then                    */
	/* When not NULL, called with candidate_ctx for every complete
	 * candidate the model judged, allowed or not (those dropped by the
	 * test's filter or cut by the unroll limit excepted).  Engines that
	 * do not build every candidate (rsmc) may never call it. */
	void (*on_candidate)(void *ctx, const engine_candidate *c);
	void *candidate_ctx;
	live_counts *live;  /* when not NULL: kept up to date with the work
	                     * done, for a progress line (borrowed)       */
	bool weft_chose;/* the engine is weft's default, not the user's
	                 * -engine: engine_run may have the reference engine
	                 * answer a small test (engine_desc.reference_first) */
	long budget;    /* > 0: the enumerator gives up after judging this
	                 * many candidates (test_result.over_budget); set by
	                 * engine_run for an engine's reference_first      */
} engine_opts;

/* One distinct final state: the values of the displayed lvals.  herd
 * tells states apart by the values its registers and locations hold and
 * orders them so, but prints each in its type (value_type.c): a 64-bit
 * value in an `int` register prints as its low 32 bits, so two states
 * may print alike (herd's LR-SC-mixed2 prints two pairs of equal lines). */
typedef struct final_state {
	value *vals;    /* test_result.n_lvals values, same order as lvals,
	                 * each in its lval's type: what a report prints      */
	value *raw;     /* the same values as the engine computed them: what
	                 * tells states apart and orders them (NULL: as vals) */
	bool holds;     /* the condition's proposition holds in this state     */
	long count;     /* allowed executions that end in this state           */
} final_state;

/* Work counters. */
typedef struct engine_stats {
	long paths;       /* thread paths explored (last value-set round)      */
	long candidates;  /* complete candidate executions judged by the model */
	long complete;    /* allowed executions as herd counts them (the filter
	                   * and the unroll limit kept them): one per allowed
	                   * candidate and per choice of the model's `with X
	                   * from S` under which it passes, so Positive +
	                   * Negative; may exceed candidates when the model
	                   * chooses (lock.cat's lock writes)                 */
	long allowed;     /* candidates counted in complete, each once: equal
	                   * to complete unless some candidate passed under
	                   * several choices                                   */
	long forbidden;   /* candidates the model rejected under every choice  */
	long filtered;    /* candidates built, then dropped by the test's
	                   * filter (the enumerator builds none with a thread
	                   * path the filter rejects on its own)             */
	long toofar;      /* candidates cut by the unroll limit                */
	long blocked;     /* explorations cut early by the model (rsmc; 0 for
	                   * an engine that explores no partial executions)   */
	long commits;     /* commits of stores (rsmc; 0 for the others)        */
	long value_rounds;/* rounds of the value-set fixpoint                  */
	long interpreted; /* candidates the model judged with its evaluator,
	                   * having no compiled form for them (cat.h's
	                   * cat_model_check_counts)                          */
	long own[ENGINE_OWN_STATS]; /* the engine's own counters, named by its
	                   * descriptor (engine_desc.own_stats)               */
} engine_stats;

typedef struct test_result {
	const struct engine_desc *engine; /* the engine that answered          */
	/* The displayed lvals: those of the condition, then those of the
	 * `locations [...]` list, each once, in that order (reports reorder). */
	int n_lvals;
	lval *lvals;
	int n_states;
	final_state *states;  /* in order of discovery (reports sort)          */
	long pos, neg;        /* allowed executions where the condition's
	                       * proposition holds / does not hold             */
	int n_flags;
	char **flags;         /* flag checks that fired on some counted
	                       * execution, sorted by name, each once          */
	bool loop;            /* some execution cut by the unroll limit was
	                       * allowed by the model (herd: "Loop Ok/No")     */
	bool timed_out;       /* -timeout hit: the counts are incomplete       */
	bool over_budget;     /* engine_opts.budget hit: the counts are
	                       * incomplete, and engine_run discards them     */
	srcloc addr_dropped;  /* an access where some path was dropped because
	                       * its address, computed from values read, is no
	                       * location (herd drops those candidates too);
	                       * file NULL when none was.  engine_run warns
	                       * when the test is left with no execution. */
	/* Why the engine asked for could not vouch that it reached every
	 * allowed execution, and so left the test to the reference engine,
	 * whose answer this is (engine is then the reference;
	 * stats.blocked keeps the first engine's count): a reason of the
	 * engine asked for, 1 .. its n_fallbacks - 1 (engine_fallback_reason),
	 * 0 when it answered itself.  The engine says nothing itself: its
	 * caller decides how to tell the user. */
	int fallback;
	const char *order;    /* rsmc: the commit-before order it used
	                       * (power, tso, sc, generic, declared), with
	                       * "(proven)" for a proven model; NULL for the
	                       * enumerator */
	engine_stats stats;
	double time;          /* seconds of CPU time spent in engine_run       */
	live_counts *live;    /* engine_opts.live, which result_count_execution
	                       * and result_count_candidate keep up to date    */
} test_result;

/* What an engine does, as far as the command line and the reports need to
 * know it: they ask the descriptor, never the engine's name. */
enum engine_cap {
	/* builds every candidate execution, forbidden ones included, and
	 * passes each to engine_opts.on_candidate (-show, -explain) */
	ENGINE_EVERY_CANDIDATE = 1u << 0,
	/* passes on_candidate a witness of each state it reports, and one
	 * execution the model forbids when the condition's states are not
	 * reached: enough for -explain, not for -show */
	ENGINE_WITNESSES = 1u << 1,
	/* judges candidates one by one and counts them (engine_stats'
	 * candidates, complete, forbidden...); one that does not reports
	 * its states and its own counters only */
	ENGINE_COUNTS = 1u << 2,
	ENGINE_SKIPCHECKS = 1u << 3,  /* honours -skipchecks and -through    */
	ENGINE_SPEEDCHECK = 1u << 4,  /* honours engine_opts.speedcheck      */
	/* the reference the others are checked against, the one a test is
	 * left to, and the one run when no engine is named (exactly one) */
	ENGINE_REFERENCE = 1u << 5,
	/* the one a run uses when no -engine is given and no option needs
	 * the reference (exactly one) */
	ENGINE_DEFAULT = 1u << 6,
};

/* Did flag `name` fire on a counted execution (cat.h's CAT_UNDEF_FLAG:
 * herd's Undef)? */
bool result_has_flag(const test_result *r, const char *name);

struct test_result;

/* One engine: each engine's folder defines its descriptor, and engine.c's
 * registry lists them. */
typedef struct engine_desc {
	const char *name;
	const char *title;         /* what messages call it: "the enumerator" */
	unsigned caps;             /* enum engine_cap bits                   */
	bool (*run)(const litmus_test *t, cat_model *m, const engine_opts *o, struct test_result *r,
		    diag *d);
	/* Without ENGINE_SKIPCHECKS: why not, in words (static text). */
	const char *no_skipchecks;
	/* Names of engine_stats.own[i] in -stats' line and in YAML (NULL
	 * past the last); an engine without ENGINE_COUNTS prints these
	 * instead of the counts. */
	const char *own_stats[ENGINE_OWN_STATS];
	const char *own_stats_yaml[ENGINE_OWN_STATS];
	/* Its reasons for leaving a test to the reference engine
	 * (test_result.fallback 1 .. n_fallbacks - 1) in words, to follow
	 * "test T, model 'M': " or "N tests: " (static text); 0 reasons:
	 * it never does.  fallback_warning is the reason that is the
	 * model's author's to mend (said as a warning, not a note), or 0. */
	const char *(*fallback_reason)(int why);
	int n_fallbacks;
	int fallback_warning;
	/* NULL, or a reason (1 .. n_fallbacks - 1) when on test t under
	 * model m the reference engine is likely faster while the test is
	 * small, else 0: when weft chose this engine (engine_opts.weft_chose)
	 * engine_run has the reference engine try the test first, within
	 * ENGINE_REFERENCE_BUDGET candidates, and runs this engine only when
	 * that is not enough. */
	int (*reference_first)(const litmus_test *t, const cat_model *m);
} engine_desc;

/* The candidates the reference engine may judge when an engine's
 * reference_first says it is likely faster: about 6 ms of its work on
 * AArch64 under herd's aarch64.cat, where rsmc needs about ten times
 * the enumerator's time per candidate on the corpus's tests (rsmc's
 * commits cost ~30 us, a candidate ~3 us) but explores far fewer of
 * them once a test grows (SB+4W: 14,400 candidates, 162 commits). */
#define ENGINE_REFERENCE_BUDGET 2000
#define ENGINE_REFERENCE_BUDGET_TEXT "2,000"

/* The engine named `name`, NULL when this build has none such. */
const engine_desc *engine_find(const char *name);

/* The engine with every bit of `cap` (the first registered), NULL when
 * none has them: engine_with(ENGINE_REFERENCE), engine_with(ENGINE_DEFAULT). */
const engine_desc *engine_with(unsigned cap);

/* The names of the engines with every bit of `cap` (0: all), in the
 * registry's order, separated by ", " and the last two by `last_sep`
 * (", ", " or "), appended to b. */
void engine_names(strbuf *b, unsigned cap, const char *last_sep);

/* The reason engine e gave (test_result.fallback) in words. */
const char *engine_fallback_reason(const engine_desc *e, int why);

/* Run engine `engine_name` (NULL: the reference engine).  The
 * model may be NULL: every candidate is then allowed (useful to count
 * candidates).  Returns false, after reporting through d, when the engine
 * does not exist or the run itself failed (the model could not evaluate an
 * execution); a division by zero only drops the paths concerned, with a
 * warning, and an access through an address that is not a location is
 * an error located at the instruction (herd7 rejects such a test), which
 * the caller sees as d's error count growing.  An engine that cannot
 * vouch for a test has it answered by the reference engine
 * (test_result.fallback). */
bool engine_run(const char *engine_name, const litmus_test *t, cat_model *m,
                const engine_opts *o, test_result *out, diag *d);
void test_result_free(test_result *r);

#endif
