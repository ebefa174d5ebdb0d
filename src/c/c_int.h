/* c_int.h — private to src/c: the C dialect's tokens, syntax tree and the
 * parts that share them.
 *
 * Reading a C test's threads goes: c_lex.c (tokens with their locations)
 * -> c_parse.c (functions, statements and expressions into the tree below;
 * the same parser reads a .def file's macro bodies) -> c_macros.c (the
 * .def file: which names are macros, their parameters and bodies) ->
 * c_lower.c (statements into prog.h ops, macros expanded as they are met,
 * herd's primitives __load{T}, __store{T}, ... into events).
 *
 * Ownership: a c_ex / c_st tree is owned by the function or macro that
 * holds it; c_ex_free / c_st_free release a whole tree.
 */
#ifndef WEFT_C_INT_H
#define WEFT_C_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "c.h"

/* ---- tokens (c_lex.c) -------------------------------------------------- */

enum c_tok {
	CT_EOF, CT_ERROR,
	CT_NAME,   /* identifier                                       */
	CT_NUM,    /* integer constant, value in num                   */
	CT_PUNCT,  /* operator or punctuation, spelled in text[0..len) */
};

typedef struct c_token {
	enum c_tok kind;
	const char *text;
	int len;
	int64_t num;
	srcloc loc;
} c_token;

/* A reader over NUL-terminated text that knows its line and column. */
typedef struct c_lexer {
	const char *file;
	const char *p, *bol;
	int line;
	diag *d;
	bool herd_comments; /* (* *) is a comment: between functions only,
	                     * since `(*p)` is C inside them              */
	c_token tok;      /* the current token (c_lex_next reads the next) */
} c_lexer;

/* Start reading text at p (line `line`, whose first byte is bol). */
void c_lex_init(c_lexer *lx, const char *file, const char *p, const char *bol, int line, diag *d);
/* Read the next token into lx->tok.  Skips blanks, newlines, C comments
 * and, with herd_comments, herd's (* ... *) comments. */
void c_lex_next(c_lexer *lx);
bool c_tok_is(const c_token *t, const char *s);
/* After one item of a parenthesised list: a ',' is read and gives 1 (an
 * item follows), a ')' is read and gives 0 (the list ends); anything else
 * is reported as "expected ',' or ')' WHERE" and gives -1. */
int c_lex_list_next(c_lexer *lx, const char *where);

/* ---- the syntax tree (c_parse.c) ------------------------------------ */

enum c_ex_kind {
	CE_NUM,    /* num                                                  */
	CE_NAME,   /* name: a register, a parameter, or a macro parameter  */
	CE_UNARY,  /* op a: "-", "!", "~", "*" (a load), "&"                */
	CE_BINARY, /* a op b                                                */
	CE_CALL,   /* name{tag}(args): a macro or one of herd's primitives;
	            * tag NULL when none is written                        */
	CE_OPER,   /* an operator passed as an argument (__atomic_op's
	            * "+", "&~"): op                                       */
};

typedef struct c_ex {
	enum c_ex_kind kind;
	srcloc loc;
	int64_t num;
	char *name;     /* CE_NAME, CE_CALL (owned)                  */
	char *tag;      /* CE_CALL: the {tag}, or NULL (owned)       */
	char op[4];     /* CE_UNARY, CE_BINARY, CE_OPER               */
	struct c_ex *a, *b;
	int n_args;
	struct c_ex **args;
} c_ex;

enum c_st_kind {
	CS_EXPR,   /* e;                                              */
	CS_ASSIGN, /* lhs = e; (lhs a name, or *addr: a plain store)  */
	CS_DECL,   /* type name [= e];  (e may be NULL)               */
	CS_IF,     /* if (e) then [else els]                          */
	CS_WHILE,  /* while (e) body                                  */
	CS_BLOCK,  /* { ... }                                          */
};

typedef struct c_st {
	enum c_st_kind kind;
	srcloc loc;
	char *text;        /* the statement as written, trimmed, on one
	                    * line (for dumps and messages; owned)     */
	char *name;        /* CS_DECL: the declared name (owned)       */
	c_ex *lhs, *e;
	struct c_st *then, *els;
	int n;             /* CS_BLOCK */
	struct c_st **kids;
} c_st;

void c_ex_free(c_ex *e);
void c_st_free(c_st *s);

/* The parser reads from a lexer; NULL after an error (reported). */
c_ex *c_parse_expr(c_lexer *lx);
c_st *c_parse_stmt(c_lexer *lx);
/* `{` already current: the statements up to the matching `}` (consumed). */
c_st *c_parse_block(c_lexer *lx);
/* Skip a type (words such as int, intptr_t, volatile, struct s, and
 * stars) when the tokens at the cursor start one: true if one was read. */
bool c_parse_type(c_lexer *lx);

/* ---- macros (c_macros.c) ---------------------------------------------- */

typedef struct c_macro {
	char *name;
	int n_params;
	char **params;
	c_ex *expr;     /* an expression macro: READ_ONCE(X) __load{ONCE}(X) */
	c_st *body;     /* a statement macro: WRITE_ONCE(X,V) { ... }         */
	srcloc loc;
} c_macro;

struct c_macros {
	char *file;     /* the .def path (owned; srclocs point at it) */
	int n;
	c_macro *v;
};

const c_macro *c_macro_find(const c_macros *m, const char *name);

/* ---- lowering (c_lower.c) ------------------------------------------------ */

/* One thread function as read. */
typedef struct c_func {
	int proc;
	srcloc loc;
	int n_params;
	char **params;     /* names, in order (owned) */
	char **param_types; /* types as written, trimmed (owned) */
	c_st *body;
	char *hash_cell;   /* the function as herd's hash prints it, or NULL
	                    * (owned) */
} c_func;

/* Turn f into thread t->threads[f->proc]'s registers and ops; macros m
 * (may be NULL: no macro is known).  False after reporting. */
bool c_lower_thread(litmus_test *t, const c_func *f, const c_macros *m, diag *d);

/* ---- herd's hash (c_hash_form.c) ------------------------------------------ */

/* The `}` that closes the body opened at `open` as herd's shallow reader
 * finds it: braces counted as bytes, even inside comments; NULL when the
 * text ends first. */
const char *c_raw_body_end(const char *open);
/* Function f with raw body text body[0..body_len) as herd's hash prints
 * it (owned by the caller). */
char *c_hash_cell(const c_func *f, const char *body, size_t body_len);

#endif
