/* models.c — search path and model cache. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "models.h"
#include "../arch/arch.h"

/* Count the folders of a colon-separated list. */
static int path_count(const char *env)
{
	int n = 1;
	for (const char *p = env; *p; p++)
		n += *p == ':';
	return n;
}

/* Split a copy of env into dirs[*n...]; the copy is returned (owned). */
static char *path_split(const char *env, const char **dirs, int *n)
{
	char *copy = xstrdup(env);
	char *save = NULL;
	for (char *p = strtok_r(copy, ":", &save); p; p = strtok_r(NULL, ":", &save))
		dirs[(*n)++] = p;
	return copy;
}

/* weft's macro file for C tests, installed with the models. */
#define DEFAULT_MACROS "kernel-primitives.def"

void model_cache_init(model_cache *c, const weft_options *o)
{
	memset(c, 0, sizeof *c);
	const char *env = getenv("WEFT_CAT_PATH");
	const char *herdlib = getenv("HERDLIB");
	/* herd's library where herdtools7 installs it comes last, so that
	 * herd's models of the architectures weft has no model of (riscv.cat)
	 * are found without -I or $HERDLIB */
	const char *home = getenv("HOME");
	int cap = o->include.n + o->libdirs.n + 2 + 3;
	if (env)
		cap += path_count(env);
	if (herdlib)
		cap += path_count(herdlib);
	const char **dirs = xcalloc((size_t)cap, sizeof *dirs);
	int n = 0;
	for (int i = 0; i < o->include.n; i++)
		dirs[n++] = o->include.v[i];
	/* herd's -set-libdir and $HERDLIB: herd's library folder */
	for (int i = 0; i < o->libdirs.n; i++)
		dirs[n++] = o->libdirs.v[i];
	int env_from = n;
	if (env)
		c->env_copy = path_split(env, dirs, &n);
	int env_to = n;
	if (herdlib)
		c->herdlib_copy = path_split(herdlib, dirs, &n);
	c->own.dirs = xcalloc((size_t)(env_to - env_from) + 2, sizeof *c->own.dirs);
	for (int i = env_from; i < env_to; i++)
		c->own.dirs[c->own.n++] = dirs[i];   /* $WEFT_CAT_PATH's */
	c->own.dirs[c->own.n++] = WEFT_CATDIR;
	c->own.dirs[c->own.n++] = WEFT_SOURCE_CATDIR;
	dirs[n++] = WEFT_CATDIR;
	dirs[n++] = WEFT_SOURCE_CATDIR;
	dirs[n++] = "/usr/local/share/herdtools7/herd";
	dirs[n++] = "/usr/share/herdtools7/herd";
	if (home && *home) {
		c->opam_dir = xasprintf("%s/.opam/default/share/herdtools7/herd", home);
		dirs[n++] = c->opam_dir;
	}
	c->path.n = n;
	c->path.dirs = dirs;
	for (int i = 0; i < n && !c->default_macros; i++) {
		char *p = xasprintf("%s/%s", dirs[i], DEFAULT_MACROS);
		if (access(p, R_OK) == 0)
			c->default_macros = p;
		else
			free(p);
	}
	/* -variant a,b -variant c: one list of tags */
	strbuf all = { 0 };
	for (int i = 0; i < o->variants.n; i++)
		sb_printf(&all, "%s%s", i ? "," : "", o->variants.v[i]);
	c->variants_copy = sb_take(&all);
	int nv = 1;
	for (const char *p = c->variants_copy; p && *p; p++)
		nv += *p == ',';
	c->variants = xcalloc((size_t)nv + 1, sizeof *c->variants);
	nv = 0;
	char *save = NULL;
	for (char *t = c->variants_copy ? strtok_r(c->variants_copy, ",", &save) : NULL; t;
	     t = strtok_r(NULL, ",", &save))
		c->variants[nv++] = t;
	c->bell = o->bell;
	c->through = o->through;
	c->strict_skip = o->strict_skip;
	c->interpret = o->interpret;
	c->skipchecks = &o->skipchecks;
	c->maxmem_mb = o->maxmem_mb;
}

const char *model_cache_macros(const model_cache *c, const weft_options *o)
{
	return o->macros ? o->macros : c->default_macros;
}

/* -through, -skipchecks and -interpret on a model just loaded. */
static void skip_checks(const model_cache *c, cat_model *m, const char *name, diag *d)
{
	cat_model_set_compiled(m, !c->interpret);
	if (c->through)
		cat_model_skip_all_checks(m);
	cat_model_set_strict_skip(m, c->strict_skip);
	cat_model_set_memory_limit(m, c->maxmem_mb > 0 ? (size_t)c->maxmem_mb << 20 : 0);
	for (int i = 0; c->skipchecks && i < c->skipchecks->n; i++) {
		char *list = xstrdup(c->skipchecks->v[i]), *save = NULL;
		for (char *check = strtok_r(list, ",", &save); check; check = strtok_r(NULL, ",", &save)) {
			if (cat_model_skip_check(m, check))
				continue;
			/* a misspelt name would go unnoticed but for this: say
			 * what the names are */
			strbuf have = { 0 };
			for (int k = 0; k < cat_model_n_checks(m); k++)
				if (!cat_model_check_is_flag(m, k))
					sb_printf(&have, "%s'%s'", have.len ? ", " : "", cat_model_check_name(m, k));
			diag_warning(d, (srcloc){ name, 0, 0 },
				     "-skipchecks %s: the model has no check of that name (its checks: %s)", check,
				     have.len ? have.s : "none");
			sb_free(&have);
		}
		free(list);
	}
}

/* What model `name` loads: a bare name (no folder, no .cat) that one of
 * weft's own models answers to (tso, power, sc) is weft's model, whatever
 * else the search path holds: herd's library (through -I, -set-libdir or
 * $HERDLIB) has a tso.cat of its own that is neither weft's tso nor herd's
 * X86 default (x86tso.cat), and an architecture's default model must not
 * silently become it.  Any other name, and FILE.cat, are looked up as herd
 * does.  Owned by the caller. */
static char *model_source(const model_cache *c, const char *name)
{
	char *own = NULL;
	if (!strchr(name, '/') && !strstr(name, ".cat")) {
		char *file = xasprintf("%s.cat", name);
		own = search_path_find(&c->own, file);
		free(file);
	}
	return own ? own : xstrdup(name);
}

char *search_path_find(const cat_search_path *sp, const char *file)
{
	for (int i = 0; i < sp->n; i++) {
		char *path = xasprintf("%s/%s", sp->dirs[i], file);
		if (access(path, R_OK) == 0)
			return path;
		free(path);
	}
	return NULL;
}

const char *model_cache_default(const model_cache *c, const struct arch *a, bool *herds)
{
	if (herds)
		*herds = false;
	if (!a)
		return NULL;
	if (a->herd_default_model && c) {
		char *file = xasprintf("%s.cat", a->herd_default_model);
		char *found = search_path_find(&c->path, file);
		free(file);
		free(found);
		if (found) {
			if (herds)
				*herds = true;
			return a->herd_default_model;
		}
	}
	return a->default_model;
}

cat_model *model_cache_get(model_cache *c, const char *name, diag *d)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->entries[i].name, name))
			return c->entries[i].model;
	GROW(c->entries, c->cap, (size_t)c->n + 1);
	cached_model *e = &c->entries[c->n++];
	memset(e, 0, sizeof *e);
	e->name = xstrdup(name);
	cat_load_options lo = { .search = &c->path, .variants = c->variants, .bell = c->bell };
	char *source = model_source(c, name);
	e->model = cat_model_load(source, &lo, d);
	if (e->model) {
		e->archs = model_declared_archs(source, &c->path, &e->archs_because);
		skip_checks(c, e->model, name, d);
	}
	free(source);
	return e->model;
}

static cached_model *entry_of(model_cache *c, const char *name)
{
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->entries[i].name, name))
			return &c->entries[i];
	return NULL;
}

cat_model *model_cache_get_for(model_cache *c, const char *name, const char *arch, diag *d)
{
	cat_model *m = model_cache_get(c, name, d);
	cached_model *e = entry_of(c, name);
	if (!m || !e || !arch)
		return m;
	/* Probed once per architecture: the parent probes before any fork,
	 * so workers find the answer here. */
	for (int i = 0; i < e->n_probed; i++)
		if (!strcmp(e->probed[i], arch))
			return e->probe_ok[i] ? m : NULL;
	bool ok;
	if (e->archs && !model_archs_has(e->archs, arch)) {
		ok = false;
		diag_error(d, (srcloc){ name, 0, 0 }, "the model is for %s (%s), not for %s: each %s test "
			   "under it counts as an error", e->archs, e->archs_because, arch, arch);
	} else {
		ok = model_probe(m, arch, d);
		if (!ok)
			diag_note(d, (srcloc){ name, 0, 0 }, "the model cannot evaluate a small %s test: each %s "
				  "test under it counts as an error, without these messages again", arch, arch);
	}
	e->probed = xrealloc(e->probed, ((size_t)e->n_probed + 1) * sizeof *e->probed);
	e->probe_ok = xrealloc(e->probe_ok, ((size_t)e->n_probed + 1) * sizeof *e->probe_ok);
	e->probed[e->n_probed] = xstrdup(arch);
	e->probe_ok[e->n_probed++] = ok;
	return ok ? m : NULL;
}

cat_model *model_cache_get_test(model_cache *c, const char *name, const litmus_test *t, diag *d)
{
	cat_model *base = model_cache_get_for(c, name, t->arch_name, d);
	if (!base || t->n_model_variants == 0)
		return base;
	/* the test's own variants (Variant=ifetch, CacheType=DIC) decide the
	 * model's `if "ifetch"`: one more load of it per set of them, cached
	 * under a key no model name can have */
	strbuf key = { 0 };
	sb_printf(&key, "%s\n", name);
	for (int i = 0; i < t->n_model_variants; i++)
		sb_printf(&key, "%s%s", i ? "," : "", t->model_variants[i]);
	cached_model *e = entry_of(c, key.s);
	if (e) {
		sb_free(&key);
		return e->model;
	}
	int nv = 0;
	while (c->variants[nv])
		nv++;
	const char **all = xcalloc((size_t)(nv + t->n_model_variants + 1), sizeof *all);
	for (int i = 0; i < nv; i++)
		all[i] = c->variants[i];
	for (int i = 0; i < t->n_model_variants; i++)
		all[nv + i] = t->model_variants[i];
	GROW(c->entries, c->cap, (size_t)c->n + 1);
	e = &c->entries[c->n++];
	memset(e, 0, sizeof *e);
	e->name = sb_take(&key);
	cat_load_options lo = { .search = &c->path, .variants = all, .bell = c->bell };
	char *source = model_source(c, name);
	e->model = cat_model_load(source, &lo, d);
	if (e->model)
		skip_checks(c, e->model, name, d);
	free(source);
	free(all);
	return e->model;
}

static bool model_check_found(model_cache *c, const char *path, diag *d);

/* A file named without a folder that is not in the current one is looked
 * for on the search path, as herd does (`-check -I DIR riscv.cat`). */
static char *check_target(const model_cache *c, const char *path)
{
	char *found = strchr(path, '/') || access(path, R_OK) == 0 ? NULL : search_path_find(&c->path, path);
	return found ? found : xstrdup(path);
}

bool model_check_file(model_cache *c, const char *name, diag *d)
{
	char *path = check_target(c, name);
	bool ok = model_check_found(c, path, d);
	free(path);
	return ok;
}

static bool model_check_found(model_cache *c, const char *path, diag *d)
{
	/* a FILE.bell is checked alone, a model with -bell's bell */
	bool is_bell = strlen(path) > 5 && str_has_suffix(path, ".bell");
	cat_load_options lo = { .search = &c->path, .variants = c->variants, .bell = is_bell ? path : c->bell };
	if (!cat_check_file(is_bell ? NULL : path, &lo, d))
		return false;
	cat_model *m = cat_model_load(is_bell ? NULL : path, &lo, d);
	if (!m)
		return false;
	/* a catdep model (herd's aarch64.cat) evaluates on the probe of an
	 * architecture for which the engines build herd's dependencies */
	bool ok = model_probe_any(m, d);
	cat_model_free(m);
	return ok;
}

bool model_cache_applies(model_cache *c, const char *name, const char *arch)
{
	cached_model *e = entry_of(c, name);
	return !e || !e->archs || !arch || model_archs_has(e->archs, arch);
}

void model_cache_note_skip(model_cache *c, const char *name, const char *arch, diag *d)
{
	cached_model *e = entry_of(c, name);
	if (!e || !arch)
		return;
	/* noted once: remembered as probed (and failed) for arch */
	for (int i = 0; i < e->n_probed; i++)
		if (!strcmp(e->probed[i], arch))
			return;
	diag_note(d, (srcloc){ name, 0, 0 }, "the model is for %s (%s): it does not run the %s tests "
		  "(their cells and blocks for it are left out)", e->archs, e->archs_because, arch);
	e->probed = xrealloc(e->probed, ((size_t)e->n_probed + 1) * sizeof *e->probed);
	e->probe_ok = xrealloc(e->probe_ok, ((size_t)e->n_probed + 1) * sizeof *e->probe_ok);
	e->probed[e->n_probed] = xstrdup(arch);
	e->probe_ok[e->n_probed++] = false;
}

void model_cache_free(model_cache *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->entries[i].archs);
		free(c->entries[i].archs_because);
		for (int k = 0; k < c->entries[i].n_probed; k++)
			free(c->entries[i].probed[k]);
		free(c->entries[i].probed);
		free(c->entries[i].probe_ok);
		free(c->entries[i].name);
		if (c->entries[i].model)
			cat_model_free(c->entries[i].model);
	}
	free(c->variants);
	free(c->variants_copy);
	free(c->own.dirs);
	free(c->default_macros);
	free(c->entries);
	free(c->path.dirs);
	free(c->env_copy);
	free(c->herdlib_copy);
	free(c->opam_dir);
	memset(c, 0, sizeof *c);
}
