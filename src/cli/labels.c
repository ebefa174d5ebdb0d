/* labels.c — model labels, and -expect keys matched to the run's models. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job.h"
#include "labels.h"

static void add(run_models *r, const char *name)
{
	r->name = xrealloc(r->name, ((size_t)r->n + 1) * sizeof *r->name);
	r->name[r->n++] = name;
}

void run_models_init(run_models *r, const weft_options *o, const test_plan *plan, model_cache *c, diag *d)
{
	memset(r, 0, sizeof *r);
	r->cache = c;
	r->d = d;
	r->chosen = o->models.n > 0;
	if (r->chosen) {
		for (int k = 0; k < o->models.n; k++)
			add(r, o->models.v[k]);
	} else {
		suite_run s = { .o = o, .models = c };
		for (int i = 0; i < plan->n; i++) {
			const char *name = job_model_at(&s, plan->v[i].arch, 0);
			bool seen = !name;
			for (int k = 0; !seen && k < r->n; k++)
				seen = !strcmp(r->name[k], name);
			if (!seen)
				add(r, name);
		}
	}
	r->label = xcalloc((size_t)r->n + 1, sizeof *r->label);
	for (int k = 0; k < r->n; k++) {
		/* -model LABEL=FILE: the user's word for it */
		const char *given = r->chosen && k < o->model_labels.n ? o->model_labels.v[k] : NULL;
		if (given) {
			r->label[k] = xstrdup(given);
			continue;
		}
		char *mine = suite_model_key(r->name[k]);
		bool shared = false;
		for (int j = 0; j < r->n && !shared; j++) {
			char *other = j == k ? NULL : suite_model_key(r->name[j]);
			shared = other && !strcmp(mine, other);
			free(other);
		}
		if (!shared) {
			r->label[k] = mine;
			continue;
		}
		free(mine);
		int same = 1;   /* earlier arguments written exactly like this one */
		for (int j = 0; j < k; j++)
			same += !strcmp(r->name[j], r->name[k]);
		r->label[k] = same > 1 ? xasprintf("%s#%d", r->name[k], same) : xstrdup(r->name[k]);
	}
}

void run_models_free(run_models *r)
{
	for (int k = 0; k < r->n; k++)
		free(r->label[k]);
	free(r->label);
	free(r->name);
	memset(r, 0, sizeof *r);
}

const char *run_models_label(const run_models *r, const char *name)
{
	/* By identity first: two -model arguments may be written alike. */
	for (int k = 0; k < r->n; k++)
		if (r->name[k] == name)
			return r->label[k];
	for (int k = 0; k < r->n; k++)
		if (!strcmp(r->name[k], name))
			return r->label[k];
	return NULL;
}

/* The model's title, when it loaded. */
static const char *title_of(const run_models *r, int k)
{
	diag quiet = { .out = NULL };
	/* Loaded (or failed) before: the cache answers without a word. */
	cat_model *m = model_cache_get(r->cache, r->name[k], &quiet);
	return m ? cat_model_name(m) : NULL;
}

/* Whether `key` names a model file weft could load: FILE.cat or a path
 * that exists, or NAME.cat (herd's aliases folded) on the search path. */
static bool is_model_name(const run_models *r, const char *key)
{
	if ((strchr(key, '/') || str_has_suffix(key, ".cat")) && access(key, R_OK) == 0)
		return true;
	char *shortname = suite_model_key(key);
	bool found = false;
	for (int i = 0; i < r->cache->path.n && !found; i++) {
		char *path = xasprintf("%s/%s.cat", r->cache->path.dirs[i], shortname);
		found = access(path, R_OK) == 0;
		free(path);
	}
	free(shortname);
	return found;
}

static void list_labels(const run_models *r, strbuf *sb)
{
	for (int k = 0; k < r->n; k++)
		sb_printf(sb, "%s%s", k ? ", " : "", r->label[k]);
}

const char *run_models_resolve(void *ctx, const char *key, const char *file, int line, int uses)
{
	run_models *r = ctx;
	for (int k = 0; k < r->n; k++)
		if (!strcmp(key, r->label[k]))
			return r->label[k];
	for (int k = 0; k < r->n; k++)
		if (!strcmp(key, r->name[k]))
			return r->label[k];
	for (int k = 0; k < r->n; k++) {
		const char *title = title_of(r, k);
		if (title && !strcmp(key, title))
			return r->label[k];
	}
	char *shortname = suite_model_key(key);
	int found = -1, n_found = 0;
	for (int k = 0; k < r->n; k++) {
		char *other = suite_model_key(r->name[k]);
		if (!strcmp(shortname, other)) {
			found = k;
			n_found++;
		}
		free(other);
	}
	free(shortname);
	if (n_found == 1)
		return r->label[found];
	strbuf labels = { 0 };
	list_labels(r, &labels);
	const char *names = labels.s ? labels.s : "none";
	srcloc at = { file, line, 1 };
	if (n_found > 1) {
		diag_error(r->d, at, "model '%s' could be any of this run's models %s: write its label",
			   key, names);
		r->bad_keys++;
	} else if (!r->chosen && is_model_name(r, key)) {
		diag_note(r->d, at, "%d expectation%s for model '%s' not compared: this run's models are %s "
			  "(give -model to choose)", uses, uses == 1 ? "" : "s", key, names);
	} else {
		diag_error(r->d, at, "model '%s' is none of this run's models (%s): a key is a model's label, "
			   "its -model argument as written or its title", key, names);
		r->bad_keys++;
	}
	sb_free(&labels);
	return NULL;
}
