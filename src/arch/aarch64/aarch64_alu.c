/* aarch64_alu.c — AArch64 register computations, as herd7 runs them:
 *
 *   MOV Rd,#k | Rd,Rn            Rd = k | Rn
 *   ADD SUB EOR ORR AND Rd,Rn,OP OP is #k, Rm, or Rm with SXTW, UXTW or
 *                                LSL #k (Rm extended or shifted first)
 *   LSL LSR ASR Rd,Rn,#k|Rm      shifts
 *   SXTW Xd,Wn | UXTW            sign / zero extension of the low word
 *   CMP Rn,OP                    the flags: Rn compared with OP (signed)
 *   CSEL Rd,Rn,Rm,cond           Rd = cond ? Rn : Rm, the choice made
 *                                inside the instruction (no branch
 *                                event), as herd's CSEL
 * A result written to a W register keeps its low 32 bits.
 */
#include <string.h>

#include "aarch64.h"

/* The second operand of a data-processing instruction. */
static bool read_operand2(arch_cursor *c, operand *out)
{
	arch_ctx *ctx = c->ctx;
	if (a64_at_imm(c)) {
		value k;
		if (!a64_read_imm(c, &k))
			return false;
		*out = arch_opnd_imm(k);
		return true;
	}
	a64_reg rm;
	if (!a64_read_reg(c, &rm))
		return false;
	*out = a64_src(rm);
	if (!arch_cursor_accept(c, ','))
		return true;
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) == 0)
		return arch_malformed(c, at, "expected SXTW, UXTW, LSL, LSR or ASR");
	int t = a64_scratch(ctx, 2);
	if (arch_word_eq(w, "SXTW") || arch_word_eq(w, "UXTW")) {
		arch_emit_alu(ctx, w[0] == 'S' || w[0] == 's' ? ALU_SEXT : ALU_ZEXT, t, *out, arch_opnd_int(4));
	} else {
		enum alu_op sh;
		if (arch_word_eq(w, "LSL"))
			sh = ALU_SHL;
		else if (arch_word_eq(w, "LSR"))
			sh = ALU_SHRU;
		else if (arch_word_eq(w, "ASR"))
			sh = ALU_SHRS;
		else
			return arch_malformed(c, at, "'%s' is not an extension or shift weft runs", w);
		value k;
		if (!a64_read_imm(c, &k))
			return false;
		arch_emit_alu(ctx, sh, t, *out, arch_opnd_imm(k));
	}
	*out = arch_opnd_reg(t);
	return true;
}

enum alu_shape { SH_MOV, SH_OP3, SH_EXT, SH_CMP, SH_CSEL };

static const struct {
	const char *name;
	enum alu_shape shape;
	enum alu_op alu;
} alu_forms[] = {
	{ "MOV", SH_MOV, ALU_MOV }, { "ADD", SH_OP3, ALU_ADD }, { "SUB", SH_OP3, ALU_SUB },
	{ "EOR", SH_OP3, ALU_XOR }, { "ORR", SH_OP3, ALU_OR }, { "AND", SH_OP3, ALU_AND },
	{ "LSL", SH_OP3, ALU_SHL }, { "LSR", SH_OP3, ALU_SHRU }, { "ASR", SH_OP3, ALU_SHRS },
	{ "SXTW", SH_EXT, ALU_SEXT }, { "UXTW", SH_EXT, ALU_ZEXT }, { "CMP", SH_CMP, ALU_CMP },
	{ "CSEL", SH_CSEL, ALU_MOV },
};

static bool emit_csel(arch_cursor *c, a64_reg rd)
{
	arch_ctx *ctx = c->ctx;
	a64_reg rn, rm;
	char w[ARCH_WORD_MAX];
	const char *at;
	enum branch_cond cond;
	if (!a64_read_reg(c, &rn) || !a64_comma(c) || !a64_read_reg(c, &rm) || !a64_comma(c))
		return false;
	if (arch_cursor_word(c, w, &at) == 0 || !a64_cond(w, &cond))
		return arch_malformed(c, at, "expected a condition (EQ, NE, LT, GE, GT, LE)");
	if (!arch_expect_end(c))
		return false;
	/* both sources are read before rd is written (rd may be one) */
	int t = a64_scratch(ctx, 0);
	arch_emit_alu(ctx, ALU_MOV, t, a64_src(rn), arch_opnd_none());
	int taken = ctx->th->n_ops;
	a64_silent_branch(ctx, cond, arch_opnd_reg(a64_flags(ctx)))->flags |= ACC_PICK;
	arch_emit_alu(ctx, ALU_MOV, t, a64_src(rm), arch_opnd_none());
	ctx->th->ops[taken].target = ctx->th->n_ops;
	a64_write_alu(ctx, rd, ALU_MOV, arch_opnd_reg(t), arch_opnd_none());
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
	operand b;
	if (!a64_read_reg(c, &rd) || !a64_comma(c))
		return false;
	switch (alu_forms[k].shape) {
	case SH_MOV:
		if (!read_operand2(c, &b) || !arch_expect_end(c))
			return false;
		a64_write_alu(ctx, rd, ALU_MOV, b, arch_opnd_none());
		return true;
	case SH_OP3:
		if (!a64_read_reg(c, &rn) || !a64_comma(c) || !read_operand2(c, &b) || !arch_expect_end(c))
			return false;
		a64_write_alu(ctx, rd, alu_forms[k].alu, a64_src(rn), b);
		return true;
	case SH_EXT:
		if (!a64_read_reg(c, &rn) || !arch_expect_end(c))
			return false;
		a64_write_alu(ctx, rd, alu_forms[k].alu, a64_src(rn), arch_opnd_int(4));
		return true;
	case SH_CMP:
		if (!read_operand2(c, &b) || !arch_expect_end(c))
			return false;
		arch_emit_alu(ctx, ALU_CMP, a64_flags(ctx), a64_src(rd), b);
		return true;
	case SH_CSEL:
		return emit_csel(c, rd);
	}
	return arch_unsupported(c);
}
