/* prog.h — the program representation of one litmus test.
 *
 * This is what the litmus parser and the architecture front-ends produce and
 * what every engine consumes: threads made of *ops* (a small register-machine
 * language), the initial state, the observed locations and the final
 * condition.  Nothing here knows about text syntax or about memory models.
 *
 * Ownership: a `struct litmus_test` owns everything reachable from it
 * (strings, arrays, condition trees); free it with litmus_test_free().
 *
 * One source instruction becomes one or more ops (`struct instr` records
 * which): `lwzu r1,4(r2)` is a load then an add; `xchg [x],eax` is a load and
 * a store marked atomic; `stwcx.` is a conditional store.  Events produced by
 * the ops of one instruction are "the same instance" for the models.
 */
#ifndef WEFT_PROG_H
#define WEFT_PROG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../util/util.h"

/* ---- values ---------------------------------------------------------- */

/* A value held by a register or a memory cell: a plain integer (loc < 0), or
 * the address of memory location `loc` plus a byte offset `num` (herd lets
 * registers hold addresses, e.g. `0:r2=x`). */
typedef struct value {
	int32_t loc;
	int64_t num;
} value;

static inline value value_int(int64_t n) { value v = { -1, n }; return v; }
static inline value value_addr(int32_t loc) { value v = { loc, 0 }; return v; }
static inline bool value_eq(value a, value b) { return a.loc == b.loc && a.num == b.num; }

/* What a condition register (PPC's crN, x86's flags) holds before any
 * compare sets it.  herd starts them cleared, no flag set, which a
 * compare's result (-1 / 0 / 1) cannot say: a value of its own, never an
 * address, never in memory.  What a branch on it does depends on the
 * flags each architecture's branches test (op_branch_taken): PPC's test
 * one bit of LT, GT, EQ or its negation; herd's x86 tests ZF and a "sign"
 * flag SF that holds a > b (jg: SF, jle: !SF, jl: ZF | !SF, jge: ZF | SF). */
#define VALUE_FLAGS_CLEAR_LOC (-2)
/* A value herd7 leaves symbolic: one that justifies itself through a cycle
 * of plain copies (a load reading a store of what another load of the
 * cycle read), which herd's equation solver unifies but cannot solve.
 * herd prints it S<n>, n its variable's number; num holds n.  It equals
 * only itself: a condition `r=0` on it is false (engine/value_eqs.h). */
#define VALUE_SYMBOLIC_LOC (-3)
static inline value value_symbolic(int64_t n) { value v = { VALUE_SYMBOLIC_LOC, n }; return v; }
static inline bool value_is_symbolic(value v) { return v.loc == VALUE_SYMBOLIC_LOC; }
/* herd's Variant=vmsa (AArch64 virtual memory; prog.h's vmsa section
 * below): a page-table entry value, herd's pteval_t.  num packs its
 * output address (the data location it maps to, PTE_OA_NONE for none:
 * `(valid:0)` written without oa) in the low 32 bits and its flags
 * (enum pte_flag) above, so that value_eq compares every field, as herd
 * compares PTE values (oa and flags; no attributes here). */
#define VALUE_PTE_LOC (-4)
/* The TLB page of a virtual address (herd's `LSR Xd,Xv,#12` of location
 * v, which it names tlb_v): num holds v's location.  Only TLBI reads it. */
#define VALUE_PAGE_LOC (-5)
enum pte_flag {
	PTE_VALID = 1u << 0, PTE_AF = 1u << 1, PTE_DB = 1u << 2, PTE_DBM = 1u << 3, PTE_EL0 = 1u << 4,
};
/* The flag fields of a PTE value as tests write them, in herd's printing
 * order (vmsa.c) */
typedef struct pte_field {
	const char *name;
	unsigned bit;
} pte_field;
#define N_PTE_FIELDS 5
extern const pte_field pte_fields[N_PTE_FIELDS];
/* herd's defaults (AArch64PteVal.prot_default): valid, af, db, el0 set */
#define PTE_DEFAULT_FLAGS (PTE_VALID | PTE_AF | PTE_DB | PTE_EL0)
#define PTE_OA_NONE 0xffffffffu
static inline value value_pte(int32_t oa, unsigned flags)
{
	uint32_t o = oa < 0 ? PTE_OA_NONE : (uint32_t)oa;
	value v = { VALUE_PTE_LOC, (int64_t)(((uint64_t)flags << 32) | o) };
	return v;
}
static inline bool value_is_pte(value v) { return v.loc == VALUE_PTE_LOC; }
/* The data location a PTE value maps to, or -1 (no oa). */
static inline int32_t pte_oa(value v)
{
	uint32_t o = (uint32_t)((uint64_t)v.num & 0xffffffffu);
	return o == PTE_OA_NONE ? -1 : (int32_t)o;
}
static inline unsigned pte_flags(value v) { return (unsigned)((uint64_t)v.num >> 32); }
static inline value value_page(int32_t loc) { value v = { VALUE_PAGE_LOC, loc }; return v; }
static inline bool value_is_page(value v) { return v.loc == VALUE_PAGE_LOC; }
/* An instruction held as a value (herd's ifetch variant: `ins_t` init
 * values, what a fetch reads): num indexes the test's instr_values.
 * (Each value kind has its own negative loc: see VALUE_FAULT_LOC too.) */
#define VALUE_INSTR_LOC (-7)
static inline value value_instr(int64_t n) { value v = { VALUE_INSTR_LOC, n }; return v; }
static inline bool value_is_instr(value v) { return v.loc == VALUE_INSTR_LOC; }
enum { FLAGS_CLEAR_PPC = 0, FLAGS_CLEAR_X86 = 1 };
static inline value value_flags_clear(int arch_flags) { value v = { VALUE_FLAGS_CLEAR_LOC, arch_flags }; return v; }

/* ---- ops --------------------------------------------------------------- */

enum operand_kind {
	OPND_NONE, /* absent (e.g. no index register) */
	OPND_REG,  /* register number `reg` of the thread */
	OPND_IMM,  /* constant `imm` (an integer or a location's address) */
};

typedef struct operand {
	enum operand_kind kind;
	int reg;
	value imm;
} operand;

/* A memory address: base + index + offset.  Exactly one of base/index must
 * evaluate to a location's address at run time; the other must be an integer
 * (usually 0).  Registers used here give addr dependencies. */
typedef struct address {
	operand base, index;
	int64_t offset;
} address;

enum alu_op {
	ALU_MOV, /* dst = a            */
	ALU_ADD, ALU_SUB, ALU_MUL, ALU_DIV, ALU_AND, ALU_OR, ALU_XOR,
	ALU_CMP, /* dst = sign(a - b) as -1 / 0 / 1, signed comparison: the
	          * "flags"/"cr0" pseudo-register that branches test */
	/* Bit operations on integers (64-bit two's complement).  Shift
	 * amounts are b; one of 64 or more gives 0 (SHRS: the sign). */
	ALU_SHL,    /* a << b                                             */
	ALU_SHRU,   /* a >> b, zeros shifted in                           */
	ALU_SHRS,   /* a >> b, the sign shifted in                        */
	ALU_ROTL32, /* the low word of a in both halves, rotated left by
	             * b mod 64 (POWER's ROTL32, as herd computes it)      */
	ALU_ROTL64, /* a rotated left by b mod 64                         */
	ALU_SEXT,   /* the low b bytes of a, sign-extended; an address is
	             * kept as it is (a pointer loaded by lwa)             */
	ALU_ZEXT,   /* the low b bytes of a, zero-extended; an address is
	             * kept as it is (a pointer loaded by lwz)             */
	ALU_CMPU,   /* as ALU_CMP, comparing integers as unsigned         */
	ALU_CRBITS, /* a condition register as POWER's CR field bits:
	             * LT 8, GT 4, EQ 2, cleared 0 (mfcr)                 */
	/* C's comparisons: 1 when a <op> b holds, else 0 (signed).  Two
	 * addresses are equal when they are the same location and offset;
	 * an address is never equal to an integer (herd's C compares a
	 * pointer register with another: `r1 != new`). */
	ALU_EQ, ALU_NE, ALU_LT, ALU_LE, ALU_GT, ALU_GE,
	ALU_MOD,    /* a % b, C's remainder (sign of a)                  */
	ALU_STCR,   /* a store-conditional's status a (1 stored, 0 failed)
	             * as POWER's CR0 after stwcx.: EQ (0) when stored, no
	             * bit set (value_flags_clear) when failed, as herd    */
	/* AArch64's condition flags, as herd's AArch64Sem computes PSTATE.NZCV
	 * (N 8, Z 4, C 2, V 1) of an operation on 32- or 64-bit operands (the
	 * 32-bit ones use the low words of a and b): */
	ALU_NZCV_ADD32, ALU_NZCV_ADD64, /* of a + b (ADDS)                  */
	ALU_NZCV_SUB32, ALU_NZCV_SUB64, /* of a - b (SUBS, CMP)             */
	ALU_NZCV_NZ,   /* N and Z of the result a, b its width in bits (32 or
	                * 64): ANDS, BICS (C and V clear)                 */
	ALU_NZCV_COND, /* 1 when the flags a satisfy condition b, else 0:
	                * enum nzcv_cond                                  */
	ALU_RBIT,      /* the low b bytes of a, bits reversed             */
	ALU_REVB,      /* the bytes of a reversed within each container of
	                * b bytes (2, 4 or 8)                              */
	ALU_ABS,       /* |a|                                             */
	ALU_MIN, ALU_MAX, /* the lesser, the greater of a and b, signed
	                * (RISC-V's amomin, amomax: herd's Op.Min, Op.Max) */
};
#define ALU_LAST ALU_MAX

/* AArch64's condition codes, in the encoding's order; ALU_NZCV_COND's b. */
enum nzcv_cond {
	NZCV_EQ, NZCV_NE, NZCV_CS, NZCV_CC, NZCV_MI, NZCV_PL, NZCV_VS, NZCV_VC,
	NZCV_HI, NZCV_LS, NZCV_GE, NZCV_LT, NZCV_GT, NZCV_LE, NZCV_AL,
};

enum branch_cond {
	BR_ALWAYS, /* unconditional jump */
	BR_EQ, BR_NE, BR_LT, BR_GE, BR_GT, BR_LE, /* test register `a` against 0 */
	BR_EITHER, /* both ways, each explored: a choice between variants of
	            * one instruction that herd explores each (AArch64's CAS);
	            * forward, ACC_SILENT, tests nothing */
	BR_INDIRECT, /* to the code place register `a` holds (AArch64's BR,
	            * BLR, RET): a code location of this thread (location.
	            * code_thread), at its label (code_label) or, for a
	            * label "#instr:N", at instruction N; target unused */
};

enum op_kind {
	OP_ALU,    /* dst = a <alu> b (register computation: no event) */
	OP_LOAD,   /* dst = mem[addr]                                   */
	OP_STORE,  /* mem[addr] = a                                     */
	OP_STCOND, /* store-conditional (stwcx.): either stores a to addr and
	            * sets dst = 1, or stores nothing and sets dst = 0; both
	            * outcomes are explored.  With b (a register, RISC-V's
	            * reservation) it may store only when b holds addr */
	OP_FENCE,  /* fence event of set `fence` (e.g. "SYNC", "MFENCE")  */
	OP_BRANCH, /* if cond(a) goto target (a branch event, set B)       */
	OP_CHOICE, /* dst := 0 or 1, both explored, no event: one of herd's
	            * alternatives (C's spin_trylock succeeds or fails)    */
	OP_TLBI,   /* vmsa: a TLB invalidation, event EV_TLBI (exec.h) of
	            * operation `fence` ("VAAE1IS"), on the page register a
	            * holds (value_page), or on every page when a is
	            * OPND_NONE (the ALL forms)                            */
};

/* Access attributes: these become event sets in the models. */
enum access_flag {
	ACC_ATOMIC = 1u << 0, /* X: part of an atomic instruction (xchg, lock) */
	ACC_EXCL = 1u << 1,   /* EX: lwarx / stwcx. (load-reserve/store-cond.) */
	ACC_FLAG_DEP = 1u << 2, /* store-conditional whose result register
	                       * depends on its write (RISC-V's sc in herd):
	                       * later uses of it carry addr/data/ctrl */
	ACC_FUSED = 1u << 3,  /* the read and the write of this atomic
	                       * instance are one event for the models
	                       * (herd's single-event AMOs; cat_builtin.c) */
	ACC_SILENT = 1u << 4, /* OP_BRANCH: a choice inside one instruction
	                       * that herd makes without a branch event or a
	                       * control dependency (AArch64's CAS, CSEL) */
	ACC_LOCATED = 1u << 5, /* OP_FENCE: the event has a location, `addr`
	                       * (C's lock events LKR/LKW/UL, synchronize_srcu):
	                       * neither a read nor a write, but in `loc`    */
	ACC_PICK = 1u << 6,   /* with ACC_SILENT: what the instruction writes
	                       * after the choice depends on the tested
	                       * register by herd's iico_ctrl (its pick
	                       * dependencies: CSEL's flags, CAS's compare) */
	ACC_PICK_MEM = 1u << 7, /* the same for the instruction's memory
	                       * writes only (some of CAS's variants) */
	ACC_CTRL_SCOPE = 1u << 8, /* OP_BRANCH: C's if: the ctrl dependency it
	                       * adds holds until the matching ACC_CTRL_JOIN
	                       * (herd's C gives it to the events of the if's
	                       * branches only, not to those after it); on an
	                       * always-taken branch (C's while), the scope
	                       * opens with no dependency of its own        */
	ACC_CTRL_JOIN = 1u << 9, /* OP_BRANCH (always, to the next op): where
	                       * the innermost open ACC_CTRL_SCOPE ends       */
	ACC_IICO_ORDER = 1u << 10, /* an access after the earlier accesses of
	                       * its instruction in herd's iico_order
	                       * (AArch64's LDIAPP, STILP: the pair's two
	                       * accesses happen in a fixed order)           */
	ACC_IFETCH = 1u << 11, /* OP_LOAD: herd's instruction fetch (ifetch
	                       * variant), an implicit read of the code
	                       * location of its instruction (src/arch/
	                       * aarch64/aarch64_fetch.c)                     */
	ACC_COMMIT = 1u << 12, /* OP_BRANCH, BR_ALWAYS: still a branch event
	                       * (herd's Commit Pred: in B, not BCC), after
	                       * which the fetched instruction runs         */
	ACC_DROP = 1u << 13,  /* OP_BRANCH with ACC_SILENT: herd's alternative
	                       * whose test fails when the branch is taken
	                       * (C11's compare-exchange: the success way when
	                       * the read is not the expected value): the
	                       * path is no execution, dropped, not cut */
	ACC_ADDR_KNOWN = 1u << 14, /* OP_LOAD, OP_STORE: herd reads no pointer
	                       * for this access, its address being known
	                       * already (the C11 compare-exchange's): no
	                       * variable of herd's for it (value_numbers.c) */
	ACC_NO_VARS = 1u << 15, /* herd takes no variable of its value
	                       * equations for this op (the C11 compare-
	                       * exchange's comparisons, which are equations
	                       * of herd's, and its success's read, whose value
	                       * is the expected one) */
	ACC_SCA = 1u << 16,   /* OP_LOAD, OP_STORE, OP_STCOND: with the other
	                       * ACC_SCA accesses of its instance, one single-
	                       * copy-atomic access (herd's para_atomic:
	                       * AArch64's LDXP reads, STXP writes), which its
	                       * relations sm and si relate               */
	ACC_NO_RMW = 1u << 17, /* OP_STORE, atomic: herd pairs it with no read
	                       * in rmw (CASP's write-back after a failed
	                       * comparison, whose reads herd does not make
	                       * atomic there, though weft reads first)    */
};

/* A sub-word access as herd's non-mixed-size runs give it meaning (AArch64's
 * LDRB, LDRSH, STRH ...): a load gives its register the low `size` bytes
 * of the value read, zero- or sign-extended; a store writes the low
 * `size` bytes of its data, zero-extended.  Addresses pass unchanged. */
enum access_ext {
	ACCESS_EXT_NONE, /* the value as it is (every access of a word or more) */
	ACCESS_EXT_ZERO, /* the low bytes, zero-extended                       */
	ACCESS_EXT_SIGN, /* a load: the low bytes, sign-extended               */
};

typedef struct op {
	enum op_kind kind;
	int instr;           /* index into thread.instrs of the source instr. */
	int dst;             /* destination register, -1 if none             */
	operand a, b;        /* ALU inputs; a = data of a store; a = tested
	                      * register of a conditional branch; b of a store:
	                      * the register whose value the instruction
	                      * computes a from (AArch64's LDADD: Rs), herd's
	                      * DATA register read (thread_interp.h); an
	                      * immediate there: the write has none (CAS's
	                      * write-back of a failed comparison)             */
	enum alu_op alu;     /* OP_ALU                                         */
	address addr;        /* OP_LOAD, OP_STORE, OP_STCOND                   */
	int size;            /* access size in bytes (1, 2, 4 or 8), 0 if
	                      * unknown                                       */
	enum access_ext ext; /* OP_LOAD, OP_STORE: what a sub-word access does
	                      * to its value (ACCESS_EXT_NONE: nothing)       */
	unsigned flags;      /* enum access_flag                               */
	unsigned annot;      /* bit i: in set litmus_annot_name(t, i) (arch.h) */
	int access_back;     /* -variant mixed (mixed.c): how many ops before
	                      * this one is the first op of the access it is a
	                      * granule of, whose events are one access for the
	                      * models (sm); 0 for the first or an op that is
	                      * its own access                                 */
	int access_size;     /* -variant mixed: the size of the whole access
	                      * this op is a granule of; 0 when not split      */
	enum branch_cond cond; /* OP_BRANCH                                    */
	int target;          /* OP_BRANCH: op index to jump to (may equal the
	                      * number of ops: "end of thread")                */
	char *label;         /* OP_BRANCH: the target label as written (owned) */
	const char *fence;   /* OP_FENCE: set name, static storage of the arch
	                      * (C: the tag as the test's annots spell it,
	                      * owned by the test)                             */
} op;

/* A source instruction as written, for diagnostics, dumps and hashing. */
typedef struct instr {
	char *text;   /* the cell text, trimmed (without its label) */
	srcloc loc;
	int first_op, n_ops;
} instr;

typedef struct label {
	char *name;
	int op;       /* index of the first op after the label */
	int instr;    /* index of the instruction it labels (n_instrs: none) */
} label;

/* A register of a thread.  Architectures name registers; `name` is the
 * canonical spelling used in output (e.g. "r1", "EAX", "rax"). */
typedef struct reg {
	char *name;
	value init;   /* initial value (0 unless the init block says)       */
	char *type;   /* declared type ("int64_t") or NULL                   */
	char *written; /* another spelling the test used for it (RISC-V's
	               * "a0" for x10), the last one the parser saw, or NULL:
	               * herd's hash takes conditions as written */
} reg;

/* C: one statement of herd's C semantics (CSem), as it builds a thread's
 * events.  herd builds both branches of an if whose test it cannot
 * decide and runs what follows once per way through (each with fresh
 * variables), so the number of a symbolic value (its S<n>) depends on
 * the statements around the value's path (value_eqs.h).  A thread's
 * statements are kept in preorder: a node's kids follow it. */
enum herd_stmt_kind {
	HS_LIST,    /* a list of statements (the body, a { } block)        */
	HS_SIMPLE,  /* one statement that does not branch (its ops may
	             * hold a primitive's own alternatives)               */
	HS_IF,      /* kids: then [, else]                                 */
	HS_WHILE,   /* kid: the body                                       */
};

typedef struct herd_stmt {
	enum herd_stmt_kind kind;
	int first_op, end_op;   /* its ops, end exclusive                    */
	int test_op;            /* HS_IF, HS_WHILE: the first op of the test */
	int branch_op;          /* HS_IF: the branch to else (taken: else);
	                         * HS_WHILE: the branch back to the body
	                         * (taken: once more)                         */
	int n_kids;
	int n_nodes;            /* nodes of its subtree, itself included      */
} herd_stmt;

typedef struct thread {
	int id;             /* the N of PN */
	int n_regs;
	reg *regs;
	int n_instrs;
	instr *instrs;
	int n_ops;
	op *ops;
	int n_labels;
	label *labels;
	int n_hstmts;       /* C: herd's statements, preorder (0 elsewhere) */
	herd_stmt *hstmts;
} thread;

/* A memory location (a named variable, or one cell of an array).
 *
 * An array (`int x[2]={0,0}` in the init block) is one location per cell,
 * as herd's non-mixed-size runs see it: cell 0 is the array's own name,
 * whose address `x` the threads start from, and cell i the location at
 * byte offset i * cell_bytes from it, named "x[i]".  An access at
 * address x+k reaches cell k / cell_bytes (prog_array_cell). */
typedef struct location {
	char *name;
	value init;   /* initial value, 0 unless the init block says   */
	char *type;   /* declared type or NULL (a cell: its element's)   */
	int array;    /* a cell: the location of the array's cell 0;
	               * -1 for a scalar                                 */
	int cell;     /* a cell: its index in the array                  */
	int n_cells;  /* cell 0: the array's size; else 0                */
	int cell_bytes; /* cell 0: the size of each cell in bytes        */
	int pte_of;   /* vmsa: this location is PTE(v), the page-table
	               * entry of data location pte_of; -1 otherwise     */
	int pte;      /* vmsa, a data location v: the location PTE(v);
	               * -1 otherwise                                    */
	int code_thread; /* >= 0: the place of an instruction of thread
	                  * index code_thread (herd's ifetch: a label used
	                  * as a value, name "P1:L0"); else -1            */
	char *code_label; /* that instruction's label (owned), or NULL   */
	int granules; /* -variant mixed (mixed.c): this location is split
	               * into `granules` cells of the test's granule (an
	               * array's cells, named "x+4"), its value theirs
	               * together, little-endian; 0 otherwise          */
	bool no_init; /* vmsa: a variable named only inside PA(...) or
	               * PTE(...), which herd gives no initial value: no
	               * read takes its initial write (the enumerator) */
} location;

/* ---- conditions ------------------------------------------------------- */

/* Something whose final value a condition or a state line talks about. */
typedef struct lval {
	int thread;   /* >= 0: register `reg` of thread index `thread`;
	               * -1: memory location `loc`                       */
	int reg;      /* LVAL_FAULT: the thread's fault (vmsa), below     */
	int loc;
} lval;

/* vmsa: the fault thread `thread` ended with, as the condition's
 * fault(...) atoms see it: its final value is value_fault of the fault
 * when one of the condition's atoms matches it, else value_no_fault (a
 * state shows only the faults the condition names, as herd). */
#define LVAL_FAULT (-2)
static inline lval lval_fault(int thread) { lval lv = { thread, LVAL_FAULT, -1 }; return lv; }
static inline bool lval_is_fault(lval lv) { return lv.thread >= 0 && lv.reg == LVAL_FAULT; }
/* A memory lval's reg says how the test names the location: -1 plainly
 * (`x`, `[x]`), or, for a cell of an array (location.array >= 0):
 *   LVAL_CELL   herd's `v[i]` (its Deref): shown "v[i]=...", after every
 *               location named plainly;
 *   LVAL_WHOLE  one cell of the array `v` named whole (`v={1,2}`, or `v`
 *               in `locations`): a state shows all the array's cells in
 *               one binding "v={1,2}".
 * The engines read every form as the location `loc`. */
#define LVAL_CELL (-3)
#define LVAL_WHOLE (-4)
static inline lval lval_mem(int loc, int form) { lval lv = { -1, form, loc }; return lv; }
#define VALUE_FAULT_LOC (-6)
static inline value value_fault(int instr, int loc, int type)
{
	value v = { VALUE_FAULT_LOC, ((int64_t)instr << 32) | ((int64_t)(loc + 1) << 8) | type };
	return v;
}
static inline value value_no_fault(void) { value v = { VALUE_FAULT_LOC, -1 }; return v; }
static inline bool value_is_fault(value v) { return v.loc == VALUE_FAULT_LOC && v.num >= 0; }
static inline int fault_instr(value v) { return (int)(v.num >> 32); }
static inline int fault_loc(value v) { return (int)((v.num >> 8) & 0xffffff) - 1; }
static inline int fault_type(value v) { return (int)(v.num & 0xff); }
/* Two value kinds sharing a loc would compare equal and print as each
 * other (ifetch's instructions met vmsa's faults so once). */
_Static_assert(VALUE_INSTR_LOC != VALUE_FAULT_LOC && VALUE_INSTR_LOC != VALUE_PTE_LOC &&
               VALUE_INSTR_LOC != VALUE_PAGE_LOC && VALUE_INSTR_LOC != VALUE_SYMBOLIC_LOC,
               "each value kind has its own loc");

enum cond_kind {
	COND_TRUE, COND_FALSE,
	COND_EQ,      /* lhs = rhs  */
	COND_NE,      /* lhs <> rhs */
	COND_NOT, COND_AND, COND_OR,
	COND_IMPLIES, /* l => r */
	COND_FAULT,   /* vmsa: fault(P1:L0,x,MMU:Translation), each part but
	               * the thread optional: lhs is thread's fault lval
	               * (lval_fault), f_instr / f_loc / f_type what the
	               * fault must have (-1: any)                        */
};

typedef struct cond {
	enum cond_kind kind;
	struct cond *l, *r; /* NOT uses l */
	lval lhs;
	char *lhs_name; /* a register lhs as written ("RAX"; owned), which
	                 * herd's hash uses; NULL for memory */
	value rhs;
	bool rhs_is_lval; /* `0:r1=1:r2`: compared with rhs_lval's final
	                   * value instead of the constant rhs */
	lval rhs_lval;
	char *rhs_name;   /* rhs_lval's register as written, or NULL */
	int f_instr;      /* COND_FAULT: the labelled instruction, -1 for
	                   * none named, -2 a label on no instruction   */
	char *f_label;    /* ... the label as written (owned), or NULL  */
	int f_loc, f_type;
	/* herd's one atom on a whole array (`v={1,2}`, `v<>{1,2}` under a
	 * COND_NOT, `v=1`): this node stands for it, as the conjunction of
	 * an atom per cell on its LVAL_WHOLE lvals (COND_AND nodes over
	 * COND_EQ ones, a COND_EQ for one cell), what every judge of a
	 * state evaluates.  A value that is no vector of the array's size
	 * equals no array: then the conjunction compares each cell with
	 * itself and ends with COND_FALSE.  arr_loc: the array's cell 0;
	 * the value as written, to print the atom: arr_vals (owned) when
	 * n_arr_vals >= 0, else rhs. */
	bool array_atom;
	int arr_loc;
	int n_arr_vals;
	value *arr_vals;
	srcloc loc;
} cond;

enum quantifier {
	Q_EXISTS,     /* exists, and the old "final ... with" form */
	Q_NOT_EXISTS, /* ~exists */
	Q_FORALL,
};

/* ---- the test ------------------------------------------------------------ */

typedef struct meta {
	char *key, *value;   /* value: trimmed */
	char *written;       /* the value as herd keeps it, from its first
	                      * non-blank to the end of the line, trailing
	                      * blanks included (its hash digests CacheType's
	                      * and MemoryType's so)                        */
} meta;

/* An entry of the init block as the test writes it.  herd's hash
 * (report/test_hash.c) digests the init block as written, not the
 * initial state: only the entries written, with their types and
 * spellings, integers and instructions as written. */
typedef struct init_entry {
	int thread;     /* a register: the thread number written (P1:r0,
	                 * 1:r0: 1); INIT_SYMREG: a symbolic register (%r0);
	                 * INIT_MEMORY: memory location `loc`            */
	char *reg;      /* a register's name as written, without a `%`
	                 * (owned); NULL for memory                      */
	int loc;        /* memory: the location (an array: its cell 0)   */
	char *type;     /* the type written before it, or NULL (owned)   */
	bool pointer;   /* written `type *loc` or `*loc`                 */
	int array;      /* `type name[N]`: N; 0 for anything else        */
	value init;     /* the value written (0 for none)                */
	char *written;  /* that value's text when herd keeps it as
	                 * written: an integer ("0x10", "-1") or the
	                 * instruction of instr:"..." ; else NULL (owned)  */
} init_entry;
#define INIT_SYMREG (-1)
#define INIT_MEMORY (-2)

struct arch;

typedef struct litmus_test {
	char *file;          /* path as given; srclocs point at this string */
	const struct arch *arch;
	char *arch_name;     /* as written in the header ("PPC", "X86_64")  */
	char *name;          /* test name, trailing ".litmus" removed        */
	char *alias;         /* optional "(alias)" after the name, or NULL   */
	char *doc;           /* optional quoted doc string, or NULL          */
	int n_meta;
	meta *meta;          /* key=value lines in order                     */
	char *hash;          /* value of a Hash= metadata line, or NULL      */

	int n_locs;
	location *locs;      /* in order of first appearance                 */
	int n_init_entries;
	init_entry *init_entries; /* the init block as written, in order    */
	int n_threads;
	thread *threads;     /* thread index i has threads[i].id == i        */

	/* Annotation names of this test's ops (at most 32), when the
	 * front-end makes them per test (C: the tags its .def file puts in
	 * braces, as written there); NULL: the architecture's fixed list. */
	int n_annots;
	char **annots;
	char *macros;        /* C: the macro file its calls were read with
	                      * (owned), to read it again; else NULL      */
	int n_code_cells;
	char **code_cells;   /* C: each thread function as herd's hash
	                      * prints it (c_hash_form.c), in thread order,
	                      * hashed in place of instructions; none for
	                      * other architectures (owned)              */

	/* herd's ifetch variant (Variant=ifetch): instructions are fetched
	 * from memory at labels the init block uses as values. */
	bool ifetch;
	int n_instr_values;
	char **instr_values; /* the instructions held as values, each once,
	                      * in canonical spelling (value_instr indexes)  */
	int n_init_instr_values; /* the first ones: the init block's        */
	int n_model_variants;
	char **model_variants; /* the variants the test itself gives models
	                        * ("ifetch", CacheType's "DIC"), owned      */

	int n_observed;
	lval *observed;      /* the `locations [...]` list                   */
	cond *filter;        /* NULL if none                                 */
	enum quantifier quant;
	cond *cond;          /* the final condition                          */
	bool old_final;      /* written as "final ... with" (read as exists) */

	/* herd's -variant mixed (mixed-size accesses), given on the command
	 * line or by a cfg: weft runs a test under it only when every access
	 * is as wide as its location (thread_interp.c), where herd's mixed-size
	 * semantics are its plain ones */
	bool mixed;
	bool telechat;       /* herd's telechat variant (Variant=telechat or
	                      * -variant telechat): AArch64's RET without a
	                      * register ends its thread, as herd's B.Exit */
	bool nv2;            /* herd's NV2 variant (AArch64): MRS and MSR of
	                      * ELR_EL1, ESR_EL1 and VNCR_EL2 load and store
	                      * at VNCR_EL2 plus herd's offset of each     */
	int mixed_granule;   /* under it, the bytes of every memory event
	                      * (mixed.c); 0 when not split                 */

	/* herd's Variant=vmsa (AArch64 virtual memory), see "vmsa" below */
	bool vmsa;
	bool vmsa_fatal;     /* written `vmsa,fatal` (herd's default too)   */
	srcloc vmsa_at;      /* where the Variant= line says so             */
	unsigned char *el0;  /* vmsa: per thread index, 1 when the `EL0=`
	                      * line names it (runs at EL0); NULL: none    */
} litmus_test;

/* ---- vmsa: herd's virtual memory (Variant=vmsa) ---------------------------
 *
 * Every variable v of a vmsa test is two locations: the data location v
 * itself, which stands for v's physical page PA(v) (herd's phy_v: its
 * initial value is v's, its final value is what `[v]` shows), and
 * PTE(v) (herd's pte_v, location.pte_of = v, v's location.pte = it), the
 * page-table entry that maps v, initially value_pte(v, defaults) unless
 * the init block sets it.  A register holding `x` holds x's *virtual*
 * address (value_addr(x)); one holding `PTE(x)` the address of the entry
 * (value_addr of the PTE location).  PA(x) is written only as a PTE's oa.
 *
 * The engines (src/engine/thread_paths.c) run a load or store whose
 * address is a data location v as herd's AArch64Sem does under vmsa:
 *   1. a read of PTE(v), implicit (EVF_IMP: herd's Imp/NExp, access kind
 *      PTE), value the entry;
 *   2. the translation's commit: an EV_BRANCH flagged EVF_COMMIT (in B,
 *      not in BCC; no ctrl dependency of weft's own);
 *   3. if the entry allows the access (valid, af; a store also db; a
 *      thread at EL0 also el0): the access itself, explicit, at the data
 *      location the entry's oa names;  otherwise an EV_FAULT event located
 *      at v (its value says the fault's type, enum vmsa_fault), and the
 *      thread ends there (no handler: herd's default).
 * The three or four events are one instance (same instr and instance: no
 * po between them; herd's iico_data Rpte -> commit, iico_ctrl commit ->
 * access or fault).  An access whose address is a PTE location is a plain
 * explicit access (kind PTE) with no translation.  Nothing updates AF or
 * DB by hardware, and no fault handler runs. */
enum vmsa_fault { VMSA_TRANSLATION, VMSA_ACCESS_FLAG, VMSA_PERMISSION };
/* The fault an access with this entry gives, or -1 for none. */
int vmsa_check(value pte, bool is_write, bool el0);
const char *vmsa_fault_name(int fault);
/* A PTE value (or TLB page) as herd prints it; hash_form: as its hash
 * prints an initial value ("(oa:phy_x, af:1, db:1, dbm:0, valid:1)"). */
void vmsa_value_print(const litmus_test *t, value v, bool hash_form, strbuf *out);
/* Its flag fields after the oa, each ", name:0|1": those that differ
 * from herd's defaults, or (hash_form) all but el0 and el0 when 0. */
void vmsa_flags_print(unsigned flags, bool hash_form, strbuf *out);
/* Whether atom c (COND_FAULT) holds of fault value f. */
bool vmsa_fault_matches(const cond *c, value f);
/* Whether a fault(...) atom of condition c for thread `thread` matches
 * fault f: only then does a state show it. */
bool vmsa_cond_shows_fault(const cond *c, int thread, value f);
/* herd's "fault(P1:L0,x,MMU:Translation)" of atom c (COND_FAULT) */
void vmsa_fault_atom_print(const litmus_test *t, const cond *c, strbuf *out);
/* Whether condition c has a fault(...) atom. */
bool vmsa_cond_has_fault_atom(const cond *c);
/* herd's " ~Fault(P1:L0,y);" for each distinct fault atom of condition
 * c that the fault of its thread (fault_of: the thread's fault value,
 * value_no_fault for none) does not satisfy, in herd's order. */
void vmsa_unmet_atoms_print(const litmus_test *t, const cond *c, value (*fault_of)(int tix, void *ctx), void *ctx,
			    strbuf *out);
/* herd's " Fault(P1:L0,x,MMU:Translation);" of thread `tix` */
void vmsa_fault_print(const litmus_test *t, int tix, value f, strbuf *out);

void litmus_test_free(litmus_test *t);
void cond_free(cond *c);

/* Evaluate a condition on a final state, given as a callback that returns
 * the final value of an lval. */
typedef value (*lval_reader)(void *ctx, lval lv);
bool cond_eval(const cond *c, lval_reader read, void *ctx);
/* Whether pred holds of some node of c (NULL: none), visited with a
 * stack of its own: a condition is as deep as it is long. */
bool cond_any(const cond *c, bool (*pred)(const cond *node, void *ctx), void *ctx);

/* The value an ALU op computes from its inputs (op_eval.c).  Integers
 * combine freely; an address may only be moved by an integer, compared, or
 * subtracted from an address of the same location.  False when the result
 * is not defined (division by zero, an address used as an integer). */
bool op_alu(enum alu_op k, value a, value b, value *r);
/* The value access o (OP_LOAD, OP_STORE, OP_STCOND) gives: what a load
 * puts in its register for v read, what a store writes for data v
 * (enum access_ext). */
value op_access_value(const op *o, value v);
/* Whether a branch with condition c is taken when its register holds v. */
bool op_branch_taken(enum branch_cond c, value v);

/* The first backward jump of t (thread by thread, op by op), the loop
 * herd's "unrolling limit exceeded at LABEL" warning names; NULL when t
 * has no loop.  *in gets its thread. */
const op *litmus_first_back_jump(const litmus_test *t, const thread **in);

/* ---- typed values (value_type.c) ---------------------------------------- */

/* An integer type as herd sees it: width and signedness. */
typedef struct int_type {
	int bytes;
	bool is_signed;
} int_type;

/* The integer type of a declared type name; NULL is herd's default,
 * "int".  False for a type that is no integer (a pointer, ins_t). */
bool int_type_of(const char *declared, int_type *out);
/* What the init block declares lv to be, or NULL. */
const char *lval_declared_type(const litmus_test *t, lval lv);
/* v wrapped around to the type (an address or flags value unchanged). */
value value_in_type(value v, int_type ty);
/* v as the final value of lv: wrapped to its type, as herd shows and
 * compares final states. */
value lval_final_value(const litmus_test *t, lval lv, value v);
/* cond_eval on final values as herd compares them: each location read
 * through lval_final_value, and an atom's constant put in its location's
 * type too (herd masks both sides).  Every judge of a final state
 * (condition, filter, witness of -explain) goes through it, so that they
 * agree. */
bool cond_eval_final(const cond *c, const litmus_test *t, lval_reader read, void *ctx);
/* A final value as far as it is known before the whole execution is:
 * unknown, or v; with maybe_symbolic, herd's value equations may still
 * show it as a symbolic value (value_eqs.h), which equals no constant. */
typedef struct partial_value {
	bool known;
	bool maybe_symbolic;
	value v;
} partial_value;
typedef partial_value (*partial_reader)(void *ctx, lval lv);
enum tri { TRI_FALSE, TRI_TRUE, TRI_UNKNOWN };
/* cond_eval_final in three values, on a final state of which only some
 * values are known: TRI_FALSE or TRI_TRUE when every completion of it
 * gives that answer, else TRI_UNKNOWN.  An engine uses it to drop what the
 * test's filter rejects before building whole executions. */
enum tri cond_eval_partial(const cond *c, const litmus_test *t, partial_reader read, void *ctx);
/* lv is declared a 64-bit unsigned type (printed as unsigned). */
bool lval_is_unsigned64(const litmus_test *t, lval lv);

/* Print the program in weft's stable `-dump` form. */
void litmus_test_dump(const litmus_test *t, FILE *out);

/* Textual forms shared by dumps and reports. */
void value_print(const litmus_test *t, value v, strbuf *out);
/* "0:r1" for registers (thread index, herd's normal form) or "x". */
void lval_print(const litmus_test *t, lval lv, strbuf *out);
int prog_find_loc(const litmus_test *t, const char *name);
/* Where t's first fetched instruction is (herd's ifetch: prog.h's
 * ACC_IFETCH); the test's own file otherwise, for an engine's refusal. */
srcloc litmus_first_fetch(const litmus_test *t);
/* The value of instruction `text` (canonical spelling: blanks folded, the
 * mnemonic in upper case), added to t->instr_values when new. */
value prog_instr_value(litmus_test *t, const char *text);

/* ---- loops (loops.c) ----------------------------------------------------
 *
 * A thread's loops, each a conditional backward branch and the ops from its
 * target to it, as the await engine sees them (src/engine/await): an await
 * loop's iterations that go round again write nothing and leave nothing
 * the next one reads (the loop waits for a value another thread writes); a
 * confirmation-CAS loop's only writes are conditional (a compare-and-swap
 * or a store-conditional that fails goes round again, having written
 * nothing); every other loop is unrolled (-unroll).  loops.c says the
 * rules; -dump prints each loop. */
enum loop_kind { LOOP_AWAIT, LOOP_CAS, LOOP_OTHER };

typedef struct prog_loop {
	enum loop_kind kind;
	int head, branch;  /* its ops: branch jumps back to head             */
	int mid_entry;     /* the op of (head, branch] where it is entered
	                    * (C's while, at its test), or -1: at head      */
	const char *why;   /* LOOP_OTHER: why it is unrolled (static text)  */
} prog_loop;

/* th's loops in the order of their branches, into *out (owned by the
 * caller, free()); returns their number (0: *out NULL). */
int prog_find_loops(const thread *th, prog_loop **out);
/* "await", "cas", "unrolled" */
const char *prog_loop_kind_name(enum loop_kind k);

/* ---- herd's -variant mixed (mixed.c) -------------------------------------
 *
 * herd7 runs a mixed-size test (-variant mixed, `variant mixed` in a cfg,
 * or a test's Variant=mixed) with events of one size, its granule: half
 * the test's one access size if it has one (the sizes of its typed
 * locations and of its instructions' accesses), else the smallest.  An
 * access of n granules is n events at consecutive granules, least
 * significant first (little-endian), one access for the models (sm, si);
 * a load's value is its granules' together, a store's is cut into them;
 * rf and co are per granule; a location's final value is its granules'
 * together.  mixed_split rewrites t so: each location into cells of the
 * granule (location.granules), each access into one op per granule with
 * the ALU ops that join or cut its value (op.access_back), so that every
 * engine runs it unchanged.  False after a located error (what weft does
 * not split: arrays of other cells, C, store-conditionals of several
 * granules, an access off its location). */
bool mixed_split(litmus_test *t, diag *d);
/* A split location's final value from its granules' (cells: every
 * location's final value): mixed_finals puts each whole location's into
 * its cell 0. */
void mixed_finals(const litmus_test *t, value *finals);

/* What an access of `size` bytes (0: unknown) at byte offset `offset`
 * from location `loc` reaches. */
enum cell_fit {
	CELL_OK,         /* *cell: the location accessed                   */
	CELL_NOT_ARRAY,  /* loc is no array and the offset is not 0        */
	CELL_OUTSIDE,    /* before the array or past its last cell         */
	CELL_MISALIGNED, /* not at a cell's first byte                      */
	CELL_MIXED,      /* size is not the cells' size: a mixed-size access */
};
enum cell_fit prog_array_cell(const litmus_test *t, int loc, int64_t offset, int size, int *cell);
int prog_find_reg(const thread *th, const char *name);

#endif
