/* serve_app.c — the tests a server was given and the session on the one
 * open.  A folder gives every .litmus file below it (inputs.h): the page
 * may open any of those by the name listed, and nothing else. */
#include <stdlib.h>
#include <string.h>

#include "serve_int.h"
#include "../engine/engine.h"

/* A test's name on the page: its path below the folder given. */
static char *shown_name(const char *arg, const char *path)
{
	size_t n = strlen(arg);
	while (n > 1 && arg[n - 1] == '/')
		n--;
	if (!strncmp(path, arg, n) && path[n] == '/')
		return xstrdup(path + n + 1);
	const char *slash = strrchr(path, '/');
	return xstrdup(slash ? slash + 1 : path);
}

serve_app *serve_app_new(const weft_options *o, diag *d)
{
	serve_app *a = xcalloc(1, sizeof *a);
	a->o = o;
	a->open = -1;
	model_cache_init(&a->models, o);
	if (o->inputs.n != 1 || !inputs_expand(&a->tests, o->inputs.v[0], d) || a->tests.n == 0) {
		if (o->inputs.n == 1 && a->tests.n == 0 && d->errors == 0)
			diag_error(d, (srcloc){ o->inputs.v[0], 0, 0 }, "no .litmus file here to serve");
		serve_app_free(a);
		return NULL;
	}
	a->names = xcalloc((size_t)a->tests.n, sizeof *a->names);
	for (int i = 0; i < a->tests.n; i++)
		a->names[i] = shown_name(o->inputs.v[0], a->tests.paths[i]);
	strbuf why = { 0 };
	if (!serve_app_open(a, 0, &why)) {
		diag_put_collected(d, why.s);
		d->errors++;
		sb_free(&why);
		serve_app_free(a);
		return NULL;
	}
	sb_free(&why);
	return a;
}

static void close_test(serve_app *a)
{
	session_free(a->s);
	litmus_test_free(a->t);
	free(a->model_name);
	a->s = NULL;
	a->t = NULL;
	a->model_name = NULL;
}

bool serve_app_open(serve_app *a, int i, strbuf *why)
{
	if (i < 0 || i >= a->tests.n) {
		sb_puts(why, "no such test\n");
		return false;
	}
	diag d = { .collect = why };
	const weft_options *o = a->o;
	litmus_test *t = litmus_parse_file_variants(a->tests.paths[i], model_cache_macros(&a->models, o), NULL,
						    a->models.variants, &d);
	if (!t)
		return false;
	const char *name = o->models.n > 0 ? o->models.v[0]
			   : t->arch ? model_cache_default(&a->models, t->arch, NULL) : "sc";
	cat_model *m = name ? model_cache_get_test(&a->models, name, t, &d) : NULL;
	session *s = m ? session_new(t, m, o->unroll >= 0 ? o->unroll : ENGINE_UNROLL_DEFAULT, &d) : NULL;
	if (!s) {
		if (!why->len)
			sb_printf(why, "%s: cannot run this test (weft's first message on it said why)\n",
				  name ? name : "no model for this test's architecture");
		litmus_test_free(t);
		return false;
	}
	/* a goto answers within -timeout (else SERVE_SEARCH_SECONDS): the
	 * server answers nobody else meanwhile */
	session_set_search_limit(s, o->timeout > 0 ? o->timeout : SERVE_SEARCH_SECONDS);
	close_test(a);
	a->t = t;
	a->model_name = xstrdup(name);
	a->s = s;
	a->open = i;
	return true;
}

void serve_app_free(serve_app *a)
{
	if (!a)
		return;
	close_test(a);
	for (int i = 0; a->names && i < a->tests.n; i++)
		free(a->names[i]);
	free(a->names);
	inputs_free(&a->tests);
	model_cache_free(&a->models);
	free(a);
}
