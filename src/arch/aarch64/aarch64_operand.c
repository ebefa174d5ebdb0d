/* aarch64_operand.c — the second operand of AArch64's data-processing
 * instructions as herd7 reads and computes it (herd's op_ext and
 * add_sub_ext):
 *
 *   #k, #k,LSL #s        the constant k << s
 *   Rm, Rm,LSL #k        Rm shifted left (the low word of a W register
 *   Rm,LSR #k, Rm,ASR #k shifted right: zeros, or its sign, shifted in;
 *   Rm,ROR #k            rotated right within the operand width)
 *   Rm,<ext>{ #k}        ext one of SXTB SXTH SXTW SXTX UXTB UXTH UXTW
 *                        UXTX: Rm shifted left by k, then the low byte,
 *                        halfword, word or doubleword of it extended
 *                        (herd shifts first, then extends)
 * A shift by 0 is no op, as in herd (its do_shift); the '#' of an amount
 * may be left out ('ROR 4').  What needs computing is computed into
 * scratch register 2.
 */
#include "aarch64.h"

static const struct {
	const char *name;
	int bytes;
	bool sign;
} extensions[] = {
	{ "UXTB", 1, false }, { "UXTH", 2, false }, { "UXTW", 4, false }, { "UXTX", 8, false },
	{ "SXTB", 1, true },  { "SXTH", 2, true },  { "SXTW", 4, true },  { "SXTX", 8, true },
};

/* An amount: an integer from 0 to 63 (herd's k of a shift). */
static bool read_amount(arch_cursor *c, int64_t *k)
{
	value v;
	const char *at = c->p;
	if (!a64_read_imm(c, &v))
		return false;
	if (v.loc >= 0 || v.num < 0 || v.num > 63)
		return arch_malformed(c, at, "expected a shift amount from 0 to 63");
	*k = v.num;
	return true;
}

/* Rm,<ext>{ #k}: Rm's extension (with its optional shift, done first). */
static bool extend(arch_cursor *c, a64_reg rm, int e, operand *out)
{
	arch_ctx *ctx = c->ctx;
	int64_t k = 0;
	arch_cursor_skip_space(c);
	if (!arch_cursor_at_end(c) && !read_amount(c, &k))
		return false;
	int t = a64_scratch(ctx, 2);
	operand v = a64_src(rm);
	if (!rm.wide && extensions[e].bytes == 8) {
		/* the doubleword of a W register is its word */
		arch_emit_alu(ctx, ALU_ZEXT, t, v, arch_opnd_int(4));
		v = arch_opnd_reg(t);
	}
	if (k) {
		arch_emit_alu(ctx, ALU_SHL, t, v, arch_opnd_int(k));
		v = arch_opnd_reg(t);
	}
	arch_emit_alu(ctx, extensions[e].sign ? ALU_SEXT : ALU_ZEXT, t, v, arch_opnd_int(extensions[e].bytes));
	*out = arch_opnd_reg(t);
	return true;
}

/* Rm,<shift> #k in an instruction of width `wide`. */
static bool shift(arch_cursor *c, bool wide, const char *w, const char *at, operand *out)
{
	arch_ctx *ctx = c->ctx;
	enum alu_op op;
	if (arch_word_eq(w, "LSL"))
		op = ALU_SHL;
	else if (arch_word_eq(w, "LSR"))
		op = ALU_SHRU;
	else if (arch_word_eq(w, "ASR"))
		op = ALU_SHRS;
	else if (arch_word_eq(w, "ROR"))
		op = wide ? ALU_ROTL64 : ALU_ROTL32;
	else
		return arch_malformed(c, at, "'%s' is not a shift (LSL, LSR, ASR, ROR) or an extension "
		                             "(SXTB, SXTH, SXTW, SXTX, UXTB, UXTH, UXTW, UXTX)", w);
	int64_t k;
	if (!read_amount(c, &k))
		return false;
	if (k == 0)
		return true;
	int t = a64_scratch(ctx, 2);
	operand v = *out;
	if (!wide && op != ALU_SHL) {
		/* a W register's word: zero- or sign-extended before a shift
		 * right, as herd's lsr_op and asr_op */
		arch_emit_alu(ctx, op == ALU_SHRS ? ALU_SEXT : ALU_ZEXT, t, v, arch_opnd_int(4));
		v = arch_opnd_reg(t);
	}
	if (op == ALU_ROTL32 || op == ALU_ROTL64) {
		/* right by k is left by 64 - k (ROTL32 repeats the word) */
		int64_t bits = wide ? 64 : 32;
		k = 64 - k % bits;
	}
	arch_emit_alu(ctx, op, t, v, arch_opnd_int(k % 64));
	*out = arch_opnd_reg(t);
	return true;
}

bool a64_read_operand2(arch_cursor *c, bool wide, operand *out)
{
	if (a64_at_imm(c)) {
		value k;
		if (!a64_read_imm(c, &k))
			return false;
		*out = arch_opnd_imm(k);
		if (!arch_cursor_accept(c, ','))
			return true;
		char w[ARCH_WORD_MAX];
		const char *at;
		int64_t s;
		if (arch_cursor_word(c, w, &at) == 0 || !arch_word_eq(w, "LSL"))
			return arch_malformed(c, at, "expected LSL after an immediate");
		if (!read_amount(c, &s))
			return false;
		if (s && k.loc >= 0)
			return arch_malformed(c, at, "a location's address cannot be shifted");
		out->imm.num = (int64_t)((uint64_t)k.num << s);
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
		return arch_malformed(c, at, "expected a shift (LSL, LSR, ASR, ROR) or an extension (SXTW, UXTB, ...)");
	for (size_t e = 0; e < sizeof extensions / sizeof extensions[0]; e++)
		if (arch_word_eq(w, extensions[e].name))
			return extend(c, rm, (int)e, out);
	return shift(c, wide, w, at, out);
}
