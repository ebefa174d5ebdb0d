/* cat_parse.c — recursive-descent parser for herd's cat language.
 *
 * Grammar and precedences follow herd7's model parser.  Expression operators,
 * loosest to tightest:
 *     e1, e2          tuple (only at the top of an expression)
 *     |               union            (right, n-ary)
 *     ++              add to a set     (right)
 *     ;               sequence         (right, n-ary)
 *     \               difference       (left)
 *     &               intersection     (right)
 *     *               cartesian product
 *     ~e              complement
 *     e* e+ e? e^-1   postfix closures and inverse
 *     f x, f(x,y)     application (the function is a name)
 * A '*' is the binary product when the next token can start an operand, and
 * the postfix closure otherwise, which is how herd's grammar resolves it.
 * Every error is reported as file:line:col and stops the parse.
 */
#include <stdlib.h>
#include <string.h>

#include "cat_ast.h"
#include "cat_lex.h"

typedef struct parser {
	const char *src;
	cat_tokens ts;
	int pos;
	diag *d;
	bool failed;
	const char *path;  /* owned by the cat_file being built */
	int depth;         /* nesting of expressions, bounded to protect the stack */
} parser;


/* ---- helpers ---------------------------------------------------------------- */

static const cat_token *peek(const parser *p) { return &p->ts.t[p->pos]; }
static const cat_token *peek_at(const parser *p, int k)
{
	int i = p->pos + k;
	return &p->ts.t[i < p->ts.n ? i : p->ts.n - 1];
}
static enum cat_tok kind(const parser *p) { return peek(p)->kind; }
static enum cat_tok kind_at(const parser *p, int k) { return peek_at(p, k)->kind; }
static const cat_token *next(parser *p)
{
	const cat_token *t = peek(p);
	if (p->pos < p->ts.n - 1)
		p->pos++;
	return t;
}

static void describe(const cat_token *t, char *buf, size_t cap)
{
	if (t->kind == T_VAR)
		snprintf(buf, cap, "name '%.*s'", (int)t->len, t->text);
	else if (t->kind == T_TAG)
		snprintf(buf, cap, "tag '%.*s", (int)t->len, t->text);
	else if (t->kind == T_STRING)
		snprintf(buf, cap, "string \"%.*s\"", (int)t->len, t->text);
	else
		snprintf(buf, cap, "%s", cat_tok_name(t->kind));
}

static void error_at(parser *p, const cat_token *t, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void error_at(parser *p, const cat_token *t, const char *fmt, ...)
{
	if (p->failed)
		return;
	p->failed = true;
	va_list ap;
	va_start(ap, fmt);
	diag_verror(p->d, t->loc, fmt, ap);
	va_end(ap);
}

static void expected(parser *p, const char *what)
{
	char buf[96];
	describe(peek(p), buf, sizeof buf);
	error_at(p, peek(p), "expected %s, found %s", what, buf);
}

static bool accept(parser *p, enum cat_tok k)
{
	if (kind(p) == k) {
		next(p);
		return true;
	}
	return false;
}

static bool expect(parser *p, enum cat_tok k, const char *what)
{
	if (accept(p, k))
		return true;
	expected(p, what);
	return false;
}

static char *tok_str(const cat_token *t) { return xstrndup(t->text, t->len); }

static bool deeper(parser *p)
{
	if (++p->depth > CAT_MAX_NESTING) {
		error_at(p, peek(p), "expression nested too deeply (more than %d levels)", CAT_MAX_NESTING);
		return false;
	}
	return true;
}

static srcloc loc_of(const parser *p) { return peek(p)->loc; }

/* ---- tree building ----------------------------------------------------------- */

static cat_ex *mk(enum cat_ex_kind k, srcloc loc)
{
	cat_ex *e = xcalloc(1, sizeof *e);
	e->kind = k;
	e->loc = loc;
	e->index = -1;
	return e;
}

static void add_kid(cat_ex *e, cat_ex *kid)
{
	e->kids = xrealloc(e->kids, (size_t)(e->n + 1) * sizeof *e->kids);
	e->kids[e->n++] = kid;
}

static cat_ex *mk1(enum cat_ex_kind k, srcloc loc, cat_ex *a)
{
	cat_ex *e = mk(k, loc);
	add_kid(e, a);
	return e;
}

static cat_ex *mk2(enum cat_ex_kind k, srcloc loc, cat_ex *a, cat_ex *b)
{
	cat_ex *e = mk1(k, loc, a);
	add_kid(e, b);
	return e;
}

/* n-ary union and sequence are flattened: a | (b | c) is one node. */
static cat_ex *mk_nary(enum cat_ex_kind k, srcloc loc, cat_ex *a, cat_ex *b)
{
	cat_ex *e = mk(k, loc);
	cat_ex *parts[2] = { a, b };
	for (int i = 0; i < 2; i++) {
		if (parts[i]->kind == k) {
			for (int j = 0; j < parts[i]->n; j++)
				add_kid(e, parts[i]->kids[j]);
			free(parts[i]->kids);
			free(parts[i]);
		} else {
			add_kid(e, parts[i]);
		}
	}
	return e;
}

static void pat_add(cat_pat *pt, char *name)
{
	pt->names = xrealloc(pt->names, (size_t)(pt->n + 1) * sizeof *pt->names);
	pt->names[pt->n++] = name;
}

static void ins_list_add(cat_ins_list *l, cat_ins *in)
{
	l->v = xrealloc(l->v, (size_t)(l->n + 1) * sizeof *l->v);
	l->v[l->n++] = in;
}

/* ---- expressions -------------------------------------------------------------- */

static cat_ex *parse_exp(parser *p);
static cat_ex *parse_base(parser *p);
static cat_cond *parse_cond(parser *p);

static bool starts_operand(enum cat_tok k)
{
	switch (k) {
	case T_VAR: case T_ZERO: case T_TAG: case T_LBRACE: case T_UNDERSCORE:
	case T_LPAR: case T_BEGIN: case T_LBRACK: case T_TILDE:
		return true;
	default:
		return false;
	}
}

/* simple: 0 | 'tag | {args} | _ | () | (exp) | begin exp end | [exp] */
static cat_ex *parse_simple(parser *p)
{
	const cat_token *t = peek(p);
	srcloc loc = t->loc;
	switch (t->kind) {
	case T_ZERO:
		next(p);
		return mk(CE_EMPTY_REL, loc);
	case T_TAG: {
		next(p);
		cat_ex *e = mk(CE_TAG, loc);
		e->name = tok_str(t);
		return e;
	}
	case T_UNDERSCORE:
		next(p);
		return mk(CE_UNIV, loc);
	case T_LBRACE: {
		next(p);
		if (accept(p, T_RBRACE))
			return mk(CE_EMPTY, loc);
		cat_ex *e = mk(CE_SET, loc);
		do {
			cat_ex *k = parse_base(p);
			if (!k) {
				cat_ex_free(e);
				return NULL;
			}
			add_kid(e, k);
		} while (accept(p, T_COMMA));
		if (!expect(p, T_RBRACE, "',' or '}' in a set")) {
			cat_ex_free(e);
			return NULL;
		}
		return e;
	}
	case T_LPAR: {
		next(p);
		if (accept(p, T_RPAR))
			return mk(CE_TUPLE, loc);
		cat_ex *e = parse_exp(p);
		if (e && !expect(p, T_RPAR, "')'")) {
			cat_ex_free(e);
			return NULL;
		}
		return e;
	}
	case T_BEGIN: {
		next(p);
		cat_ex *e = parse_exp(p);
		if (e && !expect(p, T_END, "'end' closing 'begin'")) {
			cat_ex_free(e);
			return NULL;
		}
		return e;
	}
	case T_LBRACK: {
		next(p);
		cat_ex *e = parse_exp(p);
		if (!e)
			return NULL;
		if (!expect(p, T_RBRACK, "']'")) {
			cat_ex_free(e);
			return NULL;
		}
		return mk1(CE_TOID, loc, e);
	}
	default:
		expected(p, "an expression");
		return NULL;
	}
}

static cat_ex *parse_var(parser *p)
{
	const cat_token *t = next(p);
	cat_ex *e = mk(CE_VAR, t->loc);
	e->name = tok_str(t);
	return e;
}

/* application: name arg*, arg = name | simple (left associative) */
static cat_ex *parse_app(parser *p)
{
	if (kind(p) != T_VAR)
		return parse_simple(p);
	int saved = p->depth;
	cat_ex *f = parse_var(p);
	for (;;) {
		enum cat_tok k = kind(p);
		cat_ex *arg;
		if (k == T_VAR)
			arg = parse_var(p);
		else if (k == T_ZERO || k == T_TAG || k == T_LBRACE || k == T_UNDERSCORE ||
		         k == T_LPAR || k == T_BEGIN || k == T_LBRACK)
			arg = deeper(p) ? parse_simple(p) : NULL;
		else
			break;
		if (!arg) {
			cat_ex_free(f);
			f = NULL;
			break;
		}
		f = mk2(CE_APP, f->loc, f, arg);
	}
	p->depth = saved;
	return f;
}

/* Postfix operators on e; false (e freed) on a malformed '^'. */
static bool parse_postfix_ops(parser *p, cat_ex **e)
{
	for (;;) {
		enum cat_tok k = kind(p);
		srcloc loc = loc_of(p);
		enum cat_ex_kind op;
		if (k == T_STAR && !starts_operand(kind_at(p, 1)))
			op = CE_STAR;
		else if (k == T_PLUS)
			op = CE_PLUS;
		else if (k == T_QUESTION)
			op = CE_OPT;
		else if (k == T_HAT)
			op = CE_INV;
		else
			return true;
		next(p);
		if ((op == CE_INV && !expect(p, T_INV, "'-1' after '^'")) || !deeper(p)) {
			cat_ex_free(*e);
			*e = NULL;
			return false;
		}
		*e = mk1(op, loc, *e);
	}
}

static cat_ex *parse_postfix(parser *p)
{
	int saved = p->depth;
	cat_ex *e = parse_app(p);
	if (e)
		parse_postfix_ops(p, &e);
	p->depth = saved;
	return e;
}

static cat_ex *parse_unary(parser *p)
{
	if (kind(p) == T_TILDE) {
		srcloc loc = loc_of(p);
		int saved = p->depth;
		next(p);
		cat_ex *e = deeper(p) ? parse_unary(p) : NULL;
		p->depth = saved;
		return e ? mk1(CE_COMPL, loc, e) : NULL;
	}
	return parse_postfix(p);
}

/* A chain of one binary operator: the operands are parsed by `operand`;
 * `right` builds a right-nested tree, else a left-nested one.  Each
 * operator of the chain is a level of nesting. */
static cat_ex *parse_chain(parser *p, enum cat_tok tok, enum cat_ex_kind kind_, bool right,
                           cat_ex *(*operand)(parser *))
{
	int saved = p->depth;
	cat_ex *first = operand(p);
	if (!first)
		return NULL;
	int n = 1;
	size_t cap = 0;
	cat_ex **ops = NULL;
	srcloc *locs = NULL;
	size_t lcap = 0;
	GROW(ops, cap, 1);
	ops[0] = first;
	while (kind(p) == tok && (tok != T_STAR || starts_operand(kind_at(p, 1)))) {
		GROW(locs, lcap, (size_t)n);
		locs[n - 1] = loc_of(p);
		next(p);
		cat_ex *r = deeper(p) ? operand(p) : NULL;
		if (!r) {
			for (int i = 0; i < n; i++)
				cat_ex_free(ops[i]);
			free(ops);
			free(locs);
			p->depth = saved;
			return NULL;
		}
		GROW(ops, cap, (size_t)n + 1);
		ops[n++] = r;
		/* A postfix after a product applies to the product, as in herd. */
		if (tok == T_STAR) {
			cat_ex *prod = mk2(kind_, locs[n - 2], ops[n - 2], ops[n - 1]);
			n--;
			ops[n - 1] = prod;
			if (!parse_postfix_ops(p, &ops[n - 1])) {
				for (int i = 0; i < n - 1; i++)
					cat_ex_free(ops[i]);
				free(ops);
				free(locs);
				p->depth = saved;
				return NULL;
			}
		}
	}
	cat_ex *e;
	if (kind_ == CE_UNION || kind_ == CE_SEQ) {
		/* n-ary: one flat node. */
		/* One flat node; operands of the same operator (written in
		 * parentheses) are spliced in, as herd does. */
		e = ops[0];
		for (int i = 1; i < n; i++)
			e = mk_nary(kind_, locs[i - 1], e, ops[i]);
	} else if (right) {
		e = ops[n - 1];
		for (int i = n - 2; i >= 0; i--)
			e = mk2(kind_, locs[i], ops[i], e);
	} else {
		e = ops[0];
		for (int i = 1; i < n; i++)
			e = mk2(kind_, locs[i - 1], e, ops[i]);
	}
	free(ops);
	free(locs);
	p->depth = saved;
	return e;
}

static cat_ex *parse_product(parser *p) { return parse_chain(p, T_STAR, CE_PROD, false, parse_unary); }
static cat_ex *parse_inter(parser *p) { return parse_chain(p, T_AMP, CE_INTER, true, parse_product); }
static cat_ex *parse_diff(parser *p) { return parse_chain(p, T_BACKSLASH, CE_DIFF, false, parse_inter); }
static cat_ex *parse_seq(parser *p) { return parse_chain(p, T_SEMI, CE_SEQ, true, parse_diff); }
static cat_ex *parse_add(parser *p) { return parse_chain(p, T_PLUSPLUS, CE_ADD, true, parse_seq); }
static cat_ex *parse_base(parser *p) { return parse_chain(p, T_BAR, CE_UNION, true, parse_add); }

/* pat0: name | _  (the wildcard gives a NULL name) */
static bool parse_pat0(parser *p, char **out)
{
	if (kind(p) == T_VAR) {
		*out = tok_str(next(p));
		return true;
	}
	if (accept(p, T_UNDERSCORE)) {
		*out = NULL;
		return true;
	}
	expected(p, "a name or '_'");
	return false;
}

/* formals: empty | pat0 (, pat0)*, up to and excluding ')' */
static bool parse_formals(parser *p, cat_pat *pt)
{
	pt->tuple = true;
	if (kind(p) == T_RPAR)
		return true;
	do {
		char *name;
		if (!parse_pat0(p, &name))
			return false;
		pat_add(pt, name);
	} while (accept(p, T_COMMA));
	return true;
}

/* herd's tuple_pat: a one-element tuple pattern is a plain binder. */
static void untuple_single(cat_pat *pt)
{
	if (pt->tuple && pt->n == 1)
		pt->tuple = false;
}

static bool parse_binds(parser *p, cat_bind **out, int *nout);

static cat_ex *parse_fun_body(parser *p, srcloc loc, cat_pat *pt, const char *name, enum cat_tok arrow_or_eq)
{
	if (!expect(p, arrow_or_eq, arrow_or_eq == T_ARROW ? "'->'" : "'='")) {
		cat_pat_free(pt);
		return NULL;
	}
	cat_ex *body = parse_exp(p);
	if (!body) {
		cat_pat_free(pt);
		return NULL;
	}
	cat_ex *f = mk1(CE_FUN, loc, body);
	f->pat = *pt;
	f->name = xstrdup(name);
	return f;
}

/* One binding of a let. */
static bool parse_bind(parser *p, cat_bind *b)
{
	memset(b, 0, sizeof *b);
	b->loc = loc_of(p);
	b->slot = -1;
	if (kind(p) == T_LPAR) { /* (a, b) = e */
		next(p);
		if (!parse_formals(p, &b->pat) || !expect(p, T_RPAR, "')'"))
			return false;
		untuple_single(&b->pat);
		if (!expect(p, T_EQUAL, "'='"))
			return false;
		b->e = parse_exp(p);
		return b->e != NULL;
	}
	if (kind(p) != T_VAR) {
		expected(p, "a name to bind");
		return false;
	}
	enum cat_tok k1 = kind_at(p, 1);
	if (k1 == T_EQUAL) { /* x = e */
		pat_add(&b->pat, tok_str(next(p)));
		next(p);
		b->e = parse_exp(p);
		return b->e != NULL;
	}
	if (k1 == T_COMMA) { /* a, b = e */
		b->pat.tuple = true;
		do {
			char *name;
			if (!parse_pat0(p, &name))
				return false;
			pat_add(&b->pat, name);
		} while (accept(p, T_COMMA));
		if (!expect(p, T_EQUAL, "'='"))
			return false;
		b->e = parse_exp(p);
		return b->e != NULL;
	}
	/* f x = e   |   f(a, b) = e */
	const cat_token *fname = next(p);
	char *name = tok_str(fname);
	pat_add(&b->pat, name);
	cat_pat params = { false, 0, NULL };
	if (kind(p) == T_LPAR) {
		next(p);
		if (!parse_formals(p, &params) || !expect(p, T_RPAR, "')'")) {
			cat_pat_free(&params);
			return false;
		}
		untuple_single(&params);
	} else if (kind(p) == T_VAR || kind(p) == T_UNDERSCORE) {
		char *pn;
		parse_pat0(p, &pn);
		pat_add(&params, pn);
	} else {
		expected(p, "'=' or parameters after the bound name");
		return false;
	}
	b->e = parse_fun_body(p, fname->loc, &params, name, T_EQUAL);
	return b->e != NULL;
}

static bool parse_binds(parser *p, cat_bind **out, int *nout)
{
	*out = NULL;
	*nout = 0;
	do {
		*out = xrealloc(*out, (size_t)(*nout + 1) * sizeof **out);
		cat_bind *b = &(*out)[(*nout)++];
		if (!parse_bind(p, b))
			return false;
	} while (accept(p, T_AND));
	return true;
}

static cat_ex *parse_match(parser *p)
{
	srcloc loc = loc_of(p);
	next(p); /* match */
	cat_ex *scrut = parse_exp(p);
	if (!scrut)
		return NULL;
	if (!expect(p, T_WITH, "'with' after the matched expression")) {
		cat_ex_free(scrut);
		return NULL;
	}
	accept(p, T_BARBAR);
	enum cat_tok k = kind(p);
	bool set_match = k == T_LBRACE ||
	                 ((k == T_VAR || k == T_UNDERSCORE) &&
	                  (kind_at(p, 1) == T_PLUSPLUS || kind_at(p, 1) == T_BAR));
	if (set_match) {
		cat_ex *e = mk1(CE_MATCH_SET, loc, scrut);
		cat_ex *empty_case = NULL, *elt_case = NULL;
		for (int clause = 0; clause < 2; clause++) {
			if (clause == 1 && !expect(p, T_BARBAR, "'||' and the other clause of a set match"))
				goto set_fail;
			if (kind(p) == T_LBRACE) {
				if (empty_case) {
					error_at(p, peek(p), "a set match has one '{}' clause");
					goto set_fail;
				}
				next(p);
				if (!expect(p, T_RBRACE, "'}'") || !expect(p, T_ARROW, "'->'"))
					goto set_fail;
				if (!(empty_case = parse_exp(p)))
					goto set_fail;
			} else {
				if (elt_case) {
					error_at(p, peek(p), "a set match has one 'x ++ s' clause");
					goto set_fail;
				}
				if (kind_at(p, 1) == T_BAR) {
					error_at(p, peek(p), "unsupported: set match clause 's1 | x ++ s2'");
					goto set_fail;
				}
				if (!parse_pat0(p, &e->name) || !expect(p, T_PLUSPLUS, "'++'") ||
				    !parse_pat0(p, &e->name2) || !expect(p, T_ARROW, "'->'"))
					goto set_fail;
				if (!(elt_case = parse_exp(p)))
					goto set_fail;
			}
		}
		if (!expect(p, T_END, "'end' closing 'match'"))
			goto set_fail;
		add_kid(e, empty_case);
		add_kid(e, elt_case);
		return e;
	set_fail:
		cat_ex_free(empty_case);
		cat_ex_free(elt_case);
		cat_ex_free(e);
		return NULL;
	}
	cat_ex *e = mk1(CE_MATCH_TAG, loc, scrut);
	int ntags = 0;
	for (;;) {
		if (kind(p) == T_UNDERSCORE) {
			next(p);
			if (!expect(p, T_ARROW, "'->'"))
				goto tag_fail;
			cat_ex *d = parse_exp(p);
			if (!d)
				goto tag_fail;
			add_kid(e, d);
			e->has_default = true;
			break;
		}
		if (kind(p) != T_TAG) {
			expected(p, "a tag clause ('tag -> e) or '_ -> e'");
			goto tag_fail;
		}
		e->tags = xrealloc(e->tags, (size_t)(ntags + 1) * sizeof *e->tags);
		e->tags[ntags++] = tok_str(next(p));
		if (!expect(p, T_ARROW, "'->'")) {
			add_kid(e, mk(CE_EMPTY, loc)); /* keep tags and kids in step for freeing */
			goto tag_fail;
		}
		cat_ex *c = parse_exp(p);
		if (!c) {
			add_kid(e, mk(CE_EMPTY, loc));
			goto tag_fail;
		}
		add_kid(e, c);
		if (!accept(p, T_BARBAR))
			break;
	}
	if (!expect(p, T_END, "'end' closing 'match'"))
		goto tag_fail;
	return e;
tag_fail:
	cat_ex_free(e);
	return NULL;
}

static cat_ex *parse_exp_inner(parser *p);

static cat_ex *parse_exp(parser *p)
{
	int saved = p->depth;
	cat_ex *e = deeper(p) ? parse_exp_inner(p) : NULL;
	p->depth = saved;
	return e;
}

static cat_ex *parse_exp_inner(parser *p)
{
	srcloc loc = loc_of(p);
	switch (kind(p)) {
	case T_LET: {
		next(p);
		bool rec = accept(p, T_REC);
		cat_ex *e = mk(rec ? CE_LETREC : CE_LET, loc);
		if (!parse_binds(p, &e->binds, &e->nb) || !expect(p, T_IN, "'in' after the bindings")) {
			cat_ex_free(e);
			return NULL;
		}
		cat_ex *body = parse_exp(p);
		if (!body) {
			cat_ex_free(e);
			return NULL;
		}
		add_kid(e, body);
		return e;
	}
	case T_FUN: {
		next(p);
		cat_pat pt = { false, 0, NULL };
		if (accept(p, T_LPAR)) {
			if (!parse_formals(p, &pt) || !expect(p, T_RPAR, "')'")) {
				cat_pat_free(&pt);
				return NULL;
			}
			untuple_single(&pt);
		} else {
			char *name;
			if (!parse_pat0(p, &name))
				return NULL;
			pat_add(&pt, name);
		}
		return parse_fun_body(p, loc, &pt, "*fun*", T_ARROW);
	}
	case T_TRY: {
		next(p);
		cat_ex *a = parse_exp(p);
		if (!a)
			return NULL;
		if (!expect(p, T_WITH, "'with' after 'try' expression")) {
			cat_ex_free(a);
			return NULL;
		}
		cat_ex *b = parse_exp(p);
		if (!b) {
			cat_ex_free(a);
			return NULL;
		}
		return mk2(CE_TRY, loc, a, b);
	}
	case T_IF: {
		next(p);
		cat_cond *c = parse_cond(p);
		if (!c)
			return NULL;
		cat_ex *e = mk(CE_IF, loc);
		e->cond = c;
		cat_ex *a = NULL, *b = NULL;
		if (!expect(p, T_THEN, "'then'") || !(a = parse_exp(p)) ||
		    !expect(p, T_ELSE, "'else'") || !(b = parse_exp(p))) {
			cat_ex_free(a);
			cat_ex_free(e);
			return NULL;
		}
		add_kid(e, a);
		add_kid(e, b);
		return e;
	}
	case T_MATCH:
		return parse_match(p);
	default:
		break;
	}
	cat_ex *e = parse_base(p);
	if (e && kind(p) == T_COMMA) {
		cat_ex *t = mk1(CE_TUPLE, loc, e);
		while (accept(p, T_COMMA)) {
			cat_ex *k = parse_base(p);
			if (!k) {
				cat_ex_free(t);
				return NULL;
			}
			add_kid(t, k);
		}
		return t;
	}
	return e;
}

/* ---- conditions ----------------------------------------------------------------- */

static cat_cond *mk_cond(enum cat_cond_kind k, srcloc loc)
{
	cat_cond *c = xcalloc(1, sizeof *c);
	c->kind = k;
	c->loc = loc;
	return c;
}

static cat_cond *parse_cond_atom(parser *p)
{
	srcloc loc = loc_of(p);
	if (accept(p, T_NOT)) {
		cat_cond *l = parse_cond_atom(p);
		if (!l)
			return NULL;
		cat_cond *c = mk_cond(CC_NOT, loc);
		c->l = l;
		return c;
	}
	accept(p, T_VARIANT);
	if (kind(p) == T_STRING) {
		cat_cond *c = mk_cond(CC_VARIANT, loc);
		c->variant = tok_str(next(p));
		return c;
	}
	cat_ex *a = parse_exp(p);
	if (!a)
		return NULL;
	enum cat_cond_kind k;
	if (accept(p, T_EQUAL))
		k = CC_EQ;
	else if (accept(p, T_SUBSET))
		k = CC_SUBSET;
	else if (accept(p, T_IN))
		k = CC_IN;
	else {
		expected(p, "'=', 'subset' or 'in' in a condition");
		cat_ex_free(a);
		return NULL;
	}
	cat_ex *b = parse_exp(p);
	if (!b) {
		cat_ex_free(a);
		return NULL;
	}
	cat_cond *c = mk_cond(k, loc);
	c->a = a;
	c->b = b;
	return c;
}

static cat_cond *parse_cond_and(parser *p)
{
	cat_cond *c = parse_cond_atom(p);
	while (c && kind(p) == T_AMPAMP) {
		srcloc loc = loc_of(p);
		next(p);
		cat_cond *r = parse_cond_atom(p);
		if (!r) {
			cat_cond_free(c);
			return NULL;
		}
		cat_cond *a = mk_cond(CC_AND, loc);
		a->l = c;
		a->r = r;
		c = a;
	}
	return c;
}

static cat_cond *parse_cond(parser *p)
{
	cat_cond *c = parse_cond_and(p);
	while (c && kind(p) == T_BARBAR) {
		srcloc loc = loc_of(p);
		next(p);
		cat_cond *r = parse_cond_and(p);
		if (!r) {
			cat_cond_free(c);
			return NULL;
		}
		cat_cond *o = mk_cond(CC_OR, loc);
		o->l = c;
		o->r = r;
		c = o;
	}
	return c;
}

/* ---- instructions ------------------------------------------------------------------ */

static bool parse_ins_list(parser *p, cat_ins_list *l, bool top);

static cat_ins *mk_ins(enum cat_ins_kind k, srcloc loc)
{
	cat_ins *in = xcalloc(1, sizeof *in);
	in->kind = k;
	in->loc = loc;
	in->slot = -1;
	in->check = -1;
	return in;
}

/* The source text of tokens [from, to), blanks collapsed: herd's name for a
 * check written without `as`. */
static char *span_text(const parser *p, int from, int to)
{
	if (to <= from)
		return xstrdup("");
	size_t a = p->ts.t[from].off, b = p->ts.t[to - 1].end;
	strbuf sb = { 0 };
	bool blank = false;
	for (size_t i = a; i < b; i++) {
		char c = p->src[i];
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			blank = true;
			continue;
		}
		if (blank && sb.len)
			sb_putc(&sb, ' ');
		blank = false;
		sb_putc(&sb, c);
	}
	return sb_take(&sb);
}


static cat_ins *parse_check(parser *p)
{
	cat_ins *in = mk_ins(CI_CHECK, loc_of(p));
	if (accept(p, T_ASSERT))
		in->mode = CHECK_ASSERT;
	else if (accept(p, T_FLAG))
		in->mode = CHECK_FLAG;
	else if (accept(p, T_UNDEFINED_UNLESS))
		in->mode = CHECK_UNDEFINED_UNLESS;
	in->negated = accept(p, T_TILDE);
	switch (kind(p)) {
	case T_ACYCLIC: in->test = TEST_ACYCLIC; break;
	case T_IRREFLEXIVE: in->test = TEST_IRREFLEXIVE; break;
	case T_EMPTY: in->test = TEST_EMPTY; break;
	default:
		expected(p, "'acyclic', 'irreflexive' or 'empty'");
		cat_ins_free(in);
		return NULL;
	}
	next(p);
	int from = p->pos;
	in->e = parse_exp(p);
	if (!in->e) {
		cat_ins_free(in);
		return NULL;
	}
	in->text = span_text(p, from, p->pos);
	if (accept(p, T_AS)) {
		if (kind(p) != T_VAR) {
			expected(p, "a check name after 'as'");
			cat_ins_free(in);
			return NULL;
		}
		in->as_name = tok_str(next(p));
	}
	return in;
}

static cat_ins *parse_procedure(parser *p)
{
	cat_ins *in = mk_ins(CI_PROCEDURE, loc_of(p));
	next(p);
	accept(p, T_REC);
	if (kind(p) != T_VAR) {
		expected(p, "a procedure name");
		goto fail;
	}
	in->name = tok_str(next(p));
	if (accept(p, T_LPAR)) {
		if (!parse_formals(p, &in->pat) || !expect(p, T_RPAR, "')'"))
			goto fail;
		untuple_single(&in->pat);
	} else {
		char *pn;
		if (!parse_pat0(p, &pn))
			goto fail;
		pat_add(&in->pat, pn);
	}
	if (!expect(p, T_EQUAL, "'='") || !parse_ins_list(p, &in->body, false) ||
	    !expect(p, T_END, "'end' closing the procedure"))
		goto fail;
	return in;
fail:
	cat_ins_free(in);
	return NULL;
}

/* A bell file's `instructions K[e1, ..., en]` or `default K[...]`. */
static cat_ins *parse_instructions(parser *p)
{
	cat_ins *in = mk_ins(CI_INSTRUCTIONS, loc_of(p));
	in->is_default = next(p)->kind == T_DEFAULT;
	if (kind(p) != T_VAR) {
		expected(p, "an instruction kind (R, W, F, RMW, ...)");
		goto fail;
	}
	in->name = tok_str(next(p));
	if (!expect(p, T_LBRACK, "'['"))
		goto fail;
	in->e = mk(CE_TUPLE, in->loc);
	if (kind(p) != T_RBRACK)
		do {
			cat_ex *e = parse_base(p);
			if (!e)
				goto fail;
			add_kid(in->e, e);
		} while (accept(p, T_COMMA));
	if (!expect(p, T_RBRACK, "']'"))
		goto fail;
	return in;
fail:
	cat_ins_free(in);
	return NULL;
}

static cat_ins *parse_ins(parser *p)
{
	const cat_token *t = peek(p);
	srcloc loc = t->loc;
	switch (t->kind) {
	case T_LET: {
		next(p);
		bool rec = accept(p, T_REC);
		cat_ins *in = mk_ins(rec ? CI_LETREC : CI_LET, loc);
		if (!parse_binds(p, &in->binds, &in->nb)) {
			cat_ins_free(in);
			return NULL;
		}
		if (kind(p) == T_WHEN) {
			error_at(p, peek(p), "unsupported: 'let rec ... when' (conditional fixpoint)");
			cat_ins_free(in);
			return NULL;
		}
		accept(p, T_IN);
		return in;
	}
	case T_FLAG: case T_UNDEFINED_UNLESS: case T_TILDE: case T_ASSERT:
	case T_ACYCLIC: case T_IRREFLEXIVE: case T_EMPTY:
		return parse_check(p);
	case T_SHOW: case T_UNSHOW: {
		next(p);
		cat_ins *in = mk_ins(CI_SHOW, loc);
		/* show e as name | show a, b, ... | unshow a, b: the plain names
		 * are kept (in tags), and the expression of `show e as name`
		 * (in e), for pictures. */
		in->negated = t->kind == T_UNSHOW;
		int n_exprs = 0;
		cat_ex *first = NULL;
		do {
			cat_ex *e = parse_base(p);
			if (!e) {
				cat_ex_free(first);
				cat_ins_free(in);
				return NULL;
			}
			if (e->kind == CE_VAR && e->name) {
				in->tags = xrealloc(in->tags, ((size_t)in->ntags + 1) * sizeof *in->tags);
				in->tags[in->ntags++] = xstrdup(e->name);
			}
			if (n_exprs++ == 0 && e->kind != CE_VAR)
				first = e;
			else
				cat_ex_free(e);
		} while (accept(p, T_COMMA));
		if (t->kind == T_SHOW && accept(p, T_AS)) {
			if (kind(p) != T_VAR) {
				expected(p, "a name after 'as'");
				cat_ex_free(first);
				cat_ins_free(in);
				return NULL;
			}
			in->as_name = tok_str(next(p));
			if (n_exprs == 1 && first) {
				in->e = first;
				first = NULL;
			}
		}
		cat_ex_free(first);
		return in;
	}
	case T_INCLUDE: {
		next(p);
		if (kind(p) != T_STRING) {
			expected(p, "a quoted file name after 'include'");
			return NULL;
		}
		cat_ins *in = mk_ins(CI_INCLUDE, loc);
		in->name = tok_str(next(p));
		return in;
	}
	case T_PROCEDURE:
		return parse_procedure(p);
	case T_CALL: {
		next(p);
		if (kind(p) != T_VAR) {
			expected(p, "a procedure name after 'call'");
			return NULL;
		}
		cat_ins *in = mk_ins(CI_CALL, loc);
		in->name = tok_str(next(p));
		in->e = parse_simple(p);
		if (!in->e) {
			cat_ins_free(in);
			return NULL;
		}
		if (accept(p, T_AS)) {
			if (kind(p) != T_VAR) {
				expected(p, "a name after 'as'");
				cat_ins_free(in);
				return NULL;
			}
			in->as_name = tok_str(next(p));
		}
		return in;
	}
	case T_DEBUG: {
		next(p);
		cat_ex *e = parse_exp(p);
		if (!e)
			return NULL;
		cat_ex_free(e);
		return mk_ins(CI_DEBUG, loc);
	}
	case T_WITH: {
		next(p);
		if (kind(p) != T_VAR) {
			expected(p, "a name after 'with'");
			return NULL;
		}
		cat_ins *in = mk_ins(CI_WITH_FROM, loc);
		in->name = tok_str(next(p));
		if (!expect(p, T_FROM, "'from'") || !(in->e = parse_exp(p))) {
			cat_ins_free(in);
			return NULL;
		}
		return in;
	}
	case T_ENUM: {
		next(p);
		if (kind(p) != T_VAR) {
			expected(p, "a name after 'enum'");
			return NULL;
		}
		cat_ins *in = mk_ins(CI_ENUM, loc);
		in->name = tok_str(next(p));
		if (!expect(p, T_EQUAL, "'='")) {
			cat_ins_free(in);
			return NULL;
		}
		accept(p, T_BARBAR);
		do {
			if (kind(p) != T_TAG) {
				expected(p, "a tag");
				cat_ins_free(in);
				return NULL;
			}
			in->tags = xrealloc(in->tags, (size_t)(in->ntags + 1) * sizeof *in->tags);
			in->tags[in->ntags++] = tok_str(next(p));
		} while (accept(p, T_BARBAR));
		return in;
	}
	case T_IF: {
		next(p);
		cat_ins *in = mk_ins(CI_IF, loc);
		if (!(in->cond = parse_cond(p)) || !parse_ins_list(p, &in->body, false)) {
			cat_ins_free(in);
			return NULL;
		}
		if (accept(p, T_ELSE) && !parse_ins_list(p, &in->body2, false)) {
			cat_ins_free(in);
			return NULL;
		}
		if (!expect(p, T_END, "'else' or 'end' closing 'if'")) {
			cat_ins_free(in);
			return NULL;
		}
		return in;
	}
	case T_FORALL:
		error_at(p, t, "unsupported: 'forall' instruction");
		return NULL;
	case T_MATCH:
		error_at(p, t, "unsupported: 'match' as an instruction");
		return NULL;
	case T_INSTRUCTIONS: case T_DEFAULT:
		return parse_instructions(p);
	case T_CATDEP:
		next(p);
		return mk_ins(CI_CATDEP, loc);
	default: {
		char buf[96];
		describe(t, buf, sizeof buf);
		error_at(p, t, "expected an instruction (let, include, acyclic, irreflexive, empty, "
		               "flag, show, procedure, call, ...), found %s", buf);
		return NULL;
	}
	}
}

/* Instructions up to end of file (top) or up to 'end'/'else' (bodies). */
static bool parse_ins_list(parser *p, cat_ins_list *l, bool top)
{
	/* Bodies of procedures and ifs nest: bound them like expressions. */
	if (!top && !deeper(p))
		return false;
	for (;;) {
		enum cat_tok k = kind(p);
		if (k == T_EOF) {
			if (!top) {
				expected(p, "'end'");
				return false;
			}
			return true;
		}
		if (!top && (k == T_END || k == T_ELSE)) {
			p->depth--;
			return true;
		}
		cat_ins *in = parse_ins(p);
		if (!in)
			return false;
		ins_list_add(l, in);
	}
}

cat_file *cat_parse(const char *path, const char *text, diag *d)
{
	cat_file *f = xcalloc(1, sizeof *f);
	f->path = xstrdup(path);
	parser p = { text, { 0, NULL }, 0, d, false, f->path, 0 };
	if (!cat_lex(f->path, text, &p.ts, d)) {
		cat_file_free(f);
		return NULL;
	}
	/* The model's name: "NAME", NAME, or ARCH NAME (herd's `identity`). */
	if (kind(&p) == T_STRING) {
		f->title = tok_str(next(&p));
	} else if (kind(&p) == T_VAR) {
		f->title = tok_str(next(&p));
		if (kind(&p) == T_VAR || kind(&p) == T_STRING) {
			free(f->title);
			f->title = tok_str(next(&p));
		}
	}
	cat_tokens_digest(&p.ts, p.pos, f->digest);
	bool ok = parse_ins_list(&p, &f->ins, true) && !p.failed;
	cat_tokens_free(&p.ts);
	if (!ok) {
		cat_file_free(f);
		return NULL;
	}
	return f;
}
