/* ppc_alu.c — PPC register arithmetic: immediates, logic, shifts, rotates,
 * sign extension and compares (see ppc.h).
 *
 * Values are 64-bit.  The rotate-and-mask family follows herd7's PPCSem:
 * ROTL32 puts the low word in both halves before rotating (so rlwinm with a
 * wrapping mask keeps a copy in the high word), and masks are numbered from
 * the most significant bit, 0..63, the word forms adding 32 to MB and ME.
 * The extended mnemonics (slwi, srwi, clrlwi, clrldi, sldi, srdi, rotlwi,
 * ...) are the rotate they stand for in the ISA.  Word shifts by a register
 * use its low 6 bits (32..63 give 0, or the sign for sraw), doubleword
 * shifts its low 7 bits.  Carries (XER[CA]) are not modelled.
 */
#include <stdint.h>

#include "ppc.h"

enum alu_shape {
	A_LI,        /* li rD,imm / lis                                     */
	A_MR,        /* mr rD,rS                                            */
	A_NOT,       /* not rA,rS                                           */
	A_RRI,       /* addi rD,rA,imm and the other immediate forms        */
	A_RRR,       /* add rD,rA,rB and the other register forms           */
	A_NEG,       /* neg rD,rA                                           */
	A_EXT,       /* extsw rA,rS (size: bytes kept)                      */
	A_SHIFT,     /* slw rA,rS,rB (op: the shift; size: 4 word, 8 dword) */
	A_SHIFTI,    /* srawi rA,rS,n / sradi                                */
	A_RLWINM,    /* rlwinm rA,rS,SH,MB,ME                               */
	A_RLWIMI,    /* rlwimi rA,rS,SH,MB,ME                               */
	A_RLD,       /* rldicl rA,rS,SH,MB / rldicr ..,ME / rldic / rldimi  */
	A_WORD_EXT,  /* slwi, srwi, clrlwi, clrrwi, rotlwi, rotrwi: rlwinm  */
	A_DWORD_EXT, /* sldi, srdi, clrldi, clrrdi, rotldi, rotrdi: rldic*  */
	A_CMP,       /* cmpw [crN,]rA,rB                                    */
	A_CMPI,      /* cmpwi [crN,]rA,imm                                  */
};

/* Which rotate an A_RLD, A_WORD_EXT or A_DWORD_EXT form is (its `op`). */
enum rot_kind {
	R_RLDICL, R_RLDICR, R_RLDIC, R_RLDIMI,
	R_SLWI, R_SRWI, R_CLRLWI, R_CLRRWI, R_ROTLWI, R_ROTRWI,
	R_SLDI, R_SRDI, R_CLRLDI, R_CLRRDI, R_ROTLDI, R_ROTRDI,
};

#define REC PPC_V_RECORD

static const ppc_form alu_forms[] = {
	{ "li", A_LI, ALU_MOV, 0, 0, NULL },
	{ "lis", A_LI, ALU_MOV, 0, PPC_V_SHIFT16, NULL },
	{ "mr", A_MR, ALU_MOV, 0, 0, NULL },
	{ "mr.", A_MR, ALU_MOV, 0, REC, NULL },
	{ "not", A_NOT, ALU_XOR, 0, 0, NULL },
	{ "not.", A_NOT, ALU_XOR, 0, REC, NULL },
	{ "addi", A_RRI, ALU_ADD, 0, PPC_V_R0_ZERO, NULL },
	{ "addis", A_RRI, ALU_ADD, 0, PPC_V_R0_ZERO | PPC_V_SHIFT16, NULL },
	{ "subi", A_RRI, ALU_ADD, 0, PPC_V_R0_ZERO | PPC_V_NEGATE, NULL },
	{ "subis", A_RRI, ALU_ADD, 0, PPC_V_R0_ZERO | PPC_V_NEGATE | PPC_V_SHIFT16, NULL },
	{ "ori", A_RRI, ALU_OR, 0, 0, NULL },
	{ "oris", A_RRI, ALU_OR, 0, PPC_V_SHIFT16, NULL },
	{ "xori", A_RRI, ALU_XOR, 0, 0, NULL },
	{ "xoris", A_RRI, ALU_XOR, 0, PPC_V_SHIFT16, NULL },
	{ "andi.", A_RRI, ALU_AND, 0, REC, NULL },
	{ "andis.", A_RRI, ALU_AND, 0, REC | PPC_V_SHIFT16, NULL },
	{ "mulli", A_RRI, ALU_MUL, 0, 0, NULL },
	{ "add", A_RRR, ALU_ADD, 0, 0, NULL },
	{ "add.", A_RRR, ALU_ADD, 0, REC, NULL },
	{ "sub", A_RRR, ALU_SUB, 0, 0, NULL },
	{ "sub.", A_RRR, ALU_SUB, 0, REC, NULL },
	{ "subf", A_RRR, ALU_SUB, 0, PPC_V_SWAP, NULL },
	{ "subf.", A_RRR, ALU_SUB, 0, PPC_V_SWAP | REC, NULL },
	{ "xor", A_RRR, ALU_XOR, 0, 0, NULL },
	{ "xor.", A_RRR, ALU_XOR, 0, REC, NULL },
	{ "or", A_RRR, ALU_OR, 0, 0, NULL },
	{ "or.", A_RRR, ALU_OR, 0, REC, NULL },
	{ "and", A_RRR, ALU_AND, 0, 0, NULL },
	{ "and.", A_RRR, ALU_AND, 0, REC, NULL },
	{ "nor", A_RRR, ALU_OR, 0, PPC_V_INVERT, NULL },
	{ "nor.", A_RRR, ALU_OR, 0, PPC_V_INVERT | REC, NULL },
	{ "nand", A_RRR, ALU_AND, 0, PPC_V_INVERT, NULL },
	{ "nand.", A_RRR, ALU_AND, 0, PPC_V_INVERT | REC, NULL },
	{ "eqv", A_RRR, ALU_XOR, 0, PPC_V_INVERT, NULL },
	{ "eqv.", A_RRR, ALU_XOR, 0, PPC_V_INVERT | REC, NULL },
	{ "andc", A_RRR, ALU_AND, 1, PPC_V_INVERT, NULL },
	{ "andc.", A_RRR, ALU_AND, 1, PPC_V_INVERT | REC, NULL },
	{ "orc", A_RRR, ALU_OR, 1, PPC_V_INVERT, NULL },
	{ "orc.", A_RRR, ALU_OR, 1, PPC_V_INVERT | REC, NULL },
	{ "mullw", A_RRR, ALU_MUL, 0, 0, NULL },
	{ "mullw.", A_RRR, ALU_MUL, 0, REC, NULL },
	{ "mulld", A_RRR, ALU_MUL, 0, 0, NULL },
	{ "mulld.", A_RRR, ALU_MUL, 0, REC, NULL },
	{ "divw", A_RRR, ALU_DIV, 0, 0, NULL },
	{ "divw.", A_RRR, ALU_DIV, 0, REC, NULL },
	{ "divd", A_RRR, ALU_DIV, 0, 0, NULL },
	{ "divd.", A_RRR, ALU_DIV, 0, REC, NULL },
	{ "neg", A_NEG, ALU_SUB, 0, 0, NULL },
	{ "neg.", A_NEG, ALU_SUB, 0, REC, NULL },
	{ "extsb", A_EXT, ALU_SEXT, 1, 0, NULL },
	{ "extsb.", A_EXT, ALU_SEXT, 1, REC, NULL },
	{ "extsh", A_EXT, ALU_SEXT, 2, 0, NULL },
	{ "extsh.", A_EXT, ALU_SEXT, 2, REC, NULL },
	{ "extsw", A_EXT, ALU_SEXT, 4, 0, NULL },
	{ "extsw.", A_EXT, ALU_SEXT, 4, REC, NULL },
	{ "slw", A_SHIFT, ALU_SHL, 4, 0, NULL },
	{ "slw.", A_SHIFT, ALU_SHL, 4, REC, NULL },
	{ "srw", A_SHIFT, ALU_SHRU, 4, 0, NULL },
	{ "srw.", A_SHIFT, ALU_SHRU, 4, REC, NULL },
	{ "sraw", A_SHIFT, ALU_SHRS, 4, 0, NULL },
	{ "sraw.", A_SHIFT, ALU_SHRS, 4, REC, NULL },
	{ "sld", A_SHIFT, ALU_SHL, 8, 0, NULL },
	{ "sld.", A_SHIFT, ALU_SHL, 8, REC, NULL },
	{ "srd", A_SHIFT, ALU_SHRU, 8, 0, NULL },
	{ "srd.", A_SHIFT, ALU_SHRU, 8, REC, NULL },
	{ "srad", A_SHIFT, ALU_SHRS, 8, 0, NULL },
	{ "srad.", A_SHIFT, ALU_SHRS, 8, REC, NULL },
	{ "srawi", A_SHIFTI, ALU_SHRS, 4, 0, NULL },
	{ "srawi.", A_SHIFTI, ALU_SHRS, 4, REC, NULL },
	{ "sradi", A_SHIFTI, ALU_SHRS, 8, 0, NULL },
	{ "sradi.", A_SHIFTI, ALU_SHRS, 8, REC, NULL },
	{ "rlwinm", A_RLWINM, 0, 0, 0, NULL },
	{ "rlwinm.", A_RLWINM, 0, 0, REC, NULL },
	{ "rlwimi", A_RLWIMI, 0, 0, 0, NULL },
	{ "rlwimi.", A_RLWIMI, 0, 0, REC, NULL },
	{ "rldicl", A_RLD, R_RLDICL, 0, 0, NULL },
	{ "rldicl.", A_RLD, R_RLDICL, 0, REC, NULL },
	{ "rldicr", A_RLD, R_RLDICR, 0, 0, NULL },
	{ "rldicr.", A_RLD, R_RLDICR, 0, REC, NULL },
	{ "rldic", A_RLD, R_RLDIC, 0, 0, NULL },
	{ "rldic.", A_RLD, R_RLDIC, 0, REC, NULL },
	{ "rldimi", A_RLD, R_RLDIMI, 0, 0, NULL },
	{ "rldimi.", A_RLD, R_RLDIMI, 0, REC, NULL },
	{ "slwi", A_WORD_EXT, R_SLWI, 0, 0, NULL },
	{ "slwi.", A_WORD_EXT, R_SLWI, 0, REC, NULL },
	{ "srwi", A_WORD_EXT, R_SRWI, 0, 0, NULL },
	{ "srwi.", A_WORD_EXT, R_SRWI, 0, REC, NULL },
	{ "clrlwi", A_WORD_EXT, R_CLRLWI, 0, 0, NULL },
	{ "clrlwi.", A_WORD_EXT, R_CLRLWI, 0, REC, NULL },
	{ "clrrwi", A_WORD_EXT, R_CLRRWI, 0, 0, NULL },
	{ "clrrwi.", A_WORD_EXT, R_CLRRWI, 0, REC, NULL },
	{ "rotlwi", A_WORD_EXT, R_ROTLWI, 0, 0, NULL },
	{ "rotrwi", A_WORD_EXT, R_ROTRWI, 0, 0, NULL },
	{ "sldi", A_DWORD_EXT, R_SLDI, 0, 0, NULL },
	{ "sldi.", A_DWORD_EXT, R_SLDI, 0, REC, NULL },
	{ "srdi", A_DWORD_EXT, R_SRDI, 0, 0, NULL },
	{ "srdi.", A_DWORD_EXT, R_SRDI, 0, REC, NULL },
	{ "clrldi", A_DWORD_EXT, R_CLRLDI, 0, 0, NULL },
	{ "clrldi.", A_DWORD_EXT, R_CLRLDI, 0, REC, NULL },
	{ "clrrdi", A_DWORD_EXT, R_CLRRDI, 0, 0, NULL },
	{ "clrrdi.", A_DWORD_EXT, R_CLRRDI, 0, REC, NULL },
	{ "rotldi", A_DWORD_EXT, R_ROTLDI, 0, 0, NULL },
	{ "rotrdi", A_DWORD_EXT, R_ROTRDI, 0, 0, NULL },
	/* herd compares the whole registers for cmpw (as here); the logical
	 * compares take the low word (word forms) and compare unsigned, and
	 * cmplwi's immediate is its low 16 bits, as herd's Pcmplwi */
	{ "cmpw", A_CMP, ALU_CMP, 0, 0, NULL },
	{ "cmpd", A_CMP, ALU_CMP, 0, 0, NULL },
	{ "cmplw", A_CMP, ALU_CMPU, 0, PPC_V_UNSIGNED | PPC_V_WORD, NULL },
	{ "cmpld", A_CMP, ALU_CMPU, 0, PPC_V_UNSIGNED, NULL },
	{ "cmpwi", A_CMPI, ALU_CMP, 0, 0, NULL },
	{ "cmpdi", A_CMPI, ALU_CMP, 0, 0, NULL },
	{ "cmplwi", A_CMPI, ALU_CMPU, 0, PPC_V_UNSIGNED | PPC_V_WORD, NULL },
	{ "cmpldi", A_CMPI, ALU_CMPU, 0, PPC_V_UNSIGNED, NULL },
};

/* herd's mask(k1, k2): bits k1..k2 set, bit 0 the most significant; when
 * k1 > k2 the mask wraps: every bit but k2+1..k1-1. */
static uint64_t ppc_mask(int k1, int k2)
{
	uint64_t m = 0;
	if (k1 <= k2) {
		for (int k = k1; k <= k2; k++)
			m |= UINT64_C(1) << (63 - k);
	} else {
		m = ~UINT64_C(0);
		for (int k = k2 + 1; k <= k1 - 1; k++)
			m &= ~(UINT64_C(1) << (63 - k));
	}
	return m;
}

static operand mask_operand(uint64_t m) { return arch_opnd_int((int64_t)m); }

/* rD = rotate(rS, sh) & m, or with `insert` rD = (that) | (rD & ~m). */
static void emit_rotate_mask(arch_ctx *ctx, enum alu_op rot, int rd, int rs, int sh, uint64_t m, bool insert)
{
	int t = insert ? ppc_scratch(ctx, 0) : rd;
	arch_emit_alu(ctx, rot, t, arch_opnd_reg(rs), arch_opnd_int(sh));
	arch_emit_alu(ctx, ALU_AND, t, arch_opnd_reg(t), mask_operand(m));
	if (insert) {
		arch_emit_alu(ctx, ALU_AND, rd, arch_opnd_reg(rd), mask_operand(~m));
		arch_emit_alu(ctx, ALU_OR, rd, arch_opnd_reg(rd), arch_opnd_reg(t));
	}
}

static bool read_rd_rs(arch_cursor *c, int *rd, int *rs)
{
	return ppc_read_gpr(c, rd, NULL) && ppc_read_comma(c) && ppc_read_gpr(c, rs, NULL);
}

static bool shift_immediate(arch_cursor *c, const char *at, value *v, bool is_unsigned)
{
	if (v->loc >= 0)
		return arch_malformed(c, at, "a location address cannot be shifted");
	if (v->num < (is_unsigned ? 0 : -32768) || v->num > 65535)
		return arch_malformed(c, at, "immediate out of range for a shifted form");
	v->num *= 65536;
	return true;
}

/* The word extended mnemonics as rlwinm (SH, MB, ME), from the ISA. */
static bool word_ext(arch_cursor *c, const char *at, int kind, int n, int *sh, int *mb, int *me)
{
	switch (kind) {
	case R_SLWI: *sh = n; *mb = 0; *me = 31 - n; break;
	case R_SRWI: *sh = (32 - n) & 31; *mb = n; *me = 31; break;
	case R_CLRLWI: *sh = 0; *mb = n; *me = 31; break;
	case R_CLRRWI: *sh = 0; *mb = 0; *me = 31 - n; break;
	case R_ROTLWI: *sh = n; *mb = 0; *me = 31; break;
	case R_ROTRWI: *sh = (32 - n) & 31; *mb = 0; *me = 31; break;
	default: return arch_malformed(c, at, "not a word rotate");
	}
	if (n > 31 || (kind == R_SLWI && n == 32))
		return arch_malformed(c, at, "%d is out of range (0 to 31)", n);
	return true;
}

/* The doubleword extended mnemonics as a rotate and a mask. */
static bool dword_ext(arch_cursor *c, const char *at, int kind, int n, int *sh, uint64_t *m)
{
	if (n > 63)
		return arch_malformed(c, at, "%d is out of range (0 to 63)", n);
	switch (kind) {
	case R_SLDI: *sh = n; *m = ppc_mask(0, 63 - n); break;
	case R_SRDI: *sh = (64 - n) & 63; *m = ppc_mask(n, 63); break;
	case R_CLRLDI: *sh = 0; *m = ppc_mask(n, 63); break;
	case R_CLRRDI: *sh = 0; *m = ppc_mask(0, 63 - n); break;
	case R_ROTLDI: *sh = n; *m = ~UINT64_C(0); break;
	case R_ROTRDI: *sh = (64 - n) & 63; *m = ~UINT64_C(0); break;
	default: return arch_malformed(c, at, "not a doubleword rotate");
	}
	return true;
}

static bool translate_rotates(arch_cursor *c, const ppc_form *f, int rd, int rs)
{
	arch_ctx *ctx = c->ctx;
	int sh, mb, me, n;
	uint64_t m = 0;
	const char *at;
	switch (f->shape) {
	case A_RLWINM:
	case A_RLWIMI:
		if (!ppc_read_comma(c) || !ppc_read_small(c, 31, &sh) || !ppc_read_comma(c) ||
		    !ppc_read_small(c, 31, &mb) || !ppc_read_comma(c) || !ppc_read_small(c, 31, &me) ||
		    !arch_expect_end(c))
			return false;
		emit_rotate_mask(ctx, ALU_ROTL32, rd, rs, sh, ppc_mask(mb + 32, me + 32), f->shape == A_RLWIMI);
		return true;
	case A_RLD:
		if (!ppc_read_comma(c) || !ppc_read_small(c, 63, &sh) || !ppc_read_comma(c) ||
		    !ppc_read_small(c, 63, &mb) || !arch_expect_end(c))
			return false;
		switch (f->op) {
		case R_RLDICL: m = ppc_mask(mb, 63); break;
		case R_RLDICR: m = ppc_mask(0, mb); break;   /* the operand is ME */
		default: m = ppc_mask(mb, 63 - sh); break;   /* rldic, rldimi */
		}
		emit_rotate_mask(ctx, ALU_ROTL64, rd, rs, sh, m, f->op == R_RLDIMI);
		return true;
	case A_WORD_EXT:
		arch_cursor_skip_space(c);
		if (!ppc_read_comma(c))
			return false;
		arch_cursor_skip_space(c);
		at = c->p;
		if (!ppc_read_small(c, 32, &n) || !arch_expect_end(c) || !word_ext(c, at, f->op, n, &sh, &mb, &me))
			return false;
		emit_rotate_mask(ctx, ALU_ROTL32, rd, rs, sh, ppc_mask(mb + 32, me + 32), false);
		return true;
	case A_DWORD_EXT:
		if (!ppc_read_comma(c))
			return false;
		arch_cursor_skip_space(c);
		at = c->p;
		if (!ppc_read_small(c, 64, &n) || !arch_expect_end(c) || !dword_ext(c, at, f->op, n, &sh, &m))
			return false;
		emit_rotate_mask(ctx, ALU_ROTL64, rd, rs, sh, m, false);
		return true;
	}
	return arch_unsupported(c);
}

/* slw rA,rS,rB and friends: the amount is rB's low 6 bits (word) or 7
 * bits (doubleword); a word shift works on the low word of rS. */
static void emit_shift(arch_ctx *ctx, const ppc_form *f, int ra, int rs, operand amount)
{
	bool word = f->size == 4;
	if (word && f->op == ALU_SHL) {
		arch_emit_alu(ctx, ALU_SHL, ra, arch_opnd_reg(rs), amount);
		arch_emit_alu(ctx, ALU_ZEXT, ra, arch_opnd_reg(ra), arch_opnd_int(4));
	} else if (word) {
		arch_emit_alu(ctx, f->op == ALU_SHRS ? ALU_SEXT : ALU_ZEXT, ra, arch_opnd_reg(rs), arch_opnd_int(4));
		arch_emit_alu(ctx, (enum alu_op)f->op, ra, arch_opnd_reg(ra), amount);
	} else {
		arch_emit_alu(ctx, (enum alu_op)f->op, ra, arch_opnd_reg(rs), amount);
	}
}

static bool translate_alu(arch_cursor *c, const ppc_form *f)
{
	arch_ctx *ctx = c->ctx;
	int rd, ra, rb, cr, n;
	bool ra_is_r0;
	value imm;
	const char *at;
	unsigned v = f->variant;

	switch (f->shape) {
	case A_LI:
		if (!ppc_read_gpr(c, &rd, NULL) || !ppc_read_comma(c))
			return false;
		arch_cursor_skip_space(c);
		at = c->p;
		if (!ppc_read_imm(c, &imm) || !arch_expect_end(c))
			return false;
		if ((v & PPC_V_SHIFT16) && !shift_immediate(c, at, &imm, false))
			return false;
		arch_emit_alu(ctx, ALU_MOV, rd, arch_opnd_imm(imm), arch_opnd_none());
		return true;
	case A_MR:
		if (!read_rd_rs(c, &rd, &ra) || !arch_expect_end(c))
			return false;
		arch_emit_alu(ctx, ALU_MOV, rd, arch_opnd_reg(ra), arch_opnd_none());
		break;
	case A_NOT:
		if (!read_rd_rs(c, &rd, &ra) || !arch_expect_end(c))
			return false;
		arch_emit_alu(ctx, ALU_XOR, rd, arch_opnd_reg(ra), arch_opnd_int(-1));
		break;
	case A_RRI:
		if (!ppc_read_gpr(c, &rd, NULL) || !ppc_read_comma(c) || !ppc_read_gpr(c, &ra, &ra_is_r0) ||
		    !ppc_read_comma(c))
			return false;
		arch_cursor_skip_space(c);
		at = c->p;
		if (!ppc_read_imm(c, &imm) || !arch_expect_end(c))
			return false;
		if ((v & PPC_V_SHIFT16) && !shift_immediate(c, at, &imm, f->op != ALU_ADD))
			return false;
		if (v & PPC_V_NEGATE) {
			if (imm.loc >= 0)
				return arch_malformed(c, at, "a location address cannot be negated");
			imm.num = -imm.num;
		}
		if ((v & PPC_V_R0_ZERO) && ra_is_r0)
			arch_emit_alu(ctx, ALU_MOV, rd, arch_opnd_imm(imm), arch_opnd_none());
		else
			arch_emit_alu(ctx, (enum alu_op)f->op, rd, arch_opnd_reg(ra), arch_opnd_imm(imm));
		break;
	case A_RRR:
		if (!ppc_read_gpr(c, &rd, NULL) || !ppc_read_comma(c) || !ppc_read_gpr(c, &ra, NULL) ||
		    !ppc_read_comma(c) || !ppc_read_gpr(c, &rb, NULL) || !arch_expect_end(c))
			return false;
		if ((v & PPC_V_INVERT) && f->size == 1) {
			/* andc, orc: rA op ~rB */
			int t = ppc_scratch(ctx, 0);
			arch_emit_alu(ctx, ALU_XOR, t, arch_opnd_reg(rb), arch_opnd_int(-1));
			arch_emit_alu(ctx, (enum alu_op)f->op, rd, arch_opnd_reg(ra), arch_opnd_reg(t));
		} else if (v & PPC_V_SWAP) {
			arch_emit_alu(ctx, (enum alu_op)f->op, rd, arch_opnd_reg(rb), arch_opnd_reg(ra));
		} else {
			arch_emit_alu(ctx, (enum alu_op)f->op, rd, arch_opnd_reg(ra), arch_opnd_reg(rb));
		}
		if ((v & PPC_V_INVERT) && f->size != 1)
			arch_emit_alu(ctx, ALU_XOR, rd, arch_opnd_reg(rd), arch_opnd_int(-1));
		break;
	case A_NEG:
		if (!read_rd_rs(c, &rd, &ra) || !arch_expect_end(c))
			return false;
		arch_emit_alu(ctx, ALU_SUB, rd, arch_opnd_int(0), arch_opnd_reg(ra));
		break;
	case A_EXT:
		if (!read_rd_rs(c, &rd, &ra) || !arch_expect_end(c))
			return false;
		arch_emit_alu(ctx, ALU_SEXT, rd, arch_opnd_reg(ra), arch_opnd_int(f->size));
		break;
	case A_SHIFT: {
		if (!read_rd_rs(c, &rd, &ra) || !ppc_read_comma(c) || !ppc_read_gpr(c, &rb, NULL) ||
		    !arch_expect_end(c))
			return false;
		int t = ppc_scratch(ctx, 0);
		arch_emit_alu(ctx, ALU_AND, t, arch_opnd_reg(rb), arch_opnd_int(f->size == 4 ? 63 : 127));
		emit_shift(ctx, f, rd, ra, arch_opnd_reg(t));
		break;
	}
	case A_SHIFTI:
		if (!read_rd_rs(c, &rd, &ra) || !ppc_read_comma(c) || !ppc_read_small(c, f->size == 4 ? 31 : 63, &n) ||
		    !arch_expect_end(c))
			return false;
		emit_shift(ctx, f, rd, ra, arch_opnd_int(n));
		break;
	case A_RLWINM:
	case A_RLWIMI:
	case A_RLD:
	case A_WORD_EXT:
	case A_DWORD_EXT:
		if (!read_rd_rs(c, &rd, &ra) || !translate_rotates(c, f, rd, ra))
			return false;
		break;
	case A_CMP:
	case A_CMPI: {
		if (!ppc_read_opt_crfield(c, &cr) || !ppc_read_gpr(c, &ra, NULL) || !ppc_read_comma(c))
			return false;
		operand lhs = arch_opnd_reg(ra), rhs;
		if (f->shape == A_CMP) {
			if (!ppc_read_gpr(c, &rb, NULL) || !arch_expect_end(c))
				return false;
			rhs = arch_opnd_reg(rb);
		} else {
			if (!ppc_read_imm(c, &imm) || !arch_expect_end(c))
				return false;
			if ((v & PPC_V_UNSIGNED) && imm.loc < 0)
				imm.num &= 0xffff;
			rhs = arch_opnd_imm(imm);
		}
		if (v & PPC_V_WORD) {
			int t = ppc_scratch(ctx, 0);
			arch_emit_alu(ctx, ALU_ZEXT, t, lhs, arch_opnd_int(4));
			lhs = arch_opnd_reg(t);
			if (f->shape == A_CMP) {
				int u = ppc_scratch(ctx, 1);
				arch_emit_alu(ctx, ALU_ZEXT, u, rhs, arch_opnd_int(4));
				rhs = arch_opnd_reg(u);
			}
		}
		arch_emit_alu(ctx, (enum alu_op)f->op, cr, lhs, rhs);
		return true;
	}
	default:
		return arch_unsupported(c);
	}
	if (v & PPC_V_RECORD)
		ppc_set_cr0_from(ctx, rd);
	return true;
}

const ppc_family ppc_alu_family = { alu_forms, sizeof alu_forms / sizeof alu_forms[0], translate_alu };
