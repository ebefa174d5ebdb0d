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

typedef struct weft_options {
	enum weft_action action;
	const char *model;       /* -model NAME|FILE, NULL: per-arch default */
	const char *engine;      /* -engine NAME */
	int n_include;
	const char **include;    /* -I DIR, in order */
	double timeout;          /* -timeout SECONDS, 0: none */
	bool stats;              /* -stats */
	int n_inputs;
	const char **inputs;     /* files, directories, @LIST files */
} weft_options;

/* Parse argv into *o (pointers borrow argv).  Returns 0 on success, or
 * prints a message to stderr and returns 2 (the usage-error exit status). */
int options_parse(weft_options *o, int argc, char **argv);
void options_free(weft_options *o);
void options_print_help(FILE *out);

#endif
