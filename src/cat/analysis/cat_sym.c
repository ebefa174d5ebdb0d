/* cat_sym.c — a model's checks as terms over rf, co, fr and FW, for an
 * engine that solves instead of enumerating (cat.h, cat_model_symbolic).
 *
 * Whatever does not depend on rf, co, fr or FW (cat_static.c) is evaluated
 * by the ordinary evaluator on the static execution and becomes a
 * constant: functions, tags, matches, fence sets and the rest of the
 * language are then available as usual.  What does depend on them is
 * translated operator by operator; a construct without a term (a function
 * applied to such a value, a match, a let ... in) is refused by name at its
 * place in the model, never skipped.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "../cat_int.h"
#include "cat_analysis.h"

/* Why a translation stopped: an evaluation failure (a `try` catches it,
 * as in the evaluator) or a construct the symbolic form lacks (never
 * caught: the model cannot be run symbolically). */
enum tr_status { TR_OK, TR_FAIL, TR_UNSUPPORTED };

/* The terms of the names a `let ... in` binds, innermost first: a local
 * name's (depth, index) points here as into the evaluator's frames. */
typedef struct tframe {
	struct tframe *up;
	int n;
	int *t;              /* TF_UNSET until bound */
} tframe;

enum { TF_UNSET = INT_MIN };

typedef struct sym {
	cat_model *m;
	bool prog;           /* for a compiled check (cat_prog.c), not bmc:
	                      * choices, different-values, top-level
	                      * functions applied to anything, static ifs */
	int inlined;         /* functions being inlined, nested */
	int *hc;             /* compiled check: operator terms by (kind,
	                      * operands), open addressing, -1 free */
	size_t hc_cap, hc_n;
	cat_eval *ev;
	cat_symbolic *out;
	int n;               /* events */
	int *slot_term;      /* per slot: its term, or -1 */
	tframe *env;         /* NULL at top level */
	enum tr_status st;
	srcloc err_at;       /* TR_UNSUPPORTED: where, and what */
	char *err_what;
} sym;

/* Constants of unknown shape (herd's polymorphic {} and _): given a shape
 * by the operand they are combined with. */
enum { T_ANY_EMPTY = -2, T_ANY_UNIV = -3 };

static int new_term(sym *s, enum cat_term_kind k, bool is_set, int a, int b, srcloc loc)
{
	cat_symbolic *o = s->out;
	GROW(o->terms, o->cap_terms, (size_t)o->n_terms + 1);
	cat_term *t = &o->terms[o->n_terms];
	memset(t, 0, sizeof *t);
	t->kind = k;
	t->is_set = is_set;
	t->a = a;
	t->b = b;
	t->loc = loc;
	return o->n_terms++;
}

static int unsupported(sym *s, srcloc at, const char *what)
{
	if (s->st != TR_UNSUPPORTED) {
		s->st = TR_UNSUPPORTED;
		s->err_at = at;
		free(s->err_what);
		s->err_what = xstrdup(what);
	}
	return -1;
}

static bool no_bit(const uint64_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (w[i])
			return false;
	return true;
}

/* Whether constant term ct has no bit set, as ct->empty keeps it. */
static bool find_empty(const cat_term *ct)
{
	return ct->is_set ? no_bit(ct->set.w, (size_t)ct->set.words)
	                  : no_bit(ct->rel.w, (size_t)ct->rel.n * (size_t)ct->rel.words);
}

/* A constant of shape is_set: everything or nothing. */
static int const_all(sym *s, bool is_set, bool full, srcloc loc)
{
	int t = new_term(s, CT_CONST, is_set, -1, -1, loc);
	cat_term *ct = &s->out->terms[t];
	ct->empty = !full || s->n == 0;
	if (is_set) {
		ct->set = bset_new(s->n);
		if (full)
			for (int i = 0; i < s->n; i++)
				bset_add(&ct->set, i);
	} else {
		ct->rel = brel_new(s->n);
		if (full)
			brel_complement(&ct->rel);
	}
	return t;
}

/* Give a shapeless constant the shape of the term it meets. */
static int shape(sym *s, int t, bool is_set, srcloc loc)
{
	if (t == T_ANY_EMPTY || t == T_ANY_UNIV)
		return const_all(s, is_set, t == T_ANY_UNIV, loc);
	return t;
}

static bool is_set_term(const sym *s, int t)
{
	return t >= 0 && s->out->terms[t].is_set;
}

/* ---- a compiled check's terms: folded and shared ------------------------ */

static bool const_empty(const sym *s, int t)
{
	return t >= 0 && s->out->terms[t].kind == CT_CONST && s->out->terms[t].empty;
}

void cat_term_op(enum cat_term_kind k, bool is_set, uint64_t *d, const uint64_t *wa, const uint64_t *wb, int n,
                 int words)
{
	size_t nw = is_set ? (size_t)words : (size_t)n * (size_t)words;
	switch (k) {
	case CT_UNION: for (size_t w = 0; w < nw; w++) d[w] = wa[w] | wb[w]; break;
	case CT_INTER: for (size_t w = 0; w < nw; w++) d[w] = wa[w] & wb[w]; break;
	case CT_DIFF: for (size_t w = 0; w < nw; w++) d[w] = wa[w] & ~wb[w]; break;
	case CT_SEQ: rel_seq_raw(d, wa, wb, n, words); break;
	case CT_PROD: rel_product_raw(d, wa, wb, n, words); break;
	case CT_INV: rel_inverse_raw(d, wa, n, words); break;
	case CT_PLUS: case CT_STAR: case CT_OPT:
		memcpy(d, wa, nw * sizeof *d);
		if (k != CT_OPT)
			rel_closure_raw(d, n, words);
		if (k != CT_PLUS)
			rel_reflexive_raw(d, n, words);
		break;
	case CT_COMPL:
		memcpy(d, wa, nw * sizeof *d);
		if (is_set) {
			for (int w = 0; w < words; w++)
				d[w] = ~d[w];
			if (words)
				d[words - 1] &= bits_last_word_mask(n);
		} else {
			rel_complement_raw(d, n, words);
		}
		break;
	case CT_TOID: rel_id_on_raw(d, wa, n, words); break;
	case CT_DOMAIN: rel_domain_raw(d, wa, n, words); break;
	case CT_RANGE: rel_range_raw(d, wa, n, words); break;
	default: break;
	}
}

/* Operator k on constant operands, computed now. */
static int const_apply(sym *s, enum cat_term_kind k, bool is_set, int a, int b, srcloc loc)
{
	int t = const_all(s, is_set, false, loc);
	const cat_term *ta = &s->out->terms[a], *tb = b >= 0 ? &s->out->terms[b] : NULL;
	cat_term *ct = &s->out->terms[t];
	int n = s->n, words = (n + 63) / 64;
	const uint64_t *wa = ta->is_set ? ta->set.w : ta->rel.w;
	const uint64_t *wb = tb ? (tb->is_set ? tb->set.w : tb->rel.w) : NULL;
	uint64_t *d = is_set ? ct->set.w : ct->rel.w;
	cat_term_op(k, is_set, d, wa, wb, n, words);
	ct->empty = find_empty(ct);
	return t;
}

static size_t hc_hash(enum cat_term_kind k, bool is_set, int a, int b)
{
	uint64_t h = (uint64_t)k * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(a + 2) * 0xc2b2ae3d27d4eb4fULL ^
	             (uint64_t)(b + 2) * 0x165667b19e3779f9ULL ^ (uint64_t)is_set;
	return (size_t)(h ^ (h >> 29));
}

static int *hc_find(sym *s, enum cat_term_kind k, bool is_set, int a, int b)
{
	size_t mask = s->hc_cap - 1;
	for (size_t i = hc_hash(k, is_set, a, b) & mask;; i = (i + 1) & mask) {
		int t = s->hc[i];
		if (t < 0)
			return &s->hc[i];
		const cat_term *ct = &s->out->terms[t];
		if (ct->kind == k && ct->is_set == is_set && ct->a == a && ct->b == b)
			return &s->hc[i];
	}
}

static void hc_grow(sym *s)
{
	int *old = s->hc;
	size_t oldcap = s->hc_cap;
	s->hc_cap = oldcap ? oldcap * 2 : 256;
	s->hc = xmalloc(s->hc_cap * sizeof *s->hc);
	for (size_t i = 0; i < s->hc_cap; i++)
		s->hc[i] = -1;
	for (size_t i = 0; i < oldcap; i++)
		if (old[i] >= 0) {
			const cat_term *ct = &s->out->terms[old[i]];
			*hc_find(s, ct->kind, ct->is_set, ct->a, ct->b) = old[i];
		}
	free(old);
}

/* An operator term.  For a compiled check: an operator on constants is a
 * constant, what an empty operand decides needs no term, and the same
 * operator on the same operands is one term. */
static int op_term(sym *s, enum cat_term_kind k, bool is_set, int a, int b, srcloc loc)
{
	if (!s->prog)
		return new_term(s, k, is_set, a, b, loc);
	bool ea = const_empty(s, a), eb = const_empty(s, b);
	switch (k) {
	case CT_UNION:
		if (ea)
			return b;
		if (eb)
			return a;
		break;
	case CT_INTER: case CT_SEQ: case CT_PROD:
		if (ea || eb)
			return const_all(s, is_set, false, loc);
		break;
	case CT_DIFF:
		if (ea || eb)
			return a;
		break;
	case CT_INV: case CT_PLUS: case CT_TOID: case CT_DOMAIN: case CT_RANGE: case CT_DIFFVAL:
		if (ea)
			return const_all(s, is_set, false, loc);
		break;
	default:
		break;
	}
	bool consts = s->out->terms[a].kind == CT_CONST && (b < 0 || s->out->terms[b].kind == CT_CONST);
	if (consts && k != CT_DIFFVAL)
		return const_apply(s, k, is_set, a, b, loc);
	if (2 * (s->hc_n + 1) > s->hc_cap)
		hc_grow(s);
	int *slot = hc_find(s, k, is_set, a, b);
	if (*slot >= 0)
		return *slot;
	int t = new_term(s, k, is_set, a, b, loc);
	*hc_find(s, k, is_set, a, b) = t;
	s->hc_n++;
	return t;
}

/* A static expression's value, as a constant term. */
static int constant(sym *s, const cat_ex *e)
{
	cval v;
	if (!cat_eval_expr(s->ev, e, &v)) {
		if (s->st == TR_OK)
			s->st = TR_FAIL;
		return -1;
	}
	switch (v.kind) {
	case V_EMPTY:
		return T_ANY_EMPTY;
	case V_UNIV:
		return T_ANY_UNIV;
	case V_SET: {
		int t = new_term(s, CT_CONST, true, -1, -1, e->loc);
		cat_term *ct = &s->out->terms[t];
		ct->set = bset_new(s->n);
		memcpy(ct->set.w, v.u.bits, (size_t)ct->set.words * sizeof *ct->set.w);
		ct->empty = find_empty(ct);
		return t;
	}
	case V_REL: {
		int t = new_term(s, CT_CONST, false, -1, -1, e->loc);
		cat_term *ct = &s->out->terms[t];
		ct->rel = brel_new(s->n);
		memcpy(ct->rel.w, v.u.bits, (size_t)ct->rel.n * (size_t)ct->rel.words * sizeof *ct->rel.w);
		ct->empty = find_empty(ct);
		return t;
	}
	default: {
		char *what = xasprintf("a %s value in a check that depends on rf, co, fr or FW",
		                       cval_kind_name(v.kind));
		unsupported(s, e->loc, what);
		free(what);
		return -1;
	}
	}
}

static int tr(sym *s, const cat_ex *e);

static bool has_local_walk(const cat_ex *e);

/* Does e use a local name (one a `let ... in` around it may bind)?  Asked
 * of every node a translation meets: the answer is kept in the node. */
static bool has_local(const cat_ex *e)
{
	if (!e)
		return false;
	if (!e->local_memo)
		((cat_ex *)e)->local_memo = has_local_walk(e) ? 1 : -1;
	return e->local_memo > 0;
}

static bool has_local_walk(const cat_ex *e)
{
	if (e->kind == CE_VAR && e->ref == REF_LOCAL)
		return true;
	for (int i = 0; i < e->n; i++)
		if (has_local(e->kids[i]))
			return true;
	for (int i = 0; i < e->nb; i++)
		if (has_local(e->binds[i].e))
			return true;
	const cat_cond *c = e->cond;
	return c && (has_local(c->a) || has_local(c->b) || c->l || c->r);
}

static int tr_let(sym *s, const cat_ex *e)
{
	tframe f = { s->env, e->frame_size, NULL };
	f.t = xmalloc(((size_t)f.n + 1) * sizeof *f.t);
	for (int i = 0; i < f.n; i++)
		f.t[i] = TF_UNSET;
	int r = -1;
	for (int i = 0; i < e->nb; i++) {
		const cat_bind *b = &e->binds[i];
		if (b->pat.tuple) {
			unsupported(s, b->loc, "a tuple binding over values that depend on rf, co, fr or FW");
			goto out;
		}
		int t = tr(s, b->e);
		if (t == -1)
			goto out;
		if (b->slot >= 0 && b->slot < f.n)
			f.t[b->slot] = t;
	}
	s->env = &f;
	r = tr(s, e->kids[0]);
	s->env = f.up;
out:
	free(f.t);
	return r;
}

static int tr_local(sym *s, const cat_ex *e)
{
	const tframe *f = s->env;
	for (int d = 0; d < e->depth && f; d++)
		f = f->up;
	if (!f || e->index < 0 || e->index >= f->n || f->t[e->index] == TF_UNSET)
		return unsupported(s, e->loc, "a local name whose value depends on rf, co, fr or FW");
	return f->t[e->index];
}

/* The terms of a let rec group, made before their definitions so that
 * these can refer to them. */
static int rec_group(sym *s, int slot)
{
	const cat_slot *sl = &s->m->slots[slot];
	int first = sl->of, n = sl->group_n;
	for (int k = 0; k < n; k++) {
		const cat_slot *mk = &s->m->slots[first + k];
		/* the shape is the definition's: known once it is translated,
		 * assumed a relation meanwhile (a set fixpoint is refused) */
		int t = new_term(s, CT_REC, false, -1, -1, mk->loc);
		s->out->terms[t].name = mk->name;
		s->out->terms[t].rec_first = s->slot_term[first] >= 0 ? s->slot_term[first] : t;
		s->out->terms[t].rec_n = n;
		s->slot_term[first + k] = t;
	}
	for (int k = 0; k < n; k++) {
		const cat_slot *mk = &s->m->slots[first + k];
		int d = tr(s, mk->def);
		if (d < 0 && d != T_ANY_EMPTY && d != T_ANY_UNIV)
			return -1;
		d = shape(s, d, false, mk->loc);
		if (is_set_term(s, d))
			return unsupported(s, mk->loc, "a let rec of event sets");
		s->out->terms[s->slot_term[first + k]].a = d;
	}
	return s->slot_term[slot];
}

static int tr_global_def(sym *s, const cat_ex *e);

/* A global's definition is translated at top level, whatever local
 * names are bound where it is used. */
static int tr_global(sym *s, const cat_ex *e)
{
	tframe *saved = s->env;
	s->env = NULL;
	int t = tr_global_def(s, e);
	s->env = saved;
	return t;
}

static int tr_global_def(sym *s, const cat_ex *e)
{
	int slot = e->index;
	if (s->slot_term[slot] >= 0)
		return s->slot_term[slot];
	const cat_slot *sl = &s->m->slots[slot];
	int t = -1;
	switch (sl->kind) {
	case SLOT_BUILTIN:
		switch (sl->builtin) {
		case B_RF: t = new_term(s, CT_RF, false, -1, -1, e->loc); break;
		case B_CO: t = new_term(s, CT_CO, false, -1, -1, e->loc); break;
		case B_FR: t = new_term(s, CT_FR, false, -1, -1, e->loc); break;
		case B_FW: t = new_term(s, CT_FW, true, -1, -1, e->loc); break;
		default: return constant(s, e);
		}
		break;
	case SLOT_LET:
		t = tr(s, sl->def);
		if (t == T_ANY_EMPTY || t == T_ANY_UNIV)
			return t;
		break;
	case SLOT_REC:
		return rec_group(s, slot);
	case SLOT_CHOICE:
		if (s->prog) {
			t = new_term(s, CT_CHOICE, false, sl->choice - 1, -1, e->loc);
			break;
		}
		return unsupported(s, e->loc, "a name bound by a tuple, `with ... from` or a procedure");
	default:
		return unsupported(s, e->loc, "a name bound by a tuple, `with ... from` or a procedure");
	}
	if (t >= 0)
		s->slot_term[slot] = t;
	return t;
}

static int binary(sym *s, enum cat_term_kind k, int a, int b, srcloc loc)
{
	if (a == -1 || b == -1)
		return -1;
	if (k == CT_PROD) {
		a = shape(s, a, true, loc);
		b = shape(s, b, true, loc);
		if (!is_set_term(s, a) || !is_set_term(s, b))
			return unsupported(s, loc, "a product (*) of something that is not an event set");
		return op_term(s, CT_PROD, false, a, b, loc);
	}
	bool is_set = a >= 0 ? is_set_term(s, a) : is_set_term(s, b);
	a = shape(s, a, is_set, loc);
	b = shape(s, b, is_set, loc);
	if (is_set_term(s, a) != is_set_term(s, b))
		return unsupported(s, loc, "an operator mixing an event set and a relation");
	if (k == CT_SEQ && is_set)
		return unsupported(s, loc, "a sequence (;) of event sets");
	return op_term(s, k, is_set, a, b, loc);
}

static int unary(sym *s, enum cat_term_kind k, int a, srcloc loc)
{
	if (a == -1)
		return -1;
	switch (k) {
	case CT_TOID:
		a = shape(s, a, true, loc);
		if (!is_set_term(s, a))
			return unsupported(s, loc, "[e] of a relation");
		return op_term(s, k, false, a, -1, loc);
	case CT_DOMAIN:
	case CT_RANGE:
		a = shape(s, a, false, loc);
		if (is_set_term(s, a))
			return unsupported(s, loc, "domain or range of an event set");
		return op_term(s, k, true, a, -1, loc);
	case CT_COMPL:
		if (a < 0)
			return unsupported(s, loc, "~ of a value of unknown shape");
		return op_term(s, k, is_set_term(s, a), a, -1, loc);
	default:
		a = shape(s, a, false, loc);
		if (is_set_term(s, a))
			return unsupported(s, loc, "a closure, ? or ^-1 of an event set");
		return op_term(s, k, false, a, -1, loc);
	}
}

/* How deep inlined calls of functions may nest: deeper is a recursion
 * over values that depend on rf, co, fr or FW, which has no term. */
enum { INLINE_MAX = 32 };

/* A compiled check: a top-level function (no captured frame) applied to
 * a value that depends on rf, co, fr or FW is its body with the
 * parameters bound to the argument's terms (a tuple to a tuple of
 * parameters, element by element). */
static int tr_inline(sym *s, const closure *clo, const cat_ex *arg, srcloc at)
{
	const cat_ex *fn = clo->fun;
	if (clo->env || s->inlined >= INLINE_MAX)
		return unsupported(s, at, "applying a function to a value that depends on rf, co, fr or FW");
	int np = fn->pat.tuple ? fn->pat.n : 1;
	if (fn->pat.tuple && (arg->kind != CE_TUPLE || arg->n != np))
		return unsupported(s, at, "a tuple argument that depends on rf, co, fr or FW");
	tframe f = { NULL, fn->frame_size, NULL };
	f.t = xmalloc(((size_t)f.n + 1) * sizeof *f.t);
	for (int i = 0; i < f.n; i++)
		f.t[i] = TF_UNSET;
	int r = -1;
	for (int i = 0; i < np && i < f.n; i++) {
		int t = tr(s, fn->pat.tuple ? arg->kids[i] : arg);
		if (t == -1)
			goto out;
		f.t[i] = t;
	}
	tframe *saved = s->env;
	s->env = &f;
	s->inlined++;
	r = tr(s, fn->kids[0]);
	s->inlined--;
	s->env = saved;
out:
	free(f.t);
	return r;
}

/* A compiled check: oa-changes(S, r) and at-least-one-writable(S, r) with
 * r depending on rf, co, fr or FW are empty when S has no write at a
 * page-table entry (any test but herd's virtual-memory ones). */
static int tr_vmsa_two(sym *s, const cat_ex *e)
{
	const cat_ex *arg = e->kids[1];
	if (arg->kind != CE_TUPLE || arg->n != 2 || !cat_ex_static(s->m, arg->kids[0]) ||
	    (s->env && has_local(arg->kids[0])))
		return unsupported(s, e->loc, "applying a function to a value that depends on rf, co, fr or FW");
	cval ws;
	if (!cat_eval_expr(s->ev, arg->kids[0], &ws)) {
		if (s->st == TR_OK)
			s->st = TR_FAIL;
		return -1;
	}
	if (!cat_vmsa_none_at_pte(s->ev, &ws))
		return unsupported(s, e->loc, "oa-changes or at-least-one-writable of page-table writes");
	int r = tr(s, arg->kids[1]);
	if (r == -1)
		return -1;
	if (r >= 0 && is_set_term(s, r)) {
		/* the evaluator says it expects a relation */
		if (s->st == TR_OK)
			s->st = TR_FAIL;
		return -1;
	}
	return const_all(s, true, false, e->loc);
}

/* Application: only the primitives domain and range, on a non-static
 * argument (a static application is a constant); for a compiled check
 * also different-values and top-level functions (tr_inline). */
static int tr_app(sym *s, const cat_ex *e)
{
	/* a function defined at top level is a closure whatever its body
	 * reads: a compiled check inlines it */
	const cat_ex *fe = e->kids[0];
	bool top_fun = s->prog && fe->kind == CE_VAR && fe->ref == REF_GLOBAL &&
	               s->m->slots[fe->index].kind == SLOT_LET && s->m->slots[fe->index].def &&
	               s->m->slots[fe->index].def->kind == CE_FUN;
	if (!top_fun && !cat_ex_static(s->m, fe))
		return unsupported(s, e->loc, "a function that depends on rf, co, fr or FW");
	cval f;
	if (!cat_eval_expr(s->ev, e->kids[0], &f)) {
		if (s->st == TR_OK)
			s->st = TR_FAIL;
		return -1;
	}
	if (f.kind == V_PRIM && (f.u.prim == B_DOMAIN || f.u.prim == B_RANGE))
		return unary(s, f.u.prim == B_DOMAIN ? CT_DOMAIN : CT_RANGE, tr(s, e->kids[1]), e->loc);
	if (s->prog && f.kind == V_PRIM && f.u.prim == B_DIFFERENT_VALUES) {
		int a = tr(s, e->kids[1]);
		if (a == T_ANY_EMPTY)
			return const_all(s, false, false, e->loc);
		a = shape(s, a, false, e->loc);
		if (a >= 0 && is_set_term(s, a))
			return unsupported(s, e->loc, "different-values of an event set");
		return a == -1 ? -1 : op_term(s, CT_DIFFVAL, false, a, -1, e->loc);
	}
	if (s->prog && f.kind == V_CLO)
		return tr_inline(s, f.u.clo, e->kids[1], e->loc);
	if (s->prog && f.kind == V_PRIM && (f.u.prim == B_OA_CHANGES || f.u.prim == B_AT_LEAST_ONE_WRITABLE))
		return tr_vmsa_two(s, e);
	return unsupported(s, e->loc, "applying a function to a value that depends on rf, co, fr or FW");
}

static int fold(sym *s, enum cat_term_kind k, const cat_ex *e)
{
	int acc = tr(s, e->kids[0]);
	for (int i = 1; i < e->n && acc != -1; i++)
		acc = binary(s, k, acc, tr(s, e->kids[i]), e->loc);
	return acc;
}

static bool reads_values_walk(const cat_model *m, const cat_ex *e);

/* Does e apply different-values itself?  The values of reads change with
 * rf: such an expression is evaluated on each execution, never kept.
 * Asked of every node a translation meets: the answer is kept in it. */
static bool reads_values(const cat_model *m, const cat_ex *e)
{
	if (!e)
		return false;
	if (!e->values_memo)
		((cat_ex *)e)->values_memo = reads_values_walk(m, e) ? 1 : -1;
	return e->values_memo > 0;
}

static bool reads_values_walk(const cat_model *m, const cat_ex *e)
{
	if (e->kind == CE_APP && e->kids[0]->kind == CE_VAR && e->kids[0]->ref == REF_GLOBAL &&
	    m->slots[e->kids[0]->index].kind == SLOT_BUILTIN && m->slots[e->kids[0]->index].builtin == B_DIFFERENT_VALUES)
		return true;
	for (int i = 0; i < e->n; i++)
		if (reads_values(m, e->kids[i]))
			return true;
	for (int i = 0; i < e->nb; i++)
		if (reads_values(m, e->binds[i].e))
			return true;
	return false;
}

static bool cond_has_local(const cat_cond *c)
{
	return c && (has_local(c->a) || has_local(c->b) || cond_has_local(c->l) || cond_has_local(c->r));
}

/* A compiled check: `if` on a condition that depends on no execution's rf
 * (a variant, a comparison of static values) is the branch it takes. */
static int tr_if(sym *s, const cat_ex *e)
{
	if (!s->prog || cond_has_local(e->cond) || !cat_cond_static(s->m, e->cond))
		return unsupported(s, e->loc, "if on values that depend on rf, co, fr or FW");
	bool c;
	if (!cat_eval_cond(s->ev, e->cond, &c)) {
		if (s->st == TR_OK)
			s->st = TR_FAIL;
		return -1;
	}
	return tr(s, e->kids[c ? 0 : 1]);
}

static int tr(sym *s, const cat_ex *e)
{
	if (s->st != TR_OK)
		return -1;
	/* a static expression is computed, unless a local name (of a
	 * `let ... in` being translated) is in it: the evaluator has no
	 * frame for it */
	if (cat_ex_static(s->m, e) && !(s->env && has_local(e)) && !(s->prog && reads_values(s->m, e)))
		return constant(s, e);
	switch (e->kind) {
	case CE_VAR:
		if (e->ref == REF_GLOBAL)
			return tr_global(s, e);
		if (e->ref == REF_LOCAL && s->env)
			return tr_local(s, e);
		return unsupported(s, e->loc, "a local name whose value depends on rf, co, fr or FW");
	case CE_UNION: return fold(s, CT_UNION, e);
	case CE_SEQ: return fold(s, CT_SEQ, e);
	case CE_INTER: return binary(s, CT_INTER, tr(s, e->kids[0]), tr(s, e->kids[1]), e->loc);
	case CE_DIFF: return binary(s, CT_DIFF, tr(s, e->kids[0]), tr(s, e->kids[1]), e->loc);
	case CE_PROD: return binary(s, CT_PROD, tr(s, e->kids[0]), tr(s, e->kids[1]), e->loc);
	case CE_STAR: return unary(s, CT_STAR, tr(s, e->kids[0]), e->loc);
	case CE_PLUS: return unary(s, CT_PLUS, tr(s, e->kids[0]), e->loc);
	case CE_OPT: return unary(s, CT_OPT, tr(s, e->kids[0]), e->loc);
	case CE_INV: return unary(s, CT_INV, tr(s, e->kids[0]), e->loc);
	case CE_COMPL: return unary(s, CT_COMPL, tr(s, e->kids[0]), e->loc);
	case CE_TOID: return unary(s, CT_TOID, tr(s, e->kids[0]), e->loc);
	case CE_APP: return tr_app(s, e);
	case CE_TRY: {
		int t = tr(s, e->kids[0]);
		if (s->st != TR_FAIL)
			return t;
		/* herd's try: an evaluation failure gives the alternative */
		s->st = TR_OK;
		cat_clear_error(s->ev);
		return tr(s, e->kids[1]);
	}
	case CE_ADD: return unsupported(s, e->loc, "++ on a value that depends on rf, co, fr or FW");
	case CE_SET: return unsupported(s, e->loc, "a set {...} of values that depend on rf, co, fr or FW");
	case CE_TUPLE: return unsupported(s, e->loc, "a tuple of values that depend on rf, co, fr or FW");
	case CE_FUN: return unsupported(s, e->loc, "a function that depends on rf, co, fr or FW");
	case CE_LET: return tr_let(s, e);
	case CE_LETREC: return unsupported(s, e->loc, "let rec ... in over values that depend on rf, co, fr or FW");
	case CE_MATCH_TAG:
	case CE_MATCH_SET: return unsupported(s, e->loc, "match on a value that depends on rf, co, fr or FW");
	case CE_IF: return tr_if(s, e);
	default: return unsupported(s, e->loc, "this expression");
	}
}

/* Does a procedure body apply different-values itself? */
static bool body_reads_values(const cat_model *m, const cat_ins_list *l)
{
	for (int i = 0; i < l->n; i++) {
		const cat_ins *in = l->v[i];
		if (reads_values(m, in->e))
			return true;
		for (int b = 0; b < in->nb; b++)
			if (reads_values(m, in->binds[b].e))
				return true;
		if (body_reads_values(m, &in->body) || body_reads_values(m, &in->body2))
			return true;
	}
	return false;
}

/* Does every check and binding of a procedure body stay static? */
static bool body_static(cat_model *m, const cat_ins_list *l)
{
	for (int i = 0; i < l->n; i++) {
		const cat_ins *in = l->v[i];
		if (in->e && !cat_ex_static(m, in->e))
			return false;
		for (int b = 0; b < in->nb; b++)
			if (!cat_ex_static(m, in->binds[b].e))
				return false;
		if (!body_static(m, &in->body) || !body_static(m, &in->body2))
			return false;
	}
	return true;
}

static bool add_check(sym *s, int i, diag *d)
{
	const cat_check_entry *ce = &s->m->checks[i];
	const cat_ins *in = ce->ins;
	cat_symbolic *o = s->out;
	cat_sym_check *c = &o->checks[o->n_checks];
	memset(c, 0, sizeof *c);
	c->name = ce->name;
	c->loc = in->loc;
	c->term = -1;
	bool is_static = in->kind == CI_CHECK ? cat_ex_static(s->m, in->e)
	                                      : cat_ex_static(s->m, in->e) &&
	                                                body_static(s->m, &s->m->slots[in->slot].ins->body);
	/* a compiled check evaluates what reads the values of the
	 * execution's events on each execution, as the evaluator does */
	if (s->prog && is_static &&
	    (reads_values(s->m, in->e) ||
	     (in->kind == CI_CALL && body_reads_values(s->m, &s->m->slots[in->slot].ins->body)))) {
		if (in->kind != CI_CHECK) {
			s->st = TR_UNSUPPORTED;
			return false;
		}
		is_static = false;
	}
	if (in->kind == CI_CHECK) {
		c->test = in->test == TEST_ACYCLIC ? 0 : in->test == TEST_IRREFLEXIVE ? 1 : 2;
		c->negated = in->negated;
		c->flag = in->mode == CHECK_FLAG;
		c->undefined_unless = in->mode == CHECK_UNDEFINED_UNLESS;
		if (in->mode == CHECK_ASSERT && !is_static) {
			s->st = TR_UNSUPPORTED;
			diag_error(d, in->loc, "not supported by bmc: assert on a value that depends on rf, co, fr or FW");
			return false;
		}
	}
	if (is_static) {
		bool failed = false, fired = false;
		int before = s->m->nflag_names;
		if (!cat_eval_check(s->ev, i, &failed, &fired)) {
			cat_eval_report(s->ev, d);
			return false;
		}
		s->m->nflag_names = before;
		c->const_holds = in->kind == CI_CHECK && ce->flag ? fired : !failed;
		if (in->kind == CI_CALL && fired) {
			s->st = TR_UNSUPPORTED;
			diag_error(d, in->loc, "not supported by bmc: a flag inside a procedure");
			return false;
		}
		o->n_checks++;
		return true;
	}
	if (in->kind != CI_CHECK) {
		s->st = TR_UNSUPPORTED;
		diag_error(d, in->loc, "not supported by bmc: a procedure call on values that depend on rf, co, fr or FW");
		return false;
	}
	int t = tr(s, in->e);
	if (t == T_ANY_EMPTY || t == T_ANY_UNIV)
		t = shape(s, t, false, in->loc);
	if (s->prog && s->st == TR_OK && t >= 0 && is_set_term(s, t) && in->test != TEST_EMPTY)
		s->st = TR_FAIL;   /* acyclic of a set: the evaluator says it */
	if (s->st == TR_UNSUPPORTED) {
		diag_error(d, s->err_at, "not supported by bmc: %s", s->err_what);
		return false;
	}
	if (s->st == TR_FAIL) {
		cat_eval_report(s->ev, d);
		return false;
	}
	c->term = t;
	o->n_checks++;
	return true;
}

static bool build(cat_model *m, const execution *x, bool prog, cat_symbolic *out, diag *d, bool *unsupported)
{
	memset(out, 0, sizeof *out);
	*unsupported = false;
	if (prog)
		goto go;
	if (m->strict_skip) {
		srcloc at = { cat_model_file(m), 0, 0 };
		diag_error(d, at, "not supported by bmc: -strictskip");
		return false;
	}
	if (m->catdep) {
		srcloc at = { cat_model_file(m), 0, 0 };
		diag_error(d, at, "not supported by bmc: catdep (herd's register events)");
		return false;
	}
go:;
	sym s = { 0 };
	s.prog = prog;
	s.m = m;
	s.ev = &m->ev;
	s.out = out;
	s.n = x->n;
	s.slot_term = xmalloc(((size_t)m->nslots + 1) * sizeof *s.slot_term);
	for (int i = 0; i < m->nslots; i++)
		s.slot_term[i] = -1;
	cat_eval_begin(s.ev, x);
	out->checks = xcalloc((size_t)m->nchecks + 1, sizeof *out->checks);
	bool ok = true;
	for (int i = 0; i < m->nchecks && ok; i++) {
		/* a compiled check has every check, skipped or not, at its
		 * index: the verdict loop evaluates the skipped ones too */
		if (m->checks[i].skipped && !prog)
			continue;
		ok = add_check(&s, i, d);
	}
	*unsupported = s.st == TR_UNSUPPORTED;
	free(s.slot_term);
	free(s.err_what);
	free(s.hc);
	if (!ok)
		cat_symbolic_free(out);
	return ok;
}

bool cat_model_symbolic(cat_model *m, const execution *x, cat_symbolic *out, diag *d)
{
	bool unsupported;
	return build(m, x, false, out, d, &unsupported);
}

int cat_sym_build_prog(cat_model *m, const execution *x, cat_symbolic *out)
{
	diag quiet = { 0 };
	quiet.drop = true;
	bool unsupported;
	if (build(m, x, true, out, &quiet, &unsupported))
		return SYM_OK;
	cat_clear_error(&m->ev);
	return unsupported ? SYM_UNSUPPORTED : SYM_FAIL;
}

void cat_symbolic_free(cat_symbolic *s)
{
	for (int i = 0; i < s->n_terms; i++) {
		if (s->terms[i].kind != CT_CONST)
			continue;
		if (s->terms[i].is_set)
			bset_free(&s->terms[i].set);
		else
			brel_free(&s->terms[i].rel);
	}
	free(s->terms);
	free(s->checks);
	memset(s, 0, sizeof *s);
}
