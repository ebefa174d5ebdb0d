/* lex.h — private to src/litmus: reading litmus text.
 *
 * A litmus file mixes three languages: a line-based preamble (header,
 * doc string, key=value lines), a character-based thread table whose cells
 * belong to the architecture, and herd's "state language" used by the init
 * block, `locations`, `filter` and the final condition.  The cursor below
 * serves all three; the token reader serves the state language.
 *
 * Nothing here allocates: tokens point into the text being parsed.
 */
#ifndef WEFT_LITMUS_LEX_H
#define WEFT_LITMUS_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../util/util.h"

/* A reading position with its line and column. */
typedef struct cursor {
	const char *file; /* for srclocs (owned by the test being built) */
	const char *p;    /* next unread byte; the text ends with a NUL  */
	const char *bol;  /* first byte of the current line              */
	int line;
} cursor;

void cursor_init(cursor *c, const char *file, const char *text);
srcloc cursor_loc(const cursor *c);
/* Location of a byte `at` on the cursor's current line. */
srcloc cursor_loc_at(const cursor *c, const char *at);
/* Consume one byte, keeping line and column right. */
void cursor_advance(cursor *c);

static inline bool is_blank(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\f' || ch == '\v'; }
static inline bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }
static inline bool is_alpha(char ch) { return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'); }
/* Bytes that have no business outside comments and strings. */
static inline bool is_junk(char ch) { return (unsigned char)ch < 0x20 ? !is_blank(ch) && ch != '\n' : ch == 0x7f; }

/* Skip a `(* ... *)` comment (nested) starting at the cursor.  Reports an
 * unterminated comment at its opening and returns false. */
bool skip_comment(cursor *c, diag *d);
/* Skip blanks and comments; newlines too when `newlines`.  False after
 * reporting an unterminated comment. */
bool skip_space(cursor *c, diag *d, bool newlines);

/* ---- the state language ------------------------------------------------ */

enum tok_kind {
	T_EOF,     /* end of text, or `<<` (what follows is ignored, as herd does) */
	T_ERROR,   /* already reported                                             */
	T_NAME,    /* identifier or keyword: [A-Za-z_.$][A-Za-z0-9_/.-]*           */
	T_NUM,     /* integer: [-]digits or 0x hex digits, value in `num`          */
	T_PROC,    /* `P<n>` (a thread), number in `num`                           */
	T_SYMREG,  /* `%name`: a symbolic register                                 */
	T_SEMI, T_COLON, T_COMMA, T_AMP, T_PLUS, T_STAR,
	T_LBRK, T_RBRK, T_LPAR, T_RPAR, T_LBRACE, T_RBRACE,
	T_EQ,      /* = or ==  */
	T_NE,      /* <> or != */
	T_IMPLIES, /* =>       */
	T_AND,     /* /\       */
	T_OR,      /* \/       */
	T_NOT,     /* ~ (the word `not` is a T_NAME)  */
};

typedef struct token {
	enum tok_kind kind;
	const char *start;
	size_t len;
	srcloc loc;
	int64_t num;
} token;

/* Read the next token (skipping blanks, newlines and comments).  Errors
 * (bad character, malformed or out-of-range number, unterminated comment)
 * are reported and give T_ERROR. */
token lex_token(cursor *c, diag *d);
/* Does token `t` spell the word `w`? */
bool tok_is(const token *t, const char *w);
/* A short printable description of a token for messages ("'foo'",
 * "end of file"); writes into buf of `size` bytes. */
const char *tok_describe(const token *t, char *buf, size_t size);

/* Parse an integer literal at `s` (herd's syntax: optional '-', decimal, or
 * 0x/0X hex which may use all 64 bits).  Returns the number of bytes used,
 * 0 if no number starts here, or -1 when it is out of range. */
long scan_integer(const char *s, int64_t *out);

#endif
