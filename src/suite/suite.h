/* suite.h — a suite's results and expectations as data.
 *
 * Results as YAML: one YAML document per test (read them with a multi-
 * document loader, e.g. Python's yaml.safe_load_all), emitted with libyaml
 * so that quoting is always right:
 *
 *   ---
 *   name: SB
 *   file: litmus/PPC/SB.litmus
 *   arch: PPC
 *   model: power
 *   engine: enumerate
 *   seq: 12                        # place among the run's selected tests
 *   run: {id: 3f0c..., weft: 0.1.0, engine: rsmc, options: -unroll 2,
 *         models: [power, sc], selected: 40, shard: 2/4}
 *   model_file: /usr/share/weft/cat/power.cat
 *   model_fingerprint: 9a1e...     # cat_model_fingerprint
 *   kind: Allowed                  # from the quantifier, as herd's Test line
 *   condition: exists (0:r3=0 /\ 1:r3=0)
 *   states:                        # sorted by their text
 *   - state: 0:r3=0; 1:r3=0; [x]=1; [y]=1;
 *     bindings: {0:r3: 0, 1:r3: 0, x: 1, y: 1}
 *     count: 1                     # allowed executions ending here
 *     holds: true                  # the condition's proposition holds
 *   positive: 1                    # allowed executions where it holds
 *   negative: 3                    # the others (never swapped, unlike herd)
 *   verdict: Ok                    # herd's Ok/No; or Timeout, OutOfMemory,
 *                                  # Crashed, Error for a test that has no result
 *   outcome: allowed               # allowed/forbidden/required, see below
 *   observation: Sometimes
 *   loop: false
 *   flags: []
 *   hash: 0123...
 *   time: 0.01
 *   stats: {paths: 4, candidates: 16, ...}
 *
 * Expectations (-expect FILE.yaml): test name -> model -> verdict, or
 * -> {verdict: V, states: [STATE, ...]}; or a stream of the result documents
 * above (a recorded baseline: each expects its outcome and its states).  A
 * model key names a model of the run (see expect_resolve).  A verdict is one of
 *   allowed    some allowed execution satisfies the condition's proposition
 *   forbidden  none does
 *   required   all do
 *   Ok, No     herd's verdict on the condition as written
 * whatever the test's quantifier.  States are compared as sets, each state a
 * set of bindings (`x=1` and `[x]=1` are the same binding).
 */
#ifndef WEFT_SUITE_H
#define WEFT_SUITE_H

#include <stdbool.h>
#include <stdio.h>

#include "../engine/engine.h"
#include "../prog/prog.h"
#include "../util/util.h"

/* ---- final states as text ------------------------------------------------- */


/* A state line in canonical form for comparison: bindings without brackets
 * or spaces, sorted, each followed by ';' (e.g. "0:r1=1;1:r3=0;x=2;").
 * Owned by the caller. */
char *state_normalize(const char *text);
/* A set of state lines in canonical form: each normalized, sorted, joined
 * by single spaces ("" for none); what tables compare cells by (-diff).
 * Owned by the caller. */
char *state_set_text(char *const *lines, int n);
/* The same for the final states of a result. */
char *state_set_of_result(const litmus_test *t, const test_result *r);

/* allowed / forbidden / required, from the counts. */
const char *outcome_name(long pos, long neg);
/* herd's verdict on the condition as written. */
bool verdict_ok(enum quantifier q, long pos, long neg);

/* ---- result documents (-format yaml, -format json) ------------------------- */

/* The syntax of a result document: a YAML document with an explicit "---",
 * or a JSON object on one line (a run's output is then JSON Lines). */
enum doc_syntax { DOC_YAML, DOC_JSON };

/* What produced a document (`run:`): the same in every document of a run,
 * all its shards included, so that saved results can be joined and a table
 * can tell results of different producers apart (results.h). */
typedef struct doc_run_info {
	const char *id;       /* MD5 over the fields below (not the shard) and
	                       * the selected tests' names */
	const char *weft;     /* weft's version */
	const char *engine;   /* the engine asked for (rsmc by default) */
	const char *options;  /* the options that change results, e.g.
	                       * "-unroll 2 -timeout 60" */
	int n_models;         /* the -model labels in order; 0: each
	                       * architecture's default */
	const char *const *models;
	int selected;         /* tests selected, before -shard */
	int shard_k, shard_n; /* -shard K/N; 0/0: none */
} doc_run_info;

typedef struct doc_test_info {
	const char *name;
	const char *file;
	const char *arch;     /* may be NULL */
	const char *model;    /* model key, may be NULL */
	const char *engine;   /* may be NULL */
	int seq;              /* the test's place among the selected tests,
	                       * from 1 (test_entry.seq); 0: not written */
	const doc_run_info *run;        /* NULL: not written */
	const char *model_file;          /* the model's file, may be NULL */
	const char *model_fingerprint;   /* cat_model_fingerprint, may be NULL */
	const char *condition;           /* a failure's condition as herd prints
	                                  * it, when the test was read; NULL:
	                                  * none (results write their own) */
} doc_test_info;

/* A JSON string (jansson's json_t) of s: a name or path in another
 * encoding than UTF-8 with '?' for each byte that is not ASCII, rather
 * than lost (doc_json.c; weft -serve's answers use it too). */
struct json_t;
struct json_t *json_lossy_string(const char *s);

/* The document of a test that ran. */
void doc_emit_result(FILE *out, enum doc_syntax syntax, const doc_test_info *info, const litmus_test *t,
		     const test_result *r);
/* The document of a test without a result: verdict `verdict` ("Timeout",
 * "OutOfMemory", "Crashed", "Error"), plus `detail_key: detail` when
 * detail_key is not NULL (e.g. "timeout", 60). */
void doc_emit_failure(FILE *out, enum doc_syntax syntax, const doc_test_info *info, const char *verdict,
		      const char *detail_key, double detail);

/* ---- saved results (-results: results_read.c, results_herd.c, results_join.c)
 *
 * What earlier runs said, read back to make tables without running anything:
 * weft's -format yaml documents, and herd7 (or weft) result logs.  A herd
 * log's column is the `Model LABEL` line of a block when it has one (weft's
 * several-model logs), else the log's file name without its extension
 * (`sc.log` gives `sc`); it says nothing of its producer or of the order its
 * tests were selected in, so its rows come in the log's order. */

enum saved_status {
	SAVED_ALLOWED,        /* some allowed execution satisfies the proposition */
	SAVED_FORBIDDEN,
	SAVED_TIMEOUT,
	SAVED_ERROR,
	SAVED_CRASHED,
	SAVED_OUT_OF_MEMORY,
};

/* One (test, model) result. */
typedef struct saved_result {
	char *name;
	char *path;           /* the test's file as its run named it, NULL:
	                       * unknown (a herd log); tells apart two tests of
	                       * one name in two folders */
	char *model;          /* the column it goes in */
	int run;              /* index into the set's runs, -1: none known */
	int producer;         /* index into the set's producers */
	int seq;              /* place among the run's selected tests, 0: unknown */
	int shard_k, shard_n; /* 0/0: not sharded, or unknown */
	bool quant_known;
	enum quantifier quant;
	char *condition;      /* as herd prints it, NULL: unknown */
	enum saved_status status;
	bool ok;              /* herd's verdict (allowed and forbidden only) */
	long pos, neg;        /* allowed executions where the proposition holds / not */
	int n_states;
	char *states;         /* the states in canonical form (state_set_text),
	                       * NULL: the reader did not keep them (owned) */
	bool has_stats;
	long candidates, forbidden;
	int file, line;       /* where it was read: files[file], for messages */
	int order;            /* the order it was read in */
} saved_result;

/* A run, from its documents' `run:` mapping. */
typedef struct saved_run {
	char *id;
	int selected;
	int shard_n;          /* of its first document */
	int n_models;         /* its -model labels, 0: the defaults */
	char **models;
	int rank;             /* first met: runs are tabulated in this order */
} saved_run;

typedef struct saved_set {
	int n;
	size_t cap;
	saved_result *v;
	int n_files;
	char **files;
	int n_producers;
	char **producers;     /* each in words, e.g. "weft 0.1.0 -engine rsmc
	                       * -unroll 2, model /x/power.cat (fingerprint
	                       * 952e6761)", or "a herd log" */
	int n_runs;
	saved_run *runs;
} saved_set;

/* Read saved results from a file, or from every *.yaml, *.yml and *.log
 * file below a folder (sorted by path).  A file is YAML when its first
 * line that is not blank or a comment starts a document ("---", "%YAML" or
 * "key:"), else a herd log.  Returns false after reporting located errors through d. */
bool saved_read(saved_set *s, const char *path, diag *d);
/* As saved_read, for text in memory (`name` names it). */
bool saved_read_text(saved_set *s, const char *name, const char *text, size_t len, diag *d);
void saved_free(saved_set *s);

/* Put the results in table order (runs in the order first met, a run's
 * tests in their selection order; results without a run in the order
 * read) and check them: every selected test of each run has a result (a
 * missing shard is named), none has two for one model (a shard given
 * twice), and no column mixes producers.  Each problem is an error, or a
 * note under `force` (then of two results the first read is kept).
 * Returns false when there was an error. */
bool saved_join(saved_set *s, bool force, diag *d);

/* ---- expectations ------------------------------------------------------------ */

/* A model's short name: the base name without ".cat", herd's aliases
 * folded ("ppc" -> "power", "x86tso" -> "tso").  It is the model's label in
 * YAML output and tables unless two models of a run share it (cli/labels.c).
 * Owned by the caller. */
char *suite_model_key(const char *name_or_path);

typedef struct expect_set expect_set;

expect_set *expect_new(void);
/* Add the expectations of one file.  Returns false after reporting located
 * errors through d. */
bool expect_read(expect_set *s, const char *path, diag *d);
/* As expect_read, from len bytes of text in memory; `name` names it in
 * messages. */
bool expect_read_text(expect_set *s, const char *name, const char *text, size_t len, diag *d);
void expect_free(expect_set *s);
/* Number of expectations read. */
int expect_count(const expect_set *s);

/* Asked once for each distinct model key of the expectations read (`file`
 * and `line` where it first appears, `uses` how many expectations use it):
 * the label of the run's model it names, or NULL to drop those expectations
 * (the resolver says why). */
typedef const char *(*expect_resolver)(void *ctx, const char *key, const char *file, int line, int uses);
/* Replace every expectation's model key by the label the resolver gives
 * (the label the run's output uses), dropping those it gives none. */
void expect_resolve(expect_set *s, expect_resolver resolve, void *ctx);

/* Check test t's result under the model labelled `model_key` against every
 * expectation for (t->name, model_key).  Each failing one appends a line
 *   NAME (MODEL): expected forbidden, got allowed (positive 1, negative 3)
 * (or a states difference) to *notes.  Adds 1 to *compared when there was
 * any expectation.  Returns the number that failed. */
int expect_check(const expect_set *s, const litmus_test *t, const char *model_key,
		 const test_result *r, strbuf *notes, int *compared);

/* ---- the Linux kernel's judgement (judge.c) ------------------------------------ */

/* A C test of the kernel's says what the LKMM should answer in a comment
 * line ` * Result: Never` (or `(* Result: ...`): Always, Sometimes, Never,
 * Maybe or DEADLOCK, then optionally DATARACE.  tools/memory-model's
 * judgelitmus.sh holds herd7's output against it; judge_output applies its
 * rules to weft's:
 *  - a DATARACE prediction and a `Flag data-race` line come together, or
 *    the test fails ("!!! Predicted data race not modeled FILE",
 *    "!!! Unexpected data race modeled FILE");
 *  - no Observation line: the test fails, in herd's words for an unknown
 *    primitive (": Unknown macro NAME (User error)"), a timeout, or any
 *    other error (" !!! Verification error FILE");
 *  - DEADLOCK means an Observation ending `Never 0 0`, and only it does
 *    (" !!! Unexpected non-DEADLOCK verification FILE",
 *    " !!! Unexpected non-Never deadlock FILE");
 *  - else the Observation line holds the outcome word, or the word is
 *    Maybe; a miss with a data race both predicted and flagged is forgiven
 *    (" --- Forgiven non-Never verification FILE"), else it fails
 *    (" !!! Unexpected non-Never verification FILE").
 * A test without a Result: line that has an Observation is not judged (the
 * script would fail it as "non-specified"): the caller counts it apart;
 * without an Observation it fails as above. */
typedef struct judge_expect {
	bool has_result;  /* a Result: line                               */
	char *outcome;    /* the word after the first one's "Result:" (owned;
	                   * "" when none), e.g. "Never"                   */
	bool datarace;    /* a Result: line says DATARACE                 */
} judge_expect;

/* Read the Result: lines of a test's text. */
void judge_expect_read(judge_expect *e, const char *text, size_t len);
void judge_expect_free(judge_expect *e);

enum judge_verdict {
	JUDGE_PASS,
	JUDGE_FORGIVEN,   /* passes, with the kernel's " --- Forgiven" line */
	JUDGE_FAIL,
	JUDGE_UNJUDGED,   /* no Result: line                               */
};

/* Judge a test from its output (result block and diagnostics, the text a
 * kernel script's FILE.litmus.out holds).  Appends the kernel's line for
 * the test (naming it `file`) to *line when there is one: for every
 * failure and every forgiven miss. */
enum judge_verdict judge_output(const judge_expect *e, const char *out, size_t len, const char *file,
                                strbuf *line);

#endif
