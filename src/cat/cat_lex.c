/* cat_lex.c — the cat lexer (see cat_lex.h for the lexical rules). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "cat_lex.h"

/* Keywords, with the way messages name them. */
#define KW(w, t) { w, t, "keyword '" w "'" }
static const struct { const char *word; enum cat_tok tok; const char *display; } keywords[] = {
	KW("let", T_LET), KW("rec", T_REC), KW("and", T_AND),
	KW("when", T_WHEN), KW("acyclic", T_ACYCLIC), KW("irreflexive", T_IRREFLEXIVE),
	KW("show", T_SHOW), KW("unshow", T_UNSHOW), KW("empty", T_EMPTY),
	KW("subset", T_SUBSET), KW("as", T_AS), KW("fun", T_FUN),
	KW("in", T_IN), KW("undefined_unless", T_UNDEFINED_UNLESS), KW("flag", T_FLAG),
	KW("assert", T_ASSERT), KW("include", T_INCLUDE), KW("variant", T_VARIANT),
	KW("begin", T_BEGIN), KW("end", T_END), KW("procedure", T_PROCEDURE),
	KW("call", T_CALL), KW("enum", T_ENUM), KW("debug", T_DEBUG),
	KW("match", T_MATCH), KW("with", T_WITH), KW("forall", T_FORALL),
	KW("from", T_FROM), KW("do", T_DO), KW("try", T_TRY),
	KW("if", T_IF), KW("then", T_THEN), KW("else", T_ELSE),
	KW("catdep", T_CATDEP), KW("instructions", T_INSTRUCTIONS), KW("default", T_DEFAULT),
	KW("not", T_NOT),
};
#undef KW

const char *cat_tok_name(enum cat_tok k)
{
	static const char *const names[T_N_TOKENS] = {
		[T_EOF] = "end of file", [T_VAR] = "name", [T_TAG] = "tag",
		[T_STRING] = "string", [T_LPAR] = "'('", [T_RPAR] = "')'",
		[T_LBRACE] = "'{'", [T_RBRACE] = "'}'", [T_LBRACK] = "'['",
		[T_RBRACK] = "']'", [T_UNDERSCORE] = "'_'", [T_ZERO] = "'0'",
		[T_BAR] = "'|'", [T_BARBAR] = "'||'", [T_AMP] = "'&'",
		[T_AMPAMP] = "'&&'", [T_STAR] = "'*'", [T_TILDE] = "'~'",
		[T_PLUS] = "'+'", [T_PLUSPLUS] = "'++'", [T_HAT] = "'^'",
		[T_INV] = "'-1'", [T_BACKSLASH] = "'\\'", [T_QUESTION] = "'?'",
		[T_EQUAL] = "'='", [T_SEMI] = "';'", [T_COMMA] = "','",
		[T_ARROW] = "'->'",
	};
	for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
		if (keywords[i].tok == k)
			return keywords[i].display;
	return ((unsigned)k < T_N_TOKENS && names[k]) ? names[k] : "token";
}

static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_name_char(char c) { return is_alpha(c) || is_digit(c) || c == '_' || c == '.' || c == '-'; }

typedef struct lexer {
	const char *file, *src;
	size_t pos;
	int line, col;
	diag *d;
	cat_tokens *out;
	size_t cap;
} lexer;

static srcloc here(const lexer *lx)
{
	srcloc l = { lx->file, lx->line, lx->col };
	return l;
}

static void advance(lexer *lx, size_t k)
{
	while (k-- > 0 && lx->src[lx->pos]) {
		if (lx->src[lx->pos] == '\n') {
			lx->line++;
			lx->col = 1;
		} else {
			lx->col++;
		}
		lx->pos++;
	}
}

static void push(lexer *lx, enum cat_tok kind, const char *text, size_t len, size_t off, srcloc loc)
{
	GROW(lx->out->t, lx->cap, (size_t)lx->out->n + 1);
	cat_token *t = &lx->out->t[lx->out->n++];
	t->kind = kind;
	t->text = text;
	t->len = len;
	t->off = off;
	t->end = lx->pos;
	t->loc = loc;
}

/* Skip a (* ... *) comment, nested; the opening "(*" is at lx->pos. */
static bool skip_comment(lexer *lx)
{
	srcloc start = here(lx);
	int depth = 0;
	for (;;) {
		const char *p = lx->src + lx->pos;
		if (*p == 0) {
			diag_error(lx->d, start, "unterminated comment");
			return false;
		}
		if (p[0] == '(' && p[1] == '*') {
			depth++;
			advance(lx, 2);
		} else if (p[0] == '*' && p[1] == ')') {
			advance(lx, 2);
			if (--depth == 0)
				return true;
		} else {
			advance(lx, 1);
		}
	}
}

static enum cat_tok keyword_or_var(const char *s, size_t len)
{
	for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++)
		if (strlen(keywords[i].word) == len && memcmp(keywords[i].word, s, len) == 0)
			return keywords[i].tok;
	return T_VAR;
}

/* Length of a name starting at p, or 0 if none starts there. */
static size_t name_len(const char *p)
{
	size_t i = 0;
	if (p[i] == '_')
		i++;
	if (!is_alpha(p[i]))
		return 0;
	i++;
	while (is_name_char(p[i]))
		i++;
	if (p[i] == '\'')
		i++;
	return i;
}

bool cat_lex(const char *file, const char *src, cat_tokens *out, diag *d)
{
	lexer lx = { file, src, 0, 1, 1, d, out, 0 };
	out->n = 0;
	out->t = NULL;
	for (;;) {
		const char *p = src + lx.pos;
		char c = *p;
		if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
			advance(&lx, 1);
			continue;
		}
		if (c == '#' || (c == '/' && p[1] == '/')) {
			while (src[lx.pos] && src[lx.pos] != '\n')
				advance(&lx, 1);
			continue;
		}
		if (c == '(' && p[1] == '*') {
			if (!skip_comment(&lx))
				goto fail;
			continue;
		}
		srcloc loc = here(&lx);
		size_t off = lx.pos;
		if (c == 0) {
			push(&lx, T_EOF, p, 0, off, loc);
			return true;
		}
		if (c == '"') {
			const char *q = strchr(p + 1, '"');
			if (!q) {
				diag_error(d, loc, "unterminated string");
				goto fail;
			}
			size_t len = (size_t)(q - (p + 1));
			advance(&lx, len + 2);
			push(&lx, T_STRING, p + 1, len, off, loc);
			continue;
		}
		if (c == '\'') {
			size_t len = name_len(p + 1);
			if (len == 0) {
				diag_error(d, loc, "a tag needs a name after the quote");
				goto fail;
			}
			advance(&lx, len + 1);
			push(&lx, T_TAG, p + 1, len, off, loc);
			continue;
		}
		size_t nl = name_len(p);
		if (nl > 0) {
			advance(&lx, nl);
			push(&lx, keyword_or_var(p, nl), p, nl, off, loc);
			continue;
		}
		/* Operators and punctuation: two-character ones first. */
		static const struct { const char *s; enum cat_tok tok; } ops[] = {
			{ "||", T_BARBAR }, { "&&", T_AMPAMP }, { "++", T_PLUSPLUS },
			{ "->", T_ARROW }, { "-1", T_INV },
			{ "(", T_LPAR }, { ")", T_RPAR }, { "{", T_LBRACE }, { "}", T_RBRACE },
			{ "[", T_LBRACK }, { "]", T_RBRACK }, { "_", T_UNDERSCORE },
			{ "0", T_ZERO }, { "|", T_BAR }, { "&", T_AMP }, { "*", T_STAR },
			{ "~", T_TILDE }, { "+", T_PLUS }, { "^", T_HAT }, { "\\", T_BACKSLASH },
			{ "?", T_QUESTION }, { "=", T_EQUAL }, { ";", T_SEMI }, { ",", T_COMMA },
		};
		bool found = false;
		for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
			size_t l = strlen(ops[i].s);
			if (strncmp(p, ops[i].s, l) == 0) {
				advance(&lx, l);
				push(&lx, ops[i].tok, p, l, off, loc);
				found = true;
				break;
			}
		}
		if (found)
			continue;
		if (is_digit(c))
			diag_error(d, loc, "unexpected number (only 0, the empty relation, is a literal)");
		else if ((unsigned char)c >= 32 && (unsigned char)c < 127)
			diag_error(d, loc, "unexpected character '%c'", c);
		else
			diag_error(d, loc, "unexpected byte 0x%02x", (unsigned char)c);
		goto fail;
	}
fail:
	cat_tokens_free(out);
	return false;
}

void cat_tokens_free(cat_tokens *ts)
{
	free(ts->t);
	ts->t = NULL;
	ts->n = 0;
}
