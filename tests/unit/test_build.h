/* test_build.h — building small litmus_test values by hand, for the unit
 * tests of the engine and the reports (no parser involved).
 *
 * Every function is static inline: each test program includes this once
 * and uses what it needs. */
#ifndef WEFT_TEST_BUILD_H
#define WEFT_TEST_BUILD_H

#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "prog/prog.h"

static inline litmus_test *tb_test(const char *arch, const char *name, int n_threads)
{
	litmus_test *t = xcalloc(1, sizeof *t);
	t->file = xstrdup("built-by-hand.litmus");
	t->arch_name = xstrdup(arch);
	t->arch = arch_find(arch);   /* as the parser sets it */
	t->name = xstrdup(name);
	t->n_threads = n_threads;
	t->threads = xcalloc((size_t)n_threads, sizeof *t->threads);
	for (int i = 0; i < n_threads; i++)
		t->threads[i].id = i;
	return t;
}

static inline int tb_loc(litmus_test *t, const char *name)
{
	for (int i = 0; i < t->n_locs; i++)
		if (!strcmp(t->locs[i].name, name))
			return i;
	t->locs = xrealloc(t->locs, (size_t)(t->n_locs + 1) * sizeof *t->locs);
	memset(&t->locs[t->n_locs], 0, sizeof *t->locs);
	t->locs[t->n_locs].name = xstrdup(name);
	t->locs[t->n_locs].init = value_int(0);
	return t->n_locs++;
}

static inline int tb_reg(thread *th, const char *name)
{
	for (int i = 0; i < th->n_regs; i++)
		if (!strcmp(th->regs[i].name, name))
			return i;
	th->regs = xrealloc(th->regs, (size_t)(th->n_regs + 1) * sizeof *th->regs);
	memset(&th->regs[th->n_regs], 0, sizeof *th->regs);
	th->regs[th->n_regs].name = xstrdup(name);
	th->regs[th->n_regs].init = value_int(0);
	return th->n_regs++;
}

/* A new instruction (text as written) whose ops follow. */
static inline void tb_instr(thread *th, const char *text)
{
	th->instrs = xrealloc(th->instrs, (size_t)(th->n_instrs + 1) * sizeof *th->instrs);
	instr *in = &th->instrs[th->n_instrs++];
	memset(in, 0, sizeof *in);
	in->text = xstrdup(text);
	in->loc.file = "built-by-hand.litmus";
	in->loc.line = th->n_instrs;
	in->loc.col = 1;
	in->first_op = th->n_ops;
}

static inline op *tb_op(thread *th, enum op_kind k)
{
	th->ops = xrealloc(th->ops, (size_t)(th->n_ops + 1) * sizeof *th->ops);
	op *o = &th->ops[th->n_ops++];
	memset(o, 0, sizeof *o);
	o->kind = k;
	o->instr = th->n_instrs - 1;
	o->dst = -1;
	o->size = 4;
	th->instrs[th->n_instrs - 1].n_ops++;
	return o;
}

static inline void tb_label(thread *th, const char *name)
{
	th->labels = xrealloc(th->labels, (size_t)(th->n_labels + 1) * sizeof *th->labels);
	th->labels[th->n_labels].name = xstrdup(name);
	th->labels[th->n_labels].op = th->n_ops;
	th->labels[th->n_labels].instr = th->n_instrs;
	th->n_labels++;
}

static inline operand tb_r(int reg)
{
	operand o = { OPND_REG, reg, { -1, 0 } };
	return o;
}

static inline operand tb_imm(int64_t v)
{
	operand o = { OPND_IMM, -1, { -1, v } };
	return o;
}

static inline operand tb_addr_of(int loc)
{
	operand o = { OPND_IMM, -1, { loc, 0 } };
	return o;
}

static inline address tb_at(operand base, operand index)
{
	address a;
	a.base = base;
	a.index = index;
	a.offset = 0;
	return a;
}

static inline operand tb_none(void)
{
	operand o = { OPND_NONE, -1, { -1, 0 } };
	return o;
}

/* Common instruction shapes. */
static inline void tb_store_imm(thread *th, const char *text, int loc, int64_t v)
{
	tb_instr(th, text);
	op *o = tb_op(th, OP_STORE);
	o->addr = tb_at(tb_addr_of(loc), tb_none());
	o->a = tb_imm(v);
}

static inline void tb_load(thread *th, const char *text, int dst, int loc)
{
	tb_instr(th, text);
	op *o = tb_op(th, OP_LOAD);
	o->addr = tb_at(tb_addr_of(loc), tb_none());
	o->dst = dst;
}

static inline cond *tb_cond(enum cond_kind k, cond *l, cond *r)
{
	cond *c = xcalloc(1, sizeof *c);
	c->kind = k;
	c->l = l;
	c->r = r;
	return c;
}

static inline cond *tb_eq_reg(int thread, int reg, int64_t v)
{
	cond *c = tb_cond(COND_EQ, NULL, NULL);
	c->lhs.thread = thread;
	c->lhs.reg = reg;
	c->lhs.loc = -1;
	c->rhs = value_int(v);
	return c;
}

static inline cond *tb_eq_mem(int loc, value v)
{
	cond *c = tb_cond(COND_EQ, NULL, NULL);
	c->lhs.thread = -1;
	c->lhs.reg = -1;
	c->lhs.loc = loc;
	c->rhs = v;
	return c;
}

static inline void tb_cond_free(cond *c)
{
	if (!c)
		return;
	tb_cond_free(c->l);
	tb_cond_free(c->r);
	free(c);
}

static inline void tb_free(litmus_test *t)
{
	for (int i = 0; i < t->n_threads; i++) {
		thread *th = &t->threads[i];
		for (int r = 0; r < th->n_regs; r++)
			free(th->regs[r].name);
		free(th->regs);
		for (int k = 0; k < th->n_instrs; k++)
			free(th->instrs[k].text);
		free(th->instrs);
		for (int k = 0; k < th->n_ops; k++)
			free(th->ops[k].label);
		free(th->ops);
		for (int k = 0; k < th->n_labels; k++)
			free(th->labels[k].name);
		free(th->labels);
	}
	free(t->threads);
	for (int l = 0; l < t->n_locs; l++)
		free(t->locs[l].name);
	free(t->locs);
	for (int m = 0; m < t->n_meta; m++) {
		free(t->meta[m].key);
		free(t->meta[m].value);
	}
	free(t->meta);
	free(t->observed);
	tb_cond_free(t->cond);
	tb_cond_free(t->filter);
	free(t->file);
	free(t->arch_name);
	free(t->name);
	free(t->hash);
	free(t);
}

#endif
