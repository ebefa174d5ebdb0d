/* aarch64_bits.c — AArch64's moves of constants and bit fields, bit and
 * byte reversals, multiplies and conditional selects, as herd7 runs them
 * (herd/AArch64Sem.ml):
 *
 *   MOVZ Rd,#k{,LSL #s}       Rd = k << s (s 0 or 16; X: also 32, 48)
 *   MOVN Rd,#k{,LSL #s}       Rd = ~(k << s), all 64 bits (herd does not
 *                             cut a W result to its word)
 *   MOVK Rd,#k{,LSL #s}       the halfword at s of Rd's word (W) or
 *                             doubleword (X) replaced by k
 *   UBFM SBFM Rd,Rn,#r,#s     bit field: with s >= r, bits r..s of Rn
 *                             moved to the bottom, else bits 0..s moved
 *                             up to width - r; SBFM extends the field's
 *                             top bit over all 64 bits
 *   EXTR Rd,Rn,Rm,#k          (Rm >> k) | (Rn << (width - k))
 *   RBIT Rd,Rn                Rn's bits reversed within its width
 *   REV16 REV32 REV REV64     bytes reversed within each halfword, word,
 *                             the whole register (REV64: an X one)
 *   ABS Rd,Rn                 |Rn|, Rn's width sign-extended first
 *   MUL MNEG MADD MSUB        Rd = Ra +/- Rn * Rm (Ra the zero register
 *                             for MUL, MNEG); not cut to a W Rd's word
 *   SMULL UMULL SMNEGL UMNEGL Xd = Xa +/- Wn * Wm, the words sign- or
 *   SMADDL SMSUBL UMADDL ...  zero-extended
 *   CSEL CSINC CSINV CSNEG    Rd = cond ? Rn : f(Rm), f the identity,
 *   Rd,Rn,Rm,cond             +1, ~ or -; CSET CSETM CINC are herd's
 *                             aliases of CSINC and CSINV on the inverse
 *                             condition (aarch64_cond.c).  The choice is
 *                             made inside the instruction: no branch
 *                             event, as herd's
 *   MRS Xt,NZCV | MSR NZCV,Xt the flags as bits 31..28 of Xt
 * Operands of W registers read as their low word.
 */
#include <string.h>

#include "aarch64.h"

/* Rd written with what herd computes, whatever its width. */
static void write_raw(arch_ctx *ctx, a64_reg rd, enum alu_op alu, operand a, operand b)
{
	if (rd.reg >= 0)
		arch_emit_alu(ctx, alu, rd.reg, a, b);
}

/* A source register as wide as `wide` says: a W one's word, computed
 * into scratch register k. */
static operand sized_src(arch_ctx *ctx, a64_reg r, bool wide, int k)
{
	if (wide || r.reg < 0)
		return a64_src(r);
	int t = a64_scratch(ctx, k);
	arch_emit_alu(ctx, ALU_ZEXT, t, a64_src(r), arch_opnd_int(4));
	return arch_opnd_reg(t);
}

/* #k, an integer from lo to hi. */
static bool read_int(arch_cursor *c, int64_t lo, int64_t hi, const char *what, int64_t *k)
{
	value v;
	arch_cursor_skip_space(c);
	const char *at = c->p;
	if (!a64_read_imm(c, &v))
		return false;
	if (v.loc >= 0 || v.num < lo || v.num > hi)
		return arch_malformed(c, at, "expected %s from %lld to %lld", what, (long long)lo, (long long)hi);
	*k = v.num;
	return true;
}

/* MOVZ, MOVN, MOVK Rd,#k{,LSL #s}. */
static bool emit_move_wide(arch_cursor *c, const char *m, a64_reg rd)
{
	arch_ctx *ctx = c->ctx;
	int64_t k, s = 0;
	/* herd asserts 0 <= k < 65535 (its MachSize.is_imm16) */
	if (!read_int(c, 0, 65534, "a 16-bit immediate", &k))
		return false;
	if (arch_cursor_accept(c, ',')) {
		char w[ARCH_WORD_MAX];
		const char *at;
		if (arch_cursor_word(c, w, &at) == 0 || !arch_word_eq(w, "LSL"))
			return arch_malformed(c, at, "expected LSL #0 or LSL #16%s", rd.wide ? ", #32, #48" : "");
		arch_cursor_skip_space(c);
		at = c->p;
		if (!read_int(c, 0, 48, "a shift", &s))
			return false;
		if (s % 16 || (!rd.wide && s > 16))
			return arch_malformed(c, at, "the shift of a %s register is LSL #0 or LSL #16%s",
			                      rd.wide ? "X" : "W", rd.wide ? ", #32 or #48" : "");
	}
	if (!arch_expect_end(c))
		return false;
	int64_t v = (int64_t)((uint64_t)k << s);
	if (arch_word_eq(m, "MOVZ")) {
		write_raw(ctx, rd, ALU_MOV, arch_opnd_int(v), arch_opnd_none());
	} else if (arch_word_eq(m, "MOVN")) {
		write_raw(ctx, rd, ALU_MOV, arch_opnd_int(~v), arch_opnd_none());
	} else {
		int t = a64_scratch(ctx, 0);
		operand old = sized_src(ctx, rd, rd.wide, 0);
		arch_emit_alu(ctx, ALU_AND, t, old, arch_opnd_int(~(int64_t)(UINT64_C(0xffff) << s)));
		write_raw(ctx, rd, ALU_OR, arch_opnd_reg(t), arch_opnd_int(v));
	}
	return true;
}

/* The bits lo..hi of a `bits`-bit register (none above it). */
static uint64_t bit_range(int64_t lo, int64_t hi, int64_t bits)
{
	uint64_t m = 0;
	for (int64_t i = lo; i <= hi && i < bits; i++)
		m |= UINT64_C(1) << i;
	return m;
}

/* UBFM, SBFM Rd,Rn,#r,#s: herd's xbfm, which takes r and s up to 63
 * whatever the width (the field is cut to the register). */
static bool emit_bitfield(arch_cursor *c, bool sign, a64_reg rd)
{
	arch_ctx *ctx = c->ctx;
	a64_reg rn;
	int64_t bits = rd.wide ? 64 : 32, r, s;
	if (!a64_read_reg(c, &rn) || !a64_comma(c) || !read_int(c, 0, 63, "a bit number", &r) ||
	    !a64_comma(c) || !read_int(c, 0, 63, "a bit number", &s) || !arch_expect_end(c))
		return false;
	if (s < r && r > bits)
		return arch_malformed(c, rd.at, "with s below r, r is at most the width (%lld): herd would "
		                                "shift by a negative amount", (long long)bits);
	uint64_t field = s >= r ? bit_range(r, s, bits) : bit_range(0, s, bits);
	int t = a64_scratch(ctx, 0);
	arch_emit_alu(ctx, ALU_AND, t, sized_src(ctx, rn, rd.wide, 0), arch_opnd_int((int64_t)field));
	if (s >= r)
		arch_emit_alu(ctx, ALU_SHRU, t, arch_opnd_reg(t), arch_opnd_int(r));
	else
		arch_emit_alu(ctx, ALU_SHL, t, arch_opnd_reg(t), arch_opnd_int(bits - r));
	if (sign) {
		/* the field's top bit over the bits above it */
		int64_t top = s >= r ? s - r : bits - r + s;
		arch_emit_alu(ctx, ALU_SHL, t, arch_opnd_reg(t), arch_opnd_int(63 - top));
		arch_emit_alu(ctx, ALU_SHRS, t, arch_opnd_reg(t), arch_opnd_int(63 - top));
	}
	write_raw(ctx, rd, ALU_MOV, arch_opnd_reg(t), arch_opnd_none());
	return true;
}

/* EXTR Rd,Rn,Rm,#k. */
static bool emit_extr(arch_cursor *c, a64_reg rd)
{
	arch_ctx *ctx = c->ctx;
	a64_reg rn, rm;
	int64_t bits = rd.wide ? 64 : 32, k;
	if (!a64_read_reg(c, &rn) || !a64_comma(c) || !a64_read_reg(c, &rm) || !a64_comma(c) ||
	    !read_int(c, 0, bits - 1, "a bit number", &k) || !arch_expect_end(c))
		return false;
	int lo = a64_scratch(ctx, 0), hi = a64_scratch(ctx, 1);
	arch_emit_alu(ctx, ALU_SHRU, lo, sized_src(ctx, rm, rd.wide, 0), arch_opnd_int(k));
	arch_emit_alu(ctx, ALU_SHL, hi, sized_src(ctx, rn, rd.wide, 1), arch_opnd_int(bits - k));
	write_raw(ctx, rd, ALU_OR, arch_opnd_reg(lo), arch_opnd_reg(hi));
	return true;
}

/* RBIT, REV16, REV32, REV, REV64, ABS Rd,Rn. */
static bool emit_unary(arch_cursor *c, const char *m, a64_reg rd)
{
	arch_ctx *ctx = c->ctx;
	a64_reg rn;
	if (!a64_read_reg(c, &rn) || !arch_expect_end(c))
		return false;
	operand a = sized_src(ctx, rn, rd.wide, 0);
	int bytes = rd.wide ? 8 : 4;
	if (arch_word_eq(m, "RBIT")) {
		write_raw(ctx, rd, ALU_RBIT, a, arch_opnd_int(bytes));
	} else if (arch_word_eq(m, "ABS")) {
		int t = a64_scratch(ctx, 0);
		arch_emit_alu(ctx, ALU_SEXT, t, a, arch_opnd_int(bytes));
		write_raw(ctx, rd, ALU_ABS, arch_opnd_reg(t), arch_opnd_none());
	} else {
		int container = arch_word_eq(m, "REV16") ? 2 : arch_word_eq(m, "REV32") ? 4 : bytes;
		if ((arch_word_eq(m, "REV32") || arch_word_eq(m, "REV64")) && !rd.wide)
			return arch_malformed(c, rd.at, "%s takes X registers", m);
		write_raw(ctx, rd, ALU_REVB, a, arch_opnd_int(container));
	}
	return true;
}

/* The multiplies: herd's MOP (Rd, Rn, Rm as wide as Rd) and MOPL (Xd =
 * Xa +/- Wn * Wm).  `add`: Ra added, else subtracted; `three`: no Ra
 * (the zero register); `longs`: 0 for MOP, 's' or 'u' for MOPL. */
static bool emit_multiply(arch_cursor *c, a64_reg rd, bool add, bool three, char longs)
{
	arch_ctx *ctx = c->ctx;
	a64_reg rn, rm, ra = { .reg = -1, .wide = true, .at = NULL };
	if (!a64_read_reg(c, &rn) || !a64_comma(c) || !a64_read_reg(c, &rm))
		return false;
	if (!three && (!a64_comma(c) || !a64_read_reg(c, &ra)))
		return false;
	if (!arch_expect_end(c))
		return false;
	operand n, m;
	if (longs) {
		n = sized_src(ctx, rn, false, 0);
		m = sized_src(ctx, rm, false, 1);
		if (longs == 's') {
			arch_emit_alu(ctx, ALU_SEXT, a64_scratch(ctx, 0), n, arch_opnd_int(4));
			arch_emit_alu(ctx, ALU_SEXT, a64_scratch(ctx, 1), m, arch_opnd_int(4));
			n = arch_opnd_reg(a64_scratch(ctx, 0));
			m = arch_opnd_reg(a64_scratch(ctx, 1));
		}
	} else {
		n = sized_src(ctx, rn, rd.wide, 0);
		m = sized_src(ctx, rm, rd.wide, 1);
	}
	operand acc = sized_src(ctx, ra, longs || rd.wide, 2);
	int t = a64_scratch(ctx, 0);
	arch_emit_alu(ctx, ALU_MUL, t, n, m);
	write_raw(ctx, rd, add ? ALU_ADD : ALU_SUB, acc, arch_opnd_reg(t));
	return true;
}

static const struct {
	const char *name;
	bool add, three;
	char longs;
} multiplies[] = {
	{ "MUL", true, true, 0 },       { "MNEG", false, true, 0 },    { "MADD", true, false, 0 },
	{ "MSUB", false, false, 0 },    { "SMULL", true, true, 's' },  { "SMNEGL", false, true, 's' },
	{ "UMULL", true, true, 'u' },   { "UMNEGL", false, true, 'u' }, { "SMADDL", true, false, 's' },
	{ "SMSUBL", false, false, 's' }, { "UMADDL", true, false, 'u' }, { "UMSUBL", false, false, 'u' },
};

/* What CSEL's family does to Rm when the condition fails. */
enum csel_kind { CS_CPY, CS_INC, CS_INV, CS_NEG };

/* Rd = cond ? Rn : f(Rm), both sources read before Rd is written (Rd
 * may be one of them). */
static void emit_select(arch_ctx *ctx, a64_reg rd, a64_reg rn, a64_reg rm, enum nzcv_cond cond,
                        enum csel_kind kind)
{
	int t = a64_scratch(ctx, 0);
	int holds = a64_cond_value(ctx, cond);
	arch_emit_alu(ctx, ALU_MOV, t, a64_src(rn), arch_opnd_none());
	int taken = ctx->th->n_ops;
	a64_silent_branch(ctx, BR_NE, arch_opnd_reg(holds))->flags |= ACC_PICK;
	operand v = sized_src(ctx, rm, rd.wide, 0);
	switch (kind) {
	case CS_CPY: arch_emit_alu(ctx, ALU_MOV, t, v, arch_opnd_none()); break;
	case CS_INC: arch_emit_alu(ctx, ALU_ADD, t, v, arch_opnd_int(1)); break;
	case CS_INV: arch_emit_alu(ctx, ALU_XOR, t, v, arch_opnd_int(-1)); break;
	case CS_NEG: arch_emit_alu(ctx, ALU_SUB, t, arch_opnd_int(0), v); break;
	}
	ctx->th->ops[taken].target = ctx->th->n_ops;
	a64_write_alu(ctx, rd, ALU_MOV, arch_opnd_reg(t), arch_opnd_none());
}

static bool emit_csel(arch_cursor *c, const char *m, a64_reg rd)
{
	static const struct {
		const char *name;
		enum csel_kind kind;
		int regs;      /* source registers written: 2, 1 (CINC) or 0 */
	} forms[] = {
		{ "CSEL", CS_CPY, 2 }, { "CSINC", CS_INC, 2 }, { "CSINV", CS_INV, 2 }, { "CSNEG", CS_NEG, 2 },
		{ "CSET", CS_INC, 0 }, { "CSETM", CS_INV, 0 }, { "CINC", CS_INC, 1 },
	};
	size_t f = 0;
	while (!arch_word_eq(m, forms[f].name))
		f++;
	a64_reg rn = { .reg = -1, .wide = rd.wide, .at = rd.at }, rm = rn;
	if (forms[f].regs >= 1 && (!a64_read_reg(c, &rn) || !a64_comma(c)))
		return false;
	rm = rn;
	if (forms[f].regs == 2 && (!a64_read_reg(c, &rm) || !a64_comma(c)))
		return false;
	char w[ARCH_WORD_MAX];
	const char *at;
	enum nzcv_cond cond;
	if (arch_cursor_word(c, w, &at) == 0 || !a64_cond(w, &cond))
		return arch_malformed(c, at, "expected a condition (EQ, NE, CS, CC, MI, PL, VS, VC, HI, LS, "
		                             "GE, LT, GT, LE, AL)");
	if (!arch_expect_end(c))
		return false;
	if (forms[f].regs < 2)
		cond = a64_cond_inverse(cond);
	emit_select(c->ctx, rd, rn, rm, cond, forms[f].kind);
	return true;
}

/* MRS Xt,<sysreg> (rt read already) and MSR <sysreg>,Xt, herd's system
 * register k (aarch64_sysreg.c): a register of the thread, moved as a
 * whole (herd reads and writes 64 bits and takes no W register there);
 * under herd's NV2 variant, those it keeps in memory are the doubleword
 * at VNCR_EL2 plus their offset, loaded and stored. */
static bool emit_sysreg(arch_cursor *c, bool read, a64_reg rt, int k)
{
	arch_ctx *ctx = c->ctx;
	if (!rt.wide)
		return arch_malformed(c, rt.at, "%s takes an X register (herd: unexpected W)", read ? "MRS" : "MSR");
	int sys = arch_reg(ctx, a64_sysreg_name(k));
	int off = a64_sysreg_nv2_offset(k);
	if (ctx->test->nv2 && off >= 0) {
		address a = { arch_opnd_reg(arch_reg(ctx, a64_sysreg_name(a64_sysreg("VNCR_EL2")))), arch_opnd_none(), off };
		if (read)
			arch_emit_load(ctx, rt.reg < 0 ? arch_reg(ctx, ARCH_SCRATCH_REG) : rt.reg, a, 8, 0);
		else
			arch_emit_store(ctx, a, a64_src(rt), 8, 0);
		return true;
	}
	if (read)
		write_raw(ctx, rt, ALU_MOV, arch_opnd_reg(sys), arch_opnd_none());
	else
		arch_emit_alu(ctx, ALU_MOV, sys, a64_src(rt), arch_opnd_none());
	return true;
}

/* MRS Xt,NZCV (rt read already) and MSR NZCV,Xt: the flags as bits
 * 31..28 of Xt; the other system registers by emit_sysreg. */
static bool emit_system(arch_cursor *c, bool read, a64_reg rt)
{
	arch_ctx *ctx = c->ctx;
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) == 0)
		return arch_malformed(c, at, "expected a system register");
	int k = a64_sysreg(w);
	if (!arch_word_eq(w, "NZCV") && k < 0)
		return arch_malformed(c, at, "'%s' is no system register herd7 7.58 knows (NZCV, CTR_EL0, DCIZ_EL0, "
		                      "MDCCSR_EL0, DBGDTR_EL0, DBGDTRRX_EL0, DBGDTRTX_EL0, ELR_EL1, ESR_EL1, "
		                      "TFSR_ELx, VNCR_EL2)", w);
	if ((!read && (!a64_comma(c) || !a64_read_reg(c, &rt))) || !arch_expect_end(c))
		return false;
	if (k >= 0)
		return emit_sysreg(c, read, rt, k);
	int flags = a64_flags(ctx);
	if (read) {
		write_raw(ctx, rt, ALU_SHL, arch_opnd_reg(flags), arch_opnd_int(28));
	} else {
		arch_emit_alu(ctx, ALU_SHRU, flags, a64_src(rt), arch_opnd_int(28));
		arch_emit_alu(ctx, ALU_AND, flags, arch_opnd_reg(flags), arch_opnd_int(15));
	}
	return true;
}

bool a64_bits_translate(arch_cursor *c, const char *m, bool *mine)
{
	static const char *const names[] = {
		"MOVZ", "MOVN", "MOVK", "UBFM", "SBFM", "EXTR", "RBIT", "REV16", "REV32", "REV", "REV64", "ABS",
		"CSEL", "CSINC", "CSINV", "CSNEG", "CSET", "CSETM", "CINC", "MRS", "MSR", NULL,
	};
	size_t mul = 0;
	while (mul < sizeof multiplies / sizeof multiplies[0] && !arch_word_eq(m, multiplies[mul].name))
		mul++;
	bool is_mul = mul < sizeof multiplies / sizeof multiplies[0];
	size_t k = 0;
	while (names[k] && !arch_word_eq(m, names[k]))
		k++;
	*mine = is_mul || names[k];
	if (!*mine)
		return false;
	a64_reg rd = { .reg = -1, .wide = true, .at = c->p };
	if (arch_word_eq(m, "MSR"))
		return emit_system(c, false, rd);
	if (!a64_read_reg(c, &rd) || !a64_comma(c))
		return false;
	if (is_mul) {
		if (multiplies[mul].longs && !rd.wide)
			return arch_malformed(c, rd.at, "%s writes an X register", m);
		return emit_multiply(c, rd, multiplies[mul].add, multiplies[mul].three, multiplies[mul].longs);
	}
	if (!strncmp(names[k], "MOV", 3))
		return emit_move_wide(c, m, rd);
	if (!strcmp(names[k], "UBFM") || !strcmp(names[k], "SBFM"))
		return emit_bitfield(c, names[k][0] == 'S', rd);
	if (!strcmp(names[k], "EXTR"))
		return emit_extr(c, rd);
	if (!strcmp(names[k], "MRS"))
		return emit_system(c, true, rd);
	if (names[k][0] == 'C')
		return emit_csel(c, m, rd);
	return emit_unary(c, m, rd);
}
