/* parse_cond.c — what follows the thread table:
 *
 *     locations [x; 0:r1; y*;]         optional; `*` or a type name after
 *                                      an item is accepted and ignored
 *     filter PROP                      optional
 *     exists PROP | ~exists PROP | forall PROP | final PROP | (PROP)
 *     | observed A; A; ... and A; ...   herd's old form: exists of the
 *                                      groups (split by `and`), each the
 *                                      conjunction of its `;`-ended atoms
 *     [;] [with NAME: exists|~exists|forall; ...]   kinds, ignored
 *     << ... >>                        anything from `<<` on is ignored
 *
 * PROP, with herd's precedences (loosest first): `\/`, `/\`, `=>` (right
 * associative), then `~`/`not`:
 *     true | false | (PROP) | ~PROP | not PROP | LVAL = V | LVAL == V
 *     | LVAL <> V | LVAL != V | ARRAY = {V, ...} | ARRAY <> {V, ...}
 * where LVAL is `T:reg`, `PT:reg`, `%sym`, `x`, `[x]` or an array's cell
 * `v[i]`, ARRAY an array named whole, and V an integer, a location name
 * (its address) or `x[N]` (x's address plus N).  `locations` takes
 * cells and whole arrays too.
 */
#include <stdlib.h>
#include <string.h>

#include "parser.h"

typedef struct cparse {
	parser *p;
	token tok;   /* current token */
	int atoms;
	int nest;    /* current nesting of (), ~ and => */
} cparse;

static bool is_keyword(const token *t)
{
	static const char *const words[] = {
		"exists", "forall", "final", "filter", "locations", "with", "not", "true", "false",
		"observed", "Observed", "cases",
	};
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (tok_is(t, words[i]))
			return true;
	return false;
}

static void advance(cparse *cp) { cp->tok = parser_next(cp->p); }

static cond *mk(enum cond_kind kind, cond *l, cond *r, srcloc at)
{
	cond *c = xcalloc(1, sizeof *c);
	c->kind = kind;
	c->l = l;
	c->r = r;
	c->loc = at;
	c->lhs.thread = -1;
	c->lhs.reg = -1;
	c->lhs.loc = -1;
	c->rhs = value_int(0);
	return c;
}

static cond *prop_or(cparse *cp, int depth);

/* `{v0, v1, ...}` after its `{`: the values, *n of them (owned). */
static value *vector_values(parser *p, int *n)
{
	value *vals = NULL;
	size_t cap = 0;
	*n = 0;
	for (;;) {
		token vt = parser_next(p);
		if (*n >= LITMUS_MAX_LOCS) {
			diag_error(p->d, vt.loc, "vector too long (at most %d values)", LITMUS_MAX_LOCS);
			break;
		}
		GROW(vals, cap, (size_t)*n + 1);
		if (!parser_value(p, &vt, &vals[(*n)++]))
			break;
		token sep = parser_next(p);
		if (sep.kind == T_RBRACE)
			return vals;
		if (sep.kind != T_COMMA) {
			parser_expected(p, &sep, "',' or '}' in a vector");
			break;
		}
	}
	free(vals);
	return NULL;
}

/* herd's atom on the whole array lv (LVAL_WHOLE) compared by `op` with
 * what starts at vt: a vector `{1,2}`, equal when it has the array's size
 * and each cell its value, or a value, which no array equals (prog.h's
 * cond.array_atom says how the atom is kept). */
static cond *array_atom(cparse *cp, lval lv, token op, token vt)
{
	parser *p = cp->p;
	const litmus_test *t = p->t;
	int base = t->locs[lv.loc].array;
	int n_cells = t->locs[base].n_cells, nv = -1;
	value *vals = NULL, scalar = value_int(0);
	if (vt.kind == T_LBRACE) {
		if (!(vals = vector_values(p, &nv)))
			return NULL;
	} else if (vt.kind == T_PROC || (vt.kind == T_NUM && p->c.p[0] == ':')) {
		diag_error(p->d, vt.loc, "an array compared with a register is not supported");
		return NULL;
	} else if (!parser_value(p, &vt, &scalar)) {
		return NULL;
	}
	advance(cp);
	bool match = nv == n_cells;
	cond *all = NULL;
	for (int i = 0; i < n_cells; i++) {
		int cell = base;
		prog_array_cell(t, base, (int64_t)i * t->locs[base].cell_bytes, 0, &cell);
		cond *a = mk(COND_EQ, NULL, NULL, vt.loc);
		a->lhs = lval_mem(cell, LVAL_WHOLE);
		if (match) {
			a->rhs = vals[i];
		} else {   /* the cell with itself: true, but observed */
			a->rhs_is_lval = true;
			a->rhs_lval = a->lhs;
		}
		all = all ? mk(COND_AND, all, a, vt.loc) : a;
	}
	if (!match)
		all = mk(COND_AND, all, mk(COND_FALSE, NULL, NULL, vt.loc), vt.loc);
	all->array_atom = true;
	all->arr_loc = base;
	all->n_arr_vals = nv;
	all->arr_vals = vals;
	if (nv < 0)
		all->rhs = scalar;
	return op.kind == T_EQ ? all : mk(COND_NOT, all, NULL, op.loc);
}

static cond *prop_atom(cparse *cp)
{
	parser *p = cp->p;
	if (++cp->atoms > LITMUS_MAX_ITEMS) {
		diag_error(p->d, cp->tok.loc, "condition too large (at most %d atoms)",
			   LITMUS_MAX_ITEMS);
		return NULL;
	}
	lval_syntax ls;
	token op;
	if (cp->tok.kind == T_NAME && tok_is(&cp->tok, "fault") && *p->c.p == '(') {
		cond *c = mk(COND_FAULT, NULL, NULL, cp->tok.loc);
		if (!parse_fault_atom(p, cp->tok, c, &cp->tok)) {
			cond_free(c);
			return NULL;
		}
		return c;
	}
	if (!parse_lval_syntax(p, cp->tok, &ls, &op) || !parse_cell_index(p, &ls, &op))
		return NULL;
	if (op.kind != T_EQ && op.kind != T_NE) {
		parser_expected(p, &op, "'=' or '<>' after a location");
		return NULL;
	}
	token vt = parser_next(p);
	value iv;
	int is_instr = parser_ifetch_value(p, &vt, false, &iv, NULL);
	if (is_instr < 0)
		return NULL;
	lval lv;
	if (!resolve_lval(p, &ls, &lv))
		return NULL;
	if (lv.thread < 0 && lv.reg == LVAL_WHOLE)
		return is_instr ? NULL : array_atom(cp, lv, op, vt);
	if (vt.kind == T_PROC || (vt.kind == T_NUM && p->c.p[0] == ':')) {
		/* herd's `0:r1=1:r2`: two final values compared */
		lval_syntax rs;
		token next;
		lval rv;
		if (!parse_lval_syntax(p, vt, &rs, &next) || !resolve_lval(p, &rs, &rv))
			return NULL;
		cond *c = mk(op.kind == T_EQ ? COND_EQ : COND_NE, NULL, NULL, ls.loc);
		c->lhs = lv;
		c->rhs_is_lval = true;
		c->rhs_lval = rv;
		if (ls.kind == LV_REG)
			c->lhs_name = xstrndup(ls.name.start, ls.name.len);
		if (rs.kind == LV_REG)
			c->rhs_name = xstrndup(rs.name.start, rs.name.len);
		cp->tok = next;
		return c;
	}
	value v = iv;
	if (!is_instr && !parser_value(p, &vt, &v))
		return NULL;
	cond *c = mk(op.kind == T_EQ ? COND_EQ : COND_NE, NULL, NULL, ls.loc);
	c->lhs = lv;
	c->rhs = v;
	if (ls.kind == LV_REG)
		c->lhs_name = xstrndup(ls.name.start, ls.name.len);
	advance(cp);
	return c;
}

static cond *prop_unary(cparse *cp, int depth)
{
	parser *p = cp->p;
	token t = cp->tok;
	if (depth > LITMUS_MAX_DEPTH || cp->nest > LITMUS_MAX_NEST) {
		diag_error(p->d, t.loc, "condition nested too deeply");
		return NULL;
	}
	if (t.kind == T_NOT || tok_is(&t, "not")) {
		advance(cp);
		cp->nest++;
		cond *l = prop_unary(cp, depth + 1);
		cp->nest--;
		return l ? mk(COND_NOT, l, NULL, t.loc) : NULL;
	}
	if (tok_is(&t, "true") || tok_is(&t, "false")) {
		advance(cp);
		return mk(tok_is(&t, "true") ? COND_TRUE : COND_FALSE, NULL, NULL, t.loc);
	}
	if (t.kind == T_LPAR) {
		advance(cp);
		cp->nest++;
		cond *c = prop_or(cp, depth + 1);
		cp->nest--;
		if (!c)
			return NULL;
		if (cp->tok.kind != T_RPAR) {
			parser_expected(p, &cp->tok, "')'");
			cond_free(c);
			return NULL;
		}
		advance(cp);
		return c;
	}
	return prop_atom(cp);
}

static cond *prop_implies(cparse *cp, int depth)
{
	cond *l = prop_unary(cp, depth);
	if (!l || cp->tok.kind != T_IMPLIES)
		return l;
	srcloc at = cp->tok.loc;
	advance(cp);
	cp->nest++;
	cond *r = prop_implies(cp, depth + 1);
	cp->nest--;
	if (!r) {
		cond_free(l);
		return NULL;
	}
	return mk(COND_IMPLIES, l, r, at);
}

/* A left-associative chain of `op`; the chain's length counts as depth,
 * since the tree it builds is that deep. */
static cond *prop_chain(cparse *cp, int depth, enum tok_kind op, enum cond_kind kind,
			cond *(*sub)(cparse *, int))
{
	cond *l = sub(cp, depth);
	while (l && cp->tok.kind == op) {
		srcloc at = cp->tok.loc;
		if (++depth > LITMUS_MAX_DEPTH) {
			diag_error(cp->p->d, at, "condition nested too deeply");
			cond_free(l);
			return NULL;
		}
		advance(cp);
		cond *r = sub(cp, depth);
		if (!r) {
			cond_free(l);
			return NULL;
		}
		l = mk(kind, l, r, at);
	}
	return l;
}

static cond *prop_and(cparse *cp, int depth)
{
	return prop_chain(cp, depth, T_AND, COND_AND, prop_implies);
}

static cond *prop_or(cparse *cp, int depth)
{
	return prop_chain(cp, depth, T_OR, COND_OR, prop_and);
}

/* herd's `observed A1; A2; and B1; ...`: exists (A1 /\ A2 \/ B1 /\ ...),
 * a group without atoms being true.  Both chains are left-leaning, as
 * prop_chain builds them, and their length counts against the depth. */
static cond *observed_groups(cparse *cp)
{
	parser *p = cp->p;
	cond *any = NULL;
	int depth = 0;
	for (;;) {
		cond *all = NULL;
		srcloc at = cp->tok.loc;
		while (cp->tok.kind != T_EOF && !tok_is(&cp->tok, "and") && !tok_is(&cp->tok, "with")) {
			if (++depth > LITMUS_MAX_DEPTH) {
				diag_error(p->d, cp->tok.loc, "condition nested too deeply");
				goto fail;
			}
			srcloc atom_at = cp->tok.loc;
			cond *a = prop_atom(cp);
			if (!a)
				goto fail;
			all = all ? mk(COND_AND, all, a, atom_at) : a;
			if (cp->tok.kind != T_SEMI) {
				parser_expected(p, &cp->tok, "';' after each atom of an 'observed' condition");
				cond_free(all);
				goto fail;
			}
			advance(cp);
		}
		if (!all)
			all = mk(COND_TRUE, NULL, NULL, at);
		any = any ? mk(COND_OR, any, all, at) : all;
		if (!tok_is(&cp->tok, "and"))
			return any;
		advance(cp);
	}
fail:
	cond_free(any);
	return NULL;
}

/* `locations [item; item; ...]`, cp->tok is the `[`. */
static bool locations_list(cparse *cp)
{
	parser *p = cp->p;
	litmus_test *t = p->t;
	if (cp->tok.kind != T_LBRK) {
		parser_expected(p, &cp->tok, "'[' after 'locations'");
		return false;
	}
	advance(cp);
	while (cp->tok.kind != T_RBRK) {
		if (t->n_observed >= LITMUS_MAX_ITEMS) {
			diag_error(p->d, cp->tok.loc, "too many locations in 'locations [...]'");
			return false;
		}
		if (cp->tok.kind == T_NAME && tok_is(&cp->tok, "fault") && *p->c.p == '(') {
			/* herd's vmsa: a fault atom observed in every state */
			diag_error(p->d, cp->tok.loc, "fault(...) in 'locations [...]' is not supported");
			return false;
		}
		lval_syntax ls;
		token next;
		lval lv;
		if (!parse_lval_syntax(p, cp->tok, &ls, &next) || !parse_cell_index(p, &ls, &next) ||
		    !resolve_lval(p, &ls, &lv))
			return false;
		if (lv.thread < 0 && lv.reg == LVAL_WHOLE) {
			/* an array: each of its cells, shown together */
			const location *base = &t->locs[t->locs[lv.loc].array];
			for (int i = 0; i < base->n_cells; i++) {
				int cell = lv.loc;
				prog_array_cell(t, lv.loc, (int64_t)i * base->cell_bytes, 0, &cell);
				GROW(t->observed, p->observed_cap, (size_t)t->n_observed + 1);
				t->observed[t->n_observed++] = lval_mem(cell, LVAL_WHOLE);
			}
		} else {
			GROW(t->observed, p->observed_cap, (size_t)t->n_observed + 1);
			t->observed[t->n_observed++] = lv;
		}
		/* herd's type annotations: `x*`, `x int`, `x int*` (a keyword
		 * there means the list was not closed) */
		if (next.kind == T_NAME && !is_keyword(&next))
			next = parser_next(p);
		if (next.kind == T_STAR)
			next = parser_next(p);
		if (next.kind == T_SEMI) {
			advance(cp);
		} else if (next.kind == T_RBRK) {
			cp->tok = next;
		} else {
			parser_expected(p, &next, "';' or ']' in 'locations [...]'");
			return false;
		}
	}
	advance(cp);
	return true;
}

/* The `with` kinds of the old syntax: `tso: ~exists; cc: exists; ...`. */
static bool kinds(cparse *cp)
{
	parser *p = cp->p;
	do {
		if (cp->tok.kind != T_NAME) {
			parser_expected(p, &cp->tok, "a kind 'NAME: exists' after 'with'");
			return false;
		}
		advance(cp);
		if (cp->tok.kind != T_COLON) {
			parser_expected(p, &cp->tok, "':' in a kind 'NAME: exists'");
			return false;
		}
		advance(cp);
		if (cp->tok.kind == T_NOT)
			advance(cp);
		if (!tok_is(&cp->tok, "exists") && !tok_is(&cp->tok, "forall")) {
			parser_expected(p, &cp->tok, "'exists', '~exists' or 'forall'");
			return false;
		}
		advance(cp);
		if (cp->tok.kind == T_SEMI)
			advance(cp);
	} while (cp->tok.kind == T_NAME);
	return true;
}

bool parse_constraints(parser *p)
{
	litmus_test *t = p->t;
	cparse cp = { p, parser_next(p), 0, 0 };
	if (tok_is(&cp.tok, "locations")) {
		advance(&cp);
		if (!locations_list(&cp))
			return false;
	}
	if (tok_is(&cp.tok, "filter")) {
		advance(&cp);
		cp.atoms = 0;
		t->filter = prop_or(&cp, 0);
		if (!t->filter)
			return false;
	}
	token q = cp.tok;
	if (tok_is(&q, "exists")) {
		t->quant = Q_EXISTS;
		advance(&cp);
	} else if (q.kind == T_NOT) {
		advance(&cp);
		if (!tok_is(&cp.tok, "exists")) {
			parser_expected(p, &cp.tok, "'exists' after '~'");
			return false;
		}
		t->quant = Q_NOT_EXISTS;
		advance(&cp);
	} else if (tok_is(&q, "forall")) {
		t->quant = Q_FORALL;
		advance(&cp);
	} else if (tok_is(&q, "final")) {
		t->quant = Q_EXISTS;
		t->old_final = true;
		advance(&cp);
	} else if (q.kind == T_LPAR) {
		t->quant = Q_EXISTS; /* herd reads a bare `(prop)` as exists */
	} else if (q.kind == T_EOF) {
		/* herd reads a test without a condition as `forall true`: its
		 * block lists the states of the locations list */
		t->quant = Q_FORALL;
		t->cond = xcalloc(1, sizeof *t->cond);
		t->cond->kind = COND_TRUE;
		t->cond->loc = q.loc;
		return true;
	} else if (tok_is(&q, "observed") || tok_is(&q, "Observed")) {
		t->quant = Q_EXISTS;
		advance(&cp);
		cp.atoms = 0;
		if (!(t->cond = observed_groups(&cp)))
			return false;
	} else if (tok_is(&q, "cases")) {
		diag_error(p->d, q.loc, "'%.*s' conditions are not supported", (int)q.len, q.start);
		return false;
	} else {
		parser_expected(p, &q, "a final condition ('exists', '~exists', 'forall' or 'final')");
		return false;
	}
	cp.atoms = 0;
	if (!t->cond && !(t->cond = prop_or(&cp, 0)))
		return false;
	if (cp.tok.kind == T_SEMI)
		advance(&cp);
	if (tok_is(&cp.tok, "with")) {
		advance(&cp);
		if (!kinds(&cp))
			return false;
	}
	if (cp.tok.kind != T_EOF) {
		parser_expected(p, &cp.tok, "end of the test after the final condition");
		return false;
	}
	return true;
}
