/* options.h — weft's command line: the one options struct, filled from argv.
 *
 * Options follow herd7's conventions: single-dash long names (`-model sc`),
 * and the GNU spelling `--model sc` / `--model=sc` is accepted too.  The help
 * text is generated from the same table that parses, so it cannot drift.
 */
#ifndef WEFT_OPTIONS_H
#define WEFT_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

enum weft_action {
	ACT_RUN,     /* run tests and print herd result blocks */
	ACT_CHECK,   /* parse only */
	ACT_DUMP,    /* print the parsed program */
	ACT_HELP,
	ACT_VERSION,
};

enum weft_format {
	FMT_HERD,    /* herd7's result blocks (the default) */
	FMT_YAML,    /* one YAML document per test and model */
	FMT_JSON,    /* the same documents as JSON objects, one a line */
};

/* Does the output hold one result document per test and model (YAML or
 * JSON, result_doc.c), rather than herd's blocks? */
static inline bool format_is_documents(enum weft_format f)
{
	return f == FMT_YAML || f == FMT_JSON;
}

/* -table: one row per test, one column per model (report_extra.h). */
enum weft_table {
	TBL_NONE,
	TBL_MARKDOWN,
	TBL_LATEX,
	TBL_CSV,
	TBL_LATEX_DOC,  /* the LaTeX fragment in a document of its own */
	TBL_HTML,       /* a page of its own: sortable, coloured */
	TBL_DIFF,       /* -diff: not a table, the tests whose two columns
	                 * differ (table_diff.c), built as a table is */
};

/* -table-cells: what a table cell says. */
enum weft_cells {
	CELLS_VERDICT,  /* Allowed / Forbidden                        */
	CELLS_COUNTS,   /* and the positive/negative execution counts */
	CELLS_STATES,   /* and the number of distinct final states    */
};

/* -table-order: the order of a table's rows (and of -diff's lines). */
enum weft_order {
	ORDER_INPUT,    /* the order the tests were given (saved: run order) */
	ORDER_NAME,     /* by test name, bytes compared: mcompare7's order   */
	ORDER_NAMES,    /* the order of the -names files' lines              */
};

/* -show: which executions get a Graphviz file (herd7's -show). */
enum weft_show {
	SHOW_NONE,
	SHOW_PROP,   /* allowed executions where the proposition holds */
	SHOW_NEG,    /* allowed executions where it does not          */
	SHOW_ALL,    /* every allowed execution                        */
};

/* A list of borrowed strings (pointers into argv), in command-line order. */
typedef struct str_list {
	int n;
	const char **v;
	int cap;      /* allocated entries of v */
} str_list;

/* -speedcheck: herd's Speed tags. */
enum weft_speed {
	SPEED_FALSE,  /* list every final state (the default)            */
	SPEED_TRUE,   /* herd: check the condition early; same output    */
	SPEED_FAST,   /* stop at the first execution deciding the verdict */
};

typedef struct weft_options {
	enum weft_action action;
	enum weft_format format;  /* -format */
	/* -model NAME|FILE, in order; empty: the per-arch default.  Every test
	 * runs under each of them, in this order. */
	str_list models;
	str_list model_labels;   /* the LABEL of each -model LABEL=FILE, NULL
	                          * where none was given (labels.h) */
	const char *engine;      /* -engine NAME; without it rsmc, or enumerate
	                          * under -explain or -show (which need every
	                          * candidate execution) */
	bool engine_given;       /* -engine was on the command line */
	str_list include;        /* -I DIR, in order */
	double timeout;          /* -timeout SECONDS, 0: none */
	long maxmem_mb;          /* -maxmem MB, 0: none */
	int unroll;              /* -unroll N: backward jumps taken per loop
	                          * head on a path; -1 (not given): herd's
	                          * default, 2 */
	int jobs;                /* -j N, 0: one per online core */
	bool stats;              /* -stats */
	bool quiet;              /* -q: no progress, no summary */
	bool verbose;            /* -v: each test rsmc leaves to the
	                          * enumerator named where it runs */
	bool failures_ok;        /* -failures-ok: timeouts, out-of-memory and
	                          * crashes do not make the exit status 1 */
	str_list select;         /* -select REGEX */
	str_list excl_regex;     /* -excl REGEX (argument is not a file) */
	str_list excl_files;     /* -excl FILE (argument is an existing file) */
	str_list names_files;    /* -names FILE */
	str_list expect_files;   /* -expect FILE.yaml */
	int shard_k, shard_n;    /* -shard K/N; 0/0: everything */
	enum weft_table table;   /* -table FORMAT */
	enum weft_cells cells;   /* -table-cells WHAT */
	enum weft_order order;   /* -table-order HOW */
	const char *output;      /* -o: the table's file, or -show's folder */
	const char *hardware;    /* -hardware LOG: a table column from a log */
	const char *hardware_label; /* -hardware LABEL=LOG: its column's header */
	const char *caption;     /* -table-caption TEXT (LaTeX tables) */
	const char *label;       /* -table-label KEY (LaTeX tables) */
	bool explain;            /* -explain */
	bool interactive;        /* -i: explore one test by hand (interactive.h) */
	bool serve;              /* -serve: the same in a web page (serve.h) */
	const char *serve_at;    /* its [ADDR:]PORT, NULL: the default */
	enum weft_show show;     /* -show WHICH */
	bool through;            /* -through invalid|all: forbidden executions
	                          * are counted and drawn as allowed ones   */
	bool interpret;          /* -interpret: complete executions are judged
	                          * by the cat evaluator, never compiled    */
	bool strict_skip;        /* -strictskip true: only the executions that
	                          * fail every -skipchecks check */
	str_list skipchecks;     /* -skipchecks NAME,... (each argument a
	                          * comma-separated list; repeatable)       */
	str_list conds;          /* -conds FILE, in order: other final
	                          * conditions (the files add up)          */
	str_list results;        /* -results FILE|DIR: tabulate saved results
	                          * instead of running tests */
	str_list results_labels; /* -results LABEL=FILE|DIR: LABEL, else NULL
	                          * (one per -results) */
	bool force;              /* -force: saved results with missing or
	                          * repeated shards, or mixed producers, make
	                          * a table anyway (notes, not errors) */
	long nshow;              /* -nshow N / -showone: at most N graphs; 0: all */
	enum weft_speed speedcheck; /* -speedcheck */
	bool hexa;               /* -hexa: values in hexadecimal in result blocks */
	str_list libdirs;        /* -set-libdir DIR: cat and .cfg folders after -I */
	str_list variants;       /* -variant TAGS: the models' `if "TAG"` */
	const char *bell;        /* -bell FILE: a bell file read before each
	                          * model (herd's) */
	const char *macros;      /* -macros FILE (or a `macros` key): the .def
	                          * file giving C tests their primitives, as
	                          * found on the search path (owned by owned) */
	const char *conf_model;  /* a `model` key of a -conf file: used when no
	                          * -model is on the command line */
	str_list owned;          /* strings read from -conf files (owned) */
	char *conf_notes;        /* the -conf files' notes on keys weft
	                          * ignores, lines (owned), printed under -v */
	bool judge;              /* -judge: each test's Result: comment
	                          * against its result (judge.h) */
	str_list inputs;         /* files, directories, @LIST files */
} weft_options;

/* Parse argv into *o (pointers borrow argv).  Returns 0 on success, or
 * prints a message to stderr and returns 2 (the usage-error exit status). */
int options_parse(weft_options *o, int argc, char **argv);
void options_free(weft_options *o);
void options_print_help(FILE *out);

#endif
