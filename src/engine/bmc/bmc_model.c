/* bmc_model.c — the model's checks as clauses over the encoded program
 * (bmc.h).
 *
 * Each term of the symbolic model (cat.h, cat_model_symbolic) becomes an
 * array of literals, built once, bottom-up in term order (operands come
 * first), with the polarity its uses need (sat.h): a required `acyclic`,
 * `irreflexive` or `empty` only needs an upper bound of its relation, a
 * negated one a lower bound, and a difference or complement flips the
 * polarity of what it subtracts.  The polarities are worked out first,
 * top-down.  A let rec member needed as an upper bound is a fresh
 * relation X with def(X) -> X: every such X contains the least fixpoint,
 * and the checks, which only fail by having pairs, pick the least.  A
 * closure needed as an upper bound is the same with X = r | r;X; needed
 * exactly or as a lower bound, it is built by squaring.
 */
#include <stdlib.h>
#include <string.h>

#include "bmc.h"

typedef struct mctx {
	bmc_enc *e;
	const cat_symbolic *cs;
	int n;
	int *pol;       /* per term: the polarities it is needed with */
	int **lits;     /* per term: n (set) or n*n literals          */
	brel *supp;     /* per term: the pairs (a set: row 0) that may
	                 * be in it; outside, its literals are false  */
	int *partner;   /* per event: the other half of a single-event
	                 * atomic (RISC-V AMO), or -1                 */
	bool fused;     /* some event has a partner                   */
	diag *d;
} mctx;

static size_t term_size(const mctx *c, int t)
{
	return c->cs->terms[t].is_set ? (size_t)c->n : (size_t)c->n * (size_t)c->n;
}

static int *fresh_array(size_t k)
{
	int *a = xmalloc((k + 1) * sizeof *a);
	for (size_t i = 0; i <= k; i++)
		a[i] = SAT_FALSE;
	return a;
}

/* ---- supports ---------------------------------------------------------------- */

/* The pairs a base relation's literals leave possible. */
static void supp_of_lits(const mctx *c, brel *out, const int *lits, bool is_set)
{
	int n = c->n;
	for (int i = 0; i < n; i++) {
		if (is_set) {
			if (lits[i] != SAT_FALSE)
				brel_add(out, 0, i);
			continue;
		}
		for (int j = 0; j < n; j++)
			if (lits[(size_t)i * n + j] != SAT_FALSE)
				brel_add(out, i, j);
	}
}

/* Term t's support from its operands' (sets live in row 0). */
static void supp_step(mctx *c, int t, brel *out)
{
	const cat_term *ct = &c->cs->terms[t];
	int n = c->n;
	const brel *a = ct->a >= 0 ? &c->supp[ct->a] : NULL, *b = ct->b >= 0 ? &c->supp[ct->b] : NULL;
	brel_clear(out);
	switch (ct->kind) {
	case CT_CONST:
		if (ct->is_set)
			for (int i = 0; i < n; i++) {
				if (bset_has(&ct->set, i))
					brel_add(out, 0, i);
			}
		else
			brel_union(out, &ct->rel);
		return;
	case CT_RF: supp_of_lits(c, out, c->e->rf, false); break;
	case CT_CO: supp_of_lits(c, out, c->e->co, false); break;
	case CT_FR: supp_of_lits(c, out, c->e->fr, false); break;
	case CT_FW: supp_of_lits(c, out, c->e->fw_model, true); break;
	case CT_UNION: brel_union(out, a); brel_union(out, b); return;
	case CT_INTER: brel_union(out, a); brel_inter(out, b); return;
	case CT_DIFF: brel_union(out, a); return;
	case CT_SEQ: {
		brel r = brel_seq(a, b);
		brel_union(out, &r);
		brel_free(&r);
		return;
	}
	case CT_PROD:
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				if (brel_has(a, 0, i) && brel_has(b, 0, j))
					brel_add(out, i, j);
		return;
	case CT_INV: {
		brel r = brel_inverse(a);
		brel_union(out, &r);
		brel_free(&r);
		return;
	}
	case CT_PLUS:
	case CT_STAR:
	case CT_OPT:
		brel_union(out, a);
		if (ct->kind != CT_OPT)
			brel_transitive_closure(out);
		if (ct->kind != CT_PLUS)
			brel_reflexive_closure(out);
		return;
	case CT_COMPL:
		brel_complement(out);
		if (ct->is_set)
			for (int i = 1; i < n; i++)
				memset(brel_row(out, i), 0, (size_t)out->words * sizeof *out->w);
		return;
	case CT_TOID:
		for (int i = 0; i < n; i++)
			if (brel_has(a, 0, i))
				brel_add(out, i, i);
		return;
	case CT_DOMAIN:
	case CT_RANGE:
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				if (brel_has(a, i, j))
					brel_add(out, 0, ct->kind == CT_DOMAIN ? i : j);
		return;
	case CT_REC:
		brel_union(out, &c->supp[t]);
		brel_union(out, &c->supp[ct->a]);
		return;
	case CT_CHOICE: case CT_DIFFVAL:
		/* a compiled check's own terms: cat_model_symbolic never makes them */
		return;
	}
	/* a base relation: as the models see fused atomics (fuse()) */
	if (!c->fused)
		return;
	brel base = brel_copy(out);
	brel_clear(out);
	const int *p = c->partner;
	for (int i = 0; i < (ct->is_set ? 1 : n); i++)
		for (int j = 0; j < n; j++) {
			if (!ct->is_set && p[i] >= 0 && (j == i || j == p[i]))
				continue;
			int is[2] = { i, ct->is_set ? -1 : p[i] }, js[2] = { j, p[j] };
			for (int a = 0; a < 2; a++)
				for (int b = 0; b < 2; b++)
					if (is[a] >= 0 && js[b] >= 0 && brel_has(&base, is[a], js[b]))
						brel_add(out, i, j);
		}
	brel_free(&base);
}

/* Every term's support; a let rec's by iterating to its fixpoint (the
 * supports only grow, and are bounded). */
static void supports(mctx *c)
{
	const cat_symbolic *cs = c->cs;
	c->supp = xcalloc((size_t)cs->n_terms + 1, sizeof *c->supp);
	for (int t = 0; t < cs->n_terms; t++)
		c->supp[t] = brel_new(c->n);
	brel next = brel_new(c->n);
	for (bool changed = true; changed;) {
		changed = false;
		for (int t = 0; t < cs->n_terms; t++) {
			supp_step(c, t, &next);
			if (!brel_equal(&next, &c->supp[t])) {
				brel tmp = c->supp[t];
				c->supp[t] = next;
				next = tmp;
				changed = true;
			}
		}
	}
	brel_free(&next);
}

/* The polarity each term is needed with, from what the checks need. */
static void need(mctx *c, int t, int pol)
{
	c->pol[t] |= pol;
}

static bool propagate(mctx *c)
{
	const cat_symbolic *cs = c->cs;
	/* operands come before their terms but a rec's definition: repeat
	 * until nothing changes (at most a few rounds) */
	for (bool changed = true; changed;) {
		changed = false;
		for (int t = cs->n_terms - 1; t >= 0; t--) {
			const cat_term *ct = &cs->terms[t];
			int p = c->pol[t];
			/* a term that is always empty needs nothing of its
			 * operands (an empty sync makes the rest of its
			 * sequence moot) */
			if (!p || brel_empty(&c->supp[t]))
				continue;
			int pa = p, pb = p;
			if (ct->kind == CT_DIFF)
				pb = sat_flip(p);
			if (ct->kind == CT_COMPL)
				pa = sat_flip(p);
			int kids[2] = { ct->a, ct->b }, kp[2] = { pa, pb };
			for (int k = 0; k < 2; k++)
				if (kids[k] >= 0 && (c->pol[kids[k]] | kp[k]) != c->pol[kids[k]]) {
					c->pol[kids[k]] |= kp[k];
					changed = true;
				}
		}
	}
	for (int t = 0; t < cs->n_terms; t++)
		if (cs->terms[t].kind == CT_REC && (c->pol[t] & POL_DOWN)) {
			diag_error(c->d, cs->terms[t].loc,
			           "not supported by bmc: let rec %s where its exact value is needed "
			           "(subtracted, complemented, or in a negated check or a flag)",
			           cs->terms[t].name ? cs->terms[t].name : "");
			return false;
		}
	return true;
}

/* ---- single-event atomics ------------------------------------------------------------ */

/* The models see the read and the write of a fused atomic (ACC_FUSED,
 * herd's single-event AMOs) as one event: cat_builtin.c gives every
 * built-in that view, the static ones reach bmc so already, and rf, co,
 * fr and FW get it here the same way: a half has its partner's edges,
 * and edges between the halves and loops are dropped. */
static void find_partners(mctx *c)
{
	const execution *x = &c->e->x;
	const litmus_test *t = c->e->t;
	int n = c->n;
	c->partner = xmalloc(((size_t)n + 1) * sizeof *c->partner);
	for (int i = 0; i < n; i++)
		c->partner[i] = -1;
	for (int i = 0; i < n; i++) {
		const event *a = &x->ev[i];
		if (a->kind != EV_READ || a->thread < 0 || !(t->threads[a->thread].ops[a->op].flags & ACC_FUSED))
			continue;
		for (int j = 0; j < n; j++) {
			const event *b = &x->ev[j];
			if (b->kind == EV_WRITE && b->thread == a->thread && b->instr == a->instr &&
			    b->instance == a->instance && (t->threads[b->thread].ops[b->op].flags & ACC_FUSED)) {
				c->partner[i] = j;
				c->partner[j] = i;
				c->fused = true;
				break;
			}
		}
	}
}

/* A base relation or set (lits, exact) as the models see it. */
static int *fuse(mctx *c, const int *lits, bool is_set, int pol)
{
	int n = c->n;
	const int *p = c->partner;
	if (is_set) {
		int *r = fresh_array((size_t)n);
		for (int i = 0; i < n; i++)
			r[i] = p[i] < 0 ? lits[i] : sat_or2(c->e->s, lits[i], lits[p[i]], pol);
		return r;
	}
	int *r = fresh_array((size_t)n * n);
	int buf[4];
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			if (p[i] >= 0 && (j == i || j == p[i]))
				continue; /* within one fused event */
			int k = 0;
			int is[2] = { i, p[i] }, js[2] = { j, p[j] };
			for (int a = 0; a < 2; a++)
				for (int b = 0; b < 2; b++)
					if (is[a] >= 0 && js[b] >= 0)
						buf[k++] = lits[(size_t)is[a] * n + js[b]];
			r[(size_t)i * n + j] = sat_or(c->e->s, buf, k, pol);
		}
	return r;
}

/* a;b with n events */
static int *seq(mctx *c, const int *a, const int *b, int pol)
{
	int n = c->n;
	int *r = fresh_array((size_t)n * n);
	int *buf = xmalloc(((size_t)n + 1) * sizeof *buf);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++) {
			int m = 0;
			for (int j = 0; j < n; j++) {
				int x = a[(size_t)i * n + j], y = b[(size_t)j * n + k];
				if (x != SAT_FALSE && y != SAT_FALSE)
					buf[m++] = sat_and2(c->e->s, x, y, pol);
			}
			r[(size_t)i * n + k] = sat_or(c->e->s, buf, m, pol);
		}
	free(buf);
	return r;
}

/* r+ as an upper bound: X with r -> X and r;X -> X, variables only where
 * r's possible edges reach. */
static int *plus_up(mctx *c, const int *r)
{
	int n = c->n;
	size_t nn = (size_t)n * n;
	brel reach = brel_new(n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (r[(size_t)i * n + j] != SAT_FALSE)
				brel_add(&reach, i, j);
	brel_transitive_closure(&reach);
	int *x = fresh_array(nn);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (brel_has(&reach, i, j))
				x[(size_t)i * n + j] = r[(size_t)i * n + j] == SAT_TRUE ? SAT_TRUE : sat_var(c->e->s);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			int rij = r[(size_t)i * n + j];
			if (rij == SAT_FALSE)
				continue;
			sat_clause2(c->e->s, -rij, x[(size_t)i * n + j]);
			for (int k = 0; k < n; k++)
				if (x[(size_t)j * n + k] != SAT_FALSE)
					sat_clause3(c->e->s, -rij, -x[(size_t)j * n + k], x[(size_t)i * n + k]);
		}
	brel_free(&reach);
	return x;
}

static int *compile(mctx *c, int t)
{
	const cat_term *ct = &c->cs->terms[t];
	sat *s = c->e->s;
	int n = c->n, pol = c->pol[t];
	size_t k = term_size(c, t);
	const int *a = ct->a >= 0 ? c->lits[ct->a] : NULL, *b = ct->b >= 0 ? c->lits[ct->b] : NULL;
	int *r;
	if (brel_empty(&c->supp[t]))
		return fresh_array(k);
	switch (ct->kind) {
	case CT_CONST:
		r = fresh_array(k);
		for (int i = 0; i < n; i++) {
			if (ct->is_set) {
				r[i] = bset_has(&ct->set, i) ? SAT_TRUE : SAT_FALSE;
				continue;
			}
			for (int j = 0; j < n; j++)
				r[(size_t)i * n + j] = brel_has(&ct->rel, i, j) ? SAT_TRUE : SAT_FALSE;
		}
		return r;
	case CT_RF:
	case CT_CO:
	case CT_FR:
	case CT_FW: {
		const int *src = ct->kind == CT_RF ? c->e->rf : ct->kind == CT_CO ? c->e->co
		                 : ct->kind == CT_FR ? c->e->fr : c->e->fw_model;
		if (c->fused)
			return fuse(c, src, ct->is_set, pol);
		r = fresh_array(k);
		memcpy(r, src, k * sizeof *r);
		return r;
	}
	case CT_UNION:
	case CT_INTER:
	case CT_DIFF:
		r = fresh_array(k);
		for (size_t i = 0; i < k; i++)
			r[i] = ct->kind == CT_UNION ? sat_or2(s, a[i], b[i], pol)
			       : ct->kind == CT_INTER ? sat_and2(s, a[i], b[i], pol)
			                              : sat_and2(s, a[i], -b[i], pol);
		return r;
	case CT_SEQ:
		return seq(c, a, b, pol);
	case CT_PROD:
		r = fresh_array(k);
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				r[(size_t)i * n + j] = sat_and2(s, a[i], b[j], pol);
		return r;
	case CT_INV:
		r = fresh_array(k);
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				r[(size_t)i * n + j] = a[(size_t)j * n + i];
		return r;
	case CT_COMPL:
		r = fresh_array(k);
		for (size_t i = 0; i < k; i++)
			r[i] = -a[i];
		return r;
	case CT_TOID:
		r = fresh_array(k);
		for (int i = 0; i < n; i++)
			r[(size_t)i * n + i] = a[i];
		return r;
	case CT_DOMAIN:
	case CT_RANGE: {
		r = fresh_array(k);
		int *buf = xmalloc(((size_t)n + 1) * sizeof *buf);
		for (int i = 0; i < n; i++) {
			for (int j = 0; j < n; j++)
				buf[j] = ct->kind == CT_DOMAIN ? a[(size_t)i * n + j] : a[(size_t)j * n + i];
			r[i] = sat_or(s, buf, n, pol);
		}
		free(buf);
		return r;
	}
	case CT_OPT:
	case CT_STAR:
	case CT_PLUS:
		if (ct->kind == CT_OPT) {
			r = fresh_array(k);
			memcpy(r, a, k * sizeof *r);
		} else {
			r = pol == POL_UP ? plus_up(c, a) : bmc_closure(s, a, n, pol);
		}
		if (ct->kind != CT_PLUS)
			for (int i = 0; i < n; i++)
				r[(size_t)i * n + i] = SAT_TRUE;
		return r;
	case CT_REC:
		/* made before, when its group's first member came up */
		return NULL;
	case CT_CHOICE: case CT_DIFFVAL:
		/* a compiled check's own terms: cat_model_symbolic never makes them */
		return NULL;
	}
	return NULL;
}

/* A literal implying that check ch's test holds (want) or fails (!want). */
static int test_lit(mctx *c, const cat_sym_check *ch, bool want, int guard)
{
	sat *s = c->e->s;
	int n = c->n;
	const int *r = c->lits[ch->term];
	bool is_set = c->cs->terms[ch->term].is_set;
	size_t k = term_size(c, ch->term);
	if (want) {
		/* r is an upper bound: guard -> test holds */
		if (ch->test == 0)
			bmc_acyclic(s, r, n, guard);
		else if (ch->test == 1)
			for (int i = 0; i < n; i++)
				sat_clause2(s, -guard, -r[(size_t)i * n + i]);
		else
			for (size_t i = 0; i < k; i++)
				sat_clause2(s, -guard, -r[i]);
		return guard;
	}
	/* r is a lower bound: the literal -> the test fails */
	if (ch->test == 0)
		return bmc_has_cycle(s, r, n);
	int *buf = xmalloc((k + 1) * sizeof *buf);
	int m = 0;
	if (ch->test == 1 && !is_set)
		for (int i = 0; i < n; i++)
			buf[m++] = r[(size_t)i * n + i];
	else
		for (size_t i = 0; i < k; i++)
			buf[m++] = r[i];
	int g = sat_or(s, buf, m, POL_DOWN);
	free(buf);
	return g;
}

/* The test's truth value a check wants: a required check its holding
 * (holds = truth xor negated), a flag its firing. */
static bool wanted_truth(const cat_sym_check *ch)
{
	bool fire_on_holds = !ch->undefined_unless;
	return ch->flag || ch->undefined_unless ? fire_on_holds != ch->negated : !ch->negated;
}

bool bmc_model_encode(bmc_enc *e, const cat_symbolic *cs, int *flag_lit, diag *d)
{
	mctx c = { 0 };
	c.e = e;
	c.cs = cs;
	c.n = e->n;
	c.d = d;
	c.pol = xcalloc((size_t)cs->n_terms + 1, sizeof *c.pol);
	c.lits = xcalloc((size_t)cs->n_terms + 1, sizeof *c.lits);
	for (int i = 0; i < cs->n_checks; i++) {
		const cat_sym_check *ch = &cs->checks[i];
		if (ch->term >= 0)
			need(&c, ch->term, wanted_truth(ch) ? POL_UP : POL_DOWN);
	}
	find_partners(&c);
	supports(&c);
	bool ok = propagate(&c);
	/* the checks are required under model_on, assumed in every counted
	 * solve: -explain leaves it out to reach a forbidden execution */
	e->model_on = sat_var(e->s);
	if (ok) {
		for (int t = 0; t < cs->n_terms; t++)
			if (cs->terms[t].kind == CT_REC && c.pol[t]) {
				size_t k = term_size(&c, t);
				c.lits[t] = fresh_array(k);
				for (int i = 0; i < c.n; i++)
					for (int j = 0; j < c.n; j++)
						if (brel_has(&c.supp[t], i, j))
							c.lits[t][(size_t)i * c.n + j] = sat_var(e->s);
			}
		/* only what some check needs */
		for (int t = 0; t < cs->n_terms; t++)
			if (cs->terms[t].kind != CT_REC && c.pol[t])
				c.lits[t] = compile(&c, t);
		/* each rec member contains what its definition gives it */
		for (int t = 0; t < cs->n_terms; t++)
			if (cs->terms[t].kind == CT_REC && c.pol[t]) {
				const int *def = c.lits[cs->terms[t].a];
				if (!def)
					continue; /* always empty */
				for (size_t i = 0; i < term_size(&c, t); i++)
					sat_clause2(e->s, -def[i], c.lits[t][i]);
			}
		for (int i = 0; i < cs->n_checks; i++) {
			const cat_sym_check *ch = &cs->checks[i];
			flag_lit[i] = 0;
			bool is_flag = ch->flag || ch->undefined_unless;
			if (ch->term < 0) {
				if (is_flag)
					flag_lit[i] = ch->const_holds ? SAT_TRUE : 0;
				else if (!ch->const_holds)
					sat_clause1(e->s, -e->model_on);
				continue;
			}
			bool want = wanted_truth(ch);
			if (!is_flag) {
				int g = test_lit(&c, ch, want, e->model_on);
				if (!want)
					sat_clause2(e->s, -e->model_on, g);
			} else {
				flag_lit[i] = test_lit(&c, ch, want, want ? sat_var(e->s) : SAT_TRUE);
			}
		}
	}
	for (int t = 0; t < cs->n_terms; t++) {
		free(c.lits[t]);
		brel_free(&c.supp[t]);
	}
	free(c.supp);
	free(c.lits);
	free(c.partner);
	free(c.pol);
	return ok;
}
