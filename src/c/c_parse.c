/* c_parse.c — statements and expressions of herd's C dialect into the tree
 * of c_int.h.  The same parser reads the bodies of a .def file's macros,
 * which add two forms: a brace tag after a primitive's name
 * (`__load{ONCE}(X)`, `__fence{rcu-lock}`) and an operator as an argument
 * (`__atomic_op{MB}(X,&~,V)`).
 *
 * Expressions are C's, without assignment inside them, with C's
 * precedence; a cast `(type)e` is read and dropped (herd's C values are
 * untyped integers and addresses).  Nesting is bounded so that hostile
 * input cannot exhaust the stack.
 */
#include <stdlib.h>
#include <string.h>

#include "c_int.h"


static bool nest_ok(c_lexer *lx, int depth)
{
	if (depth <= C_MAX_NEST)
		return true;
	diag_error(lx->d, lx->tok.loc, "expression or statement nested too deeply (more than %d)", C_MAX_NEST);
	return false;
}

void c_ex_free(c_ex *e)
{
	if (!e)
		return;
	free(e->name);
	free(e->tag);
	c_ex_free(e->a);
	c_ex_free(e->b);
	for (int i = 0; i < e->n_args; i++)
		c_ex_free(e->args[i]);
	free(e->args);
	free(e);
}

void c_st_free(c_st *s)
{
	if (!s)
		return;
	free(s->text);
	free(s->name);
	c_ex_free(s->lhs);
	c_ex_free(s->e);
	c_st_free(s->then);
	c_st_free(s->els);
	for (int i = 0; i < s->n; i++)
		c_st_free(s->kids[i]);
	free(s->kids);
	free(s);
}

static c_ex *ex_new(enum c_ex_kind k, srcloc at)
{
	c_ex *e = xcalloc(1, sizeof *e);
	e->kind = k;
	e->loc = at;
	return e;
}

static void expected(c_lexer *lx, const char *what)
{
	const c_token *t = &lx->tok;
	if (t->kind == CT_ERROR)
		return;
	if (t->kind == CT_EOF)
		diag_error(lx->d, t->loc, "expected %s, found the end of the text", what);
	else
		diag_error(lx->d, t->loc, "expected %s, found '%.*s'", what, t->len, t->text);
}

static bool expect(c_lexer *lx, const char *p)
{
	if (c_tok_is(&lx->tok, p)) {
		c_lex_next(lx);
		return true;
	}
	char what[16];
	snprintf(what, sizeof what, "'%s'", p);
	expected(lx, what);
	return false;
}

/* ---- types ------------------------------------------------------------------ */

static bool is_type_word(const c_token *t)
{
	static const char *const words[] = {
		"int", "char", "long", "short", "unsigned", "signed", "volatile", "const", "struct",
		"void", "bool", "_Atomic", "atomic", "intptr_t", "uintptr_t", "spinlock_t", "atomic_t",
		"atomic_int", "mtx_t", "int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t",
		"uint32_t", "int64_t", "uint64_t", "__int128_t", "__uint128_t", "__int128", "__uint128",
	};
	if (t->kind != CT_NAME)
		return false;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (c_tok_is(t, words[i]))
			return true;
	return false;
}

/* After `open` of herd's `_Atomic(T)` or `atomic<T>`: T, then `close`.
 * False after an error (said; the token is then CT_ERROR). */
static bool wrapped_type(c_lexer *lx, const char *close)
{
	c_lex_next(lx);
	if (c_parse_type(lx) && c_tok_is(&lx->tok, close)) {
		c_lex_next(lx);
		return true;
	}
	if (lx->tok.kind != CT_ERROR) {
		char what[32];
		snprintf(what, sizeof what, "a type, then '%s'", close);
		expected(lx, what);
		lx->tok.kind = CT_ERROR;
	}
	return false;
}

bool c_parse_type(c_lexer *lx)
{
	if (!is_type_word(&lx->tok))
		return false;
	while (is_type_word(&lx->tok)) {
		bool st = c_tok_is(&lx->tok, "struct");
		bool atomic = c_tok_is(&lx->tok, "_Atomic"), base = c_tok_is(&lx->tok, "atomic");
		c_lex_next(lx);
		if (st && lx->tok.kind == CT_NAME)
			c_lex_next(lx);   /* the struct's tag */
		if ((atomic && c_tok_is(&lx->tok, "(") && !wrapped_type(lx, ")")) ||
		    (base && c_tok_is(&lx->tok, "<") && !wrapped_type(lx, ">")))
			return true;
	}
	while (c_tok_is(&lx->tok, "*") || c_tok_is(&lx->tok, "volatile") || c_tok_is(&lx->tok, "const"))
		c_lex_next(lx);
	return true;
}

/* ---- expressions ------------------------------------------------------------ */

static c_ex *parse_binary(c_lexer *lx, int min_prec, int depth);

/* A brace tag `{word}` right after a name: its text (owned), the lexer
 * then at the token after `}`.  Tags may hold '-' (rcu-lock). */
static char *read_tag(c_lexer *lx)
{
	srcloc at = lx->tok.loc;
	while (*lx->p == ' ' || *lx->p == '\t')
		lx->p++;
	const char *s = lx->p;
	while ((*lx->p >= 'a' && *lx->p <= 'z') || (*lx->p >= 'A' && *lx->p <= 'Z') ||
	       (*lx->p >= '0' && *lx->p <= '9') || *lx->p == '_' || *lx->p == '-')
		lx->p++;
	const char *e = lx->p;
	while (*lx->p == ' ' || *lx->p == '\t')
		lx->p++;
	if (e == s || *lx->p != '}') {
		diag_error(lx->d, at, "expected a tag such as {ONCE} after the primitive's name");
		return NULL;
	}
	lx->p++;
	c_lex_next(lx);
	return xstrndup(s, (size_t)(e - s));
}

static bool is_arg_operator(const c_token *t)
{
	static const char *const ops[] = { "+", "-", "&", "|", "^", "&~", "*" };
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (c_tok_is(t, ops[i]))
			return true;
	return false;
}

/* Is the first byte after the current token, blanks skipped, `c`? */
static bool next_byte_is(const c_lexer *lx, char c)
{
	const char *p = lx->p;
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return *p == c;
}

static c_ex *parse_call_args(c_lexer *lx, c_ex *call, int depth)
{
	c_lex_next(lx);   /* ( */
	size_t cap = 0;
	if (c_tok_is(&lx->tok, ")")) {
		c_lex_next(lx);
		return call;
	}
	for (;;) {
		c_ex *arg;
		if (is_arg_operator(&lx->tok) && (next_byte_is(lx, ',') || next_byte_is(lx, ')'))) {
			arg = ex_new(CE_OPER, lx->tok.loc);
			memcpy(arg->op, lx->tok.text, (size_t)lx->tok.len);
			c_lex_next(lx);
		} else {
			arg = parse_binary(lx, 1, depth + 1);
			if (!arg) {
				c_ex_free(call);
				return NULL;
			}
		}
		GROW(call->args, cap, (size_t)call->n_args + 1);
		call->args[call->n_args++] = arg;
		if (c_tok_is(&lx->tok, ",")) {
			c_lex_next(lx);
			continue;
		}
		if (!expect(lx, ")")) {
			c_ex_free(call);
			return NULL;
		}
		return call;
	}
}

static c_ex *parse_unary(c_lexer *lx, int depth)
{
	if (!nest_ok(lx, depth))
		return NULL;
	c_token t = lx->tok;
	if (c_tok_is(&t, "-") || c_tok_is(&t, "!") || c_tok_is(&t, "~") || c_tok_is(&t, "*") ||
	    c_tok_is(&t, "&") || c_tok_is(&t, "+")) {
		c_lex_next(lx);
		c_ex *a = parse_unary(lx, depth + 1);
		if (!a)
			return NULL;
		if (c_tok_is(&t, "+"))
			return a;
		c_ex *e = ex_new(CE_UNARY, t.loc);
		memcpy(e->op, t.text, (size_t)t.len);
		e->a = a;
		return e;
	}
	if (t.kind == CT_NUM) {
		c_lex_next(lx);
		c_ex *e = ex_new(CE_NUM, t.loc);
		e->num = t.num;
		return e;
	}
	if (t.kind == CT_NAME) {
		if (is_type_word(&t)) {
			diag_error(lx->d, t.loc, "unexpected type '%.*s' in an expression", t.len, t.text);
			return NULL;
		}
		c_lex_next(lx);
		c_ex *e = ex_new(CE_NAME, t.loc);
		e->name = xstrndup(t.text, (size_t)t.len);
		bool tagged = false;
		if (c_tok_is(&lx->tok, "{") && t.len > 2 && !memcmp(t.text, "__", 2)) {
			e->tag = read_tag(lx);
			if (!e->tag) {
				c_ex_free(e);
				return NULL;
			}
			tagged = true;
		}
		if (c_tok_is(&lx->tok, "(")) {
			e->kind = CE_CALL;
			return parse_call_args(lx, e, depth);
		}
		if (tagged)
			e->kind = CE_CALL;   /* __fence{MB} takes no arguments */
		return e;
	}
	if (c_tok_is(&t, "(")) {
		c_lex_next(lx);
		if (c_parse_type(lx)) {
			/* a cast: herd's values carry no C type */
			if (!expect(lx, ")"))
				return NULL;
			return parse_unary(lx, depth + 1);
		}
		c_ex *e = parse_binary(lx, 1, depth + 1);
		if (!e)
			return NULL;
		if (!expect(lx, ")")) {
			c_ex_free(e);
			return NULL;
		}
		return e;
	}
	expected(lx, "an expression");
	return NULL;
}

/* Binary operators by precedence (higher binds tighter), as in C. */
static int binary_prec(const c_token *t)
{
	static const struct {
		const char *op;
		int prec;
	} ops[] = {
		{ "||", 1 }, { "&&", 2 }, { "|", 3 }, { "^", 4 }, { "&", 5 }, { "&~", 5 },
		{ "==", 6 }, { "!=", 6 }, { "<", 7 }, { "<=", 7 }, { ">", 7 }, { ">=", 7 },
		{ "<<", 8 }, { ">>", 8 }, { "+", 9 }, { "-", 9 }, { "*", 10 }, { "/", 10 }, { "%", 10 },
	};
	if (t->kind != CT_PUNCT)
		return 0;
	for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (c_tok_is(t, ops[i].op))
			return ops[i].prec;
	return 0;
}

/* Precedence climbing: a loop over operators of one level, recursion
 * only into tighter levels (at most 10 deep) and into parentheses. */
static c_ex *parse_binary(c_lexer *lx, int min_prec, int depth)
{
	if (!nest_ok(lx, depth))
		return NULL;
	c_ex *l = parse_unary(lx, depth + 1);
	if (!l)
		return NULL;
	for (;;) {
		c_token t = lx->tok;
		int prec = binary_prec(&t);
		if (prec < min_prec || prec == 0)
			return l;
		c_lex_next(lx);
		c_ex *r = parse_binary(lx, prec + 1, depth + 1);
		if (!r) {
			c_ex_free(l);
			return NULL;
		}
		c_ex *e = ex_new(CE_BINARY, t.loc);
		memcpy(e->op, t.text, (size_t)t.len);
		e->a = l;
		e->b = r;
		l = e;
	}
}

c_ex *c_parse_expr(c_lexer *lx)
{
	return parse_binary(lx, 1, 0);
}

/* ---- statements ------------------------------------------------------------- */

static c_st *st_new(enum c_st_kind k, srcloc at)
{
	c_st *s = xcalloc(1, sizeof *s);
	s->kind = k;
	s->loc = at;
	return s;
}

/* The source text from..to on one line, blanks collapsed, at most 100
 * bytes (dumps and messages show it). */
static char *one_line(const char *from, const char *to)
{
	strbuf b = { 0 };
	bool blank = false;
	for (const char *p = from; p < to && b.len < 100; p++) {
		char c = *p;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
			blank = b.len > 0;
			continue;
		}
		if (blank)
			sb_putc(&b, ' ');
		blank = false;
		sb_putc(&b, c);
	}
	if (!b.s)
		sb_puts(&b, "");
	return sb_take(&b);
}

static void add_kid(c_st *blk, size_t *cap, c_st *k)
{
	GROW(blk->kids, *cap, (size_t)blk->n + 1);
	blk->kids[blk->n++] = k;
}

static c_st *parse_stmt(c_lexer *lx, int depth);

static c_st *parse_block(c_lexer *lx, int depth)
{
	c_st *blk = st_new(CS_BLOCK, lx->tok.loc);
	blk->text = xstrdup("{");
	size_t cap = 0;
	c_lex_next(lx);   /* { */
	while (!c_tok_is(&lx->tok, "}")) {
		if (lx->tok.kind == CT_EOF || lx->tok.kind == CT_ERROR) {
			expected(lx, "'}'");
			c_st_free(blk);
			return NULL;
		}
		c_st *k = parse_stmt(lx, depth + 1);
		if (!k) {
			c_st_free(blk);
			return NULL;
		}
		add_kid(blk, &cap, k);
	}
	c_lex_next(lx);
	return blk;
}

c_st *c_parse_block(c_lexer *lx)
{
	return parse_block(lx, 0);
}

/* `type a = e, *b;`: one CS_DECL each, in a block when several. */
static c_st *parse_decl(c_lexer *lx, const char *start)
{
	srcloc at = lx->tok.loc;
	c_parse_type(lx);
	c_st *blk = NULL;
	size_t cap = 0;
	for (;;) {
		while (c_tok_is(&lx->tok, "*"))
			c_lex_next(lx);
		if (lx->tok.kind != CT_NAME) {
			expected(lx, "a name to declare");
			c_st_free(blk);
			return NULL;
		}
		c_st *d = st_new(CS_DECL, lx->tok.loc);
		d->name = xstrndup(lx->tok.text, (size_t)lx->tok.len);
		c_lex_next(lx);
		if (c_tok_is(&lx->tok, "=")) {
			c_lex_next(lx);
			d->e = c_parse_expr(lx);
			if (!d->e) {
				c_st_free(d);
				c_st_free(blk);
				return NULL;
			}
		}
		const char *end = lx->tok.text + lx->tok.len;
		if (!blk && !c_tok_is(&lx->tok, ",")) {
			if (!expect(lx, ";")) {
				c_st_free(d);
				return NULL;
			}
			d->text = one_line(start, end);
			return d;
		}
		if (!blk) {
			blk = st_new(CS_BLOCK, at);
			blk->text = xstrdup("{");
		}
		d->text = one_line(start, end);
		add_kid(blk, &cap, d);
		if (c_tok_is(&lx->tok, ",")) {
			c_lex_next(lx);
			continue;
		}
		if (!expect(lx, ";")) {
			c_st_free(blk);
			return NULL;
		}
		return blk;
	}
}

static c_st *parse_cond_stmt(c_lexer *lx, enum c_st_kind k, const char *start, int depth)
{
	c_st *s = st_new(k, lx->tok.loc);
	c_lex_next(lx);
	if (!expect(lx, "(")) {
		c_st_free(s);
		return NULL;
	}
	s->e = c_parse_expr(lx);
	const char *end = lx->tok.text + lx->tok.len;
	if (!s->e || !expect(lx, ")")) {
		c_st_free(s);
		return NULL;
	}
	s->text = one_line(start, end);
	s->then = parse_stmt(lx, depth + 1);
	if (!s->then) {
		c_st_free(s);
		return NULL;
	}
	if (k == CS_IF && c_tok_is(&lx->tok, "else")) {
		c_lex_next(lx);
		s->els = parse_stmt(lx, depth + 1);
		if (!s->els) {
			c_st_free(s);
			return NULL;
		}
	}
	return s;
}

static c_st *parse_stmt(c_lexer *lx, int depth)
{
	if (!nest_ok(lx, depth))
		return NULL;
	const char *start = lx->tok.text;
	srcloc at = lx->tok.loc;
	if (c_tok_is(&lx->tok, "{"))
		return parse_block(lx, depth);
	if (c_tok_is(&lx->tok, ";")) {
		c_lex_next(lx);
		c_st *s = st_new(CS_BLOCK, at);
		s->text = xstrdup(";");
		return s;
	}
	if (c_tok_is(&lx->tok, "if"))
		return parse_cond_stmt(lx, CS_IF, start, depth);
	if (c_tok_is(&lx->tok, "while"))
		return parse_cond_stmt(lx, CS_WHILE, start, depth);
	/* herd's C has no other loop and no jump: its parser rejects them,
	 * while weft would read `break;` as a register */
	static const char *const refused[] = { "for", "do", "break", "continue", "goto", "switch", "return" };
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
		if (lx->tok.kind == CT_NAME && c_tok_is(&lx->tok, refused[i])) {
			diag_error(lx->d, lx->tok.loc, "unsupported: '%s' in a C test (herd's C has while loops "
			           "and if/else only)", refused[i]);
			return NULL;
		}
	if (is_type_word(&lx->tok))
		return parse_decl(lx, start);
	c_ex *e = c_parse_expr(lx);
	if (!e)
		return NULL;
	c_st *s = st_new(CS_EXPR, at);
	if (c_tok_is(&lx->tok, "=")) {
		c_lex_next(lx);
		s->kind = CS_ASSIGN;
		s->lhs = e;
		s->e = c_parse_expr(lx);
		if (!s->e) {
			c_st_free(s);
			return NULL;
		}
	} else {
		s->e = e;
	}
	const char *end = lx->tok.text + lx->tok.len;
	if (!expect(lx, ";")) {
		c_st_free(s);
		return NULL;
	}
	s->text = one_line(start, end);
	return s;
}

c_st *c_parse_stmt(c_lexer *lx)
{
	return parse_stmt(lx, 0);
}
