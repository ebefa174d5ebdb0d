/* ppc.h — the PPC front-end's private parts, shared by its files:
 *
 *   arch_ppc.c   registers, operand readers, the table lookup, registration
 *   ppc_alu.c    register arithmetic: immediates, logic, shifts, rotates,
 *                sign and zero extension, compares
 *   ppc_mem.c    loads and stores of every width (plain, algebraic,
 *                indexed, update), load-reserve / store-conditional
 *   ppc_flow.c   branches, fences, nop, mfcr, dcbf
 *   ppc_print.c  herd's spelling of an instruction for the hash, its
 *                order of registers in a state
 *
 * Each family file has a table of forms (mnemonic, shape, parameters) and a
 * translator for its shapes; arch_ppc.c looks a mnemonic up in the three
 * tables and calls the family's translator.
 */
#ifndef WEFT_PPC_H
#define WEFT_PPC_H

#include "../arch_operand.h"

/* One mnemonic: which shape of operands it takes and what it computes. */
typedef struct ppc_form {
	const char *mnemonic;
	int shape;            /* the family's own enum                       */
	int op;               /* enum alu_op, enum branch_cond, ...          */
	int size;             /* access size in bytes, or an extension width */
	unsigned variant;     /* PPC_V_* below                               */
	const char *fence;    /* fence set, for fences                       */
} ppc_form;

enum {
	PPC_V_RECORD = 1u << 0,   /* "." form: also cr0 = CMP(rD, 0)           */
	PPC_V_SWAP = 1u << 1,     /* subf: rD = rB - rA                         */
	PPC_V_NEGATE = 1u << 2,   /* subi: the immediate is subtracted          */
	PPC_V_SHIFT16 = 1u << 3,  /* lis/addis/oris/...: immediate << 16        */
	PPC_V_R0_ZERO = 1u << 4,  /* addi/subi/addis: rA = r0 reads as 0       */
	PPC_V_SIGNED = 1u << 5,   /* algebraic loads (lha, lwa): sign-extend    */
	PPC_V_UPDATE = 1u << 6,   /* update forms: rA = effective address       */
	PPC_V_INVERT = 1u << 7,   /* nor, nand, eqv: complement the result;
	                           * andc, orc: complement rB                    */
	PPC_V_UNSIGNED = 1u << 8, /* logical compares                           */
	PPC_V_WORD = 1u << 9,     /* word compares: low 32 bits                 */
};

/* A family: its forms and their translator. */
typedef struct ppc_family {
	const ppc_form *forms;
	size_t n_forms;
	bool (*translate)(arch_cursor *c, const ppc_form *f);
} ppc_family;

extern const ppc_family ppc_alu_family, ppc_mem_family, ppc_flow_family;

/* ---- operand readers (arch_ppc.c) ----------------------------------------- */

/* A general purpose register; *is_r0 (may be NULL) tells whether it is r0,
 * which reads as 0 in some operand positions. */
bool ppc_read_gpr(arch_cursor *c, int *reg, bool *is_r0);
bool ppc_read_comma(arch_cursor *c);
/* A signed immediate: a number or a location's address. */
bool ppc_read_imm(arch_cursor *c, value *v);
/* A small unsigned number (shift amounts, mask bounds) in [0, max]. */
bool ppc_read_small(arch_cursor *c, int max, int *out);
/* `d(rA)` or herd's alternative `d,rA`. */
bool ppc_read_dform_addr(arch_cursor *c, int64_t *d, int *ra, bool *ra_is_r0);
/* `rA,rB` of the indexed forms: address (rA|0) + rB; *ra gets rA. */
bool ppc_read_xform_addr(arch_cursor *c, address *addr, int *ra, bool *ra_is_r0);
/* An optional leading `crN,` (compares and conditional branches); cr0
 * when absent. */
bool ppc_read_opt_crfield(arch_cursor *c, int *cr);
bool ppc_read_label(arch_cursor *c, char *label);

/* cr0 = CMP(rD, 0): what the record ("dot") forms add. */
void ppc_set_cr0_from(arch_ctx *ctx, int rd);
/* The condition register field cr0. */
int ppc_cr0(arch_ctx *ctx);
/* Scratch registers for intermediate values (never nameable in tests). */
int ppc_scratch(arch_ctx *ctx, int k);

/* herd's spelling and register order (arch.h's herd_print, reg_rank). */
void ppc_herd_print(const char *text, label_renamer rename, void *ctx, strbuf *out);
int ppc_reg_rank(const char *name);

#endif
