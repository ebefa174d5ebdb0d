/* cat_compile.c — loading a model: files, includes, variants, and name
 * resolution.
 *
 * The compiler walks the instructions in order, as herd does, with one
 * global environment: each top-level binding gets a new slot, and a name
 * refers to the latest slot of that name bound before the reference (or to
 * itself and its group for `let rec`).  Names bound by functions, `let ...
 * in`, set matches and procedures live in run-time frames; a reference to
 * one is resolved to (frames up, position).
 *
 * A name bound nowhere is an error, except
 *   - inside `try e with ...`, where herd catches the failure at run time:
 *     it becomes a fence-set lookup that fails unless the execution's
 *     architecture has a fence of that name, and the `with` part is used;
 *   - a fence mnemonic of a known architecture (SYNC, MFENCE, DMB.SY, ...),
 *     looked up in each execution the same way.
 *
 * `include "f.cat"` is searched in the including file's folder, then in the
 * search path.  herd's stdlib.cat is loaded first, looked up the same way
 * from the model's folder.  With a bell file (herd's -bell), the sets its
 * `instructions` declarations name come first, then stdlib.cat, then the
 * bell as a model file, then the model.  `with X from e` is a choice
 * (cat_choice.c says how `with co from e` meets the engine's co).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat_int.h"


typedef struct scope {
	struct scope *up;
	int n;
	size_t cap;
	const char **names;   /* NULL: wildcard */
} scope;

typedef struct compiler {
	cat_model *m;
	const cat_search_path *sp;
	diag *d;
	bool ok;
	bool lazy_let;   /* compiling a top-level let's right-hand side: a
	                  * name bound nowhere fails where it is used
	                  * (cat_unbound.c), as herd's lazy let makes it */
	int ninc;
	const char *inc_stack[CAT_MAX_INCLUDE_DEPTH];
} compiler;

static void cerror(compiler *c, srcloc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void cerror(compiler *c, srcloc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(c->d, at, fmt, ap);
	va_end(ap);
	c->ok = false;
}

/* ---- slots ------------------------------------------------------------------------ */

static int new_slot(cat_model *m, const char *name, enum cat_slot_kind k, srcloc loc)
{
	GROW(m->slots, m->slots_cap, (size_t)m->nslots + 1);
	cat_slot *s = &m->slots[m->nslots];
	memset(s, 0, sizeof *s);
	s->name = name;
	s->kind = k;
	s->loc = loc;
	s->of = -1;
	return m->nslots++;
}

static int find_global(const cat_model *m, const char *name)
{
	for (int i = m->nslots - 1; i >= 0; i--)
		if (m->slots[i].name && !strcmp(m->slots[i].name, name))
			return i;
	return -1;
}

static void add_builtin_slots(cat_model *m)
{
	srcloc none = { NULL, 0, 0 };
	for (int b = 0; b < B_COUNT; b++) {
		int s = new_slot(m, cat_builtins[b].name, SLOT_BUILTIN, none);
		m->slots[s].builtin = b;
	}
}

/* ---- scopes ------------------------------------------------------------------------ */

static void scope_add(scope *sc, const char *name)
{
	GROW(sc->names, sc->cap, (size_t)sc->n + 1);
	sc->names[sc->n++] = name;
}

static void scope_add_pat(scope *sc, const cat_pat *p)
{
	for (int i = 0; i < p->n; i++)
		scope_add(sc, p->names[i]);
}

static bool scope_lookup(const scope *sc, const char *name, int *depth, int *index)
{
	for (int d = 0; sc; sc = sc->up, d++)
		for (int i = sc->n - 1; i >= 0; i--)
			if (sc->names[i] && !strcmp(sc->names[i], name)) {
				*depth = d;
				*index = i;
				return true;
			}
	return false;
}

static int pat_size(const cat_pat *p) { return p->n; }

/* ---- expressions -------------------------------------------------------------------- */

static void compile_ex(compiler *c, cat_ex *e, scope *sc, int in_try);

static void compile_cond(compiler *c, cat_cond *cd, scope *sc, int in_try)
{
	if (!cd)
		return;
	if (cd->a)
		compile_ex(c, cd->a, sc, in_try);
	if (cd->b)
		compile_ex(c, cd->b, sc, in_try);
	compile_cond(c, cd->l, sc, in_try);
	compile_cond(c, cd->r, sc, in_try);
}

static void compile_var(compiler *c, cat_ex *e, scope *sc, int in_try)
{
	if (scope_lookup(sc, e->name, &e->depth, &e->index)) {
		e->ref = REF_LOCAL;
		return;
	}
	int g = find_global(c->m, e->name);
	if (g >= 0) {
		e->ref = REF_GLOBAL;
		e->index = g;
		return;
	}
	if (in_try || c->lazy_let || cat_dyn_name_known(e->name)) {
		e->ref = REF_DYN;
		cat_model *m = c->m;
		for (e->index = 0; e->index < m->ndyn; e->index++)
			if (!strcmp(m->dyn_names[e->index], e->name))
				return;
		GROW(m->dyn_names, m->dyn_cap, (size_t)m->ndyn + 1);
		m->dyn_names[m->ndyn++] = e->name;
		return;
	}
	cerror(c, e->loc, "unbound name '%s'", e->name);
}

static void compile_ex(compiler *c, cat_ex *e, scope *sc, int in_try)
{
	if (!e)
		return;
	switch (e->kind) {
	case CE_VAR:
		compile_var(c, e, sc, in_try);
		return;
	case CE_FUN: {
		scope inner = { sc, 0, 0, NULL };
		scope_add_pat(&inner, &e->pat);
		e->frame_size = pat_size(&e->pat);
		compile_ex(c, e->kids[0], &inner, in_try);
		free(inner.names);
		return;
	}
	case CE_LET: {
		scope inner = { sc, 0, 0, NULL };
		for (int i = 0; i < e->nb; i++) {
			compile_ex(c, e->binds[i].e, sc, in_try);
			e->binds[i].slot = inner.n;
			scope_add_pat(&inner, &e->binds[i].pat);
		}
		e->frame_size = inner.n;
		compile_ex(c, e->kids[0], &inner, in_try);
		free(inner.names);
		return;
	}
	case CE_LETREC: {
		scope inner = { sc, 0, 0, NULL };
		for (int i = 0; i < e->nb; i++) {
			if (e->binds[i].pat.tuple) {
				cerror(c, e->binds[i].loc, "unsupported: tuple pattern in 'let rec'");
				continue;
			}
			e->binds[i].slot = inner.n;
			scope_add_pat(&inner, &e->binds[i].pat);
		}
		e->frame_size = inner.n;
		for (int i = 0; i < e->nb; i++)
			compile_ex(c, e->binds[i].e, &inner, in_try);
		compile_ex(c, e->kids[0], &inner, in_try);
		free(inner.names);
		return;
	}
	case CE_MATCH_SET: {
		compile_ex(c, e->kids[0], sc, in_try);
		compile_ex(c, e->kids[1], sc, in_try);
		scope inner = { sc, 0, 0, NULL };
		scope_add(&inner, e->name);
		scope_add(&inner, e->name2);
		e->frame_size = 2;
		compile_ex(c, e->kids[2], &inner, in_try);
		free(inner.names);
		return;
	}
	case CE_TRY:
		compile_ex(c, e->kids[0], sc, in_try + 1);
		compile_ex(c, e->kids[1], sc, in_try);
		return;
	case CE_IF:
		compile_cond(c, e->cond, sc, in_try);
		break;
	default:
		break;
	}
	for (int i = 0; i < e->n; i++)
		compile_ex(c, e->kids[i], sc, in_try);
}

/* ---- variants ------------------------------------------------------------------------- */

static bool variant_set(const cat_model *m, const char *v)
{
	for (int i = 0; i < m->nvariants; i++)
		if (!strcmp(m->variants[i], v))
			return true;
	return false;
}

/* Conditions of instruction-level `if` are decided at load time. */
static bool static_cond(compiler *c, const cat_cond *cd, bool *value)
{
	switch (cd->kind) {
	case CC_VARIANT:
		*value = variant_set(c->m, cd->variant);
		return true;
	case CC_NOT: {
		bool v;
		if (!static_cond(c, cd->l, &v))
			return false;
		*value = !v;
		return true;
	}
	case CC_AND: case CC_OR: {
		bool a, b;
		if (!static_cond(c, cd->l, &a) || !static_cond(c, cd->r, &b))
			return false;
		*value = cd->kind == CC_AND ? (a && b) : (a || b);
		return true;
	}
	default:
		cerror(c, cd->loc, "unsupported: comparison of values in an instruction-level 'if' "
		                   "(only variant names are allowed there)");
		return false;
	}
}

/* ---- instructions ---------------------------------------------------------------------- */

static void compile_file(compiler *c, const char *path, srcloc from);
static void compile_parsed(compiler *c, cat_file *f);
static bool bell_kind(const char *k);
static void compile_body(compiler *c, cat_ins_list *l, scope *ps);

static void add_check(compiler *c, cat_ins *in)
{
	cat_model *m = c->m;
	GROW(m->checks, m->checks_cap, (size_t)m->nchecks + 1);
	cat_check_entry *ce = &m->checks[m->nchecks];
	*ce = (cat_check_entry){ 0 };
	ce->ins = in;
	if (in->kind == CI_CHECK) {
		ce->name = in->as_name ? in->as_name : in->text;
		ce->flag = in->mode != CHECK_REQUIRE;
	} else {
		ce->name = in->as_name ? in->as_name : in->name;
		ce->flag = false;
	}
	ce->monotone = false;
	in->check = m->nchecks++;
}

static void compile_call(compiler *c, cat_ins *in, scope *sc)
{
	int g = find_global(c->m, in->name);
	if (g < 0 || c->m->slots[g].kind != SLOT_PROC) {
		cerror(c, in->loc, g < 0 ? "unknown procedure '%s'" : "'%s' is not a procedure", in->name);
		return;
	}
	in->slot = g;
	compile_ex(c, in->e, sc, 0);
}

static void compile_procedure(compiler *c, cat_ins *in)
{
	scope ps = { NULL, 0, 0, NULL };
	scope_add_pat(&ps, &in->pat);
	compile_body(c, &in->body, &ps);
	in->frame_size = ps.n;
	free(ps.names);
	int s = new_slot(c->m, in->name, SLOT_PROC, in->loc);
	c->m->slots[s].ins = in;
	in->slot = s;
}

/* Instructions of a procedure body: bindings go to the procedure's frame. */
static void compile_body(compiler *c, cat_ins_list *l, scope *ps)
{
	for (int i = 0; i < l->n; i++) {
		cat_ins *in = l->v[i];
		switch (in->kind) {
		case CI_LET:
			for (int b = 0; b < in->nb; b++)
				compile_ex(c, in->binds[b].e, ps, 0);
			for (int b = 0; b < in->nb; b++) {
				in->binds[b].slot = ps->n;
				scope_add_pat(ps, &in->binds[b].pat);
			}
			break;
		case CI_LETREC:
			for (int b = 0; b < in->nb; b++) {
				if (in->binds[b].pat.tuple)
					cerror(c, in->binds[b].loc, "unsupported: tuple pattern in 'let rec'");
				in->binds[b].slot = ps->n;
				scope_add_pat(ps, &in->binds[b].pat);
			}
			for (int b = 0; b < in->nb; b++)
				compile_ex(c, in->binds[b].e, ps, 0);
			break;
		case CI_CHECK:
			compile_ex(c, in->e, ps, 0);
			break;
		case CI_CALL:
			compile_call(c, in, ps);
			break;
		case CI_SHOW: case CI_DEBUG:
			break;
		case CI_IF: {
			bool v;
			if (!static_cond(c, in->cond, &v))
				break;
			in->taken = v ? 1 : 2;
			compile_body(c, v ? &in->body : &in->body2, ps);
			break;
		}
		default:
			cerror(c, in->loc, "unsupported inside a procedure: %s",
			       in->kind == CI_INCLUDE ? "include" : in->kind == CI_PROCEDURE ? "procedure" :
			       in->kind == CI_WITH_FROM ? "with ... from" : in->kind == CI_ENUM ? "enum" :
			       "this instruction");
			break;
		}
	}
}

static const char *dir_of(const char *path, char *buf, size_t cap)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		snprintf(buf, cap, ".");
	} else if (slash == path) {
		snprintf(buf, cap, "/");
	} else {
		snprintf(buf, cap, "%.*s", (int)(slash - path), path);
	}
	return buf;
}

static void add_shown(cat_model *m, const char *label, int slot)
{
	for (int k = 0; k < m->nshown; k++)
		if (!strcmp(m->shown[k].label, label)) {
			m->shown[k].slot = slot;
			return;
		}
	m->shown = xrealloc(m->shown, ((size_t)m->nshown + 1) * sizeof *m->shown);
	m->shown[m->nshown++] = (struct cat_shown){ xstrdup(label), slot };
}

/* show r1, r2 | show e as label | unshow label, ...: what a picture of an
 * execution draws besides the base relations.  A shown name is the
 * binding it has here (a later let of the same name is another relation);
 * a shown expression becomes a hidden let, its names looked up when it is
 * evaluated if they are not bound (as in a try: a name of another
 * architecture's fences), so that a show never makes a model fail. */
static void record_show(compiler *c, cat_ins *in)
{
	cat_model *m = c->m;
	if (in->negated) {
		for (int t = 0; t < in->ntags; t++)
			for (int k = 0; k < m->nshown; k++)
				if (!strcmp(m->shown[k].label, in->tags[t])) {
					free(m->shown[k].label);
					m->shown[k] = m->shown[--m->nshown];
					break;
				}
		return;
	}
	if (in->e) {
		compile_ex(c, in->e, NULL, 1);
		int s = new_slot(m, NULL, SLOT_LET, in->loc);
		m->slots[s].def = in->e;
		add_shown(m, in->as_name, s);
		return;
	}
	for (int t = 0; t < in->ntags; t++) {
		int s = find_global(m, in->tags[t]);
		if (s >= 0)
			add_shown(m, in->as_name ? in->as_name : in->tags[t], s);
	}
}

static void compile_top(compiler *c, cat_ins_list *l, const char *dir)
{
	cat_model *m = c->m;
	for (int i = 0; i < l->n; i++) {
		cat_ins *in = l->v[i];
		switch (in->kind) {
		case CI_LET: {
			/* All right-hand sides first: `let a = e1 and b = e2` does
			 * not see a in e2. */
			c->lazy_let = true;
			for (int b = 0; b < in->nb; b++)
				compile_ex(c, in->binds[b].e, NULL, 0);
			c->lazy_let = false;
			for (int b = 0; b < in->nb; b++) {
				cat_bind *bd = &in->binds[b];
				if (!bd->pat.tuple) {
					int s = new_slot(m, bd->pat.names[0], SLOT_LET, bd->loc);
					m->slots[s].def = bd->e;
					bd->slot = s;
				} else {
					int t = new_slot(m, NULL, SLOT_LET, bd->loc);
					m->slots[t].def = bd->e;
					bd->slot = t;
					for (int k = 0; k < bd->pat.n; k++) {
						int s = new_slot(m, bd->pat.names[k], SLOT_PROJ, bd->loc);
						m->slots[s].of = t;
						m->slots[s].proj = k;
						m->slots[s].group_n = bd->pat.n;
					}
				}
			}
			break;
		}
		case CI_LETREC: {
			int first = m->nslots;
			for (int b = 0; b < in->nb; b++) {
				cat_bind *bd = &in->binds[b];
				if (bd->pat.tuple) {
					cerror(c, bd->loc, "unsupported: tuple pattern in 'let rec'");
					return;
				}
				int s = new_slot(m, bd->pat.names[0], SLOT_REC, bd->loc);
				m->slots[s].def = bd->e;
				m->slots[s].of = first;
				m->slots[s].group_n = in->nb;
				bd->slot = s;
			}
			for (int b = 0; b < in->nb; b++)
				compile_ex(c, in->binds[b].e, NULL, 0);
			break;
		}
		case CI_CHECK:
			compile_ex(c, in->e, NULL, 0);
			add_check(c, in);
			break;
		case CI_CALL:
			compile_call(c, in, NULL);
			add_check(c, in);
			break;
		case CI_INCLUDE: {
			char *path = cat_find_file(in->name, dir, c->sp);
			if (!path) {
				/* where it was looked for, and how to add a place */
				strbuf sb = { 0 };
				sb_puts(&sb, dir ? dir : ".");
				for (int i = 0; c->sp && i < c->sp->n; i++)
					sb_printf(&sb, ", %s", c->sp->dirs[i]);
				cerror(c, in->loc, "cannot find included file \"%s\" (looked in %s; add a folder "
				       "with -I DIR)", in->name, sb.s);
				sb_free(&sb);
				break;
			}
			compile_file(c, path, in->loc);
			free(path);
			break;
		}
		case CI_SHOW:
			record_show(c, in);
			break;
		case CI_DEBUG:
			break;
		case CI_CATDEP:
			m->catdep = true;
			break;
		case CI_PROCEDURE:
			compile_procedure(c, in);
			break;
		case CI_WITH_FROM: {
			compile_ex(c, in->e, NULL, 0);
			/* every `with`, co's too: cat_choice_prepare decides
			 * whether co's can be the execution's own */
			int s = new_slot(m, in->name, SLOT_CHOICE, in->loc);
			m->slots[s].def = in->e;
			m->slots[s].co_filter = !strcmp(in->name, "co");
			in->slot = s;
			GROW(m->choices, m->choices_cap, (size_t)m->nchoices + 1);
			m->choices[m->nchoices] = (struct cat_choice){ s, m->nchecks,
				xasprintf("with %s from", in->name) };
			m->slots[s].choice = ++m->nchoices;
			break;
		}
		case CI_INSTRUCTIONS:
			/* a bell's declaration: its sets were made when the bell
			 * was first read (bell_sets); in a model, herd ignores it */
			if (!bell_kind(in->name))
				cerror(c, in->loc, "'%s' is not an instruction kind of bell files (R, W, J, F, RMW, "
				                   "B, CALL, SRCU)", in->name);
			break;
		case CI_IF: {
			bool v;
			if (!static_cond(c, in->cond, &v))
				break;
			in->taken = v ? 1 : 2;
			compile_top(c, v ? &in->body : &in->body2, dir);
			break;
		}
		case CI_ENUM: {
			int s = new_slot(m, in->name, SLOT_ENUM, in->loc);
			m->slots[s].ins = in;
			in->slot = s;
			break;
		}
		}
		if (!c->ok)
			return;
	}
}

/* ---- bell files ------------------------------------------------------------------------ */

/* The instruction kinds a bell may declare annotations for (herd's). */
static bool bell_kind(const char *k)
{
	static const char *const kinds[] = { "R", "W", "J", "F", "RMW", "B", "CALL", "SRCU" };
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (!strcmp(kinds[i], k))
			return true;
	return false;
}

/* The tags of a set-of-tags expression of a bell declaration: tags, enum
 * names of the bell (declared before), and their unions; added to *tags. */
static void bell_tags(compiler *c, const cat_file *bell, int upto, const cat_ex *e, const char ***tags, int *n)
{
	switch (e->kind) {
	case CE_TAG:
		for (int i = 0; i < *n; i++)
			if (!strcmp((*tags)[i], e->name))
				return;
		*tags = xrealloc(*tags, (size_t)(*n + 1) * sizeof **tags);
		(*tags)[(*n)++] = e->name;
		return;
	case CE_UNION: case CE_SET: case CE_ADD:
		for (int i = 0; i < e->n; i++)
			bell_tags(c, bell, upto, e->kids[i], tags, n);
		return;
	case CE_VAR:
		for (int i = upto - 1; i >= 0; i--) {
			const cat_ins *in = bell->ins.v[i];
			if (in->kind == CI_ENUM && !strcmp(in->name, e->name)) {
				for (int t = 0; t < in->ntags; t++) {
					cat_ex tag = { .kind = CE_TAG, .name = in->tags[t] };
					bell_tags(c, bell, upto, &tag, tags, n);
				}
				return;
			}
		}
		cerror(c, e->loc, "'%s' is not an enum declared before in this bell file", e->name);
		return;
	default:
		cerror(c, e->loc, "unsupported in a bell declaration: a set of tags is expected ('a || 'b, "
		                  "an enum's name, or their union)");
		return;
	}
}

/* herd binds, before anything else, one event set per annotation a bell's
 * `instructions` declarations name: 'rcu-lock gives Rcu-lock, the events
 * whose op carries the annotation rcu-lock. */
static void bell_sets(compiler *c, const cat_file *bell)
{
	cat_model *m = c->m;
	const char **tags = NULL;
	int n = 0;
	for (int i = 0; i < bell->ins.n && c->ok; i++) {
		const cat_ins *in = bell->ins.v[i];
		if (in->kind != CI_INSTRUCTIONS)
			continue;
		if (!bell_kind(in->name)) {
			cerror(c, in->loc, "'%s' is not an instruction kind of bell files (R, W, J, F, RMW, B, "
			                   "CALL, SRCU)", in->name);
			break;
		}
		for (int k = 0; k < in->e->n; k++)
			bell_tags(c, bell, i, in->e->kids[k], &tags, &n);
	}
	for (int i = 0; i < n && c->ok; i++) {
		char *name = xstrdup(tags[i]);
		if (name[0] >= 'a' && name[0] <= 'z')
			name[0] = (char)(name[0] - 'a' + 'A');
		m->owned = xrealloc(m->owned, (size_t)(m->nowned + 1) * sizeof *m->owned);
		m->owned[m->nowned++] = name;
		int s = new_slot(m, name, SLOT_TAGSET, bell->ins.n ? bell->ins.v[0]->loc : (srcloc){ bell->path, 1, 1 });
		m->slots[s].tag = tags[i];
	}
	free(tags);
}

/* Parse and compile one file's text (`path` names it in messages and is
 * its folder for includes). */
static void compile_text(compiler *c, const char *path, const char *text, size_t len)
{
	if (strlen(text) != len) {
		srcloc at = { path, 1, 1 };
		cerror(c, at, "not a text file (it contains a NUL byte)");
		return;
	}
	cat_file *f = cat_parse(path, text, c->d);
	if (!f) {
		c->ok = false;
		return;
	}
	compile_parsed(c, f);
}

/* Compile a parsed file (the model keeps it). */
static void compile_parsed(compiler *c, cat_file *f)
{
	cat_model *m = c->m;
	m->files = xrealloc(m->files, (size_t)(m->nfiles + 1) * sizeof *m->files);
	m->files[m->nfiles++] = f;
	char dir[4096];
	c->inc_stack[c->ninc++] = f->path;
	compile_top(c, &f->ins, dir_of(f->path, dir, sizeof dir));
	c->ninc--;
}

static void compile_file(compiler *c, const char *path, srcloc from)
{
	for (int i = 0; i < c->ninc; i++)
		if (!strcmp(c->inc_stack[i], path)) {
			cerror(c, from, "include cycle: \"%s\" includes itself", path);
			return;
		}
	if (c->ninc >= CAT_MAX_INCLUDE_DEPTH) {
		cerror(c, from, "includes nested too deeply (more than %d)", CAT_MAX_INCLUDE_DEPTH);
		return;
	}
	size_t len;
	char *text = read_whole_file(path, &len, c->d);
	if (!text) {
		c->ok = false;
		return;
	}
	compile_text(c, path, text, len);
	free(text);
}

/* ---- search -------------------------------------------------------------------------- */

static bool readable(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	fclose(f);
	return true;
}

char *cat_find_file(const char *file, const char *including_dir, const cat_search_path *sp)
{
	if (file[0] == '/')
		return readable(file) ? xstrdup(file) : NULL;
	if (including_dir) {
		char *p = xasprintf("%s/%s", including_dir, file);
		if (readable(p))
			return p;
		free(p);
	}
	for (int i = 0; sp && i < sp->n; i++) {
		char *p = xasprintf("%s/%s", sp->dirs[i], file);
		if (readable(p))
			return p;
		free(p);
	}
	return NULL;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

/* The bell, parsed (NULL after reporting errors). */
static cat_file *parse_bell(compiler *c, const char *bell)
{
	size_t len;
	char *text = read_whole_file(bell, &len, c->d);
	if (!text) {
		c->ok = false;
		return NULL;
	}
	cat_file *f = NULL;
	if (strlen(text) != len)
		cerror(c, (srcloc){ bell, 1, 1 }, "not a text file (it contains a NUL byte)");
	else if (!(f = cat_parse(bell, text, c->d)))
		c->ok = false;
	free(text);
	return f;
}

bool cat_compile_model(cat_model *m, const char *path, const char *text, const char *bell,
                       const cat_search_path *sp, bool no_stdlib, diag *d)
{
	compiler c = { m, sp, d, true, false, 0, { 0 } };
	add_builtin_slots(m);
	/* herd: the bell's annotation sets, then stdlib.cat, then the bell,
	 * then the model */
	cat_file *bell_file = NULL;
	if (bell) {
		if (!(bell_file = parse_bell(&c, bell)))
			return false;
		bell_sets(&c, bell_file);
		if (!c.ok) {
			cat_file_free(bell_file);
			return false;
		}
	}
	if (!path)
		path = bell;
	srcloc none = { path, 0, 0 };
	if (!no_stdlib && strcmp(base_name(path), "stdlib.cat") != 0) {
		char dir[4096];
		char *std = cat_find_file("stdlib.cat", dir_of(path, dir, sizeof dir), sp);
		if (!std) {
			diag_error(d, none, "cannot find stdlib.cat (looked in the model's folder and the "
			                    "cat search path)");
			return false;
		}
		compile_file(&c, std, none);
		free(std);
		if (!c.ok) {
			cat_file_free(bell_file);
			return false;
		}
	}
	int first_file = m->nfiles;
	if (bell_file) {
		compile_parsed(&c, bell_file);
		if (!c.ok)
			return false;
		if (path != bell)
			first_file = m->nfiles;
	}
	if (path != bell || !bell_file) {
		if (text)
			compile_text(&c, path, text, strlen(text));
		else
			compile_file(&c, path, none);
	}
	if (!c.ok || !cat_check_reached_names(m, d))
		return false;
	m->main_file = first_file;
	cat_mark_herd_deps(m);
	const cat_file *main_file = m->files[first_file];
	if (main_file->title) {
		m->name = xstrdup(main_file->title);
	} else {
		const char *b = base_name(path);
		size_t len = strlen(b);
		if (len > 4 && !strcmp(b + len - 4, ".cat"))
			len -= 4;
		m->name = xstrndup(b, len);
	}
	cat_choice_prepare(m);
	cat_model_set_fingerprint(m);
	return true;
}
