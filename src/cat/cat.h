/* cat.h — memory models written in herd's cat language: the oracle.
 *
 * A model is loaded (parsed, includes resolved, compiled) once, then asked
 * about executions.  The engine never sees the model's text; the model never
 * sees the program's text.
 *
 * Ownership: cat_model_load() returns a model owned by the caller, released
 * with cat_model_free().  A cat_verdict's strings are owned by the model.
 */
#ifndef WEFT_CAT_H
#define WEFT_CAT_H

#include <stdbool.h>

#include "../exec/exec.h"
#include "../util/util.h"

typedef struct cat_model cat_model;

/* Where `include "f.cat"` and -model NAME look, in order: the including
 * file's folder, each -I folder, each folder of $WEFT_CAT_PATH (colon
 * separated), then the installed data folder. */
typedef struct cat_search_path {
	int n;
	const char **dirs;
} cat_search_path;

/* Load a model from a file path, or by NAME (finds NAME.cat on the search
 * path; "ppc" and "x86tso" are aliases of power and tso).  Returns NULL after
 * reporting located errors through d. */
cat_model *cat_model_load(const char *name_or_path, const cat_search_path *sp, diag *d);
void cat_model_free(cat_model *m);
/* The model's title (the quoted string or first word at its top), or its
 * file's base name. */
const char *cat_model_name(const cat_model *m);

/* What the model says of one complete execution. */
typedef struct cat_verdict {
	bool allowed;             /* no non-flag check failed                 */
	const char *failed;       /* name of the first failing check, or NULL */
	int n_flags;              /* flag checks that fired, in model order   */
	const char *const *flags; /* their names                              */
} cat_verdict;

/* Evaluate every check of the model on a complete execution.  Returns false
 * (after reporting through d) only when evaluation itself fails, e.g. a
 * type error that could only be seen at run time. */
bool cat_model_check(cat_model *m, const execution *x, cat_verdict *out, diag *d);

#endif
