/* main.c — the `weft` command: options in, result blocks out.
 *
 * Only command-line plumbing lives here: every stage is reached through its
 * folder's header. */
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "cli/inputs.h"
#include "cli/options.h"
#include "litmus/litmus.h"
#include "cat/cat.h"
#include "engine/engine.h"
#include "report/report.h"

/* Models are loaded once per name and shared by every test that uses them. */
typedef struct cached_model {
	char *name;
	cat_model *model;   /* NULL: loading failed (reported once) */
} cached_model;

typedef struct model_cache {
	int n;
	size_t cap;
	cached_model *entries;
} model_cache;

static cat_model *model_get(model_cache *c, const char *name, const cat_search_path *sp, diag *d)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->entries[i].name, name))
			return c->entries[i].model;
	GROW(c->entries, c->cap, (size_t)c->n + 1);
	cached_model *e = &c->entries[c->n++];
	e->name = xstrdup(name);
	e->model = cat_model_load(name, sp, d);
	return e->model;
}

static void model_cache_free(model_cache *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->entries[i].name);
		if (c->entries[i].model)
			cat_model_free(c->entries[i].model);
	}
	free(c->entries);
}

/* -I dirs, then $WEFT_CAT_PATH, then the installed models, then the source
 * tree's models (so a weft that was built but not installed still finds its
 * own models). */
static void search_path_build(cat_search_path *sp, const weft_options *o, char **env_copy)
{
	const char *env = getenv("WEFT_CAT_PATH");
	int cap = o->n_include + 2 + 1;
	if (env)
		for (const char *p = env; *p; p++)
			cap += *p == ':';
	if (env)
		cap++;
	const char **dirs = xcalloc((size_t)cap, sizeof *dirs);
	int n = 0;
	for (int i = 0; i < o->n_include; i++)
		dirs[n++] = o->include[i];
	*env_copy = NULL;
	if (env) {
		*env_copy = xstrdup(env);
		char *save = NULL;
		for (char *p = strtok_r(*env_copy, ":", &save); p; p = strtok_r(NULL, ":", &save))
			dirs[n++] = p;
	}
	dirs[n++] = WEFT_CATDIR;
	dirs[n++] = WEFT_SOURCE_CATDIR;
	sp->n = n;
	sp->dirs = dirs;
}

static bool has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && !strcmp(s + n - m, suffix);
}

static int run(const weft_options *o, const input_list *in, const cat_search_path *sp)
{
	diag d = { stderr, 0, 0 };
	model_cache cache = { 0 };
	int status = 0;
	engine_opts eo = { 0 };
	eo.timeout = o->timeout;
	eo.stats = o->stats;
	eo.unroll = 2;
	for (int i = 0; i < in->n; i++) {
		const char *path = in->paths[i];
		if (o->action == ACT_CHECK && has_suffix(path, ".cat")) {
			if (!cat_check_file(path, sp, &d))
				status = 1;
			continue;
		}
		litmus_test *t = litmus_parse_file(path, &d);
		if (!t) {
			status = 1;
			continue;
		}
		if (o->action == ACT_DUMP) {
			litmus_test_dump(t, stdout);
		} else if (o->action == ACT_RUN) {
			const char *name = o->model ? o->model : t->arch->default_model;
			cat_model *m = model_get(&cache, name, sp, &d);
			if (!m) {
				status = 1;
			} else {
				test_result r;
				if (engine_run(o->engine, t, m, &eo, &r, &d)) {
					report_herd(stdout, t, &r, true, o->stats);
					if (r.timed_out)
						status = 1;
					test_result_free(&r);
				} else {
					status = 1;
				}
			}
			fflush(stdout);
		}
		litmus_test_free(t);
	}
	model_cache_free(&cache);
	return status;
}

int main(int argc, char **argv)
{
	weft_options o;
	int rc = options_parse(&o, argc, argv);
	if (rc != 0)
		return rc;
	if (o.action == ACT_HELP) {
		options_print_help(stdout);
		options_free(&o);
		return 0;
	}
	if (o.action == ACT_VERSION) {
		printf("weft %s\n", PACKAGE_VERSION);
		options_free(&o);
		return 0;
	}
	if (o.n_inputs == 0) {
		fputs("weft: no input files\nTry 'weft -help'.\n", stderr);
		options_free(&o);
		return 2;
	}
	diag d = { stderr, 0, 0 };
	input_list in = { 0 };
	int status = 0;
	for (int i = 0; i < o.n_inputs; i++)
		if (!inputs_expand(&in, o.inputs[i], &d))
			status = 1;
	cat_search_path sp;
	char *env_copy;
	search_path_build(&sp, &o, &env_copy);
	if (run(&o, &in, &sp) != 0)
		status = 1;
	free(sp.dirs);
	free(env_copy);
	inputs_free(&in);
	options_free(&o);
	return status;
}
