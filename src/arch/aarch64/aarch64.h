/* aarch64.h — the AArch64 front-end's private parts, shared by its files:
 *
 *   arch_aarch64.c  registers, operand readers, dispatch, registration
 *   aarch64_mem.c   loads and stores (offset, register-indexed, post-
 *                   index), acquire/release/acquire-PC, exclusives, the
 *                   atomic read-modify-write family (CAS, SWP, LDADD ...)
 *   aarch64_alu.c   MOV, ADD/SUB, logic, shifts, SXTW, CMP, TST, NEG,
 *                   MVN, their flag-setting forms (ADDS ...)
 *   aarch64_operand.c  their second operand (shifted, extended)
 *   aarch64_bits.c  MOVZ/MOVN/MOVK, bit fields, reversals, ABS,
 *                   multiplies, CSEL and its family, MRS/MSR NZCV
 *   aarch64_cond.c  condition codes on the flags NZCV
 *   aarch64_flow.c  B, B.cond, CBZ/CBNZ, TBZ/TBNZ, ADR, BL, BLR, BR, RET,
 *                   DMB/DSB, ISB, NOP, and TLBI (herd's vmsa variant)
 *   aarch64_fetch.c herd's ifetch variant (instructions fetched from
 *                   memory), DC CVAU and IC IVAU
 *   aarch64_print.c herd's spelling of an instruction for the hash, its
 *                   order of registers in a state
 *
 * Semantics are herd7's (herd/AArch64Sem.ml, without variants): see each
 * file's header for what one instruction becomes.
 */
#ifndef WEFT_AARCH64_H
#define WEFT_AARCH64_H

#include "../arch_operand.h"

/* Annotation bits of AArch64 accesses: herd's sets A (acquire), Q
 * (acquire-PC), L (release), NoRet (an atomic whose loaded value is
 * discarded into the zero register) and NT (non-temporal: LDNP, STNP). */
enum { A64_ACQ = 1u << 0, A64_ACQPC = 1u << 1, A64_REL = 1u << 2, A64_NORET = 1u << 3, A64_NT = 1u << 4 };

/* A general-purpose register operand. */
typedef struct a64_reg {
	int reg;      /* index in the thread; -1 for the zero register */
	bool wide;    /* X (64 bits) rather than W (32 bits)            */
	const char *at;
} a64_reg;

bool a64_read_reg(arch_cursor *c, a64_reg *r);
bool a64_comma(arch_cursor *c);
/* `#imm` (the '#' may be left out); a location name is its address. */
bool a64_read_imm(arch_cursor *c, value *v);
/* Whether the next operand is an immediate (starts with '#' or a digit). */
bool a64_at_imm(arch_cursor *c);
/* The value a source register reads: the zero register reads 0. */
operand a64_src(a64_reg r);
/* Write `a <alu> b` to rd: nothing for the zero register; a W
 * destination keeps the low 32 bits, as herd's write to a W register. */
void a64_write_alu(arch_ctx *ctx, a64_reg rd, enum alu_op alu, operand a, operand b);
/* The condition flags (PSTATE.NZCV as prog.h's ALU_NZCV_* compute it),
 * and the scratch registers 0..3 of multi-op instructions: no condition
 * can name them. */
int a64_flags(arch_ctx *ctx);
int a64_scratch(arch_ctx *ctx, int k);
/* herd's reservation of the last load-exclusive: its address, 0 for none. */
int a64_reservation(arch_ctx *ctx);
/* A condition code (EQ, NE, CS, ... AL; aarch64_cond.c); false when
 * `name` is none. */
bool a64_cond(const char *name, enum nzcv_cond *cond);
const char *a64_cond_name(enum nzcv_cond cond);
/* herd's inverse of a condition (the one CSET, CSETM, CINC are built on). */
enum nzcv_cond a64_cond_inverse(enum nzcv_cond cond);
/* Whether the flags satisfy `cond`, computed into scratch register 1:
 * the register holding 1 or 0. */
int a64_cond_value(arch_ctx *ctx, enum nzcv_cond cond);
/* The second operand of a data-processing instruction of width `wide`
 * (aarch64_operand.c). */
bool a64_read_operand2(arch_cursor *c, bool wide, operand *out);
/* A branch that herd's semantics makes inside one instruction, with no
 * branch event and no control dependency (CAS, CSEL): ACC_SILENT. */
op *a64_silent_branch(arch_ctx *ctx, enum branch_cond cond, operand tested);

/* "unsupported AArch64 instruction '<text>': <why>" at the instruction:
 * what weft knows but does not run.  Returns false. */
bool a64_refuse(arch_cursor *c, const char *why);

/* Each family translates its own mnemonics: *mine is false (nothing read)
 * for a mnemonic it does not know.  False after an error. */
bool a64_mem_translate(arch_cursor *c, const char *mnemonic, bool *mine);
bool a64_alu_translate(arch_cursor *c, const char *mnemonic, bool *mine);
bool a64_flow_translate(arch_cursor *c, const char *mnemonic, bool *mine);
/* The code location "P<thread>:<label>" of this thread's instruction at
 * `label` (a label, or "#instr:N" for instruction N), added if new
 * (aarch64_fetch.c). */
int a64_code_location(arch_ctx *ctx, const char *label);
bool a64_bits_translate(arch_cursor *c, const char *mnemonic, bool *mine);
/* DC CVAU and IC IVAU (aarch64_fetch.c). */
bool a64_cache_translate(arch_cursor *c, const char *mnemonic, bool *mine);
/* herd's ifetch variant (aarch64_fetch.c): when the instruction about to
 * be translated is fetched from memory, its fetch and the instructions
 * that may be there, each translated by `plain`; *mine false otherwise
 * (nothing emitted). */
bool a64_fetch_translate(arch_ctx *ctx, const char *text, bool (*plain)(arch_ctx *, const char *), bool *mine);

/* herd's system registers (aarch64_sysreg.c), NZCV aside: the index of
 * `name` (any case) in herd's order, -1 when it names none; its spelling;
 * under herd's NV2 variant, its byte offset from VNCR_EL2 in memory, -1
 * when NV2 keeps it in the register. */
int a64_sysreg(const char *name);
const char *a64_sysreg_name(int k);
int a64_sysreg_nv2_offset(int k);
int a64_sysreg_count(void);

/* herd's spelling and register order (arch.h's herd_print, reg_rank). */
void a64_herd_print(const char *text, label_renamer rename, void *ctx, strbuf *out);
int a64_reg_rank(const char *name);

#endif
