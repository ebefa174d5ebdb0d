/* parser.h — private to src/litmus: the state shared by the parts of the
 * litmus parser (one file per section of a test).
 *
 * A test is read in order: header and preamble (parse_header.c), init block
 * (parse_init.c), thread table (parse_table.c), then locations, filter and
 * final condition (parse_cond.c); parse.c drives them, parse_state.c holds
 * what the init block and the conditions share (locations, registers,
 * values).  Register entries of the init block wait in `pending` until the
 * table has told how many threads there are and which registers they use.
 */
#ifndef WEFT_LITMUS_PARSER_H
#define WEFT_LITMUS_PARSER_H

#include "../arch/arch.h"
#include "../prog/prog.h"
#include "lex.h"

/* The reader's bounds (LITMUS_MAX_*) are in util/weft_limits.h. */

/* A register named in the init block, applied after the thread table. */
typedef struct pending_reg {
	int thread;     /* thread id, or -1 for an unprefixed symbolic `%r` */
	char *name;     /* as written (owned)                               */
	char *type;     /* declared type or NULL (owned)                    */
	value init;
	srcloc loc;     /* of the entry                                     */
	srcloc name_loc; /* of the register name                            */
} pending_reg;

typedef struct parser {
	cursor c;
	const char *text;       /* the whole text being read */
	diag *d;
	litmus_test *t;
	const arch *arch;
	int n_pending;
	size_t pending_cap;
	pending_reg *pending;
	/* which locations the init block has set (index -> 1), to refuse
	 * a second initialisation */
	unsigned char *loc_set;
	size_t loc_set_cap;
	size_t observed_cap, meta_cap;
	int n_instrs, n_labels; /* over all threads, for the limits above */
	bool fatal;             /* a limit was hit: stop reading the table */
	int n_label_uses;       /* herd's ifetch: where the init block   */
	srcloc *label_use_at;   /* uses each code location (by location  */
	int *label_use_loc;     /* index), for parse_check_ifetch        */
	const char *macros;     /* C tests: the macro file, or NULL        */
	const struct c_macros *macros_read; /* ... already read, or NULL  */
	int el0_meta;           /* index in t->meta of an `EL0=` line, -1 */
	srcloc el0_at;          /* ... where it is                         */
	const char *const *variants; /* -variant tags (NULL-terminated), or NULL */
	bool variant_fatal;     /* `fatal` in the test's Variant= line      */
	/* vmsa: which locations the test names as variables (init block,
	 * condition), not only inside PA(v) or PTE(v); herd gives a v only
	 * PA(v) names no initial value (parse_vmsa_finish: no_init) */
	unsigned char *loc_named;
	size_t loc_named_cap;
	bool naming_wrapped;    /* reading the v of PA(v) or PTE(v)        */
	int n_pa_uses;          /* each PA(v): v's location               */
	int *pa_use_loc;
	srcloc variant_at;      /* ... where that line is                  */
} parser;

/* Sections, each returning false after reporting an error. */
bool parse_header(parser *p);
bool parse_init(parser *p);
bool parse_table(parser *p);
/* A C test's thread functions (src/c) in place of the table. */
bool parse_c_threads(parser *p);
bool apply_pending_regs(parser *p);
bool parse_constraints(parser *p);

/* ---- shared by the init block and the conditions (parse_state.c) ---- */

/* An lvalue as written, before it is resolved against the test. */
typedef struct lval_syntax {
	enum { LV_REG, LV_SYMREG, LV_LOC } kind;
	int thread;   /* LV_REG: the thread number written           */
	token name;   /* register (with its `%` if any) or location  */
	srcloc loc;   /* where the lvalue starts                     */
	bool pte;     /* LV_LOC written [PTE(name)] (vmsa)           */
	bool cell;    /* LV_LOC written `name[index]`: herd's array cell */
	int index;
	srcloc index_at;
} lval_syntax;

/* Read `T:reg`, `PT:reg`, `%sym`, `x` or `[x]` starting at token `first`;
 * *next gets the token that follows. */
bool parse_lval_syntax(parser *p, token first, lval_syntax *out, token *next);
/* In a condition or `locations`, after parse_lval_syntax: a location
 * named bare may be followed by `[N]`, a cell of an array (herd's
 * `v[1]`), read here; *next is then the token after the `]`. */
bool parse_cell_index(parser *p, lval_syntax *ls, token *next);
/* Resolve an lvalue of a condition or `locations` list: threads must
 * exist, registers must be the architecture's (added to the thread if
 * new), locations are added if new.  A cell `v[i]` is the cell's
 * location in form LVAL_CELL; an array named bare is its cell 0 in
 * form LVAL_WHOLE (prog.h). */
bool resolve_lval(parser *p, const lval_syntax *ls, lval *out);

/* The location an LV_LOC lvalue names (PTE(v) for [PTE(v)]); -1 after
 * an error. */
int parser_lval_loc(parser *p, const lval_syntax *ls);
/* Location index of `name`, added (init 0) if new; -1 after reporting
 * that there are too many. */
int parser_loc(parser *p, const char *name, size_t len, srcloc at);
/* Register index in thread `th` for a name as written, canonicalised by
 * the architecture; -1 after reporting the problem at `at`. */
int parser_reg(parser *p, thread *th, const char *name, size_t len, srcloc at);
/* The architecture's canonical spelling of a register name as written,
 * or NULL.  Copies the name first: canonical_reg may return its argument. */
char *parser_canonical_reg(parser *p, const char *name, size_t len);

/* Value of a NUM token, or of a NAME token (the address of that location,
 * added if new); reports anything else as "expected a value". */
bool parser_value(parser *p, const token *t, value *out);
/* herd's ifetch values: an instruction (`NOP`, `instr:"B .+8"`) and,
 * when `labels`, a label of a thread (`1:L0`, `P1:L0`: the address of the
 * code location "P1:L0", added if new).  1: *out holds it, and *written
 * (when not NULL) the text between instr:'s quotes as written (owned) or
 * NULL; 0: t starts none of them; -1: an error was reported (one of them
 * in a test without the ifetch variant, or malformed). */
int parser_ifetch_value(parser *p, token *t, bool labels, value *out, char **written);

/* ---- herd's Variant=vmsa (parse_vmsa.c) ---- */

/* One tag of a `Variant=` line (parse_variants.c splits the line): vmsa
 * (or its other name kvm, AArch64) and fatal are taken, any other tag
 * refused at `at`. */
bool parser_variant_tag(parser *p, const char *tag, srcloc at);
/* After the header: herd's -variant vmsa (or kvm) on the command line
 * (p->variants) makes an AArch64 test a vmsa test as its own Variant=
 * line would (`at`: where the test starts); `fatal` needs vmsa from
 * either. */
bool parser_cli_variants(parser *p, srcloc at);
/* Under vmsa, the value forms `(oa:PA(x), valid:0)` and `PTE(x)`:
 * *handled tells whether t started one (then false means an error was
 * reported). */
bool parser_vmsa_value(parser *p, const token *t, value *out, bool *handled);
/* Whether t starts `PTE(` under vmsa; then parser_pte_loc reads the
 * rest given the variable's token. */
bool parser_at_pte_form(const parser *p, const token *t);
int parser_pte_loc(parser *p, const token *var);
/* When t starts a page-table location weft does not have: PTE(x) without
 * vmsa, herd's TTD(x,S1,LV2) or PTE2(x): report it and return true. */
bool parser_refuse_vm_location(parser *p, const token *t);
/* `fault(P1:L0,x,MMU:Translation)` from the `fault` token f into c (a
 * COND_FAULT); *next gets the token after it. */
bool parse_fault_atom(parser *p, token f, cond *c, token *next);
/* After the whole test: the `EL0=` threads, and a default page-table
 * entry for every variable without one. */
bool parse_vmsa_finish(parser *p);

/* Report "expected WHAT, found TOKEN" at token `t` (nothing more for a
 * T_ERROR token: the lexer has already spoken). */
void parser_expected(parser *p, const token *t, const char *what);

/* Next token of the state language. */
static inline token parser_next(parser *p) { return lex_token(&p->c, p->d); }

/* Grow an array whose capacity is implied by its length `n` (powers of
 * two from 4), so the prog.h structures need no capacity fields; call
 * before appending element n. */
void grow_implied(void **arr, int n, size_t elem);
#define GROW_IMPLIED(arr, n) grow_implied((void **)&(arr), (n), sizeof *(arr))

/* A metadata line's variants (parse_variants.c): Variant= and CacheType=
 * set t->ifetch and t->model_variants; false (reported) when the test
 * asks for a variant weft does not run. */
bool parse_test_variants(parser *p, const meta *m, srcloc at);
/* After the thread table: each label the init block uses as a value is an
 * instruction's label in its thread (parse_variants.c); false, reported,
 * otherwise. */
bool parse_check_ifetch(parser *p);

#endif
