/* arch_x86_64.c — x86-64 in herd's AT&T syntax: source first,
 * `movq $1,(x)`, `movq (y),%rax`, `xchgq %rax,(x)`, `lock addq $1,(x)`,
 * mfence/lfence/sfence.  Memory operands: `(x)`, `(%rax)`, `8(%rax)`
 * (herd also accepts brackets: `[x]`).  Immediates `$1`, `$-1`, `$0x10`,
 * `$x` (the address of x); herd also takes a bare number.
 *
 * Registers: the 64-bit names are canonical, written without `%` ("rax",
 * as conditions say `0:rax=1`).  A narrower name (%eax, %ax, %al, %r8d,
 * ...) is the same register: weft keeps one value per register, so a
 * 32/16/8-bit write replaces the whole value (exact for the small
 * non-negative values of litmus tests).  herd's symbolic registers `%name`
 * are their own canonical spelling.
 *
 * Access size: from the mnemonic suffix (b=1, w=2, l=4, q=8), else from a
 * register operand's width, else 0 (unknown).  The semantics are shared
 * with X86: see arch_x86_sem.h.
 */
#include <string.h>

#include "arch_x86_sem.h"

typedef struct x64_reg {
	const char *name;       /* as written, without '%' */
	const char *canonical;  /* the 64-bit register      */
	int width;
} x64_reg;

#define FAMILY(q, l, w, b) \
	{ q, q, 8 }, { l, q, 4 }, { w, q, 2 }, { b, q, 1 }

static const x64_reg x64_regs[] = {
	FAMILY("rax", "eax", "ax", "al"),
	FAMILY("rbx", "ebx", "bx", "bl"),
	FAMILY("rcx", "ecx", "cx", "cl"),
	FAMILY("rdx", "edx", "dx", "dl"),
	FAMILY("rsi", "esi", "si", "sil"),
	FAMILY("rdi", "edi", "di", "dil"),
	FAMILY("rbp", "ebp", "bp", "bpl"),
	FAMILY("rsp", "esp", "sp", "spl"),
	FAMILY("r8", "r8d", "r8w", "r8b"),
	FAMILY("r9", "r9d", "r9w", "r9b"),
	FAMILY("r10", "r10d", "r10w", "r10b"),
	FAMILY("r11", "r11d", "r11w", "r11b"),
	FAMILY("r12", "r12d", "r12w", "r12b"),
	FAMILY("r13", "r13d", "r13w", "r13b"),
	FAMILY("r14", "r14d", "r14w", "r14b"),
	FAMILY("r15", "r15d", "r15w", "r15b"),
	{ "ah", "rax", 1 }, { "bh", "rbx", 1 }, { "ch", "rcx", 1 }, { "dh", "rdx", 1 },
};

static const x64_reg *find_reg(const char *name)
{
	if (name[0] == '%')
		name++;
	for (size_t i = 0; i < sizeof x64_regs / sizeof x64_regs[0]; i++)
		if (arch_word_eq(name, x64_regs[i].name))
			return &x64_regs[i];
	return NULL;
}

/* herd orders a state's registers by base register (rax rbx rcx rdx rsi
 * rdi rbp rsp r8 ... r15), every width of one sharing its rank: the
 * family's place in x64_regs. */
int x64_reg_rank(const char *name)
{
	const x64_reg *r = find_reg(name);
	return r ? (int)((find_reg(r->canonical) - x64_regs) / 4) : -1;
}

static const char *x64_canonical_reg(const char *name)
{
	const x64_reg *r = find_reg(name);
	if (r)
		return r->canonical;
	return arch_symbolic_reg(name) ? name : NULL;
}

/* A register operand from a word already read; false if it is not one. */
static bool word_register(arch_cursor *c, const char *w, x86_opnd *o)
{
	const x64_reg *r = find_reg(w);
	const char *canonical = r ? r->canonical : arch_symbolic_reg(w) ? w : NULL;
	if (!canonical)
		return false;
	o->kind = X86_OPND_REG;
	o->reg = arch_reg(c->ctx, canonical);
	o->width = r ? r->width : 0;
	return true;
}

/* After the displacement: `(x)`, `(%reg)`, `[x]`, `[%reg]`. */
static bool read_memory(arch_cursor *c, x86_opnd *o, int64_t displacement)
{
	char close = arch_cursor_accept(c, '(') ? ')' : (arch_cursor_accept(c, '[') ? ']' : 0);
	if (!close)
		return arch_malformed(c, NULL, "expected '(' or '['");
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) == 0)
		return arch_malformed(c, at, "expected a location or a register");
	x86_opnd r;
	operand base, index = arch_opnd_none();
	if (word_register(c, w, &r))
		base = arch_opnd_reg(r.reg);
	else if (w[0] == '%')
		return arch_malformed(c, at, "'%s' is not a register", w);
	else
		base = arch_opnd_imm(value_addr(arch_loc(c->ctx, w)));
	/* `(base,index,scale)`: the index register times 1, 2, 4 or 8 */
	if (close == ')' && arch_cursor_accept(c, ',')) {
		x86_opnd ir;
		if (arch_cursor_word(c, w, &at) == 0 || !word_register(c, w, &ir))
			return arch_malformed(c, at, "expected an index register");
		int64_t scale = 1;
		bool ok;
		if (arch_cursor_accept(c, ',') && !arch_cursor_number(c, &scale, &ok))
			return ok ? arch_malformed(c, NULL, "expected a scale (1, 2, 4 or 8)") : false;
		if (scale != 1 && scale != 2 && scale != 4 && scale != 8)
			return arch_malformed(c, NULL, "a scale is 1, 2, 4 or 8, not %lld", (long long)scale);
		index = arch_opnd_reg(ir.reg);
		if (scale != 1) {
			/* the scaled index, computed before the access reads it */
			int t = arch_reg(c->ctx, ARCH_SCRATCH_REG "i");
			arch_emit_alu(c->ctx, ALU_MUL, t, index, arch_opnd_int(scale));
			index = arch_opnd_reg(t);
		}
	}
	if (!arch_expect(c, close))
		return false;
	o->kind = X86_OPND_MEM;
	o->addr = arch_address(base, index, displacement);
	return true;
}

static bool read_operand(arch_cursor *c, x86_opnd *o)
{
	memset(o, 0, sizeof *o);
	arch_cursor_skip_space(c);
	o->at = c->p;
	if (arch_cursor_accept(c, '$')) {
		o->kind = X86_OPND_IMM;
		return arch_read_immediate(c, &o->imm);
	}
	int64_t n;
	bool ok;
	if (arch_cursor_number(c, &n, &ok)) {
		arch_cursor_skip_space(c);
		if (*c->p == '(' || *c->p == '[')
			return read_memory(c, o, n);
		o->kind = X86_OPND_IMM;
		o->imm = value_int(n);
		return true;
	}
	if (!ok)
		return false;
	if (*c->p == '(' || *c->p == '[')
		return read_memory(c, o, 0);
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) == 0)
		return arch_malformed(c, at, "expected an operand");
	if (!word_register(c, w, o))
		return arch_malformed(c, at, "'%s' is not a register (write (%s) for memory)", w, w);
	return true;
}

static int suffix_size(char s)
{
	switch (s) {
	case 'b': case 'B': return 1;
	case 'w': case 'W': return 2;
	case 'l': case 'L': return 4;
	case 'q': case 'Q': return 8;
	default: return 0;
	}
}

/* Find the form, trying the mnemonic without a size suffix (movq -> mov)
 * for the forms that take operands. */
static const x86_form *find_sized_form(char *mnemonic, int *size)
{
	const x86_form *f = x86_find_form(mnemonic);
	*size = 0;
	if (f)
		return f;
	size_t n = strlen(mnemonic);
	int s = n > 1 ? suffix_size(mnemonic[n - 1]) : 0;
	if (!s)
		return NULL;
	char base[ARCH_WORD_MAX];
	memcpy(base, mnemonic, n - 1);
	base[n - 1] = '\0';
	f = x86_find_form(base);
	if (!f || f->n_operands == 0)
		return NULL;
	*size = s;
	return f;
}

/* The access size, checked against the register operands' widths. */
static bool settle_size(arch_cursor *c, x86_instr *ins, int suffix)
{
	const x86_opnd *ops[2] = { &ins->src, &ins->dst };
	int size = suffix;
	enum x86_mnemonic m = ins->form->m;
	bool shift = m == X86_SHL || m == X86_SHR || m == X86_SAR;
	for (int i = 0; i < 2; i++) {
		const x86_opnd *o = ops[i];
		if (o->kind != X86_OPND_REG || o->width == 0)
			continue;
		if (shift && o == &ins->src)
			continue;   /* the count, %cl, is a byte whatever the size */
		if (size == 0)
			size = o->width;
		else if (size != o->width)
			return arch_malformed(c, o->at, "operand size mismatch (%d-byte register, %d-byte operation)",
					      o->width, size);
	}
	ins->size = size;
	return true;
}

static bool x64_translate(arch_ctx *ctx, const char *text)
{
	arch_cursor c;
	arch_cursor_init(&c, ctx, "X86_64", text);
	x86_instr ins;
	memset(&ins, 0, sizeof ins);
	char mnemonic[ARCH_WORD_MAX], label[ARCH_WORD_MAX];
	if (!x86_read_mnemonic(&c, &ins, mnemonic))
		return false;
	int suffix;
	ins.form = find_sized_form(mnemonic, &suffix);
	if (!ins.form || (*c.p != '\0' && *c.p != ' ' && *c.p != '\t'))
		return arch_unsupported(&c);
	ins.accumulator = "rax";
	if (ins.form->n_operands == X86_ANY_OPERANDS) {
		c.p += strlen(c.p);   /* nopl 0(%rax,%rax,1): the operands mean nothing */
	} else if (ins.form->m == X86_JUMP) {
		if (!x86_read_label(&c, &ins, label))
			return false;
	} else if (ins.form->n_operands == 1) {
		if (!read_operand(&c, &ins.dst))
			return false;
	} else if (ins.form->n_operands == 2) {
		/* AT&T order: source, destination. */
		if (!read_operand(&c, &ins.src) || !arch_expect(&c, ',') ||
		    !read_operand(&c, &ins.dst))
			return false;
	}
	if (!arch_expect_end(&c) || !settle_size(&c, &ins, suffix))
		return false;
	return x86_emit(&c, &ins);
}

/* the model probe (arch.h) */
static const char x64_probe[] =
	"X86_64 probe\n"
	"{ x=0; y=0; }\n"
	" P0             | P1             ;\n"
	" movq $1,(x)    | movq $1,(y)    ;\n"
	" mfence         | movq $1,%rax   ;\n"
	" movq (y),%rax  | xchgq %rax,(x) ;\n"
	"exists (0:rax=0 /\\ 1:rax=0)\n";

const arch arch_x86_64 = {
	.name = "X86_64",
	.default_model = "tso",
	.fences = x86_fences,
	.canonical_reg = x64_canonical_reg,
	.herd_print = x64_herd_print,
	.reg_rank = x64_reg_rank,
	.translate = x64_translate,
	.probe = x64_probe,
	.fence_file = "x86fences.cat",
};
