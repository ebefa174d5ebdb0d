/* value_numbers.c — herd7's numbers for the variables of its value
 * equations (the n of a symbolic value S<n>), per thread path.  See
 * value_eqs.h.
 *
 * herd numbers a variable each time its semantics reads a register or a
 * value, or makes an operation it cannot compute yet, counting on from
 * one thread to the next, P0 first.  It builds a C thread statement by
 * statement (CSem), and where an if's test is not known it builds both
 * branches, the then branch first, and then runs the statements after
 * the if once for each way through it, each time with fresh variables.
 * Each way through a statement is an element of a list, and each step
 * of herd's monad that runs something once per element builds its list
 * of results backwards.  So, for a statement list s :: rest whose s has
 * the ways x_1 .. x_m, the ways of the list are those of rest after x_1,
 * then after x_2, ..., all reversed; those of an if are the then
 * branch's followed by the else branch's, reversed; a while is an if
 * whose then branch is its body followed by the while once more (cut,
 * one way and no variable, at -unroll).  Which run of a statement a path
 * is in is the index of its way through what came before.
 *
 * A path of weft's (paths.h) records the way its branches went (its
 * turns, op and direction); walking the thread's herd statements
 * (prog.h: herd_stmt) along them gives the base number of each op the
 * path runs.  A thread without statements (assembly) is numbered op by
 * op in program order. */
#include <stdlib.h>
#include <string.h>

#include "value_eqs.h"

/* ---- the variables of one op ----------------------------------------------------- */

static bool named(const thread *th, const operand *x)
{
	return x->kind == OPND_REG && x->reg >= 0 && x->reg < th->n_regs && th->regs[x->reg].name &&
	       th->regs[x->reg].name[0] != '#';
}

/* What herd computes while it builds a thread (veq_alu_kind, as the
 * equations see it): an operation it does not, on a register, gets a
 * variable of its own. */
static bool herd_computes(const op *o)
{
	if (o->a.kind != OPND_REG && o->b.kind != OPND_REG)
		return true;
	return veq_alu_kind(o) != VEQ_NEW;
}

static bool is_comparison(enum alu_op a)
{
	return a == ALU_EQ || a == ALU_NE || a == ALU_LT || a == ALU_LE || a == ALU_GT || a == ALU_GE;
}

/* herd's C tests a condition that is no comparison as `!= 0` of it: one
 * more operation (CSem's build_cond).  weft branches on the value
 * itself, or on the comparison just computed. */
static bool c_test_adds_ne(const thread *th, int k)
{
	const op *o = &th->ops[k];
	if (th->n_hstmts == 0 || o->kind != OP_BRANCH || o->cond == BR_ALWAYS || o->cond == BR_EITHER ||
	    (o->flags & ACC_SILENT) || o->a.kind != OPND_REG)
		return false;
	const op *prev = k > 0 ? &th->ops[k - 1] : NULL;
	return !(prev && prev->kind == OP_ALU && prev->dst == o->a.reg && is_comparison(prev->alu));
}

enum { SLOT_ADDR, SLOT_A, SLOT_B, N_SLOTS };

static bool same_place(const thread *th, const op *a, const op *b)
{
	if (a->instr < 0 || b->instr < 0 || a->instr >= th->n_instrs || b->instr >= th->n_instrs)
		return false;
	srcloc x = th->instrs[a->instr].loc, y = th->instrs[b->instr].loc;
	return x.line == y.line && x.col == y.col;
}

/* Whether lock event k (a fence with a location) belongs to the
 * primitive of an earlier one: herd reads the lock's pointer once for a
 * spin_lock's LKR and LKW, and once for both alternatives of a
 * spin_trylock or spin_is_locked (weft's choice and silent branches lie
 * between them), all of one statement. */
static bool same_lock_primitive(const thread *th, int k)
{
	const op *o = &th->ops[k];
	for (int j = k - 1; j >= 0; j--) {
		const op *p = &th->ops[j];
		if (!same_place(th, p, o))
			return false;
		if (p->kind == OP_FENCE && (p->flags & ACC_LOCATED))
			return p->addr.base.kind == o->addr.base.kind && p->addr.base.reg == o->addr.base.reg;
		if (!(p->kind == OP_CHOICE || (p->kind == OP_BRANCH && (p->flags & ACC_SILENT))))
			return false;
	}
	return false;
}

/* The variables op k takes, numbered from *next on: its register reads
 * in slots[], and for a load, the value read in *mem.  At the first op
 * of an instruction, the pointers of the instruction's stores come
 * first: herd reads a store's pointer before it evaluates the value
 * stored, which weft computes by the ops before the store; the store of
 * a read-modify-write reuses its read's pointer.  addr[] keeps those
 * for the stores (per op of the thread). */
static void number_op(const thread *th, int k, int *next, int slots[N_SLOTS], int *mem, int *addr)
{
	const op *o = &th->ops[k];
	memset(slots, 0, N_SLOTS * sizeof *slots);
	*mem = 0;
	if (o->flags & ACC_NO_VARS)
		return;
	if (o->instr >= 0 && o->instr < th->n_instrs && th->instrs[o->instr].first_op == k) {
		const instr *in = &th->instrs[o->instr];
		bool has_load = false;
		for (int j = in->first_op; j < in->first_op + in->n_ops && j < th->n_ops; j++) {
			const op *s = &th->ops[j];
			if (s->kind == OP_LOAD)
				has_load = true;
			else if ((s->kind == OP_STORE || s->kind == OP_STCOND) &&
			         !(has_load && (s->flags & ACC_ATOMIC)) && !(s->flags & (ACC_ADDR_KNOWN | ACC_NO_VARS)))
				addr[j] = ++*next;
			else if (s->kind == OP_STORE || s->kind == OP_STCOND)
				addr[j] = 0;
		}
	}
	switch (o->kind) {
	case OP_LOAD:
		if (!(o->flags & ACC_ADDR_KNOWN))
			slots[SLOT_ADDR] = ++*next;
		*mem = ++*next;
		break;
	case OP_STORE:
	case OP_STCOND:
		slots[SLOT_ADDR] = addr[k];
		if (named(th, &o->a))
			slots[SLOT_A] = ++*next;
		break;
	case OP_ALU:
		if (named(th, &o->a))
			slots[SLOT_A] = ++*next;
		if (named(th, &o->b))
			slots[SLOT_B] = ++*next;
		if (!herd_computes(o))
			++*next;
		break;
	case OP_BRANCH:
		if (o->cond != BR_ALWAYS && o->cond != BR_EITHER && named(th, &o->a))
			slots[SLOT_A] = ++*next;
		if (c_test_adds_ne(th, k))
			++*next;
		break;
	case OP_FENCE:
		if ((o->flags & ACC_LOCATED) && !same_lock_primitive(th, k))
			++*next;
		break;
	case OP_TLBI:
		if (named(th, &o->a))
			slots[SLOT_A] = ++*next;
		break;
	case OP_CHOICE:
		break;
	}
}

/* ---- herd's statements: how many variables, how many ways ---------------------------- */

/* Counts saturate: herd itself could not build a thread near the cap. */
#define HV_CAP (1LL << 30)

static long long sat_mul(long long a, long long b)
{
	return a > 0 && b > HV_CAP / a ? HV_CAP : a * b;
}

static long long sat_add(long long a, long long b)
{
	return a + b > HV_CAP ? HV_CAP : a + b;
}

typedef struct hv_count {
	long long size;      /* variables herd takes running it once */
	long long ways;      /* ways through it                       */
} hv_count;

/* A thread as herd numbers it, with what is worked out once for all
 * its paths (per statement node: its count; the count of the list of
 * statements from it to the end of its list; its ways that run on). */
struct hv_shape {
	const thread *th;
	int unroll;
	int *cnt;            /* per op: the variables number_op takes */
	int *addr;           /* number_op's scratch: store pointers   */
	hv_count *stmt, *suffix;
	long long *live;
	bool *stmt_done, *suffix_done, *live_done;
};
typedef struct hv_shape hv_shape;

static long long ops_vars(const hv_shape *sh, int from, int to)
{
	long long n = 0;
	for (int k = from; k < to && k < sh->th->n_ops; k++)
		n += sh->cnt[k];
	return n;
}

/* The kids of statement node i: kid(sh, i, j) is the j-th. */
static int kid(const thread *th, int i, int j)
{
	int c = i + 1;
	while (j-- > 0)
		c += th->hstmts[c].n_nodes;
	return c;
}

/* ---- the thread's own statements: herd's cut of a loop ---------------------------------- */

/* A way through a while that would run its body once more than -unroll
 * allows is cut: herd's CSem ends it with B.Exit.  Inside a list of
 * statements the rest runs after it all the same (CSem ignores a
 * statement's branch there) and the list's way is no cut any more; but
 * the thread's own statements are herd's instructions (mem.ml), and no
 * instruction follows an Exit.  So a statement of the thread that is a
 * while, or an if with a while for a branch, runs the rest once per way
 * that is no cut only.  cut_ways lists a statement's ways in herd's
 * order, true for a cut; false when there are more than HV_MAX_WAYS. */
#define HV_MAX_WAYS 4096

typedef struct hv_ways {
	int n;
	bool cut[HV_MAX_WAYS];
} hv_ways;

static void ways_reverse(hv_ways *w, int from)
{
	for (int a = from, b = w->n - 1; a < b; a++, b--) {
		bool t = w->cut[a];
		w->cut[a] = w->cut[b];
		w->cut[b] = t;
	}
}

static bool ways_add(hv_ways *w, long long n, bool cut)
{
	if (n > HV_MAX_WAYS - w->n)
		return false;
	for (long long k = 0; k < n; k++)
		w->cut[w->n++] = cut;
	return true;
}

static hv_count count_stmt(const hv_shape *sh, int i);
static hv_count count_while(const hv_shape *sh, int i, int n);

/* Appends the ways of statement i (a while at depth n) to w. */
static bool cut_ways(const hv_shape *sh, int i, int n, hv_ways *w)
{
	const herd_stmt *s = &sh->th->hstmts[i];
	int from = w->n;
	switch (s->kind) {
	case HS_IF:
		if (s->n_kids > 0 ? !cut_ways(sh, i + 1, 0, w) : !ways_add(w, 1, false))
			return false;
		if (s->n_kids > 1 ? !cut_ways(sh, kid(sh->th, i, 1), 0, w) : !ways_add(w, 1, false))
			return false;
		ways_reverse(w, from);
		return true;
	case HS_WHILE:
		if (n >= sh->unroll) {
			if (!ways_add(w, 1, true))
				return false;
		} else {
			long long body = s->n_kids > 0 ? count_stmt(sh, i + 1).ways : 1;
			for (long long b = 0; b < body; b++)
				if (!cut_ways(sh, i, n + 1, w))
					return false;
			ways_reverse(w, from);
		}
		if (!ways_add(w, 1, false))
			return false;
		ways_reverse(w, from);
		return true;
	case HS_LIST:
	case HS_SIMPLE:
		break;
	}
	return ways_add(w, count_stmt(sh, i).ways, false);
}

static bool has_while(const thread *th, int i)
{
	for (int k = i; k < i + th->hstmts[i].n_nodes && k < th->n_hstmts; k++)
		if (th->hstmts[k].kind == HS_WHILE)
			return true;
	return false;
}

/* How many of the first `upto` ways of statement i (all of them: -1)
 * run what follows it in the thread's own list. */
static long long live_ways(const hv_shape *sh, int i, long long upto)
{
	if (!has_while(sh->th, i))
		return upto < 0 ? count_stmt(sh, i).ways : upto;
	if (upto < 0 && sh->live_done[i])
		return sh->live[i];
	hv_ways *w = xmalloc(sizeof *w);
	w->n = 0;
	long long all = count_stmt(sh, i).ways, live = upto < 0 ? all : upto;
	if (cut_ways(sh, i, 0, w)) {
		live = 0;
		for (int k = 0; k < w->n && (upto < 0 || k < upto); k++)
			live += !w->cut[k];
	}
	free(w);
	if (upto < 0) {
		sh->live_done[i] = true;
		sh->live[i] = live;
	}
	return live;
}

/* The statements j .. of list node i (node 0: the thread's own). */
static hv_count count_list(const hv_shape *sh, int i, int j)
{
	const herd_stmt *s = &sh->th->hstmts[i];
	if (j >= s->n_kids)
		return (hv_count){ 0, 1 };
	int k = kid(sh->th, i, j);
	if (sh->suffix_done[k])
		return sh->suffix[k];
	hv_count a = count_stmt(sh, k), rest = count_list(sh, i, j + 1);
	long long runs = i == 0 ? live_ways(sh, k, -1) : a.ways;
	sh->suffix_done[k] = true;
	sh->suffix[k] = (hv_count){ sat_add(a.size, sat_mul(runs, rest.size)), sat_mul(a.ways, rest.ways) };
	return sh->suffix[k];
}

/* A while node i at depth n (the loop has run n times). */
static hv_count count_while(const hv_shape *sh, int i, int n)
{
	const herd_stmt *s = &sh->th->hstmts[i];
	long long test = ops_vars(sh, s->test_op, s->branch_op + 1);
	if (n >= sh->unroll)
		return (hv_count){ test, 2 };
	hv_count body = s->n_kids > 0 ? count_stmt(sh, i + 1) : (hv_count){ 0, 1 };
	hv_count again = count_while(sh, i, n + 1);
	hv_count then = { sat_add(body.size, sat_mul(body.ways, again.size)), sat_mul(body.ways, again.ways) };
	return (hv_count){ sat_add(test, then.size), sat_add(then.ways, 1) };
}

static hv_count count_stmt_once(const hv_shape *sh, int i);

/* A statement of one primitive with two alternatives of its own
 * (spin_trylock, spin_is_locked: OP_CHOICE) has two ways, herd's success
 * first (r = spin_trylock(s): its altT, then two binds); its op, or -1
 * (none, or more than one: numbered as one way). */
static int choice_op(const thread *th, const herd_stmt *s)
{
	int at = -1;
	for (int k = s->first_op; k < s->end_op && k < th->n_ops; k++)
		if (th->ops[k].kind == OP_CHOICE) {
			if (at >= 0)
				return -1;
			at = k;
		}
	return at;
}

static hv_count count_stmt(const hv_shape *sh, int i)
{
	if (!sh->stmt_done[i]) {
		sh->stmt[i] = count_stmt_once(sh, i);
		sh->stmt_done[i] = true;
	}
	return sh->stmt[i];
}

static hv_count count_stmt_once(const hv_shape *sh, int i)
{
	const herd_stmt *s = &sh->th->hstmts[i];
	switch (s->kind) {
	case HS_LIST:
		return count_list(sh, i, 0);
	case HS_IF: {
		long long test = ops_vars(sh, s->test_op, s->branch_op + 1);
		hv_count then = s->n_kids > 0 ? count_stmt(sh, i + 1) : (hv_count){ 0, 1 };
		hv_count els = s->n_kids > 1 ? count_stmt(sh, kid(sh->th, i, 1)) : (hv_count){ 0, 1 };
		return (hv_count){ sat_add(test, sat_add(then.size, els.size)), sat_add(then.ways, els.ways) };
	}
	case HS_WHILE:
		return count_while(sh, i, 0);
	case HS_SIMPLE:
		break;
	}
	return (hv_count){ ops_vars(sh, s->first_op, s->end_op), choice_op(sh->th, s) >= 0 ? 2 : 1 };
}

/* ---- one path: the base number of each op it runs --------------------------------------- */

typedef struct hv_walk {
	const hv_shape *sh;
	const int *turns;    /* the path's turns (paths.h) */
	int n_turns, turn;
	bool ended;          /* the path's turns ran out: it ended here */
	int n, cap;          /* the trace: ops in the order herd numbers them */
	int *op;
	long long *base;
} hv_walk;

static void trace_ops(hv_walk *w, int from, int to, long long base)
{
	for (int k = from; k < to && k < w->sh->th->n_ops; k++) {
		if (w->n == w->cap) {
			w->cap = w->cap ? 2 * w->cap : 64;
			w->op = xrealloc(w->op, (size_t)w->cap * sizeof *w->op);
			w->base = xrealloc(w->base, (size_t)w->cap * sizeof *w->base);
		}
		w->op[w->n] = k;
		w->base[w->n++] = base;
		base += w->sh->cnt[k];
	}
}

/* The way the path's branch at op k went: taken or not; false when the
 * path has no more turns there (w->ended). */
static bool next_turn(hv_walk *w, int k, bool *taken)
{
	while (w->turn < w->n_turns && w->turns[w->turn] / 2 != k)
		w->turn++;
	if (w->turn >= w->n_turns) {
		w->ended = true;
		return false;
	}
	*taken = w->turns[w->turn++] % 2;
	return true;
}

static long long walk_stmt(hv_walk *w, int i, long long base);

/* The list's statements j .. from base: the path's way through them. */
static long long walk_list(hv_walk *w, int i, int j, long long base)
{
	const hv_shape *sh = w->sh;
	const herd_stmt *s = &sh->th->hstmts[i];
	if (j >= s->n_kids || w->ended)
		return 0;
	int k = kid(sh->th, i, j);
	hv_count a = count_stmt(sh, k), rest = count_list(sh, i, j + 1);
	long long x = walk_stmt(w, k, base);
	long long runs = i == 0 ? live_ways(sh, k, x) : x;
	long long y = walk_list(w, i, j + 1, sat_add(sat_add(base, a.size), sat_mul(runs, rest.size)));
	long long ways = sat_mul(a.ways, rest.ways);
	return ways - 1 - (sat_add(sat_mul(x, rest.ways), y));
}

static long long walk_while(hv_walk *w, int i, int n, long long base)
{
	const hv_shape *sh = w->sh;
	const herd_stmt *s = &sh->th->hstmts[i];
	long long test = ops_vars(sh, s->test_op, s->branch_op + 1);
	trace_ops(w, s->test_op, s->branch_op + 1, base);
	hv_count all = count_while(sh, i, n);
	bool again;
	if (!next_turn(w, s->branch_op, &again))
		return 0;
	if (again && n >= sh->unroll)
		return all.ways - 1;   /* herd's cut, the first way: the path ends */
	if (!again)
		return 0;              /* the way out, last before the reversal */
	base += test;
	hv_count body = s->n_kids > 0 ? count_stmt(sh, i + 1) : (hv_count){ 0, 1 };
	hv_count more = count_while(sh, i, n + 1);
	long long x = s->n_kids > 0 ? walk_stmt(w, i + 1, base) : 0;
	long long y = walk_while(w, i, n + 1, sat_add(sat_add(base, body.size), sat_mul(x, more.size)));
	long long then_ways = sat_mul(body.ways, more.ways);
	long long in_then = then_ways - 1 - sat_add(sat_mul(x, more.ways), y);
	return all.ways - 1 - in_then;
}

static long long walk_stmt(hv_walk *w, int i, long long base)
{
	const hv_shape *sh = w->sh;
	const herd_stmt *s = &sh->th->hstmts[i];
	if (w->ended)
		return 0;
	switch (s->kind) {
	case HS_LIST:
		return walk_list(w, i, 0, base);
	case HS_WHILE:
		return walk_while(w, i, 0, base);
	case HS_IF: {
		long long test = ops_vars(sh, s->test_op, s->branch_op + 1);
		trace_ops(w, s->test_op, s->branch_op + 1, base);
		hv_count then = s->n_kids > 0 ? count_stmt(sh, i + 1) : (hv_count){ 0, 1 };
		hv_count els = s->n_kids > 1 ? count_stmt(sh, kid(sh->th, i, 1)) : (hv_count){ 0, 1 };
		long long ways = sat_add(then.ways, els.ways), at;
		bool to_else;
		if (!next_turn(w, s->branch_op, &to_else))
			return 0;
		base += test;
		if (!to_else)
			at = s->n_kids > 0 ? walk_stmt(w, i + 1, base) : 0;
		else
			at = then.ways + (s->n_kids > 1 ? walk_stmt(w, kid(sh->th, i, 1), base + then.size) : 0);
		return ways - 1 - at;
	}
	case HS_SIMPLE:
		break;
	}
	trace_ops(w, s->first_op, s->end_op, base);
	int c = choice_op(sh->th, s);
	bool took = true;
	if (c >= 0 && !next_turn(w, c, &took))
		return 0;
	return took ? 0 : 1;
}

/* ---- the variable of each load of a path ------------------------------------------------ */

/* The variable of the first read of register reg at or after trace
 * position from, before anything writes it; 0 when there is none. */
static int first_reader(const thread *th, const hv_walk *w, int (*reads)[N_SLOTS], int reg, int from)
{
	for (int q = from; q < w->n; q++) {
		const op *o = &th->ops[w->op[q]];
		bool addr = (o->kind == OP_LOAD || o->kind == OP_STORE || o->kind == OP_STCOND) &&
		            ((o->addr.base.kind == OPND_REG && o->addr.base.reg == reg) ||
		             (o->addr.index.kind == OPND_REG && o->addr.index.reg == reg));
		if (addr && reads[q][SLOT_ADDR])
			return reads[q][SLOT_ADDR];
		if (o->kind != OP_LOAD && o->a.kind == OPND_REG && o->a.reg == reg && reads[q][SLOT_A])
			return reads[q][SLOT_A];
		if (o->kind == OP_ALU && o->b.kind == OPND_REG && o->b.reg == reg && reads[q][SLOT_B])
			return reads[q][SLOT_B];
		if (o->dst == reg)
			return 0;
	}
	return 0;
}

/* A load's value is known by the variable of the first read of the
 * register it went to (herd's register equations make that one the
 * representative), or its own when no instruction reads it.
 * Temporaries (#n) are weft's, not herd's: a load into one that a move
 * copies into a C variable at once is a load into that variable. */
static int load_var(const thread *th, const hv_walk *w, int (*reads)[N_SLOTS], const int *mem, int q)
{
	const op *o = &th->ops[w->op[q]];
	int reg = o->dst, from = q + 1;
	const op *nx = q + 1 < w->n ? &th->ops[w->op[q + 1]] : NULL;
	if (nx && nx->kind == OP_ALU && nx->alu == ALU_MOV && nx->a.kind == OPND_REG && nx->a.reg == reg &&
	    !named(th, &o->a) && reg >= 0 && th->regs[reg].name[0] == '#') {
		reg = nx->dst;
		from = q + 2;
	}
	int reader = reg >= 0 ? first_reader(th, w, reads, reg, from) : 0;
	return reader ? reader : mem[q];
}

/* The shape of thread th: what number_op takes at each op. */
static void shape_init(hv_shape *sh, const thread *th, int unroll)
{
	size_t nn = (size_t)th->n_hstmts + 1;
	sh->th = th;
	sh->unroll = unroll;
	sh->cnt = xcalloc((size_t)th->n_ops + 1, sizeof *sh->cnt);
	sh->addr = xcalloc((size_t)th->n_ops + 1, sizeof *sh->addr);
	sh->stmt = xcalloc(nn, sizeof *sh->stmt);
	sh->suffix = xcalloc(nn, sizeof *sh->suffix);
	sh->live = xcalloc(nn, sizeof *sh->live);
	sh->stmt_done = xcalloc(nn, sizeof *sh->stmt_done);
	sh->suffix_done = xcalloc(nn, sizeof *sh->suffix_done);
	sh->live_done = xcalloc(nn, sizeof *sh->live_done);
	int slots[N_SLOTS], mem;
	for (int k = 0; k < th->n_ops; k++) {
		int next = 0;
		number_op(th, k, &next, slots, &mem, sh->addr);
		sh->cnt[k] = next;
	}
}

static void shape_free(hv_shape *sh)
{
	free(sh->cnt);
	free(sh->addr);
	free(sh->stmt);
	free(sh->suffix);
	free(sh->live);
	free(sh->stmt_done);
	free(sh->suffix_done);
	free(sh->live_done);
}

/* herd's variable of each load of path p of thread sh->th (0 for the
 * other events), numbered from 1 for the thread. */
static int *path_vars(hv_shape *shp, const thread_path *p)
{
	const hv_shape *sh = shp;
	const thread *th = sh->th;
	int *addr = sh->addr;
	hv_walk w = { sh, p->turns, p->n_turns, 0, false, 0, 0, NULL, NULL };
	if (th->n_hstmts > 0)
		walk_stmt(&w, 0, 0);
	else
		trace_ops(&w, 0, th->n_ops, 0);
	int (*reads)[N_SLOTS] = xcalloc((size_t)w.n + 1, sizeof *reads);
	int *mem = xcalloc((size_t)w.n + 1, sizeof *mem);
	for (int q = 0; q < w.n; q++) {
		int next = (int)(w.base[q] < HV_CAP ? w.base[q] : HV_CAP);
		number_op(th, w.op[q], &next, reads[q], &mem[q], addr);
	}
	int *var = xcalloc((size_t)p->n_ev + 1, sizeof *var);
	for (int k = 0, q = 0; k < p->n_ev; k++) {
		if (p->ev[k].kind != EV_READ)
			continue;
		while (q < w.n && (w.op[q] != p->ev[k].op || th->ops[w.op[q]].kind != OP_LOAD))
			q++;
		if (q == w.n)
			break;
		var[k] = load_var(th, &w, reads, mem, q++);
	}
	free(reads);
	free(mem);
	free(w.op);
	free(w.base);
	return var;
}

/* ---- every thread ----------------------------------------------------------------------- */

void veq_numbers_build(const litmus_test *t, const path_set *paths, int unroll, veq_numbers *out)
{
	memset(out, 0, sizeof *out);
	out->t = t;
	out->paths = paths;
	out->thread_base = xcalloc((size_t)t->n_threads + 1, sizeof *out->thread_base);
	out->path_var = xcalloc((size_t)t->n_threads + 1, sizeof *out->path_var);
	out->n_paths = xcalloc((size_t)t->n_threads + 1, sizeof *out->n_paths);
	out->shapes = xcalloc((size_t)t->n_threads + 1, sizeof *out->shapes);
	long long base = 0;
	for (int i = 0; i < t->n_threads; i++) {
		const thread *th = &t->threads[i];
		out->thread_base[i] = (int)base;
		hv_shape *sh = &out->shapes[i];
		shape_init(sh, th, unroll);
		long long size = th->n_hstmts > 0 ? count_stmt(sh, 0).size : ops_vars(sh, 0, th->n_ops);
		base = sat_add(base, size);
		out->n_paths[i] = paths[i].n;
		out->path_var[i] = xcalloc((size_t)paths[i].n + 1, sizeof *out->path_var[i]);
	}
}

const int *veq_numbers_of(veq_numbers *nums, int thread_ix, const thread_path *p)
{
	const path_set *ps = &nums->paths[thread_ix];
	long k = p - ps->p;
	if (k < 0 || k >= ps->n || k >= nums->n_paths[thread_ix])
		return NULL;
	if (!nums->path_var[thread_ix][k])
		nums->path_var[thread_ix][k] = path_vars(&nums->shapes[thread_ix], p);
	return nums->path_var[thread_ix][k];
}

void veq_numbers_free(veq_numbers *nums)
{
	for (int i = 0; nums->t && i < nums->t->n_threads; i++) {
		for (int k = 0; k < nums->n_paths[i]; k++)
			free(nums->path_var[i][k]);
		free(nums->path_var[i]);
		shape_free(&nums->shapes[i]);
	}
	free(nums->shapes);
	free(nums->path_var);
	free(nums->n_paths);
	free(nums->thread_base);
	memset(nums, 0, sizeof *nums);
}
