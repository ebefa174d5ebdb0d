/* models.h — the cat search path of a run, and models loaded once per name.
 *
 * The parent loads every model the selected tests need before it forks any
 * worker, so each model is parsed once per run (workers share it copy-on-
 * write) and a broken model is reported once, not once per test.
 */
#ifndef WEFT_MODELS_H
#define WEFT_MODELS_H

#include "options.h"
#include "../cat/cat.h"

typedef struct cached_model {
	char *name;
	cat_model *model;   /* NULL: loading failed (reported once) */
} cached_model;

typedef struct model_cache {
	int n;
	size_t cap;
	cached_model *entries;
	cat_search_path path;
	char *env_copy;     /* $WEFT_CAT_PATH, split in place into path.dirs */
} model_cache;

/* -I dirs, then $WEFT_CAT_PATH, then the installed models, then the source
 * tree's models (so a weft that was built but not installed still finds its
 * own models). */
void model_cache_init(model_cache *c, const weft_options *o);
/* The model called `name`, loaded on first use (errors reported through d
 * then, and NULL returned now and on every later call). */
cat_model *model_cache_get(model_cache *c, const char *name, diag *d);
void model_cache_free(model_cache *c);

#endif
