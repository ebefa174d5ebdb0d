/* cat_lex.h — tokens of herd's cat language (internal to src/cat).
 *
 * The lexer turns a whole file into an array of tokens up front, so that the
 * parser can look ahead freely.  Lexical facts follow herd7's model lexer:
 *   names      '_'? letter (letter | digit | '_' | '.' | '-')* '\''?
 *              (po-loc, DMB.SY, _RMW and r' are single names)
 *   comments   (* ... *) nested; "//" and "#" up to the end of the line
 *   strings    "..." without escapes
 *   tags       'name
 *   "0" is the empty relation, "_" alone the universe, "-1" only in "^-1".
 */
#ifndef WEFT_CAT_LEX_H
#define WEFT_CAT_LEX_H

#include <stddef.h>

#include "../util/util.h"

enum cat_tok {
	T_EOF,
	T_VAR, T_TAG, T_STRING,
	T_LPAR, T_RPAR, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK,
	T_UNDERSCORE, T_ZERO,
	T_BAR,       /* |  */
	T_BARBAR,    /* || */
	T_AMP,       /* &  */
	T_AMPAMP,    /* && */
	T_STAR, T_TILDE, T_PLUS, T_PLUSPLUS, T_HAT,
	T_INV,       /* -1 */
	T_BACKSLASH, T_QUESTION, T_EQUAL, T_SEMI, T_COMMA, T_ARROW,
	/* keywords */
	T_LET, T_REC, T_AND, T_WHEN, T_ACYCLIC, T_IRREFLEXIVE, T_SHOW, T_UNSHOW,
	T_EMPTY, T_SUBSET, T_AS, T_FUN, T_IN, T_UNDEFINED_UNLESS, T_FLAG,
	T_ASSERT, T_INCLUDE, T_VARIANT, T_BEGIN, T_END, T_PROCEDURE, T_CALL,
	T_ENUM, T_DEBUG, T_MATCH, T_WITH, T_FORALL, T_FROM, T_DO, T_TRY, T_IF,
	T_THEN, T_ELSE, T_CATDEP, T_INSTRUCTIONS, T_DEFAULT, T_NOT,
	T_N_TOKENS
};

typedef struct cat_token {
	enum cat_tok kind;
	const char *text;  /* points into the source (VAR, TAG: without the quote;
	                    * STRING: without the double quotes) */
	size_t len;
	size_t off, end;   /* byte span of the whole token in the source */
	srcloc loc;
} cat_token;

typedef struct cat_tokens {
	int n;
	cat_token *t;      /* t[n-1] is T_EOF */
} cat_tokens;

/* Tokenize `src` (NUL-terminated); `file` is borrowed for the srclocs.
 * Returns false after reporting a located error (the array is freed). */
bool cat_lex(const char *file, const char *src, cat_tokens *out, diag *d);
void cat_tokens_free(cat_tokens *ts);
/* Human name of a token kind for messages: "'|'", "keyword 'let'", ... */
const char *cat_tok_name(enum cat_tok k);
/* MD5 (32 hex digits) of tokens from..n-1, by kind and text: what a file
 * says, without its layout and comments (cat_identity.c). */
void cat_tokens_digest(const cat_tokens *ts, int from, char hex[33]);

#endif
