/* thread_paths.c — run each thread symbolically over its ops, forking at
 * every load (one branch per value the location may hold) and at every
 * store-conditional (success, failure).  See paths.h. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "paths.h"

/* A path longer than this (in executed ops) is a loop whose condition does
 * not depend on memory: herd would not stop either, we drop the path. */
#define MAX_STEPS 100000
/* A safety cap on the rounds of the value-set fixpoint (see paths_build). */
#define MAX_ROUNDS 256

/* ---- value sets ---------------------------------------------------------- */

bool value_set_has(const value_set *s, value v)
{
	for (int i = 0; i < s->n; i++)
		if (value_eq(s->v[i], v))
			return true;
	return false;
}

bool value_set_add(value_set *s, value v)
{
	if (value_set_has(s, v))
		return false;
	GROW(s->v, s->cap, (size_t)s->n + 1);
	s->v[s->n++] = v;
	return true;
}

/* ---- small sorted sets of event indices (the taint of a register) ---------- */

typedef struct intset {
	int n;
	size_t cap;
	int *v;
} intset;

static void intset_free(intset *s)
{
	free(s->v);
	s->v = NULL;
	s->n = 0;
	s->cap = 0;
}

static intset intset_copy(const intset *s)
{
	intset c = { 0 };
	if (s->n) {
		GROW(c.v, c.cap, (size_t)s->n);
		memcpy(c.v, s->v, (size_t)s->n * sizeof *c.v);
		c.n = s->n;
	}
	return c;
}

static void intset_set1(intset *s, int x)
{
	GROW(s->v, s->cap, 1);
	s->v[0] = x;
	s->n = 1;
}

/* dst := a | b (dst may alias neither) */
static void intset_union_into(intset *dst, const intset *a, const intset *b)
{
	dst->n = 0;
	GROW(dst->v, dst->cap, (size_t)(a->n + b->n) + 1);
	int i = 0, j = 0;
	while (i < a->n || j < b->n) {
		int x;
		if (j >= b->n || (i < a->n && a->v[i] < b->v[j]))
			x = a->v[i++];
		else if (i >= a->n || b->v[j] < a->v[i])
			x = b->v[j++];
		else {
			x = a->v[i++];
			j++;
		}
		dst->v[dst->n++] = x;
	}
}

static void intset_add_all(intset *dst, const intset *src)
{
	intset u = { 0 };
	intset_union_into(&u, dst, src);
	intset_free(dst);
	*dst = u;
}

/* ---- interpreter state: one partial path ------------------------------------ */

typedef struct istate {
	value *val;       /* register values           */
	intset *taint;    /* loads each register depends on */
	bool *det;        /* value known without reading memory (herd: a
	                   * "determined" value; only then may a backward
	                   * conditional jump run without the unroll limit) */
	intset ctrl;      /* loads that earlier conditional branches tested */
	int *visits;      /* per op index: backward jumps taken to it */
	int n_ev;
	size_t cap_ev;
	path_event *ev;
	dep_list addr, data, ctrl_edges;
	long steps;
	int instance;     /* executed instructions so far (the current one's
	                   * number) */
} istate;

typedef struct interp {
	const litmus_test *t;
	const thread *th;
	int unroll;
	const value_set *vals;   /* values each location may hold         */
	value_set *stored;       /* values stored this round, per location */
	path_set *out;
	diag *d;
	long max_path_stores;    /* most store events on one path so far */
	double deadline;         /* see paths_build; 0: none */
	long emitted;
	bool timed_out;
	bool warned_addr, warned_arith, warned_long, warned_reg;
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

static dep_list dep_copy(const dep_list *l)
{
	dep_list c = { 0 };
	if (l->n) {
		GROW(c.e, c.cap, (size_t)l->n);
		memcpy(c.e, l->e, (size_t)l->n * sizeof *c.e);
		c.n = l->n;
	}
	return c;
}

static istate *istate_new(const interp *ip)
{
	const thread *th = ip->th;
	istate *s = xcalloc(1, sizeof *s);
	int nr = th->n_regs > 0 ? th->n_regs : 1;
	s->val = xcalloc((size_t)nr, sizeof *s->val);
	s->taint = xcalloc((size_t)nr, sizeof *s->taint);
	s->det = xcalloc((size_t)nr, sizeof *s->det);
	for (int r = 0; r < th->n_regs; r++) {
		s->val[r] = th->regs[r].init;
		s->det[r] = true;
	}
	s->visits = xcalloc((size_t)th->n_ops + 1, sizeof *s->visits);
	return s;
}

static istate *istate_clone(const interp *ip, const istate *s)
{
	const thread *th = ip->th;
	istate *c = xcalloc(1, sizeof *c);
	int nr = th->n_regs > 0 ? th->n_regs : 1;
	c->val = xmalloc((size_t)nr * sizeof *c->val);
	memcpy(c->val, s->val, (size_t)nr * sizeof *c->val);
	c->det = xmalloc((size_t)nr * sizeof *c->det);
	memcpy(c->det, s->det, (size_t)nr * sizeof *c->det);
	c->taint = xcalloc((size_t)nr, sizeof *c->taint);
	for (int r = 0; r < th->n_regs; r++)
		c->taint[r] = intset_copy(&s->taint[r]);
	c->ctrl = intset_copy(&s->ctrl);
	c->visits = xmalloc(((size_t)th->n_ops + 1) * sizeof *c->visits);
	memcpy(c->visits, s->visits, ((size_t)th->n_ops + 1) * sizeof *c->visits);
	if (s->n_ev) {
		GROW(c->ev, c->cap_ev, (size_t)s->n_ev);
		memcpy(c->ev, s->ev, (size_t)s->n_ev * sizeof *c->ev);
	}
	c->n_ev = s->n_ev;
	c->addr = dep_copy(&s->addr);
	c->data = dep_copy(&s->data);
	c->ctrl_edges = dep_copy(&s->ctrl_edges);
	c->steps = s->steps;
	c->instance = s->instance;
	return c;
}

static void istate_free(const interp *ip, istate *s)
{
	for (int r = 0; r < ip->th->n_regs; r++)
		intset_free(&s->taint[r]);
	free(s->val);
	free(s->taint);
	free(s->det);
	intset_free(&s->ctrl);
	free(s->visits);
	free(s->ev);
	free(s->addr.e);
	free(s->data.e);
	free(s->ctrl_edges.e);
	free(s);
}

/* Append an event; it depends by control on every load an earlier
 * conditional branch tested. */
static int push_event(istate *s, const op *o, int op_index, enum event_kind kind)
{
	GROW(s->ev, s->cap_ev, (size_t)s->n_ev + 1);
	int e = s->n_ev++;
	path_event *pe = &s->ev[e];
	memset(pe, 0, sizeof *pe);
	pe->kind = kind;
	pe->op = op_index;
	pe->instr = o->instr;
	pe->instance = s->instance;
	pe->loc = -1;
	pe->val = value_int(0);
	for (int i = 0; i < s->ctrl.n; i++)
		dep_add(&s->ctrl_edges, s->ctrl.v[i], e);
	return e;
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
	if (!ip->warned_reg) {
		ip->warned_reg = true;
		diag_warning(ip->d, op_loc(ip, o), "instruction uses a register the thread does not have; path dropped");
	}
	return false;
}

static bool operand_value(interp *ip, const istate *s, const op *o, const operand *x, value *v)
{
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
		*v = s->val[x->reg];
		return true;
	}
	return false;
}

static const intset *operand_taint(const istate *s, const operand *x)
{
	static const intset empty = { 0, 0, NULL };
	if (x->kind == OPND_REG)
		return &s->taint[x->reg];
	return &empty;
}

static bool operand_det(const istate *s, const operand *x)
{
	return x->kind != OPND_REG || s->det[x->reg];
}

/* Location accessed by `a`, or -1 (with one warning per run) when the
 * address is not exactly one location's own address. */
static int eval_address(interp *ip, const istate *s, const op *o, const address *a)
{
	value b, x;
	if (!operand_value(ip, s, o, &a->base, &b) || !operand_value(ip, s, o, &a->index, &x))
		return -1;
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
		if (!ip->warned_addr) {
			ip->warned_addr = true;
			diag_warning(ip->d, op_loc(ip, o),
			             "memory access to an address that is not a location; path dropped");
		}
		return -1;
	}
	return loc;
}

static void add_edges_from(dep_list *l, const intset *from, int to)
{
	for (int i = 0; i < from->n; i++)
		dep_add(l, from->v[i], to);
}


/* Does branch condition c hold of value v (tested against 0)?  An address
 * is neither zero nor negative. */

double paths_clock(void)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}

static void emit(interp *ip, istate *s, bool toofar)
{
	if ((++ip->emitted & 1023) == 0 && ip->deadline > 0 && paths_clock() > ip->deadline)
		ip->timed_out = true;
	if (ip->timed_out)
		return;
	path_set *ps = ip->out;
	GROW(ps->p, ps->cap, (size_t)ps->n + 1);
	thread_path *p = &ps->p[ps->n++];
	memset(p, 0, sizeof *p);
	p->n_ev = s->n_ev;
	p->ev = s->ev;
	s->ev = NULL;
	s->n_ev = 0;
	s->cap_ev = 0;
	p->addr = s->addr;
	p->data = s->data;
	p->ctrl = s->ctrl_edges;
	memset(&s->addr, 0, sizeof s->addr);
	memset(&s->data, 0, sizeof s->data);
	memset(&s->ctrl_edges, 0, sizeof s->ctrl_edges);
	int nr = ip->th->n_regs > 0 ? ip->th->n_regs : 1;
	p->regs = xmalloc((size_t)nr * sizeof *p->regs);
	memcpy(p->regs, s->val, (size_t)nr * sizeof *p->regs);
	p->toofar = toofar;
	long n_stores = 0;
	for (int k = 0; k < p->n_ev; k++)
		n_stores += p->ev[k].kind == EV_WRITE;
	if (n_stores > ip->max_path_stores)
		ip->max_path_stores = n_stores;
}

/* May we jump from op `from` to op `target`?  herd's rule: a backward jump
 * (target <= from) that is unconditional or whose condition depends on
 * memory counts one visit of its target; the visit beyond `unroll` cuts
 * the path. */
static bool jump_allowed(interp *ip, istate *s, int from, int target, bool counted)
{
	if (!counted || target > from)
		return true;
	return ++s->visits[target] <= ip->unroll;
}

/* Run state s from op pc to the end of the thread, forking at choice
 * points.  Takes ownership of s. */
static void explore(interp *ip, istate *s, int pc)
{
	const thread *th = ip->th;
	for (;;) {
		if (ip->timed_out) {
			istate_free(ip, s);
			return;
		}
		if (pc < 0 || pc >= th->n_ops) {
			emit(ip, s, false);
			istate_free(ip, s);
			return;
		}
		if (++s->steps > MAX_STEPS) {
			if (!ip->warned_long) {
				ip->warned_long = true;
				diag_warning(ip->d, op_loc(ip, &th->ops[pc]),
				             "thread runs more than %d instructions without reading memory; path dropped",
				             MAX_STEPS);
			}
			istate_free(ip, s);
			return;
		}
		const op *o = &th->ops[pc];
		/* a new instruction instance starts at an instruction's first op */
		if (o->instr < 0 || o->instr >= th->n_instrs || th->instrs[o->instr].first_op == pc)
			s->instance++;
		switch (o->kind) {
		case OP_ALU: {
			value a, b, r;
			if (!operand_value(ip, s, o, &o->a, &a) || !operand_value(ip, s, o, &o->b, &b))
				goto drop;
			if (!op_alu(o->alu, a, b, &r)) {
				if (!ip->warned_arith) {
					ip->warned_arith = true;
					diag_warning(ip->d, op_loc(ip, o),
					             "arithmetic on an address or division by zero; path dropped");
				}
				goto drop;
			}
			if (o->dst >= 0) {
				if (!reg_ok(ip, o, o->dst))
					goto drop;
				intset u = { 0 };
				intset_union_into(&u, operand_taint(s, &o->a), operand_taint(s, &o->b));
				bool det = operand_det(s, &o->a) && operand_det(s, &o->b);
				intset_free(&s->taint[o->dst]);
				s->taint[o->dst] = u;
				s->val[o->dst] = r;
				s->det[o->dst] = det;
			}
			pc++;
			break;
		}
		case OP_LOAD: {
			int loc = eval_address(ip, s, o, &o->addr);
			if (loc < 0 || (o->dst >= 0 && !reg_ok(ip, o, o->dst)))
				goto drop;
			const value_set *vs = &ip->vals[loc];
			intset at = { 0 };
			intset_union_into(&at, operand_taint(s, &o->addr.base), operand_taint(s, &o->addr.index));
			for (int i = 0; i < vs->n; i++) {
				istate *c = i + 1 < vs->n ? istate_clone(ip, s) : s;
				int e = push_event(c, o, pc, EV_READ);
				c->ev[e].loc = loc;
				c->ev[e].val = vs->v[i];
				c->ev[e].flags = access_flags(o);
				add_edges_from(&c->addr, &at, e);
				if (o->dst >= 0) {
					c->val[o->dst] = vs->v[i];
					intset_set1(&c->taint[o->dst], e);
					c->det[o->dst] = false;
				}
				explore(ip, c, pc + 1);
			}
			intset_free(&at);
			if (vs->n == 0)
				istate_free(ip, s);
			return;
		}
		case OP_STORE:
		case OP_STCOND: {
			int loc = eval_address(ip, s, o, &o->addr);
			value v;
			if (loc < 0 || !operand_value(ip, s, o, &o->a, &v))
				goto drop;
			if (o->kind == OP_STCOND && o->dst >= 0 && !reg_ok(ip, o, o->dst))
				goto drop;
			istate *ok = s;
			if (o->kind == OP_STCOND) {
				/* The failing branch first: no event, flag 0. */
				istate *fail = istate_clone(ip, s);
				if (o->dst >= 0) {
					fail->val[o->dst] = value_int(0);
					intset_free(&fail->taint[o->dst]);
					fail->det[o->dst] = false;
				}
				explore(ip, fail, pc + 1);
			}
			int e = push_event(ok, o, pc, EV_WRITE);
			ok->ev[e].loc = loc;
			ok->ev[e].val = v;
			ok->ev[e].flags = access_flags(o);
			add_edges_from(&ok->addr, operand_taint(ok, &o->addr.base), e);
			add_edges_from(&ok->addr, operand_taint(ok, &o->addr.index), e);
			add_edges_from(&ok->data, operand_taint(ok, &o->a), e);
			value_set_add(&ip->stored[loc], v);
			if (o->kind == OP_STCOND && o->dst >= 0) {
				ok->val[o->dst] = value_int(1);
				intset_free(&ok->taint[o->dst]);
				ok->det[o->dst] = false;
			}
			pc++;
			break;
		}
		case OP_FENCE: {
			int e = push_event(s, o, pc, EV_FENCE);
			s->ev[e].fence = o->fence;
			pc++;
			break;
		}
		case OP_BRANCH: {
			int target = o->target;
			if (o->cond == BR_ALWAYS) {
				if (!jump_allowed(ip, s, pc, target, true)) {
					emit(ip, s, true);
					istate_free(ip, s);
					return;
				}
				pc = target;
				break;
			}
			value v;
			if (!operand_value(ip, s, o, &o->a, &v))
				goto drop;
			push_event(s, o, pc, EV_BRANCH);
			const intset *tt = operand_taint(s, &o->a);
			bool det = operand_det(s, &o->a);
			if (tt->n)
				intset_add_all(&s->ctrl, tt);
			if (op_branch_taken(o->cond, v)) {
				if (!jump_allowed(ip, s, pc, target, !det)) {
					emit(ip, s, true);
					istate_free(ip, s);
					return;
				}
				pc = target;
			} else {
				pc++;
			}
			break;
		}
		}
	}
drop:
	istate_free(ip, s);
}

/* ---- the fixpoint -------------------------------------------------------- */

static void path_free(thread_path *p)
{
	free(p->ev);
	free(p->addr.e);
	free(p->data.e);
	free(p->ctrl.e);
	free(p->regs);
}

static void path_set_clear(path_set *ps)
{
	for (int i = 0; i < ps->n; i++)
		path_free(&ps->p[i]);
	ps->n = 0;
}

void paths_free(const litmus_test *t, path_set *paths)
{
	if (!paths)
		return;
	for (int i = 0; i < t->n_threads; i++) {
		path_set_clear(&paths[i]);
		free(paths[i].p);
	}
	free(paths);
}

/* An upper bound on the store events of one execution: a thread without
 * backward jumps runs each op at most once; each backward jump (at most
 * `unroll` per target) runs each op at most once more. */
static long max_stores_per_execution(const litmus_test *t, int unroll)
{
	long total = 0;
	for (int i = 0; i < t->n_threads; i++) {
		const thread *th = &t->threads[i];
		long stores = 0, back_targets = 0;
		for (int k = 0; k < th->n_ops; k++) {
			const op *o = &th->ops[k];
			if (o->kind == OP_STORE || o->kind == OP_STCOND)
				stores++;
			if (o->kind == OP_BRANCH && o->target <= k)
				back_targets++;
		}
		total += stores * (1 + (long)unroll * back_targets);
	}
	return total;
}

/* The value sets grow round by round: round r sees every value that a
 * chain of r-1 stores can produce (each store computing its value from a
 * value read, produced by the previous store of the chain).  In one
 * execution a chain uses each store event at most once, so after
 * max_stores_per_execution + 1 rounds every value an execution can read
 * is there, even when the sets keep growing (a counter incremented by
 * several threads: the extra values never find a matching write).  A loop
 * on known values (no unroll limit) may store more often than the static
 * bound says: the longest paths seen raise it. */
bool paths_build(const litmus_test *t, int unroll, double deadline, path_set **paths_out, long *rounds,
                 bool *timed_out, diag *d)
{
	int nl = t->n_locs;
	value_set *vals = xcalloc((size_t)nl + 1, sizeof *vals);
	value_set *stored = xcalloc((size_t)nl + 1, sizeof *stored);
	path_set *paths = xcalloc((size_t)t->n_threads + 1, sizeof *paths);
	for (int l = 0; l < nl; l++)
		value_set_add(&vals[l], t->locs[l].init);
	long enough = max_stores_per_execution(t, unroll) + 1;
	interp ip = { 0 };
	ip.t = t;
	ip.unroll = unroll;
	ip.vals = vals;
	ip.stored = stored;
	ip.d = d;
	ip.deadline = deadline;
	bool complete = false;
	long round = 0;
	for (;;) {
		round++;
		for (int l = 0; l < nl; l++)
			stored[l].n = 0;
		long observed = 0;   /* loops on known values may exceed the bound */
		for (int i = 0; i < t->n_threads; i++) {
			path_set_clear(&paths[i]);
			ip.th = &t->threads[i];
			ip.out = &paths[i];
			ip.max_path_stores = 0;
			explore(&ip, istate_new(&ip), 0);
			observed += ip.max_path_stores;
		}
		if (ip.timed_out)
			break;
		if (observed + 1 > enough)
			enough = observed + 1;
		bool changed = false;
		for (int l = 0; l < nl; l++)
			for (int k = 0; k < stored[l].n; k++)
				if (value_set_add(&vals[l], stored[l].v[k]))
					changed = true;
		if (!changed || round >= enough) {
			complete = true;
			break;
		}
		if (round >= MAX_ROUNDS)
			break;
	}
	*timed_out = ip.timed_out;
	if (!complete && !ip.timed_out) {
		srcloc at = { t->file, 0, 0 };
		diag_warning(d, at, "the values memory may hold keep growing after %ld rounds; "
		             "some executions may be missing", round);
	}
	for (int l = 0; l < nl; l++) {
		free(vals[l].v);
		free(stored[l].v);
	}
	free(vals);
	free(stored);
	*paths_out = paths;
	*rounds = round;
	return complete;
}
