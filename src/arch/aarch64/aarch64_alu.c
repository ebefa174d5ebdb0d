/* aarch64_alu.c — AArch64 register computations, as herd7 runs them
 * (herd's I_MOV, I_OP3 and I_ADDSUBEXT):
 *
 *   MOV Rd,#k | Rd,Rn            Rd = k | Rn
 *   ADD SUB AND ORR EOR          Rd = Rn OP OP2, OP2 the second operand of
 *   BIC ORN EON Rd,Rn,OP2        aarch64_operand.c (#k, shifted or extended
 *                                Rm); BIC, ORN take the complement of OP2;
 *                                EON is herd's EOR (its lexer's reading)
 *   ADDS SUBS ANDS BICS          the same, and the flags NZCV of the
 *                                operation (prog.h's ALU_NZCV_*)
 *   CMP Rn,OP2 | TST Rn,OP2      SUBS | ANDS with the zero register as Rd
 *   NEG NEGS Rd,OP2 | MVN Rd,OP2 SUB SUBS Rd,ZR,OP2 | ORN Rd,ZR,OP2
 *   LSL LSR ASR ROR Rd,Rn,#k|Rm  Rn shifted or rotated by k or Rm (also
 *   LSLV LSRV ASRV RORV          spelt with a V); a W Rn is read as its
 *                                low word (herd's ASR of a W register
 *                                thus shifts zeros in, as herd computes)
 *   SXTW Xd,Wn | UXTW            sign / zero extension of the low word
 * A result written to a W register keeps its low 32 bits (herd's mask32).
 * Bit-field moves, multiplies, reversals, conditional selects:
 * aarch64_bits.c.
 */
#include <string.h>

#include "aarch64.h"

/* What the instruction does with its operands. */
enum alu_shape {
	SH_MOV,   /* Rd, OP                                   */
	SH_OP3,   /* Rd, Rn, OP2                              */
	SH_SHIFT, /* Rd, Rn, #k|Rm: shifts and rotations       */
	SH_OP2,   /* Rd, OP2 with ZR as Rn (NEG, NEGS, MVN)   */
	SH_TEST,  /* Rn, OP2 with ZR as Rd (CMP, TST)         */
	SH_EXT,   /* Xd, Wn                                   */
};

/* How the flags are set: not, as an addition, a subtraction, or from
 * the result (N and Z). */
enum alu_flags { FL_NONE, FL_ADD, FL_SUB, FL_NZ };

static const struct {
	const char *name;
	enum alu_shape shape;
	enum alu_op alu;
	bool invert;          /* OP2 complemented first (BIC, ORN, EON) */
	enum alu_flags flags;
} alu_forms[] = {
	{ "MOV", SH_MOV, ALU_MOV, false, FL_NONE },
	{ "ADD", SH_OP3, ALU_ADD, false, FL_NONE },   { "ADDS", SH_OP3, ALU_ADD, false, FL_ADD },
	{ "SUB", SH_OP3, ALU_SUB, false, FL_NONE },   { "SUBS", SH_OP3, ALU_SUB, false, FL_SUB },
	{ "AND", SH_OP3, ALU_AND, false, FL_NONE },   { "ANDS", SH_OP3, ALU_AND, false, FL_NZ },
	{ "BIC", SH_OP3, ALU_AND, true, FL_NONE },    { "BICS", SH_OP3, ALU_AND, true, FL_NZ },
	{ "ORR", SH_OP3, ALU_OR, false, FL_NONE },    { "ORN", SH_OP3, ALU_OR, true, FL_NONE },
	/* herd's lexer reads EON as EOR (lib/AArch64Lexer.mll) */
	{ "EOR", SH_OP3, ALU_XOR, false, FL_NONE },   { "EON", SH_OP3, ALU_XOR, false, FL_NONE },
	{ "CMP", SH_TEST, ALU_SUB, false, FL_SUB },   { "TST", SH_TEST, ALU_AND, false, FL_NZ },
	{ "NEG", SH_OP2, ALU_SUB, false, FL_NONE },   { "NEGS", SH_OP2, ALU_SUB, false, FL_SUB },
	{ "MVN", SH_OP2, ALU_OR, true, FL_NONE },
	{ "LSL", SH_SHIFT, ALU_SHL, false, FL_NONE }, { "LSLV", SH_SHIFT, ALU_SHL, false, FL_NONE },
	{ "LSR", SH_SHIFT, ALU_SHRU, false, FL_NONE }, { "LSRV", SH_SHIFT, ALU_SHRU, false, FL_NONE },
	{ "ASR", SH_SHIFT, ALU_SHRS, false, FL_NONE }, { "ASRV", SH_SHIFT, ALU_SHRS, false, FL_NONE },
	{ "ROR", SH_SHIFT, ALU_ROTL64, false, FL_NONE }, { "RORV", SH_SHIFT, ALU_ROTL64, false, FL_NONE },
	{ "SXTW", SH_EXT, ALU_SEXT, false, FL_NONE }, { "UXTW", SH_EXT, ALU_ZEXT, false, FL_NONE },
};

/* Rd = a <alu> b with the flags `fl` of it: the flags from the operands
 * before Rd is written (Rd may be one of them), or from the result. */
static void emit_op3(arch_ctx *ctx, a64_reg rd, bool wide, enum alu_op alu, enum alu_flags fl, operand a,
                     operand b)
{
	int flags = a64_flags(ctx);
	switch (fl) {
	case FL_NONE:
		a64_write_alu(ctx, rd, alu, a, b);
		return;
	case FL_ADD:
	case FL_SUB:
		arch_emit_alu(ctx, fl == FL_ADD ? (wide ? ALU_NZCV_ADD64 : ALU_NZCV_ADD32)
		                                : (wide ? ALU_NZCV_SUB64 : ALU_NZCV_SUB32),
		              flags, a, b);
		a64_write_alu(ctx, rd, alu, a, b);
		return;
	case FL_NZ: {
		int t = a64_scratch(ctx, 0);
		arch_emit_alu(ctx, alu, t, a, b);
		arch_emit_alu(ctx, ALU_NZCV_NZ, flags, arch_opnd_reg(t), arch_opnd_int(wide ? 64 : 32));
		a64_write_alu(ctx, rd, ALU_MOV, arch_opnd_reg(t), arch_opnd_none());
		return;
	}
	}
}

/* LSL Rd,Rn,#k|Rm and the others: herd's I_OP3 of a shift, Rn read as
 * wide as the instruction, the amount as its op_ext. */
static bool emit_shift(arch_cursor *c, a64_reg rd, enum alu_op alu)
{
	arch_ctx *ctx = c->ctx;
	a64_reg rn;
	operand b;
	if (!a64_read_reg(c, &rn) || !a64_comma(c) || !a64_read_operand2(c, rd.wide, &b) || !arch_expect_end(c))
		return false;
	operand a = a64_src(rn);
	if (!rd.wide) {
		int t = a64_scratch(ctx, 0);
		arch_emit_alu(ctx, ALU_ZEXT, t, a, arch_opnd_int(4));
		a = arch_opnd_reg(t);
		if (alu == ALU_ROTL64)
			alu = ALU_ROTL32;
	}
	if (alu == ALU_ROTL64 || alu == ALU_ROTL32) {
		/* right by b is left by 64 - b mod the width (ROTL32 repeats
		 * the word) */
		int t = a64_scratch(ctx, 1);
		int64_t bits = rd.wide ? 64 : 32;
		if (b.kind == OPND_IMM) {
			b = arch_opnd_int((64 - b.imm.num % bits) % 64);
		} else {
			arch_emit_alu(ctx, ALU_AND, t, b, arch_opnd_int(bits - 1));
			arch_emit_alu(ctx, ALU_SUB, t, arch_opnd_int(64), arch_opnd_reg(t));
			arch_emit_alu(ctx, ALU_AND, t, arch_opnd_reg(t), arch_opnd_int(63));
			b = arch_opnd_reg(t);
		}
	} else if (!rd.wide && b.kind == OPND_REG) {
		/* herd masks the amount to the width */
		int t = a64_scratch(ctx, 1);
		arch_emit_alu(ctx, ALU_ZEXT, t, b, arch_opnd_int(4));
		b = arch_opnd_reg(t);
	}
	a64_write_alu(ctx, rd, alu, a, b);
	return true;
}

/* The complement of b, in scratch register 3. */
static operand complement(arch_ctx *ctx, operand b)
{
	int t = a64_scratch(ctx, 3);
	arch_emit_alu(ctx, ALU_XOR, t, b, arch_opnd_int(-1));
	return arch_opnd_reg(t);
}

/* MOV Rd,#k | Rd,Rm.  herd parses MOV Xd,Wm but fails on it (its printer
 * asserts that both registers have one width): refused. */
static bool emit_mov(arch_cursor *c, a64_reg rd)
{
	arch_ctx *ctx = c->ctx;
	a64_reg rm;
	if (a64_at_imm(c)) {
		value k;
		if (!a64_read_imm(c, &k) || !arch_expect_end(c))
			return false;
		a64_write_alu(ctx, rd, ALU_MOV, arch_opnd_imm(k), arch_opnd_none());
		return true;
	}
	if (!a64_read_reg(c, &rm) || !arch_expect_end(c))
		return false;
	if (rd.wide != rm.wide)
		return arch_malformed(c, rm.at, "MOV takes two registers of one width (herd7 fails on "
		                                "MOV Xd,Wm)");
	a64_write_alu(ctx, rd, ALU_MOV, a64_src(rm), arch_opnd_none());
	return true;
}

bool a64_alu_translate(arch_cursor *c, const char *m, bool *mine)
{
	arch_ctx *ctx = c->ctx;
	size_t k = 0;
	while (k < sizeof alu_forms / sizeof alu_forms[0] && !arch_word_eq(m, alu_forms[k].name))
		k++;
	if (k == sizeof alu_forms / sizeof alu_forms[0]) {
		*mine = false;
		return false;
	}
	*mine = true;
	a64_reg rd, rn;
	operand a = arch_opnd_int(0), b;
	if (!a64_read_reg(c, &rd) || !a64_comma(c))
		return false;
	bool wide = rd.wide;
	switch (alu_forms[k].shape) {
	case SH_MOV:
		return emit_mov(c, rd);
	case SH_SHIFT:
		return emit_shift(c, rd, alu_forms[k].alu);
	case SH_EXT:
		if (!a64_read_reg(c, &rn) || !arch_expect_end(c))
			return false;
		a64_write_alu(ctx, rd, alu_forms[k].alu, a64_src(rn), arch_opnd_int(4));
		return true;
	case SH_OP3:
		if (!a64_read_reg(c, &rn) || !a64_comma(c))
			return false;
		a = a64_src(rn);
		break;
	case SH_TEST:
		/* CMP Rn,OP2: the register read is the first operand */
		a = a64_src(rd);
		rd.reg = -1;
		break;
	case SH_OP2:
		break;
	}
	if (!a64_read_operand2(c, wide, &b) || !arch_expect_end(c))
		return false;
	if (alu_forms[k].invert)
		b = complement(ctx, b);
	emit_op3(ctx, rd, wide, alu_forms[k].alu, alu_forms[k].flags, a, b);
	return true;
}
