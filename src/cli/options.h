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
	FMT_YAML,    /* one YAML document per test */
};

/* A list of borrowed strings (pointers into argv), in command-line order. */
typedef struct str_list {
	int n;
	const char **v;
} str_list;

typedef struct weft_options {
	enum weft_action action;
	enum weft_format format;  /* -format */
	/* -model NAME|FILE, in order; empty: the per-arch default.  A list so
	 * that running several models in one go can come without a new
	 * interface; for now main accepts at most one. */
	str_list models;
	const char *engine;      /* -engine NAME */
	str_list include;        /* -I DIR, in order */
	double timeout;          /* -timeout SECONDS, 0: none */
	long maxmem_mb;          /* -maxmem MB, 0: none */
	int jobs;                /* -j N, 0: one per online core */
	bool stats;              /* -stats */
	bool quiet;              /* -q: no progress, no summary */
	bool failures_ok;        /* -failures-ok: timeouts, out-of-memory and
	                          * crashes do not make the exit status 1 */
	str_list select;         /* -select REGEX */
	str_list excl_regex;     /* -excl REGEX (argument is not a file) */
	str_list excl_files;     /* -excl FILE (argument is an existing file) */
	str_list names_files;    /* -names FILE */
	str_list expect_files;   /* -expect FILE.yaml */
	int shard_k, shard_n;    /* -shard K/N; 0/0: everything */
	str_list inputs;         /* files, directories, @LIST files */
} weft_options;

/* Parse argv into *o (pointers borrow argv).  Returns 0 on success, or
 * prints a message to stderr and returns 2 (the usage-error exit status). */
int options_parse(weft_options *o, int argc, char **argv);
void options_free(weft_options *o);
void options_print_help(FILE *out);

#endif
