/* cat_reach.c — what a model's checks reach: the names bound nowhere
 * they use, and whether they read the engine's coherence order.
 *
 * A name bound nowhere in a top-level `let` is an error only where the
 * model uses it.
 *
 * herd binds a top-level `let` lazily (lib/interpreter.ml, eval_bds: each
 * right-hand side is a lazy value), so a name bound nowhere fails only
 * when a check, a call or a `with ... from` forces a binding that reaches
 * it.  herd's c11_cos.cat relies on that: `let co = mo and coe = moe and
 * coi = coi` names a coi nothing binds, and nothing reads that coi.
 *
 * The compiler resolves such a name as it resolves one inside `try` (a
 * name looked up in each execution, REF_DYN), and this walk, from every
 * top-level check, call and choice through the bindings they read, reports
 * each one reached outside a `try` as it reported it before: at load time,
 * "unbound name".  A binding nothing reaches keeps its unbound name, as in
 * herd, and `weft -check` accepts the model.
 */
#include <stdlib.h>

#include "cat_int.h"

typedef struct walk {
	const cat_model *m;
	unsigned char *seen;     /* per slot: 1 its definition was walked
	                          * inside a `try`, 2 outside */
	diag *d;
	bool ok;
	bool reads_co;           /* some check reaches co, fr or `with co from` */
} walk;

static void walk_ex(walk *w, const cat_ex *e, int in_try);
static void walk_ins_list(walk *w, const cat_ins_list *l, int in_try);

static void walk_slot(walk *w, int s, int in_try)
{
	unsigned char mark = in_try ? 1 : 2;
	if (s < 0 || s >= w->m->nslots || w->seen[s] >= mark)
		return;
	w->seen[s] = mark;
	const cat_slot *sl = &w->m->slots[s];
	switch (sl->kind) {
	case SLOT_BUILTIN:
		if (sl->builtin == B_CO || sl->builtin == B_FR)
			w->reads_co = true;
		break;
	case SLOT_CHOICE:
		if (sl->co_filter)
			w->reads_co = true;
		walk_ex(w, sl->def, in_try);
		break;
	case SLOT_LET: case SLOT_REC:
		walk_ex(w, sl->def, in_try);
		break;
	case SLOT_PROJ:
		walk_slot(w, sl->of, in_try);
		break;
	case SLOT_PROC:
		walk_ins_list(w, &sl->ins->body, in_try);
		break;
	default:
		break;
	}
}

static void walk_cond(walk *w, const cat_cond *c, int in_try)
{
	if (!c)
		return;
	walk_ex(w, c->a, in_try);
	walk_ex(w, c->b, in_try);
	walk_cond(w, c->l, in_try);
	walk_cond(w, c->r, in_try);
}

static void walk_ex(walk *w, const cat_ex *e, int in_try)
{
	if (!e)
		return;
	if (e->kind == CE_VAR) {
		if (e->ref == REF_GLOBAL)
			walk_slot(w, e->index, in_try);
		else if (e->ref == REF_DYN && !in_try && !cat_dyn_name_known(e->name)) {
			/* (inside a `try`, herd catches the failure) */
			diag_error(w->d, e->loc, "unbound name '%s'", e->name);
			w->ok = false;
		}
		return;
	}
	if (e->kind == CE_TRY) {
		walk_ex(w, e->kids[0], in_try + 1);
		walk_ex(w, e->kids[1], in_try);
		return;
	}
	for (int i = 0; i < e->n; i++)
		walk_ex(w, e->kids[i], in_try);
	for (int i = 0; i < e->nb; i++)
		walk_ex(w, e->binds[i].e, in_try);
	walk_cond(w, e->cond, in_try);
}

static void walk_ins(walk *w, const cat_ins *in, int in_try)
{
	for (int b = 0; b < in->nb; b++)
		walk_ex(w, in->binds[b].e, in_try);
	walk_ex(w, in->e, in_try);
	if (in->kind == CI_CALL)
		walk_slot(w, in->slot, in_try);
	if (in->kind == CI_IF && in->taken)
		walk_ins_list(w, in->taken == 1 ? &in->body : &in->body2, in_try);
}

static void walk_ins_list(walk *w, const cat_ins_list *l, int in_try)
{
	for (int i = 0; i < l->n; i++)
		walk_ins(w, l->v[i], in_try);
}

bool cat_check_reached_names(cat_model *m, diag *d)
{
	walk w = { m, xcalloc((size_t)m->nslots + 1, 1), d, true, false };
	for (int i = 0; i < m->nchecks; i++)
		walk_ins(&w, m->checks[i].ins, 0);
	for (int c = 0; c < m->nchoices; c++)
		walk_slot(&w, m->choices[c].slot, 0);
	free(w.seen);
	m->co_unread = !w.reads_co;
	return w.ok;
}
