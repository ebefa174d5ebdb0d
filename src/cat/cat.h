/* cat.h — memory models written in herd's cat language: the oracle.
 *
 * A model is loaded (parsed, includes resolved, compiled) once, then asked
 * about executions.  The engine never sees the model's text; the model never
 * sees the program's text.
 *
 * The language is herd7's (CAT.md): let / let rec (least fixpoints) / and,
 * functions (fun, let f(a,b) = ..., let f x = ...), application f(x) and
 * f x, tuples, tags and sets of values, match on tags and on sets, try ...
 * with, if (variants, =, subset, in), include, procedure / call, enum,
 * show / unshow (kept for pictures) / debug (ignored), checks [flag] [~]acyclic |
 * irreflexive | empty e [as name], `with X from e`, and bell files
 * (enum, `instructions K[tags]`, `default K[tags]`).  Unsupported forms
 * (forall, let rec ... when) are located errors.
 * herd's stdlib.cat is loaded first from the model's own folder (then the
 * search path), so herd's models run with herd's library and weft's models
 * (cat/ in the source tree) with weft's.  Built-in names: see cat_builtin.c
 * (W R M F B IW FW X EX RMW, one set per fence mnemonic of the test's
 * architecture, po rf co fr loc int ext addr data ctrl rmw amo id,
 * same-instance, sm, si, domain, range, classes-loc, linearisations, ...).
 * `with X from e` runs the rest of the model once per element of e, as
 * herd does: an execution counts once per element under which it passes
 * (cat_verdict.n_allowed).  `with co from e` (herd's cos.cat) is the
 * engine's co, e not evaluated, unless the model widened the writes co is
 * over (lock.cat's W | LKW): then each element of e that orders the
 * execution's writes as its co does is a choice (cat_choice.c).
 *
 * Ownership: cat_model_load() returns a model owned by the caller, released
 * with cat_model_free().  A cat_verdict's strings are owned by the model.
 * A model keeps its evaluation state (an arena reused from one execution to
 * the next): use one model per thread, and read a verdict before the next
 * call on the same model.
 */
#ifndef WEFT_CAT_H
#define WEFT_CAT_H

#include <stdbool.h>

#include "../exec/exec.h"
#include "../util/util.h"

typedef struct cat_model cat_model;

/* Where `include "f.cat"` and -model NAME look, in order: the including
 * file's folder, each -I folder, each folder of $WEFT_CAT_PATH (colon
 * separated), then the installed data folder. */
typedef struct cat_search_path {
	int n;
	const char **dirs;
} cat_search_path;

/* Load a model from a file path, or by NAME (finds NAME.cat on the search
 * path; "ppc" and "x86tso" are aliases of power and tso, used when no
 * ppc.cat / x86tso.cat is on the path; FILE.cat is also looked for in the
 * current folder first).  Returns NULL after reporting located errors
 * through d. */
cat_model *cat_model_load(const char *name_or_path, const cat_search_path *sp, diag *d);
/* As cat_model_load, from a model's text held in memory (an interactive
 * session, a web page, a fuzzer); `name` names it in messages, and its
 * folder (if it has one) is where its includes and stdlib.cat are looked
 * for first. */
cat_model *cat_model_load_text(const char *name, const char *text, const cat_search_path *sp, diag *d);
void cat_model_free(cat_model *m);
/* The model's title (the quoted string or first word at its top), or its
 * file's base name. */
const char *cat_model_name(const cat_model *m);
/* The path of the model's own file, as it was opened (what a saved result
 * says produced it). */
const char *cat_model_file(const cat_model *m);

/* What the model says of one complete execution. */
typedef struct cat_verdict {
	bool allowed;             /* no non-flag check failed                 */
	const char *failed;       /* name of the first failing check, or NULL */
	int n_flags;              /* flag checks that fired, in model order   */
	const char *const *flags; /* their names                              */
	const char *ignored;      /* the first skipped check that failed
	                           * (cat_model_skip_check), or NULL: it did
	                           * not decide the verdict                   */
	int n_allowed;            /* when allowed: the number of executions
	                           * herd counts, one per choice of the
	                           * model's `with X from S` under which it
	                           * passes (1 for a model without them); 0
	                           * is read as 1 (an engine without a model) */
} cat_verdict;

/* The coherence orders worth trying on x (its rf set) under a model that
 * chooses co itself: `with co from S` where S is evaluated (the model
 * widened W, as lock.cat does) and reads neither co nor fr.  An execution
 * whose co none of S's elements gives counts for nothing, so an engine
 * need only try these: the distinct projections of S's elements on the
 * memory writes, under every element of the model's earlier choices
 * (cat_co_orders.c).  When S reads FW (stdlib.cat's co0 does: the last
 * writes of co), x's co is read for its last writes and the orders are
 * those for these last writes: an order with other last writes must be
 * left out (S is another set for it), and the engine asks again for each
 * choice of last writes.  Not every order is one an engine can build (a
 * total order of each location's writes, the initial write first): the
 * engine skips those.  False (nothing kept) when the model has no such
 * choice or S does not evaluate on x: then every order must be tried.
 * The orders are relations over x's events, owned by the caller
 * (cat_co_orders_free). */
typedef struct cat_co_orders {
	int n;
	brel *v;
	bool per_final_writes;   /* S read FW: orders for x's last writes */
} cat_co_orders;
bool cat_model_co_orders(cat_model *m, const execution *x, cat_co_orders *out);
/* Whether m has such a choice at all (false: cat_model_co_orders is false
 * on every execution). */
bool cat_model_chooses_co_orders(const cat_model *m);
void cat_co_orders_free(cat_co_orders *o);

/* Evaluate every check of the model on a complete execution.  Returns false
 * (after reporting through d) only when evaluation itself fails, e.g. a
 * type error that could only be seen at run time.  Checks run in model
 * order and stop at the first failing one, as in herd. */
bool cat_model_check(cat_model *m, const execution *x, cat_verdict *out, diag *d);

/* ---- additions (src/cat's own, backward compatible) ------------------------ */

/* As cat_model_load, with herd's -variant names set (NULL-terminated list,
 * or NULL for none).  Variants select the branches of `if "name" ... else
 * ... end` in model files. */
cat_model *cat_model_load_variants(const char *name_or_path, const cat_search_path *sp,
                                   const char *const *variants, diag *d);

/* `weft -check FILE.cat`: parse the file with stdlib.cat and its includes
 * and resolve every name; reports located errors through d. */
bool cat_check_file(const char *path, const cat_search_path *sp, diag *d);

/* How to load a model beyond its name (herd's -variant, -bell). */
typedef struct cat_load_options {
	const char *const *variants;  /* NULL-terminated, or NULL */
	const char *bell;             /* a bell file's path, or NULL: herd
	                               * reads it (after stdlib.cat) before
	                               * the model, and binds the sets its
	                               * `instructions` declarations name */
} cat_load_options;
/* As cat_model_load_variants.  A model named NULL is the bell alone. */
cat_model *cat_model_load_with(const char *name_or_path, const cat_search_path *sp, const cat_load_options *o,
                               diag *d);
/* As cat_check_file; a FILE.bell (or a NULL path with o->bell) is a bell
 * checked alone. */
bool cat_check_file_with(const char *path, const cat_search_path *sp, const cat_load_options *o, diag *d);

/* The top-level checks of a model, in model order: check instructions
 * (acyclic / irreflexive / empty, flags included) and procedure calls. */
int cat_model_n_checks(const cat_model *m);
/* Its `as` name, or else the text of its expression (herd's name). */
const char *cat_model_check_name(const cat_model *m, int i);
/* A flag (or undefined_unless, or assert) check: it never fails an
 * execution. */
bool cat_model_check_is_flag(const cat_model *m, int i);
/* The model says `catdep`: it computes addr, data and ctrl itself from
 * herd's register events (herd's aarch64.cat), which weft does not build;
 * it evaluates on executions that carry herd's dependency relations
 * (exec.h, has_herd_deps; cat_herd_deps.c), and fails naming a register
 * set on others. */
bool cat_model_computes_deps(const cat_model *m);
/* The relations the model's top-level `show` directives name, for
 * pictures: `show r1, r2` (labelled r1, r2), `show e as label`, less those
 * an `unshow label` removed after; a shown name is the binding it has at
 * the show.  cat_model_eval_shown evaluates the i-th on x (false, after
 * reporting through d, when it is not a relation or cannot be evaluated:
 * a name of another architecture's fences, a set). */
int cat_model_n_shown(const cat_model *m);
const char *cat_model_shown_label(const cat_model *m, int i);
bool cat_model_eval_shown(cat_model *m, const execution *x, int i, brel *out, diag *d);
/* herd's -skipchecks NAME: the outcome of every check called `name` is
 * ignored from now on by cat_model_check, cat_model_check_partial and
 * cat_partial_check*: it is still evaluated on complete executions, and a
 * failure is said in cat_verdict.ignored, but it never forbids.  False
 * when the model has no check of that name.  cat_model_failing_checks and
 * cat_model_explain_check still report it (they say what fails). */
bool cat_model_skip_check(cat_model *m, const char *name);
/* herd's -through all|invalid for a model read from a file: every check
 * but the flags is skipped, so every candidate is let through. */
void cat_model_skip_all_checks(cat_model *m);
bool cat_model_check_is_skipped(const cat_model *m, int i);
/* herd's -strictskip: a complete execution is allowed only when it fails
 * every check skipped by cat_model_skip_check (and passes the others): the
 * executions only those checks forbid.  One where a skipped check holds
 * is rejected with `failed` naming that check.  Partial evaluations are
 * not affected. */
void cat_model_set_strict_skip(cat_model *m, bool strict);
/* A monotone check: if it fails on a partial execution it fails on every
 * extension of it (more events, more rf/co edges), so it may be evaluated
 * early; see cat_mono.c for the rules.  Flags are never monotone. */
bool cat_model_check_is_monotone(const cat_model *m, int i);

/* Evaluate only the monotone checks, on a partial execution (e.g. RSMC's
 * committed prefix).  out->allowed is false if one of them fails; flags
 * are not reported.  Same error convention as cat_model_check. */
bool cat_model_check_partial(cat_model *m, const execution *x, cat_verdict *out, diag *d);

/* Evaluators of a model's checks of their own (cat_incr.c) that keep what
 * they can from one call to the next, exactly (same verdicts as
 * cat_model_check / cat_model_check_partial): for an engine that checks
 * many related executions (RSMC's growing prefixes).  Owned by the caller;
 * free before the model.  Verdict strings as for cat_model_check. */
typedef struct cat_partial cat_partial;
cat_partial *cat_partial_new(cat_model *m);
void cat_partial_free(cat_partial *p);
/* As cat_model_check_partial (the monotone checks). */
bool cat_partial_check(cat_partial *p, const execution *x, cat_verdict *out, diag *d);
/* As cat_model_check (every check, flags reported). */
bool cat_partial_check_all(cat_partial *p, const execution *x, cat_verdict *out, diag *d);

/* Does the model bind `name` at top level (e.g. RSMC.md's commit_before)? */
bool cat_model_defines(const cat_model *m, const char *name);
/* The value of the model's top-level relation `name` in execution x, as a
 * new brel owned by the caller.  False (after reporting through d) if the
 * name is unbound, not a relation, or cannot be evaluated. */
bool cat_model_eval_relation(cat_model *m, const execution *x, const char *name, brel *out, diag *d);

/* What the model says, independent of its title and file name
 * (cat_identity.c): an MD5 (32 hex digits) over the tokens of every file
 * it loaded, stdlib.cat and includes too, titles left out; comments and
 * layout do not count. */
const char *cat_model_fingerprint(const cat_model *m);
/* The definition of top-level binding `name` in a fixed text form (fully
 * parenthesised, no spaces, e.g. "(po|rf)"), or NULL when it is unbound,
 * not a plain let, or uses a name that is not a built-in of the execution
 * (a name the model binds could mean anything).  Owned by the caller. */
char *cat_model_canonical_definition(const cat_model *m, const char *name);

/* ---- explanations (cat_explain.c) ----------------------------------------- */

/* One edge of an explanation: from -> to.  `base`: it is an edge of one of
 * the execution's base relations (po, rf, co, fr, addr, data, ctrl, rmw).
 * `via` names where the model found it: the innermost named relation it was
 * reached through (e.g. "sync", "ppo", "fre", or a built-in's name), else
 * the text of the sub-expression.  Strings are owned by the explanation. */
typedef struct cat_step {
	int from, to;
	bool base;       /* an edge of one of the base relations above */
	char *via;
} cat_step;

enum cat_shape {
	CAT_SHAPE_NONE,   /* no witness: a negated check, a procedure call, or
	                   * a check that holds                              */
	CAT_SHAPE_CYCLE,  /* acyclic: `top` is a shortest cycle              */
	CAT_SHAPE_LOOP,   /* irreflexive: `top` goes from an event to itself */
	CAT_SHAPE_PAIR,   /* empty (a relation): `top` is one pair, or a path
	                   * through the relation's sequence operands         */
	CAT_SHAPE_EVENT,  /* empty (a set): `event` is a member               */
};

/* Why check `check` fails on an execution.  `top` is the witness in terms
 * of the check's own operands (each edge's via is the text of the operand
 * of the top-level union or sequence containing it); `steps` is the same
 * path broken down, as far as the model's definitions allow, into edges of
 * base relations (each derived edge replaced by a path of base edges; an
 * edge that cannot be broken down stays as one non-base step). */
typedef struct cat_explanation {
	int check;
	const char *check_name;   /* owned by the model */
	enum cat_shape shape;
	int event;                /* CAT_SHAPE_EVENT */
	int n_top;
	cat_step *top;
	int n_steps;
	cat_step *steps;
} cat_explanation;

/* Evaluate every non-flag check on x (not stopping at the first failure)
 * and write the indices of those that fail to failing[] (room for
 * cat_model_n_checks entries).  Returns their number, or -1 after
 * reporting an evaluation error through d. */
int cat_model_failing_checks(cat_model *m, const execution *x, int *failing, diag *d);
/* Explain why check `check` fails on x.  Returns false after reporting
 * through d when evaluation fails; a check that holds, or one whose
 * witness cannot be shown, gives CAT_SHAPE_NONE. */
bool cat_model_explain_check(cat_model *m, const execution *x, int check, cat_explanation *out, diag *d);
void cat_explanation_free(cat_explanation *e);

/* ---- the symbolic form (cat_sym.c), for engines that solve -------------- */

/* A model's checks over one static part of an execution (its events, po,
 * dependencies, rmw: what every candidate with those events shares), with
 * everything static already computed (constants) and what depends on rf,
 * co, fr and FW left as terms over them, for an engine that encodes those
 * symbolically (bmc).  Terms form a DAG: a term's operands come before it,
 * but a CT_REC's definition, which may refer to itself. */
enum cat_term_kind {
	CT_CONST,            /* `rel` or `set`, computed on the static part  */
	CT_RF, CT_CO, CT_FR, /* the execution's relations                    */
	CT_FW,               /* the co-last writes                           */
	CT_UNION, CT_INTER, CT_DIFF, CT_SEQ, /* a, b: same shape             */
	CT_PROD,             /* a * b: sets to a relation                    */
	CT_INV, CT_PLUS, CT_STAR, CT_OPT, /* a: relations                    */
	CT_COMPL,            /* ~a: set or relation                          */
	CT_TOID,             /* [a]: a set to a relation                     */
	CT_DOMAIN, CT_RANGE, /* a relation to a set                          */
	CT_REC,              /* a member of a let rec group: the least
	                      * fixpoint; a = its definition                 */
};

typedef struct cat_term {
	enum cat_term_kind kind;
	bool is_set;         /* an event set; else a relation               */
	int a, b;            /* operands (term indices), -1 when none       */
	brel rel;            /* CT_CONST relation (owned)                   */
	bset set;            /* CT_CONST set (owned)                        */
	srcloc loc;          /* where it is written                         */
	const char *name;    /* CT_REC: the binding's name                  */
} cat_term;

/* One check of the model.  term < 0: it did not depend on rf, co, fr or
 * FW and was evaluated (const_holds). */
typedef struct cat_sym_check {
	const char *name;    /* as in cat_model_check_name (model's string)  */
	int test;            /* 0 acyclic, 1 irreflexive, 2 empty            */
	bool negated;        /* ~acyclic ...                                 */
	bool flag;           /* a flag: fires when the test holds            */
	bool undefined_unless; /* a flag that fires when the test fails      */
	int term;
	bool const_holds;    /* term < 0: the check passes (a flag: fires)   */
	srcloc loc;
} cat_sym_check;

typedef struct cat_symbolic {
	int n_terms;
	size_t cap_terms;
	cat_term *terms;
	int n_checks;
	cat_sym_check *checks;
} cat_symbolic;

/* Build m's checks over x's static part (x's rf and co are not read).
 * False, after a located error through d, when the model cannot be put in
 * this form: a construct the symbolic form has no term for, applied to
 * something that depends on rf, co, fr or FW, is "not supported by bmc:
 * CONSTRUCT"; an evaluation error is reported as cat_model_check would. */
bool cat_model_symbolic(cat_model *m, const execution *x, cat_symbolic *out, diag *d);
void cat_symbolic_free(cat_symbolic *s);

#endif
