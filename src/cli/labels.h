/* labels.h — the name each model of a run goes by, and which model an
 * -expect file's key names.
 *
 * A model's label is what a YAML document's `model:`, a table's column and
 * herd output's `Model` line call it.  It is the model's short name
 * (suite_model_key: "power" for -model power, -model ppc and -model
 * v/power.cat); when two -model arguments share a short name, each of them
 * is labelled by its argument as written (so "power" and "v/power.cat"),
 * and an argument written twice gets "#2" after its second label.  A
 * -model LABEL=FILE is labelled LABEL (options.c refuses two alike).
 *
 * An -expect key names the model of the run whose label, -model argument
 * as written, or title (the string at the top of its .cat file) it is, or
 * else the one model of the run whose short name the key's short name is.
 * A key that names none is an error when -model chose the run's models; in
 * a run of the architectures' default models, a key that names another
 * model on the search path is only a note (one file of expectations for
 * several models, run under the defaults), any other key an error.
 */
#ifndef WEFT_LABELS_H
#define WEFT_LABELS_H

#include "models.h"
#include "options.h"
#include "select.h"

typedef struct run_models {
	int n;
	const char **name;    /* the -model arguments, or the default model of
	                       * each architecture of the plan (borrowed)     */
	char **label;         /* owned */
	bool chosen;          /* the names are -model arguments              */
	model_cache *cache;   /* for titles and the search path (borrowed)   */
	diag *d;              /* where unresolved keys are reported          */
	int bad_keys;         /* -expect keys that named no model (errors)   */
} run_models;

/* The models of a run (loaded or not, through c), with their labels. */
void run_models_init(run_models *r, const weft_options *o, const test_plan *plan, model_cache *c, diag *d);
void run_models_free(run_models *r);
/* The label of model `name` (a -model argument or a default model name):
 * borrowed; the short name for a model not of the run. */
const char *run_models_label(const run_models *r, const char *name);
/* An expect_resolver (suite.h) over a run_models: reports keys that name
 * no model of the run (counted in bad_keys when they are errors). */
const char *run_models_resolve(void *ctx, const char *key, const char *file, int line, int uses);

#endif
