/* cat_static.c — which top-level values depend only on the static part of
 * an execution.
 *
 * An engine judges many executions that differ only in rf and co (the
 * enumerator tries every rf and co for one set of thread paths; RSMC adds
 * rf and co edges as it commits).  A binding that does not depend on rf, co,
 * fr or FW — po-loc, fencerel(SYNC), dd, ctrlisync, ... — then keeps its
 * value, and the evaluator keeps it too (cat_eval.c) until the events, po,
 * dependencies, rmw or architecture change.
 *
 * A slot is static when every built-in it reaches, through the definitions
 * of the global names its definition uses (function bodies included), is
 * static: everything but rf, co, fr and FW.  A let rec group is static when
 * all its members are.
 */
#include "cat_int.h"

static bool builtin_static(int b) { return b != B_RF && b != B_CO && b != B_FR && b != B_FW; }

static bool slot_static(cat_model *m, int s);

static bool ex_static(cat_model *m, const cat_ex *e);

static bool cond_static(cat_model *m, const cat_cond *c)
{
	if (!c)
		return true;
	return (!c->a || ex_static(m, c->a)) && (!c->b || ex_static(m, c->b)) && cond_static(m, c->l) &&
	       cond_static(m, c->r);
}

static bool ex_static_walk(cat_model *m, const cat_ex *e);

/* Once the slots are classified an expression's answer never changes:
 * kept in it, since the compiled check asks of every node of a model's
 * checks for each static part (cat_sym.c). */
static bool ex_static(cat_model *m, const cat_ex *e)
{
	if (!e)
		return true;
	if (!m->static_done)
		return ex_static_walk(m, e);
	if (!e->static_memo)
		((cat_ex *)e)->static_memo = ex_static_walk(m, e) ? 1 : -1;
	return e->static_memo > 0;
}

static bool ex_static_walk(cat_model *m, const cat_ex *e)
{
	if (e->kind == CE_VAR && e->ref == REF_GLOBAL && !slot_static(m, e->index))
		return false;
	if (e->kind == CE_VAR && e->ref == REF_DYN && cat_ifetch_value_dependent(e->name))
		return false;   /* the values of the events, which rf sets */
	for (int i = 0; i < e->n; i++)
		if (!ex_static(m, e->kids[i]))
			return false;
	for (int i = 0; i < e->nb; i++)
		if (!ex_static(m, e->binds[i].e))
			return false;
	return cond_static(m, e->cond);
}

static bool slot_static(cat_model *m, int s)
{
	cat_slot *sl = &m->slots[s];
	if (sl->static_state == 2)
		return sl->is_static;
	if (sl->static_state == 1)
		return true; /* a member of the rec group being decided: assume */
	switch (sl->kind) {
	case SLOT_BUILTIN:
		sl->is_static = builtin_static(sl->builtin);
		break;
	case SLOT_CHOICE:
		/* its value changes from one branch to the next */
		sl->is_static = false;
		break;
	case SLOT_LET:
		sl->static_state = 1;
		sl->is_static = ex_static(m, sl->def);
		break;
	case SLOT_PROJ:
		sl->static_state = 1;
		sl->is_static = slot_static(m, sl->of);
		break;
	case SLOT_REC: {
		int first = sl->of, n = sl->group_n;
		for (int k = 0; k < n; k++)
			m->slots[first + k].static_state = 1;
		bool st = true;
		for (int k = 0; k < n && st; k++)
			st = ex_static(m, m->slots[first + k].def);
		for (int k = 0; k < n; k++) {
			m->slots[first + k].is_static = st;
			m->slots[first + k].static_state = 2;
		}
		return st;
	}
	case SLOT_PROC:
	case SLOT_ENUM:
	case SLOT_TAGSET:
		sl->is_static = true;
		break;
	}
	sl->static_state = 2;
	return sl->is_static;
}

bool cat_ex_static(cat_model *m, const cat_ex *e)
{
	return ex_static(m, e);
}

bool cat_cond_static(cat_model *m, const cat_cond *c)
{
	return cond_static(m, c);
}

void cat_classify_static(cat_model *m)
{
	for (int s = 0; s < m->nslots; s++)
		slot_static(m, s);
	m->static_done = true;
}
