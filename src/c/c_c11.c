/* c_c11.c — herd's C11 keywords: the atomics, fences and mutexes its C
 * lexer reads without a macro file (lib/CLexer.mll), lowered to the events
 * herd's C semantics (herd/CSem.ml) builds for them:
 *
 *   atomic_load_explicit(A,mo)          a read of A
 *   atomic_store_explicit(A,V,mo);      a write of V to A
 *   atomic_exchange_explicit(A,V,mo)    one event both a read of A and a
 *                                       write of V (value: the read)
 *   atomic_fetch_OP_explicit(A,V,mo)    the same, writing read OP V, for
 *                                       OP add, sub, or, xor, and
 *   atomic_compare_exchange_strong(A,E,D), ..._weak, SCAS, WCAS, and the
 *     ..._explicit(A,E,D,mo_ok,mo_fail) forms: a plain read of *E, then
 *     herd's two alternatives: a failure (a read of A with mo_fail, the
 *     value read written to E, value 0; the strong one only when it read
 *     another value than *E) or a success (one read-write event of A with
 *     mo_ok, reading *E and writing D, value 1)
 *   atomic_thread_fence(mo);            a fence
 *   lock(M); mtx_lock(M);               a successful C11 lock (set LS)
 *   unlock(M); mtx_unlock(M);           an unlock (set UL)
 *
 * The six memory orders are annotations of the events, named as herd
 * names the sets its C models read (CAction.ml's arch_sets): RLX, CON,
 * ACQ, REL, ACQ_REL, SC; plain accesses (*x) have none.  A single
 * read-write event is built as a read and a write of one instance
 * flagged ACC_ATOMIC | ACC_FUSED, which the models see as one event in R,
 * W and RMW (src/cat's fused atomics).  The forms without _explicit other
 * than the compare-exchanges (atomic_load, atomic_store, ...) are herd's
 * c11.def macros, not keywords.
 */
#include <string.h>

#include "c_lower.h"

enum c11_kind { K_LOAD, K_STORE, K_EXCHANGE, K_FETCH, K_CAS, K_FENCE, K_LOCK, K_UNLOCK };

typedef struct c11_word {
	const char *name;
	enum c11_kind kind;
	int n_args;
	enum alu_op alu;   /* K_FETCH: the operation                    */
	bool strong;       /* K_CAS: fails only on another value        */
} c11_word;

static const c11_word words[] = {
	{ "atomic_load_explicit", K_LOAD, 2, ALU_MOV, false },
	{ "atomic_store_explicit", K_STORE, 3, ALU_MOV, false },
	{ "atomic_exchange_explicit", K_EXCHANGE, 3, ALU_MOV, false },
	{ "atomic_fetch_add_explicit", K_FETCH, 3, ALU_ADD, false },
	{ "atomic_fetch_sub_explicit", K_FETCH, 3, ALU_SUB, false },
	{ "atomic_fetch_or_explicit", K_FETCH, 3, ALU_OR, false },
	{ "atomic_fetch_xor_explicit", K_FETCH, 3, ALU_XOR, false },
	{ "atomic_fetch_and_explicit", K_FETCH, 3, ALU_AND, false },
	{ "atomic_compare_exchange_weak", K_CAS, 3, ALU_MOV, false },
	{ "atomic_compare_exchange_strong", K_CAS, 3, ALU_MOV, true },
	{ "WCAS", K_CAS, 3, ALU_MOV, false },
	{ "SCAS", K_CAS, 3, ALU_MOV, true },
	{ "atomic_compare_exchange_weak_explicit", K_CAS, 5, ALU_MOV, false },
	{ "atomic_compare_exchange_strong_explicit", K_CAS, 5, ALU_MOV, true },
	{ "atomic_thread_fence", K_FENCE, 1, ALU_MOV, false },
	{ "lock", K_LOCK, 1, ALU_MOV, false },
	{ "mtx_lock", K_LOCK, 1, ALU_MOV, false },
	{ "unlock", K_UNLOCK, 1, ALU_MOV, false },
	{ "mtx_unlock", K_UNLOCK, 1, ALU_MOV, false },
};

/* herd's memory orders and the sets its C models name them by. */
static const struct {
	const char *word, *set;
} orders[] = {
	{ "memory_order_relaxed", "RLX" }, { "memory_order_consume", "CON" },
	{ "memory_order_acquire", "ACQ" }, { "memory_order_release", "REL" },
	{ "memory_order_acq_rel", "ACQ_REL" }, { "memory_order_seq_cst", "SC" },
};

static const c11_word *find_word(const char *name)
{
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (!strcmp(words[i].name, name))
			return &words[i];
	return NULL;
}

bool c11_is_keyword(const char *name)
{
	return find_word(name) != NULL;
}

static const char *order_set(const char *word)
{
	for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
		if (!strcmp(orders[i].word, word))
			return orders[i].set;
	return NULL;
}

bool c11_is_memory_order(const char *name)
{
	return order_set(name) != NULL;
}

/* Argument i of call e, a memory order: its annotation bit. */
static bool order_arg(lower *l, const c_ex *e, const env *en, int i, unsigned *bit)
{
	const c_ex *x = e->args[i];
	const env *xe = en;
	cl_resolve(&x, &xe);
	const char *set = x->kind == CE_NAME ? order_set(x->name) : NULL;
	if (!set)
		return cl_fail(l, cl_where(en, e->args[i]->loc), "%s: argument %d must be a memory order "
		               "(memory_order_relaxed, _consume, _acquire, _release, _acq_rel or _seq_cst)", e->name,
		               i + 1);
	return cl_annot_bit(l, set, cl_where(en, e->loc), bit);
}

/* The read and the write of one single-event read-modify-write: the
 * models pair the two halves by their instruction instance, so a
 * statement holds one at most. */
static bool fused_slot(lower *l, const c_ex *e, const env *en)
{
	if (l->fused_instr == l->ctx.instr)
		return cl_fail(l, cl_where(en, e->loc), "unsupported: a second atomic read-modify-write in one "
		               "statement (weft makes one per statement a single event; write them as two)");
	l->fused_instr = l->ctx.instr;
	return true;
}

/* A silent branch: no event, no control dependency. */
static int silent_branch(lower *l, enum branch_cond c, operand tested, unsigned flags)
{
	int at = l->ctx.th->n_ops;
	cl_branch(l, c, tested)->flags = ACC_SILENT | flags;
	return at;
}

/* The path goes on only when `bad` (a comparison just computed) is 0:
 * herd's alternative whose test fails has no execution. */
static void require_zero(lower *l, operand bad)
{
	int at = silent_branch(l, BR_NE, bad, ACC_DROP);
	cl_set_target(l, at);
}

/* A comparison of herd's equations (its neqT, the value an RMW reads):
 * no variable of herd's (value_numbers.c). */
static bool equation(lower *l, enum alu_op k, operand a, operand b, srcloc at, operand *out)
{
	int before = l->ctx.th->n_ops;
	if (!cl_alu(l, k, a, b, at, out))
		return false;
	if (l->ctx.th->n_ops > before)
		l->ctx.th->ops[before].flags |= ACC_NO_VARS;
	return true;
}

/* The value of e in a register of its own: herd reads the compare-
 * exchange's pointers once, before its alternatives. */
static bool read_once(lower *l, const c_ex *e, const env *en, operand *out)
{
	operand v;
	if (!cl_value(l, e, en, &v))
		return false;
	int r = cl_temp_reg(l);
	cl_mov(l, r, v);
	*out = cl_reg(r);
	return true;
}

/* atomic_compare_exchange_*: see the top of the file.  A choice picks
 * herd's alternative, its failure first (1) as CSem's altT lists it.
 * Its accesses go through pointers read once (ACC_ADDR_KNOWN), and the
 * success's read takes the expected value (ACC_NO_VARS), as herd numbers
 * its variables. */
static bool lower_cas(lower *l, const c_ex *e, const env *en, const c11_word *w, operand *out)
{
	srcloc at = cl_where(en, e->loc);
	unsigned ok = 0, no = 0;
	if (w->n_args == 5 && (!order_arg(l, e, en, 3, &ok) || !order_arg(l, e, en, 4, &no)))
		return false;
	if (w->n_args == 3 && (!cl_annot_bit(l, "SC", at, &ok) || !cl_annot_bit(l, "SC", at, &no)))
		return false;
	operand obj, expected;
	if (!read_once(l, e->args[1], en, &expected) || !read_once(l, e->args[0], en, &obj) || !fused_slot(l, e, en))
		return false;
	int old = cl_temp_reg(l), res = cl_temp_reg(l), choice = cl_temp_reg(l);
	cl_access(l, OP_LOAD, expected, 0, ACC_ADDR_KNOWN)->dst = old;
	op *c = arch_add_op(&l->ctx, OP_CHOICE);
	c->dst = choice;
	int to_success = silent_branch(l, BR_EQ, cl_reg(choice), 0);
	/* failure: the value read goes to *expected */
	int r = cl_temp_reg(l);
	cl_access(l, OP_LOAD, obj, no, ACC_ADDR_KNOWN)->dst = r;
	operand same;
	if (w->strong) {
		if (!cl_alu(l, ALU_EQ, cl_reg(r), cl_reg(old), at, &same))
			return false;
		require_zero(l, same);
	}
	cl_access(l, OP_STORE, expected, 0, ACC_ADDR_KNOWN)->a = cl_reg(r);
	cl_mov(l, res, cl_imm(value_int(0)));
	int to_end = silent_branch(l, BR_ALWAYS, cl_imm(value_int(0)), 0);
	/* success: one event reading *expected's value and writing desired */
	cl_set_target(l, to_success);
	operand desired, differs;
	if (!cl_value(l, e->args[2], en, &desired))
		return false;
	int rr = cl_temp_reg(l);
	cl_access(l, OP_LOAD, obj, ok, ACC_ATOMIC | ACC_FUSED | ACC_ADDR_KNOWN | ACC_NO_VARS)->dst = rr;
	if (!equation(l, ALU_NE, cl_reg(rr), cl_reg(old), at, &differs))
		return false;
	require_zero(l, differs);
	cl_access(l, OP_STORE, obj, ok, ACC_ATOMIC | ACC_FUSED | ACC_ADDR_KNOWN)->a = desired;
	cl_mov(l, res, cl_imm(value_int(1)));
	cl_set_target(l, to_end);
	*out = cl_reg(res);
	return true;
}

/* atomic_exchange_explicit, atomic_fetch_OP_explicit: one read-write
 * event; the value is the one read. */
static bool lower_rmw(lower *l, const c_ex *e, const env *en, const c11_word *w, operand *out)
{
	unsigned mo;
	operand a, v, stored;
	if (!order_arg(l, e, en, 2, &mo) || !cl_value(l, e->args[1], en, &v) || !cl_value(l, e->args[0], en, &a) ||
	    !fused_slot(l, e, en))
		return false;
	int r = cl_temp_reg(l);
	cl_access(l, OP_LOAD, a, mo, ACC_ATOMIC | ACC_FUSED)->dst = r;
	stored = v;
	if (w->kind == K_FETCH && !cl_alu(l, w->alu, cl_reg(r), v, cl_where(en, e->loc), &stored))
		return false;
	cl_access(l, OP_STORE, a, mo, ACC_ATOMIC | ACC_FUSED)->a = stored;
	*out = cl_reg(r);
	return true;
}

bool c11_lower_call(lower *l, const c_ex *e, const env *en, operand *out, bool as_stmt)
{
	const c11_word *w = find_word(e->name);
	srcloc at = cl_where(en, e->loc);
	*out = cl_imm(value_int(0));
	if (!w)
		return cl_fail(l, at, "internal error: '%s' is no C11 keyword", e->name);
	bool stmt_only = w->kind == K_STORE || w->kind == K_FENCE || w->kind == K_LOCK || w->kind == K_UNLOCK;
	if (stmt_only && !as_stmt)
		return cl_fail(l, at, "%s(...) is a statement in herd's C, used here as a value", e->name);
	if (e->tag)
		return cl_fail(l, at, "%s takes no {tag}", e->name);
	if (!cl_want_args(l, e, en, w->n_args))
		return false;
	unsigned mo;
	operand a, v;
	switch (w->kind) {
	case K_LOAD: {
		if (!order_arg(l, e, en, 1, &mo) || !cl_value(l, e->args[0], en, &a))
			return false;
		int r = cl_temp_reg(l);
		cl_access(l, OP_LOAD, a, mo, 0)->dst = r;
		*out = cl_reg(r);
		return true;
	}
	case K_STORE:
		if (!order_arg(l, e, en, 2, &mo) || !cl_value(l, e->args[0], en, &a) || !cl_value(l, e->args[1], en, &v))
			return false;
		cl_access(l, OP_STORE, a, mo, 0)->a = v;
		return true;
	case K_EXCHANGE:
	case K_FETCH:
		return lower_rmw(l, e, en, w, out);
	case K_CAS:
		return lower_cas(l, e, en, w, out);
	case K_FENCE: {
		if (!order_arg(l, e, en, 0, &mo))
			return false;
		op *o = arch_add_op(&l->ctx, OP_FENCE);
		o->fence = cl_annot_name(l, mo);
		o->annot = mo;
		return true;
	}
	case K_LOCK:
	case K_UNLOCK:
		if (!cl_value(l, e->args[0], en, &a))
			return false;
		cl_located_event(l, w->kind == K_LOCK ? "LS" : "UL", a, 0);
		return true;
	}
	return false;
}
