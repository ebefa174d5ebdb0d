/* lex.c — the cursor, comments, and the state-language tokens (lex.h). */
#include <stdio.h>
#include <string.h>

#include "lex.h"

void cursor_init(cursor *c, const char *file, const char *text)
{
	c->file = file;
	c->p = text;
	c->bol = text;
	c->line = 1;
}

srcloc cursor_loc(const cursor *c)
{
	return cursor_loc_at(c, c->p);
}

srcloc cursor_loc_at(const cursor *c, const char *at)
{
	srcloc l = { c->file, c->line, (int)(at - c->bol) + 1 };
	return l;
}

void cursor_advance(cursor *c)
{
	if (*c->p == '\0')
		return;
	if (*c->p == '\n') {
		c->line++;
		c->bol = c->p + 1;
	}
	c->p++;
}

bool skip_comment(cursor *c, diag *d)
{
	srcloc open = cursor_loc(c);
	int depth = 0;
	/* Iterative, so that deeply nested junk cannot exhaust the stack. */
	while (*c->p) {
		if (c->p[0] == '(' && c->p[1] == '*') {
			depth++;
			cursor_advance(c);
			cursor_advance(c);
		} else if (c->p[0] == '*' && c->p[1] == ')') {
			depth--;
			cursor_advance(c);
			cursor_advance(c);
			if (depth == 0)
				return true;
		} else {
			cursor_advance(c);
		}
	}
	diag_error(d, open, "unterminated comment '(*'");
	return false;
}

bool skip_space(cursor *c, diag *d, bool newlines)
{
	for (;;) {
		if (is_blank(*c->p) || (newlines && *c->p == '\n'))
			cursor_advance(c);
		else if (c->p[0] == '(' && c->p[1] == '*') {
			if (!skip_comment(c, d))
				return false;
		} else
			return true;
	}
}

static bool is_name_start(char ch) { return is_alpha(ch) || ch == '_' || ch == '.' || ch == '$'; }
static bool is_name_char(char ch)
{
	return is_alpha(ch) || is_digit(ch) || ch == '_' || ch == '/' || ch == '.' || ch == '-';
}

static int hex_value(char ch)
{
	if (is_digit(ch))
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

long scan_integer(const char *s, int64_t *out)
{
	const char *q = s;
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X') && hex_value(q[2]) >= 0) {
		/* Hex literals are bit patterns: 0xffffffffffffffff is -1. */
		uint64_t v = 0;
		bool overflow = false;
		for (q += 2; hex_value(*q) >= 0; q++) {
			if (v >> 60)
				overflow = true;
			v = v << 4 | (uint64_t)hex_value(*q);
		}
		if (overflow)
			return -1;
		*out = (int64_t)v;
		return q - s;
	}
	bool neg = *q == '-';
	if (neg)
		q++;
	if (!is_digit(*q))
		return 0;
	/* Accumulate as unsigned so that INT64_MIN is representable. */
	uint64_t v = 0, limit = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	bool overflow = false;
	for (; is_digit(*q); q++) {
		uint64_t digit = (uint64_t)(*q - '0');
		if (v > (limit - digit) / 10)
			overflow = true;
		else
			v = v * 10 + digit;
	}
	if (overflow)
		return -1;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return q - s;
}

static token make(cursor *c, enum tok_kind kind, const char *start, size_t len, srcloc at)
{
	token t = { kind, start, len, at, 0 };
	for (size_t i = 0; i < len; i++)
		cursor_advance(c);
	return t;
}

token lex_token(cursor *c, diag *d)
{
	token err = { T_ERROR, c->p, 0, cursor_loc(c), 0 };
	if (!skip_space(c, d, true))
		return err;
	const char *s = c->p;
	srcloc at = cursor_loc(c);
	err.start = s;
	err.loc = at;
	char ch = *s;
	if (ch == '\0')
		return make(c, T_EOF, s, 0, at);
	if (is_digit(ch) || (ch == '-' && is_digit(s[1]))) {
		int64_t v = 0;
		long n = scan_integer(s, &v);
		if (n < 0) {
			size_t len = 0;
			while (is_name_char(s[len]) && len < 40)
				len++;
			diag_error(d, at, "integer '%.*s%s' out of range", (int)len, s,
				   is_name_char(s[len]) ? "..." : "");
			return err;
		}
		if (is_name_char(s[n]) || is_name_start(s[n])) {
			size_t len = (size_t)n;
			while (is_name_char(s[len]) && len < 40)
				len++;
			diag_error(d, at, "malformed number '%.*s'", (int)len, s);
			return err;
		}
		token t = make(c, T_NUM, s, (size_t)n, at);
		t.num = v;
		return t;
	}
	if (is_name_start(ch) || (ch == '%' && is_name_start(s[1]))) {
		size_t n = 1;
		while (is_name_char(s[n]))
			n++;
		if (ch == '%')
			return make(c, T_SYMREG, s, n, at);
		token t = make(c, T_NAME, s, n, at);
		/* `P<digits>` is a thread, as long as nothing else follows. */
		if (ch == 'P' && n > 1) {
			bool digits = true;
			for (size_t i = 1; i < n; i++)
				digits = digits && is_digit(s[i]);
			int64_t v;
			if (digits) {
				if (n > 10 || scan_integer(s + 1, &v) <= 0 || v > 1000000) {
					diag_error(d, at, "thread number '%.*s' out of range", (int)n, s);
					return err;
				}
				t.kind = T_PROC;
				t.num = v;
			}
		}
		return t;
	}
	switch (ch) {
	case ';': return make(c, T_SEMI, s, 1, at);
	case ':': return make(c, T_COLON, s, 1, at);
	case ',': return make(c, T_COMMA, s, 1, at);
	case '&': return make(c, T_AMP, s, 1, at);
	case '+': return make(c, T_PLUS, s, 1, at);
	case '*': return make(c, T_STAR, s, 1, at);
	case '[': return make(c, T_LBRK, s, 1, at);
	case ']': return make(c, T_RBRK, s, 1, at);
	case '(': return make(c, T_LPAR, s, 1, at);
	case ')': return make(c, T_RPAR, s, 1, at);
	case '{': return make(c, T_LBRACE, s, 1, at);
	case '}': return make(c, T_RBRACE, s, 1, at);
	case '~': return make(c, T_NOT, s, 1, at);
	case '=':
		if (s[1] == '=')
			return make(c, T_EQ, s, 2, at);
		if (s[1] == '>')
			return make(c, T_IMPLIES, s, 2, at);
		return make(c, T_EQ, s, 1, at);
	case '!':
		if (s[1] == '=')
			return make(c, T_NE, s, 2, at);
		break;
	case '<':
		if (s[1] == '>')
			return make(c, T_NE, s, 2, at);
		if (s[1] == '<')
			return make(c, T_EOF, s, 2, at);
		break;
	case '/':
		if (s[1] == '\\')
			return make(c, T_AND, s, 2, at);
		break;
	case '\\':
		if (s[1] == '/')
			return make(c, T_OR, s, 2, at);
		break;
	default:
		break;
	}
	if ((unsigned char)ch < 0x20 || (unsigned char)ch >= 0x7f)
		diag_error(d, at, "unexpected byte 0x%02x", (unsigned char)ch);
	else
		diag_error(d, at, "unexpected character '%c'", ch);
	return err;
}

bool tok_is(const token *t, const char *w)
{
	return t->kind == T_NAME && strlen(w) == t->len && !memcmp(t->start, w, t->len);
}

const char *tok_describe(const token *t, char *buf, size_t size)
{
	if (t->kind == T_EOF)
		snprintf(buf, size, t->len ? "'<<'" : "end of file");
	else if (t->len > 40)
		snprintf(buf, size, "'%.40s...'", t->start);
	else
		snprintf(buf, size, "'%.*s'", (int)t->len, t->start);
	return buf;
}
