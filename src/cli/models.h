/* models.h — the cat search path of a run, and models loaded once per name.
 *
 * The parent loads every model the selected tests need before it forks any
 * worker, so each model is parsed once per run (workers share it copy-on-
 * write) and a broken model is reported once, not once per test: that
 * includes the errors only evaluation finds (a type error), since each
 * model is first evaluated on a small test of each architecture it is to
 * run on (model_probe.c).
 */
#ifndef WEFT_MODELS_H
#define WEFT_MODELS_H

#include "options.h"
#include "../cat/cat.h"

typedef struct cached_model {
	char *name;
	cat_model *model;   /* NULL: loading failed (reported once) */
	int n_probed;
	char **probed;      /* architectures it was probed on (owned) */
	bool *probe_ok;     /* and whether it evaluated there */
	char *archs;        /* the architectures it says it is for, blank
	                     * separated (model_arch.c); NULL: all (owned) */
	char *archs_because; /* where it says so, for messages (owned) */
} cached_model;

typedef struct model_cache {
	int n;
	size_t cap;
	cached_model *entries;
	cat_search_path path;
	cat_search_path own;  /* weft's own model folders: $WEFT_CAT_PATH's, the
	                       * installed and the source tree's (dirs owned,
	                       * the strings borrowed from path's)           */
	char *env_copy;     /* $WEFT_CAT_PATH, split in place into path.dirs */
	char *herdlib_copy; /* $HERDLIB, the same */
	char *opam_dir;     /* herd's library in $HOME's opam switch (owned) */
	/* applied to each model as it is loaded (borrowed from the options) */
	bool through;                /* -through invalid|all */
	bool strict_skip;            /* -strictskip true */
	bool interpret;              /* -interpret */
	const str_list *skipchecks;  /* -skipchecks lists */
	long maxmem_mb;              /* -maxmem: the bound of an evaluation */
	/* how models are loaded: -variant tags (split, NULL-terminated; the
	 * array owned, the strings in variants_copy) and -bell */
	const char **variants;
	char *variants_copy;
	const char *bell;
	/* weft's own macro file for C tests (cat/kernel-primitives.def), the
	 * first found on the search path: what a C test uses when no -macros
	 * or -conf names one; NULL when not found (owned) */
	char *default_macros;
} model_cache;

/* -I dirs, then -set-libdir dirs, then $WEFT_CAT_PATH, then $HERDLIB, then the installed models, then the source
 * tree's models (so a weft that was built but not installed still finds its
 * own models). */
void model_cache_init(model_cache *c, const weft_options *o);
/* The macro file a C test takes its primitives from: -macros (or a -conf
 * `macros` key), else weft's own (default_macros); NULL when neither. */
const char *model_cache_macros(const model_cache *c, const weft_options *o);
/* The model called `name`, loaded on first use (errors reported through d
 * then, and NULL returned now and on every later call), with the checks
 * -through and -skipchecks name skipped (a name it has no check of is a
 * warning then). */
/* The first folder of sp holding a readable `file`: that path (owned), or
 * NULL. */
char *search_path_find(const cat_search_path *sp, const char *file);

cat_model *model_cache_get(model_cache *c, const char *name, diag *d);
/* The model a test of architecture a runs under without -model: herd's
 * own default when the search path holds it (arch.h's
 * herd_default_model), else weft's (default_model); NULL for a NULL a.
 * *herds (may be NULL) says which. */
struct arch;
const char *model_cache_default(const model_cache *c, const struct arch *a, bool *herds);
/* As model_cache_get, for tests of architecture `arch` (may be NULL): the
 * first time, the model is evaluated on that architecture's probe; when it
 * fails there, or says it is for other architectures, an error is
 * reported then, and NULL is returned now and on every later call for that
 * architecture. */
cat_model *model_cache_get_for(model_cache *c, const char *name, const char *arch, diag *d);
void model_cache_free(model_cache *c);
/* model_cache_get_for t's architecture, with t's own variants
 * (prog.h's model_variants) added to the run's when it has some. */
cat_model *model_cache_get_test(model_cache *c, const char *name, const litmus_test *t, diag *d);
/* Whether the model called `name` (loaded, or failed) is for tests of
 * architecture `arch`: false only when it says it is for others. */
bool model_cache_applies(model_cache *c, const char *name, const char *arch);
/* When the model does not apply to arch: a note, once per (model, arch),
 * that its tests of arch are left out (with several -model options). */
void model_cache_note_skip(model_cache *c, const char *name, const char *arch, diag *d);

/* `weft -check FILE.cat`: parse and resolve the file (cat_check_file), load
 * it, and evaluate it on the probes (model_probe_any): false after
 * reporting located errors through d. */
bool model_check_file(model_cache *c, const char *path, diag *d);

/* ---- architectures (model_arch.c) ----------------------------------------- */

/* The architectures the model called `name` says it is for (an
 * `(* arch: PPC *)` comment, or an include of herd's ppcfences.cat,
 * x86fences.cat, ...), blank separated, or NULL when it says nothing
 * (then it is for all).  *because is set to the text that says it.  Both
 * owned by the caller. */
char *model_declared_archs(const char *name, const cat_search_path *sp, char **because);
/* Whether blank-separated `archs` names `arch`. */
bool model_archs_has(const char *archs, const char *arch);

/* ---- probes (model_probe.c) ------------------------------------------------ */

/* Evaluate m on the small built-in test of architecture `arch` (every
 * candidate execution).  True when it evaluates, or when weft has no
 * probe for arch; false after reporting the evaluation errors through d. */
bool model_probe(cat_model *m, const char *arch, diag *d);
/* True when m evaluates on some architecture's probe; else reports the
 * errors of the first probe through d (once) and returns false. */
bool model_probe_any(cat_model *m, diag *d);

#endif
