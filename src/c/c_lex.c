/* c_lex.c — tokens of herd's C dialect (and of .def files): names,
 * integers, operators; C comments and herd's (* *) comments are blanks. */
#include <string.h>

#include "c_int.h"

void c_lex_init(c_lexer *lx, const char *file, const char *p, const char *bol, int line, diag *d)
{
	memset(lx, 0, sizeof *lx);
	lx->file = file;
	lx->p = p;
	lx->bol = bol;
	lx->line = line;
	lx->d = d;
}

static srcloc here(const c_lexer *lx)
{
	srcloc l = { lx->file, lx->line, (int)(lx->p - lx->bol) + 1 };
	return l;
}

static void advance(c_lexer *lx)
{
	if (*lx->p == '\n') {
		lx->line++;
		lx->bol = lx->p + 1;
	}
	lx->p++;
}

static bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }

/* Skip blanks and comments; false after an unterminated comment. */
static bool skip_blanks(c_lexer *lx)
{
	for (;;) {
		char c = *lx->p;
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
			advance(lx);
		} else if (c == '/' && lx->p[1] == '/') {
			while (*lx->p && *lx->p != '\n')
				advance(lx);
		} else if ((c == '/' && lx->p[1] == '*') || (lx->herd_comments && c == '(' && lx->p[1] == '*')) {
			/* herd's (* *) nest; C's do not */
			bool ml = c == '(';
			srcloc at = here(lx);
			int depth = 1;
			advance(lx);
			advance(lx);
			while (depth > 0) {
				if (!*lx->p) {
					diag_error(lx->d, at, "unterminated comment");
					return false;
				}
				if (ml && lx->p[0] == '(' && lx->p[1] == '*') {
					depth++;
					advance(lx);
				} else if (lx->p[0] == '*' && lx->p[1] == (ml ? ')' : '/')) {
					depth--;
					advance(lx);
				}
				advance(lx);
			}
		} else {
			return true;
		}
	}
}

/* Operators, longest first. */
static const char *const puncts[] = {
	"<<", ">>", "==", "!=", "<=", ">=", "&&", "||", "&~", "->",
	"(", ")", "{", "}", "[", "]", ";", ",", "=", "+", "-", "*", "/", "%",
	"&", "|", "^", "~", "!", "<", ">", "?", ":", ".",
};

void c_lex_next(c_lexer *lx)
{
	c_token *t = &lx->tok;
	memset(t, 0, sizeof *t);
	if (!skip_blanks(lx)) {
		t->kind = CT_ERROR;
		return;
	}
	t->loc = here(lx);
	t->text = lx->p;
	char c = *lx->p;
	if (!c) {
		t->kind = CT_EOF;
		return;
	}
	if (is_name_start(c)) {
		while (is_name_char(*lx->p))
			advance(lx);
		t->kind = CT_NAME;
		t->len = (int)(lx->p - t->text);
		return;
	}
	if (c >= '0' && c <= '9') {
		uint64_t v = 0;
		bool hex = c == '0' && (lx->p[1] == 'x' || lx->p[1] == 'X');
		if (hex) {
			advance(lx);
			advance(lx);
		}
		bool over = false, any = !hex;
		for (;;) {
			char d = *lx->p;
			int dv = d >= '0' && d <= '9' ? d - '0'
			         : hex && d >= 'a' && d <= 'f' ? d - 'a' + 10
			         : hex && d >= 'A' && d <= 'F' ? d - 'A' + 10 : -1;
			if (dv < 0)
				break;
			any = true;
			if (v > (UINT64_MAX - (uint64_t)dv) / (hex ? 16 : 10))
				over = true;
			v = v * (hex ? 16 : 10) + (uint64_t)dv;
			advance(lx);
		}
		while (*lx->p == 'u' || *lx->p == 'U' || *lx->p == 'l' || *lx->p == 'L')
			advance(lx);
		t->len = (int)(lx->p - t->text);
		if (!any || over || is_name_char(*lx->p)) {
			diag_error(lx->d, t->loc, "malformed or too large number '%.*s'", t->len, t->text);
			t->kind = CT_ERROR;
			return;
		}
		t->kind = CT_NUM;
		t->num = (int64_t)v;
		return;
	}
	for (size_t i = 0; i < sizeof puncts / sizeof puncts[0]; i++) {
		size_t n = strlen(puncts[i]);
		if (!strncmp(lx->p, puncts[i], n)) {
			for (size_t k = 0; k < n; k++)
				advance(lx);
			t->kind = CT_PUNCT;
			t->len = (int)n;
			return;
		}
	}
	if ((unsigned char)c >= 0x20 && (unsigned char)c < 0x7f)
		diag_error(lx->d, t->loc, "unexpected character '%c'", c);
	else
		diag_error(lx->d, t->loc, "unexpected byte 0x%02x", (unsigned char)c);
	t->kind = CT_ERROR;
}

bool c_tok_is(const c_token *t, const char *s)
{
	size_t n = strlen(s);
	return (t->kind == CT_NAME || t->kind == CT_PUNCT) && (size_t)t->len == n && !memcmp(t->text, s, n);
}

int c_lex_list_next(c_lexer *lx, const char *where)
{
	if (c_tok_is(&lx->tok, ",") || c_tok_is(&lx->tok, ")")) {
		int more = c_tok_is(&lx->tok, ",");
		c_lex_next(lx);
		return more;
	}
	/* a lexical error was said already */
	if (lx->tok.kind != CT_ERROR)
		diag_error(lx->d, lx->tok.loc, "expected ',' or ')' %s", where);
	return -1;
}
