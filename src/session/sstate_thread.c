/* sstate_thread.c — fetch one thread's events as far as the committed
 * values allow.  The semantics of ops (operands, registers, dependencies by
 * taint tracking, po instances, the unroll limit: every backward jump
 * taken counts a visit of its target) follow the engines' interpreter (src/engine/thread_interp.c) so that a complete session
 * execution is the very execution the enumerator builds; what differs is
 * that a value may be unknown (a load not committed, a store-conditional
 * not decided): fetching stops at a conditional branch on an unknown value
 * and at an access whose address is unknown. */
#include <stdlib.h>
#include <string.h>

#include "session_int.h"

/* As the engines': a longer path is a loop that does not read memory. */
#define MAX_STEPS 100000

static void idxs_free(idxs *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

static void idxs_add(idxs *s, int x)
{
	for (int i = 0; i < s->n; i++)
		if (s->v[i] == x)
			return;
	GROW(s->v, s->cap, (size_t)s->n + 1);
	s->v[s->n++] = x;
}

static void idxs_union(idxs *dst, const idxs *a, const idxs *b)
{
	idxs u = { 0 };
	for (int i = 0; i < a->n; i++)
		idxs_add(&u, a->v[i]);
	for (int i = 0; i < b->n; i++)
		idxs_add(&u, b->v[i]);
	idxs_free(dst);
	*dst = u;
}

static void deps_add(sdeps *l, int from, int to)
{
	for (int i = 0; i < l->n; i++)
		if (l->e[i].from == from && l->e[i].to == to)
			return;
	GROW(l->e, l->cap, (size_t)l->n + 1);
	l->e[l->n++] = (sdep){ from, to };
}

void sthread_free(sthread *th)
{
	free(th->ev);
	free(th->addr.e);
	free(th->data.e);
	free(th->ctrl.e);
	free(th->regs);
	memset(th, 0, sizeof *th);
}

/* Register state along the path. */
typedef struct regs {
	int n;
	value *val;
	bool *known;
	idxs *taint;
	idxs ctrl;
	int *visits;
	int instance;
	long steps;
} regs;

static const idxs no_taint = { 0, 0, NULL };

static bool read_operand(const regs *r, const operand *x, value *v, bool *known, const idxs **taint)
{
	*known = true;
	*taint = &no_taint;
	switch (x->kind) {
	case OPND_NONE:
		*v = value_int(0);
		return true;
	case OPND_IMM:
		*v = x->imm;
		return true;
	case OPND_REG:
		if (x->reg < 0 || x->reg >= r->n)
			return false;
		*v = r->val[x->reg];
		*known = r->known[x->reg];
		*taint = &r->taint[x->reg];
		return true;
	}
	return false;
}

enum addr_result { ADDR_OK, ADDR_UNKNOWN, ADDR_BAD };

static enum addr_result eval_address(const litmus_test *t, const regs *r, const address *a, int *loc)
{
	value b, x;
	bool kb, kx;
	const idxs *tb, *tx;
	if (!read_operand(r, &a->base, &b, &kb, &tb) || !read_operand(r, &a->index, &x, &kx, &tx))
		return ADDR_BAD;
	if (!kb || !kx)
		return ADDR_UNKNOWN;
	int64_t num;
	if (b.loc >= 0 && x.loc < 0) {
		*loc = b.loc;
		num = (int64_t)((uint64_t)b.num + (uint64_t)x.num + (uint64_t)a->offset);
	} else if (x.loc >= 0 && b.loc < 0) {
		*loc = x.loc;
		num = (int64_t)((uint64_t)x.num + (uint64_t)b.num + (uint64_t)a->offset);
	} else {
		return ADDR_BAD;
	}
	return *loc < t->n_locs && num == 0 ? ADDR_OK : ADDR_BAD;
}

static int push(sthread *out, const regs *r, const op *o, int pc, enum event_kind kind, int loc, value v)
{
	GROW(out->ev, out->cap, (size_t)out->n + 1);
	int e = out->n++;
	sev *ev = &out->ev[e];
	memset(ev, 0, sizeof *ev);
	ev->kind = kind;
	ev->op = pc;
	ev->instr = o->instr;
	ev->instance = r->instance;
	ev->loc = loc;
	ev->val = v;
	ev->val_known = true;
	if (kind == EV_READ || kind == EV_WRITE) {
		if (o->flags & ACC_ATOMIC)
			ev->flags |= EVF_ATOMIC;
		if (o->flags & ACC_EXCL)
			ev->flags |= EVF_EXCL;
	}
	if (kind == EV_FENCE)
		ev->fence = o->fence;
	ev->stcond = o->kind == OP_STCOND;
	ev->src = (sref){ -2, -1 };
	for (int i = 0; i < r->ctrl.n; i++)
		deps_add(&out->ctrl, r->ctrl.v[i], e);
	if (o->kind == OP_LOAD || o->kind == OP_STORE || o->kind == OP_STCOND) {
		const operand *from[] = { &o->addr.base, &o->addr.index, &o->a };
		sdeps *to[] = { &out->addr, &out->addr, &out->data };
		int n = o->kind == OP_LOAD ? 2 : 3;
		for (int i = 0; i < n; i++)
			if (from[i]->kind == OPND_REG && from[i]->reg >= 0 && from[i]->reg < r->n)
				for (int k = 0; k < r->taint[from[i]->reg].n; k++)
					deps_add(to[i], r->taint[from[i]->reg].v[k], e);
	}
	return e;
}

/* Set register d to v, read by load e (or, e < 0, a store-conditional's
 * flag, which depends on no load). */
static void set_reg(regs *r, int d, value v, bool known, int e)
{
	if (d < 0 || d >= r->n)
		return;
	r->val[d] = v;
	r->known[d] = known;
	r->taint[d].n = 0;
	if (e >= 0)
		idxs_add(&r->taint[d], e);
}

void sthread_fetch(const sstate *st, int ti, sthread *old, sthread *out)
{
	const litmus_test *t = st->t;
	const thread *th = &t->threads[ti];
	memset(out, 0, sizeof *out);
	regs r = { 0 };
	r.n = th->n_regs;
	size_t nr = (size_t)(r.n > 0 ? r.n : 1);
	r.val = xcalloc(nr, sizeof *r.val);
	r.known = xcalloc(nr, sizeof *r.known);
	r.taint = xcalloc(nr, sizeof *r.taint);
	r.visits = xcalloc((size_t)th->n_ops + 1, sizeof *r.visits);
	for (int i = 0; i < r.n; i++) {
		r.val[i] = th->regs[i].init;
		r.known[i] = true;
	}
	int pc = 0;
	for (;;) {
		if (pc < 0 || pc >= th->n_ops) {
			out->done = true;
			break;
		}
		if (++r.steps > MAX_STEPS) {
			out->error = "the thread runs too long without reading memory";
			break;
		}
		const op *o = &th->ops[pc];
		if (o->instr < 0 || o->instr >= th->n_instrs || th->instrs[o->instr].first_op == pc)
			r.instance++;
		value a, b, v = value_int(0);
		bool ka, kb;
		const idxs *ta, *tb;
		int loc = -1;
		if (o->kind == OP_ALU) {
			if (!read_operand(&r, &o->a, &a, &ka, &ta) || !read_operand(&r, &o->b, &b, &kb, &tb)) {
				out->error = "an instruction uses a register the thread does not have";
				break;
			}
			if (ka && kb && !op_alu(o->alu, a, b, &v)) {
				out->error = "arithmetic on an address or a division by zero";
				break;
			}
			if (o->dst >= 0 && o->dst < r.n) {
				idxs u = { 0 };
				idxs_union(&u, ta, tb);
				idxs_free(&r.taint[o->dst]);
				r.taint[o->dst] = u;
				r.val[o->dst] = v;
				r.known[o->dst] = ka && kb;
			}
			pc++;
			continue;
		}
		if (o->kind == OP_LOAD || o->kind == OP_STORE || o->kind == OP_STCOND) {
			enum addr_result ar = eval_address(t, &r, &o->addr, &loc);
			if (ar == ADDR_UNKNOWN) {
				out->waits = "at an access whose address depends on a load not committed yet";
				break;
			}
			if (ar == ADDR_BAD) {
				out->error = "a memory access to an address that is not a location";
				break;
			}
		}
		int e = out->n;
		const sev *was = old && e < old->n ? &old->ev[e] : NULL;
		switch (o->kind) {
		case OP_ALU:
			break;
		case OP_LOAD: {
			bool known = was && was->committed;
			push(out, &r, o, pc, EV_READ, loc, known ? was->val : value_int(0));
			out->ev[e].val_known = known;
			if (known) {
				out->ev[e].committed = true;
				out->ev[e].src = was->src;
			}
			set_reg(&r, o->dst, out->ev[e].val, known, e);
			pc++;
			continue;
		}
		case OP_STORE:
		case OP_STCOND: {
			bool kd;
			const idxs *td;
			if (!read_operand(&r, &o->a, &v, &kd, &td)) {
				out->error = "an instruction uses a register the thread does not have";
				goto stop;
			}
			push(out, &r, o, pc, EV_WRITE, loc, v);
			out->ev[e].val_known = kd;
			if (was && (was->committed || was->failed)) {
				out->ev[e].committed = was->committed;
				out->ev[e].failed = was->failed;
			}
			if (o->kind == OP_STCOND) {
				bool decided = out->ev[e].committed || out->ev[e].failed;
				set_reg(&r, o->dst, value_int(out->ev[e].committed ? 1 : 0), decided, -1);
			}
			pc++;
			continue;
		}
		case OP_FENCE:
			push(out, &r, o, pc, EV_FENCE, -1, value_int(0));
			out->ev[e].committed = true;
			pc++;
			continue;
		case OP_BRANCH: {
			if (o->cond == BR_ALWAYS) {
				if (o->target <= pc && ++r.visits[o->target] > st->unroll) {
					out->done = out->cut = true;
					goto stop;
				}
				pc = o->target;
				continue;
			}
			if (!read_operand(&r, &o->a, &a, &ka, &ta)) {
				out->error = "an instruction uses a register the thread does not have";
				goto stop;
			}
			if (!ka) {
				out->waits = "at a branch on a value not known yet";
				goto stop;
			}
			push(out, &r, o, pc, EV_BRANCH, -1, value_int(0));
			out->ev[e].committed = true;
			for (int i = 0; i < ta->n; i++)
				idxs_add(&r.ctrl, ta->v[i]);
			if (!op_branch_taken(o->cond, a)) {
				pc++;
				continue;
			}
			if (o->target <= pc && ++r.visits[o->target] > st->unroll) {
				out->done = out->cut = true;
				goto stop;
			}
			pc = o->target;
			continue;
		}
		}
	}
stop:
	out->regs = xmalloc(nr * sizeof *out->regs);
	memcpy(out->regs, r.val, nr * sizeof *out->regs);
	for (int i = 0; i < r.n; i++)
		idxs_free(&r.taint[i]);
	idxs_free(&r.ctrl);
	free(r.val);
	free(r.known);
	free(r.taint);
	free(r.visits);
}
