/* cat_incr.c — checking many related executions (RSMC's committed prefixes
 * and its complete runs) with evaluators that keep their work from one call
 * to the next.
 *
 * Two kinds of reuse, both exact (a value is reused only where evaluating
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
 *    What counts as an input: every top-level name the definition uses,
 *    through the bodies of the top-level functions it calls.  A binding is
 *    not keyed (always computed) if it uses a fence set looked up by name
 *    (those are static anyway), a primitive other than domain/range, a
 *    procedure, or an input whose value is not a set or relation (a
 *    closure held in a value could use names we did not see).
 */
#include <stdlib.h>
#include <string.h>

#include "cat_int.h"

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
	kval *in;        /* one per input */
	kval *out;       /* one per member (a let rec group: group_n) */
	bool failed;     /* a check: its verdict */
} kentry;

typedef struct pev {
	cat_eval ev;
	kentry *slot;    /* per slot (a group: at its first member) */
	kentry *check;   /* per check */
	unsigned *seen;  /* per slot: == ev.gen once looked at in this evaluation */
} pev;

/* Inputs of a binding or check, found once per model. */
typedef struct inputs {
	bool keyed;      /* its result may be reused */
	int n;
	int *slot;
} inputs;

struct cat_partial {
	cat_model *m;
	inputs *slot_in;   /* per slot (groups: at the first member) */
	inputs *check_in;  /* per check */
	int n;             /* entries of ev */
	pev **ev;          /* by execution size; allocated when first used */
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
		add_input(w, e->index);
		return;
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

/* A copy of k in the evaluation's arena (values there are never changed
 * in place, but the kept copy must outlive the arena's reset). */
static cval kval_get(cat_eval *ev, const kval *k)
{
	cval v = { 0 };
	v.kind = k->kind;
	v.n = k->n;
	if (k->nw) {
		v = k->kind == V_SET ? cv_set(ev) : cv_rel(ev);
		v.n = k->n;
		memcpy(v.u.bits, k->bits, k->nw * sizeof *k->bits);
	}
	return v;
}

static void kentry_free(kentry *e, int nin, int nout)
{
	if (e->in)
		for (int i = 0; i < nin; i++)
			free(e->in[i].bits);
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
		ensure(p, pe, in->slot[i]);
		cval v;
		if (!cat_eval_slot(ev, in->slot[i], &v)) {
			cat_clear_error(ev);
			return false;
		}
		if (*same && !kval_eq(ev, &e->in[i], &v))
			*same = false;
	}
	return true;
}

/* Keep the inputs' current values in e (they are computed: inputs_ready). */
static bool keep_inputs(cat_partial *p, cat_eval *ev, const inputs *in, kentry *e)
{
	(void)p;
	if (!e->in && in->n)
		e->in = xcalloc((size_t)in->n, sizeof *e->in);
	for (int i = 0; i < in->n; i++) {
		cval v = ev->slot_val[in->slot[i]];
		if (!keepable(&v))
			return false;
		kval_set(ev, &e->in[i], &v);
	}
	return true;
}

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
			ev->slot_val[first + k] = kval_get(ev, &e->out[k]);
			ev->slot_gen[first + k] = ev->gen;
		}
		return;
	}
	cval v;
	if (!cat_eval_slot(ev, first, &v)) {
		cat_clear_error(ev);
		return;
	}
	e->valid = false;
	if (!keep_inputs(p, ev, in, e))
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
	if (!cat_eval_check(ev, i, failed, fired))
		return false;
	if (keyed) {
		e->valid = keep_inputs(p, ev, in, e);
		e->failed = *failed;
	}
	return true;
}

/* ---- the public part ------------------------------------------------------------------ */

cat_partial *cat_partial_new(cat_model *m)
{
	cat_partial *p = xcalloc(1, sizeof *p);
	p->m = m;
	find_all_inputs(p);
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
		for (int s = 0; s < m->nslots; s++)
			kentry_free(&pe->slot[s], p->slot_in[s].n,
			            m->slots[s].kind == SLOT_REC ? m->slots[s].group_n : 1);
		for (int c = 0; c < m->nchecks; c++)
			kentry_free(&pe->check[c], p->check_in[c].n, 0);
		free(pe->slot);
		free(pe->check);
		free(pe->seen);
		cat_eval_free(&pe->ev);
		free(pe);
	}
	for (int s = 0; s < m->nslots; s++)
		free(p->slot_in[s].slot);
	for (int c = 0; c < m->nchecks; c++)
		free(p->check_in[c].slot);
	free(p->slot_in);
	free(p->check_in);
	free(p->ev);
	free(p);
}

/* The evaluator for executions of n events (each is its own allocation:
 * an evaluator points into itself, so it must not move). */
static pev *evaluator(cat_partial *p, int n)
{
	if (n >= p->n) {
		int nn = n + 8;
		p->ev = xrealloc(p->ev, (size_t)nn * sizeof *p->ev);
		for (int i = p->n; i < nn; i++)
			p->ev[i] = NULL;
		p->n = nn;
	}
	if (!p->ev[n]) {
		pev *pe = xcalloc(1, sizeof *pe);
		cat_eval_init(&pe->ev, p->m);
		pe->slot = xcalloc((size_t)p->m->nslots + 1, sizeof *pe->slot);
		pe->check = xcalloc((size_t)p->m->nchecks + 1, sizeof *pe->check);
		pe->seen = xcalloc((size_t)p->m->nslots + 1, sizeof *pe->seen);
		p->ev[n] = pe;
	}
	return p->ev[n];
}

static bool run(cat_partial *p, const execution *x, cat_verdict *out, diag *d, bool partial)
{
	cat_model *m = p->m;
	pev *pe = evaluator(p, x->n);
	cat_eval *ev = &pe->ev;
	cat_eval_begin(ev, x);
	if (ev->gen == 1)
		memset(pe->seen, 0, (size_t)(m->nslots ? m->nslots : 1) * sizeof *pe->seen);
	m->nflag_names = 0;
	out->allowed = true;
	out->failed = NULL;
	out->n_flags = 0;
	out->flags = m->flag_names;
	for (int i = 0; i < m->nchecks; i++) {
		if (partial && (!m->checks[i].monotone || m->checks[i].flag))
			continue;
		bool failed, fired;
		if (!run_one(p, pe, i, &failed, &fired)) {
			cat_eval_report(ev, d);
			return false;
		}
		if (failed) {
			out->allowed = false;
			out->failed = m->checks[i].name;
			break;
		}
	}
	out->n_flags = partial ? 0 : m->nflag_names;
	return true;
}

bool cat_partial_check(cat_partial *p, const execution *x, cat_verdict *out, diag *d)
{
	return run(p, x, out, d, true);
}

bool cat_partial_check_all(cat_partial *p, const execution *x, cat_verdict *out, diag *d)
{
	return run(p, x, out, d, false);
}
