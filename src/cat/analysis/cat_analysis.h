/* cat_analysis.h — what the engines ask of a model beyond "is this
 * execution allowed" (cat.h): the analyses only an engine needs, each an
 * exact restatement of the model's checks in a form an exploration can
 * use.  The command line and the reports never include this header.
 *
 *   - the coherence orders a model that chooses co may choose
 *     (cat_co_orders.c; the enumerator);
 *   - monotone checks, evaluated on partial executions, and evaluators that
 *     keep their work from one call to the next (cat_incr.c; rsmc and the
 *     interactive session);
 *   - a model's own relations by name, and their definitions in a fixed
 *     form (rsmc's declared commit_before; cat_model.c, cat_identity.c);
 *   - the symbolic form of the checks over an execution's static part
 *     (cat_sym.c; bmc).
 */
#ifndef WEFT_CAT_ANALYSIS_H
#define WEFT_CAT_ANALYSIS_H

#include <stdbool.h>

#include "../cat.h"

/* ---- the orders a model chooses (cat_co_orders.c) ------------------------- */

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

/* ---- partial executions (cat_model.c, cat_incr.c) ------------------------ */

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

/* ---- a model's own relations (cat_model.c, cat_identity.c) -------------- */

/* Does the model bind `name` at top level (e.g. RSMC.md's commit_before)? */
bool cat_model_defines(const cat_model *m, const char *name);
/* The value of the model's top-level relation `name` in execution x, as a
 * new brel owned by the caller.  False (after reporting through d) if the
 * name is unbound, not a relation, or cannot be evaluated. */
bool cat_model_eval_relation(cat_model *m, const execution *x, const char *name, brel *out, diag *d);

/* The definition of top-level binding `name` in a fixed text form (fully
 * parenthesised, no spaces, e.g. "(po|rf)"), or NULL when it is unbound,
 * not a plain let, or uses a name that is not a built-in of the execution
 * (a name the model binds could mean anything).  Owned by the caller. */
char *cat_model_canonical_definition(const cat_model *m, const char *name);

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
	/* only in a compiled check (cat_prog.c), never handed to bmc: */
	CT_CHOICE,           /* the element bound to choice a (0-based) of
	                      * the model's `with X from S`: a relation      */
	CT_DIFFVAL,          /* different-values(a): a's pairs of accesses
	                      * whose values differ (values change with rf)  */
};

typedef struct cat_term {
	enum cat_term_kind kind;
	bool is_set;         /* an event set; else a relation               */
	int a, b;            /* operands (term indices), -1 when none       */
	brel rel;            /* CT_CONST relation (owned)                   */
	bset set;            /* CT_CONST set (owned)                        */
	bool empty;          /* CT_CONST: no bit set (found when made)      */
	srcloc loc;          /* where it is written                         */
	const char *name;    /* CT_REC: the binding's name                  */
	int rec_first, rec_n; /* CT_REC: its group, rec_n terms from
	                      * rec_first                                    */
} cat_term;

/* Operator term k (CT_UNION ... CT_RANGE) of shape is_set on its
 * operands' bits (b NULL for one operand), over n events: into d, which
 * aliases neither. */
void cat_term_op(enum cat_term_kind k, bool is_set, uint64_t *d, const uint64_t *a, const uint64_t *b, int n,
                 int words);

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
