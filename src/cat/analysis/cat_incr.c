/* cat_incr.c — checking many related executions (RSMC's committed prefixes
 * and its complete runs) with evaluators that keep their work from one call
 * to the next.
 *
 * The first KEEP_AFTER executions of each size are checked by the model's
 * own evaluator, keeping nothing: for the few executions per size of most
 * small tests, keeping values costs more than it saves.  After that, two
 * kinds of reuse, both exact (a value is reused only where evaluating
 * it again must give the same value):
 *
 * 1. One evaluator per execution size.  The evaluator keeps the values that
 *    depend only on the static part of an execution (cat_eval.c) while that
 *    part does not change.  The commits tried from one state (one event,
 *    each parameter) give executions of one size with the same events, po
 *    and dependencies, so they share those values.
 *
 * 2. Values keyed by their inputs.  A top-level binding whose definition
 *    reads the execution only through other top-level values (and the
 *    built-in sets and relations, which are top-level values too) is a
 *    function of those values and of the number of events.  Each evaluator
 *    remembers, per such binding (a let rec group counts as one) and per
 *    check, the inputs and the result of its last computation; when the
 *    inputs are bit for bit the same, the result is reused.  E.g. POWER's
 *    ppo fixpoint reads dd, rfi, rdw, detour, ...: a commit that changes only
 *    co leaves them, and ppo, as they were.
 *    The same holds for the sub-expressions of such a definition or check
 *    (`hb*` inside POWER's prop and observation): each is kept, keyed by
 *    the names it uses.  Unions, sequences, intersections, differences,
 *    inverses and closures of relations are computed here from their kept
 *    or computed operands (as cat_eval.c computes them); anything else, or
 *    operands of other kinds, goes to the evaluator whole.
 *    What counts as an input: every top-level name the definition uses,
 *    through the bodies of the top-level functions it calls.  A binding is
 *    not keyed (always computed) if it uses a fence set looked up by name
 *    (those are static anyway), a primitive other than domain/range, a
 *    procedure, or an input whose value is not a set or relation (a
 *    closure held in a value could use names we did not see).
 */
#include <stdlib.h>
#include <string.h>

#include "../cat_int.h"
#include "cat_analysis.h"

/* A kept value: a set or relation (bits), {} or _. */
typedef struct kval {
	enum cval_kind kind;
	int n;
	size_t nw, cap;
	uint64_t *bits;
} kval;

/* What one binding (or check) was computed from, and what it gave. */
typedef struct kentry {
	bool valid;
	uint64_t *in;    /* one per input: the version of its value */
	kval *out;       /* one per member (a let rec group: group_n) */
	bool failed;     /* a check: its verdict */
} kentry;

typedef struct pev {
	cat_eval ev;
	kentry *slot;    /* per slot (a group: at its first member) */
	kentry *check;   /* per check */
	kentry *node;    /* per plan node */
	unsigned *seen;  /* per slot: == ev.gen once looked at in this evaluation */
	/* Versions of slot values, so that an input is compared once per
	 * evaluation however many kept values use it: ver[s] changes when the
	 * value of s differs from last[s] (0: a value that cannot be kept,
	 * equal to nothing). */
	uint64_t *ver;
	unsigned *ver_gen;   /* == ev.gen: ver[s] is that of this evaluation */
	unsigned *ver_sgen;  /* static slots: == ev.static_gen: ver[s] holds
	                      * while the static part is the same */
	unsigned static_seen; /* ev.static_gen at the last evaluation */
	kval *last;
	uint64_t next_ver;
} pev;

/* Inputs of a binding or check, found once per model. */
typedef struct inputs {
	bool keyed;      /* its result may be reused */
	int n;
	int *slot;
} inputs;

/* A node of a definition or check expression, as evaluated here. */
enum pkind { P_OTHER, P_VAR, P_UNION, P_SEQ, P_INTER, P_DIFF, P_INV, P_STAR, P_PLUS, P_OPT };

typedef struct pnode {
	const cat_ex *e;
	enum pkind kind;
	int n;
	int *kid;          /* plan nodes */
	inputs in;         /* of the subtree: keyed when reusable */
} pnode;

struct cat_partial {
	cat_model *m;
	inputs *slot_in;   /* per slot (groups: at the first member) */
	inputs *check_in;  /* per check */
	int *slot_plan;    /* per slot: plan of a keyed let's definition, -1 */
	int *check_plan;   /* per check: plan of a keyed check's expression, -1 */
	int np;
	size_t cap_p;
	pnode *plan;
	int n;             /* entries of ev and uses */
	pev **ev;          /* by execution size; allocated when first used */
	long *uses;        /* by execution size: evaluations so far */
};

/* ---- inputs ------------------------------------------------------------------ */

typedef struct walk {
	const cat_model *m;
	bool ok;
	int n;
	size_t cap;
	int *slot;
	unsigned char *fun_seen;   /* per slot: function body already walked */
	int group_first, group_n;  /* members of the group being walked: not inputs */
} walk;

static void walk_ex(walk *w, const cat_ex *e);

static bool is_fun_slot(const cat_slot *sl)
{
	return (sl->kind == SLOT_LET || sl->kind == SLOT_REC) && sl->def && sl->def->kind == CE_FUN;
}

static void add_input(walk *w, int s)
{
	if (s >= w->group_first && s < w->group_first + w->group_n)
		return;
	for (int i = 0; i < w->n; i++)
		if (w->slot[i] == s)
			return;
	GROW(w->slot, w->cap, (size_t)w->n + 1);
	w->slot[w->n++] = s;
}

static void walk_var(walk *w, const cat_ex *e)
{
	if (e->ref == REF_LOCAL)
		return;
	if (e->ref != REF_GLOBAL) {
		w->ok = false;   /* REF_DYN: looked up in the execution by name */
		return;
	}
	const cat_slot *sl = &w->m->slots[e->index];
	switch (sl->kind) {
	case SLOT_BUILTIN:
		if (cat_builtins[sl->builtin].kind == V_PRIM) {
			if (sl->builtin != B_DOMAIN && sl->builtin != B_RANGE)
				w->ok = false;
			return;
		}
		add_input(w, e->index);
		return;
	case SLOT_ENUM:
		return;          /* constant */
	case SLOT_PROC:
		w->ok = false;
		return;
	case SLOT_LET:
	case SLOT_REC:
		if (is_fun_slot(sl)) {
			if (!w->fun_seen[e->index]) {
				w->fun_seen[e->index] = 1;
				walk_ex(w, sl->def);
			}
			return;
		}
		add_input(w, e->index);
		return;
	case SLOT_PROJ:
	case SLOT_TAGSET:
		add_input(w, e->index);
		return;
	case SLOT_CHOICE:
		break;
	}
	w->ok = false;
}

static void walk_cond(walk *w, const cat_cond *c)
{
	if (!c)
		return;
	walk_ex(w, c->a);
	walk_ex(w, c->b);
	walk_cond(w, c->l);
	walk_cond(w, c->r);
}

static void walk_ex(walk *w, const cat_ex *e)
{
	if (!e || !w->ok)
		return;
	if (e->kind == CE_VAR)
		walk_var(w, e);
	for (int i = 0; i < e->n; i++)
		walk_ex(w, e->kids[i]);
	for (int i = 0; i < e->nb; i++)
		walk_ex(w, e->binds[i].e);
	walk_cond(w, e->cond);
}

static inputs find_inputs(const cat_model *m, const cat_ex *const *defs, int ndefs, int group_first, int group_n)
{
	walk w = { m, true, 0, 0, NULL, xcalloc((size_t)m->nslots + 1, 1), group_first, group_n };
	for (int i = 0; i < ndefs; i++)
		walk_ex(&w, defs[i]);
	free(w.fun_seen);
	inputs in = { w.ok, w.n, w.slot };
	if (!w.ok) {
		free(w.slot);
		in.n = 0;
		in.slot = NULL;
	}
	return in;
}

static void find_all_inputs(cat_partial *p)
{
	const cat_model *m = p->m;
	p->slot_in = xcalloc((size_t)m->nslots + 1, sizeof *p->slot_in);
	p->check_in = xcalloc((size_t)m->nchecks + 1, sizeof *p->check_in);
	for (int s = 0; s < m->nslots; s++) {
		const cat_slot *sl = &m->slots[s];
		if (sl->is_static || is_fun_slot(sl) || !sl->def)
			continue;
		if (sl->kind == SLOT_LET) {
			const cat_ex *d = sl->def;
			p->slot_in[s] = find_inputs(m, &d, 1, s, 1);
		} else if (sl->kind == SLOT_REC && sl->of == s) {
			int gn = sl->group_n;
			const cat_ex **defs = xmalloc((size_t)gn * sizeof *defs);
			bool fun = false;
			for (int k = 0; k < gn; k++) {
				defs[k] = m->slots[s + k].def;
				fun = fun || is_fun_slot(&m->slots[s + k]);
			}
			if (!fun)
				p->slot_in[s] = find_inputs(m, defs, gn, s, gn);
			free(defs);
		}
	}
	for (int i = 0; i < m->nchecks; i++) {
		const cat_check_entry *ce = &m->checks[i];
		if (ce->flag || ce->ins->kind != CI_CHECK)
			continue;
		const cat_ex *d = ce->ins->e;
		p->check_in[i] = find_inputs(m, &d, 1, 0, 0);
	}
}

static int plan_of(cat_partial *p, const cat_ex *e);

static int plan_push(cat_partial *p, pnode nd)
{
	GROW(p->plan, p->cap_p, (size_t)p->np + 1);
	p->plan[p->np] = nd;
	return p->np++;
}

/* kids[from..n) of sequence e, nested to the right: a node of its own
 * (e == NULL, no evaluator fallback) for two or more.  (a;b);c = a;(b;c),
 * and the right part is often the one that stays (chapo?; propbase*; sync;
 * hb*: only chapo follows co). */
static int seq_suffix(cat_partial *p, const cat_ex *e, int from)
{
	if (e->n - from == 1)
		return plan_of(p, e->kids[from]);
	pnode nd = { NULL, P_SEQ, 2, xmalloc(2 * sizeof(int)), { 0 } };
	nd.kid[0] = plan_of(p, e->kids[from]);
	nd.kid[1] = seq_suffix(p, e, from + 1);
	nd.in = find_inputs(p->m, (const cat_ex *const *)e->kids + from, e->n - from, 0, 0);
	return plan_push(p, nd);
}

static int plan_of(cat_partial *p, const cat_ex *e)
{
	enum pkind k = P_OTHER;
	switch (e->kind) {
	case CE_VAR:
		if (e->ref == REF_GLOBAL && !is_fun_slot(&p->m->slots[e->index]) &&
		    p->m->slots[e->index].kind != SLOT_PROC)
			k = P_VAR;
		break;
	case CE_UNION: k = P_UNION; break;
	case CE_SEQ: k = P_SEQ; break;
	case CE_INTER: k = P_INTER; break;
	case CE_DIFF: k = P_DIFF; break;
	case CE_INV: k = P_INV; break;
	case CE_STAR: k = P_STAR; break;
	case CE_PLUS: k = P_PLUS; break;
	case CE_OPT: k = P_OPT; break;
	default: break;
	}
	pnode nd = { e, k, 0, NULL, { 0 } };
	if (k == P_SEQ && e->n >= 3) {
		nd.n = 2;
		nd.kid = xmalloc(2 * sizeof *nd.kid);
		nd.kid[0] = plan_of(p, e->kids[0]);
		nd.kid[1] = seq_suffix(p, e, 1);
	} else if (k != P_OTHER && k != P_VAR && e->n > 0) {
		nd.n = e->n;
		nd.kid = xmalloc((size_t)e->n * sizeof *nd.kid);
		for (int i = 0; i < e->n; i++)
			nd.kid[i] = plan_of(p, e->kids[i]);
	} else if (k != P_VAR) {
		nd.kind = P_OTHER;
	}
	nd.in = find_inputs(p->m, &e, 1, 0, 0);
	return plan_push(p, nd);
}

static void make_plans(cat_partial *p)
{
	const cat_model *m = p->m;
	p->slot_plan = xmalloc(((size_t)m->nslots + 1) * sizeof *p->slot_plan);
	p->check_plan = xmalloc(((size_t)m->nchecks + 1) * sizeof *p->check_plan);
	for (int s = 0; s < m->nslots; s++)
		p->slot_plan[s] = p->slot_in[s].keyed && m->slots[s].kind == SLOT_LET ? plan_of(p, m->slots[s].def) : -1;
	for (int i = 0; i < m->nchecks; i++)
		p->check_plan[i] = p->check_in[i].keyed && m->checks[i].ins->mode == CHECK_REQUIRE
		                           ? plan_of(p, m->checks[i].ins->e)
		                           : -1;
}

/* ---- kept values ---------------------------------------------------------------- */

static bool keepable(const cval *v)
{
	return v->kind == V_EMPTY || v->kind == V_UNIV || v->kind == V_SET || v->kind == V_REL;
}

static size_t nwords_of(const cat_eval *ev, const cval *v)
{
	return v->kind == V_SET || v->kind == V_REL ? cv_nwords(ev, v->kind) : 0;
}

static bool kval_eq(const cat_eval *ev, const kval *k, const cval *v)
{
	if (!keepable(v) || k->kind != v->kind || k->n != v->n)
		return false;
	size_t nw = nwords_of(ev, v);
	return nw == k->nw && (nw == 0 || memcmp(k->bits, v->u.bits, nw * sizeof *k->bits) == 0);
}

static void kval_set(const cat_eval *ev, kval *k, const cval *v)
{
	size_t nw = nwords_of(ev, v);
	if (nw > k->cap) {
		k->bits = xrealloc(k->bits, nw * sizeof *k->bits);
		k->cap = nw;
	}
	k->kind = v->kind;
	k->n = v->n;
	k->nw = nw;
	if (nw)
		memcpy(k->bits, v->u.bits, nw * sizeof *k->bits);
}

/* k as a value of this evaluation.  No copy: values are never changed in
 * place (every operator writes a fresh result), and k itself is only
 * overwritten when its entry is computed again, in a later evaluation
 * (one evaluation either reuses an entry or computes it, never both), by
 * which time this evaluation's values are no longer read. */
static cval kval_get(const kval *k)
{
	cval v = { 0 };
	v.kind = k->kind;
	v.n = k->n;
	if (k->nw)
		v.u.bits = k->bits;
	return v;
}

static void kentry_free(kentry *e, int nout)
{
	if (e->out)
		for (int i = 0; i < nout; i++)
			free(e->out[i].bits);
	free(e->in);
	free(e->out);
}

/* ---- keyed evaluation ------------------------------------------------------------- */

static bool slot_computed(const cat_eval *ev, int s)
{
	return ev->m->slots[s].is_static ? ev->slot_sgen[s] == ev->static_gen : ev->slot_gen[s] == ev->gen;
}

static void ensure(cat_partial *p, pev *pe, int s);

/* Compute the inputs of `in` (each through ensure) and compare them with
 * those kept in e.  False if one cannot be computed (its error is left for
 * the ordinary evaluation to meet in its own context). */
static bool inputs_ready(cat_partial *p, pev *pe, const inputs *in, const kentry *e, bool *same)
{
	cat_eval *ev = &pe->ev;
	*same = e->valid;
	for (int i = 0; i < in->n; i++) {
		int s = in->slot[i];
		if (pe->ver_gen[s] != ev->gen && p->m->slots[s].is_static && pe->ver[s] != 0 &&
		    pe->ver_sgen[s] == ev->static_gen) {
			pe->ver_gen[s] = ev->gen;   /* a static value: not compared again */
		} else if (pe->ver_gen[s] != ev->gen) {
			ensure(p, pe, s);
			cval v;
			if (!cat_eval_slot(ev, s, &v)) {
				cat_clear_error(ev);
				return false;
			}
			if (!keepable(&v)) {
				pe->ver[s] = 0;
			} else if (pe->ver[s] == 0 || !kval_eq(ev, &pe->last[s], &v)) {
				kval_set(ev, &pe->last[s], &v);
				pe->ver[s] = ++pe->next_ver;
			}
			pe->ver_gen[s] = ev->gen;
			pe->ver_sgen[s] = ev->static_gen;
		}
		if (*same && (pe->ver[s] == 0 || e->in[i] != pe->ver[s]))
			*same = false;
	}
	return true;
}

/* Keep the inputs' versions in e (they are current: inputs_ready). */
static bool keep_inputs(pev *pe, const inputs *in, kentry *e)
{
	if (!e->in && in->n)
		e->in = xcalloc((size_t)in->n, sizeof *e->in);
	for (int i = 0; i < in->n; i++) {
		if (pe->ver[in->slot[i]] == 0)
			return false;
		e->in[i] = pe->ver[in->slot[i]];
	}
	return true;
}

static bool plan_eval(cat_partial *p, pev *pe, int i, cval *out);

/* Make slot s computed in this evaluation, from the kept value when its
 * inputs are unchanged, else by the evaluator (and keep the result). */
static void ensure(cat_partial *p, pev *pe, int s)
{
	cat_eval *ev = &pe->ev;
	const cat_slot *sl = &p->m->slots[s];
	int first = sl->kind == SLOT_REC ? sl->of : s;
	const inputs *in = &p->slot_in[first];
	if (!in->keyed || pe->seen[first] == ev->gen || slot_computed(ev, s))
		return;
	pe->seen[first] = ev->gen;   /* also stops a runaway self-reference */
	int nout = sl->kind == SLOT_REC ? sl->group_n : 1;
	kentry *e = &pe->slot[first];
	bool same;
	if (!inputs_ready(p, pe, in, e, &same))
		return;
	if (same) {
		for (int k = 0; k < nout; k++) {
			ev->slot_val[first + k] = kval_get(&e->out[k]);
			ev->slot_gen[first + k] = ev->gen;
		}
		return;
	}
	cval v;
	if (p->slot_plan[first] >= 0 && plan_eval(p, pe, p->slot_plan[first], &v)) {
		ev->slot_val[first] = v;   /* as compute_slot would set it */
		ev->slot_gen[first] = ev->gen;
	} else if (!cat_eval_slot(ev, first, &v)) {
		cat_clear_error(ev);
		return;
	}
	e->valid = false;
	if (!keep_inputs(pe, in, e))
		return;
	if (!e->out)
		e->out = xcalloc((size_t)nout, sizeof *e->out);
	for (int k = 0; k < nout; k++) {
		if (!slot_computed(ev, first + k) || !keepable(&ev->slot_val[first + k]))
			return;
		kval_set(ev, &e->out[k], &ev->slot_val[first + k]);
	}
	e->valid = true;
}

/* ---- operators on relations ------------------------------------------------------ */

static bool rel_is_zero(const uint64_t *w, size_t nw)
{
	uint64_t any = 0;
	for (size_t i = 0; i < nw; i++)
		any |= w[i];
	return any == 0;
}

/* Operator nd applied to relations a[0..n) (as cat_eval.c's op_union,
 * op_seq, op_inter_diff and op_unary compute it for relations). */
static cval apply_rel(cat_eval *ev, const pnode *nd, const cval *a)
{
	size_t sz = cv_nwords(ev, V_REL);
	cval r;
	switch (nd->kind) {
	case P_SEQ:
		r = a[0];
		for (int i = 1; i < nd->n; i++) {
			/* an empty operand (POWER's sync in a test without one)
			 * makes the whole sequence empty: no rows to walk */
			if (rel_is_zero(r.u.bits, sz) || rel_is_zero(a[i].u.bits, sz)) {
				r = cv_rel(ev);
				break;
			}
			cval t = cv_rel(ev);
			rel_seq_raw(t.u.bits, r.u.bits, a[i].u.bits, ev->n, ev->words);
			r = t;
		}
		return r;
	case P_INV:
		r = cv_rel(ev);
		rel_inverse_raw(r.u.bits, a[0].u.bits, ev->n, ev->words);
		return r;
	default:
		break;
	}
	r = cv_copy(ev, &a[0]);
	switch (nd->kind) {
	case P_UNION:
		for (int i = 1; i < nd->n; i++)
			for (size_t w = 0; w < sz; w++)
				r.u.bits[w] |= a[i].u.bits[w];
		break;
	case P_INTER:
		for (size_t w = 0; w < sz; w++)
			r.u.bits[w] &= a[1].u.bits[w];
		break;
	case P_DIFF:
		for (size_t w = 0; w < sz; w++)
			r.u.bits[w] &= ~a[1].u.bits[w];
		break;
	case P_STAR: case P_PLUS: case P_OPT:
		if (nd->kind != P_OPT)
			rel_closure_raw(r.u.bits, ev->n, ev->words);
		if (nd->kind != P_PLUS)
			rel_reflexive_raw(r.u.bits, ev->n, ev->words);
		break;
	default:
		break;
	}
	return r;
}

/* Compute plan node nd: an operator on relations here, anything else (or
 * operands of other kinds) by the evaluator, whole. */
static bool plan_compute(cat_partial *p, pev *pe, const pnode *nd, cval *out)
{
	cat_eval *ev = &pe->ev;
	if (nd->kind != P_OTHER) {
		cval *a = arena_alloc(ev->cur, (size_t)nd->n * sizeof *a);
		bool rel = nd->n > 0;
		for (int i = 0; i < nd->n && rel; i++) {
			if (!plan_eval(p, pe, nd->kid[i], &a[i])) {
				/* a right-nested part gives up on operands that are not
				 * relations: the whole sequence goes to the evaluator */
				if (p->plan[nd->kid[i]].e || !nd->e)
					return false;
				rel = false;
				break;
			}
			rel = rel && a[i].kind == V_REL;
		}
		if (rel && ((nd->kind != P_INTER && nd->kind != P_DIFF) || nd->n == 2) &&
		    ((nd->kind != P_INV && nd->kind != P_STAR && nd->kind != P_PLUS && nd->kind != P_OPT) || nd->n == 1)) {
			*out = apply_rel(ev, nd, a);
			return true;
		}
	}
	if (!nd->e || !cat_eval_expr(ev, nd->e, out)) {
		cat_clear_error(ev);
		return false;
	}
	return true;
}

/* The value of plan node i in this evaluation: kept when the names its
 * subtree uses are unchanged.  False after an error (cleared: the caller
 * falls back to the evaluator, which meets it again in its context). */
static bool plan_eval(cat_partial *p, pev *pe, int i, cval *out)
{
	cat_eval *ev = &pe->ev;
	const pnode *nd = &p->plan[i];
	if (nd->kind == P_VAR) {
		ensure(p, pe, nd->e->index);
		if (!cat_eval_slot(ev, nd->e->index, out)) {
			cat_clear_error(ev);
			return false;
		}
		return true;
	}
	kentry *e = &pe->node[i];
	bool same = false;
	if (nd->in.keyed) {
		if (!inputs_ready(p, pe, &nd->in, e, &same))
			return false;
		if (same) {
			*out = kval_get(&e->out[0]);
			return true;
		}
	}
	cval v;
	if (!plan_compute(p, pe, nd, &v))
		return false;
	if (nd->in.keyed) {
		e->valid = false;
		if (keepable(&v) && keep_inputs(pe, &nd->in, e)) {
			if (!e->out)
				e->out = xcalloc(1, sizeof *e->out);
			kval_set(ev, &e->out[0], &v);
			e->valid = true;
		}
	}
	*out = v;
	return true;
}

/* A check's verdict on value v, as cat_eval.c's eval_test and run_check
 * give it for a relation and a required check. */
static bool verdict_of(cat_eval *ev, const cat_ins *in, const cval *v)
{
	bool r;
	if (in->test == TEST_IRREFLEXIVE) {
		r = rel_irreflexive_raw(v->u.bits, ev->n, ev->words);
	} else if (in->test == TEST_ACYCLIC) {
		uint64_t *scratch = arena_alloc(ev->cur, (size_t)(ev->words ? ev->words : 1) * sizeof *scratch);
		r = rel_acyclic_raw(v->u.bits, ev->n, ev->words, scratch);
	} else {
		r = cv_is_empty(ev, v);
	}
	bool holds = r != in->negated;
	return !holds;
}

/* Run check i: from the kept verdict when its inputs are unchanged. */
static bool run_one(cat_partial *p, pev *pe, int i, bool *failed, bool *fired)
{
	cat_eval *ev = &pe->ev;
	const inputs *in = &p->check_in[i];
	kentry *e = &pe->check[i];
	bool same = false;
	bool keyed = in->keyed && inputs_ready(p, pe, in, e, &same);
	if (keyed && same) {
		*failed = e->failed;
		*fired = false;
		return true;
	}
	cval v;
	if (keyed && p->check_plan[i] >= 0 && plan_eval(p, pe, p->check_plan[i], &v) && v.kind == V_REL) {
		*failed = verdict_of(ev, p->m->checks[i].ins, &v);
		*fired = false;
	} else if (!cat_eval_check(ev, i, failed, fired)) {
		return false;
	}
	if (keyed) {
		e->valid = keep_inputs(pe, in, e);
		e->failed = *failed;
	}
	return true;
}

/* Executions of one size checked without keeping values, before an
 * evaluator that keeps them is made for that size (see run()). */
enum { KEEP_AFTER = 64 };

/* ---- the public part ------------------------------------------------------------------ */

cat_partial *cat_partial_new(cat_model *m)
{
	/* inputs and plans are found when first needed (see run()): most
	 * small tests never keep a value */
	cat_partial *p = xcalloc(1, sizeof *p);
	p->m = m;
	return p;
}

void cat_partial_free(cat_partial *p)
{
	if (!p)
		return;
	const cat_model *m = p->m;
	for (int i = 0; i < p->n; i++) {
		pev *pe = p->ev[i];
		if (!pe)
			continue;
		for (int s = 0; s < m->nslots; s++) {
			kentry_free(&pe->slot[s], m->slots[s].kind == SLOT_REC ? m->slots[s].group_n : 1);
			free(pe->last[s].bits);
		}
		for (int c = 0; c < m->nchecks; c++)
			kentry_free(&pe->check[c], 0);
		for (int k = 0; k < p->np; k++)
			kentry_free(&pe->node[k], 1);
		free(pe->ver);
		free(pe->ver_gen);
		free(pe->ver_sgen);
		free(pe->last);
		free(pe->slot);
		free(pe->check);
		free(pe->node);
		free(pe->seen);
		cat_eval_free(&pe->ev);
		free(pe);
	}
	for (int s = 0; p->slot_in && s < m->nslots; s++)
		free(p->slot_in[s].slot);
	for (int c = 0; p->check_in && c < m->nchecks; c++)
		free(p->check_in[c].slot);
	for (int k = 0; k < p->np; k++) {
		free(p->plan[k].kid);
		free(p->plan[k].in.slot);
	}
	free(p->plan);
	free(p->slot_plan);
	free(p->check_plan);
	free(p->slot_in);
	free(p->check_in);
	free(p->ev);
	free(p->uses);
	free(p);
}

/* The evaluator for executions of n events (each is its own allocation:
 * an evaluator points into itself, so it must not move). */
static void make_room(cat_partial *p, int n)
{
	if (n >= p->n) {
		int nn = n + 8;
		p->ev = xrealloc(p->ev, (size_t)nn * sizeof *p->ev);
		p->uses = xrealloc(p->uses, (size_t)nn * sizeof *p->uses);
		for (int i = p->n; i < nn; i++) {
			p->ev[i] = NULL;
			p->uses[i] = 0;
		}
		p->n = nn;
	}
}

static pev *evaluator(cat_partial *p, int n)
{
	make_room(p, n);
	if (!p->ev[n]) {
		pev *pe = xcalloc(1, sizeof *pe);
		cat_eval_init(&pe->ev, p->m);
		pe->slot = xcalloc((size_t)p->m->nslots + 1, sizeof *pe->slot);
		pe->check = xcalloc((size_t)p->m->nchecks + 1, sizeof *pe->check);
		pe->seen = xcalloc((size_t)p->m->nslots + 1, sizeof *pe->seen);
		pe->node = xcalloc((size_t)p->np + 1, sizeof *pe->node);
		pe->ver = xcalloc((size_t)p->m->nslots + 1, sizeof *pe->ver);
		pe->ver_gen = xcalloc((size_t)p->m->nslots + 1, sizeof *pe->ver_gen);
		pe->ver_sgen = xcalloc((size_t)p->m->nslots + 1, sizeof *pe->ver_sgen);
		pe->last = xcalloc((size_t)p->m->nslots + 1, sizeof *pe->last);
		p->ev[n] = pe;
	}
	return p->ev[n];
}

typedef struct run_ctx {
	cat_partial *p;
	pev *pe;
} run_ctx;

static bool run_one_cb(void *ctx, int i, bool *failed, bool *fired)
{
	run_ctx *rc = ctx;
	return run_one(rc->p, rc->pe, i, failed, fired);
}

static bool run(cat_partial *p, const execution *x, cat_verdict *out, diag *d, bool partial)
{
	cat_model *m = p->m;
	/* The first executions of a size go to the model's own evaluator:
	 * keeping values costs more than computing them when few executions
	 * of a size are checked, as in most small tests.  Measured on the
	 * whole PPC corpus (sum of engine times): keeping from the 1st, 4th,
	 * 16th, 64th execution of a size, never: 5.9, 5.7, 5.7, 5.4, 6.6 s;
	 * SB+10W the same for all but "never" (2x slower). */
	make_room(p, x->n);
	/* A model with choices recomputes what depends on them per branch
	 * (cat_choice.c): its values are not kept here. */
	if (p->uses[x->n]++ < KEEP_AFTER || (m->nchoices > 0 && !partial))
		return partial ? cat_model_check_partial(m, x, out, d) : cat_model_check(m, x, out, d);
	if (!p->slot_in) {
		find_all_inputs(p);
		make_plans(p);
	}
	pev *pe = evaluator(p, x->n);
	cat_eval *ev = &pe->ev;
	cat_eval_begin(ev, x);
	if (ev->gen == 1) {
		memset(pe->seen, 0, (size_t)(m->nslots ? m->nslots : 1) * sizeof *pe->seen);
		memset(pe->ver_gen, 0, (size_t)(m->nslots ? m->nslots : 1) * sizeof *pe->ver_gen);
	}
	if (ev->static_gen < pe->static_seen)   /* wrapped: forget the stamps */
		memset(pe->ver_sgen, 0, (size_t)(m->nslots ? m->nslots : 1) * sizeof *pe->ver_sgen);
	pe->static_seen = ev->static_gen;
	run_ctx rc = { p, pe };
	return cat_run_checks(m, partial, run_one_cb, &rc, ev, out, d);
}

bool cat_partial_check(cat_partial *p, const execution *x, cat_verdict *out, diag *d)
{
	return run(p, x, out, d, true);
}

bool cat_partial_check_all(cat_partial *p, const execution *x, cat_verdict *out, diag *d)
{
	return run(p, x, out, d, false);
}
