/* results_int.h — between the readers of saved results (results_*.c). */
#ifndef WEFT_RESULTS_INT_H
#define WEFT_RESULTS_INT_H

#include "suite.h"

/* A new result at the end of s, zeroed but for its order, its run (-1) and
 * its file; the caller fills the rest. */
saved_result *saved_add(saved_set *s, int file);
/* The index of producer `text` (added when new). */
int saved_producer(saved_set *s, const char *text);
/* The index of run `id` (added, with these fields, when new). */
int saved_run_of(saved_set *s, const char *id, int selected, int shard_n, int n_models, char **models);

/* What one document of weft's -format yaml output says, before it becomes a
 * saved_result (results_doc.c); the readers fill it. */
/* Free what one result owns (its set owns the array). */
void saved_result_free(saved_result *r);

typedef struct saved_doc {
	char *name, *model, *verdict, *kind, *condition;
	char *file;             /* the test's file as its run named it */
	char *run_id, *weft, *engine, *options, *shard;   /* run: */
	char *model_file, *fingerprint;
	long pos, neg, seq, selected, candidates, forbidden;
	bool has_pos, has_neg, has_stats;
	int n_states;
	int n_state_lines;      /* states: their `state` lines, when the reader */
	char **state_lines;     /* kept them all (states_kept)              */
	bool states_kept;
	int n_models;
	char **models;          /* run: models: */
	int line;               /* where the document starts */
} saved_doc;

/* Where a scalar is: at the top of the document, in run:, in stats:. */
enum doc_section { DOC_TOP, DOC_RUN, DOC_STATS };

/* The scalar `value` of `key` in `section`; keys of no use to a table are
 * skipped.  Returns NULL, or what is wrong with it (a static message). */
const char *saved_doc_scalar(saved_doc *x, enum doc_section section, const char *key, const char *value);
/* One label of run: models:. */
void saved_doc_model(saved_doc *x, const char *label);
/* The `state` line of one item of states: (the reader sets states_kept
 * when it kept every item's). */
void saved_doc_state(saved_doc *x, const char *line);
/* x becomes a result of files[file] (its strings moved out); false after
 * reporting what it lacks through d. */
bool saved_doc_add(saved_set *s, int file, saved_doc *x, diag *d);
void saved_doc_free(saved_doc *x);

/* The readers of one file's text (NUL-terminated, len bytes), files[file]. */
bool saved_read_yaml(saved_set *s, int file, const char *text, size_t len, diag *d);
/* weft's own layout of it only, fast: -1 (nothing added) when the text is
 * laid out otherwise (then saved_read_yaml reads it), else as the others. */
int saved_read_yaml_fast(saved_set *s, int file, const char *text, size_t len, diag *d);
bool saved_read_herd(saved_set *s, int file, const char *text, size_t len, diag *d);
/* weft's -format json output (results_json.c); `name` locates errors. */
bool saved_read_json(saved_set *s, int file, const char *name, const char *text, size_t len, diag *d);

#endif
