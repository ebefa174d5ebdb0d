/* report_extra.h — results beyond herd's blocks: outcome tables (one row
 * per test, one column per model, optionally a hardware column), the
 * explanation of an outcome (which check forbids it, and a cycle of one
 * execution reaching it), and Graphviz drawings of executions.
 *
 * Tables are built in the parent process from one-line cell records that
 * each worker prints (table_record_print / table_record_parse), so that the
 * worker pool and its ordered output stay as they are.
 *
 * Ownership: an outcome_table owns its strings and rows (table_free); a
 * hw_log owns what it read (hw_log_free); an explainer owns the executions
 * it copied (explainer_free).
 */
#ifndef WEFT_REPORT_EXTRA_H
#define WEFT_REPORT_EXTRA_H

#include <stdbool.h>
#include <stdio.h>

#include "../cat/cat.h"
#include "../engine/engine.h"
#include "../exec/exec.h"
#include "../prog/prog.h"
#include "../util/util.h"

/* ---- outcome tables ---------------------------------------------------------- */

enum table_format { TABLE_MARKDOWN, TABLE_LATEX, TABLE_LATEX_DOC, TABLE_CSV, TABLE_HTML };
enum table_cells { TABLE_CELLS_VERDICT, TABLE_CELLS_COUNTS, TABLE_CELLS_STATES };

/* What one (test, model) cell holds.  Allowed / Forbidden speak of the
 * condition's proposition: allowed when some allowed execution ends in a
 * state where it holds (the "exists" reading, as mcompare's Ok). */
enum cell_status {
	CELL_NOT_RUN,      /* the test does not run under this model */
	CELL_ALLOWED,
	CELL_FORBIDDEN,
	CELL_TIMEOUT,
	CELL_ERROR,        /* could not be read, parsed or run */
	CELL_CRASHED,
	CELL_OUT_OF_MEMORY,
};

typedef struct table_cell {
	enum cell_status status;
	long pos, neg;     /* allowed executions where the proposition holds / not */
	int n_states;      /* distinct final states */
	long candidates;   /* candidate executions the model judged (-stats);
	                    * -1: not counted (bmc) */
	long forbidden;    /* of which it forbade */
	char *states;      /* the final states in canonical form
	                    * (state_set_text), NULL: not known (owned) */
} table_cell;

/* A hardware verdict on the proposition's states. */
enum hw_status { HW_UNKNOWN, HW_OBSERVED, HW_UNOBSERVED };

typedef struct table_row {
	char *name;
	bool quant_known;       /* a record told the condition's quantifier */
	enum quantifier quant;
	int n_cells;            /* grows with the model columns */
	table_cell *cells;
	enum hw_status hw;
	char *condition;        /* the test's condition as herd prints it, from
	                         * its @cond record; NULL if none came (owned) */
} table_row;

typedef struct outcome_table {
	int n_models;
	char **models;          /* column headers, model keys */
	int n_rows;
	size_t cap_rows;
	table_row *rows;
	char *hardware;         /* hardware column header, NULL: no column */
	bool stats;             /* -stats: cells add the candidate and
	                         * forbidden counts */
	const char *caption;    /* LaTeX: \caption text (LaTeX, as given), or NULL */
	const char *label;      /* LaTeX: \label key, or NULL (borrowed) */
} outcome_table;

void table_init(outcome_table *t);
void table_free(outcome_table *t);
/* The column of model `key`, added at the right when new. */
int table_column(outcome_table *t, const char *key);
/* A new row (its cells CELL_NOT_RUN); returns its index. */
int table_add_row(outcome_table *t, const char *name);
table_cell *table_cell_at(outcome_table *t, int row, int column);
/* Reorder the rows, keeping the order of rows that tie: by rank[i] for row
 * i (-1, unranked, after every ranked row), or, with rank NULL, by name,
 * bytes compared (mcompare7's order). */
void table_sort_rows(outcome_table *t, const int *rank);

/* The record a worker prints for one (test, model):
 *   @cell MODEL STATUS QUANT POS NEG STATES CANDIDATES FORBIDDEN [SET]
 * (tab-separated; r may be NULL for a status without counts; SET is
 * `states`, the final states in canonical form, when not NULL). */
void table_record_print(FILE *out, const char *model_key, enum cell_status st, enum quantifier q,
			const test_result *r, const char *states);
/* The same for every model of a test that ended abnormally. */
void table_record_status(FILE *out, const char *model_key, enum cell_status st);
/* The record of a test's condition (`@cond<TAB>exists (...)`), which the
 * hardware column judges a litmus7 histogram with. */
void table_record_condition(FILE *out, const litmus_test *t);
/* Read the records of a worker's output into row `row`; other lines are
 * ignored.  Returns the number of records read. */
int table_records_read(outcome_table *t, int row, const char *text, size_t len);

void table_write(FILE *out, const outcome_table *t, enum table_format f, enum table_cells c);

/* -diff (table_diff.c): how one test's results under two columns differ.
 * A verdict flip (the condition's states reached on one side only), the
 * same verdict with other final states, the same states with other counts,
 * a side that failed (timeout, error, ...) where the other did not fail
 * alike, a side with no result at all. */
enum diff_kind { DIFF_SAME, DIFF_VERDICT, DIFF_STATES, DIFF_COUNTS, DIFF_FAILED, DIFF_MISSING, DIFF_KINDS };

/* One line per test whose cells in columns a and b differ:
 *   KIND<TAB>TEST<TAB>A: what A says<TAB>B: what B says
 * followed, for other states, by a line per state only one side has
 * (`<TAB>- STATE` for a's, `<TAB>+ STATE` for b's).  counts[k] gets the
 * tests of each kind (DIFF_SAME included).  Returns how many differ. */
int table_diff_write(FILE *out, const outcome_table *t, int a, int b, int counts[DIFF_KINDS]);
/* "same", "verdict", "states", "counts", "failed", "missing". */
const char *diff_kind_word(enum diff_kind k);

/* ---- events as explanations name them (explain_events.c) -------------------- */

/* The name of a thread's k-th event (from 0): a, b, ..., z, aa, ab, ...
 * (owned by the caller).  The interactive session names events this way
 * too. */
char *event_letter_name(int k);
/* "W x=1 (P0)", "R* y=0 (P1)", "F sync (P0)", "B (P0)", "W x=0 (init)" */
void event_describe(const execution *x, int e, strbuf *sb);
/* fr = rf^-1; co of x (owned by the caller). */
brel execution_fr(const execution *x);
/* The base relations holding (a, b), herd's way: rfe/rfi, coe/coi,
 * fre/fri (fr may be NULL), po (followed by the names of the fences
 * po-between a and b), addr, data, ctrl, rmw, comma separated; nothing
 * when none holds. */
void edge_labels(const execution *x, const brel *fr, int a, int b, strbuf *sb);
/* Is `via` already said by one of the comma-separated labels (po for po,
 * fr for fre, sync for sync...)?  Cycles print it only when it is not. */
bool edge_via_redundant(const char *labels, const char *via);
/* A deep copy of x (x->test is shared). */
void execution_copy(execution *dst, const execution *src);

/* ---- hardware logs (table_hw.c) ------------------------------------------------- */

/* What a hardware (or any other) log says about tests: an mcompare table
 * (`NAME | V1 V2 ...`, the column whose header names "Hardware", else the
 * last), or herd7 / litmus7 result logs (Test / Observation / Condition
 * lines). */
typedef struct hw_log hw_log;

/* Read from the log's text (the caller read the file: reports open no
 * input); `path` names it in messages and gives the column's default
 * title.  NULL after reporting through d when it says nothing usable. */
hw_log *hw_log_parse(const char *path, const char *text, diag *d);
void hw_log_free(hw_log *h);
/* Its column header: the mcompare column's name, else the file's base name. */
const char *hw_log_title(const hw_log *h);
/* Whether the proposition's states of test `name` were observed (an
 * mcompare Ok, or a log's count of runs ending in them); HW_UNKNOWN when the
 * log does not name the test. */
enum hw_status hw_log_lookup(const hw_log *h, const char *name);
/* As hw_log_lookup, for a test whose condition (as herd prints it, NULL if
 * unknown) is `condition`: a litmus7 block's histogram is judged with the
 * proposition of that condition (a state satisfying it was seen), not with
 * the log's own, which litmus7 may have rewritten (`exists (not P)` is
 * logged as a Require test `forall (P)`, `exists (true)` as
 * `forall (true)`). */
enum hw_status hw_log_lookup_for(const hw_log *h, const char *name, const char *condition);
/* Number of tests it speaks of. */
int hw_log_count(const hw_log *h);

/* hw_cond.c: whether litmus7's `Condition` text (quantifier, proposition,
 * then its " is validated" verdict) has its proposition hold on a
 * histogram state (`1:r1=0; [x]=1;`): 1 or 0, or -1 when the text is not
 * a proposition read here (or names a location the state does not bind). */
int hw_condition_holds(const char *condition, const char *state);

/* ---- pictures of executions (dot.c) ---------------------------------------------- */

/* One event of a picture. */
typedef struct dot_event {
	const char *name;   /* its node: "a", "i(x)"                        */
	const char *label;  /* "a: W x=1"                                   */
	int thread;         /* its column; -1: an initial write (top row)   */
	int x;              /* its event in the execution; -1: not in it yet
	                     * (drawn dashed grey, po to it too)            */
} dot_event;

/* A relation of the model's `show` directives, over the execution's events. */
typedef struct dot_relation {
	const char *name;
	brel rel;
} dot_relation;

/* What to draw (everything borrowed).  events: the initial writes, then
 * each thread's events in program order (a column each, in that order);
 * hl: a failing check's witness (edges between execution events). */
typedef struct dot_picture {
	const char *graph_name;
	const char *title;      /* lines separated by '\n': test, verdict,
	                         * final state                              */
	int n_threads;
	int n_events;
	const dot_event *events;
	const execution *x;
	const cat_step *hl;
	int n_hl;
	int n_shown;
	const dot_relation *shown;
} dot_picture;

/* One edge as the picture draws it: between two events at most one, the
 * names of every relation holding between them in its label ("po,addr").
 * Its look says how it is drawn: the first of those relations' name (a
 * base relation: "po", "rf", "co", "fr", "addr", "data", "ctrl", "rmw"),
 * DOT_LOOK_SHOWN (a relation of the model's show directives), or
 * DOT_LOOK_WITNESS (part of a failing check's witness), DOT_LOOK_PENDING
 * (po through events not in the execution yet).  from and to are the
 * picture's event names (borrowed); the label is owned by the list. */
typedef struct dot_edge {
	const char *from, *to;
	char *label;
	const char *look;   /* static text, comparable by address too */
} dot_edge;

typedef struct dot_edges {
	int n;
	dot_edge *v;
} dot_edges;

extern const char DOT_LOOK_SHOWN[], DOT_LOOK_WITNESS[], DOT_LOOK_PENDING[];

/* The edges of p, as dot_write_picture draws them (dot_edges_free). */
void dot_picture_edges(const dot_picture *p, dot_edges *out);
void dot_edges_free(dot_edges *e);
/* Write p to `path` (dot.c says how it is laid out).  False, with the
 * reason in *why, when the file cannot be written. */
bool dot_write_picture(const char *path, const dot_picture *p, strbuf *why);
/* The relations m's show directives name that hold somewhere in x (those
 * that are not relations here are left out), base relations excepted:
 * *out owned by the caller (dot_relations_free); their number.  m may be
 * NULL (none). */
int dot_shown_relations(cat_model *m, const execution *x, dot_relation **out);
void dot_relations_free(dot_relation *v, int n);
/* dot_write_picture with the relations of m's show directives (p's own
 * shown ones are replaced while writing); m may be NULL. */
bool dot_write_with_model(const char *path, dot_picture *p, cat_model *m, strbuf *why);
/* dot_picture_edges with the relations of m's show directives (m may be
 * NULL), as dot_write_with_model draws them. */
void dot_picture_edges_with_model(dot_picture *p, cat_model *m, dot_edges *out);
/* A node's label: "a: W x=1" from "a" and "W x=1 (P0)", the thread (or
 * "(init)") left to the column (owned by the caller). */
char *dot_node_label(const char *name, const char *description);

/* ---- explanations and graphs (explain*.c, dot*.c) ---------------------------------- */

/* Which allowed executions get a .dot file (herd7's -show). */
enum show_which { SHOW_WHICH_NONE, SHOW_WHICH_PROP, SHOW_WHICH_NEG, SHOW_WHICH_ALL };

typedef struct explain_opts {
	bool explain;            /* print the explanation after the block       */
	enum show_which show;    /* executions to draw                          */
	const char *dot_dir;     /* where .dot files go (show or explain)       */
	const char *model_key;   /* for file names and headings                 */
	long max_shown;          /* -nshow: at most this many graphs; 0: all    */
} explain_opts;

/* Collects what -explain and -show need while an engine runs: pass
 * explainer_on_candidate and the explainer as engine_opts' on_candidate and
 * candidate_ctx. */
typedef struct explainer explainer;

explainer *explainer_new(const litmus_test *t, const explain_opts *o);
void explainer_on_candidate(void *ctx, const engine_candidate *c);
/* After the run: print the explanation to out (when asked), write the .dot
 * files (when asked).  The model is used again here (after the engine is
 * done with it).  Returns false after reporting through d when a file could
 * not be written or the model could not evaluate. */
bool explainer_finish(explainer *e, cat_model *m, const test_result *r, FILE *out, diag *d);
void explainer_free(explainer *e);

#endif
