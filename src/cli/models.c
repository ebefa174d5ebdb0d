/* models.c — search path and model cache. */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "models.h"

void model_cache_init(model_cache *c, const weft_options *o)
{
	memset(c, 0, sizeof *c);
	const char *env = getenv("WEFT_CAT_PATH");
	int cap = o->include.n + 2;
	if (env) {
		cap++;
		for (const char *p = env; *p; p++)
			cap += *p == ':';
	}
	const char **dirs = xcalloc((size_t)cap, sizeof *dirs);
	int n = 0;
	for (int i = 0; i < o->include.n; i++)
		dirs[n++] = o->include.v[i];
	if (env) {
		c->env_copy = xstrdup(env);
		char *save = NULL;
		for (char *p = strtok_r(c->env_copy, ":", &save); p; p = strtok_r(NULL, ":", &save))
			dirs[n++] = p;
	}
	dirs[n++] = WEFT_CATDIR;
	dirs[n++] = WEFT_SOURCE_CATDIR;
	c->path.n = n;
	c->path.dirs = dirs;
}

cat_model *model_cache_get(model_cache *c, const char *name, diag *d)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->entries[i].name, name))
			return c->entries[i].model;
	GROW(c->entries, c->cap, (size_t)c->n + 1);
	cached_model *e = &c->entries[c->n++];
	e->name = xstrdup(name);
	e->model = cat_model_load(name, &c->path, d);
	return e->model;
}

void model_cache_free(model_cache *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->entries[i].name);
		if (c->entries[i].model)
			cat_model_free(c->entries[i].model);
	}
	free(c->entries);
	free(c->path.dirs);
	free(c->env_copy);
	memset(c, 0, sizeof *c);
}
