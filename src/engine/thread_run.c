/* thread_run.c — the one loop over a thread's ops, for the enumerator,
 * rsmc and the session: what every engine does with an op is here, what
 * they do differently is asked of their policy.  See thread_interp.h. */
#include "thread_interp.h"

value ti_branch_value(enum branch_cond cond, bool taken)
{
	static const int64_t tries[] = { 0, 1, -1 };
	for (size_t i = 0; i < sizeof tries / sizeof *tries; i++)
		if (op_branch_taken(cond, value_int(tries[i])) == taken)
			return value_int(tries[i]);
	return value_int(0);
}

/* An access (load, store, store-conditional): read its operands, then the
 * policy decides what it does. */
static bool run_access(const ti_policy *p, void *ctx, const ti_ctx *c, ti_state *s, const op *o, int pc)
{
	int loc;
	value v = value_int(0);
	bool known = true;
	if (!ti_access(c, s, o, &loc, &v, &known)) {
		p->fail(ctx, o, TI_FAIL_ACCESS);
		return false;
	}
	if (loc == TI_LOC_UNKNOWN && !p->unknown(ctx, o, TI_UNKNOWN_ADDRESS))
		return false;
	if (o->kind == OP_LOAD)
		return p->load(ctx, o, pc, loc);
	return p->store(ctx, o, pc, loc, v, known);
}

static bool run_fence(const ti_policy *p, void *ctx, const ti_ctx *c, ti_state *s, const op *o, int pc)
{
	int floc;
	if (!ti_fence_loc(c, s, o, &floc)) {
		p->fail(ctx, o, TI_FAIL_LOCK);
		return false;
	}
	if (floc == TI_LOC_UNKNOWN && !p->unknown(ctx, o, TI_UNKNOWN_LOCK))
		return false;
	if ((o->flags & ACC_LOCATED) && p->reads)
		p->reads(ctx, o);
	p->event(ctx, o, pc, EV_FENCE, floc, value_int(0));
	return true;
}

/* vmsa's TLBI: its event's location is the page its register holds. */
static bool run_tlbi(const ti_policy *p, void *ctx, const ti_ctx *c, ti_state *s, const op *o, int pc)
{
	if (!p->tlbi) {
		p->fail(ctx, o, TI_FAIL_TLBI);
		return false;
	}
	int page = -1;
	if (o->a.kind != OPND_NONE) {
		value v;
		if (!ti_operand(c, s, o, &o->a, &v, NULL)) {
			p->fail(ctx, o, TI_FAIL_REGISTER);
			return false;
		}
		if (!value_is_page(v)) {
			p->fail(ctx, o, TI_FAIL_PAGE);
			return false;
		}
		page = (int)v.num;
	}
	p->event(ctx, o, pc, EV_TLBI, page, value_int(0));
	return true;
}

/* A branch: its event, if it tests a value, then where it goes (*pc). */
static bool run_branch(const ti_policy *p, void *ctx, const ti_ctx *c, ti_state *s, const op *o, int *pc)
{
	if (o->cond == BR_EITHER)
		return p->either(ctx, o, pc);
	value v = value_int(0);
	if (o->cond != BR_ALWAYS) {
		bool known;
		if (!ti_operand(c, s, o, &o->a, &v, &known)) {
			p->fail(ctx, o, TI_FAIL_REGISTER);
			return false;
		}
		if (!known && !p->unknown(ctx, o, TI_UNKNOWN_BRANCH))
			return false;
		if (!(o->flags & ACC_SILENT)) {
			if (p->reads)
				p->reads(ctx, o);
			p->event(ctx, o, *pc, EV_BRANCH, -1, value_int(0));
		}
		if (o->cond == BR_INDIRECT && (!known || ti_indirect_target(c, v) < 0)) {
			p->fail(ctx, o, TI_FAIL_JUMP);
			return false;
		}
		if (!known) {
			/* a dropped way has no path to fork */
			if (!(o->flags & ACC_DROP) && !p->fork_taken(ctx, o, *pc))
				return false;
			v = ti_branch_value(o->cond, false);
		} else if ((o->flags & ACC_DROP) && op_branch_taken(o->cond, v)) {
			p->fail(ctx, o, TI_FAIL_DROP);
			return false;
		}
		if (p->turn)
			p->turn(ctx, o, *pc, op_branch_taken(o->cond, v));
	} else if (o->flags & ACC_COMMIT) {
		/* ifetch: the commit of the instruction fetched */
		p->event(ctx, o, *pc, EV_BRANCH, -1, value_int(0));
	}
	if (!ti_branch_follow(c, s, o, v, pc)) {
		p->end(ctx, true);
		return false;
	}
	return true;
}

void ti_run(const ti_policy *p, void *ctx, const ti_ctx *c, ti_state *s, int pc, bool same_instance)
{
	const thread *th = c->th;
	for (;; same_instance = false) {
		if (pc < 0 || pc >= th->n_ops) {
			p->end(ctx, false);
			return;
		}
		if (!p->step(ctx, s))
			return;
		if (!same_instance)
			ti_begin_op(c, s, pc);
		const op *o = &th->ops[pc];
		switch (o->kind) {
		case OP_ALU:
			if (p->reads)
				p->reads(ctx, o);
			if (!ti_alu(c, s, o)) {
				p->fail(ctx, o, TI_FAIL_ALU);
				return;
			}
			break;
		case OP_LOAD:
		case OP_STORE:
		case OP_STCOND:
			if (!run_access(p, ctx, c, s, o, pc))
				return;
			break;
		case OP_CHOICE:
			if (!p->choice(ctx, o, pc))
				return;
			break;
		case OP_FENCE:
			if (!run_fence(p, ctx, c, s, o, pc))
				return;
			break;
		case OP_TLBI:
			if (!run_tlbi(p, ctx, c, s, o, pc))
				return;
			break;
		case OP_BRANCH:
			if (!run_branch(p, ctx, c, s, o, &pc))
				return;
			continue;
		}
		pc++;
	}
}
