/* arch_common.c — the helpers of arch.h through which the architecture
 * translators (and the litmus parser) add ops, registers and locations.
 *
 * The prog.h arrays carry no capacity field: their capacity is implied by
 * their length (powers of two from 4), see grow().  Everything appended
 * here is owned by the test (litmus_test_free). */
#include <stdlib.h>
#include <string.h>

#include "arch.h"

/* Make room for element `n` of an array of `n` elements. */
static void grow(void **arr, int n, size_t elem)
{
	if (n == 0)
		*arr = xrealloc(*arr, 4 * elem);
	else if (n >= 4 && (n & (n - 1)) == 0)
		*arr = xrealloc(*arr, 2 * (size_t)n * elem);
}

op *arch_add_op(arch_ctx *ctx, enum op_kind kind)
{
	thread *th = ctx->th;
	grow((void **)&th->ops, th->n_ops, sizeof *th->ops);
	op *o = &th->ops[th->n_ops++];
	memset(o, 0, sizeof *o);
	o->kind = kind;
	o->instr = ctx->instr;
	o->dst = -1;
	o->a.kind = o->b.kind = OPND_NONE;
	o->a.reg = o->b.reg = -1;
	o->a.imm = o->b.imm = value_int(0);
	o->addr.base = o->addr.index = o->a;
	o->alu = ALU_MOV;
	o->cond = BR_ALWAYS;
	o->target = -1;
	return o;
}

int arch_reg(arch_ctx *ctx, const char *canonical_name)
{
	thread *th = ctx->th;
	/* A translator that lost a register name would be a bug; keep the
	 * test well-formed rather than crash. */
	const char *name = canonical_name ? canonical_name : "?";
	for (int i = 0; i < th->n_regs; i++)
		if (!strcmp(th->regs[i].name, name))
			return i;
	grow((void **)&th->regs, th->n_regs, sizeof *th->regs);
	reg *r = &th->regs[th->n_regs];
	r->name = xstrdup(name);
	r->init = value_int(0);
	r->type = NULL;
	r->written = NULL;
	return th->n_regs++;
}

int arch_flags_reg(arch_ctx *ctx, const char *canonical_name, int arch_flags)
{
	int n = ctx->th->n_regs;
	int r = arch_reg(ctx, canonical_name);
	/* one the init block named keeps the value it was given */
	if (r == n)
		ctx->th->regs[r].init = value_flags_clear(arch_flags);
	return r;
}

int arch_loc(arch_ctx *ctx, const char *name)
{
	litmus_test *t = ctx->test;
	for (int i = 0; i < t->n_locs; i++)
		if (!strcmp(t->locs[i].name, name))
			return i;
	grow((void **)&t->locs, t->n_locs, sizeof *t->locs);
	location *l = &t->locs[t->n_locs];
	/* every field not set below is 0: none is left to chance */
	memset(l, 0, sizeof *l);
	l->name = xstrdup(name);
	l->init = value_int(0);
	l->array = -1;
	l->pte_of = -1;
	l->pte = -1;
	l->code_thread = -1;
	return t->n_locs++;
}

op *arch_add_branch(arch_ctx *ctx, enum branch_cond cond, operand tested, const char *label)
{
	op *o = arch_add_op(ctx, OP_BRANCH);
	o->cond = cond;
	o->a = tested;
	o->label = xstrdup(label ? label : "");
	return o;
}

op *arch_add_exit(arch_ctx *ctx)
{
	op *o = arch_add_op(ctx, OP_BRANCH);
	o->cond = BR_ALWAYS;
	o->label = NULL;
	o->target = -1;   /* the end of the thread, set by the parser */
	return o;
}

const char *litmus_annot_name(const litmus_test *t, int i)
{
	if (i < 0 || i >= 32 || !t)
		return NULL;
	if (t->annots)
		return i < t->n_annots ? t->annots[i] : NULL;
	if (!t->arch || !t->arch->annots)
		return NULL;
	for (int k = 0; k < i; k++)
		if (!t->arch->annots[k])
			return NULL;
	return t->arch->annots[i];
}
