/* cat_ast.h — the syntax tree of a cat file (internal to src/cat).
 *
 * The parser (cat_parse.c) builds it; the compiler (cat_compile.c) then
 * annotates it in place: every name gets its resolution (global slot, local
 * frame position, or a fence set looked up per execution), every binding
 * construct gets its frame size.  The evaluator walks the annotated tree.
 *
 * Ownership: a cat_file owns its instructions, which own their expressions,
 * which own their children and strings.  srclocs borrow the file's path,
 * which the cat_file owns.
 */
#ifndef WEFT_CAT_AST_H
#define WEFT_CAT_AST_H

#include <stdbool.h>

#include "../util/util.h"

/* ---- patterns ------------------------------------------------------------ */

/* A binder: one name (`x`, tuple == false) or a tuple of names (`(a,b)`,
 * `a, b`, `()`).  A NULL name is the wildcard `_`. */
typedef struct cat_pat {
	bool tuple;
	int n;
	char **names;
} cat_pat;

/* ---- expressions --------------------------------------------------------- */

enum cat_ex_kind {
	CE_EMPTY_REL,  /* 0: the empty relation */
	CE_EMPTY,      /* {}: the polymorphic empty set */
	CE_UNIV,       /* _: the universe */
	CE_TAG,        /* 'name                                  (name) */
	CE_VAR,        /* a name                                 (name, ref) */
	CE_SET,        /* {e1, ..., en}, n >= 1                  (kids) */
	CE_TUPLE,      /* (e1, ..., en), n != 1                  (kids) */
	CE_UNION,      /* e1 | ... | en                          (kids) */
	CE_SEQ,        /* e1 ; ... ; en                          (kids) */
	CE_INTER,      /* e1 & e2 */
	CE_DIFF,       /* e1 \ e2 */
	CE_PROD,       /* e1 * e2 (cartesian product of two sets) */
	CE_ADD,        /* e1 ++ e2 (add an element to a set) */
	CE_STAR,       /* e*  */
	CE_PLUS,       /* e+  */
	CE_OPT,        /* e?  */
	CE_INV,        /* e^-1 */
	CE_COMPL,      /* ~e  */
	CE_TOID,       /* [e] */
	CE_APP,        /* kids[0] applied to kids[1] */
	CE_FUN,        /* fun pat -> kids[0]                     (pat, name, frame) */
	CE_LET,        /* let binds in kids[0]                   (binds, frame) */
	CE_LETREC,     /* let rec binds in kids[0]               (binds, frame) */
	CE_MATCH_TAG,  /* match kids[0] with 'tags[i] -> kids[i+1] || _ -> last
	                * (has_default: the last kid is the default) */
	CE_MATCH_SET,  /* match kids[0] with {} -> kids[1] || name ++ name2 -> kids[2]
	                * (frame of 2 slots for the element and the rest) */
	CE_TRY,        /* try kids[0] with kids[1] */
	CE_IF,         /* if cond then kids[0] else kids[1] */
};

/* How a CE_VAR was resolved by the compiler. */
enum cat_ref_kind {
	REF_UNRESOLVED,
	REF_GLOBAL,    /* global slot `index` */
	REF_LOCAL,     /* frame `depth` levels up, position `index` */
	REF_DYN,       /* a fence set looked up by name in each execution; an
	                * error there if the test's architecture lacks it */
};

struct cat_cond;
struct cat_bind;

typedef struct cat_ex {
	enum cat_ex_kind kind;
	srcloc loc;
	int n;
	struct cat_ex **kids;
	char *name;              /* CE_VAR, CE_TAG; CE_FUN: the function's name
	                          * for messages; CE_MATCH_SET: element binder */
	char *name2;             /* CE_MATCH_SET: rest binder */
	cat_pat pat;             /* CE_FUN parameter */
	int nb;
	struct cat_bind *binds;  /* CE_LET, CE_LETREC */
	char **tags;             /* CE_MATCH_TAG: n - 1 - has_default tags */
	bool has_default;        /* CE_MATCH_TAG */
	struct cat_cond *cond;   /* CE_IF */
	/* filled in by the compiler */
	enum cat_ref_kind ref;
	int depth, index;        /* CE_VAR */
	int frame_size;          /* CE_FUN, CE_LET, CE_LETREC, CE_MATCH_SET */
	signed char static_memo; /* cat_static.c, once the model's slots are
	                          * classified: 1 static, -1 not, 0 unknown */
	signed char local_memo;  /* cat_sym.c: uses a local name (1), not
	                          * (-1), unknown (0) */
	signed char values_memo; /* cat_sym.c: applies different-values
	                          * itself, as local_memo */
} cat_ex;

/* One `pat = e` of a let; `f x = e` and `f(a,b) = e` arrive here as
 * `f = fun ... -> e`. */
typedef struct cat_bind {
	cat_pat pat;
	cat_ex *e;
	srcloc loc;
	int slot;                /* compiler: first global slot (top level) or
	                          * first frame position (local) of pat */
} cat_bind;

/* Conditions of `if`: variants (herd's -variant) and value comparisons. */
enum cat_cond_kind { CC_VARIANT, CC_EQ, CC_SUBSET, CC_IN, CC_NOT, CC_AND, CC_OR };
typedef struct cat_cond {
	enum cat_cond_kind kind;
	srcloc loc;
	char *variant;           /* CC_VARIANT */
	cat_ex *a, *b;           /* CC_EQ, CC_SUBSET, CC_IN */
	struct cat_cond *l, *r;  /* CC_NOT (l), CC_AND, CC_OR */
} cat_cond;

/* ---- instructions -------------------------------------------------------- */

enum cat_test { TEST_ACYCLIC, TEST_IRREFLEXIVE, TEST_EMPTY };
/* CHECK_ASSERT: herd's `assert`, a property the model's author states of
 * every execution; when it fails the model is wrong for this test, an
 * evaluation error rather than a forbidden execution. */
enum cat_check_mode { CHECK_REQUIRE, CHECK_FLAG, CHECK_UNDEFINED_UNLESS, CHECK_ASSERT };

enum cat_ins_kind {
	CI_LET,        /* let binds */
	CI_LETREC,     /* let rec binds */
	CI_CHECK,      /* [flag] [~]test e [as name] */
	CI_INCLUDE,    /* include "file" */
	CI_SHOW,       /* show / unshow (negated): plain names in tags,
	                * the label of `show E as LABEL` in as_name and,
	                * when E is not a plain name, E in e */
	CI_PROCEDURE,  /* procedure name pat = body end */
	CI_CALL,       /* call name arg [as name] */
	CI_WITH_FROM,  /* with name from e */
	CI_IF,         /* if cond body [else body2] end */
	CI_ENUM,       /* enum name = 'a || 'b */
	CI_DEBUG,      /* debug e: accepted, ignored */
	CI_CATDEP,     /* catdep: the model computes dependencies itself */
	CI_INSTRUCTIONS, /* a bell file's `instructions K[e1, ...]` (or, with
	                  * is_default, `default K[...]`): the annotations
	                  * instructions of kind K (name) may carry, each ei
	                  * a set of tags; the tuple of the ei is in e */
};

struct cat_ins;
typedef struct cat_ins_list {
	int n;
	struct cat_ins **v;
} cat_ins_list;

typedef struct cat_ins {
	enum cat_ins_kind kind;
	srcloc loc;
	int nb;
	cat_bind *binds;           /* CI_LET, CI_LETREC */
	enum cat_test test;        /* CI_CHECK */
	bool negated;              /* CI_CHECK: ~acyclic ... */
	enum cat_check_mode mode;  /* CI_CHECK */
	cat_ex *e;                 /* CI_CHECK, CI_CALL (argument), CI_WITH_FROM */
	char *name;                /* CI_INCLUDE: file; CI_PROCEDURE/CI_CALL:
	                            * the procedure; CI_WITH_FROM/CI_ENUM: the
	                            * bound name */
	char *as_name;             /* CI_CHECK/CI_CALL: `as` name or NULL */
	char *text;                /* CI_CHECK: the expression's source text */
	cat_pat pat;               /* CI_PROCEDURE parameters */
	cat_ins_list body, body2;  /* CI_PROCEDURE, CI_IF */
	cat_cond *cond;            /* CI_IF */
	bool is_default;           /* CI_INSTRUCTIONS: `default K[...]` */
	int ntags;
	char **tags;               /* CI_ENUM */
	/* filled in by the compiler */
	int slot;                  /* CI_WITH_FROM, CI_ENUM, CI_PROCEDURE: slot;
	                            * CI_CALL: the procedure's slot */
	int frame_size;            /* CI_PROCEDURE: size of the body's frame */
	int taken;                 /* CI_IF: branch chosen at load time (the
	                            * variants are fixed then): 1 body, 2 body2,
	                            * 0 neither */
	int check;                 /* CI_CHECK, CI_CALL at top level: index in
	                            * the model's check list, else -1 */
} cat_ins;

typedef struct cat_file {
	char *path;                /* as opened; srclocs point here */
	char *title;               /* herd's model name: quoted string or name
	                            * at the top (second name of "X86 TSO"), or
	                            * NULL */
	char digest[33];           /* MD5 of the tokens after the title
	                            * (cat_identity.c) */
	cat_ins_list ins;
} cat_file;

/* Parse a whole file's text.  Returns NULL after reporting a located error.
 * The result owns a copy of `path`. */
cat_file *cat_parse(const char *path, const char *text, diag *d);
void cat_file_free(cat_file *f);
void cat_ex_free(cat_ex *e);
void cat_ins_free(cat_ins *in);
void cat_ins_list_free(cat_ins_list *l);
void cat_cond_free(cat_cond *c);
void cat_pat_free(cat_pat *p);

#endif
