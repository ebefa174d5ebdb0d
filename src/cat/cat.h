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
 * This header is the door for everyone (the command line, the reports, the
 * engines): load a model, judge a complete execution, list and skip its
 * checks, evaluate what it shows, explain a failing check.  What only an
 * engine needs (monotone and incremental checks of partial executions, the
 * co orders a model chooses, the symbolic form) is behind the engines' own
 * door, analysis/cat_analysis.h.
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

/* How to load a model: where to look, herd's -variant and -bell, or a
 * model held in memory.  Zeroed fields are the defaults. */
typedef struct cat_load_options {
	const cat_search_path *search; /* NULL: an empty search path       */
	const char *const *variants;   /* herd's -variant names, NULL-
	                                * terminated, or NULL: they select
	                                * the branches of `if "name" ... else
	                                * ... end` in model files          */
	const char *bell;              /* a bell file's path, or NULL: herd
	                                * reads it (after stdlib.cat) before
	                                * the model, and binds the sets its
	                                * `instructions` declarations name */
	const char *text;              /* the model's text, held in memory (an
	                                * interactive session, a web page, a
	                                * fuzzer), or NULL: read the file.
	                                * The name then names it in messages,
	                                * and its folder (if it has one) is
	                                * where its includes and stdlib.cat
	                                * are looked for first             */
} cat_load_options;

/* Load a model from a file path, or by NAME (finds NAME.cat on the search
 * path; "ppc" and "x86tso" are aliases of power and tso, used when no
 * ppc.cat / x86tso.cat is on the path; FILE.cat is also looked for in the
 * current folder first); o may be NULL (the defaults).  A model named NULL
 * is o's bell alone.  Returns NULL after reporting located errors through
 * d. */
cat_model *cat_model_load(const char *name_or_path, const cat_load_options *o, diag *d);
/* `weft -check FILE.cat`: parse the file with stdlib.cat and its includes
 * and resolve every name; a FILE.bell (or a NULL path with o->bell) is a
 * bell checked alone.  Reports located errors through d. */
bool cat_check_file(const char *path, const cat_load_options *o, diag *d);
void cat_model_free(cat_model *m);
/* The model's title (the quoted string or first word at its top), or its
 * file's base name. */
const char *cat_model_name(const cat_model *m);
/* The path of the model's own file, as it was opened (what a saved result
 * says produced it). */
const char *cat_model_file(const cat_model *m);

/* The flag of an execution that fails an `undefined_unless` check: herd
 * records it as its Undef flag, whatever the check's name, prints it so
 * ("Flag *undef*", before the named flags) and says "Undef" in place of
 * the test's Ok or No. */
#define CAT_UNDEF_FLAG "*undef*"

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

/* Evaluate every check of the model on a complete execution.  Returns false
 * (after reporting through d) only when evaluation itself fails, e.g. a
 * type error that could only be seen at run time.  Checks run in model
 * order and stop at the first failing one, as in herd. */
bool cat_model_check(cat_model *m, const execution *x, cat_verdict *out, diag *d);

/* cat_model_check judges with the model compiled (cat_prog.c) where it
 * can, else with the evaluator; the verdicts are the same.  Compiled
 * false: always the evaluator.  The counts: the complete executions each
 * has judged since the model was loaded (the evaluator's, when the
 * compiled check was on and could not). */
void cat_model_set_compiled(cat_model *m, bool compiled);
void cat_model_check_counts(const cat_model *m, long *compiled, long *interpreted);

/* The top-level checks of a model, in model order: check instructions
 * (acyclic / irreflexive / empty, flags included) and procedure calls. */
int cat_model_n_checks(const cat_model *m);
/* Its `as` name, or else the text of its expression (herd's name). */
const char *cat_model_check_name(const cat_model *m, int i);
/* A flag (or undefined_unless, or assert) check: it never fails an
 * execution. */
bool cat_model_check_is_flag(const cat_model *m, int i);
/* The flag top-level check i records when it fires: its name, or
 * CAT_UNDEF_FLAG for an undefined_unless. */
const char *cat_model_check_flag(const cat_model *m, int i);
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
/* What one evaluation's values may take before it stops with an error
 * naming -maxmem: `bytes` (the -maxmem a test runs under, which the
 * process reaches first), 0 for CAT_EVAL_MEMORY_LIMIT. */
void cat_model_set_memory_limit(cat_model *m, size_t bytes);
/* What the model says, independent of its title and file name
 * (cat_identity.c): an MD5 (32 hex digits) over the tokens of every file
 * it loaded, stdlib.cat and includes too, titles left out; comments and
 * layout do not count. */
const char *cat_model_fingerprint(const cat_model *m);

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

#endif
