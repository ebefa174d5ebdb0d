/* arch_riscv.c — RISC-V (RV64, herd's RISCV) instruction syntax and semantics.
 *
 * Syntax is herd's: `lw x5,0(x6)`, `sw.rl x7,0(x8)`, `lr.w.aq x8,0(x6)`,
 * `sc.w x9,x7,0(x6)`, `amoswap.w.aq.rl x0,x5,(x6)`, `fence rw,rw`,
 * `fence.tso`, `fence.i`, `bne x5,x0,L`, `ori x6,x0,1`.  Registers are
 * x0..x31 or their ABI names (a0, t1, s0/fp, ...), canonical spelling xN;
 * herd's symbolic registers `%name` are their own spelling.
 *
 * Semantics as herd7 gives them (herd/RISCVSem.ml, default variants):
 *   - x0 reads as 0 and writes to it are dropped;
 *   - a load or store carries its ordering annotation on its event:
 *     `.aq` -> Acq, `.rl` -> Rel, both -> AcqRel (the sets of riscv.cat);
 *   - lr/sc events are atomic (set X); sc writes 0 to rd when it stores
 *     and 1 when it fails, both outcomes explored; the pair is an rmw;
 *     lr reserves its address and sc stores only to the reserved
 *     address (else it fails), and ends the reservation;
 *     what rd holds after a successful sc depends on its write (herd's
 *     default), so later uses of rd carry dependencies from it;
 *   - an AMO is one event of herd's, both a read and a write, atomic (X)
 *     and carrying the instruction's annotation: weft builds a read and a
 *     write of one instance flagged ACC_FUSED, which the models see as
 *     one event (cat_builtin.c); rd gets the old value, the write stores
 *     rs2 (amoswap) or old OP rs2 (amomin, amomax: the lesser, the
 *     greater, compared signed on the 64-bit values, herd's Op.Min and
 *     Op.Max);
 *   - `fence P,S` is an event of set Fence.P.S (plain `fence` is
 *     Fence.rw.rw), P and S each r, w or rw, or herd's ir, ow, iorw, which
 *     are in the same sets as r, w, rw (its barrier_equal_semantics);
 *     fence.tso of Fence.tso, fence.i of Fence.i;
 *   - a conditional branch compares two registers (beq bne blt bge) and is
 *     a branch event; `j` jumps;
 *   - nop (NOP) does nothing; mv (MV) rd,rs is addi rd,rs,0; the shifts
 *     sll, slli, srli (logical), sllw, slliw shift the 64-bit value (the
 *     W forms too: herd does not cut them to 32 bits, nor addw, subw,
 *     addiw); slt, slti give 1 when less (signed), else 0; lui rd,k gives
 *     k << 12; sext.w rd,rs the low word of rs, sign-extended.
 * What herd itself does not implement (sltiu, srai, sltu, sra, srl, the
 * W forms of the right shifts, bltu, bgeu, amominu, amomaxu; auipc; ret
 * but under its telechat variant) is refused in herd's words, and what
 * weft cannot compute (la's label as a value) as an unsupported
 * instruction.
 */
#include <string.h>

#include "riscv.h"
#include "../arch_operand.h"

static const char *const riscv_fences[] = {
	"Fence.r.r", "Fence.r.w", "Fence.r.rw", "Fence.w.r", "Fence.w.w", "Fence.w.rw",
	"Fence.rw.r", "Fence.rw.w", "Fence.rw.rw", "Fence.tso", "Fence.i", NULL,
};

enum { AN_ACQ = 1u << 0, AN_REL = 1u << 1, AN_ACQREL = 1u << 2, AN_SC = 1u << 3 };
static const char *const riscv_annots[] = { "Acq", "Rel", "AcqRel", "Sc", NULL };

static const char *const gpr_names[32] = {
	"x0",  "x1",  "x2",  "x3",  "x4",  "x5",  "x6",  "x7",
	"x8",  "x9",  "x10", "x11", "x12", "x13", "x14", "x15",
	"x16", "x17", "x18", "x19", "x20", "x21", "x22", "x23",
	"x24", "x25", "x26", "x27", "x28", "x29", "x30", "x31",
};

/* herd's ABI names (RISCVBase.pp_xregs, which lacks s10). */
static const struct { const char *name; int n; } abi_names[] = {
	{ "zero", 0 }, { "ra", 1 }, { "sp", 2 }, { "gp", 3 }, { "tp", 4 }, { "t0", 5 },
	{ "t1", 6 }, { "t2", 7 }, { "s0", 8 }, { "fp", 8 }, { "s1", 9 }, { "a0", 10 },
	{ "a1", 11 }, { "a2", 12 }, { "a3", 13 }, { "a4", 14 }, { "a5", 15 }, { "a6", 16 },
	{ "a7", 17 }, { "s2", 18 }, { "s3", 19 }, { "s4", 20 }, { "s5", 21 }, { "s6", 22 },
	{ "s7", 23 }, { "s8", 24 }, { "s9", 25 }, { "s11", 27 }, { "t3", 28 }, { "t4", 29 },
	{ "t5", 30 }, { "t6", 31 },
};

/* Register number, 32 for a symbolic register, -1 when not a register.
 * herd's lexer is case-sensitive: x5, not X5. */
static int gpr_index(const char *name)
{
	if (name[0] == 'x' && name[1] >= '0' && name[1] <= '9')
		return arch_reg_number(name + 1, 31);
	for (size_t i = 0; i < sizeof abi_names / sizeof abi_names[0]; i++)
		if (!strcmp(abi_names[i].name, name))
			return abi_names[i].n;
	return arch_symbolic_reg(name) ? 32 : -1;
}

const char *riscv_canonical_reg(const char *name)
{
	int n = gpr_index(name);
	if (n == 32)
		return name;
	return n >= 0 ? gpr_names[n] : NULL;
}

/* ---- operands ------------------------------------------------------------ */

/* A register operand: `*reg` is its index in the thread, or -1 for x0
 * (reads 0, writes dropped). */
static bool read_reg(arch_cursor *c, int *reg)
{
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) == 0)
		return arch_malformed(c, at, "expected a register");
	int n = gpr_index(w);
	if (n < 0)
		return arch_malformed(c, at, "'%s' is not a register", w);
	*reg = n == 0 ? -1 : arch_reg(c->ctx, riscv_canonical_reg(w));
	return true;
}

static operand src_opnd(int reg) { return reg < 0 ? arch_opnd_int(0) : arch_opnd_reg(reg); }

static bool read_comma(arch_cursor *c) { return arch_expect(c, ','); }

/* `off(rs)` or `(rs)`; with `zero_only`, an offset must be 0 (lr, sc, amo). */
static bool read_addr(arch_cursor *c, bool zero_only, address *addr)
{
	int64_t off = 0;
	bool ok;
	arch_cursor_skip_space(c);
	const char *at = c->p;
	if (!arch_cursor_number(c, &off, &ok) && !ok)
		return false;
	if (zero_only && off != 0)
		return arch_malformed(c, at, "the offset must be 0");
	int rs;
	if (!arch_expect(c, '(') || !read_reg(c, &rs) || !arch_expect(c, ')'))
		return false;
	*addr = arch_address(src_opnd(rs), arch_opnd_none(), off);
	return true;
}

static bool read_label(arch_cursor *c, char *label)
{
	const char *at;
	if (arch_cursor_word(c, label, &at) == 0 || label[0] == '%')
		return arch_malformed(c, at, "expected a label");
	return true;
}

/* ---- mnemonics ------------------------------------------------------------ */

enum rv_shape {
	SH_OPI,    /* addi rd,rs,imm (li rd,imm)       */
	SH_OP,     /* add rd,rs1,rs2                   */
	SH_LOAD,   /* lw rd,off(rs)                    */
	SH_STORE,  /* sw rs2,off(rs1)                  */
	SH_LR,     /* lr.w rd,0(rs)                    */
	SH_SC,     /* sc.w rd,rs2,0(rs1)               */
	SH_AMO,    /* amoadd.w rd,rs2,(rs1)            */
	SH_FENCE,  /* fence [P,S], fence.tso, fence.i  */
	SH_BCC,    /* beq rs1,rs2,L                    */
	SH_J,      /* j L                              */
	SH_LI,     /* li rd,imm                        */
	SH_NOP,    /* nop                              */
	SH_MV,     /* mv rd,rs                         */
	SH_LUI,    /* lui rd,imm                       */
	SH_SEXT,   /* sext.w rd,rs                     */
};

/* Suffix of an ordered access: ".aq", ".rl", ".aq.rl" or ".aqrl". */
static bool read_order(const char *s, unsigned *order)
{
	*order = 0;
	if (!*s)
		return true;
	if (!strcmp(s, ".aq"))
		*order = AN_ACQ;
	else if (!strcmp(s, ".rl"))
		*order = AN_REL;
	else if (!strcmp(s, ".aq.rl") || !strcmp(s, ".aqrl"))
		*order = AN_ACQREL;
	else
		return false;
	return true;
}

static int width_size(char w)
{
	switch (w) {
	case 'b': return 1;
	case 'h': return 2;
	case 'w': return 4;
	case 'd': return 8;
	}
	return 0;
}

typedef struct rv_insn {
	enum rv_shape shape;
	enum alu_op alu;        /* SH_OPI, SH_OP, SH_AMO (ALU_MOV: swap)  */
	enum branch_cond cond;  /* SH_BCC                                 */
	int size;
	unsigned order;         /* AN_* of the access                      */
	const char *fence;
} rv_insn;

static const struct { const char *name; enum alu_op alu; } alu_names[] = {
	{ "add", ALU_ADD }, { "addw", ALU_ADD }, { "sub", ALU_SUB }, { "subw", ALU_SUB },
	{ "and", ALU_AND }, { "or", ALU_OR }, { "xor", ALU_XOR }, { "sll", ALU_SHL }, { "sllw", ALU_SHL },
	{ "slt", ALU_LT },
};
static const struct { const char *name; enum alu_op alu; } alui_names[] = {
	{ "addi", ALU_ADD }, { "addiw", ALU_ADD }, { "andi", ALU_AND }, { "ori", ALU_OR }, { "xori", ALU_XOR },
	{ "slli", ALU_SHL }, { "slliw", ALU_SHL }, { "srli", ALU_SHRU }, { "slti", ALU_LT },
};
/* herd's RISCVSem refuses these: "RISCV operation OP is not implemented
 * (yet)" */
static const char *const herd_unimplemented[] = {
	"sltiu", "srai", "sltu", "sra", "srl", "srliw", "sraiw", "srlw", "sraw", "bltu", "bgeu", NULL,
};
static const struct { const char *name; enum alu_op alu; } amo_names[] = {
	{ "amoswap", ALU_MOV }, { "amoadd", ALU_ADD }, { "amoand", ALU_AND }, { "amoor", ALU_OR },
	{ "amoxor", ALU_XOR }, { "amomin", ALU_MIN }, { "amomax", ALU_MAX },
};
/* herd's RISCVSem refuses the unsigned ones in any width and order */
static const char *const herd_unimplemented_amos[] = { "amominu", "amomaxu", NULL };
static const struct { const char *name; enum branch_cond cond; } bcc_names[] = {
	{ "beq", BR_EQ }, { "bne", BR_NE }, { "blt", BR_LT }, { "bge", BR_GE },
};

/* Decode a mnemonic; false when weft does not know it. */
static bool decode(const char *m, rv_insn *in)
{
	memset(in, 0, sizeof *in);
	for (size_t i = 0; i < sizeof alu_names / sizeof alu_names[0]; i++)
		if (!strcmp(m, alu_names[i].name)) {
			in->shape = SH_OP;
			in->alu = alu_names[i].alu;
			return true;
		}
	for (size_t i = 0; i < sizeof alui_names / sizeof alui_names[0]; i++)
		if (!strcmp(m, alui_names[i].name)) {
			in->shape = SH_OPI;
			in->alu = alui_names[i].alu;
			return true;
		}
	for (size_t i = 0; i < sizeof bcc_names / sizeof bcc_names[0]; i++)
		if (!strcmp(m, bcc_names[i].name)) {
			in->shape = SH_BCC;
			in->cond = bcc_names[i].cond;
			return true;
		}
	static const struct { const char *name; enum rv_shape shape; } simple[] = {
		{ "li", SH_LI }, { "nop", SH_NOP }, { "NOP", SH_NOP }, { "mv", SH_MV }, { "MV", SH_MV },
		{ "lui", SH_LUI }, { "sext.w", SH_SEXT },
	};
	for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
		if (!strcmp(m, simple[i].name)) {
			in->shape = simple[i].shape;
			return true;
		}
	if (!strcmp(m, "j")) {
		in->shape = SH_J;
		return true;
	}
	if (!strcmp(m, "fence") || !strcmp(m, "fence.tso") || !strcmp(m, "fence.i")) {
		in->shape = SH_FENCE;
		in->fence = m[5] == '\0' ? NULL : m[6] == 't' ? "Fence.tso" : "Fence.i";
		return true;
	}
	/* lr.W[.ord], sc.W[.ord] */
	if ((!strncmp(m, "lr.", 3) || !strncmp(m, "sc.", 3)) && (m[3] == 'w' || m[3] == 'd')) {
		in->shape = m[0] == 'l' ? SH_LR : SH_SC;
		in->size = width_size(m[3]);
		return read_order(m + 4, &in->order);
	}
	/* amoOP.W[.ord] */
	for (size_t i = 0; i < sizeof amo_names / sizeof amo_names[0]; i++) {
		size_t n = strlen(amo_names[i].name);
		if (!strncmp(m, amo_names[i].name, n) && m[n] == '.' && (m[n + 1] == 'w' || m[n + 1] == 'd')) {
			in->shape = SH_AMO;
			in->alu = amo_names[i].alu;
			in->size = width_size(m[n + 1]);
			return read_order(m + n + 2, &in->order);
		}
	}
	/* lW[u][.aq], sW[.rl] */
	if ((m[0] == 'l' || m[0] == 's') && width_size(m[1])) {
		const char *rest = m + 2;
		in->shape = m[0] == 'l' ? SH_LOAD : SH_STORE;
		in->size = width_size(m[1]);
		if (in->shape == SH_LOAD && *rest == 'u') {
			if (m[1] == 'd')
				return false;
			rest++;
		}
		if (!*rest)
			return true;
		if (in->shape == SH_LOAD && !strcmp(rest, ".aq")) {
			in->order = AN_ACQ;
			return true;
		}
		if (in->shape == SH_STORE && !strcmp(rest, ".rl")) {
			in->order = AN_REL;
			return true;
		}
		return false;
	}
	return false;
}

/* The fence set of `fence P,S`. */
static bool read_fence_kind(arch_cursor *c, const char **fence)
{
	static const char *const names[3][3] = {
		{ "Fence.r.r", "Fence.r.w", "Fence.r.rw" },
		{ "Fence.w.r", "Fence.w.w", "Fence.w.rw" },
		{ "Fence.rw.r", "Fence.rw.w", "Fence.rw.rw" },
	};
	if (arch_cursor_at_end(c)) {
		*fence = names[2][2];
		return true;
	}
	int k[2];
	for (int i = 0; i < 2; i++) {
		char w[ARCH_WORD_MAX];
		const char *at;
		if (i == 1 && !read_comma(c))
			return false;
		if (arch_cursor_word(c, w, &at) == 0)
			return arch_malformed(c, at, "expected r, w or rw");
		if (!strcmp(w, "r") || !strcmp(w, "ir"))
			k[i] = 0;
		else if (!strcmp(w, "w") || !strcmp(w, "ow"))
			k[i] = 1;
		else if (!strcmp(w, "rw") || !strcmp(w, "iorw"))
			k[i] = 2;
		else
			return arch_malformed(c, at, "'%s' is not r, w, rw, ir, ow or iorw", w);
	}
	*fence = names[k[0]][k[1]];
	return arch_expect_end(c);
}

static int scratch(arch_ctx *ctx, const char *name) { return arch_reg(ctx, name); }

/* herd's RESADDR: the address the last lr reserved, 0 for none.  No
 * condition can name it (no architecture's register spelling). */
static int reservation(arch_ctx *ctx) { return arch_reg(ctx, "#res"); }

/* The last op emitted gets annotation bits `an`. */
static void annotate(arch_ctx *ctx, unsigned an) { ctx->th->ops[ctx->th->n_ops - 1].annot = an; }

static bool emit(arch_cursor *c, const rv_insn *in)
{
	arch_ctx *ctx = c->ctx;
	int rd, rs1, rs2;
	value imm;
	address addr;
	char label[ARCH_WORD_MAX];

	switch (in->shape) {
	case SH_NOP:
		return arch_expect_end(c);
	case SH_MV:
	case SH_SEXT:
		if (!read_reg(c, &rd) || !read_comma(c) || !read_reg(c, &rs1) || !arch_expect_end(c))
			return false;
		if (rd >= 0 && in->shape == SH_MV)
			arch_emit_alu(ctx, ALU_MOV, rd, src_opnd(rs1), arch_opnd_none());
		else if (rd >= 0)
			arch_emit_alu(ctx, ALU_SEXT, rd, src_opnd(rs1), arch_opnd_int(4));
		return true;
	case SH_LUI:
		if (!read_reg(c, &rd) || !read_comma(c) || !arch_read_immediate(c, &imm) || !arch_expect_end(c))
			return false;
		if (imm.loc >= 0)
			return arch_malformed(c, NULL, "lui takes a number");
		if (rd >= 0)
			arch_emit_alu(ctx, ALU_SHL, rd, arch_opnd_imm(imm), arch_opnd_int(12));
		return true;
	case SH_LI:
		if (!read_reg(c, &rd) || !read_comma(c) || !arch_read_immediate(c, &imm) || !arch_expect_end(c))
			return false;
		if (rd >= 0)
			arch_emit_alu(ctx, ALU_MOV, rd, arch_opnd_imm(imm), arch_opnd_none());
		return true;
	case SH_OPI:
		if (!read_reg(c, &rd) || !read_comma(c) || !read_reg(c, &rs1) || !read_comma(c) ||
		    !arch_read_immediate(c, &imm) || !arch_expect_end(c))
			return false;
		if (rd >= 0)
			arch_emit_alu(ctx, in->alu, rd, src_opnd(rs1), arch_opnd_imm(imm));
		return true;
	case SH_OP:
		if (!read_reg(c, &rd) || !read_comma(c) || !read_reg(c, &rs1) || !read_comma(c) ||
		    !read_reg(c, &rs2) || !arch_expect_end(c))
			return false;
		if (rd >= 0)
			arch_emit_alu(ctx, in->alu, rd, src_opnd(rs1), src_opnd(rs2));
		return true;
	case SH_LOAD:
	case SH_LR:
		if (!read_reg(c, &rd) || !read_comma(c) || !read_addr(c, in->shape == SH_LR, &addr) ||
		    !arch_expect_end(c))
			return false;
		if (in->shape == SH_LR)   /* the reservation: this address */
			arch_emit_alu(ctx, ALU_ADD, reservation(ctx), addr.base, arch_opnd_int(addr.offset));
		arch_emit_load(ctx, rd, addr, in->size, in->shape == SH_LR ? ACC_ATOMIC | ACC_EXCL : 0);
		annotate(ctx, in->order);
		return true;
	case SH_STORE:
		if (!read_reg(c, &rs2) || !read_comma(c) || !read_addr(c, false, &addr) || !arch_expect_end(c))
			return false;
		arch_emit_store(ctx, addr, src_opnd(rs2), in->size, 0);
		annotate(ctx, in->order);
		return true;
	case SH_SC: {
		if (!read_reg(c, &rd) || !read_comma(c) || !read_reg(c, &rs2) || !read_comma(c) ||
		    !read_addr(c, true, &addr) || !arch_expect_end(c))
			return false;
		/* weft's store-conditional flag is 1 on success; RISC-V's rd is 0. */
		int flag = scratch(ctx, ARCH_SCRATCH_REG);
		arch_emit_stcond(ctx, flag, addr, src_opnd(rs2), in->size, ACC_ATOMIC | ACC_EXCL | ACC_FLAG_DEP);
		annotate(ctx, in->order);
		ctx->th->ops[ctx->th->n_ops - 1].b = arch_opnd_reg(reservation(ctx));
		/* sc ends the reservation, whether it stores or not */
		arch_emit_alu(ctx, ALU_MOV, reservation(ctx), arch_opnd_int(0), arch_opnd_none());
		if (rd >= 0)
			arch_emit_alu(ctx, ALU_XOR, rd, arch_opnd_reg(flag), arch_opnd_int(1));
		return true;
	}
	case SH_AMO: {
		if (!read_reg(c, &rd) || !read_comma(c) || !read_reg(c, &rs2) || !read_comma(c) ||
		    !read_addr(c, true, &addr) || !arch_expect_end(c))
			return false;
		int old = scratch(ctx, ARCH_SCRATCH_REG);
		arch_emit_load(ctx, old, addr, in->size, ACC_ATOMIC | ACC_FUSED);
		annotate(ctx, in->order);
		operand data = src_opnd(rs2);
		if (in->alu != ALU_MOV) {
			int sum = scratch(ctx, ARCH_SCRATCH_REG "2");
			arch_emit_alu(ctx, in->alu, sum, arch_opnd_reg(old), data);
			data = arch_opnd_reg(sum);
		}
		arch_emit_store(ctx, addr, data, in->size, ACC_ATOMIC | ACC_FUSED);
		annotate(ctx, in->order);
		if (rd >= 0)
			arch_emit_alu(ctx, ALU_MOV, rd, arch_opnd_reg(old), arch_opnd_none());
		return true;
	}
	case SH_FENCE: {
		const char *fence = in->fence;
		if (fence) {
			if (!arch_expect_end(c))
				return false;
		} else if (!read_fence_kind(c, &fence)) {
			return false;
		}
		arch_emit_fence(ctx, fence);
		return true;
	}
	case SH_BCC: {
		if (!read_reg(c, &rs1) || !read_comma(c) || !read_reg(c, &rs2) || !read_comma(c) ||
		    !read_label(c, label) || !arch_expect_end(c))
			return false;
		int cmp = scratch(ctx, ARCH_SCRATCH_REG);
		arch_emit_alu(ctx, ALU_CMP, cmp, src_opnd(rs1), src_opnd(rs2));
		arch_add_branch(ctx, in->cond, arch_opnd_reg(cmp), label);
		return true;
	}
	case SH_J:
		if (!read_label(c, label) || !arch_expect_end(c))
			return false;
		arch_add_branch(ctx, BR_ALWAYS, arch_opnd_none(), label);
		return true;
	}
	return arch_unsupported(c);
}

/* herd's words for an operation its RISCVSem does not implement. */
static bool herd_refuses_operation(arch_ctx *ctx, const char *text, const char *operation)
{
	diag_error(ctx->d, ctx->loc, "unsupported RISCV instruction '%s': herd7 7.58 refuses it "
	           "('RISCV operation %s is not implemented (yet)')", text, operation);
	return false;
}

static bool riscv_translate(arch_ctx *ctx, const char *text)
{
	arch_cursor c;
	arch_cursor_init(&c, ctx, "RISCV", text);
	char mnemonic[ARCH_WORD_MAX];
	rv_insn in;
	if (arch_cursor_word(&c, mnemonic, NULL) == 0 || mnemonic[0] == '%')
		return arch_unsupported(&c);
	for (int i = 0; herd_unimplemented[i]; i++)
		if (!strcmp(mnemonic, herd_unimplemented[i]))
			return herd_refuses_operation(ctx, text, mnemonic);
	for (int i = 0; herd_unimplemented_amos[i]; i++) {
		size_t n = strlen(herd_unimplemented_amos[i]);
		if (!strncmp(mnemonic, herd_unimplemented_amos[i], n) && mnemonic[n] == '.')
			return herd_refuses_operation(ctx, text, herd_unimplemented_amos[i]);
	}
	if (!strcmp(mnemonic, "auipc")) {
		diag_error(ctx->d, ctx->loc, "unsupported RISCV instruction '%s': herd7 7.58 refuses it "
		           "('RISCV, instruction ... not handled')", text);
		return false;
	}
	if (!strcmp(mnemonic, "ret") || !strcmp(mnemonic, "RET")) {
		diag_error(ctx->d, ctx->loc, "unsupported RISCV instruction '%s': herd7 7.58 runs it only "
		           "under -variant telechat", text);
		return false;
	}
	if (!decode(mnemonic, &in))
		return arch_unsupported(&c);
	if (*c.p != '\0' && *c.p != ' ' && *c.p != '\t')
		return arch_unsupported(&c);
	return emit(&c, &in);
}

/* the model probe (arch.h) */
static const char riscv_probe[] =
	"RISCV probe\n"
	"{ 0:x6=x; 0:x8=y; 1:x6=y; 1:x8=x; }\n"
	" P0                       | P1                 ;\n"
	" ori x5,x0,1              | ori x5,x0,1        ;\n"
	" sw.rl x5,0(x6)           | sw x5,0(x6)        ;\n"
	" fence rw,rw              | lr.w.aq x7,0(x8)   ;\n"
	" amoswap.w.aq x7,x5,(x8)  | sc.w x9,x5,0(x8)   ;\n"
	"exists (0:x7=0 /\\ 1:x7=0)\n";

const arch arch_riscv = {
	.name = "RISCV",
	.default_model = "riscv",
	.fences = riscv_fences,
	.annots = riscv_annots,
	.canonical_reg = riscv_canonical_reg,
	.herd_print = riscv_herd_print,
	.reg_rank = riscv_reg_rank,
	.translate = riscv_translate,
	.probe = riscv_probe,
};
