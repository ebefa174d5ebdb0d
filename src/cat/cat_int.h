/* cat_int.h — the compiled model shared by the compiler, the evaluator, the
 * monotonicity analysis and the public API (internal to src/cat).
 *
 * A model is a list of global *slots* (the built-in names first, then one
 * slot per top-level binding, in order; a later binding of a name shadows the
 * earlier one) and a list of top-level *checks* (check instructions and
 * procedure calls) in model order.  Top-level bindings are evaluated lazily,
 * at most once per execution, when a check needs them.
 */
#ifndef WEFT_CAT_INT_H
#define WEFT_CAT_INT_H

#include "cat.h"
#include "cat_ast.h"
#include "cat_value.h"

/* ---- built-ins ----------------------------------------------------------------- */

enum cat_builtin {
	/* event sets */
	B_W, B_R, B_M, B_F, B_B, B_IW, B_FW, B_X, B_EX, B_RMW_SET, B_AMO_SET,
	B_EXP, B_NEXP, B_PTE, B_ADDR_SET,
	/* relations */
	B_ID, B_PO, B_RF, B_CO, B_FR, B_LOC, B_INT, B_EXT, B_ADDR, B_DATA, B_CTRL,
	B_RMW, B_AMO, B_SAME_INSTANCE, B_SM, B_SI, B_IICO_DATA, B_IICO_CTRL,
	/* primitive functions */
	B_DOMAIN, B_RANGE, B_CLASSES_LOC, B_PARTITION, B_LINEARISATIONS, B_TAG2EVENTS,
	B_DIFFERENT_VALUES, B_SAME_OA, B_OA_CHANGES, B_AT_LEAST_ONE_WRITABLE,
	B_COUNT
};

typedef struct cat_builtin_info {
	const char *name;
	enum cval_kind kind;     /* V_SET, V_REL or V_PRIM */
	int mono;                /* MONO_* class of the value (cat_mono.c) */
} cat_builtin_info;

extern const cat_builtin_info cat_builtins[B_COUNT];

/* Fence mnemonics of herd's architectures: names a model may use outside a
 * `try` without an error at load time; their value is looked up in each
 * execution (empty set when the test's architecture has such a fence but
 * the test does not use it). */
bool cat_known_fence_name(const char *name);
/* herd's names of AArch64 features (TLBI, PTEV, FAULT, ...): bound; on a
 * test of herd's virtual-memory variant those of cat_vmsa.c are computed
 * from its events, the others (caches, tags, exceptions, instruction
 * fetches) are empty in every execution, as in herd on a test without
 * such events. */
bool cat_herd_feature_name(const char *name);
/* herd's C sets of lock and RCU events (LKR, UL, Rcu-lock, ...): bound at
 * load time; in an execution, the events the C front-end put in them
 * (annotation or fence of that name), else empty. */
bool cat_herd_c_set_name(const char *name);
/* herd's C11 sets (RLX, ACQ, REL, ACQ_REL, SC, CON, A, NA, annot, LK):
 * bound at load time; cat_c11_set computes A, NA, annot and LK of a C test
 * into `set` (false: not one of those, or not a C test); cat_c11.c. */
bool cat_c11_set_name(const char *name);
bool cat_c11_set(const execution *x, const char *name, uint64_t *set);
/* A name looked up in each execution that some test binds (a fence, an
 * annotation, a feature or register set, a C set): anything else bound
 * nowhere is an error where a check reaches it. */
bool cat_dyn_name_known(const char *name);
/* obs[l] (for each of t's n_locs locations): the test observes location
 * l, in its condition, filter or `locations` list (cat_builtin.c). */
void cat_observed_locations(const litmus_test *t, bool *obs);
/* A model that does not read the engine's co (co_unread) is shown one
 * coherence order per final write of each observed location, as herd's
 * engine builds them: is x's co that one (cat_co_unread.c)? */
bool cat_co_is_herds_one(const execution *x);
/* Report each name bound nowhere that a top-level check, call or choice
 * reaches outside a `try`, and set the model's co_unread (cat_reach.c);
 * false if there is such a name. */
bool cat_check_reached_names(struct cat_model *m, diag *d);
/* herd's register events and relations (rf-reg, Rreg, DATA, ...): bound at
 * load time, an evaluation error (weft does not build such events). */
bool cat_herd_register_name(const char *name);
/* Mark the lets of a catdep model that are herd's dependency relations
 * (cat_slot.herd_dep); cat_herd_deps.c. */
void cat_mark_herd_deps(cat_model *m);

/* ---- monotonicity classes --------------------------------------------------------- */

/* How a value changes when a partial execution grows (more events, more
 * rf/co edges); see cat_mono.c for the rules. */
enum cat_mono {
	MONO_STABLE = 0, /* the value restricted to existing events never changes */
	MONO_GROWS = 1,  /* the value only gains elements */
	MONO_ANY = 2,    /* may lose elements: only judged on complete executions */
};

/* ---- slots ------------------------------------------------------------------------ */

enum cat_slot_kind {
	SLOT_BUILTIN,  /* builtin */
	SLOT_LET,      /* def (a non-recursive binding) */
	SLOT_PROJ,     /* element `proj` of the tuple held by slot `of` */
	SLOT_REC,      /* def, member of the rec group starting at slot `of`
	                * with `group_n` members */
	SLOT_PROC,     /* procedure `ins` */
	SLOT_ENUM,     /* the set of the tags of `ins` */
	SLOT_CHOICE,   /* `with name from def`: herd runs the rest of the
	                * model once per element of def's value (cat_choice.c);
	                * choice: its number among the model's choices */
	SLOT_TAGSET,   /* a bell's annotation set: the events whose op
	                * carries annotation `tag` (named by herd's rule:
	                * the tag with its first letter in upper case) */
};

typedef struct cat_slot {
	const char *name;        /* NULL for hidden slots (tuple bindings) */
	enum cat_slot_kind kind;
	int builtin;
	const cat_ex *def;
	int of, proj, group_n;
	const cat_ins *ins;
	srcloc loc;
	const char *tag;         /* SLOT_TAGSET: the annotation */
	int choice;              /* SLOT_CHOICE: 1 + its index in choices */
	bool co_filter;          /* SLOT_CHOICE of `with co from`: only the
	                          * elements that order the execution's own
	                          * writes as its co does (cat_choice.c) */
	bool choice_memo_ok;     /* SLOT_CHOICE of `with co from`: def reads
	                          * neither co nor fr (FW perhaps), so its value
	                          * may be kept while rf and FW are the same
	                          * (cat_choice_memo.c) */
	bool choice_reads_fw;    /* ... and it reads FW (co0 does) */
	int choice_dep;          /* the highest `choice` its value may depend
	                          * on (0: none): recomputed when that choice,
	                          * or an earlier one, changes */
	/* monotonicity analysis memo */
	int mono;
	bool mono_filter;        /* the value is [S] for a stable S (or id) */
	bool mono_empty;         /* the value is empty in every execution */
	int mono_state;          /* 0 unknown, 1 in progress, 2 done */
	/* Static: the value depends only on the static part of an execution
	 * (events, po, dependencies, rmw, the architecture), not on rf, co, fr
	 * or FW; it is kept from one execution to the next while that part
	 * does not change. */
	bool is_static;
	int static_state;        /* analysis: 0 unknown, 1 in progress, 2 done */
	/* catdep models: the herd_dep relation (exec.h) the execution gives
	 * for this let instead of its definition, or -1 (cat_herd_deps.c) */
	int herd_dep;
} cat_slot;

/* One top-level check: a check instruction or a procedure call. */
typedef struct cat_check_entry {
	const cat_ins *ins;
	const char *name;        /* `as` name, or the expression's text / the
	                          * procedure's name */
	bool flag;               /* flag (or undefined_unless): never fails */
	bool monotone;
	bool skipped;            /* -skipchecks / -through: its outcome is
	                          * ignored (cat_model_skip_check) */
	bool skipped_by_name;    /* by cat_model_skip_check: what
	                          * -strictskip wants failing */
} cat_check_entry;

/* ---- evaluation state --------------------------------------------------------------- */

/* A fence-set name looked up per execution (REF_DYN): its value, valid
 * while static_gen matches (it depends only on events and architecture). */
typedef struct dyn_entry {
	unsigned gen;
	bool ok;
	unsigned char kind;      /* what the name is (cat_eval.c's DYN_*), found
	                          * once: a name's kind never changes */
	bool herd_set;           /* a set of herd's C or C11 names (bound even
	                          * where nothing is in it), found with kind */
	/* what an architecture's own names say of it, for tests without
	 * annotation names of their own (arch: registered, never freed) */
	const void *arch;        /* NULL: nothing kept */
	bool arch_fence;         /* one of its fences (or a known fence) */
	int arch_annot;          /* its annotation index, or -1 */
	cval v;
} dyn_entry;

/* What static slots depend on: a copy of the static part of the last
 * execution evaluated. */
typedef struct static_key {
	const litmus_test *test;
	const void *arch;        /* test->arch: fence sets depend on it */
	int n, words;
	event *ev;
	uint64_t *rels;          /* po, addr, data, ctrl, rmw, then herd's
	                          * dependency relations (exec.h): (5 + XD_N)
	                          * * n * words */
	bool rels_absent[5 + XD_N]; /* the execution had no such relation */
	uint64_t *op_marks;      /* per event, its op's annotation bits and
	                          * access flags (annotation sets, single-event
	                          * AMOs): not in the event, and the test that
	                          * held them may be gone, its address reused */
	char *annot_names;       /* the test's own annotation names (C's tags),
	                          * joined; bit i means another set in another
	                          * test (owned; NULL: the architecture's)     */
	size_t cap_ev, cap_rels, cap_marks;
} static_key;


/* cat_choice_memo.c: the last value of a `with co from` set whose slot
 * has choice_memo_ok, with what it was computed from. */
typedef struct choice_memo {
	bool valid;
	int choice, n;
	unsigned static_gen;
	uint64_t *rf;            /* n rows of words */
	uint64_t *fw;            /* words, when the set reads FW */
	cval *earlier;           /* the earlier choices' elements */
	cval value;
	uint64_t *w;             /* W when hashes were made, or NULL */
	uint64_t *hashes;        /* per element of value: choice_proj_hash */
	arena ar;                /* all of the above */
} choice_memo;

typedef struct cat_eval {
	const struct cat_model *m;
	const execution *x;
	int n, words;
	arena ar;                /* values of one evaluation */
	arena static_ar;         /* values of static slots (and what they use) */
	arena *cur;              /* where values are allocated now */
	unsigned static_gen;     /* slot_sgen[i] == static_gen: static slot i is
	                          * computed (in static_ar) */
	unsigned *slot_sgen;
	unsigned *slot_sfail;    /* == static_gen: it failed (inside a try) */
	static_key key;
	unsigned gen;            /* evaluation number: slot_gen[i] == gen means
	                          * slot i is computed */
	unsigned *slot_gen;
	unsigned char *slot_busy;
	cval *slot_val;
	dyn_entry *dyn;          /* one per model->dyn_names */
	int *bind_first;         /* per choice c: where in bind_list the
	                          * slots a new element of c makes stale
	                          * begin (ended by -1) */
	int *bind_list;
	choice_memo co_memo;
	struct static_choice {   /* per choice whose S is static: its
	                          * elements, kept in static_ar while
	                          * static_gen is gen (0: not kept) */
		signed char is_static; /* 1 yes, -1 no, 0 not asked yet */
		unsigned gen;
		int n;
		cval *elts;
	} *static_choice;
	bool no_choice;          /* the pending error is a `with` whose set
	                          * is empty: herd has no such execution */
	enum co_prune {
		CO_WHOLE,        /* a `with co from` set is evaluated whole */
		CO_CHOSEN,       /* for the engine's co (and lock order):
		                  * linearisations keeps only the orders that
		                  * agree with it (cat_builtin.c) */
		CO_PROJECTED,    /* for its projections on the memory writes
		                  * (cat_co_orders.c): a set of events beyond
		                  * them (lock writes) gets one order */
	} co_prune;
	bool co_project;         /* cat_co_orders.c asks for CO_PROJECTED */
	uintptr_t stack_base;    /* the C stack where this evaluation began */
	size_t stack_budget;     /* how much of it nested calls may use */
	int in_try;              /* inside `try`: errors are caught, so their
	                          * messages need not be written */
	/* the pending error: set by a failing evaluation, cleared by `try` */
	bool err;
	srcloc err_loc;
	strbuf err_msg;
} cat_eval;

typedef struct cat_prog cat_prog;

struct cat_model {
	char *name;
	int nfiles;
	cat_file **files;        /* every parsed file (owned) */
	int main_file;           /* the model's own file among them (after
	                          * stdlib.cat) */
	int nvariants;
	char **variants;         /* -variant names (owned) */
	bool catdep;             /* a `catdep` instruction: the model computes
	                          * addr, data and ctrl itself, from herd's
	                          * register events */
	int nslots;
	size_t slots_cap;
	cat_slot *slots;
	int nchecks;
	size_t checks_cap;
	cat_check_entry *checks;
	int nflag_names;
	const char **flag_names; /* verdict buffer: one entry per check */
	int ndyn;
	size_t dyn_cap;
	const char **dyn_names;  /* distinct REF_DYN names (borrowed from the
	                          * syntax trees); a CE_VAR's index points here */
	bool strict_skip;        /* -strictskip (cat_model_set_strict_skip) */
	size_t memory_limit;     /* of one evaluation's values (0: the
	                          * default, CAT_EVAL_MEMORY_LIMIT) */
	bool static_done;        /* every slot's is_static is known
	                          * (cat_classify_static): an expression's is
	                          * kept in it (cat_ex.static_memo)          */
	bool co_unread;          /* no check reads the engine's co (co, fr,
	                          * `with co from`): herd's engine then
	                          * builds one execution per final write of
	                          * each observed location, not one per
	                          * order of the writes (cat_co_unread.c) */
	/* `with X from S` instructions at top level, in model order: the
	 * checks from first_check on run once per element of S */
	int nchoices;
	size_t choices_cap;
	struct cat_choice {
		int slot;
		int first_check;
		char *name;              /* "with X from" (owned) */
	} *choices;
	const char **flag_acc;   /* verdict buffer with choices: the flags of
	                          * every allowed branch (nchecks + 64) */
	int nowned;
	char **owned;            /* names made by the compiler (bell sets) */
	cat_eval ev;
	cat_prog *prog;          /* the compiled check (cat_prog.c), made at
	                          * the first complete execution; NULL when
	                          * cat_model_set_compiled turned it off */
	bool interpret;          /* cat_model_set_compiled(m, false) */
	char fingerprint[33];    /* cat_identity.c */
	/* top-level show directives (show r, show e as label), less those
	 * unshown after: for pictures */
	int nshown;
	struct cat_shown {
		char *label;             /* owned */
		int slot;                /* its value: the binding of r when
		                          * shown, or a hidden let of e */
	} *shown;
};

/* ---- between the modules -------------------------------------------------------------- */

/* cat_compile.c: load `path` (with stdlib.cat first unless `no_stdlib`) into
 * an empty model; false after reporting errors.  With `text`, that is the
 * main file's text and `path` only names it (and its folder).  With a
 * `bell` file, it is read before the model (path NULL: the bell alone). */
bool cat_compile_model(struct cat_model *m, const char *path, const char *text, const char *bell,
                       const cat_search_path *sp, bool no_stdlib, diag *d);
/* Find `file` in `including_dir` then in sp's dirs; returns a malloc'd path
 * or NULL. */
char *cat_find_file(const char *file, const char *including_dir, const cat_search_path *sp);

/* cat_eval.c */
void cat_eval_init(cat_eval *ev, const struct cat_model *m);
void cat_eval_free(cat_eval *ev);
/* Start an evaluation on execution x (resets the arena). */
void cat_eval_begin(cat_eval *ev, const execution *x);
/* Run top-level check `i`; *failed is set when a non-flag check fails and
 * *fired when a flag fires.  Returns false on an evaluation error (the
 * error is pending in ev). */
bool cat_eval_check(cat_eval *ev, int i, bool *failed, bool *fired);
/* Value of an expression in the top-level scope (no local variables):
 * a check's expression or a top-level binding's definition (cat_explain.c
 * takes checks apart this way); false on error. */
bool cat_eval_expr(cat_eval *ev, const cat_ex *e, cval *out);
/* Does condition c (top-level scope) hold?  false on error. */
bool cat_eval_cond(cat_eval *ev, const cat_cond *c, bool *res);
/* Add flag `name` to the verdict's flags (once). */
void cat_note_flag(cat_eval *ev, const char *name);
/* Value of global slot `slot`; false on error. */
bool cat_eval_slot(cat_eval *ev, int slot, cval *out);
/* Report the pending error through d and clear it. */
void cat_eval_report(cat_eval *ev, diag *d);

/* The verdict loop shared by cat_model_check(_partial) and the cached
 * evaluators of analysis/cat_incr.c: run every check (only the monotone non-flag ones
 * when `partial`) through `check`, stop at the first failing one, and fill
 * `out`.  On an evaluation error, report ev's error through d. */
typedef bool (*cat_check_fn)(void *ctx, int i, bool *failed, bool *fired);
bool cat_run_checks(struct cat_model *m, bool partial, cat_check_fn check, void *ctx, cat_eval *ev,
                    cat_verdict *out, diag *d);

/* cat_identity.c: the model's fingerprint from its files' digests (set
 * once every file is loaded). */
void cat_model_set_fingerprint(struct cat_model *m);

/* cat_builtin.c: the value of a built-in in the current execution. */
bool cat_builtin_value(cat_eval *ev, int builtin, cval *out);
/* herd's register set or relation `name` (cat_herd_register_name)
 * projected on the execution's events, which are memory, fence and
 * branch events: BCC (herd's conditional branch events) is weft's branch
 * events; iico_order orders the accesses of one instruction: the two of
 * an ordered pair (LDIAPP, STILP: prog.h's ACC_IICO_ORDER), and for the
 * atomics at most the read before the write, an rmw pair every model
 * already orders, left out; the others are empty. */
cval cat_herd_register_projection(cat_eval *ev, const char *name);
/* cat_ifetch.c: herd's ifetch sets and relations (see there).  Names
 * cat_ifetch_set answers; which of them depend on the events' values (not
 * static). */
bool cat_ifetch_name(const char *name);
bool cat_ifetch_value_dependent(const char *name);
cval cat_ifetch_set(cat_eval *ev, const char *name);
cval cat_ifetch_iico(cat_eval *ev, bool ctrl);
/* The execution's herd_dep relation k (x->has_herd_deps). */
cval cat_herd_dep_value(cat_eval *ev, int k);
/* Apply primitive `prim` to `arg`. */
bool cat_prim_apply(cat_eval *ev, int prim, const cval *arg, srcloc at, cval *out);

/* cat_vmsa.c: herd's names for a test of its virtual-memory variant
 * (Variant=vmsa), from the events of prog.h's vmsa section; empty on any
 * other test. */
bool cat_vmsa_test(const execution *x);
/* herd's PTE: the memory events at page-table entries. */
cval cat_vmsa_pte_set(cat_eval *ev);
/* herd's iico_data (ctrl false) or iico_ctrl of the translations. */
cval cat_vmsa_iico(cat_eval *ev, bool ctrl);
/* The key `loc` compares for event e: its location, apart for a fault
 * (a virtual address) and a TLBI (a TLB page); n_keys bounds locations. */
int cat_vmsa_loc_key(const execution *x, const event *e, int n_keys);
/* The value of herd feature `name` when cat_vmsa.c computes it (PTEV,
 * FAULT, TLBI, inv-domain, same-low-order-bits, ...); false for a name
 * it does not know. */
bool cat_vmsa_value(cat_eval *ev, const char *name, cval *out);
/* Has event set ws no write at a page-table entry?  Then oa-changes
 * and at-least-one-writable give the empty set, whatever relation they
 * are given with ws. */
bool cat_vmsa_none_at_pte(cat_eval *ev, const cval *ws);
/* same-oa, oa-changes, at-least-one-writable applied to arg. */
bool cat_vmsa_prim(cat_eval *ev, int prim, const cval *arg, srcloc at, cval *out);

/* cat_value.c: values in the current arena (ev->cur). */
cval cv_set(cat_eval *ev);                 /* fresh empty event set */
cval cv_rel(cat_eval *ev);                 /* fresh empty relation */
cval cv_copy(cat_eval *ev, const cval *src); /* of a set or relation */
cval cv_empty(void);                       /* {} */
cval cv_univ_rel(cat_eval *ev);            /* all pairs */
cval cv_id_rel(cat_eval *ev);              /* id */
size_t cv_nwords(const cat_eval *ev, enum cval_kind k); /* of V_SET / V_REL */
void cv_fill_all(const cat_eval *ev, uint64_t *set);    /* every event */
bool cv_bits_zero(const uint64_t *w, size_t k);
/* An event set / relation view of v ({} and _ included); an error else. */
bool cv_as_set(cat_eval *ev, const cval *v, srcloc at, cval *out);
bool cv_as_rel(cat_eval *ev, const cval *v, srcloc at, cval *out);
/* herd lifts a tag to the singleton set of that tag in set operations. */
cval cv_tag2set(cat_eval *ev, const cval *v);
bool cv_is_empty(const cat_eval *ev, const cval *v);
int cv_cmp(const cat_eval *ev, const cval *a, const cval *b);
/* Sort and de-duplicate n values into a value set. */
cval cat_make_vset(cat_eval *ev, const cval *src, int n);
/* Value set s with x added (s itself when x is in it already): one
 * binary search and one copy, where building the set again would sort it
 * again (a recursion adding the elements one by one, as cross.cat's,
 * would be quadratic in compares). */
cval cat_vset_insert(cat_eval *ev, const cval *s, const cval *x);
bool cv_vset_has(const cat_eval *ev, const cval *s, const cval *x);
/* *res: a is a subset of b (sets, relations, value sets). */
bool cv_subset(cat_eval *ev, const cval *a, const cval *b, srcloc at, bool *res);
/* Set the pending error (the first one wins); returns false. */
bool cat_fail(cat_eval *ev, srcloc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cat_clear_error(cat_eval *ev);

/* cat_choice.c: after compiling, whether each `with co from` must be
 * evaluated (else co is the execution's own), and each slot's choice_dep. */
void cat_choice_prepare(struct cat_model *m);
/* The verdict loop of a model with choices (cat_run_checks's, for a
 * complete execution): every branch of the `with` instructions is run,
 * out->n_allowed counts those that pass and out->flags are theirs. */
bool cat_run_choices(struct cat_model *m, cat_check_fn check, void *ctx, cat_eval *ev, cat_verdict *out,
                     diag *d);
/* cat_eval.c, for cat_choice.c: the elements of choice c's set in the
 * current state (co_filter applied), and binding choice c to one of them
 * (every value that depends on it, or on a later choice, is forgotten). */
bool cat_eval_choice_set(cat_eval *ev, int c, int *n, cval **elts);
/* As cat_eval_choice_set, without the co filter: every element. */
bool cat_eval_choice_all(cat_eval *ev, int c, int *n, cval **elts);
/* What one evaluation's values may take (cat_model_set_memory_limit). */
size_t cat_memory_limit(const struct cat_model *m);
/* Whether a `with co from` set is evaluated for the execution's own co
 * and lock order (every other order of the writes they order dropped),
 * not whole: when the lock order is chosen, or the set whole would be
 * too large to keep (CAT_CO_ORDERS_KEPT). */
bool cat_eval_co_pruned(const cat_eval *ev);
void cat_eval_bind_choice(cat_eval *ev, int c, const cval *v);
/* cat_choice_memo.c: the kept value of choice c's set, if it was computed
 * from the current static part, rf and earlier choices; keeping a new one
 * (a value with closures is not kept). */
bool choice_memo_get(const choice_memo *mm, cat_eval *ev, int c, cval *out);
void choice_memo_put(choice_memo *mm, cat_eval *ev, int c, const cval *v);
void choice_memo_free(choice_memo *mm);
/* A hash of relation `rows` (n rows of words; NULL: empty) restricted to
 * w x w, so that two relations equal there hash alike. */
uint64_t choice_proj_hash(const cat_eval *ev, const uint64_t *rows, const uint64_t *w);
/* When *s is the memo's value: each element's choice_proj_hash on w;
 * else NULL. */
const uint64_t *choice_memo_hashes(choice_memo *mm, const cat_eval *ev, const cval *s, const uint64_t *w);

/* cat_prog.c: the compiled check.  cat_prog_run judges a complete
 * execution as cat_model_check does (1: done, 0: an evaluation error,
 * reported through d), or returns -1 when the evaluator must (the model,
 * or this static part of it, has no compiled form). */
cat_prog *cat_prog_new(struct cat_model *m);
void cat_prog_free(cat_prog *p);
int cat_prog_run(cat_prog *p, const execution *x, cat_verdict *out, diag *d);
void cat_prog_counts(const cat_prog *p, long *compiled, long *interpreted);
/* analysis/cat_sym.c: the terms of m's checks on x's static part for the
 * compiled check (cat_symbolic, with choices, different-values, inlined
 * functions and static ifs); SYM_UNSUPPORTED when the model has a
 * construct without a term, SYM_FAIL on an evaluation error (cleared). */
enum { SYM_OK, SYM_FAIL, SYM_UNSUPPORTED };
struct cat_symbolic;
int cat_sym_build_prog(struct cat_model *m, const execution *x, struct cat_symbolic *out);

/* cat_mono.c: classify every check of the model (fills checks[i].monotone)
 * and every slot as static or not (slots[i].is_static). */
void cat_classify_static(struct cat_model *m);
/* cat_static.c: does expression e (top-level scope) depend only on the
 * static part of an execution (no rf, co, fr, FW)? */
bool cat_ex_static(struct cat_model *m, const cat_ex *e);
bool cat_cond_static(struct cat_model *m, const cat_cond *c);
void cat_classify_checks(struct cat_model *m);

#endif
