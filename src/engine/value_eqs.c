/* value_eqs.c — herd7's value equations for the enumerator: which values
 * copy which loads along a path, which candidates herd's solver keeps, and
 * the names (S<n>) of the values it leaves symbolic.  See value_eqs.h. */
#include <stdlib.h>
#include <string.h>

#include "value_eqs.h"

/* ---- along a path ------------------------------------------------------------ */

void veq_regs_init(veq_regs *v, int n_regs)
{
	v->n = n_regs > 0 ? n_regs : 1;
	v->copy = xmalloc((size_t)v->n * sizeof *v->copy);
	for (int r = 0; r < v->n; r++)
		v->copy[r] = -1;
	v->from = xcalloc((size_t)v->n, sizeof *v->from);
	v->turns = NULL;
	v->n_turns = 0;
	v->cap_turns = 0;
}

void veq_regs_copy(veq_regs *dst, const veq_regs *src)
{
	dst->n = src->n;
	dst->copy = xmalloc((size_t)src->n * sizeof *dst->copy);
	memcpy(dst->copy, src->copy, (size_t)src->n * sizeof *dst->copy);
	dst->from = xcalloc((size_t)src->n, sizeof *dst->from);
	for (int r = 0; r < src->n; r++)
		idxset_copy_into(&dst->from[r], &src->from[r]);
	dst->turns = NULL;
	dst->n_turns = 0;
	dst->cap_turns = 0;
	if (src->n_turns) {
		GROW(dst->turns, dst->cap_turns, (size_t)src->n_turns);
		memcpy(dst->turns, src->turns, (size_t)src->n_turns * sizeof *dst->turns);
		dst->n_turns = src->n_turns;
	}
}

void veq_turn(veq_regs *v, int k, bool taken)
{
	GROW(v->turns, v->cap_turns, (size_t)v->n_turns + 1);
	v->turns[v->n_turns++] = 2 * k + (taken ? 1 : 0);
}

void veq_take_turns(veq_regs *v, int **turns, int *n_turns)
{
	*turns = v->turns;
	*n_turns = v->n_turns;
	v->turns = NULL;
	v->n_turns = 0;
	v->cap_turns = 0;
}

void veq_regs_free(veq_regs *v)
{
	for (int r = 0; r < v->n; r++)
		idxset_free(&v->from[r]);
	free(v->from);
	free(v->copy);
	free(v->turns);
	memset(v, 0, sizeof *v);
}

static const idxset no_loads = { 0, 0, NULL };

static bool is_reg(const veq_regs *v, const operand *x)
{
	return x->kind == OPND_REG && x->reg >= 0 && x->reg < v->n;
}

static int copy_of(const veq_regs *v, const operand *x)
{
	return is_reg(v, x) ? v->copy[x->reg] : -1;
}

static const idxset *from_of(const veq_regs *v, const operand *x)
{
	return is_reg(v, x) ? &v->from[x->reg] : &no_loads;
}

static bool is_imm_zero(const operand *x)
{
	return x->kind == OPND_IMM && x->imm.loc < 0 && x->imm.num == 0;
}

static void mark_used(const idxset *s, path_event *ev)
{
	for (int i = 0; i < s->n; i++)
		ev[s->v[i]].val_used = true;
}

void veq_use(const veq_regs *v, const operand *x, path_event *ev)
{
	mark_used(from_of(v, x), ev);
}

void veq_use_address(const veq_regs *v, const address *a, path_event *ev)
{
	veq_use(v, &a->base, ev);
	veq_use(v, &a->index, ev);
}

static void set_reg(veq_regs *v, int reg, int copy, const idxset *from)
{
	if (reg < 0 || reg >= v->n)
		return;
	idxset u = { 0 };
	idxset_copy_into(&u, from);
	idxset_free(&v->from[reg]);
	v->from[reg] = u;
	v->copy[reg] = copy;
}

/* What herd computes while it builds a thread, on variables: a move, an
 * exclusive or of a register with itself (zero), an equality of a
 * register with itself, an addition or an or with the constant 0.  Every
 * other operation on a variable is an equation left to the solver, which
 * solves it only once its operands are known.  Width changes are weft's
 * own spelling of a load's width, not an operation herd makes: copies. */
enum veq_alu_kind veq_alu_kind(const op *o)
{
	const operand *a = &o->a, *b = &o->b;
	bool same = a->kind == OPND_REG && b->kind == OPND_REG && a->reg == b->reg;
	/* herd unifies the two sides (the value a C11 compare-exchange's
	 * success reads is the expected one): nothing computed */
	if (o->flags & ACC_NO_VARS)
		return VEQ_KNOWN;
	switch (o->alu) {
	case ALU_MOV:
	case ALU_SEXT:
	case ALU_ZEXT:
		return VEQ_COPY_A;
	case ALU_XOR:
	case ALU_EQ:
	case ALU_NE:
		return same ? VEQ_KNOWN : VEQ_NEW;
	case ALU_ADD:
	case ALU_OR:
		return is_imm_zero(b) ? VEQ_COPY_A : is_imm_zero(a) ? VEQ_COPY_B : VEQ_NEW;
	default:
		return VEQ_NEW;
	}
}

void veq_alu(veq_regs *v, const op *o, path_event *ev)
{
	const operand *a = &o->a, *b = &o->b;
	switch (veq_alu_kind(o)) {
	case VEQ_COPY_A:
		set_reg(v, o->dst, copy_of(v, a), from_of(v, a));
		return;
	case VEQ_COPY_B:
		set_reg(v, o->dst, copy_of(v, b), from_of(v, b));
		return;
	case VEQ_KNOWN:
		set_reg(v, o->dst, -1, &no_loads);
		return;
	case VEQ_NEW:
		break;
	}
	idxset u = { 0 };
	idxset_union(&u, from_of(v, a), from_of(v, b));
	mark_used(&u, ev);
	set_reg(v, o->dst, -1, &u);
	idxset_free(&u);
}

void veq_loaded(veq_regs *v, int reg, int e)
{
	if (reg < 0 || reg >= v->n)
		return;
	idxset_set1(&v->from[reg], e);
	v->copy[reg] = e;
}

void veq_constant(veq_regs *v, int reg)
{
	set_reg(v, reg, -1, &no_loads);
}

void veq_store(const veq_regs *v, const operand *data, int e, path_event *ev, dep_list *vdata)
{
	int c = copy_of(v, data);
	ev[e].copy_of = c;
	if (c >= 0)
		return;
	const idxset *s = from_of(v, data);
	for (int i = 0; i < s->n; i++)
		dep_list_add(vdata, s->v[i], e);
}

/* ---- one candidate --------------------------------------------------------------- */

void veq_frame_build(veq_frame *f, const litmus_test *t, const thread_path *const *pick, const int *base,
                     const execution *x, veq_numbers *nums)
{
	int n = x->n;
	size_t sz = (size_t)n + 1;
	memset(f, 0, sizeof *f);
	f->n = n;
	f->copy_of = xmalloc(sz * sizeof *f->copy_of);
	f->from_start = xcalloc(sz + 1, sizeof *f->from_start);
	f->used = xcalloc(sz, sizeof *f->used);
	f->herd_var = xcalloc(sz, sizeof *f->herd_var);
	f->src = xmalloc(sz * sizeof *f->src);
	f->det = xcalloc(sz, sizeof *f->det);
	f->sym = xcalloc(sz, sizeof *f->sym);
	f->uf_parent = xmalloc(sz * sizeof *f->uf_parent);
	f->uf_rank = xcalloc(sz, sizeof *f->uf_rank);
	for (int e = 0; e < n; e++) {
		f->copy_of[e] = -1;
		f->src[e] = -1;
	}
	int n_from = 0;
	for (int i = 0; i < t->n_threads; i++) {
		const thread_path *p = pick[i];
		const int *vars = veq_numbers_of(nums, i, p);
		for (int k = 0; k < p->n_ev; k++) {
			int g = base[i] + k;
			const path_event *pe = &p->ev[k];
			if (pe->kind == EV_WRITE && pe->copy_of >= 0)
				f->copy_of[g] = base[i] + pe->copy_of;
			if (pe->kind == EV_READ) {
				f->used[g] = pe->val_used;
				if (vars && vars[k] > 0)
					f->herd_var[g] = nums->thread_base[i] + vars[k];
			}
		}
		for (int k = 0; k < p->vdata.n; k++)
			f->from_start[base[i] + p->vdata.e[k].to + 1]++;
		n_from += p->vdata.n;
	}
	for (int e = 0; e < n; e++)
		f->from_start[e + 1] += f->from_start[e];
	f->from = xmalloc(((size_t)n_from + 1) * sizeof *f->from);
	int *fill = xcalloc(sz, sizeof *fill);
	for (int i = 0; i < t->n_threads; i++) {
		const thread_path *p = pick[i];
		for (int k = 0; k < p->vdata.n; k++) {
			int w = base[i] + p->vdata.e[k].to;
			f->from[f->from_start[w] + fill[w]++] = base[i] + p->vdata.e[k].from;
		}
	}
	free(fill);
}

void veq_frame_free(veq_frame *f)
{
	free(f->copy_of);
	free(f->from_start);
	free(f->from);
	free(f->used);
	free(f->herd_var);
	free(f->src);
	free(f->det);
	free(f->sym);
	free(f->uf_parent);
	free(f->uf_rank);
	memset(f, 0, sizeof *f);
}

/* Is the value write w stores known once the determined loads are? */
static bool write_determined(const veq_frame *f, const execution *x, int w)
{
	if (x->ev[w].flags & EVF_INIT)
		return true;
	if (f->copy_of[w] >= 0)
		return f->det[f->copy_of[w]];
	for (int k = f->from_start[w]; k < f->from_start[w + 1]; k++)
		if (!f->det[f->from[k]])
			return false;
	return true;
}

/* The load an undetermined load's value copies (through its write). */
static int copied(const veq_frame *f, int e)
{
	return f->copy_of[f->src[e]];
}

static int uf_find(veq_frame *f, int e)
{
	while (f->uf_parent[e] != e) {
		f->uf_parent[e] = f->uf_parent[f->uf_parent[e]];
		e = f->uf_parent[e];
	}
	return e;
}

/* herd's union by rank: on equal ranks the first one's root wins. */
static void uf_union(veq_frame *f, int a, int b)
{
	int d1 = uf_find(f, a), d2 = uf_find(f, b);
	if (d1 == d2)
		return;
	if (f->uf_rank[d1] > f->uf_rank[d2]) {
		f->uf_parent[d2] = d1;
	} else if (f->uf_rank[d2] > f->uf_rank[d1]) {
		f->uf_parent[d1] = d2;
	} else {
		f->uf_parent[d2] = d1;
		f->uf_rank[d1]++;
	}
}

bool veq_path_copies_load(const thread_path *p)
{
	for (int k = 0; k < p->n_ev; k++)
		if (p->ev[k].kind == EV_WRITE && p->ev[k].copy_of >= 0)
			return true;
	return false;
}

bool veq_paths_carry_loads(const litmus_test *t, const thread_path *const *pick)
{
	for (int i = 0; i < t->n_threads; i++)
		if (pick[i]->vdata.n > 0 || veq_path_copies_load(pick[i]))
			return true;
	return false;
}

/* A load is surely determined when every write it may read from is
 * determined by surely determined loads: the least fixpoint, as veq_judge
 * propagates, but over every candidate at once.  Under any one reads-from,
 * veq_judge's propagation then determines each load no later than this
 * one does (by induction on the round a load is marked in), so none is
 * open.  A load left unmarked lies on, or is fed by, a cycle of candidate
 * reads-from and value flow. */
bool veq_may_leave_open(veq_frame *f, const execution *x, int n_loads, const int *load_ev,
                        int *const *cands, const int *n_cands)
{
	for (int e = 0; e < f->n; e++)
		f->det[e] = x->ev[e].kind != EV_READ;
	int open = n_loads;
	for (bool changed = true; changed && open > 0;) {
		changed = false;
		for (int i = 0; i < n_loads; i++) {
			int e = load_ev[i];
			if (f->det[e])
				continue;
			bool all = true;
			for (int k = 0; k < n_cands[i] && all; k++)
				all = write_determined(f, x, cands[i][k]);
			if (all) {
				f->det[e] = true;
				changed = true;
				open--;
			}
		}
	}
	return open > 0;
}

enum veq_verdict veq_judge(veq_frame *f, const execution *x, value (*least)(void *ctx, int loc), void *ctx)
{
	int n = f->n;
	bool any_open = false;
	for (int e = 0; e < n; e++) {
		f->det[e] = x->ev[e].kind != EV_READ;
		f->sym[e] = 0;
	}
	/* forward propagation of constants, as far as it goes */
	for (bool changed = true; changed;) {
		changed = false;
		for (int e = 0; e < n; e++) {
			if (f->det[e] || f->src[e] < 0)
				continue;
			if (write_determined(f, x, f->src[e])) {
				f->det[e] = true;
				changed = true;
			}
		}
	}
	for (int e = 0; e < n; e++) {
		if (f->det[e])
			continue;
		if (f->used[e] || f->src[e] < 0 || copied(f, e) < 0)
			return VEQ_UNSOLVED;
		any_open = true;
	}
	if (!any_open)
		return VEQ_KEEP;
	/* every open load copies another around a cycle: one candidate per
	 * cycle, the one carrying the least value its locations hold */
	for (int e = 0; e < n; e++) {
		if (f->det[e])
			continue;
		int c = e;
		for (int step = 0; step < n; step++)
			c = copied(f, c);
		int m = c;
		for (int d = copied(f, c); d != c; d = copied(f, d))
			if (d < m)
				m = d;
		if (!value_eq(x->ev[m].val, least(ctx, x->ev[m].loc)))
			return VEQ_DUPLICATE;
	}
	/* herd's memory equations, one per load, the last load's first */
	for (int e = 0; e < n; e++) {
		f->uf_parent[e] = e;
		f->uf_rank[e] = 0;
	}
	for (int e = n - 1; e >= 0; e--)
		if (!f->det[e])
			uf_union(f, e, copied(f, e));
	for (int e = 0; e < n; e++)
		if (!f->det[e])
			f->sym[e] = f->herd_var[uf_find(f, e)];
	return VEQ_KEEP;
}

value veq_shown(const veq_frame *f, int load, value concrete)
{
	if (load >= 0 && load < f->n && f->sym[load] > 0)
		return value_symbolic(f->sym[load]);
	return concrete;
}
