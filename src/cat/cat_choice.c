/* cat_choice.c — herd's `with X from S`: the rest of the model runs once per
 * element of S.
 *
 * herd's interpreter (herd/interpreter.ml, WithFrom) calls the continuation
 * of the instruction once for each element of S's value, with X bound to
 * it; every run that reaches the end of the model is one execution for its
 * top loop (herd/top_herd.ml): each adds to Positive or Negative, its flags
 * join the test's, and its final state (the candidate's, the same for every
 * branch) joins the states.  An empty S ends the run: the candidate counts
 * for nothing.  So a candidate counts once per branch that passes every
 * check after the `with` (and the checks before it).
 *
 * weft does the same depth first over the model's top-level choices, in
 * model order: the checks before a choice run once, those after it once
 * per element; a value that depends on a choice (choice_dep) is forgotten
 * when that choice, or an earlier one, takes its next element.
 *
 * `with co from S` (herd's cos.cat, cos-opt.cat): herd's engine picks the
 * final write of each location (FW) and the model enumerates the rest of
 * co.  weft's engines enumerate whole co orders over the memory writes, so
 * a branch is an element of S that orders those writes as the execution's
 * co does.  When S's elements are orders of the memory writes only, there
 * is exactly one such element (herd's co0: IW first, FW last) and co can be
 * the engine's without evaluating S: the common case, kept as the built-in
 * co (fast).  S is evaluated only when the model widened the writes it
 * orders: lock.cat's `let W = W | LKW` before cos-opt.cat, where the order
 * of the lock writes is the model's choice.
 */
#include <stdlib.h>
#include <string.h>

#include "cat_int.h"

/* ---- what depends on what ------------------------------------------------------ */

static int ex_dep(const cat_model *m, const cat_ex *e);

static int cond_dep(const cat_model *m, const cat_cond *c)
{
	if (!c)
		return 0;
	int d = 0, k;
	if (c->a && (k = ex_dep(m, c->a)) > d)
		d = k;
	if (c->b && (k = ex_dep(m, c->b)) > d)
		d = k;
	if ((k = cond_dep(m, c->l)) > d)
		d = k;
	if ((k = cond_dep(m, c->r)) > d)
		d = k;
	return d;
}

/* The highest choice e's value may depend on, from the current choice_dep
 * of the slots it names. */
static int ex_dep(const cat_model *m, const cat_ex *e)
{
	if (!e)
		return 0;
	int d = 0, k;
	if (e->kind == CE_VAR && e->ref == REF_GLOBAL)
		d = m->slots[e->index].choice_dep;
	for (int i = 0; i < e->n; i++)
		if ((k = ex_dep(m, e->kids[i])) > d)
			d = k;
	for (int i = 0; i < e->nb; i++)
		if ((k = ex_dep(m, e->binds[i].e)) > d)
			d = k;
	if ((k = cond_dep(m, e->cond)) > d)
		d = k;
	return d;
}

static int ins_dep(const cat_model *m, const cat_ins_list *l)
{
	int d = 0, k;
	for (int i = 0; i < l->n; i++) {
		const cat_ins *in = l->v[i];
		for (int b = 0; b < in->nb; b++)
			if ((k = ex_dep(m, in->binds[b].e)) > d)
				d = k;
		if ((k = ex_dep(m, in->e)) > d)
			d = k;
		if (in->kind == CI_CALL && in->slot >= 0 && (k = m->slots[in->slot].choice_dep) > d)
			d = k;
		if ((k = cond_dep(m, in->cond)) > d)
			d = k;
		if ((k = ins_dep(m, &in->body)) > d)
			d = k;
		if ((k = ins_dep(m, &in->body2)) > d)
			d = k;
	}
	return d;
}

/* choice_dep of every slot: the least fixpoint (values only grow, up to the
 * number of choices; let rec groups and functions refer to each other). */
static void find_choice_deps(cat_model *m)
{
	for (int s = 0; s < m->nslots; s++)
		m->slots[s].choice_dep = m->slots[s].kind == SLOT_CHOICE ? m->slots[s].choice : 0;
	if (m->nchoices == 0)
		return;
	for (bool grew = true; grew;) {
		grew = false;
		for (int s = 0; s < m->nslots; s++) {
			cat_slot *sl = &m->slots[s];
			int d = 0;
			switch (sl->kind) {
			case SLOT_LET: case SLOT_REC:
				d = ex_dep(m, sl->def);
				break;
			case SLOT_PROJ:
				d = m->slots[sl->of].choice_dep;
				break;
			case SLOT_PROC:
				d = ins_dep(m, &sl->ins->body);
				break;
			default:
				break;
			}
			if (sl->kind == SLOT_REC) {
				/* one value for the whole group */
				int first = sl->of;
				for (int k = 0; k < sl->group_n; k++)
					if (m->slots[first + k].choice_dep > d)
						d = m->slots[first + k].choice_dep;
			}
			if (d > sl->choice_dep) {
				sl->choice_dep = d;
				grew = true;
			}
		}
	}
}

/* ---- with co from: the engine's co, or a choice ------------------------------------ */

/* herd's built-in event sets: a model that binds one of these names itself
 * (lock.cat's W | LKW) changes what co ranges over. */
static bool builtin_set_name(const char *name)
{
	static const char *const sets[] = { "W", "R", "M", "IW", "FW" };
	for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
		if (!strcmp(sets[i], name))
			return true;
	return false;
}

typedef struct reach {
	const cat_model *m;
	unsigned char *seen;
	int *todo, n;
} reach;

static void reach_slot(reach *r, int s)
{
	if (r->seen[s])
		return;
	r->seen[s] = 1;
	r->todo[r->n++] = s;
}

static void reach_ex(reach *r, const cat_ex *e);

static void reach_cond(reach *r, const cat_cond *c)
{
	if (!c)
		return;
	reach_ex(r, c->a);
	reach_ex(r, c->b);
	reach_cond(r, c->l);
	reach_cond(r, c->r);
}

static void reach_ex(reach *r, const cat_ex *e)
{
	if (!e)
		return;
	if (e->kind == CE_VAR && e->ref == REF_GLOBAL)
		reach_slot(r, e->index);
	for (int i = 0; i < e->n; i++)
		reach_ex(r, e->kids[i]);
	for (int i = 0; i < e->nb; i++)
		reach_ex(r, e->binds[i].e);
	reach_cond(r, e->cond);
}

/* Does S of `with co from S` (slot s), through whatever it uses, reach a
 * slot `hit` says yes to? */
static bool co_set_reaches(const cat_model *m, int s, bool (*hit)(const cat_slot *sl))
{
	reach r = { m, xcalloc((size_t)m->nslots, 1), xmalloc((size_t)m->nslots * sizeof(int)), 0 };
	bool found = false;
	reach_ex(&r, m->slots[s].def);
	for (int i = 0; i < r.n && !found; i++) {
		const cat_slot *sl = &m->slots[r.todo[i]];
		if (hit(sl))
			found = true;
		else if (sl->kind == SLOT_LET || sl->kind == SLOT_REC || sl->kind == SLOT_CHOICE)
			reach_ex(&r, sl->def);
		else if (sl->kind == SLOT_PROJ)
			reach_slot(&r, sl->of);
	}
	free(r.seen);
	free(r.todo);
	return found;
}

/* A binding of the model's own of W, R, M, IW or FW. */
static bool rebinds_builtin_set(const cat_slot *sl)
{
	return sl->kind != SLOT_BUILTIN && sl->name && builtin_set_name(sl->name);
}

/* co or fr: what changes from one coherence order to the next, beyond
 * its last writes. */
static bool reads_co(const cat_slot *sl)
{
	return sl->kind == SLOT_BUILTIN && (sl->builtin == B_CO || sl->builtin == B_FR);
}

/* FW: the last writes of co (stdlib.cat's co0 orders them last). */
static bool reads_fw(const cat_slot *sl)
{
	return sl->kind == SLOT_BUILTIN && sl->builtin == B_FW;
}

/* Does S use a binding of its own of W, R, M, IW or FW? */
static bool co_widened(const cat_model *m, int s)
{
	return co_set_reaches(m, s, rebinds_builtin_set);
}

void cat_choice_prepare(cat_model *m)
{
	int kept = 0;
	for (int c = 0; c < m->nchoices; c++) {
		cat_slot *sl = &m->slots[m->choices[c].slot];
		if (sl->co_filter && !co_widened(m, m->choices[c].slot)) {
			/* the engine's co, S not evaluated */
			sl->kind = SLOT_BUILTIN;
			sl->builtin = B_CO;
			sl->choice = 0;
			sl->co_filter = false;
			free(m->choices[c].name);
			continue;
		}
		sl->choice = kept + 1;
		sl->choice_memo_ok = sl->co_filter && !co_set_reaches(m, m->choices[c].slot, reads_co);
		sl->choice_reads_fw = sl->choice_memo_ok && co_set_reaches(m, m->choices[c].slot, reads_fw);
		m->choices[kept++] = m->choices[c];
	}
	m->nchoices = kept;
	find_choice_deps(m);
}

/* ---- running the branches ------------------------------------------------------------- */

/* One choice being tried: its elements and where the run resumes. */
typedef struct branch_point {
	int choice;
	int n, next;        /* elements, the next one to try */
	cval *elts;
	int first_check;
	int nflags;         /* flags fired before it */
	const char *held;   /* -strictskip: a check skipped by name that holds */
} branch_point;

static void add_flags(cat_model *m, int *nacc)
{
	for (int i = 0; i < m->nflag_names; i++) {
		bool have = false;
		for (int k = 0; k < *nacc && !have; k++)
			have = !strcmp(m->flag_acc[k], m->flag_names[i]);
		if (!have && *nacc < m->nchecks + 64)
			m->flag_acc[(*nacc)++] = m->flag_names[i];
	}
}

bool cat_run_choices(cat_model *m, cat_check_fn check, void *ctx, cat_eval *ev, cat_verdict *out, diag *d)
{
	m->nflag_names = 0;
	*out = (cat_verdict){ 0 };
	int nacc = 0, count = 0, depth = 0;
	const char *first_failed = NULL;
	/* one point per choice at most: a branch resumes after its own */
	branch_point *stack = xmalloc((size_t)m->nchoices * sizeof *stack);
	int i = 0, c = 0;
	const char *held = NULL;
	bool ok = true;
	for (;;) {
		/* run checks until a choice point, a failure or the end */
		bool leaf_ok = false, dead = false;
		while (!dead) {
			if (c < m->nchoices && m->choices[c].first_check == i) {
				branch_point *bp = &stack[depth];
				*bp = (branch_point){ c, 0, 0, NULL, i, m->nflag_names, held };
				if (!cat_eval_choice_set(ev, c, &bp->n, &bp->elts)) {
					ok = false;
					goto done;
				}
				if (bp->n == 0 && !first_failed)
					first_failed = m->choices[c].name;
				depth++;
				break;
			}
			if (i == m->nchecks) {
				leaf_ok = true;
				break;
			}
			const cat_check_entry *ce = &m->checks[i];
			bool failed, fired;
			if (!check(ctx, i, &failed, &fired)) {
				ok = false;
				goto done;
			}
			if (failed && ce->skipped) {
				if (!out->ignored)
					out->ignored = ce->name;
			} else if (failed) {
				if (!first_failed)
					first_failed = ce->name;
				dead = true;
			} else if (ce->skipped_by_name && !held) {
				held = ce->name;
			}
			i++;
		}
		if (leaf_ok && !(m->strict_skip && held)) {
			count++;
			add_flags(m, &nacc);
		} else if (leaf_ok && !first_failed) {
			first_failed = held;
		}
		/* the next element of the innermost choice with one left */
		while (depth > 0 && stack[depth - 1].next == stack[depth - 1].n)
			depth--;
		if (depth == 0)
			break;
		branch_point *bp = &stack[depth - 1];
		cat_eval_bind_choice(ev, bp->choice, &bp->elts[bp->next++]);
		m->nflag_names = bp->nflags;
		held = bp->held;
		i = bp->first_check;
		c = bp->choice + 1;
	}
done:
	free(stack);
	if (!ok) {
		cat_eval_report(ev, d);
		return false;
	}
	out->allowed = count > 0;
	out->n_allowed = count;
	out->failed = count > 0 ? NULL : first_failed;
	out->n_flags = nacc;
	out->flags = m->flag_acc;
	return true;
}
