/* aarch64_flow.c — AArch64 control flow and barriers, as herd7 runs them:
 *
 *   B L                 jump
 *   B.cond L            branch event on the flags, cond any of
 *                       aarch64_cond.c's (EQ NE CS CC MI PL VS VC HI LS
 *                       GE LT GT LE AL)
 *   CBZ/CBNZ Rt,L       branch event on Rt = 0 / Rt != 0
 *   TBZ/TBNZ Rt,#k,L    branch event on bit k of Rt 0 / 1
 *   DMB opt, DSB opt    fence event of set DMB.OPT / DSB.OPT, opt one of
 *                       SY LD ST ISH ISHLD ISHST OSH OSHLD OSHST NSH
 *                       NSHLD NSHST
 *   ISB                 fence event of set ISB
 *   NOP                 nothing
 *   TLBI op{,Xt}        under Variant=vmsa: one EV_TLBI event (prog.h's
 *                       OP_TLBI) on the page Xt holds; the ALL forms
 *                       (ALLE1, VMALLE1IS, ...) take no register
 * TLBI outside vmsa acts on page tables, which herd models only under its
 * vmsa variant: weft refuses it by name.  `B .+k` jumps k bytes (k/4
 * instructions) from the branch, as herd's offset targets.  DC and IC:
 * aarch64_fetch.c.
 */
#include <stdio.h>
#include <string.h>

#include "aarch64.h"

static bool read_label(arch_cursor *c, char *label)
{
	const char *at;
	arch_cursor_skip_space(c);
	if (c->p[0] == '.' && (c->p[1] == '_' || (c->p[1] >= 'a' && c->p[1] <= 'z') ||
	                       (c->p[1] >= 'A' && c->p[1] <= 'Z'))) {
		/* a label named with a leading '.' (herd's `.text`) */
		at = c->p++;
		char rest[ARCH_WORD_MAX - 1];
		if (arch_cursor_word(c, rest, NULL) == 0 || rest[0] == '%')
			return arch_malformed(c, at, "expected a label");
		snprintf(label, ARCH_WORD_MAX, ".%s", rest);
		return arch_expect_end(c);
	}
	if (*c->p == '.') {
		/* `.+8`: an offset from this instruction, in bytes; the parser
		 * resolves "#instr:N" to instruction N's first op */
		at = c->p++;
		int64_t k = 0;
		bool ok = *c->p == '+' || *c->p == '-';
		if (*c->p == '+')
			c->p++;
		if (!ok || !arch_cursor_number(c, &k, &ok) || k % 4 || k / 4 > 100000 || k / 4 < -100000)
			return arch_malformed(c, at, "expected an offset '.+N' (N a multiple of 4)");
		snprintf(label, ARCH_WORD_MAX, "#instr:%d", c->ctx->instr + (int)(k / 4));
		return arch_expect_end(c);
	}
	if (arch_cursor_word(c, label, &at) == 0 || label[0] == '%')
		return arch_malformed(c, at, "expected a label");
	return arch_expect_end(c);
}

/* TBZ/TBNZ Rt,#k,L: herd reads bit k of Rt (its ReadBit). */
static bool emit_test_bit(arch_cursor *c, bool zero)
{
	arch_ctx *ctx = c->ctx;
	a64_reg rt;
	char label[ARCH_WORD_MAX];
	value k;
	if (!a64_read_reg(c, &rt) || !a64_comma(c))
		return false;
	arch_cursor_skip_space(c);
	const char *at = c->p;
	if (!a64_read_imm(c, &k))
		return false;
	/* herd reads the bit of the whole register, W or X */
	if (k.loc >= 0 || k.num < 0 || k.num > 63)
		return arch_malformed(c, at, "expected a bit number from 0 to 63");
	if (!a64_comma(c) || !read_label(c, label))
		return false;
	int t = a64_scratch(ctx, 1);
	arch_emit_alu(ctx, ALU_AND, t, a64_src(rt), arch_opnd_int((int64_t)(UINT64_C(1) << k.num)));
	arch_add_branch(ctx, zero ? BR_EQ : BR_NE, arch_opnd_reg(t), label);
	return true;
}

static const char *barrier_set(const char *kind, const char *opt)
{
	static const char *const opts[] = { "SY", "LD", "ST", "ISH", "ISHLD", "ISHST", "OSH", "OSHLD",
	                                    "OSHST", "NSH", "NSHLD", "NSHST", NULL };
	static const char *const dmb[] = { "DMB.SY", "DMB.LD", "DMB.ST", "DMB.ISH", "DMB.ISHLD",
	                                   "DMB.ISHST", "DMB.OSH", "DMB.OSHLD", "DMB.OSHST", "DMB.NSH",
	                                   "DMB.NSHLD", "DMB.NSHST" };
	static const char *const dsb[] = { "DSB.SY", "DSB.LD", "DSB.ST", "DSB.ISH", "DSB.ISHLD",
	                                   "DSB.ISHST", "DSB.OSH", "DSB.OSHLD", "DSB.OSHST", "DSB.NSH",
	                                   "DSB.NSHLD", "DSB.NSHST" };
	for (int i = 0; opts[i]; i++)
		if (arch_word_eq(opt, opts[i]))
			return arch_word_eq(kind, "DMB") ? dmb[i] : dsb[i];
	return NULL;
}

/* herd's TLBI operations; the nXS forms add NXS.  Static storage: the
 * event's name (exec.h's EV_TLBI) points here. */
static const char *const tlbi_ops[] = {
	"ALLE1", "ALLE1IS", "ALLE1OS", "ALLE2", "ALLE2IS", "ALLE2OS", "VMALLE1", "VMALLE1IS", "VMALLE1OS",
	"VMALLS12E1", "VMALLS12E1IS", "VMALLS12E1OS", "VAE1", "VAE1IS", "VAE1OS", "VAAE1", "VAAE1IS",
	"VAAE1OS", "VALE1", "VALE1IS", "VALE1OS", "VAALE1", "VAALE1IS", "VAALE1OS", "IPAS2E1",
	"IPAS2E1IS", "IPAS2LE1", "IPAS2LE1IS", "VAE2", "VAE2IS", "VALE2", "VALE2IS",
	"ALLE1NXS", "ALLE1ISNXS", "VMALLE1NXS", "VMALLE1ISNXS", "VAE1NXS", "VAE1ISNXS", "VAAE1NXS",
	"VAAE1ISNXS", "VALE1NXS", "VALE1ISNXS", "VAALE1NXS", "VAALE1ISNXS",
};

static bool tlbi_translate(arch_cursor *c)
{
	arch_ctx *ctx = c->ctx;
	char w[ARCH_WORD_MAX];
	const char *at;
	if (!ctx->test->vmsa)
		return a64_refuse(c, "it acts on page tables, which herd models only under its vmsa variant "
		                     "(Variant=vmsa)");
	if (arch_cursor_word(c, w, &at) == 0)
		return arch_malformed(c, at, "expected a TLBI operation (VAAE1IS, VMALLE1IS, ...)");
	const char *name = NULL;
	for (size_t i = 0; i < sizeof tlbi_ops / sizeof tlbi_ops[0] && !name; i++)
		if (arch_word_eq(w, tlbi_ops[i]))
			name = tlbi_ops[i];
	if (!name)
		return arch_malformed(c, at, "unknown TLBI operation (weft knows VAE1IS, VAAE1IS, VALE1IS, "
		                             "VMALLE1IS, ALLE1IS and their other forms)");
	operand page = arch_opnd_none();
	/* the ALL forms invalidate every page: no register */
	if (strncmp(name, "ALL", 3) && strncmp(name, "VMALL", 5)) {
		a64_reg rt;
		if (!a64_comma(c) || !a64_read_reg(c, &rt))
			return false;
		page = a64_src(rt);
	}
	if (!arch_expect_end(c))
		return false;
	op *o = arch_add_op(ctx, OP_TLBI);
	o->fence = name;
	o->a = page;
	return true;
}

/* BL label, BLR Xn: X30 gets the code place of the next instruction
 * (herd's return address), then the branch; BR Xn and RET {Xn} (X30 by
 * default) go where the register says (BR_INDIRECT), no branch event
 * of their own (herd's B.branchT of a known address). */
static bool link_translate(arch_cursor *c, const char *m)
{
	arch_ctx *ctx = c->ctx;
	char label[ARCH_WORD_MAX];
	bool link = arch_word_eq(m, "BL") || arch_word_eq(m, "BLR");
	operand to = arch_opnd_none();
	if (arch_word_eq(m, "BL")) {
		if (!read_label(c, label))
			return false;
	} else if (arch_word_eq(m, "RET") && arch_cursor_at_end(c)) {
		/* herd's telechat: a return from the test's code is an exit */
		if (ctx->test->telechat) {
			arch_add_exit(ctx);
			return true;
		}
		to = arch_opnd_reg(arch_reg(ctx, "X30"));
	} else {
		a64_reg rn;
		if (!a64_read_reg(c, &rn) || !arch_expect_end(c))
			return false;
		if (!rn.wide)
			return arch_malformed(c, rn.at, "the branch register is an X register");
		to = a64_src(rn);
	}
	if (to.kind == OPND_REG && link) {
		/* BLR X30: the register is read before the link is written */
		int t = a64_scratch(ctx, 0);
		arch_emit_alu(ctx, ALU_MOV, t, to, arch_opnd_none());
		to = arch_opnd_reg(t);
	}
	if (link) {
		char next[32];
		snprintf(next, sizeof next, "#instr:%d", ctx->instr + 1);
		arch_emit_alu(ctx, ALU_MOV, arch_reg(ctx, "X30"), arch_opnd_imm(value_addr(a64_code_location(ctx, next))),
		              arch_opnd_none());
	}
	if (to.kind == OPND_NONE) {
		arch_add_branch(ctx, BR_ALWAYS, arch_opnd_none(), label);
		return true;
	}
	op *o = arch_add_op(ctx, OP_BRANCH);
	o->cond = BR_INDIRECT;
	o->a = to;
	o->flags = ACC_SILENT;
	o->label = NULL;
	o->target = -1;
	return true;
}

bool a64_flow_translate(arch_cursor *c, const char *m, bool *mine)
{
	arch_ctx *ctx = c->ctx;
	char label[ARCH_WORD_MAX], w[ARCH_WORD_MAX];
	const char *at;
	enum nzcv_cond cond;
	*mine = true;
	if (arch_word_eq(m, "B")) {
		if (!read_label(c, label))
			return false;
		arch_add_branch(ctx, BR_ALWAYS, arch_opnd_none(), label);
		return true;
	}
	if ((m[0] == 'B' || m[0] == 'b') && m[1] == '.' && a64_cond(m + 2, &cond)) {
		if (!read_label(c, label))
			return false;
		arch_add_branch(ctx, BR_NE, arch_opnd_reg(a64_cond_value(ctx, cond)), label);
		return true;
	}
	if (arch_word_eq(m, "TBZ") || arch_word_eq(m, "TBNZ"))
		return emit_test_bit(c, m[2] == 'Z' || m[2] == 'z');
	if (arch_word_eq(m, "CBZ") || arch_word_eq(m, "CBNZ")) {
		a64_reg rt;
		if (!a64_read_reg(c, &rt) || !a64_comma(c) || !read_label(c, label))
			return false;
		arch_add_branch(ctx, m[2] == 'Z' || m[2] == 'z' ? BR_EQ : BR_NE, a64_src(rt), label);
		return true;
	}
	if (arch_word_eq(m, "ADR")) {
		/* Xd gets the code place of the label (herd prints it
		 * label:"P0:L0") */
		a64_reg rd;
		if (!a64_read_reg(c, &rd) || !a64_comma(c) || !read_label(c, label))
			return false;
		if (label[0] == '#')
			return a64_refuse(c, "herd7 7.58 wants a label, not an offset, here");
		a64_write_alu(ctx, rd, ALU_MOV, arch_opnd_imm(value_addr(a64_code_location(ctx, label))),
		              arch_opnd_none());
		return true;
	}
	if (arch_word_eq(m, "BL") || arch_word_eq(m, "BLR") || arch_word_eq(m, "BR") || arch_word_eq(m, "RET"))
		return link_translate(c, m);
	if (arch_word_eq(m, "DMB") || arch_word_eq(m, "DSB")) {
		const char *set = NULL;
		if (arch_cursor_word(c, w, &at) == 0 || !(set = barrier_set(m, w)))
			return arch_malformed(c, at, "expected a barrier option (SY, LD, ST, ISH, ISHLD, ...)");
		if (!arch_expect_end(c))
			return false;
		arch_emit_fence(ctx, set);
		return true;
	}
	if (arch_word_eq(m, "ISB")) {
		if (!arch_expect_end(c))
			return false;
		arch_emit_fence(ctx, "ISB");
		return true;
	}
	if (arch_word_eq(m, "NOP"))
		return arch_expect_end(c);
	if (arch_word_eq(m, "TLBI"))
		return tlbi_translate(c);
	*mine = false;
	return false;
}
