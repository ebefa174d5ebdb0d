/* cat_model.c — the public face of src/cat (cat.h): finding and loading
 * models, asking them about executions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat_int.h"
#include "analysis/cat_analysis.h"

/* herd's model names that weft's own models answer to. */
static const char *alias_of(const char *name)
{
	static const char *const aliases[][2] = {
		{ "ppc", "power" }, { "ppc.cat", "power.cat" },
		{ "x86tso", "tso" }, { "x86tso.cat", "tso.cat" },
	};
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (!strcmp(aliases[i][0], name))
			return aliases[i][1];
	return NULL;
}

/* A path (it has a '/') as given; FILE.cat as given if it exists (herd
 * reads a model named by file from the current folder first); else NAME or
 * NAME.cat on the search path, then the same for NAME's alias. */
static char *locate(const char *name, const cat_search_path *sp)
{
	if (strchr(name, '/'))
		return xstrdup(name);
	if (str_has_suffix(name, ".cat")) {
		FILE *f = fopen(name, "r");
		if (f) {
			fclose(f);
			return xstrdup(name);
		}
	}
	const char *try_names[2] = { name, alias_of(name) };
	for (int k = 0; k < 2 && try_names[k]; k++) {
		char *file = str_has_suffix(try_names[k], ".cat") ? xstrdup(try_names[k])
		                                              : xasprintf("%s.cat", try_names[k]);
		char *path = cat_find_file(file, NULL, sp);
		free(file);
		if (path)
			return path;
	}
	return NULL;
}

static cat_model *model_new(const char *const *variants)
{
	cat_model *m = xcalloc(1, sizeof *m);
	for (int i = 0; variants && variants[i]; i++) {
		m->variants = xrealloc(m->variants, (size_t)(m->nvariants + 1) * sizeof *m->variants);
		m->variants[m->nvariants++] = xstrdup(variants[i]);
	}
	return m;
}

static cat_model *load_path(const char *path, const char *text, const cat_search_path *sp,
                            const char *const *variants, const char *bell, diag *d)
{
	cat_model *m = model_new(variants);
	if (!cat_compile_model(m, path, text, bell, sp, false, d)) {
		cat_model_free(m);
		return NULL;
	}
	m->flag_names = xcalloc((size_t)m->nchecks + 64, sizeof *m->flag_names);
	m->flag_acc = xcalloc((size_t)m->nchecks + 64, sizeof *m->flag_acc);
	cat_classify_checks(m);
	cat_classify_static(m);
	cat_eval_init(&m->ev, m);
	return m;
}

cat_model *cat_model_load(const char *name_or_path, const cat_load_options *o, diag *d)
{
	static const cat_load_options defaults = { 0 };
	if (!o)
		o = &defaults;
	if (!name_or_path)
		return o->bell ? load_path(NULL, NULL, o->search, o->variants, o->bell, d) : NULL;
	if (o->text)
		return load_path(name_or_path, o->text, o->search, o->variants, o->bell, d);
	char *path = locate(name_or_path, o->search);
	if (!path) {
		srcloc none = { name_or_path, 0, 0 };
		strbuf sb = { 0 };
		for (int i = 0; o->search && i < o->search->n; i++)
			sb_printf(&sb, "%s%s", i ? ", " : "", o->search->dirs[i]);
		diag_error(d, none, "cannot find model '%s' (looked in %s)", name_or_path,
		           sb.s ? sb.s : "an empty search path");
		sb_free(&sb);
		return NULL;
	}
	cat_model *m = load_path(path, NULL, o->search, o->variants, o->bell, d);
	free(path);
	return m;
}

bool cat_check_file(const char *path, const cat_load_options *o, diag *d)
{
	const char *const *variants = o ? o->variants : NULL;
	const char *bell = o ? o->bell : NULL;
	if (path && str_has_suffix(path, ".bell")) {
		bell = path;
		path = NULL;
	}
	cat_model *m = load_path(path, NULL, o ? o->search : NULL, variants, bell, d);
	if (!m)
		return false;
	cat_model_free(m);
	return true;
}

void cat_model_free(cat_model *m)
{
	if (!m)
		return;
	cat_prog_free(m->prog);
	cat_eval_free(&m->ev);
	for (int i = 0; i < m->nfiles; i++)
		cat_file_free(m->files[i]);
	free(m->files);
	for (int i = 0; i < m->nvariants; i++)
		free(m->variants[i]);
	free(m->variants);
	free(m->slots);
	free(m->checks);
	free(m->flag_names);
	free(m->flag_acc);
	for (int i = 0; i < m->nchoices; i++)
		free(m->choices[i].name);
	free(m->choices);
	for (int i = 0; i < m->nowned; i++)
		free(m->owned[i]);
	free(m->owned);
	free(m->dyn_names);
	for (int i = 0; i < m->nshown; i++)
		free(m->shown[i].label);
	free(m->shown);
	free(m->name);
	free(m);
}

const char *cat_model_name(const cat_model *m) { return m->name; }
const char *cat_model_file(const cat_model *m) { return m->files[m->main_file]->path; }

int cat_model_n_checks(const cat_model *m) { return m->nchecks; }

const char *cat_model_check_name(const cat_model *m, int i)
{
	return i >= 0 && i < m->nchecks ? m->checks[i].name : NULL;
}

const char *cat_model_check_flag(const cat_model *m, int i)
{
	const cat_ins *in = m->checks[i].ins;
	return in->kind == CI_CHECK && in->mode == CHECK_UNDEFINED_UNLESS ? CAT_UNDEF_FLAG : m->checks[i].name;
}

bool cat_model_check_is_flag(const cat_model *m, int i) { return i >= 0 && i < m->nchecks && m->checks[i].flag; }

bool cat_model_computes_deps(const cat_model *m) { return m->catdep; }

int cat_model_n_shown(const cat_model *m) { return m->nshown; }

const char *cat_model_shown_label(const cat_model *m, int i)
{
	return i >= 0 && i < m->nshown ? m->shown[i].label : NULL;
}


bool cat_model_skip_check(cat_model *m, const char *name)
{
	bool found = false;
	for (int i = 0; i < m->nchecks; i++)
		if (m->checks[i].name && !strcmp(m->checks[i].name, name))
			found = m->checks[i].skipped = m->checks[i].skipped_by_name = true;
	return found;
}

void cat_model_set_strict_skip(cat_model *m, bool strict) { m->strict_skip = strict; }
void cat_model_set_memory_limit(cat_model *m, size_t bytes) { m->memory_limit = bytes; }

size_t cat_memory_limit(const cat_model *m)
{
	return m && m->memory_limit ? m->memory_limit : CAT_EVAL_MEMORY_LIMIT;
}

void cat_model_skip_all_checks(cat_model *m)
{
	for (int i = 0; i < m->nchecks; i++)
		if (!m->checks[i].flag)
			m->checks[i].skipped = true;
}

bool cat_model_check_is_skipped(const cat_model *m, int i)
{
	return i >= 0 && i < m->nchecks && m->checks[i].skipped;
}

bool cat_model_check_is_monotone(const cat_model *m, int i)
{
	return i >= 0 && i < m->nchecks && m->checks[i].monotone;
}

bool cat_run_checks(cat_model *m, bool partial, cat_check_fn check, void *ctx, cat_eval *ev,
                    cat_verdict *out, diag *d)
{
	if (!partial && m->co_unread && !cat_co_is_herds_one(ev->x)) {
		/* not an execution herd builds for this model */
		*out = (cat_verdict){ .allowed = false, .failed = "co (one per final write)", .flags = m->flag_names };
		return true;
	}
	if (!partial && m->nchoices > 0)
		return cat_run_choices(m, check, ctx, ev, out, d);
	m->nflag_names = 0;
	out->allowed = true;
	out->n_allowed = 0;
	out->failed = NULL;
	out->n_flags = 0;
	out->flags = m->flag_names;
	out->ignored = NULL;
	const char *held = NULL; /* -strictskip: a check skipped by name that holds */
	for (int i = 0; i < m->nchecks; i++) {
		const cat_check_entry *ce = &m->checks[i];
		if (partial && (!ce->monotone || ce->flag || ce->skipped))
			continue;
		bool failed, fired;
		if (!check(ctx, i, &failed, &fired)) {
			cat_eval_report(ev, d);
			return false;
		}
		/* a skipped check is still evaluated (its failure is said, so
		 * that a picture of an execution let through can say what would
		 * have forbidden it) but decides nothing */
		if (failed && ce->skipped) {
			if (!out->ignored)
				out->ignored = ce->name;
		} else if (failed) {
			out->allowed = false;
			out->failed = ce->name;
			break;
		} else if (ce->skipped_by_name && !held) {
			held = ce->name;
		}
	}
	/* herd's -strictskip: only the executions that fail every check
	 * skipped by name (and pass the others) go through; not for partial
	 * executions, where a check that holds may fail later */
	if (m->strict_skip && !partial && out->allowed && held) {
		out->allowed = false;
		out->failed = held;
	}
	out->n_flags = partial ? 0 : m->nflag_names;
	out->n_allowed = out->allowed ? 1 : 0;
	return true;
}

static bool eval_check(void *ev, int i, bool *failed, bool *fired)
{
	return cat_eval_check(ev, i, failed, fired);
}

static bool run_checks(cat_model *m, const execution *x, cat_verdict *out, diag *d, bool partial)
{
	cat_eval_begin(&m->ev, x);
	return cat_run_checks(m, partial, eval_check, &m->ev, &m->ev, out, d);
}

bool cat_model_check(cat_model *m, const execution *x, cat_verdict *out, diag *d)
{
	if (!m->interpret) {
		if (!m->prog)
			m->prog = cat_prog_new(m);
		int r = cat_prog_run(m->prog, x, out, d);
		if (r >= 0)
			return r == 1;
	}
	return run_checks(m, x, out, d, false);
}

void cat_model_set_compiled(cat_model *m, bool compiled)
{
	m->interpret = !compiled;
}

void cat_model_check_counts(const cat_model *m, long *compiled, long *interpreted)
{
	cat_prog_counts(m->prog, compiled, interpreted);
}

bool cat_model_check_partial(cat_model *m, const execution *x, cat_verdict *out, diag *d)
{
	return run_checks(m, x, out, d, true);
}

static int find_slot(const cat_model *m, const char *name)
{
	for (int i = m->nslots - 1; i >= 0; i--)
		if (m->slots[i].name && !strcmp(m->slots[i].name, name))
			return i;
	return -1;
}

bool cat_model_defines(const cat_model *m, const char *name)
{
	int s = find_slot(m, name);
	return s >= 0 && m->slots[s].kind != SLOT_BUILTIN;
}

static bool eval_slot_relation(cat_model *m, const execution *x, int s, const char *name, brel *out, diag *d);

bool cat_model_eval_relation(cat_model *m, const execution *x, const char *name, brel *out, diag *d)
{
	srcloc none = { m->name, 0, 0 };
	int s = find_slot(m, name);
	if (s < 0) {
		diag_error(d, none, "the model does not define '%s'", name);
		return false;
	}
	return eval_slot_relation(m, x, s, name, out, d);
}

bool cat_model_eval_shown(cat_model *m, const execution *x, int i, brel *out, diag *d)
{
	if (i < 0 || i >= m->nshown)
		return false;
	return eval_slot_relation(m, x, m->shown[i].slot, m->shown[i].label, out, d);
}

/* The value of slot s (called `name` in messages) as a relation. */
static bool eval_slot_relation(cat_model *m, const execution *x, int s, const char *name, brel *out, diag *d)
{
	srcloc none = { m->name, 0, 0 };
	cat_eval_begin(&m->ev, x);
	cval v;
	if (!cat_eval_slot(&m->ev, s, &v)) {
		cat_eval_report(&m->ev, d);
		return false;
	}
	*out = brel_new(x->n);
	if (v.kind == V_REL) {
		memcpy(out->w, v.u.bits, (size_t)x->n * out->words * sizeof(uint64_t));
	} else if (v.kind == V_UNIV) {
		brel_complement(out);
	} else if (v.kind != V_EMPTY) {
		brel_free(out);
		diag_error(d, m->slots[s].loc.line ? m->slots[s].loc : none, "'%s' is %s, not a relation", name,
		           cval_kind_name(v.kind));
		return false;
	}
	return true;
}
