/* cat_mono.c — which checks may be judged on a partial execution.
 *
 * RSMC (RSMC.md) checks the model while it builds an execution, to cut
 * forbidden branches early.  That is only sound for a check whose failure
 * can never be undone by extending the execution: adding events (with their
 * po, loc, dependency, ... pairs) and adding rf and co edges.  Such a check
 * is *monotone*; the others are judged on complete executions only.
 *
 * Every set or relation expression gets one of three classes:
 *   STABLE  its pairs among existing events never change when the execution
 *           grows (new pairs may only involve new events).  The built-in
 *           event sets, id, po, loc, int, ext, addr, data, ctrl, rmw, amo,
 *           same-instance, sm/si, fence sets, the universe, constants.
 *   GROWS   it only gains pairs.  rf, co and fr (fr = rf^-1;co \ id gains
 *           pairs as co does: a conservative view that allows an explorer
 *           to add rf/co edges between events it already has).
 *   ANY     it may lose pairs: FW (the last write changes as writes are
 *           added) and whatever is built from it in a non-monotone way.
 * Rules (max: the larger of the operands' classes):
 *   e1 | e2, e1 & e2, e1 * e2, e1 ++ e2, e^-1, e?, tuples: max
 *   ~e: STABLE if e is, else ANY
 *   e1 \ e2: ANY if e1 or e2 is ANY; the class of e1 if e2 is STABLE; also
 *     the class of e1 when every non-STABLE factor of e2 (seen as an
 *     intersection f1 & f2 & ...) contains e1 by construction — it is e1
 *     itself or a union with e1 as a term.  That is what makes
 *     fre = fr \ fri with fri = fr & int monotone: a pair of fr that is not
 *     in fri is not in int, and int never changes.
 *   e1 ; e2: max, but stable operands compose to GROWS (a new event can
 *     appear between two old ones), unless all operands but one are
 *     filters [S] with S stable (or id), which add no intermediate event
 *   e+, e*: STABLE operands give GROWS (paths through new events), else max
 *   domain, range: STABLE becomes GROWS; classes-loc, linearisations: ANY
 *   same-oa, different-values: the class of their argument (they keep the
 *   pairs whose events' values agree, or differ, and an event's value
 *   never changes once it is in the execution)
 *   function applications are analysed through the function's body with
 *   the arguments' classes; let rec by fixpoint over the classes; matches,
 *   value conditions and recursive functions: ANY; an `if` on variants
 *   alone (and, or, not of them) is decided before any execution: the
 *   larger class of its branches.
 * An expression that is empty whatever the execution (0, {}, herd's
 * emptyset = domain 0, an intersection, sequence or product with one, ...)
 * is STABLE: herd's aarch64.cat writes `try NoRet with emptyset` and
 * `R \ NoRet`, which would otherwise be a difference by a growing set.
 * herd's dependency relations of a catdep model (cat_herd_deps.c) are
 * STABLE: the engine gives them, over the events of the path each thread
 * has fetched, and a committed event's path never changes.
 * A check is monotone when it is a non-flag acyclic / irreflexive / empty
 * (not negated: ~empty fails on an empty relation that may later gain pairs)
 * of a STABLE or GROWS expression, or a call of a procedure all of whose
 * checks are monotone with the call's arguments.
 */
#include <stdlib.h>
#include <string.h>

#include "cat_int.h"

enum { MAX_APPLY_DEPTH = 24 };

typedef struct aframe aframe;

/* The abstract value of an expression: its class, whether it is a filter
 * [S], and for functions their definition and environment. */
typedef struct aval {
	int cls;
	bool filter;
	bool empty;          /* empty in every execution (so STABLE) */
	const cat_ex *fun;   /* a CE_FUN, or NULL */
	aframe *fenv;
	int prim;            /* a built-in primitive, or -1 */
} aval;

struct aframe {
	aframe *up;
	int n;
	aval *v;
};

typedef struct analysis {
	cat_model *m;
	arena ar;
	int depth;
} analysis;

static aval av(int cls)
{
	aval a = { cls, false, false, NULL, NULL, -1 };
	return a;
}

static aval av_empty(void)
{
	aval a = av(MONO_STABLE);
	a.empty = true;
	return a;
}

static int max_cls(int a, int b) { return a > b ? a : b; }

static aval analyse(analysis *an, const cat_ex *e, aframe *env);

static aframe *new_aframe(analysis *an, aframe *up, int n)
{
	aframe *f = arena_alloc(&an->ar, sizeof *f);
	f->up = up;
	f->n = n;
	f->v = arena_alloc(&an->ar, (size_t)(n ? n : 1) * sizeof(aval));
	for (int i = 0; i < n; i++)
		f->v[i] = av(MONO_ANY);
	return f;
}

/* ---- global slots ----------------------------------------------------------------------- */

static aval slot_aval(analysis *an, int s);

static void analyse_rec_group(analysis *an, int first)
{
	cat_model *m = an->m;
	int n = m->slots[first].group_n;
	for (int k = 0; k < n; k++) {
		m->slots[first + k].mono = MONO_STABLE;
		m->slots[first + k].mono_filter = false;
		m->slots[first + k].mono_empty = false;
		m->slots[first + k].mono_state = 2; /* current approximation */
	}
	/* Classes only go up and there are three: a few rounds suffice. */
	for (int round = 0; round < 3 * n + 3; round++) {
		bool changed = false;
		for (int k = 0; k < n; k++) {
			cat_slot *sl = &m->slots[first + k];
			if (sl->def->kind == CE_FUN)
				continue;
			aval a = analyse(an, sl->def, NULL);
			int c = max_cls(a.cls, sl->mono);
			if (c != sl->mono) {
				sl->mono = c;
				changed = true;
			}
		}
		if (!changed)
			return;
	}
}

static aval slot_aval(analysis *an, int s)
{
	cat_model *m = an->m;
	cat_slot *sl = &m->slots[s];
	if (sl->kind == SLOT_LET && sl->def->kind == CE_FUN) {
		aval a = av(MONO_STABLE);
		a.fun = sl->def;
		return a;
	}
	if (sl->kind == SLOT_REC && sl->def->kind == CE_FUN) {
		/* Recursive functions are not unfolded. */
		return av(MONO_ANY);
	}
	if (sl->kind == SLOT_BUILTIN && cat_builtins[sl->builtin].kind == V_PRIM) {
		aval a = av(MONO_STABLE);
		a.prim = sl->builtin;
		return a;
	}
	if (sl->mono_state == 1)
		return av(MONO_ANY);
	if (sl->mono_state == 2) {
		aval a = sl->mono_empty ? av_empty() : av(sl->mono);
		a.filter = sl->mono_filter;
		return a;
	}
	sl->mono_state = 1;
	aval a = av(MONO_ANY);
	switch (sl->kind) {
	case SLOT_BUILTIN:
		a = av(cat_builtins[sl->builtin].mono);
		/* not sm and si: they relate the accesses of one single-
		 * copy-atomic class (LDXP's two reads), so x; si may gain a
		 * pair of old events through a new one */
		a.filter = sl->builtin == B_ID;
		break;
	case SLOT_LET:
		/* the engine's, when the model reads herd's dependencies */
		a = sl->herd_dep >= 0 ? av(MONO_STABLE) : analyse(an, sl->def, NULL);
		break;
	case SLOT_REC:
		sl->mono_state = 0;
		analyse_rec_group(an, sl->of);
		return av(sl->mono);
	case SLOT_ENUM:
		a = av(MONO_STABLE);
		break;
	case SLOT_TAGSET:
		/* events of the ops that carry an annotation */
		a = av(MONO_STABLE);
		break;
	default:
		a = av(MONO_ANY);
		break;
	}
	sl->mono = a.cls;
	sl->mono_filter = a.filter && a.cls == MONO_STABLE;
	sl->mono_empty = a.empty;
	sl->mono_state = 2;
	return a;
}

/* ---- structure helpers for the difference rule ---------------------------------------------- */

/* The definition behind a global non-function binding, else e itself. */
static const cat_ex *unfold(const cat_model *m, const cat_ex *e)
{
	if (e->kind == CE_VAR && e->ref == REF_GLOBAL) {
		const cat_slot *sl = &m->slots[e->index];
		if (sl->kind == SLOT_LET && sl->def && sl->def->kind != CE_FUN)
			return sl->def;
	}
	return e;
}

static bool same_ex(const cat_ex *a, const cat_ex *b)
{
	if (a->kind != b->kind || a->n != b->n)
		return false;
	if (a->kind == CE_VAR)
		return a->ref == b->ref && a->index == b->index && a->depth == b->depth &&
		       (a->ref != REF_DYN || !strcmp(a->name, b->name));
	if (a->kind == CE_TAG)
		return !strcmp(a->name, b->name);
	if (a->kind == CE_FUN || a->kind == CE_LET || a->kind == CE_LETREC || a->kind == CE_MATCH_SET ||
	    a->kind == CE_MATCH_TAG || a->kind == CE_IF)
		return a == b;
	for (int i = 0; i < a->n; i++)
		if (!same_ex(a->kids[i], b->kids[i]))
			return false;
	return true;
}

static bool same_value_ex(const cat_model *m, const cat_ex *a, const cat_ex *b)
{
	return same_ex(a, b) || same_ex(unfold(m, a), b) || same_ex(a, unfold(m, b)) ||
	       same_ex(unfold(m, a), unfold(m, b));
}

/* Does f contain a by construction (f is a, or a union with a as a term)? */
static bool covers(const cat_model *m, const cat_ex *f, const cat_ex *a)
{
	if (same_value_ex(m, f, a))
		return true;
	const cat_ex *uf = unfold(m, f);
	if (uf->kind == CE_UNION)
		for (int i = 0; i < uf->n; i++)
			if (covers(m, uf->kids[i], a))
				return true;
	return false;
}

/* Every non-stable intersection factor of b covers a. */
static bool factors_cover(analysis *an, const cat_ex *b, aframe *env, const cat_ex *a, int depth)
{
	if (depth > 16)
		return false;
	const cat_ex *ub = unfold(an->m, b);
	if (ub->kind == CE_INTER)
		return factors_cover(an, ub->kids[0], env, a, depth + 1) &&
		       factors_cover(an, ub->kids[1], env, a, depth + 1);
	if (analyse(an, b, env).cls == MONO_STABLE)
		return true;
	return covers(an->m, b, a);
}

/* ---- the analysis ----------------------------------------------------------------------------------- */

static aval bind_args(analysis *an, const cat_pat *p, const cat_ex *arg_ex, aval arg, aframe *f, int pos, aframe *env)
{
	if (!p->tuple) {
		f->v[pos] = arg;
		return arg;
	}
	if (arg_ex && arg_ex->kind == CE_TUPLE && arg_ex->n == p->n) {
		for (int i = 0; i < p->n; i++)
			f->v[pos + i] = analyse(an, arg_ex->kids[i], env);
	} else {
		for (int i = 0; i < p->n; i++)
			f->v[pos + i] = av(arg.cls); /* a tuple's class bounds its elements' */
	}
	return arg;
}

static aval analyse_app(analysis *an, const cat_ex *e, aframe *env)
{
	aval f = analyse(an, e->kids[0], env);
	aval arg = analyse(an, e->kids[1], env);
	if (f.prim >= 0) {
		switch (f.prim) {
		case B_DOMAIN: case B_RANGE:
			if (arg.empty)
				return av_empty();
			return av(arg.cls == MONO_STABLE ? MONO_GROWS : arg.cls);
		case B_SAME_OA: case B_DIFFERENT_VALUES:
			return arg.empty ? av_empty() : av(arg.cls);
		default:
			return av(MONO_ANY);
		}
	}
	if (!f.fun || an->depth >= MAX_APPLY_DEPTH)
		return av(MONO_ANY);
	aframe *fr = new_aframe(an, f.fenv, f.fun->frame_size);
	bind_args(an, &f.fun->pat, e->kids[1], arg, fr, 0, env);
	an->depth++;
	aval r = analyse(an, f.fun->kids[0], fr);
	an->depth--;
	return r;
}

/* A condition on variants alone (decided before any execution). */
static bool variants_only(const cat_cond *c)
{
	switch (c->kind) {
	case CC_VARIANT:
		return true;
	case CC_NOT:
		return variants_only(c->l);
	case CC_AND: case CC_OR:
		return variants_only(c->l) && variants_only(c->r);
	default:
		return false;
	}
}

static aval analyse(analysis *an, const cat_ex *e, aframe *env)
{
	switch (e->kind) {
	case CE_EMPTY_REL: case CE_EMPTY:
		return av_empty();
	case CE_UNIV: case CE_TAG:
		return av(MONO_STABLE);
	case CE_VAR:
		switch (e->ref) {
		case REF_GLOBAL:
			return slot_aval(an, e->index);
		case REF_LOCAL: {
			aframe *f = env;
			for (int d = 0; d < e->depth && f; d++)
				f = f->up;
			if (!f || e->index >= f->n)
				return av(MONO_ANY);
			return f->v[e->index];
		}
		case REF_DYN:
			return av(MONO_STABLE);
		default:
			return av(MONO_ANY);
		}
	case CE_UNION: case CE_INTER: case CE_PROD: case CE_ADD: case CE_SET: case CE_TUPLE: {
		int c = MONO_STABLE;
		bool all_empty = e->kind == CE_UNION, one_empty = false;
		for (int i = 0; i < e->n; i++) {
			aval k = analyse(an, e->kids[i], env);
			c = max_cls(c, k.cls);
			all_empty = all_empty && k.empty;
			one_empty = one_empty || k.empty;
		}
		if (all_empty || (one_empty && (e->kind == CE_INTER || e->kind == CE_PROD)))
			return av_empty();
		return av(c);
	}
	case CE_SEQ: {
		int c = MONO_STABLE, non_filters = 0;
		bool one_empty = false;
		for (int i = 0; i < e->n; i++) {
			aval k = analyse(an, e->kids[i], env);
			c = max_cls(c, k.cls);
			one_empty = one_empty || k.empty;
			if (!(k.filter && k.cls == MONO_STABLE))
				non_filters++;
		}
		if (one_empty)
			return av_empty();
		if (c == MONO_STABLE && non_filters > 1)
			c = MONO_GROWS;
		aval r = av(c);
		r.filter = c == MONO_STABLE && non_filters == 0;
		return r;
	}
	case CE_DIFF: {
		aval a = analyse(an, e->kids[0], env), b = analyse(an, e->kids[1], env);
		if (a.empty)
			return av_empty();
		if (a.cls == MONO_ANY || b.cls == MONO_ANY)
			return av(MONO_ANY);
		if (b.cls == MONO_STABLE)
			return av(a.cls);
		if (factors_cover(an, e->kids[1], env, e->kids[0], 0))
			return av(a.cls);
		return av(MONO_ANY);
	}
	case CE_COMPL:
		return av(analyse(an, e->kids[0], env).cls == MONO_STABLE ? MONO_STABLE : MONO_ANY);
	case CE_STAR: case CE_PLUS: {
		aval k = analyse(an, e->kids[0], env);
		if (k.empty && e->kind == CE_PLUS)
			return av_empty();
		return av(k.cls == MONO_STABLE ? MONO_GROWS : k.cls);
	}
	case CE_OPT:
		return av(analyse(an, e->kids[0], env).cls);
	case CE_INV: {
		aval k = analyse(an, e->kids[0], env);
		return k.empty ? av_empty() : av(k.cls);
	}
	case CE_TOID: {
		aval k = analyse(an, e->kids[0], env);
		aval r = k.empty ? av_empty() : av(k.cls);
		r.filter = k.cls == MONO_STABLE;
		return r;
	}
	case CE_APP:
		return analyse_app(an, e, env);
	case CE_FUN: {
		aval a = av(MONO_STABLE);
		a.fun = e;
		a.fenv = env;
		return a;
	}
	case CE_LET: {
		aframe *fr = new_aframe(an, env, e->frame_size);
		for (int i = 0; i < e->nb; i++) {
			aval v = analyse(an, e->binds[i].e, env);
			bind_args(an, &e->binds[i].pat, e->binds[i].e, v, fr, e->binds[i].slot, env);
		}
		return analyse(an, e->kids[0], fr);
	}
	case CE_LETREC: {
		aframe *fr = new_aframe(an, env, e->frame_size);
		for (int i = 0; i < e->nb; i++) {
			const cat_ex *d = e->binds[i].e;
			if (d->kind == CE_FUN)
				fr->v[e->binds[i].slot] = av(MONO_ANY); /* recursive function: not unfolded */
			else
				fr->v[e->binds[i].slot] = av(MONO_STABLE);
		}
		for (int round = 0; round < 3 * e->nb + 3; round++) {
			bool changed = false;
			for (int i = 0; i < e->nb; i++) {
				if (e->binds[i].e->kind == CE_FUN)
					continue;
				aval *cell = &fr->v[e->binds[i].slot];
				int c = max_cls(cell->cls, analyse(an, e->binds[i].e, fr).cls);
				if (c != cell->cls) {
					*cell = av(c);
					changed = true;
				}
			}
			if (!changed)
				break;
		}
		return analyse(an, e->kids[0], fr);
	}
	case CE_TRY: case CE_IF: {
		/* one operand or the other: try's when the first fails to
		 * evaluate, if's when a condition on variants alone picks it */
		if (e->kind == CE_IF && !variants_only(e->cond))
			return av(MONO_ANY);
		aval a = analyse(an, e->kids[0], env), b = analyse(an, e->kids[1], env);
		return a.empty && b.empty ? av_empty() : av(max_cls(a.cls, b.cls));
	}
	case CE_MATCH_TAG: case CE_MATCH_SET:
		return av(MONO_ANY);
	}
	return av(MONO_ANY);
}

/* ---- checks ------------------------------------------------------------------------------------------ */

static bool body_monotone(analysis *an, const cat_ins_list *l, aframe *fr);

static bool check_monotone(analysis *an, const cat_ins *in, aframe *env)
{
	if (in->kind == CI_CHECK) {
		if (in->mode != CHECK_REQUIRE || in->negated)
			return false;
		return analyse(an, in->e, env).cls != MONO_ANY;
	}
	if (in->kind == CI_CALL) {
		if (in->slot < 0 || an->depth >= MAX_APPLY_DEPTH)
			return false;
		const cat_ins *proc = an->m->slots[in->slot].ins;
		aval arg = analyse(an, in->e, env);
		aframe *fr = new_aframe(an, NULL, proc->frame_size);
		bind_args(an, &proc->pat, in->e, arg, fr, 0, env);
		an->depth++;
		bool ok = body_monotone(an, &proc->body, fr);
		an->depth--;
		return ok;
	}
	return true;
}

static bool body_monotone(analysis *an, const cat_ins_list *l, aframe *fr)
{
	for (int i = 0; i < l->n; i++) {
		const cat_ins *in = l->v[i];
		switch (in->kind) {
		case CI_LET:
			for (int b = 0; b < in->nb; b++) {
				aval v = analyse(an, in->binds[b].e, fr);
				bind_args(an, &in->binds[b].pat, in->binds[b].e, v, fr, in->binds[b].slot, fr);
			}
			break;
		case CI_LETREC:
			/* Conservative: recursive bindings in procedures are ANY. */
			for (int b = 0; b < in->nb; b++)
				fr->v[in->binds[b].slot] = av(MONO_ANY);
			break;
		case CI_CHECK:
			/* Flags inside a procedure do not fail it. */
			if (in->mode == CHECK_REQUIRE && !check_monotone(an, in, fr))
				return false;
			break;
		case CI_CALL:
			if (!check_monotone(an, in, fr))
				return false;
			break;
		case CI_IF:
			if (in->taken && !body_monotone(an, in->taken == 1 ? &in->body : &in->body2, fr))
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

void cat_classify_checks(cat_model *m)
{
	analysis an = { m, { 0 }, 0 };
	for (int i = 0; i < m->nchecks; i++) {
		cat_check_entry *ce = &m->checks[i];
		ce->monotone = !ce->flag && check_monotone(&an, ce->ins, NULL);
	}
	arena_free(&an.ar);
}
