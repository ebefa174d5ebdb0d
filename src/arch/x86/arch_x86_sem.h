/* arch_x86_sem.h — the semantics shared by the two x86 syntaxes: X86
 * (Intel order, `MOV [x],EAX`) and X86_64 (AT&T order, `movq %rax,(x)`).
 * Each syntax file reads its operands into Intel order (destination first)
 * and hands the instruction to x86_emit(), which appends the ops.
 *
 * Representation choices (documented once, here):
 *   - every arithmetic instruction and CMP writes the pseudo-register
 *     "flags" with ALU_CMP (CMP a,b: sign(a - b); ADD/SUB/.../INC/DEC:
 *     sign(result - 0)), and conditional jumps test it against 0;
 *   - a read-modify-write of memory is LOAD into ARCH_SCRATCH_REG, ALU,
 *     STORE; with a LOCK prefix (and always for XCHG with a memory operand)
 *     the load and the store carry ACC_ATOMIC;
 *   - XCHG [m],r is LOAD tmp=[m]; STORE [m]=r; r = tmp;
 *   - CMPXCHG [m],r is LOAD tmp=[m]; flags = CMP(EAX, tmp); if equal
 *     STORE [m]=r, else EAX = tmp (a branch inside the instruction);
 *   - shifts of a 32-bit operand work on its low word (SHR zero-extends,
 *     SAR sign-extends it first) and zero-extend the result, as a 32-bit
 *     write to a 64-bit register does; the count is masked to 5 bits (6
 *     for 64-bit operands); the flags are set from the result.
 * Private to src/arch.
 */
#ifndef WEFT_ARCH_X86_SEM_H
#define WEFT_ARCH_X86_SEM_H

#include "../arch_operand.h"

enum x86_opnd_kind {
	X86_OPND_NONE,
	X86_OPND_REG,  /* register `reg`, `width` bytes wide (0: unknown) */
	X86_OPND_MEM,  /* memory at `addr`                                */
	X86_OPND_IMM,  /* immediate `imm` (a number or a location address) */
};

typedef struct x86_opnd {
	enum x86_opnd_kind kind;
	int reg;
	int width;
	address addr;
	value imm;
	const char *at;   /* where it starts in the instruction text */
} x86_opnd;

enum x86_mnemonic {
	X86_MOV, X86_XCHG, X86_XADD,
	X86_ADD, X86_SUB, X86_AND, X86_OR, X86_XOR,
	X86_INC, X86_DEC, X86_CMP,
	X86_JUMP,      /* JMP and Jcc: `cond` says which */
	X86_FENCE,     /* MFENCE, LFENCE, SFENCE: `fence` says which */
	X86_NOP,       /* NOP (any operands, as compilers' nopl/nopw), ENDBR64 */
	X86_RET,       /* RET: the end of the thread (herd's telechat exit) */
	X86_SHL, X86_SHR, X86_SAR, /* shifts by an immediate or CL; SAL = SHL */
	X86_NEG, X86_NOT,
	X86_CMPXCHG,   /* CMPXCHG dst,src (Intel order): compare with EAX/RAX */
};

/* n_operands of NOP: whatever follows the mnemonic is ignored. */
#define X86_ANY_OPERANDS 3

/* One entry of the shared mnemonic table. */
typedef struct x86_form {
	const char *mnemonic;     /* lower case */
	enum x86_mnemonic m;
	int n_operands;           /* 0, 1 or 2; jumps take a label instead */
	enum branch_cond cond;    /* X86_JUMP */
	const char *fence;        /* X86_FENCE */
} x86_form;

/* The form named `mnemonic` (any case), or NULL. */
const x86_form *x86_find_form(const char *mnemonic);

/* The fence set names of both x86 architectures. */
extern const char *const x86_fences[];

/* An instruction with operands read, in Intel order (dst = first). */
typedef struct x86_instr {
	const x86_form *form;
	bool lock;            /* LOCK prefix                               */
	int size;             /* access size in bytes, 0 if unknown        */
	x86_opnd dst, src;
	const char *label;    /* X86_JUMP                                  */
	const char *accumulator; /* CMPXCHG's implicit register: "EAX", "rax" */
} x86_instr;

/* Append the ops of `ins`; false after reporting an invalid combination of
 * operands (e.g. two memory operands) through the cursor. */
bool x86_emit(arch_cursor *c, const x86_instr *ins);

/* The head of an instruction, the same in both syntaxes: an optional LOCK
 * prefix and the mnemonic (into `mnemonic`, ARCH_WORD_MAX bytes), which must
 * end at a blank or the end.  False after reporting an unsupported
 * instruction. */
bool x86_read_mnemonic(arch_cursor *c, x86_instr *ins, char *mnemonic);

/* A jump's label (into `label`, ARCH_WORD_MAX bytes); false after
 * reporting. */
bool x86_read_label(arch_cursor *c, x86_instr *ins, char *label);

/* herd's spelling of an instruction for the hash and herd's order of a
 * state's registers (arch.h's herd_print and reg_rank): X86's in
 * x86_print.c, X86_64's in x86_64_print.c and arch_x86_64.c. */
void x86_herd_print(const char *text, label_renamer rename, void *ctx, strbuf *out);
int x86_reg_rank(const char *name);
void x64_herd_print(const char *text, label_renamer rename, void *ctx, strbuf *out);
int x64_reg_rank(const char *name);

#endif
