/* arch_aarch64.c — AArch64 (herd's AArch64): registers, operand readers,
 * the dispatch to the instruction families (aarch64.h) and the
 * architecture's table.
 *
 * Registers are X0..X30 (64 bits) and W0..W30 (their low 32 bits), one
 * register for both spellings, canonical spelling XN as herd prints final
 * states; XZR/WZR read as 0 and writes to them are dropped.  herd's
 * symbolic registers `%name` are their own spelling.
 */
#include <string.h>

#include "aarch64.h"

static const char *const a64_fences[] = {
	"DMB.SY", "DMB.LD", "DMB.ST", "DMB.ISH", "DMB.ISHLD", "DMB.ISHST", "DMB.OSH", "DMB.OSHLD",
	"DMB.OSHST", "DMB.NSH", "DMB.NSHLD", "DMB.NSHST", "DSB.SY", "DSB.LD", "DSB.ST", "DSB.ISH",
	"DSB.ISHLD", "DSB.ISHST", "DSB.OSH", "DSB.OSHLD", "DSB.OSHST", "DSB.NSH", "DSB.NSHLD",
	"DSB.NSHST", "ISB", NULL,
};

static const char *const a64_annots[] = { "A", "Q", "L", "NoRet", "NT", NULL };

static const char *const x_names[31] = {
	"X0",  "X1",  "X2",  "X3",  "X4",  "X5",  "X6",  "X7",  "X8",  "X9",  "X10",
	"X11", "X12", "X13", "X14", "X15", "X16", "X17", "X18", "X19", "X20", "X21",
	"X22", "X23", "X24", "X25", "X26", "X27", "X28", "X29", "X30",
};

/* Register number 0..30, 31 for the zero register, 32 for a symbolic
 * register, 33 for the stack pointer, -1 when not a register; *wide: an
 * X spelling. */
enum { GPR_ZR = 31, GPR_SYMBOLIC = 32, GPR_SP = 33 };

static int gpr_index(const char *name, bool *wide)
{
	*wide = true;
	if (arch_symbolic_reg(name))
		return GPR_SYMBOLIC;
	if (arch_word_eq(name, "SP"))
		return GPR_SP;
	char k = name[0];
	if (k != 'X' && k != 'x' && k != 'W' && k != 'w')
		return -1;
	*wide = k == 'X' || k == 'x';
	if (arch_word_eq(name + 1, "zr"))
		return GPR_ZR;
	return arch_reg_number(name + 1, 30);
}

/* A register's name in a state: XN; XZR (which a condition may name: it
 * reads 0), SP and the system registers as herd spells them. */
static const char *a64_canonical_reg(const char *name)
{
	bool wide;
	int sys = a64_sysreg(name);
	if (sys >= 0)
		return a64_sysreg_name(sys);
	int n = gpr_index(name, &wide);
	if (n == GPR_SYMBOLIC)
		return name;
	if (n == GPR_ZR)
		return wide ? "XZR" : NULL;
	if (n == GPR_SP)
		return "SP";
	return n >= 0 && n < 31 ? x_names[n] : NULL;
}

bool a64_read_reg(arch_cursor *c, a64_reg *r)
{
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) == 0)
		return arch_malformed(c, at, "expected a register");
	/* herd's X%name and W%name: the symbolic register %name at that width */
	bool sized = (w[0] == 'X' || w[0] == 'x' || w[0] == 'W' || w[0] == 'w') && !w[1] && *c->p == '%';
	if (sized) {
		bool wide = w[0] == 'X' || w[0] == 'x';
		if (arch_cursor_word(c, w, NULL) == 0 || !arch_symbolic_reg(w))
			return arch_malformed(c, at, "expected a register");
		r->wide = wide;
		r->at = at;
		r->reg = arch_reg(c->ctx, w);
		return true;
	}
	int n = gpr_index(w, &r->wide);
	if (n < 0)
		return arch_malformed(c, at, "'%s' is not a register", w);
	r->at = at;
	r->reg = n == GPR_ZR ? -1 : arch_reg(c->ctx, a64_canonical_reg(w));
	return true;
}

bool a64_comma(arch_cursor *c) { return arch_expect(c, ','); }

bool a64_at_imm(arch_cursor *c)
{
	arch_cursor_skip_space(c);
	return *c->p == '#' || (*c->p >= '0' && *c->p <= '9') || *c->p == '-';
}

bool a64_read_imm(arch_cursor *c, value *v)
{
	arch_cursor_accept(c, '#');
	return arch_read_immediate(c, v);
}

operand a64_src(a64_reg r) { return r.reg < 0 ? arch_opnd_int(0) : arch_opnd_reg(r.reg); }

void a64_write_alu(arch_ctx *ctx, a64_reg rd, enum alu_op alu, operand a, operand b)
{
	if (rd.reg < 0)
		return;
	arch_emit_alu(ctx, alu, rd.reg, a, b);
	if (!rd.wide)
		arch_emit_alu(ctx, ALU_ZEXT, rd.reg, arch_opnd_reg(rd.reg), arch_opnd_int(4));
}

int a64_flags(arch_ctx *ctx) { return arch_reg(ctx, "#nzcv"); }

int a64_scratch(arch_ctx *ctx, int k)
{
	static const char *const names[] = { ARCH_SCRATCH_REG, ARCH_SCRATCH_REG "2", ARCH_SCRATCH_REG "3",
		                             ARCH_SCRATCH_REG "4", ARCH_SCRATCH_REG "5" };
	return arch_reg(ctx, names[k]);
}

int a64_reservation(arch_ctx *ctx) { return arch_reg(ctx, "#res"); }

op *a64_silent_branch(arch_ctx *ctx, enum branch_cond cond, operand tested)
{
	op *o = arch_add_op(ctx, OP_BRANCH);
	o->cond = cond;
	o->a = tested;
	o->flags = ACC_SILENT;
	o->label = NULL;
	return o;
}

bool a64_refuse(arch_cursor *c, const char *why)
{
	diag_error(c->ctx->d, c->ctx->loc, "unsupported AArch64 instruction '%s': %s", c->text, why);
	return false;
}

static bool a64_translate_plain(arch_ctx *ctx, const char *text)
{
	arch_cursor c;
	arch_cursor_init(&c, ctx, "AArch64", text);
	char m[ARCH_WORD_MAX];
	if (arch_cursor_word(&c, m, NULL) == 0 || m[0] == '%')
		return arch_unsupported(&c);
	if (*c.p != '\0' && *c.p != ' ' && *c.p != '\t')
		return arch_unsupported(&c);
	bool (*const families[])(arch_cursor *, const char *, bool *) = {
		a64_mem_translate, a64_alu_translate, a64_bits_translate, a64_flow_translate, a64_cache_translate,
	};
	for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
		bool mine = false;
		bool ok = families[i](&c, m, &mine);
		if (mine)
			return ok;
	}
	return arch_unsupported(&c);
}

static bool a64_translate(arch_ctx *ctx, const char *text)
{
	bool fetched;
	bool ok = a64_fetch_translate(ctx, text, a64_translate_plain, &fetched);
	return fetched ? ok : a64_translate_plain(ctx, text);
}

/* the model probe (arch.h) */
static const char aarch64_probe[] =
	"AArch64 probe\n"
	"{ 0:X1=x; 0:X3=y; 1:X1=y; 1:X3=x; }\n"
	" P0                | P1                ;\n"
	" MOV W0,#1         | MOV W0,#1         ;\n"
	" STLR W0,[X1]      | STR W0,[X1]       ;\n"
	" DMB SY            | LDXR W2,[X3]      ;\n"
	" SWPA W0,W2,[X3]   | STXR W4,W0,[X3]   ;\n"
	"exists (0:X2=0 /\\ 1:X2=0)\n";

const arch arch_aarch64 = {
	.name = "AArch64",
	.default_model = "aarch64",
	.fences = a64_fences,
	.annots = a64_annots,
	.canonical_reg = a64_canonical_reg,
	.herd_print = a64_herd_print,
	.reg_rank = a64_reg_rank,
	.translate = a64_translate,
	.herd_deps = true,
	.known_loops = true,
	.vmsa = true,
	.ifetch = true,
	.probe = aarch64_probe,
	.fence_file = "aarch64fences.cat",
};
