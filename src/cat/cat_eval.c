/* cat_eval.c — evaluating a compiled model on one execution.
 *
 * Values follow herd's interpreter (cat_value.h, built and compared by
 * cat_value.c).  Sets and relations are bit vectors in the evaluation's
 * arena; every operator builds a new value.
 * Top-level bindings are computed on first use and kept for the rest of the
 * evaluation, so each one costs at most once per execution; built-ins are
 * slots too.  Bindings that depend only on the static part of an execution
 * (cat_static.c) live in a second arena and are kept from one execution to
 * the next while that part is unchanged.  `let rec` of non-function values
 * is herd's least fixpoint: start from empty and re-evaluate the bindings
 * until nothing grows.
 *
 * Errors (a type error, an unbound fence set, a failed match) set a pending
 * error and make every caller return false up to the nearest `try`, which
 * clears it and evaluates its alternative.
 */
#include <stdarg.h>
#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>

#include "cat_int.h"
#include "../arch/arch.h"

/* How deep calls may nest.  A call in tail position (the body of a
 * function, of a let, a branch of a match or an if) does not nest: eval
 * loops instead of recursing, so herd's recursions over the elements of a
 * set (cross.cat's call_rec runs once per linearisation) run in constant C
 * stack, as in herd's OCaml.  Other calls nest on the C stack, and are
 * refused once they use all but a reserve of the stack the process has
 * (RLIMIT_STACK), rather than crashing; a tail-recursive loop is refused
 * when it calls itself with the very same argument (it can never end), or
 * once the evaluation's values exceed CAT_EVAL_MEMORY_LIMIT. */
enum { STACK_RESERVE = 1 << 20 };
#define STACK_UNLIMITED ((size_t)1 << 30)

static bool eval(cat_eval *ev, const cat_ex *e, frame *env, cval *out);

/* ---- frames and patterns ------------------------------------------------------------------------- */

static frame *new_frame(cat_eval *ev, frame *up, int n)
{
	frame *f = arena_alloc(ev->cur, sizeof(frame) + (size_t)(n ? n : 1) * sizeof(cval));
	f->up = up;
	f->n = n;
	return f;
}

static bool bind_pat(cat_eval *ev, const cat_pat *p, const cval *v, frame *f, int pos, srcloc at)
{
	if (!p->tuple) {
		f->v[pos] = *v;
		return true;
	}
	if (v->kind == V_TUPLE && v->n == p->n) {
		for (int i = 0; i < p->n; i++)
			f->v[pos + i] = v->u.elts[i];
		return true;
	}
	if (v->kind == V_TUPLE)
		return cat_fail(ev, at, "argument mismatch: %d values given where %d are expected", v->n, p->n);
	return cat_fail(ev, at, "argument mismatch: %s given where a tuple of %d is expected",
	                cval_kind_name(v->kind), p->n);
}

/* ---- global slots ------------------------------------------------------------------------------- */

static void mark_computed(cat_eval *ev, int s)
{
	if (ev->m->slots[s].is_static)
		ev->slot_sgen[s] = ev->static_gen;
	else
		ev->slot_gen[s] = ev->gen;
}

static void mark_uncomputed(cat_eval *ev, int s)
{
	ev->slot_sgen[s] = 0;
	ev->slot_gen[s] = 0;
}

static bool computed(const cat_eval *ev, int s)
{
	return ev->m->slots[s].is_static ? ev->slot_sgen[s] == ev->static_gen : ev->slot_gen[s] == ev->gen;
}

static bool set_slot(cat_eval *ev, int s, const cval *v)
{
	ev->slot_val[s] = *v;
	mark_computed(ev, s);
	return true;
}

static bool fixpoint(cat_eval *ev, const cat_bind *binds, int nb, cval *const *cells, frame *env, srcloc at);

static bool eval_rec_group(cat_eval *ev, int first)
{
	const cat_model *m = ev->m;
	int n = m->slots[first].group_n;
	const cat_bind *binds = NULL;
	/* The group's bindings are those of the let rec instruction; find them
	 * through the slots' definitions. */
	cat_bind *tmp = arena_alloc(ev->cur, (size_t)n * sizeof *tmp);
	cval **cells = arena_alloc(ev->cur, (size_t)n * sizeof *cells);
	for (int k = 0; k < n; k++) {
		tmp[k].e = (cat_ex *)m->slots[first + k].def;
		tmp[k].pat.tuple = false;
		tmp[k].loc = m->slots[first + k].loc;
		cells[k] = &ev->slot_val[first + k];
		/* Mark computed so that references read the current approximation. */
		ev->slot_val[first + k] = cv_empty();
		mark_computed(ev, first + k);
	}
	binds = tmp;
	if (!fixpoint(ev, binds, n, cells, NULL, m->slots[first].loc)) {
		for (int k = 0; k < n; k++)
			mark_uncomputed(ev, first + k);
		return false;
	}
	return true;
}

static bool compute_slot(cat_eval *ev, int s, cval *out);
static void tag_events(const execution *x, const char *tag, uint64_t *set);

bool cat_eval_slot(cat_eval *ev, int s, cval *out)
{
	if (computed(ev, s)) {
		*out = ev->slot_val[s];
		return true;
	}
	const cat_slot *sl = &ev->m->slots[s];
	if (!sl->is_static)
		return compute_slot(ev, s, out);
	/* A static slot and all it computes live in the static arena.  A
	 * failure inside a try is remembered (it would fail again) so as not
	 * to refill that arena on every execution. */
	if (ev->slot_sfail[s] == ev->static_gen && ev->in_try > 0)
		return cat_fail(ev, sl->loc, "'%s' cannot be evaluated", sl->name ? sl->name : "binding");
	arena *saved = ev->cur;
	ev->cur = &ev->static_ar;
	bool ok = compute_slot(ev, s, out);
	ev->cur = saved;
	if (!ok)
		ev->slot_sfail[s] = ev->static_gen;
	return ok;
}

static bool compute_slot(cat_eval *ev, int s, cval *out)
{
	const cat_slot *sl = &ev->m->slots[s];
	cval v;
	switch (sl->kind) {
	case SLOT_BUILTIN:
		if (!cat_builtin_value(ev, sl->builtin, &v))
			return false;
		break;
	case SLOT_LET:
		if (sl->herd_dep >= 0 && ev->x->has_herd_deps) {
			v = cat_herd_dep_value(ev, sl->herd_dep);
			break;
		}
		if (ev->slot_busy[s])
			return cat_fail(ev, sl->loc, "'%s' is defined in terms of itself (use let rec)",
			                sl->name ? sl->name : "binding");
		ev->slot_busy[s] = 1;
		if (!eval(ev, sl->def, NULL, &v)) {
			ev->slot_busy[s] = 0;
			return false;
		}
		ev->slot_busy[s] = 0;
		break;
	case SLOT_PROJ: {
		cval t;
		if (!cat_eval_slot(ev, sl->of, &t))
			return false;
		if (t.kind != V_TUPLE || t.n != sl->group_n)
			return cat_fail(ev, sl->loc, "a tuple of %d values was expected, found %s",
			                sl->group_n, cval_kind_name(t.kind));
		v = t.u.elts[sl->proj];
		break;
	}
	case SLOT_REC:
		if (!eval_rec_group(ev, sl->of))
			return false;
		*out = ev->slot_val[s];
		return true;
	case SLOT_PROC:
		v.kind = V_PROC;
		v.n = 0;
		v.u.proc = sl->ins;
		break;
	case SLOT_CHOICE: {
		/* Outside cat_run_choices (a picture, an explanation): the
		 * first choice. */
		int n;
		cval *elts;
		if (!cat_eval_choice_set(ev, sl->choice - 1, &n, &elts))
			return false;
		if (n == 0) {
			ev->no_choice = true;
			return cat_fail(ev, sl->loc, "'with %s from' has no choice on this execution", sl->name);
		}
		v = elts[0];
		break;
	}
	case SLOT_TAGSET:
		v = cv_set(ev);
		tag_events(ev->x, sl->tag, v.u.bits);
		break;
	case SLOT_ENUM: {
		const cat_ins *in = sl->ins;
		cval *tags = arena_alloc(ev->cur, (size_t)(in->ntags ? in->ntags : 1) * sizeof(cval));
		for (int i = 0; i < in->ntags; i++) {
			tags[i].kind = V_TAG;
			tags[i].u.tag = in->tags[i];
		}
		v = cat_make_vset(ev, tags, in->ntags);
		break;
	}
	default:
		return cat_fail(ev, sl->loc, "internal error: bad slot");
	}
	set_slot(ev, s, &v);
	*out = v;
	return true;
}

/* ---- choices (cat_choice.c runs them) ------------------------------------------------------------ */

/* Does relation value r order the execution's writes W as its co does? */
static bool same_co_on(const cat_eval *ev, const cval *r, const uint64_t *w)
{
	const brel *co = &ev->x->co;
	for (int a = 0; a < ev->n; a++) {
		if (!((w[a >> 6] >> (a & 63)) & 1))
			continue;
		const uint64_t *row = r->kind == V_REL ? r->u.bits + (size_t)a * ev->words : NULL;
		for (int k = 0; k < ev->words; k++) {
			uint64_t mine = row ? row[k] & w[k] : 0;
			uint64_t theirs = co->w && co->n == ev->n ? brel_row(co, a)[k] & w[k] : 0;
			if (mine != theirs)
				return false;
		}
	}
	return true;
}

/* Does relation value r order the events of the execution's lock order
 * (x->lock_co, when chosen) as it does? */
static bool same_lock_order(const cat_eval *ev, const cval *r)
{
	const brel *lk = &ev->x->lock_co;
	if (!lk->w || lk->n != ev->n)
		return true;
	uint64_t *on = xcalloc((size_t)(ev->words ? ev->words : 1), sizeof *on);
	for (int a = 0; a < ev->n; a++)
		for (int b = 0; b < ev->n; b++)
			if (brel_has(lk, a, b))
				on[a >> 6] |= (uint64_t)1 << (a & 63), on[b >> 6] |= (uint64_t)1 << (b & 63);
	bool same = true;
	for (int a = 0; a < ev->n && same; a++) {
		if (!((on[a >> 6] >> (a & 63)) & 1))
			continue;
		const uint64_t *row = r->kind == V_REL ? r->u.bits + (size_t)a * ev->words : NULL;
		for (int k = 0; k < ev->words && same; k++)
			same = (row ? row[k] & on[k] : 0) == (brel_row(lk, a)[k] & on[k]);
	}
	free(on);
	return same;
}

/* Whether `with co from` sets are evaluated for the execution's own
 * co (cat_builtin.c's lin_as_chosen) rather than whole and kept: when the
 * lock order is chosen (the set then depends on it), or when the set
 * whole would hold more than CAT_CO_ORDERS_KEPT orders (a bound from the
 * events each location's orders range over: its writes and C's lock
 * writes, herd's LKW, which lock.cat adds to W).  A test of a few writes keeps
 * its set (cat_choice_memo.c), which the executions that differ in co
 * only share. */
bool cat_eval_co_pruned(const cat_eval *ev)
{
	const execution *x = ev->x;
	if (x->lock_co.w)
		return true;
	int nl = x->test ? x->test->n_locs : 0;
	if (nl <= 0)
		return false;
	int *k = xcalloc((size_t)nl, sizeof *k);
	double orders = 1;
	for (int i = 0; i < x->n; i++) {
		const event *e = &x->ev[i];
		bool lock_write = e->kind == EV_FENCE && e->fence && !strcmp(e->fence, "LKW");
		if ((e->kind == EV_WRITE || lock_write) && e->loc >= 0 && e->loc < nl) {
			k[e->loc]++;
			orders *= k[e->loc];
		}
	}
	free(k);
	return orders > CAT_CO_ORDERS_KEPT;
}

bool cat_eval_choice_all(cat_eval *ev, int c, int *n, cval **elts)
{
	const cat_slot *sl = &ev->m->slots[ev->m->choices[c].slot];
	/* an S that depends on the static part only (aarch64.cat's three
	 * `with ... from` of its enums) is evaluated once per static part,
	 * in the static arena, as a static slot is */
	struct static_choice *sc = &ev->static_choice[c];
	if (!sc->is_static && ev->m->static_done)
		sc->is_static = !sl->co_filter && cat_ex_static((cat_model *)ev->m, sl->def) ? 1 : -1;
	if (sc->is_static > 0 && sc->gen == ev->static_gen) {
		*n = sc->n;
		*elts = sc->elts;
		return true;
	}
	arena *saved = ev->cur;
	if (sc->is_static > 0)
		ev->cur = &ev->static_ar;
	cval s;
	bool pruned = sl->co_filter && cat_eval_co_pruned(ev);
	bool kept = sl->choice_memo_ok && !pruned;
	if (!kept || !choice_memo_get(&ev->co_memo, ev, c, &s)) {
		ev->co_prune = !pruned ? CO_WHOLE : ev->co_project ? CO_PROJECTED : CO_CHOSEN;
		bool ok = eval(ev, sl->def, NULL, &s);
		ev->co_prune = CO_WHOLE;
		if (!ok) {
			ev->cur = saved;
			return false;
		}
		if (kept)
			choice_memo_put(&ev->co_memo, ev, c, &s);
	}
	ev->cur = saved;
	if (s.kind == V_EMPTY) {
		*n = 0;
		*elts = NULL;
		return true;
	}
	if (s.kind != V_VSET)
		return cat_fail(ev, sl->loc, "'with %s from': a set of values was expected, found %s", sl->name,
		                cval_kind_name(s.kind));
	*n = s.n;
	*elts = s.u.elts;
	if (sc->is_static > 0) {
		sc->gen = ev->static_gen;
		sc->n = s.n;
		sc->elts = s.u.elts;
	}
	return true;
}

bool cat_eval_choice_set(cat_eval *ev, int c, int *n, cval **elts)
{
	const cat_slot *sl = &ev->m->slots[ev->m->choices[c].slot];
	if (!cat_eval_choice_all(ev, c, n, elts))
		return false;
	if (!sl->co_filter || *n == 0)
		return true;
	cval s = { V_VSET, *n, { .elts = *elts } };
	/* co: the elements that agree with the engine's co on its writes */
	cval w;
	if (!cat_eval_slot(ev, B_W, &w))
		return false;
	cval *keep = arena_alloc(ev->cur, (size_t)(s.n ? s.n : 1) * sizeof *keep);
	int k = 0;
	/* a kept set's elements carry hashes of their projections: only
	 * those hashed as co is are compared */
	const uint64_t *hashes = NULL;
	uint64_t co_hash = 0;
	const brel *co = &ev->x->co;
	if (w.kind == V_SET && co->w && co->n == ev->n &&
	    (hashes = choice_memo_hashes(&ev->co_memo, ev, &s, w.u.bits)))
		co_hash = choice_proj_hash(ev, co->w, w.u.bits);
	for (int i = 0; i < s.n; i++) {
		const cval *e = &s.u.elts[i];
		if (e->kind != V_REL && e->kind != V_EMPTY)
			return cat_fail(ev, sl->loc, "'with co from': a set of relations was expected, found a set of %s",
			                cval_kind_name(e->kind));
		if (hashes && hashes[i] != co_hash)
			continue;
		if ((w.kind != V_SET || same_co_on(ev, e, w.u.bits)) && same_lock_order(ev, e))
			keep[k++] = *e;
	}
	*n = k;
	*elts = keep;
	return true;
}

void cat_eval_bind_choice(cat_eval *ev, int c, const cval *v)
{
	for (const int *k = ev->bind_list + ev->bind_first[c]; *k >= 0; k++)
		mark_uncomputed(ev, *k);
	set_slot(ev, ev->m->choices[c].slot, v);
}

/* ---- fence sets looked up by name ---------------------------------------------------------------- */

static bool arch_has_fence(const execution *x, const char *name, bool *known_arch)
{
	*known_arch = false;
	if (!x->test || !x->test->arch || !x->test->arch->fences)
		return false;
	*known_arch = true;
	for (const char *const *f = x->test->arch->fences; *f; f++)
		if (!strcmp(*f, name))
			return true;
	return false;
}

/* Does set name `name` name the events of tag `tag`?  A C test's own tags
 * (its .def's {ONCE}, {rcu-lock}) name their sets as herd's bell makes
 * them: the tag with its first letter in upper case (ONCE, Rcu-lock,
 * Sync-srcu); an architecture's annotation names are the set names. */
static bool names_annot(const execution *x, const char *tag, const char *name)
{
	if (!x->test->annots)
		return !strcmp(tag, name);
	return tag[0] && toupper((unsigned char)tag[0]) == name[0] && !strcmp(tag + 1, name + 1);
}

/* Index of `name` among the test's annotation sets, or -1. */
static int arch_annot_index(const execution *x, const char *name)
{
	if (!x->test)
		return -1;
	const char *a;
	for (int i = 0; (a = litmus_annot_name(x->test, i)); i++)
		if (names_annot(x, a, name))
			return i;
	return -1;
}

/* The events whose op carries annotation bit `bit`: memory events, and
 * fences (C's __fence{T}, whose tag names its set). */
static void annot_events(const execution *x, int bit, uint64_t *set)
{
	for (int i = 0; i < x->n; i++) {
		const event *ev = &x->ev[i];
		if ((ev->kind != EV_READ && ev->kind != EV_WRITE && ev->kind != EV_FENCE) || ev->thread < 0 ||
		    ev->op < 0 || ev->thread >= x->test->n_threads || ev->op >= x->test->threads[ev->thread].n_ops)
			continue;
		if (x->test->threads[ev->thread].ops[ev->op].annot & (1u << bit))
			set[i >> 6] |= (uint64_t)1 << (i & 63);
	}
}

/* A bell's set for annotation `tag`: the events of every op that carries
 * it (accesses and fences), and the fences named so. */
static void tag_events(const execution *x, const char *tag, uint64_t *set)
{
	/* the test's annotation spelt as the bell's tag */
	int bit = -1;
	const char *a;
	for (int i = 0; x->test && bit < 0 && (a = litmus_annot_name(x->test, i)); i++)
		if (!strcmp(a, tag))
			bit = i;
	for (int i = 0; i < x->n; i++) {
		const event *ev = &x->ev[i];
		bool in = ev->kind == EV_FENCE && ev->fence && !strcmp(ev->fence, tag);
		if (!in && bit >= 0 && x->test && ev->thread >= 0 && ev->op >= 0 && ev->thread < x->test->n_threads &&
		    ev->op < x->test->threads[ev->thread].n_ops)
			in = (x->test->threads[ev->thread].ops[ev->op].annot >> bit) & 1u;
		if (in)
			set[i >> 6] |= (uint64_t)1 << (i & 63);
	}
}

/* What a fence-set name is, as dyn_entry.kind: found by name once per
 * model, not by string compares on each evaluation. */
enum { DYN_UNKNOWN, DYN_REGISTER, DYN_IFETCH, DYN_FEATURE, DYN_SET };

static int dyn_kind(dyn_entry *de, const char *name)
{
	if (de->kind == DYN_UNKNOWN) {
		de->kind = cat_herd_register_name(name) ? DYN_REGISTER
		           : cat_ifetch_name(name)      ? DYN_IFETCH
		           : cat_herd_feature_name(name) ? DYN_FEATURE
		                                         : DYN_SET;
		de->herd_set = cat_herd_c_set_name(name) || cat_c11_set_name(name);
	}
	return de->kind;
}

/* Is `name` a fence of x's architecture (or a known fence name, when it
 * lists none), and which of its annotation sets is it (-1: none)?  Found
 * by name, once per architecture for tests whose annotation names are
 * the architecture's. */
static bool dyn_arch_names(dyn_entry *de, const execution *x, const char *name, int *annot)
{
	const litmus_test *t = x->test;
	const void *arch = t && !t->annots ? (const void *)t->arch : NULL;
	if (arch && de->arch == arch) {
		*annot = de->arch_annot;
		return de->arch_fence;
	}
	bool known_arch;
	bool bound = arch_has_fence(x, name, &known_arch);
	if (!known_arch)
		bound = cat_known_fence_name(name);
	*annot = arch_annot_index(x, name);
	if (arch) {
		de->arch = arch;
		de->arch_fence = bound;
		de->arch_annot = *annot;
	}
	return bound;
}

static bool eval_dyn(cat_eval *ev, const cat_ex *e, cval *out)
{
	dyn_entry *de = &ev->dyn[e->index];
	int kind = dyn_kind(de, e->name);
	if (kind == DYN_REGISTER && ev->x->has_herd_deps) {
		/* what a catdep model reads besides the dependency relations
		 * (cat_herd_deps.c): herd's register sets and relations
		 * projected on weft's events */
		*out = cat_herd_register_projection(ev, e->name);
		return true;
	}
	if (kind == DYN_REGISTER)
		return cat_fail(ev, e->loc, "unsupported: '%s' is made of herd's register events, which weft does "
		                "not build (a model that computes its own dependencies from them, catdep, "
		                "cannot run)", e->name);
	if (kind == DYN_IFETCH) {
		*out = cat_ifetch_set(ev, e->name);
		return true;
	}
	if (kind == DYN_FEATURE) {
		/* empty but in herd's virtual-memory tests, without looking
		 * the name up */
		if (!cat_vmsa_test(ev->x) || !cat_vmsa_value(ev, e->name, out))
			*out = cv_empty();
		return true;
	}
	if (de->gen != ev->static_gen) {
		/* Depends on the events and the architecture only: static. */
		arena *saved = ev->cur;
		ev->cur = &ev->static_ar;
		const execution *x = ev->x;
		int annot;
		bool bound = dyn_arch_names(de, x, e->name, &annot);
		cval s = cv_set(ev);
		if (cat_c11_set(x, e->name, s.u.bits)) {
			bound = true;
		} else if (annot >= 0) {
			annot_events(x, annot, s.u.bits);
			bound = true;
		}
		for (int i = 0; i < x->n; i++)
			if (x->ev[i].kind == EV_FENCE && x->ev[i].fence &&
			    (x->ev[i].fence == e->name || !strcmp(x->ev[i].fence, e->name))) {
				s.u.bits[i >> 6] |= (uint64_t)1 << (i & 63);
				bound = true;
			}
		de->gen = ev->static_gen;
		de->ok = bound || de->herd_set;
		de->v = s;
		ev->cur = saved;
	}
	if (!de->ok)
		return cat_fail(ev, e->loc, "unbound name '%s' (no such fence or annotation on this architecture)", e->name);
	*out = de->v;
	return true;
}

/* ---- operators ------------------------------------------------------------------------------------ */

static bool eval_kids(cat_eval *ev, const cat_ex *e, frame *env, cval *vals)
{
	for (int i = 0; i < e->n; i++)
		if (!eval(ev, e->kids[i], env, &vals[i]))
			return false;
	return true;
}

static bool op_union(cat_eval *ev, const cat_ex *e, frame *env, cval *out)
{
	cval *vals = arena_alloc(ev->cur, (size_t)e->n * sizeof *vals);
	if (!eval_kids(ev, e, env, vals))
		return false;
	enum cval_kind k = V_EMPTY;
	int first = -1, total = 0;
	for (int i = 0; i < e->n; i++) {
		vals[i] = cv_tag2set(ev, &vals[i]);
		enum cval_kind vk = vals[i].kind;
		if (vk == V_EMPTY)
			continue;
		if (vk == V_UNIV) {
			out->kind = V_UNIV;
			return true;
		}
		if (vk != V_SET && vk != V_REL && vk != V_VSET)
			return cat_fail(ev, e->kids[i]->loc, "cannot take the union of %s", cval_kind_name(vk));
		if (k == V_EMPTY) {
			k = vk;
			first = i;
		} else if (vk != k) {
			return cat_fail(ev, e->kids[i]->loc, "union of %s and %s", cval_kind_name(k),
			                cval_kind_name(vk));
		}
		if (vk == V_VSET)
			total += vals[i].n;
	}
	if (k == V_EMPTY) {
		*out = cv_empty();
		return true;
	}
	if (k == V_VSET) {
		cval *all = arena_alloc(ev->cur, (size_t)(total ? total : 1) * sizeof *all);
		int j = 0;
		for (int i = 0; i < e->n; i++)
			if (vals[i].kind == V_VSET)
				for (int t = 0; t < vals[i].n; t++)
					all[j++] = vals[i].u.elts[t];
		*out = cat_make_vset(ev, all, j);
		return true;
	}
	cval r = cv_copy(ev, &vals[first]);
	size_t sz = cv_nwords(ev, k);
	for (int i = first + 1; i < e->n; i++)
		if (vals[i].kind == k)
			for (size_t w = 0; w < sz; w++)
				r.u.bits[w] |= vals[i].u.bits[w];
	*out = r;
	return true;
}

static bool op_seq(cat_eval *ev, const cat_ex *e, frame *env, cval *out)
{
	cval *vals = arena_alloc(ev->cur, (size_t)e->n * sizeof *vals);
	if (!eval_kids(ev, e, env, vals))
		return false;
	bool empty = false;
	for (int i = 0; i < e->n; i++) {
		if (vals[i].kind == V_EMPTY) {
			empty = true;
			continue;
		}
		if (vals[i].kind != V_REL && vals[i].kind != V_UNIV)
			return cat_fail(ev, e->kids[i]->loc, "sequence of %s (relations are expected)",
			                cval_kind_name(vals[i].kind));
	}
	if (empty) {
		*out = cv_rel(ev);
		return true;
	}
	cval acc;
	cv_as_rel(ev, &vals[0], e->loc, &acc);
	for (int i = 1; i < e->n; i++) {
		cval b, r = cv_rel(ev);
		cv_as_rel(ev, &vals[i], e->loc, &b);
		rel_seq_raw(r.u.bits, acc.u.bits, b.u.bits, ev->n, ev->words);
		acc = r;
	}
	*out = acc;
	return true;
}

static bool op_inter_diff(cat_eval *ev, const cat_ex *e, frame *env, cval *out)
{
	bool inter = e->kind == CE_INTER;
	cval a, b;
	if (!eval(ev, e->kids[0], env, &a) || !eval(ev, e->kids[1], env, &b))
		return false;
	a = cv_tag2set(ev, &a);
	b = cv_tag2set(ev, &b);
	const char *what = inter ? "intersection" : "difference";
	for (int i = 0; i < 2; i++) {
		const cval *v = i ? &b : &a;
		if (v->kind != V_EMPTY && v->kind != V_UNIV && v->kind != V_SET && v->kind != V_REL &&
		    v->kind != V_VSET)
			return cat_fail(ev, e->kids[i]->loc, "%s of %s", what, cval_kind_name(v->kind));
	}
	if (inter) {
		if (a.kind == V_UNIV) {
			*out = b;
			return true;
		}
		if (b.kind == V_UNIV) {
			*out = a;
			return true;
		}
		if (a.kind == V_EMPTY || b.kind == V_EMPTY) {
			*out = cv_empty();
			return true;
		}
	} else {
		if (b.kind == V_UNIV || a.kind == V_EMPTY) {
			*out = cv_empty();
			return true;
		}
		if (b.kind == V_EMPTY) {
			*out = a;
			return true;
		}
		if (a.kind == V_UNIV) {
			if (b.kind == V_VSET)
				return cat_fail(ev, e->kids[0]->loc, "cannot build the universe of a set of values");
			cval u;
			if (b.kind == V_SET)
				cv_as_set(ev, &a, e->loc, &u);
			else
				u = cv_univ_rel(ev);
			a = u;
		}
	}
	if (a.kind != b.kind)
		return cat_fail(ev, e->loc, "%s of %s and %s", what, cval_kind_name(a.kind), cval_kind_name(b.kind));
	if (a.kind == V_VSET) {
		cval *keep = arena_alloc(ev->cur, (size_t)(a.n ? a.n : 1) * sizeof *keep);
		int k = 0;
		for (int i = 0; i < a.n; i++)
			if (cv_vset_has(ev, &b, &a.u.elts[i]) == inter)
				keep[k++] = a.u.elts[i];
		*out = cat_make_vset(ev, keep, k);
		return true;
	}
	cval r = cv_copy(ev, &a);
	size_t sz = cv_nwords(ev, a.kind);
	if (inter)
		for (size_t w = 0; w < sz; w++)
			r.u.bits[w] &= b.u.bits[w];
	else
		for (size_t w = 0; w < sz; w++)
			r.u.bits[w] &= ~b.u.bits[w];
	*out = r;
	return true;
}

static bool op_add(cat_eval *ev, const cat_ex *e, frame *env, cval *out)
{
	cval x, s;
	if (!eval(ev, e->kids[0], env, &x) || !eval(ev, e->kids[1], env, &s))
		return false;
	if (x.kind == V_UNIV)
		return cat_fail(ev, e->kids[0]->loc, "the universe cannot be added to a set");
	if (s.kind == V_UNIV) {
		*out = s;
		return true;
	}
	bool element = (x.kind == V_SET || x.kind == V_REL) && x.n == CV_ELEMENT;
	if (element && (s.kind == V_EMPTY || s.kind == x.kind)) {
		/* an event added to an event set, a pair to a relation */
		cval r = cv_copy(ev, &x);
		if (s.kind == x.kind)
			for (size_t w = 0; w < cv_nwords(ev, r.kind); w++)
				r.u.bits[w] |= s.u.bits[w];
		*out = r;
		return true;
	}
	if (s.kind == V_EMPTY) {
		*out = cat_make_vset(ev, &x, 1);
		return true;
	}
	if (s.kind != V_VSET)
		return cat_fail(ev, e->kids[1]->loc, "'++' adds to a set of values, found %s", cval_kind_name(s.kind));
	*out = cat_vset_insert(ev, &s, &x);
	return true;
}

static bool op_unary(cat_eval *ev, const cat_ex *e, frame *env, cval *out)
{
	cval a;
	if (!eval(ev, e->kids[0], env, &a))
		return false;
	switch (e->kind) {
	case CE_STAR: case CE_PLUS: case CE_OPT: case CE_INV:
		if (a.kind == V_EMPTY) {
			*out = (e->kind == CE_STAR || e->kind == CE_OPT) ? cv_id_rel(ev) : cv_empty();
			return true;
		}
		if (a.kind == V_UNIV) {
			*out = a;
			return true;
		}
		if (a.kind != V_REL)
			return cat_fail(ev, e->kids[0]->loc, "a relation was expected, found %s", cval_kind_name(a.kind));
		if (e->kind == CE_INV) {
			cval r = cv_rel(ev);
			rel_inverse_raw(r.u.bits, a.u.bits, ev->n, ev->words);
			*out = r;
			return true;
		}
		{
			cval r = cv_copy(ev, &a);
			if (e->kind != CE_OPT)
				rel_closure_raw(r.u.bits, ev->n, ev->words);
			if (e->kind != CE_PLUS)
				rel_reflexive_raw(r.u.bits, ev->n, ev->words);
			*out = r;
			return true;
		}
	case CE_COMPL:
		switch (a.kind) {
		case V_EMPTY:
			out->kind = V_UNIV;
			return true;
		case V_UNIV:
			*out = cv_empty();
			return true;
		case V_SET: {
			cval r = cv_copy(ev, &a);
			for (int i = 0; i < ev->words; i++)
				r.u.bits[i] = ~r.u.bits[i];
			if (ev->words)
				r.u.bits[ev->words - 1] &= bits_last_word_mask(ev->n);
			*out = r;
			return true;
		}
		case V_REL: {
			cval r = cv_copy(ev, &a);
			rel_complement_raw(r.u.bits, ev->n, ev->words);
			*out = r;
			return true;
		}
		default:
			return cat_fail(ev, e->kids[0]->loc, "complement of %s (an event set or a relation is expected)",
			                cval_kind_name(a.kind));
		}
	case CE_TOID: {
		if (a.kind == V_EMPTY) {
			*out = cv_rel(ev);
			return true;
		}
		cval s;
		if (!cv_as_set(ev, &a, e->kids[0]->loc, &s))
			return false;
		cval r = cv_rel(ev);
		rel_id_on_raw(r.u.bits, s.u.bits, ev->n, ev->words);
		*out = r;
		return true;
	}
	default:
		return cat_fail(ev, e->loc, "internal error: unary operator");
	}
}

static bool op_prod(cat_eval *ev, const cat_ex *e, frame *env, cval *out)
{
	cval a, b, sa, sb;
	if (!eval(ev, e->kids[0], env, &a) || !eval(ev, e->kids[1], env, &b))
		return false;
	if (!cv_as_set(ev, &a, e->kids[0]->loc, &sa) || !cv_as_set(ev, &b, e->kids[1]->loc, &sb))
		return false;
	cval r = cv_rel(ev);
	rel_product_raw(r.u.bits, sa.u.bits, sb.u.bits, ev->n, ev->words);
	*out = r;
	return true;
}

/* ---- functions ----------------------------------------------------------------------------------- */

/* Where the C stack is now.  The frame's own address, not a local's: under
 * AddressSanitizer locals may live on a separate fake stack. */
static uintptr_t stack_here(void)
{
#if defined(__GNUC__) || defined(__clang__)
	return (uintptr_t)__builtin_frame_address(0);
#else
	char mark;
	return (uintptr_t)&mark;
#endif
}

/* The C stack this evaluation uses beyond where it began (cat_eval_begin):
 * 0 when called from shallower.  Stacks grow down on the machines weft
 * runs on. */
static size_t stack_used(const cat_eval *ev)
{
	uintptr_t here = stack_here();
	return ev->stack_base > here ? ev->stack_base - here : 0;
}

static bool nested_too_deeply(cat_eval *ev, srcloc at, const char *what)
{
	return cat_fail(ev, at, "%s nested too deeply (they would use more than the %zu KiB of stack "
	                "the process has): runaway recursion?", what, ev->stack_budget >> 10);
}

/* A call of a primitive, or of an empty feature function; closures are
 * called by eval's loop. */
static bool apply_prim(cat_eval *ev, const cval *f, const cval *arg, srcloc at, cval *out)
{
	if (f->kind == V_PRIM)
		return cat_prim_apply(ev, f->u.prim, arg, at, out);
	if (f->kind == V_EMPTY) {
		/* herd's feature functions (AArch64's same-oa) are bound empty,
		 * as on a test without page tables: so is what they give */
		*out = cv_empty();
		return true;
	}
	return cat_fail(ev, at, "a function was expected, found %s", cval_kind_name(f->kind));
}

/* Is b the very argument a is (the same value, not merely an equal one)?
 * A tail call of a function with the argument it was called with can
 * never return. */
static bool same_argument(const cval *a, const cval *b)
{
	if (a->kind != b->kind || a->n != b->n)
		return false;
	switch (a->kind) {
	case V_EMPTY: case V_UNIV:
		return true;
	case V_SET: case V_REL:
		return a->u.bits == b->u.bits;
	case V_TAG:
		return a->u.tag == b->u.tag;
	case V_VSET:
		return a->u.elts == b->u.elts;
	case V_TUPLE:
		for (int i = 0; i < a->n; i++)
			if (!same_argument(&a->u.elts[i], &b->u.elts[i]))
				return false;
		return true;
	case V_CLO:
		return a->u.clo == b->u.clo;
	case V_PRIM:
		return a->u.prim == b->u.prim;
	case V_PROC:
		return a->u.proc == b->u.proc;
	}
	return false;
}

static cval make_closure(cat_eval *ev, const cat_ex *fn, frame *env)
{
	cval v = { V_CLO, 0, { 0 } };
	v.u.clo = arena_alloc(ev->cur, sizeof(closure));
	v.u.clo->fun = fn;
	v.u.clo->env = env;
	return v;
}

/* Least fixpoint of mutually recursive bindings whose current values are in
 * `cells`: functions are bound once (they refer to the cells), the other
 * values start empty and are re-evaluated until none grows. */
static bool fixpoint(cat_eval *ev, const cat_bind *binds, int nb, cval *const *cells, frame *env, srcloc at)
{
	for (int k = 0; k < nb; k++)
		*cells[k] = binds[k].e->kind == CE_FUN ? make_closure(ev, binds[k].e, env) : cv_empty();
	long limit = (long)nb * ((long)ev->n * ev->n + ev->n + 1) + 8;
	for (long iter = 0;; iter++) {
		if (iter > limit)
			return cat_fail(ev, at, "the fixpoint of 'let rec' does not converge");
		bool grew = false;
		for (int k = 0; k < nb; k++) {
			if (binds[k].e->kind == CE_FUN)
				continue;
			cval nv;
			if (!eval(ev, binds[k].e, env, &nv))
				return false;
			bool sub;
			if (!cv_subset(ev, &nv, cells[k], binds[k].loc, &sub))
				return false;
			if (!sub)
				grew = true;
			*cells[k] = nv;
		}
		if (!grew)
			return true;
	}
}

/* ---- conditions and matches ------------------------------------------------------------------------ */

/* A variant the test itself sets (herd reads a `Variant=a,b` line of the
 * test as -variant a,b for that test); herd's vmsa is also called kvm. */
static bool test_variant_on(const litmus_test *t, const char *v)
{
	if (!t)
		return false;
	if (t->vmsa && (!strcmp(v, "vmsa") || !strcmp(v, "kvm")))
		return true;
	size_t n = strlen(v);
	for (int i = 0; i < t->n_meta; i++) {
		if (strcasecmp(t->meta[i].key, "Variant") || !t->meta[i].value)
			continue;
		for (const char *p = t->meta[i].value; *p;) {
			p += strspn(p, ", \t");
			size_t k = strcspn(p, ", \t");
			if (k == n && !strncasecmp(p, v, n))
				return true;
			p += k;
		}
	}
	return false;
}

static bool variant_on(const cat_eval *ev, const char *v)
{
	const cat_model *m = ev->m;
	for (int i = 0; i < m->nvariants; i++)
		if (!strcmp(m->variants[i], v))
			return true;
	return test_variant_on(ev->x ? ev->x->test : NULL, v);
}

static bool eval_cond(cat_eval *ev, const cat_cond *c, frame *env, bool *res)
{
	switch (c->kind) {
	case CC_VARIANT:
		*res = variant_on(ev, c->variant);
		return true;
	case CC_NOT:
		if (!eval_cond(ev, c->l, env, res))
			return false;
		*res = !*res;
		return true;
	case CC_AND: case CC_OR: {
		bool a, b;
		if (!eval_cond(ev, c->l, env, &a) || !eval_cond(ev, c->r, env, &b))
			return false;
		*res = c->kind == CC_AND ? (a && b) : (a || b);
		return true;
	}
	default: {
		cval a, b;
		if (!eval(ev, c->a, env, &a) || !eval(ev, c->b, env, &b))
			return false;
		if (c->kind == CC_EQ) {
			*res = cv_cmp(ev, &a, &b) == 0;
			return true;
		}
		if (c->kind == CC_SUBSET)
			return cv_subset(ev, &a, &b, c->loc, res);
		/* CC_IN */
		b = cv_tag2set(ev, &b);
		if (b.kind == V_VSET) {
			*res = cv_vset_has(ev, &b, &a);
			return true;
		}
		if (b.kind == V_EMPTY) {
			*res = false;
			return true;
		}
		return cat_fail(ev, c->loc, "'in' needs a set of values, found %s", cval_kind_name(b.kind));
	}
	}
}

/* A set match: the branch to evaluate next (*body, in *benv). */
static bool select_match_set(cat_eval *ev, const cat_ex *e, frame *env, const cat_ex **body, frame **benv)
{
	cval s;
	if (!eval(ev, e->kids[0], env, &s))
		return false;
	frame *fr = new_frame(ev, env, 2);
	switch (s.kind) {
	case V_EMPTY:
		*body = e->kids[1];
		*benv = env;
		return true;
	case V_VSET:
		if (s.n == 0) {
			*body = e->kids[1];
			*benv = env;
			return true;
		}
		fr->v[0] = s.u.elts[0];
		fr->v[1].kind = V_VSET;
		fr->v[1].n = s.n - 1;
		fr->v[1].u.elts = s.u.elts + 1;
		break;
	case V_SET: case V_REL: {
		/* Events and pairs: the element is a singleton set / one-pair relation. */
		size_t sz = cv_nwords(ev, s.kind);
		size_t w = 0;
		while (w < sz && !s.u.bits[w])
			w++;
		if (w == sz) {
			*body = e->kids[1];
			*benv = env;
			return true;
		}
		uint64_t low = s.u.bits[w] & (~s.u.bits[w] + 1);
		cval elt = s.kind == V_SET ? cv_set(ev) : cv_rel(ev);
		cval rest = cv_copy(ev, &s);
		elt.u.bits[w] = low;
		elt.n = CV_ELEMENT;
		rest.u.bits[w] &= ~low;
		fr->v[0] = elt;
		fr->v[1] = rest;
		break;
	}
	case V_UNIV:
		return cat_fail(ev, e->kids[0]->loc, "cannot match on the universe");
	default:
		return cat_fail(ev, e->kids[0]->loc, "set match on %s", cval_kind_name(s.kind));
	}
	*body = e->kids[2];
	*benv = fr;
	return true;
}

/* A tag match: the branch to evaluate next. */
static bool select_match_tag(cat_eval *ev, const cat_ex *e, frame *env, const cat_ex **body)
{
	cval t;
	if (!eval(ev, e->kids[0], env, &t))
		return false;
	if (t.kind != V_TAG)
		return cat_fail(ev, e->kids[0]->loc, "match on %s (a tag is expected)", cval_kind_name(t.kind));
	int ntags = e->n - 1 - (e->has_default ? 1 : 0);
	for (int i = 0; i < ntags; i++)
		if (!strcmp(e->tags[i], t.u.tag)) {
			*body = e->kids[i + 1];
			return true;
		}
	if (e->has_default) {
		*body = e->kids[e->n - 1];
		return true;
	}
	return cat_fail(ev, e->loc, "no clause matches tag '%s", t.u.tag);
}

/* ---- the evaluator ----------------------------------------------------------------------------------- */

static bool eval(cat_eval *ev, const cat_ex *e, frame *env, cval *out)
{
	/* the closure and argument of the last tail call of this loop */
	const closure *tail_fn = NULL;
	cval tail_arg = { V_EMPTY, 0, { 0 } };
again:
	switch (e->kind) {
	case CE_EMPTY_REL:
		*out = cv_rel(ev);
		return true;
	case CE_EMPTY:
		*out = cv_empty();
		return true;
	case CE_UNIV:
		out->kind = V_UNIV;
		return true;
	case CE_TAG:
		out->kind = V_TAG;
		out->u.tag = e->name;
		return true;
	case CE_VAR:
		switch (e->ref) {
		case REF_GLOBAL:
			return cat_eval_slot(ev, e->index, out);
		case REF_LOCAL: {
			frame *f = env;
			for (int d = 0; d < e->depth && f; d++)
				f = f->up;
			if (!f || e->index >= f->n)
				return cat_fail(ev, e->loc, "internal error: bad frame for '%s'", e->name);
			*out = f->v[e->index];
			return true;
		}
		case REF_DYN:
			return eval_dyn(ev, e, out);
		default:
			return cat_fail(ev, e->loc, "unbound name '%s'", e->name);
		}
	case CE_SET: {
		cval *vals = arena_alloc(ev->cur, (size_t)e->n * sizeof *vals);
		if (!eval_kids(ev, e, env, vals))
			return false;
		for (int i = 0; i < e->n; i++)
			if (vals[i].kind == V_UNIV)
				return cat_fail(ev, e->kids[i]->loc, "the universe in an explicit set");
		/* {e1, ..., en} of events (pairs) taken out of sets: an event
		 * set (a relation), as in herd */
		bool elements = true;
		for (int i = 0; i < e->n && elements; i++)
			elements = (vals[i].kind == V_SET || vals[i].kind == V_REL) && vals[i].n == CV_ELEMENT &&
			           vals[i].kind == vals[0].kind;
		if (elements) {
			cval r = cv_copy(ev, &vals[0]);
			size_t sz = cv_nwords(ev, r.kind);
			for (int i = 1; i < e->n; i++)
				for (size_t w = 0; w < sz; w++)
					r.u.bits[w] |= vals[i].u.bits[w];
			*out = r;
			return true;
		}
		*out = cat_make_vset(ev, vals, e->n);
		return true;
	}
	case CE_TUPLE: {
		cval *vals = arena_alloc(ev->cur, (size_t)(e->n ? e->n : 1) * sizeof *vals);
		if (!eval_kids(ev, e, env, vals))
			return false;
		out->kind = V_TUPLE;
		out->n = e->n;
		out->u.elts = vals;
		return true;
	}
	case CE_UNION:
		return op_union(ev, e, env, out);
	case CE_SEQ:
		return op_seq(ev, e, env, out);
	case CE_INTER: case CE_DIFF:
		return op_inter_diff(ev, e, env, out);
	case CE_PROD:
		return op_prod(ev, e, env, out);
	case CE_ADD:
		return op_add(ev, e, env, out);
	case CE_STAR: case CE_PLUS: case CE_OPT: case CE_INV: case CE_COMPL: case CE_TOID:
		return op_unary(ev, e, env, out);
	case CE_APP: {
		cval f, a;
		if (!eval(ev, e->kids[0], env, &f) || !eval(ev, e->kids[1], env, &a))
			return false;
		if (f.kind != V_CLO)
			return apply_prim(ev, &f, &a, e->loc, out);
		if (stack_used(ev) > ev->stack_budget)
			return nested_too_deeply(ev, e->loc, "calls");
		if (f.u.clo == tail_fn && same_argument(&a, &tail_arg))
			return cat_fail(ev, e->loc, "this call calls itself with the same argument, for ever");
		if (ev->cur->total > cat_memory_limit(ev->m))
			return cat_fail(ev, e->loc, "the values of this evaluation take more than the %zu MiB "
			                "it may use (a recursion that never ends, or sets too large to hold; "
			                "-maxmem MB sets the bound)", cat_memory_limit(ev->m) >> 20);
		const cat_ex *fn = f.u.clo->fun;
		frame *fr = new_frame(ev, f.u.clo->env, fn->frame_size);
		if (!bind_pat(ev, &fn->pat, &a, fr, 0, e->loc))
			return false;
		tail_fn = f.u.clo;
		tail_arg = a;
		e = fn->kids[0];
		env = fr;
		goto again;
	}
	case CE_FUN:
		*out = make_closure(ev, e, env);
		return true;
	case CE_LET: {
		frame *fr = new_frame(ev, env, e->frame_size);
		for (int i = 0; i < e->nb; i++) {
			cval v;
			if (!eval(ev, e->binds[i].e, env, &v) ||
			    !bind_pat(ev, &e->binds[i].pat, &v, fr, e->binds[i].slot, e->binds[i].loc))
				return false;
		}
		e = e->kids[0];
		env = fr;
		goto again;
	}
	case CE_LETREC: {
		frame *fr = new_frame(ev, env, e->frame_size);
		cval **cells = arena_alloc(ev->cur, (size_t)(e->nb ? e->nb : 1) * sizeof *cells);
		for (int i = 0; i < e->nb; i++)
			cells[i] = &fr->v[e->binds[i].slot];
		if (!fixpoint(ev, e->binds, e->nb, cells, fr, e->loc))
			return false;
		e = e->kids[0];
		env = fr;
		goto again;
	}
	case CE_MATCH_TAG:
		if (!select_match_tag(ev, e, env, &e))
			return false;
		goto again;
	case CE_MATCH_SET:
		if (!select_match_set(ev, e, env, &e, &env))
			return false;
		goto again;
	case CE_TRY: {
		/* the first alternative is not a tail: its errors are caught */
		ev->in_try++;
		bool ok = eval(ev, e->kids[0], env, out);
		ev->in_try--;
		if (ok)
			return true;
		cat_clear_error(ev);
		e = e->kids[1];
		goto again;
	}
	case CE_IF: {
		bool c;
		if (!eval_cond(ev, e->cond, env, &c))
			return false;
		e = e->kids[c ? 0 : 1];
		goto again;
	}
	}
	return cat_fail(ev, e->loc, "internal error: unknown expression");
}

/* ---- checks and procedures -------------------------------------------------------------------------- */

static bool run_body(cat_eval *ev, const cat_ins_list *l, frame *fr, bool *failed);

/* Does the test of a check instruction hold? */
static bool eval_test(cat_eval *ev, const cat_ins *in, frame *env, bool *holds)
{
	cval v;
	if (!eval(ev, in->e, env, &v))
		return false;
	bool r;
	switch (in->test) {
	case TEST_ACYCLIC: case TEST_IRREFLEXIVE:
		if (v.kind == V_EMPTY) {
			r = true;
		} else if (v.kind == V_UNIV) {
			r = ev->n == 0;
		} else if (v.kind == V_REL) {
			if (in->test == TEST_IRREFLEXIVE) {
				r = rel_irreflexive_raw(v.u.bits, ev->n, ev->words);
			} else {
				uint64_t *scratch = arena_alloc(ev->cur, (size_t)(ev->words ? ev->words : 1) * sizeof *scratch);
				r = rel_acyclic_raw(v.u.bits, ev->n, ev->words, scratch);
			}
		} else {
			return cat_fail(ev, in->e->loc, "%s needs a relation, found %s",
			                in->test == TEST_ACYCLIC ? "acyclic" : "irreflexive", cval_kind_name(v.kind));
		}
		break;
	default: /* TEST_EMPTY */
		if (v.kind == V_UNIV)
			r = ev->n == 0;
		else if (v.kind == V_EMPTY || v.kind == V_SET || v.kind == V_REL || v.kind == V_VSET)
			r = cv_is_empty(ev, &v);
		else
			return cat_fail(ev, in->e->loc, "empty needs a set or a relation, found %s", cval_kind_name(v.kind));
		break;
	}
	*holds = r != in->negated;
	return true;
}

static bool run_check(cat_eval *ev, const cat_ins *in, frame *env, bool *failed)
{
	bool holds = false;
	if (!eval_test(ev, in, env, &holds))
		return false;
	const char *name = in->as_name ? in->as_name : in->text;
	switch (in->mode) {
	case CHECK_REQUIRE:
		if (!holds)
			*failed = true;
		break;
	case CHECK_FLAG:
		if (holds)
			cat_note_flag(ev, name);
		break;
	case CHECK_UNDEFINED_UNLESS:
		/* herd marks such executions undefined: its one Undef flag */
		if (!holds)
			cat_note_flag(ev, CAT_UNDEF_FLAG);
		break;
	case CHECK_ASSERT:
		if (!holds)
			return cat_fail(ev, in->loc, "assertion failed: %s", name);
		break;
	}
	return true;
}

static bool run_call(cat_eval *ev, const cat_ins *in, frame *env, bool *failed)
{
	const cat_ins *proc = ev->m->slots[in->slot].ins;
	cval arg;
	if (!eval(ev, in->e, env, &arg))
		return false;
	if (stack_used(ev) > ev->stack_budget)
		return nested_too_deeply(ev, in->loc, "procedure calls");
	frame *fr = new_frame(ev, NULL, proc->frame_size);
	if (!bind_pat(ev, &proc->pat, &arg, fr, 0, in->loc))
		return false;
	return run_body(ev, &proc->body, fr, failed);
}

static bool run_body(cat_eval *ev, const cat_ins_list *l, frame *fr, bool *failed)
{
	for (int i = 0; i < l->n && !*failed; i++) {
		const cat_ins *in = l->v[i];
		switch (in->kind) {
		case CI_LET:
			for (int b = 0; b < in->nb; b++) {
				cval v;
				if (!eval(ev, in->binds[b].e, fr, &v) ||
				    !bind_pat(ev, &in->binds[b].pat, &v, fr, in->binds[b].slot, in->binds[b].loc))
					return false;
			}
			break;
		case CI_LETREC: {
			cval **cells = arena_alloc(ev->cur, (size_t)(in->nb ? in->nb : 1) * sizeof *cells);
			for (int b = 0; b < in->nb; b++)
				cells[b] = &fr->v[in->binds[b].slot];
			if (!fixpoint(ev, in->binds, in->nb, cells, fr, in->loc))
				return false;
			break;
		}
		case CI_CHECK:
			if (!run_check(ev, in, fr, failed))
				return false;
			break;
		case CI_CALL:
			if (!run_call(ev, in, fr, failed))
				return false;
			break;
		case CI_IF:
			if (in->taken && !run_body(ev, in->taken == 1 ? &in->body : &in->body2, fr, failed))
				return false;
			break;
		default:
			break;
		}
	}
	return true;
}

/* ---- entry points ------------------------------------------------------------------------------------- */

/* Flags fired during the current check go to the model's verdict buffer,
 * reached through ev->m (the evaluator is the model's only writer). */
void cat_note_flag(cat_eval *ev, const char *name)
{
	struct cat_model *m = (struct cat_model *)ev->m;
	if (m->nflag_names < m->nchecks + 64) {
		/* Bounded: a flag inside a procedure called in a loop cannot
		 * overrun (at most one entry per distinct name is kept). */
		for (int i = 0; i < m->nflag_names; i++)
			if (!strcmp(m->flag_names[i], name))
				return;
		m->flag_names[m->nflag_names++] = name;
	}
}

void cat_eval_init(cat_eval *ev, const struct cat_model *m)
{
	memset(ev, 0, sizeof *ev);
	ev->m = m;
	int n = m->nslots ? m->nslots : 1;
	ev->slot_gen = xcalloc((size_t)n, sizeof *ev->slot_gen);
	ev->slot_busy = xcalloc((size_t)n, sizeof *ev->slot_busy);
	ev->slot_val = xcalloc((size_t)n, sizeof *ev->slot_val);
	ev->slot_sgen = xcalloc((size_t)n, sizeof *ev->slot_sgen);
	ev->slot_sfail = xcalloc((size_t)n, sizeof *ev->slot_sfail);
	ev->dyn = xcalloc((size_t)(m->ndyn ? m->ndyn : 1), sizeof *ev->dyn);
	ev->static_choice = xcalloc((size_t)m->nchoices + 1, sizeof *ev->static_choice);
	/* per choice, the slots that depend on it or on a later one */
	ev->bind_first = xcalloc((size_t)m->nchoices + 1, sizeof *ev->bind_first);
	ev->bind_list = xmalloc(((size_t)m->nchoices * (size_t)(m->nslots + 1) + 1) * sizeof *ev->bind_list);
	int nb = 0;
	for (int c = 0; c < m->nchoices; c++) {
		ev->bind_first[c] = nb;
		for (int k = 0; k < m->nslots; k++)
			if (m->slots[k].choice_dep >= c + 1 && !m->slots[k].is_static)
				ev->bind_list[nb++] = k;
		ev->bind_list[nb++] = -1;
	}
	ev->cur = &ev->ar;
	/* what nested calls may use: the process's stack less a reserve for
	 * the engine below the evaluation and the calls that do not check */
	struct rlimit rl;
	size_t stack = 8u << 20;
	if (getrlimit(RLIMIT_STACK, &rl) == 0)
		stack = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > STACK_UNLIMITED ? STACK_UNLIMITED
		                                                                        : (size_t)rl.rlim_cur;
	ev->stack_budget = stack > 2 * STACK_RESERVE ? stack - stack / 8 - STACK_RESERVE : stack / 2;
}

void cat_eval_free(cat_eval *ev)
{
	free(ev->slot_gen);
	free(ev->slot_busy);
	free(ev->slot_val);
	free(ev->slot_sgen);
	free(ev->slot_sfail);
	free(ev->dyn);
	free(ev->static_choice);
	free(ev->bind_first);
	free(ev->bind_list);
	choice_memo_free(&ev->co_memo);
	free(ev->key.ev);
	free(ev->key.rels);
	free(ev->key.op_marks);
	free(ev->key.annot_names);
	arena_free(&ev->ar);
	arena_free(&ev->static_ar);
	sb_free(&ev->err_msg);
	memset(ev, 0, sizeof *ev);
}

/* Has the static part of the execution changed since the last one? If so
 * remember the new one. */
/* What the models read from event i's op besides the event itself. */
static uint64_t op_marks(const execution *x, int i)
{
	const event *e = &x->ev[i];
	if (!x->test || e->thread < 0 || e->op < 0 || e->thread >= x->test->n_threads ||
	    e->op >= x->test->threads[e->thread].n_ops)
		return 0;
	const op *o = &x->test->threads[e->thread].ops[e->op];
	return (uint64_t)o->annot | ((uint64_t)o->flags << 32);
}

/* A test's own annotation names joined by NUL-free separators, or NULL. */
static char *annot_names(const litmus_test *t)
{
	if (!t || !t->annots || t->n_annots == 0)
		return NULL;
	strbuf b = { 0 };
	for (int i = 0; i < t->n_annots; i++) {
		sb_puts(&b, t->annots[i]);
		sb_putc(&b, '\n');
	}
	return sb_take(&b);
}

/* Does `joined` (annot_names of an earlier test) list t's names?  No
 * allocation: this runs for every execution. */
static bool annot_names_match(const char *joined, const litmus_test *t)
{
	if (!t || !t->annots || t->n_annots == 0)
		return joined == NULL;
	if (!joined)
		return false;
	for (int i = 0; i < t->n_annots; i++) {
		size_t n = strlen(t->annots[i]);
		if (strncmp(joined, t->annots[i], n) || joined[n] != '\n')
			return false;
		joined += n + 1;
	}
	return *joined == '\0';
}

static bool static_key_update(static_key *k, const execution *x)
{
	int words = (x->n + 63) / 64;
	size_t rsz = (size_t)x->n * (size_t)words;
	/* herd's dependency relations (catdep models) are static too */
	enum { NR = 5 + XD_N };
	static const brel none = { 0, 0, NULL };
	const brel *rels[NR] = { &x->po, &x->addr, &x->data, &x->ctrl, &x->rmw };
	for (int r = 0; r < XD_N; r++)
		rels[5 + r] = x->has_herd_deps ? &x->hd[r] : &none;
	const void *arch = x->test ? (const void *)x->test->arch : NULL;
	bool same = k->test == x->test && k->arch == arch && k->n == x->n && k->ev != NULL;
	if (same)
		same = annot_names_match(k->annot_names, x->test);
	for (int i = 0; same && i < x->n; i++) {
		const event *a = &k->ev[i], *b = &x->ev[i];
		same = a->kind == b->kind && a->thread == b->thread && a->instr == b->instr && a->op == b->op &&
		       a->po_index == b->po_index && a->instance == b->instance && a->loc == b->loc &&
		       a->flags == b->flags && a->fence == b->fence && k->op_marks[i] == op_marks(x, i);
	}
	for (int r = 0; same && r < NR; r++)
		same = rels[r]->w ? rels[r]->n == x->n &&
		                    memcmp(k->rels + (size_t)r * rsz, rels[r]->w, rsz * sizeof(uint64_t)) == 0
		                  : k->rels_absent[r];
	if (same)
		return false;
	k->test = x->test;
	k->arch = arch;
	k->n = x->n;
	k->words = words;
	free(k->annot_names);
	k->annot_names = annot_names(x->test);
	GROW(k->ev, k->cap_ev, (size_t)(x->n ? x->n : 1));
	if (x->n)
		memcpy(k->ev, x->ev, (size_t)x->n * sizeof *k->ev);
	GROW(k->op_marks, k->cap_marks, (size_t)(x->n ? x->n : 1));
	for (int i = 0; i < x->n; i++)
		k->op_marks[i] = op_marks(x, i);
	GROW(k->rels, k->cap_rels, NR * rsz + 1);
	for (int r = 0; r < NR; r++) {
		k->rels_absent[r] = !rels[r]->w;
		if (rels[r]->w && rels[r]->n == x->n)
			memcpy(k->rels + (size_t)r * rsz, rels[r]->w, rsz * sizeof(uint64_t));
		else
			memset(k->rels + (size_t)r * rsz, 0, rsz * sizeof(uint64_t));
	}
	return true;
}

void cat_eval_begin(cat_eval *ev, const execution *x)
{
	arena_reset(&ev->ar);
	ev->cur = &ev->ar;
	if (static_key_update(&ev->key, x)) {
		arena_reset(&ev->static_ar);
		if (++ev->static_gen == 0) {
			int n = ev->m->nslots ? ev->m->nslots : 1;
			memset(ev->slot_sgen, 0, (size_t)n * sizeof *ev->slot_sgen);
			memset(ev->slot_sfail, 0, (size_t)n * sizeof *ev->slot_sfail);
			for (int i = 0; i < ev->m->ndyn; i++)
				ev->dyn[i].gen = 0;
			for (int c = 0; c < ev->m->nchoices; c++)
				ev->static_choice[c].gen = 0;
			ev->static_gen = 1;
		}
	}
	ev->x = x;
	ev->n = x->n;
	ev->words = (x->n + 63) / 64;
	ev->stack_base = stack_here();
	ev->in_try = 0;
	cat_clear_error(ev);
	if (++ev->gen == 0) {
		/* Wrapped: forget every stamp so none can look current. */
		memset(ev->slot_gen, 0, (size_t)(ev->m->nslots ? ev->m->nslots : 1) * sizeof *ev->slot_gen);
		ev->gen = 1;
	}
}

bool cat_eval_expr(cat_eval *ev, const cat_ex *e, cval *out)
{
	return eval(ev, e, NULL, out);
}

bool cat_eval_cond(cat_eval *ev, const cat_cond *c, bool *res)
{
	return eval_cond(ev, c, NULL, res);
}

bool cat_eval_check(cat_eval *ev, int i, bool *failed, bool *fired)
{
	const cat_check_entry *ce = &ev->m->checks[i];
	const cat_ins *in = ce->ins;
	*failed = false;
	*fired = false;
	int before = ev->m->nflag_names;
	bool ok = in->kind == CI_CHECK ? run_check(ev, in, NULL, failed) : run_call(ev, in, NULL, failed);
	*fired = ev->m->nflag_names > before;
	return ok;
}
