/* rsmc_thread.c — the thread interpreter of the RSMC engine: run a thread
 * from its first op with the decisions taken so far (values of committed
 * loads, outcomes of committed store-conditionals), fetch as far as the
 * first conditional branch on a value not yet known.
 *
 * It must compute exactly what thread_paths.c computes for the same path
 * (events, instances, dependencies by taint tracking, the unroll rule with
 * "determined" values, the dropped paths), since the two engines must give
 * the same executions.  Unknown values (loads not yet committed, outcomes
 * of store-conditionals not yet committed) flow through the registers as
 * "unknown"; a store's data or an access's address may be unknown while
 * the event waits to be committed. */
#include <stdlib.h>
#include <string.h>

#include "rsmc.h"

/* As thread_paths.c. */
#define MAX_STEPS 100000

/* ---- small sorted sets of fetch indices ------------------------------------ */

typedef struct iset {
	int n;
	size_t cap;
	int *v;
} iset;

static void iset_free(iset *s)
{
	free(s->v);
	memset(s, 0, sizeof *s);
}

static void iset_set1(iset *s, int x)
{
	GROW(s->v, s->cap, 1);
	s->v[0] = x;
	s->n = 1;
}

/* dst := a | b; dst may be a or b */
static void iset_union(iset *dst, const iset *a, const iset *b)
{
	int *out = xmalloc(((size_t)(a->n + b->n) + 1) * sizeof *out);
	int n = 0, i = 0, j = 0;
	while (i < a->n || j < b->n) {
		if (j >= b->n || (i < a->n && a->v[i] < b->v[j]))
			out[n++] = a->v[i++];
		else if (i >= a->n || b->v[j] < a->v[i])
			out[n++] = b->v[j++];
		else {
			out[n++] = a->v[i++];
			j++;
		}
	}
	free(dst->v);
	dst->v = out;
	dst->n = n;
	dst->cap = (size_t)(a->n + b->n) + 1;
}

/* ---- states ----------------------------------------------------------------- */

void rsmc_state_init(rstate *s, const litmus_test *t)
{
	memset(s, 0, sizeof *s);
	s->n_threads = t->n_threads;
	s->n_locs = t->n_locs;
	s->th = xcalloc((size_t)t->n_threads + 1, sizeof *s->th);
	s->co = xcalloc((size_t)t->n_locs + 1, sizeof *s->co);
	for (int i = 0; i < t->n_threads; i++) {
		int nr = t->threads[i].n_regs > 0 ? t->threads[i].n_regs : 1;
		s->th[i].regs = xcalloc((size_t)nr, sizeof *s->th[i].regs);
		s->th[i].n_regs = nr;
	}
}

static void deps_free(dep_list *l)
{
	free(l->e);
	memset(l, 0, sizeof *l);
}

static void deps_copy_into(dep_list *dst, const dep_list *src)
{
	if (src->n)
		GROW(dst->e, dst->cap, (size_t)src->n);
	if (src->n)
		memcpy(dst->e, src->e, (size_t)src->n * sizeof *dst->e);
	dst->n = src->n;
}

void rsmc_state_copy(rstate *dst, const rstate *src)
{
	/* dst's buffers, if it has some from a state of the same test, are
	 * reused: the explorer copies one state into the same place for each
	 * parameter it tries */
	if (!dst->th || dst->n_threads != src->n_threads || dst->n_locs != src->n_locs) {
		rsmc_state_free(dst);
		dst->th = xcalloc((size_t)src->n_threads + 1, sizeof *dst->th);
		dst->co = xcalloc((size_t)src->n_locs + 1, sizeof *dst->co);
	}
	dst->n_threads = src->n_threads;
	dst->n_locs = src->n_locs;
	for (int i = 0; i < src->n_threads; i++) {
		const tstate *a = &src->th[i];
		tstate *b = &dst->th[i];
		b->n_ev = a->n_ev;
		if (a->n_ev) {
			GROW(b->ev, b->cap_ev, (size_t)a->n_ev);
			memcpy(b->ev, a->ev, (size_t)a->n_ev * sizeof *b->ev);
		}
		deps_copy_into(&b->addr, &a->addr);
		deps_copy_into(&b->data, &a->data);
		deps_copy_into(&b->ctrl, &a->ctrl);
		deps_copy_into(&b->xdep, &a->xdep);
		b->status = a->status;
		if (b->n_regs != a->n_regs || !b->regs)
			b->regs = xrealloc(b->regs, ((size_t)a->n_regs + 1) * sizeof *b->regs);
		b->n_regs = a->n_regs;
		memcpy(b->regs, a->regs, (size_t)a->n_regs * sizeof *b->regs);
	}
	for (int l = 0; l < src->n_locs; l++) {
		const costate *a = &src->co[l];
		costate *b = &dst->co[l];
		if (a->n) {
			GROW(b->w, b->cap, (size_t)a->n);
			memcpy(b->w, a->w, (size_t)a->n * sizeof *b->w);
		}
		b->n = a->n;
	}
}

void rsmc_state_free(rstate *s)
{
	for (int i = 0; i < s->n_threads; i++) {
		tstate *th = &s->th[i];
		free(th->ev);
		deps_free(&th->addr);
		deps_free(&th->data);
		deps_free(&th->ctrl);
		deps_free(&th->xdep);
		free(th->regs);
	}
	for (int l = 0; l < s->n_locs; l++)
		free(s->co[l].w);
	free(s->th);
	free(s->co);
	memset(s, 0, sizeof *s);
}

value rsmc_write_value(const litmus_test *t, const rstate *s, eref w)
{
	if (w.t < 0)
		return t->locs[w.k].init;
	return s->th[w.t].ev[w.k].val;
}

/* ---- the interpreter ----------------------------------------------------------- */

typedef struct interp {
	const litmus_test *t;
	const thread *th;
	int unroll;
	rsmc_warned *warned;
	diag *d;
	/* registers */
	value *val;
	bool *known;
	bool *det;
	iset *taint, *xtaint;
	iset ctrl, xctrl;
	int *visits;
	int instance;
	long steps;
	/* output */
	tstate *out;
	const fev *old;   /* decisions of the previous run */
	int n_old;
} interp;

static void dep_add(dep_list *l, int from, int to)
{
	for (int i = 0; i < l->n; i++)
		if (l->e[i].from == from && l->e[i].to == to)
			return;
	GROW(l->e, l->cap, (size_t)l->n + 1);
	l->e[l->n].from = from;
	l->e[l->n].to = to;
	l->n++;
}

static void edges_from(dep_list *l, const iset *from, int to)
{
	for (int i = 0; i < from->n; i++)
		dep_add(l, from->v[i], to);
}

static srcloc op_loc(const interp *ip, const op *o)
{
	if (o->instr >= 0 && o->instr < ip->th->n_instrs)
		return ip->th->instrs[o->instr].loc;
	srcloc none = { ip->t->file, 0, 0 };
	return none;
}

static bool reg_ok(interp *ip, const op *o, int r)
{
	if (r >= 0 && r < ip->th->n_regs)
		return true;
	if (!ip->warned->reg) {
		ip->warned->reg = true;
		diag_warning(ip->d, op_loc(ip, o), "instruction uses a register the thread does not have; path dropped");
	}
	return false;
}

/* false: error (path dropped); *known tells whether the value is known */
static bool operand_value(interp *ip, const op *o, const operand *x, value *v, bool *known)
{
	*known = true;
	switch (x->kind) {
	case OPND_NONE:
		*v = value_int(0);
		return true;
	case OPND_IMM:
		*v = x->imm;
		return true;
	case OPND_REG:
		if (!reg_ok(ip, o, x->reg))
			return false;
		*v = ip->val[x->reg];
		*known = ip->known[x->reg];
		return true;
	}
	return false;
}

static const iset empty_iset = { 0, 0, NULL };

static const iset *taint_of(const interp *ip, const operand *x)
{
	return x->kind == OPND_REG ? &ip->taint[x->reg] : &empty_iset;
}

static const iset *xtaint_of(const interp *ip, const operand *x)
{
	return x->kind == OPND_REG ? &ip->xtaint[x->reg] : &empty_iset;
}

static bool det_of(const interp *ip, const operand *x)
{
	return x->kind != OPND_REG || ip->det[x->reg];
}

/* As thread_paths.c eval_address: the location, -1 on error (warned), or
 * -2 when a register it uses is not known yet. */
static int eval_address(interp *ip, const op *o, const address *a)
{
	value b, x;
	bool kb, kx;
	if (!operand_value(ip, o, &a->base, &b, &kb) || !operand_value(ip, o, &a->index, &x, &kx))
		return -1;
	if (!kb || !kx)
		return -2;
	int loc = -1;
	int64_t num = 0;
	if (b.loc >= 0 && x.loc < 0) {
		loc = b.loc;
		num = (int64_t)((uint64_t)b.num + (uint64_t)x.num + (uint64_t)a->offset);
	} else if (x.loc >= 0 && b.loc < 0) {
		loc = x.loc;
		num = (int64_t)((uint64_t)x.num + (uint64_t)b.num + (uint64_t)a->offset);
	}
	if (loc < 0 || loc >= ip->t->n_locs || num != 0) {
		if (!ip->warned->addr) {
			ip->warned->addr = true;
			diag_warning(ip->d, op_loc(ip, o), "memory access to an address that is not a location; path dropped");
		}
		return -1;
	}
	return loc;
}



static unsigned access_flags(const op *o)
{
	unsigned f = 0;
	if (o->flags & ACC_ATOMIC)
		f |= EVF_ATOMIC;
	if (o->flags & ACC_EXCL)
		f |= EVF_EXCL;
	return f;
}

/* Append the next fetched event, with its control dependencies; carry over
 * the decisions of the previous run for this fetch index. */
static int push_event(interp *ip, const op *o, int op_index, enum event_kind kind)
{
	tstate *ts = ip->out;
	GROW(ts->ev, ts->cap_ev, (size_t)ts->n_ev + 1);
	int e = ts->n_ev++;
	fev *f = &ts->ev[e];
	memset(f, 0, sizeof *f);
	f->kind = kind;
	f->op = op_index;
	f->instr = o->instr;
	f->instance = ip->instance;
	f->loc = -1;
	f->val = value_int(0);
	f->rf.t = -1;
	f->rf.k = -1;
	if (e < ip->n_old && ip->old[e].op == op_index) {
		f->committed = ip->old[e].committed;
		f->failed = ip->old[e].failed;
		f->rf = ip->old[e].rf;
		f->val = ip->old[e].val;   /* a committed load's value */
	}
	for (int i = 0; i < ip->ctrl.n; i++)
		dep_add(&ts->ctrl, ip->ctrl.v[i], e);
	for (int i = 0; i < ip->xctrl.n; i++)
		dep_add(&ts->xdep, ip->xctrl.v[i], e);
	return e;
}

static bool jump_allowed(interp *ip, int from, int target, bool counted)
{
	if (!counted || target > from)
		return true;
	return ++ip->visits[target] <= ip->unroll;
}

static void set_reg(interp *ip, int r, value v, bool known, const iset *taint, const iset *xtaint, bool det)
{
	ip->val[r] = v;
	ip->known[r] = known;
	ip->det[r] = det;
	iset nt = { 0 }, nx = { 0 };
	iset_union(&nt, taint, &empty_iset);
	iset_union(&nx, xtaint, &empty_iset);
	iset_free(&ip->taint[r]);
	iset_free(&ip->xtaint[r]);
	ip->taint[r] = nt;
	ip->xtaint[r] = nx;
}

static enum tstatus run(interp *ip)
{
	const thread *th = ip->th;
	tstate *ts = ip->out;
	int pc = 0;
	for (;;) {
		if (pc < 0 || pc >= th->n_ops)
			return TS_DONE;
		if (++ip->steps > MAX_STEPS) {
			if (!ip->warned->lng) {
				ip->warned->lng = true;
				diag_warning(ip->d, op_loc(ip, &th->ops[pc]),
				             "thread runs more than %d instructions without reading memory; path dropped",
				             MAX_STEPS);
			}
			return TS_ERROR;
		}
		const op *o = &th->ops[pc];
		if (o->instr < 0 || o->instr >= th->n_instrs || th->instrs[o->instr].first_op == pc)
			ip->instance++;
		switch (o->kind) {
		case OP_ALU: {
			value a, b, r = value_int(0);
			bool ka, kb;
			if (!operand_value(ip, o, &o->a, &a, &ka) || !operand_value(ip, o, &o->b, &b, &kb))
				return TS_ERROR;
			bool known = ka && kb;
			if (known && !op_alu(o->alu, a, b, &r)) {
				if (!ip->warned->arith) {
					ip->warned->arith = true;
					diag_warning(ip->d, op_loc(ip, o),
					             "arithmetic on an address or division by zero; path dropped");
				}
				return TS_ERROR;
			}
			if (o->dst >= 0) {
				if (!reg_ok(ip, o, o->dst))
					return TS_ERROR;
				iset u = { 0 }, xu = { 0 };
				iset_union(&u, taint_of(ip, &o->a), taint_of(ip, &o->b));
				iset_union(&xu, xtaint_of(ip, &o->a), xtaint_of(ip, &o->b));
				bool det = det_of(ip, &o->a) && det_of(ip, &o->b);
				set_reg(ip, o->dst, r, known, &u, &xu, det);
				iset_free(&u);
				iset_free(&xu);
			}
			pc++;
			break;
		}
		case OP_LOAD: {
			int loc = eval_address(ip, o, &o->addr);
			if (loc == -1 || (o->dst >= 0 && !reg_ok(ip, o, o->dst)))
				return TS_ERROR;
			iset at = { 0 }, xat = { 0 };
			iset_union(&at, taint_of(ip, &o->addr.base), taint_of(ip, &o->addr.index));
			iset_union(&xat, xtaint_of(ip, &o->addr.base), xtaint_of(ip, &o->addr.index));
			int e = push_event(ip, o, pc, EV_READ);
			fev *f = &ts->ev[e];
			f->loc = loc >= 0 ? loc : -1;
			f->loc_known = loc >= 0;
			f->flags = access_flags(o);
			f->val_known = f->committed;
			edges_from(&ts->addr, &at, e);
			edges_from(&ts->xdep, &xat, e);
			iset_free(&at);
			iset_free(&xat);
			if (o->dst >= 0) {
				iset one = { 0 };
				iset_set1(&one, e);
				set_reg(ip, o->dst, f->val, f->committed, &one, &empty_iset, false);
				iset_free(&one);
			}
			pc++;
			break;
		}
		case OP_STORE:
		case OP_STCOND: {
			int loc = eval_address(ip, o, &o->addr);
			value v;
			bool kv;
			if (loc == -1 || !operand_value(ip, o, &o->a, &v, &kv))
				return TS_ERROR;
			if (o->kind == OP_STCOND && o->dst >= 0 && !reg_ok(ip, o, o->dst))
				return TS_ERROR;
			int e = push_event(ip, o, pc, EV_WRITE);
			fev *f = &ts->ev[e];
			f->loc = loc >= 0 ? loc : -1;
			f->loc_known = loc >= 0;
			f->val = v;
			f->val_known = kv;
			f->flags = access_flags(o);
			f->stcond = o->kind == OP_STCOND;
			/* thread_paths.c gives a failed store-conditional no event and
			 * no edges; rsmc_build_execution leaves out its edges too */
			edges_from(&ts->addr, taint_of(ip, &o->addr.base), e);
			edges_from(&ts->addr, taint_of(ip, &o->addr.index), e);
			edges_from(&ts->data, taint_of(ip, &o->a), e);
			edges_from(&ts->xdep, xtaint_of(ip, &o->addr.base), e);
			edges_from(&ts->xdep, xtaint_of(ip, &o->addr.index), e);
			edges_from(&ts->xdep, xtaint_of(ip, &o->a), e);
			if (f->stcond && o->dst >= 0) {
				iset one = { 0 };
				iset_set1(&one, e);
				value flag = value_int(f->committed && !f->failed ? 1 : 0);
				if (f->committed)
					set_reg(ip, o->dst, flag, true, &empty_iset, &empty_iset, false);
				else
					set_reg(ip, o->dst, flag, false, &empty_iset, &one, false);
				iset_free(&one);
			}
			pc++;
			break;
		}
		case OP_FENCE: {
			int e = push_event(ip, o, pc, EV_FENCE);
			ts->ev[e].fence = o->fence;
			ts->ev[e].committed = true;
			pc++;
			break;
		}
		case OP_BRANCH: {
			int target = o->target;
			if (o->cond == BR_ALWAYS) {
				if (!jump_allowed(ip, pc, target, true))
					return TS_TOOFAR;
				pc = target;
				break;
			}
			value v;
			bool kv;
			if (!operand_value(ip, o, &o->a, &v, &kv))
				return TS_ERROR;
			if (!kv) {
				/* fetch stops here until the value is known */
				ip->instance--;
				return TS_RUNNING;
			}
			int e = push_event(ip, o, pc, EV_BRANCH);
			ts->ev[e].committed = true;
			const iset *tt = taint_of(ip, &o->a), *xt = xtaint_of(ip, &o->a);
			bool det = det_of(ip, &o->a);
			if (tt->n)
				iset_union(&ip->ctrl, &ip->ctrl, tt);
			if (xt->n)
				iset_union(&ip->xctrl, &ip->xctrl, xt);
			if (op_branch_taken(o->cond, v)) {
				if (!jump_allowed(ip, pc, target, !det))
					return TS_TOOFAR;
				pc = target;
			} else {
				pc++;
			}
			break;
		}
		}
	}
}

void rsmc_thread_eval(const litmus_test *t, rstate *s, int ti, int unroll, rsmc_warned *w, diag *d)
{
	const thread *th = &t->threads[ti];
	tstate *ts = &s->th[ti];
	tstate fresh = { 0 };
	interp ip = { 0 };
	ip.t = t;
	ip.th = th;
	ip.unroll = unroll;
	ip.warned = w;
	ip.d = d;
	int nr = th->n_regs > 0 ? th->n_regs : 1;
	ip.val = xcalloc((size_t)nr, sizeof *ip.val);
	ip.known = xcalloc((size_t)nr, sizeof *ip.known);
	ip.det = xcalloc((size_t)nr, sizeof *ip.det);
	ip.taint = xcalloc((size_t)nr, sizeof *ip.taint);
	ip.xtaint = xcalloc((size_t)nr, sizeof *ip.xtaint);
	for (int r = 0; r < th->n_regs; r++) {
		ip.val[r] = th->regs[r].init;
		ip.known[r] = true;
		ip.det[r] = true;
	}
	ip.visits = xcalloc((size_t)th->n_ops + 1, sizeof *ip.visits);
	ip.out = &fresh;
	ip.old = ts->ev;
	ip.n_old = ts->n_ev;
	fresh.status = run(&ip);
	fresh.regs = xmalloc((size_t)nr * sizeof *fresh.regs);
	fresh.n_regs = nr;
	memcpy(fresh.regs, ip.val, (size_t)nr * sizeof *fresh.regs);
	for (int r = 0; r < th->n_regs; r++) {
		iset_free(&ip.taint[r]);
		iset_free(&ip.xtaint[r]);
	}
	iset_free(&ip.ctrl);
	iset_free(&ip.xctrl);
	free(ip.val);
	free(ip.known);
	free(ip.det);
	free(ip.taint);
	free(ip.xtaint);
	free(ip.visits);
	free(ts->ev);
	deps_free(&ts->addr);
	deps_free(&ts->data);
	deps_free(&ts->ctrl);
	deps_free(&ts->xdep);
	free(ts->regs);
	*ts = fresh;
}
