/* arch_x86_sem.c — ops for x86 instructions, shared by the Intel (X86) and
 * AT&T (X86_64) syntaxes; see arch_x86_sem.h for the representation. */
#include <stddef.h>

#include "arch_x86_sem.h"

const char *const x86_fences[] = { "MFENCE", "LFENCE", "SFENCE", NULL };

static const x86_form x86_forms[] = {
	{ "mov", X86_MOV, 2, BR_ALWAYS, NULL },
	{ "xchg", X86_XCHG, 2, BR_ALWAYS, NULL },
	{ "xadd", X86_XADD, 2, BR_ALWAYS, NULL },
	{ "add", X86_ADD, 2, BR_ALWAYS, NULL },
	{ "sub", X86_SUB, 2, BR_ALWAYS, NULL },
	{ "and", X86_AND, 2, BR_ALWAYS, NULL },
	{ "or", X86_OR, 2, BR_ALWAYS, NULL },
	{ "xor", X86_XOR, 2, BR_ALWAYS, NULL },
	{ "inc", X86_INC, 1, BR_ALWAYS, NULL },
	{ "dec", X86_DEC, 1, BR_ALWAYS, NULL },
	{ "cmp", X86_CMP, 2, BR_ALWAYS, NULL },
	{ "jmp", X86_JUMP, 0, BR_ALWAYS, NULL },
	{ "je", X86_JUMP, 0, BR_EQ, NULL },
	{ "jz", X86_JUMP, 0, BR_EQ, NULL },
	{ "jne", X86_JUMP, 0, BR_NE, NULL },
	{ "jnz", X86_JUMP, 0, BR_NE, NULL },
	/* herd's flags: SF holds a > b (after cmp a,b; r > 0 after an op
	 * with result r), and jl tests ZF | !SF, so jl is a <= b, js a > b */
	{ "jl", X86_JUMP, 0, BR_LE, NULL },
	{ "jlt", X86_JUMP, 0, BR_LE, NULL },  /* herd's X86_64 spelling */
	{ "js", X86_JUMP, 0, BR_GT, NULL },
	{ "jge", X86_JUMP, 0, BR_GE, NULL },
	{ "jns", X86_JUMP, 0, BR_LE, NULL },
	{ "jg", X86_JUMP, 0, BR_GT, NULL },
	{ "jgt", X86_JUMP, 0, BR_GT, NULL },
	{ "jle", X86_JUMP, 0, BR_LE, NULL },
	{ "nop", X86_NOP, X86_ANY_OPERANDS, BR_ALWAYS, NULL },
	{ "endbr64", X86_NOP, 0, BR_ALWAYS, NULL },
	{ "ret", X86_RET, 0, BR_ALWAYS, NULL },
	{ "shl", X86_SHL, 2, BR_ALWAYS, NULL },
	{ "sal", X86_SHL, 2, BR_ALWAYS, NULL },
	{ "shr", X86_SHR, 2, BR_ALWAYS, NULL },
	{ "sar", X86_SAR, 2, BR_ALWAYS, NULL },
	{ "neg", X86_NEG, 1, BR_ALWAYS, NULL },
	{ "not", X86_NOT, 1, BR_ALWAYS, NULL },
	{ "cmpxchg", X86_CMPXCHG, 2, BR_ALWAYS, NULL },
	{ "mfence", X86_FENCE, 0, BR_ALWAYS, "MFENCE" },
	{ "lfence", X86_FENCE, 0, BR_ALWAYS, "LFENCE" },
	{ "sfence", X86_FENCE, 0, BR_ALWAYS, "SFENCE" },
};

const x86_form *x86_find_form(const char *mnemonic)
{
	for (size_t i = 0; i < sizeof x86_forms / sizeof x86_forms[0]; i++)
		if (arch_word_eq(x86_forms[i].mnemonic, mnemonic))
			return &x86_forms[i];
	return NULL;
}

static enum alu_op alu_of(enum x86_mnemonic m)
{
	switch (m) {
	case X86_SUB: case X86_DEC: return ALU_SUB;
	case X86_AND: return ALU_AND;
	case X86_OR: return ALU_OR;
	case X86_XOR: return ALU_XOR;
	default: return ALU_ADD;
	}
}

/* The operand written second (the offending one when both are memory). */
static const char *second_written(const x86_opnd *a, const x86_opnd *b)
{
	return a->at > b->at ? a->at : b->at;
}

static int flags_reg(arch_ctx *ctx) { return arch_flags_reg(ctx, "flags", FLAGS_CLEAR_X86); }
static int scratch_reg(arch_ctx *ctx) { return arch_reg(ctx, ARCH_SCRATCH_REG); }

static void set_flags_from(arch_ctx *ctx, int reg)
{
	arch_emit_alu(ctx, ALU_CMP, flags_reg(ctx), arch_opnd_reg(reg), arch_opnd_int(0));
}

/* The value of a source operand as an op operand; a memory source is
 * loaded into the scratch register first. */
static operand source_value(arch_ctx *ctx, const x86_opnd *o, int size, unsigned flags)
{
	switch (o->kind) {
	case X86_OPND_REG:
		return arch_opnd_reg(o->reg);
	case X86_OPND_IMM:
		return arch_opnd_imm(o->imm);
	case X86_OPND_MEM: {
		int tmp = scratch_reg(ctx);
		arch_emit_load(ctx, tmp, o->addr, size, flags);
		return arch_opnd_reg(tmp);
	}
	case X86_OPND_NONE:
		break;
	}
	return arch_opnd_none();
}

static const char *upper_name(const x86_instr *ins, char *buf)
{
	const char *s = ins->form->mnemonic;
	size_t i = 0;
	for (; s[i] && i + 1 < ARCH_WORD_MAX; i++)
		buf[i] = (char)(s[i] >= 'a' && s[i] <= 'z' ? s[i] - 'a' + 'A' : s[i]);
	buf[i] = '\0';
	return buf;
}

static bool emit_mov(arch_cursor *c, const x86_instr *ins)
{
	arch_ctx *ctx = c->ctx;
	const x86_opnd *d = &ins->dst, *s = &ins->src;
	if (d->kind == X86_OPND_IMM)
		return arch_malformed(c, d->at, "the destination cannot be an immediate");
	if (d->kind == X86_OPND_MEM && s->kind == X86_OPND_MEM)
		return arch_malformed(c, second_written(d, s), "two memory operands");
	if (d->kind == X86_OPND_MEM) {
		arch_emit_store(ctx, d->addr, s->kind == X86_OPND_REG ? arch_opnd_reg(s->reg)
				: arch_opnd_imm(s->imm), ins->size, 0);
	} else if (s->kind == X86_OPND_MEM) {
		arch_emit_load(ctx, d->reg, s->addr, ins->size, 0);
	} else {
		arch_emit_alu(ctx, ALU_MOV, d->reg, s->kind == X86_OPND_REG ? arch_opnd_reg(s->reg)
			      : arch_opnd_imm(s->imm), arch_opnd_none());
	}
	return true;
}

static bool emit_xchg(arch_cursor *c, const x86_instr *ins)
{
	arch_ctx *ctx = c->ctx;
	const x86_opnd *a = &ins->dst, *b = &ins->src;
	if (a->kind == X86_OPND_IMM || b->kind == X86_OPND_IMM)
		return arch_malformed(c, a->kind == X86_OPND_IMM ? a->at : b->at,
				      "XCHG takes no immediate operand");
	if (a->kind == X86_OPND_MEM && b->kind == X86_OPND_MEM)
		return arch_malformed(c, second_written(a, b), "two memory operands");
	int tmp = scratch_reg(ctx);
	if (a->kind == X86_OPND_REG && b->kind == X86_OPND_REG) {
		arch_emit_alu(ctx, ALU_MOV, tmp, arch_opnd_reg(a->reg), arch_opnd_none());
		arch_emit_alu(ctx, ALU_MOV, a->reg, arch_opnd_reg(b->reg), arch_opnd_none());
		arch_emit_alu(ctx, ALU_MOV, b->reg, arch_opnd_reg(tmp), arch_opnd_none());
		return true;
	}
	const x86_opnd *mem = a->kind == X86_OPND_MEM ? a : b;
	const x86_opnd *reg = a->kind == X86_OPND_MEM ? b : a;
	/* xchg with memory is locked whether or not LOCK is written. */
	arch_emit_load(ctx, tmp, mem->addr, ins->size, ACC_ATOMIC);
	arch_emit_store(ctx, mem->addr, arch_opnd_reg(reg->reg), ins->size, ACC_ATOMIC);
	arch_emit_alu(ctx, ALU_MOV, reg->reg, arch_opnd_reg(tmp), arch_opnd_none());
	return true;
}

static bool emit_xadd(arch_cursor *c, const x86_instr *ins)
{
	arch_ctx *ctx = c->ctx;
	const x86_opnd *d = &ins->dst, *s = &ins->src;
	if (s->kind != X86_OPND_REG)
		return arch_malformed(c, s->at, "XADD needs a register source");
	if (d->kind == X86_OPND_IMM)
		return arch_malformed(c, d->at, "the destination cannot be an immediate");
	unsigned flags = ins->lock ? ACC_ATOMIC : 0;
	int tmp = scratch_reg(ctx);
	/* tmp = old destination; src = src + tmp is the new destination;
	 * then src gets the old destination, as XADD exchanges. */
	if (d->kind == X86_OPND_MEM)
		arch_emit_load(ctx, tmp, d->addr, ins->size, flags);
	else
		arch_emit_alu(ctx, ALU_MOV, tmp, arch_opnd_reg(d->reg), arch_opnd_none());
	arch_emit_alu(ctx, ALU_ADD, s->reg, arch_opnd_reg(s->reg), arch_opnd_reg(tmp));
	if (d->kind == X86_OPND_MEM)
		arch_emit_store(ctx, d->addr, arch_opnd_reg(s->reg), ins->size, flags);
	else
		arch_emit_alu(ctx, ALU_MOV, d->reg, arch_opnd_reg(s->reg), arch_opnd_none());
	set_flags_from(ctx, s->reg);
	arch_emit_alu(ctx, ALU_MOV, s->reg, arch_opnd_reg(tmp), arch_opnd_none());
	return true;
}

/* ADD/SUB/AND/OR/XOR dst,src and INC/DEC dst. */
static bool emit_arith(arch_cursor *c, const x86_instr *ins)
{
	arch_ctx *ctx = c->ctx;
	const x86_opnd *d = &ins->dst, *s = &ins->src;
	bool unary = ins->form->n_operands == 1;
	if (d->kind == X86_OPND_IMM)
		return arch_malformed(c, d->at, "the destination cannot be an immediate");
	if (!unary && d->kind == X86_OPND_MEM && s->kind == X86_OPND_MEM)
		return arch_malformed(c, second_written(d, s), "two memory operands");
	enum alu_op alu = alu_of(ins->form->m);
	unsigned flags = ins->lock ? ACC_ATOMIC : 0;
	if (d->kind == X86_OPND_REG) {
		operand rhs = unary ? arch_opnd_int(1) : source_value(ctx, s, ins->size, 0);
		arch_emit_alu(ctx, alu, d->reg, arch_opnd_reg(d->reg), rhs);
		set_flags_from(ctx, d->reg);
		return true;
	}
	int tmp = scratch_reg(ctx);
	arch_emit_load(ctx, tmp, d->addr, ins->size, flags);
	operand rhs = unary ? arch_opnd_int(1) : source_value(ctx, s, ins->size, 0);
	arch_emit_alu(ctx, alu, tmp, arch_opnd_reg(tmp), rhs);
	arch_emit_store(ctx, d->addr, arch_opnd_reg(tmp), ins->size, flags);
	set_flags_from(ctx, tmp);
	return true;
}

static bool emit_cmp(arch_cursor *c, const x86_instr *ins)
{
	arch_ctx *ctx = c->ctx;
	const x86_opnd *a = &ins->dst, *b = &ins->src;
	if (a->kind == X86_OPND_MEM && b->kind == X86_OPND_MEM)
		return arch_malformed(c, second_written(a, b), "two memory operands");
	if (a->kind == X86_OPND_IMM)
		return arch_malformed(c, a->at, "the first operand of CMP cannot be an immediate");
	operand lhs = source_value(ctx, a, ins->size, 0);
	operand rhs = source_value(ctx, b, ins->size, 0);
	arch_emit_alu(ctx, ALU_CMP, flags_reg(ctx), lhs, rhs);
	return true;
}

/* SHL/SHR/SAR dst,count: see the header for the 32-bit rules. */
static bool emit_shift(arch_cursor *c, const x86_instr *ins)
{
	arch_ctx *ctx = c->ctx;
	const x86_opnd *d = &ins->dst, *s = &ins->src;
	if (d->kind == X86_OPND_IMM)
		return arch_malformed(c, d->at, "the destination cannot be an immediate");
	if (s->kind == X86_OPND_MEM)
		return arch_malformed(c, s->at, "the count is an immediate or CL");
	enum x86_mnemonic m = ins->form->m;
	int size = ins->size ? ins->size : 8;
	unsigned flags = ins->lock ? ACC_ATOMIC : 0;
	int v = d->kind == X86_OPND_REG ? d->reg : scratch_reg(ctx);
	if (d->kind == X86_OPND_MEM)
		arch_emit_load(ctx, v, d->addr, ins->size, flags);
	operand count = s->kind == X86_OPND_IMM ? arch_opnd_int(s->imm.num & (size == 8 ? 63 : 31))
		: arch_opnd_reg(s->reg);
	if (s->kind == X86_OPND_REG) {
		int k = arch_reg(ctx, ARCH_SCRATCH_REG "c");
		arch_emit_alu(ctx, ALU_AND, k, count, arch_opnd_int(size == 8 ? 63 : 31));
		count = arch_opnd_reg(k);
	}
	if (size < 8 && m != X86_SHL)
		arch_emit_alu(ctx, m == X86_SAR ? ALU_SEXT : ALU_ZEXT, v, arch_opnd_reg(v), arch_opnd_int(size));
	arch_emit_alu(ctx, m == X86_SHL ? ALU_SHL : m == X86_SHR ? ALU_SHRU : ALU_SHRS, v, arch_opnd_reg(v), count);
	if (size == 4)
		arch_emit_alu(ctx, ALU_ZEXT, v, arch_opnd_reg(v), arch_opnd_int(4));
	if (d->kind == X86_OPND_MEM)
		arch_emit_store(ctx, d->addr, arch_opnd_reg(v), ins->size, flags);
	set_flags_from(ctx, v);
	return true;
}

/* NEG dst / NOT dst. */
static bool emit_unary(arch_cursor *c, const x86_instr *ins)
{
	arch_ctx *ctx = c->ctx;
	const x86_opnd *d = &ins->dst;
	if (d->kind == X86_OPND_IMM)
		return arch_malformed(c, d->at, "the destination cannot be an immediate");
	unsigned flags = ins->lock ? ACC_ATOMIC : 0;
	int v = d->kind == X86_OPND_REG ? d->reg : scratch_reg(ctx);
	if (d->kind == X86_OPND_MEM)
		arch_emit_load(ctx, v, d->addr, ins->size, flags);
	if (ins->form->m == X86_NEG)
		arch_emit_alu(ctx, ALU_SUB, v, arch_opnd_int(0), arch_opnd_reg(v));
	else
		arch_emit_alu(ctx, ALU_XOR, v, arch_opnd_reg(v), arch_opnd_int(-1));
	if (d->kind == X86_OPND_MEM)
		arch_emit_store(ctx, d->addr, arch_opnd_reg(v), ins->size, flags);
	/* NOT leaves the flags alone */
	if (ins->form->m == X86_NEG)
		set_flags_from(ctx, v);
	return true;
}

/* A branch to op `target` of this thread, set now (no label). */
static op *branch_to(arch_ctx *ctx, enum branch_cond cond, operand tested)
{
	op *o = arch_add_op(ctx, OP_BRANCH);
	o->cond = cond;
	o->a = tested;
	o->label = NULL;
	return o;
}

/* herd's CMPXCHG writes ZF alone and leaves SF as it was, while weft's
 * flags are one compare result (-1/0/1, arch_x86_sem.h), whose ZF and SF
 * are those of one comparison: after CMPXCHG that is right for ZF only.
 * So a thread with a CMPXCHG may branch on ZF (je/jne/jz/jnz) and no other
 * flag; anything else is refused at the offending instruction rather than
 * answered differently from herd.  cmpxchg's own retry branch is its
 * BR_NE op without a label (every x86 jump names one). */
static bool is_cmpxchg_branch(const op *o)
{
	return o->kind == OP_BRANCH && o->cond == BR_NE && o->label == NULL;
}

static bool is_sf_branch(const op *o)
{
	return o->kind == OP_BRANCH && o->cond != BR_ALWAYS && o->cond != BR_EQ &&
	       o->cond != BR_NE;
}

static bool refuse_sf_after_cmpxchg(arch_cursor *c)
{
	diag_error(c->ctx->d, c->ctx->loc,
		   "%s instruction '%s' not supported in a thread with CMPXCHG: herd's CMPXCHG "
		   "sets ZF alone and keeps SF, which weft's flags cannot hold; only je, jne, jz, "
		   "jnz may test the flags there", c->arch, c->text);
	return false;
}

static bool thread_has(const arch_ctx *ctx, bool (*is)(const op *))
{
	for (int i = 0; i < ctx->th->n_ops; i++)
		if (is(&ctx->th->ops[i]))
			return true;
	return false;
}

/* CMPXCHG dst,src: the accumulator is EAX (X86) or RAX (X86_64).  As
 * herd: read dst, ZF = (accumulator == dst); equal: dst = src, else the
 * accumulator = dst, and no write to dst (herd writes nothing back). */
static bool emit_cmpxchg(arch_cursor *c, const x86_instr *ins, const char *accumulator)
{
	arch_ctx *ctx = c->ctx;
	const x86_opnd *d = &ins->dst, *s = &ins->src;
	if (s->kind != X86_OPND_REG)
		return arch_malformed(c, s->at, "CMPXCHG needs a register source");
	if (d->kind == X86_OPND_IMM)
		return arch_malformed(c, d->at, "the destination cannot be an immediate");
	if (thread_has(ctx, is_sf_branch))
		return refuse_sf_after_cmpxchg(c);
	unsigned flags = ins->lock ? ACC_ATOMIC : 0;
	int acc = arch_reg(ctx, accumulator);
	int tmp = scratch_reg(ctx);
	if (d->kind == X86_OPND_MEM)
		arch_emit_load(ctx, tmp, d->addr, ins->size, flags);
	else
		arch_emit_alu(ctx, ALU_MOV, tmp, arch_opnd_reg(d->reg), arch_opnd_none());
	arch_emit_alu(ctx, ALU_CMP, flags_reg(ctx), arch_opnd_reg(acc), arch_opnd_reg(tmp));
	int fail_jump = ctx->th->n_ops;
	branch_to(ctx, BR_NE, arch_opnd_reg(flags_reg(ctx)));
	if (d->kind == X86_OPND_MEM)
		arch_emit_store(ctx, d->addr, arch_opnd_reg(s->reg), ins->size, flags);
	else
		arch_emit_alu(ctx, ALU_MOV, d->reg, arch_opnd_reg(s->reg), arch_opnd_none());
	int done_jump = ctx->th->n_ops;
	branch_to(ctx, BR_ALWAYS, arch_opnd_none());
	ctx->th->ops[fail_jump].target = ctx->th->n_ops;
	arch_emit_alu(ctx, ALU_MOV, acc, arch_opnd_reg(tmp), arch_opnd_none());
	ctx->th->ops[done_jump].target = ctx->th->n_ops;
	return true;
}

bool x86_emit(arch_cursor *c, const x86_instr *ins)
{
	char name[ARCH_WORD_MAX];
	enum x86_mnemonic m = ins->form->m;
	if (ins->lock) {
		/* LOCK is only valid on a read-modify-write of memory. */
		bool rmw = m == X86_XCHG || m == X86_XADD || m == X86_ADD || m == X86_SUB ||
			   m == X86_AND || m == X86_OR || m == X86_XOR || m == X86_INC ||
			   m == X86_DEC || m == X86_CMPXCHG || m == X86_NEG || m == X86_NOT ||
			   m == X86_SHL || m == X86_SHR || m == X86_SAR;
		if (!rmw)
			return arch_malformed(c, c->text, "LOCK cannot prefix %s",
					      upper_name(ins, name));
		if (ins->dst.kind != X86_OPND_MEM && !(m == X86_XCHG && ins->src.kind == X86_OPND_MEM))
			return arch_malformed(c, ins->dst.at, "LOCK needs a memory destination");
	}
	switch (m) {
	case X86_MOV: return emit_mov(c, ins);
	case X86_XCHG: return emit_xchg(c, ins);
	case X86_XADD: return emit_xadd(c, ins);
	case X86_ADD: case X86_SUB: case X86_AND: case X86_OR: case X86_XOR:
	case X86_INC: case X86_DEC:
		return emit_arith(c, ins);
	case X86_CMP: return emit_cmp(c, ins);
	case X86_JUMP:
		if (ins->form->cond != BR_ALWAYS && ins->form->cond != BR_EQ &&
		    ins->form->cond != BR_NE && thread_has(c->ctx, is_cmpxchg_branch))
			return refuse_sf_after_cmpxchg(c);
		arch_add_branch(c->ctx, ins->form->cond,
				ins->form->cond == BR_ALWAYS ? arch_opnd_none()
				: arch_opnd_reg(flags_reg(c->ctx)), ins->label);
		return true;
	case X86_FENCE:
		arch_emit_fence(c->ctx, ins->form->fence);
		return true;
	case X86_NOP:
		return true;
	case X86_RET:
		arch_add_exit(c->ctx);
		return true;
	case X86_SHL: case X86_SHR: case X86_SAR:
		return emit_shift(c, ins);
	case X86_NEG: case X86_NOT:
		return emit_unary(c, ins);
	case X86_CMPXCHG:
		return emit_cmpxchg(c, ins, ins->accumulator);
	}
	return arch_unsupported(c);
}

bool x86_read_mnemonic(arch_cursor *c, x86_instr *ins, char *mnemonic)
{
	if (arch_cursor_word(c, mnemonic, NULL) == 0)
		return arch_unsupported(c);
	if (arch_word_eq(mnemonic, "lock")) {
		ins->lock = true;
		if (arch_cursor_word(c, mnemonic, NULL) == 0)
			return arch_unsupported(c);
	}
	return true;
}

bool x86_read_label(arch_cursor *c, x86_instr *ins, char *label)
{
	const char *at;
	if (arch_cursor_word(c, label, &at) == 0 || label[0] == '%')
		return arch_malformed(c, at, "expected a label");
	ins->label = label;
	return true;
}
