/* arch_x86.c — 32-bit x86 in herd's Intel syntax: destination first,
 * `MOV [x],$1`, `MOV EAX,[y]`, `XCHG [x],EAX`, `LOCK ADD [x],1`, MFENCE.
 * Mnemonics and registers in any case; immediates with or without `$`
 * (the older hand-written tests omit it); `$x` is the address of x.
 * Registers EAX EBX ECX EDX ESI EDI EBP ESP (canonical upper case) and
 * herd's symbolic registers `%name`.  Every access is 4 bytes wide.
 * The semantics are shared with X86_64: see arch_x86_sem.h.
 */
#include <string.h>

#include "arch_x86_sem.h"

static const char *const x86_regs[] = { "EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP" };

/* Symbolic registers are their own canonical spelling (the name passed in
 * is returned; arch_reg() copies it). */
static const char *x86_canonical_reg(const char *name)
{
	for (size_t i = 0; i < sizeof x86_regs / sizeof x86_regs[0]; i++)
		if (arch_word_eq(name, x86_regs[i]))
			return x86_regs[i];
	return arch_symbolic_reg(name) ? name : NULL;
}

/* `[x]`, `[x+4]`, `[EAX]`, `[EAX-4]`. */
static bool read_memory(arch_cursor *c, x86_opnd *o)
{
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) == 0)
		return arch_malformed(c, at, "expected a location or a register inside '[ ]'");
	const char *reg = x86_canonical_reg(w);
	operand base = reg ? arch_opnd_reg(arch_reg(c->ctx, reg))
		: arch_opnd_imm(value_addr(arch_loc(c->ctx, w)));
	int64_t offset = 0;
	arch_cursor_skip_space(c);
	if (*c->p == '+' || *c->p == '-') {
		bool ok;
		if (*c->p == '+')
			c->p++;
		if (!arch_cursor_number(c, &offset, &ok))
			return ok ? arch_malformed(c, NULL, "expected an offset") : false;
	}
	if (!arch_expect(c, ']'))
		return false;
	o->kind = X86_OPND_MEM;
	o->addr = arch_address(base, arch_opnd_none(), offset);
	return true;
}

static bool read_operand(arch_cursor *c, x86_opnd *o)
{
	memset(o, 0, sizeof *o);
	arch_cursor_skip_space(c);
	o->at = c->p;
	if (arch_cursor_accept(c, '['))
		return read_memory(c, o);
	if (arch_cursor_accept(c, '$')) {
		o->kind = X86_OPND_IMM;
		return arch_read_immediate(c, &o->imm);
	}
	int64_t n;
	bool ok;
	if (arch_cursor_number(c, &n, &ok)) {
		o->kind = X86_OPND_IMM;
		o->imm = value_int(n);
		return true;
	}
	if (!ok)
		return false;
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) == 0)
		return arch_malformed(c, at, "expected an operand");
	const char *reg = x86_canonical_reg(w);
	if (!reg)
		return arch_malformed(c, at, "'%s' is not a register (write [%s] for memory)", w, w);
	o->kind = X86_OPND_REG;
	o->reg = arch_reg(c->ctx, reg);
	o->width = 4;
	return true;
}

static bool x86_translate(arch_ctx *ctx, const char *text)
{
	arch_cursor c;
	arch_cursor_init(&c, ctx, "X86", text);
	x86_instr ins;
	memset(&ins, 0, sizeof ins);
	ins.size = 4;
	char mnemonic[ARCH_WORD_MAX], label[ARCH_WORD_MAX];
	if (!x86_read_mnemonic(&c, &ins, mnemonic))
		return false;
	ins.form = x86_find_form(mnemonic);
	if (!ins.form || (*c.p != '\0' && *c.p != ' ' && *c.p != '\t'))
		return arch_unsupported(&c);
	ins.accumulator = "EAX";
	if (ins.form->n_operands == X86_ANY_OPERANDS) {
		c.p += strlen(c.p);   /* NOP's operands mean nothing */
	} else if (ins.form->m == X86_JUMP) {
		if (!x86_read_label(&c, &ins, label))
			return false;
	} else if (ins.form->n_operands >= 1) {
		if (!read_operand(&c, &ins.dst))
			return false;
		if (ins.form->n_operands == 2 &&
		    (!arch_expect(&c, ',') || !read_operand(&c, &ins.src)))
			return false;
	}
	if (!arch_expect_end(&c))
		return false;
	return x86_emit(&c, &ins);
}

/* the model probe (arch.h) */
static const char x86_probe[] =
	"X86 probe\n"
	"{ x=0; y=0; }\n"
	" P0          | P1               ;\n"
	" MOV [x],$1  | MOV [y],$1       ;\n"
	" MFENCE      | MOV EAX,$1       ;\n"
	" MOV EAX,[y] | XCHG [x],EAX     ;\n"
	"exists (0:EAX=0 /\\ 1:EAX=0)\n";

const arch arch_x86 = {
	.name = "X86",
	.default_model = "tso",
	.fences = x86_fences,
	.canonical_reg = x86_canonical_reg,
	.herd_print = x86_herd_print,
	.reg_rank = x86_reg_rank,
	.translate = x86_translate,
	.probe = x86_probe,
	.fence_file = "x86fences.cat",
};
