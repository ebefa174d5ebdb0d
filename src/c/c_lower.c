/* c_lower.c — a C thread function into prog.h ops, as herd's C semantics
 * (herd/CSem.ml) builds its events.
 *
 * Parameters are registers holding their shared variable's address;
 * locals are registers (0 until assigned).  Every statement is one
 * instruction (one po step); the events of one statement are one
 * instance, not ordered by po, as herd's are, except those a primitive
 * sequences (an RMW's read and write, LKR and LKW), which herd orders.  Expressions are computed
 * into scratch registers named "#N".  A call is a macro of the .def file,
 * expanded where it is met (its parameters bound to the caller's argument
 * trees), or one of herd's primitives:
 *
 *   __load{T}(*A)            read of A, tag T            (value: the read)
 *   __store{T}(*A,V)         write of V to A, tag T
 *   __fence{T}               fence event T
 *   __xchg{T}(A,V)           atomic read and write of A, both tagged T
 *   __cmpxchg{T}(A,O,N)      read of A (tag T); when it read O, a write of
 *                            N (tag T): herd's two alternatives, a failed
 *                            one being the read alone
 *   __atomic_op{T}(A,op,V)   atomic read, write of read op V (no value)
 *   __atomic_op_return{T}    ... its value: the written value
 *   __atomic_fetch_op{T}     ... its value: the read value
 *   __atomic_add_unless{T}(A,V,U)  read; unless it read U, write read+V;
 *                            value: 1 when it wrote, else 0
 *   __lock(A) / __unlock(A)  lock events LKR and LKW / UL on A
 *   __trylock(A)             herd's two alternatives: LKR and LKW (value
 *                            1), or a failed lock LF (value 0)
 *   __islocked(A)            RL (value 1) or RU (value 0)
 *   __srcu{T}(A)             event T on A (synchronize_srcu)
 *
 * Lock and srcu events are fences with a location (ACC_LOCATED): herd
 * makes them neither reads nor writes.  A tag T is annotation T of the
 * test (litmus_test.annots), on every event of the primitive.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_lower.h"

/* ---- instructions, registers, annotations -------------------------------------- */

static void grow_implied(void **arr, int n, size_t elem)
{
	if (n == 0)
		*arr = xrealloc(*arr, 4 * elem);
	else if (n >= 4 && (n & (n - 1)) == 0)
		*arr = xrealloc(*arr, 2 * (size_t)n * elem);
}

/* Close the open instruction: it holds the ops added since it began. */
static void end_instr(lower *l)
{
	if (!l->in_stmt)
		return;
	thread *th = l->ctx.th;
	instr *in = &th->instrs[l->ctx.instr];
	in->n_ops = th->n_ops - in->first_op;
	l->in_stmt = false;
}

/* Begin a new instruction (one po step) for the current statement. */
static void begin_instr(lower *l, const char *text, srcloc at)
{
	end_instr(l);
	thread *th = l->ctx.th;
	grow_implied((void **)&th->instrs, th->n_instrs, sizeof *th->instrs);
	instr *in = &th->instrs[th->n_instrs];
	memset(in, 0, sizeof *in);
	in->text = xstrdup(text ? text : "");
	in->loc = at;
	in->first_op = th->n_ops;
	l->ctx.instr = th->n_instrs++;
	l->ctx.loc = at;
	l->in_stmt = true;
}

/* A new po step inside one statement, with the statement's text: herd
 * orders the events a primitive sequences (an RMW's read before its
 * write, LKR before LKW: lock.cat's lk-rmw is [LKR]; po-loc; [LKW]) by
 * po, while those of one step are not. */
static void split_instr(lower *l)
{
	const instr *in = &l->ctx.th->instrs[l->ctx.instr];
	char *text = xstrdup(in->text);
	srcloc at = in->loc;
	begin_instr(l, text, at);
	free(text);
}

int cl_temp_reg(lower *l)
{
	char name[24];
	snprintf(name, sizeof name, "#%d", l->n_temps++);
	return arch_reg(&l->ctx, name);
}

bool cl_fail(lower *l, srcloc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(l->ctx.d, at, fmt, ap);
	va_end(ap);
	return false;
}

/* Where to say an error is: the call in the test for macro bodies. */
srcloc cl_where(const env *en, srcloc at)
{
	return en ? en->call : at;
}

/* The annotation bit of tag `tag` in test t, added if new. */
bool cl_annot_bit(lower *l, const char *tag, srcloc at, unsigned *bit)
{
	litmus_test *t = l->ctx.test;
	for (int i = 0; i < t->n_annots; i++)
		if (!strcmp(t->annots[i], tag)) {
			*bit = 1u << i;
			return true;
		}
	if (t->n_annots >= 32)
		return cl_fail(l, at, "more than 32 different tags in one test");
	if (!t->annots)
		t->annots = xcalloc(32, sizeof *t->annots);
	t->annots[t->n_annots] = xstrdup(tag);
	*bit = 1u << t->n_annots++;
	return true;
}

const char *cl_annot_name(lower *l, unsigned bit)
{
	for (int i = 0; i < l->ctx.test->n_annots; i++)
		if (bit == 1u << i)
			return l->ctx.test->annots[i];
	return NULL;
}

/* ---- expressions --------------------------------------------------------------------- */

static bool lower_stmt(lower *l, const c_st *s, const env *en);

/* Follow macro parameters to the tree they stand for. */
void cl_resolve(const c_ex **e, const env **en)
{
	while ((*e)->kind == CE_NAME && *en) {
		const c_macro *mac = (*en)->mac;
		int i = 0;
		while (i < mac->n_params && strcmp(mac->params[i], (*e)->name))
			i++;
		if (i == mac->n_params)
			return;
		*e = (*en)->args[i];
		*en = (*en)->outer;
	}
}

operand cl_reg(int r)
{
	operand o = { OPND_REG, r, { -1, 0 } };
	return o;
}

operand cl_imm(value v)
{
	operand o = { OPND_IMM, -1, v };
	return o;
}

static address addr_of(operand a)
{
	address ad;
	memset(&ad, 0, sizeof ad);
	ad.base = a;
	ad.index.kind = OPND_NONE;
	ad.index.reg = -1;
	ad.index.imm = value_int(0);
	return ad;
}

/* dst := a k b, folded when both are constants. */
bool cl_alu(lower *l, enum alu_op k, operand a, operand b, srcloc at, operand *out)
{
	if (a.kind == OPND_IMM && (b.kind == OPND_IMM || b.kind == OPND_NONE)) {
		value r;
		if (op_alu(k, a.imm, b.kind == OPND_IMM ? b.imm : value_int(0), &r)) {
			*out = cl_imm(r);
			return true;
		}
		if (k != ALU_MOV)
			return cl_fail(l, at, "this constant expression has no value (division by zero, or "
			            "arithmetic on an address)");
	}
	int d = cl_temp_reg(l);
	op *o = arch_add_op(&l->ctx, OP_ALU);
	o->alu = k;
	o->dst = d;
	o->a = a;
	o->b = b;
	*out = cl_reg(d);
	return true;
}

static bool binary_alu(const char *op, enum alu_op *k)
{
	static const struct {
		const char *op;
		enum alu_op k;
	} map[] = {
		{ "+", ALU_ADD }, { "-", ALU_SUB }, { "*", ALU_MUL }, { "/", ALU_DIV }, { "%", ALU_MOD },
		{ "&", ALU_AND }, { "|", ALU_OR }, { "^", ALU_XOR }, { "<<", ALU_SHL }, { ">>", ALU_SHRS },
		{ "==", ALU_EQ }, { "!=", ALU_NE }, { "<", ALU_LT }, { "<=", ALU_LE }, { ">", ALU_GT },
		{ ">=", ALU_GE },
	};
	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (!strcmp(map[i].op, op)) {
			*k = map[i].k;
			return true;
		}
	return false;
}

/* a op b for the operators C writes and __atomic_op passes ("&~"). */
static bool apply_operator(lower *l, const char *op, operand a, operand b, srcloc at, operand *out)
{
	enum alu_op k;
	if (!strcmp(op, "&~")) {
		operand nb;
		return cl_alu(l, ALU_XOR, b, cl_imm(value_int(-1)), at, &nb) && cl_alu(l, ALU_AND, a, nb, at, out);
	}
	if (!strcmp(op, "&&") || !strcmp(op, "||")) {
		/* herd's C evaluates both sides (no short circuit) */
		operand ta, tb, u;
		return cl_alu(l, ALU_NE, a, cl_imm(value_int(0)), at, &ta) &&
		       cl_alu(l, ALU_NE, b, cl_imm(value_int(0)), at, &tb) &&
		       cl_alu(l, op[0] == '&' ? ALU_AND : ALU_OR, ta, tb, at, &u) && (*out = u, true);
	}
	if (!binary_alu(op, &k))
		return cl_fail(l, at, "unsupported operator '%s'", op);
	return cl_alu(l, k, a, b, at, out);
}

/* The address an access goes to: `*A` for __load/__store (herd: "Bad
 * __load argument" otherwise), A itself for the others. */
static bool deref_address(lower *l, const c_ex *e, const env *en, const char *prim, operand *out)
{
	const c_ex *x = e;
	const env *xe = en;
	cl_resolve(&x, &xe);
	if (x->kind != CE_UNARY || strcmp(x->op, "*"))
		return cl_fail(l, cl_where(en, e->loc), "bad %s argument: expected '*address'", prim);
	return cl_value(l, x->a, xe, out);
}

op *cl_access(lower *l, enum op_kind k, operand addr, unsigned annot, unsigned flags)
{
	op *o = arch_add_op(&l->ctx, k);
	o->addr = addr_of(addr);
	o->annot = annot;
	o->flags = flags;
	return o;
}

bool cl_want_args(lower *l, const c_ex *call, const env *en, int n)
{
	if (call->n_args == n)
		return true;
	return cl_fail(l, cl_where(en, call->loc), "%s takes %d argument%s, given %d", call->name, n, n == 1 ? "" : "s",
	            call->n_args);
}

static bool tag_of(lower *l, const c_ex *call, const env *en, bool needed, unsigned *bit)
{
	*bit = 0;
	if (!call->tag) {
		if (needed)
			return cl_fail(l, cl_where(en, call->loc), "%s needs a tag, as in %s{ONCE}", call->name, call->name);
		return true;
	}
	return cl_annot_bit(l, call->tag, cl_where(en, call->loc), bit);
}

/* An operator argument of __atomic_op (+, -, &, |, ^, &~). */
static bool operator_arg(lower *l, const c_ex *e, const env *en, const char **op)
{
	const c_ex *x = e;
	const env *xe = en;
	cl_resolve(&x, &xe);
	if (x->kind != CE_OPER)
		return cl_fail(l, cl_where(en, e->loc), "expected an operator (+, -, &, |, ^, &~) as the second argument");
	*op = x->op;
	return true;
}

/* A lock event (a fence with a location). */
void cl_located_event(lower *l, const char *name, operand addr, unsigned annot)
{
	op *o = arch_add_op(&l->ctx, OP_FENCE);
	o->fence = name;
	o->flags = ACC_LOCATED;
	o->addr = addr_of(addr);
	o->annot = annot;
}

/* herd's two alternatives of spin_trylock (LKR and LKW, value 1; or a
 * failed lock LF, value 0) and of spin_is_locked (RL, value 1; RU, 0):
 * a choice, then each alternative's events. */
static void lower_lock_choice(lower *l, bool trylock, operand a, operand *out)
{
	int r = cl_temp_reg(l);
	op *c = arch_add_op(&l->ctx, OP_CHOICE);
	c->dst = r;
	int to_zero = l->ctx.th->n_ops;
	op *b = arch_add_op(&l->ctx, OP_BRANCH);
	b->cond = BR_EQ;
	b->a = cl_reg(r);
	b->flags = ACC_SILENT;
	if (trylock) {
		cl_located_event(l, "LKR", a, 0);
		split_instr(l);
		cl_located_event(l, "LKW", a, 0);
	} else {
		cl_located_event(l, "RL", a, 0);
	}
	int to_end = l->ctx.th->n_ops;
	op *j = arch_add_op(&l->ctx, OP_BRANCH);
	j->flags = ACC_SILENT;
	l->ctx.th->ops[to_zero].target = l->ctx.th->n_ops;
	l->ctx.th->ops[to_zero].label = xasprintf("@%d", l->ctx.th->n_ops);
	cl_located_event(l, trylock ? "LF" : "RU", a, 0);
	l->ctx.th->ops[to_end].target = l->ctx.th->n_ops;
	l->ctx.th->ops[to_end].label = xasprintf("@%d", l->ctx.th->n_ops);
	*out = cl_reg(r);
}

/* The read-modify-writes: xchg, the atomic ops, add_unless, cmpxchg. */
static bool lower_rmw(lower *l, const c_ex *e, const env *en, const char *p, unsigned bit, operand *out)
{
	srcloc at = cl_where(en, e->loc);
	operand a, v, w = cl_imm(value_int(0));
	const char *opname = NULL;
	bool xchg = !strcmp(p, "xchg"), cmpxchg = !strcmp(p, "cmpxchg"), unless = !strcmp(p, "atomic_add_unless");
	int nargs = xchg ? 2 : 3;
	if (!cl_want_args(l, e, en, nargs))
		return false;
	if (!xchg && !cmpxchg && !unless && !operator_arg(l, e->args[1], en, &opname))
		return false;
	if (!cl_value(l, e->args[0], en, &a) || !cl_value(l, e->args[xchg ? 1 : 2], en, &v))
		return false;
	if (cmpxchg || unless) {
		w = v;
		if (!cl_value(l, e->args[1], en, &v))
			return false;
	}
	int r = cl_temp_reg(l);
	op *ld = cl_access(l, OP_LOAD, a, bit, ACC_ATOMIC);
	ld->dst = r;
	operand read = cl_reg(r), stored = v;
	int skip = -1;
	if (cmpxchg || unless) {
		/* herd's two alternatives: the test decides which one a read
		 * value takes (cmpxchg: it read the old value; add_unless: it
		 * did not read the excluded one) */
		operand c;
		if (!cl_alu(l, cmpxchg ? ALU_NE : ALU_EQ, read, cmpxchg ? v : w, at, &c))
			return false;
		skip = l->ctx.th->n_ops;
		op *b = arch_add_op(&l->ctx, OP_BRANCH);
		b->cond = BR_NE;
		b->a = c;
		b->flags = ACC_SILENT;
		if (cmpxchg)
			stored = w;
		else if (!cl_alu(l, ALU_ADD, read, v, at, &stored))
			return false;
	} else if (!xchg && !apply_operator(l, opname, read, v, at, &stored)) {
		return false;
	}
	split_instr(l);
	op *st = cl_access(l, OP_STORE, a, bit, ACC_ATOMIC);
	st->a = stored;
	if (unless) {
		/* the value: 1 when it wrote, 0 when it read the excluded one */
		int flag = cl_temp_reg(l);
		op *one = arch_add_op(&l->ctx, OP_ALU);
		one->dst = flag;
		one->a = cl_imm(value_int(1));
		op *j = arch_add_op(&l->ctx, OP_BRANCH);
		j->flags = ACC_SILENT;
		int jump = l->ctx.th->n_ops - 1;
		l->ctx.th->ops[skip].target = l->ctx.th->n_ops;
		l->ctx.th->ops[skip].label = xasprintf("@%d", l->ctx.th->n_ops);
		op *zero = arch_add_op(&l->ctx, OP_ALU);
		zero->dst = flag;
		zero->a = cl_imm(value_int(0));
		l->ctx.th->ops[jump].target = l->ctx.th->n_ops;
		l->ctx.th->ops[jump].label = xasprintf("@%d", l->ctx.th->n_ops);
		*out = cl_reg(flag);
		return true;
	}
	if (skip >= 0) {
		l->ctx.th->ops[skip].target = l->ctx.th->n_ops;
		l->ctx.th->ops[skip].label = xasprintf("@%d", l->ctx.th->n_ops);
	}
	if (!strcmp(p, "atomic_op_return"))
		*out = stored;
	else
		*out = read;
	return true;
}

static bool lower_primitive(lower *l, const c_ex *e, const env *en, operand *out, bool *known)
{
	*known = true;
	*out = cl_imm(value_int(0));
	const char *n = e->name;
	if (strncmp(n, "__", 2)) {
		*known = false;
		return false;
	}
	const char *p = n + 2;
	unsigned bit;
	operand a, v;
	if (!strcmp(p, "load")) {
		if (!cl_want_args(l, e, en, 1) || !tag_of(l, e, en, false, &bit) ||
		    !deref_address(l, e->args[0], en, n, &a))
			return false;
		int r = cl_temp_reg(l);
		cl_access(l, OP_LOAD, a, bit, 0)->dst = r;
		*out = cl_reg(r);
		return true;
	}
	if (!strcmp(p, "store")) {
		if (!cl_want_args(l, e, en, 2) || !tag_of(l, e, en, false, &bit) ||
		    !deref_address(l, e->args[0], en, n, &a) || !cl_value(l, e->args[1], en, &v))
			return false;
		cl_access(l, OP_STORE, a, bit, 0)->a = v;
		return true;
	}
	if (!strcmp(p, "fence")) {
		if (!cl_want_args(l, e, en, 0) || !tag_of(l, e, en, true, &bit))
			return false;
		op *o = arch_add_op(&l->ctx, OP_FENCE);
		o->fence = cl_annot_name(l, bit);
		o->annot = bit;
		return true;
	}
	if (!strcmp(p, "xchg") || !strcmp(p, "cmpxchg") || !strcmp(p, "atomic_op") ||
	    !strcmp(p, "atomic_op_return") || !strcmp(p, "atomic_fetch_op") || !strcmp(p, "atomic_add_unless")) {
		if (!tag_of(l, e, en, true, &bit))
			return false;
		return lower_rmw(l, e, en, p, bit, out);
	}
	if (!strcmp(p, "lock") || !strcmp(p, "unlock")) {
		if (!cl_want_args(l, e, en, 1) || !cl_value(l, e->args[0], en, &a))
			return false;
		if (p[0] == 'l') {
			cl_located_event(l, "LKR", a, 0);
			split_instr(l);
			cl_located_event(l, "LKW", a, 0);
		} else {
			cl_located_event(l, "UL", a, 0);
		}
		return true;
	}
	if (!strcmp(p, "srcu")) {
		if (!cl_want_args(l, e, en, 1) || !tag_of(l, e, en, true, &bit) || !cl_value(l, e->args[0], en, &a))
			return false;
		cl_located_event(l, cl_annot_name(l, bit), a, bit);
		return true;
	}
	if (!strcmp(p, "trylock") || !strcmp(p, "islocked")) {
		if (!cl_want_args(l, e, en, 1) || !cl_value(l, e->args[0], en, &a))
			return false;
		lower_lock_choice(l, p[0] == 't', a, out);
		return true;
	}
	*known = false;
	return false;
}

static bool lower_call(lower *l, const c_ex *e, const env *en, operand *out, bool as_stmt)
{
	srcloc at = cl_where(en, e->loc);
	/* herd's lexer makes these keywords: no macro file redefines them */
	if (c11_is_keyword(e->name))
		return c11_lower_call(l, e, en, out, as_stmt);
	const c_macro *mac = c_macro_find(l->m, e->name);
	if (mac) {
		int depth = en ? en->depth + 1 : 1;
		if (depth > C_MAX_EXPANSION)
			return cl_fail(l, at, "macro %s expands into itself (more than %d expansions deep)", e->name,
			            C_MAX_EXPANSION);
		if (e->n_args != mac->n_params)
			return cl_fail(l, at, "macro %s takes %d argument%s, given %d", e->name, mac->n_params,
			            mac->n_params == 1 ? "" : "s", e->n_args);
		env inner = { mac, e->args, en, depth, at };
		*out = cl_imm(value_int(0));
		if (mac->expr)
			return cl_value(l, mac->expr, &inner, out);
		if (!as_stmt)
			return cl_fail(l, at, "macro %s is a statement, used here as a value", e->name);
		return lower_stmt(l, mac->body, &inner);
	}
	bool known;
	int errors = l->ctx.d->errors;
	if (lower_primitive(l, e, en, out, &known))
		return true;
	if (known || l->ctx.d->errors != errors)
		return false;
	/* herd's words end the message: the kernel's judgelitmus.sh and
	 * cmplitmushist.sh find the name after ": Unknown macro " */
	if (!l->m)
		return cl_fail(l, at, "unknown macro '%s': C tests take their primitives from a macro file, "
		            "and none was given (-macros linux-kernel.def, or -conf linux-kernel.cfg) nor "
		            "found (weft's own kernel-primitives.def, on the model search path); "
		            "herd7: Unknown macro %s (User error)", e->name, e->name);
	/* herd's C11 forms without _explicit are its c11.def's macros */
	const char *c11 = !strncmp(e->name, "atomic_", 7) ? "; herd's C11 macros, atomic_load, atomic_store, "
	                  "atomic_fetch_add, ..., are in its c11.def: -macros c11.def" : "";
	return cl_fail(l, at, "unknown macro '%s' (not in %s%s; herd7: Unknown macro %s (User error))", e->name,
		    l->m->file, c11, e->name);
}

bool cl_value(lower *l, const c_ex *e, const env *en, operand *out)
{
	cl_resolve(&e, &en);
	srcloc at = cl_where(en, e->loc);
	switch (e->kind) {
	case CE_NUM:
		*out = cl_imm(value_int(e->num));
		return true;
	case CE_NAME:
		if (c11_is_memory_order(e->name))
			return cl_fail(l, at, "%s is a memory order: herd's C reads it only as an argument of "
			               "atomic_load_explicit, atomic_store_explicit, atomic_thread_fence, ...",
			               e->name);
		/* herd's C lets a body use a register it never declares (the
		 * init block may set it: `1:r2=b`); it starts at 0 */
		*out = cl_reg(arch_reg(&l->ctx, e->name));
		return true;
	case CE_UNARY: {
		operand a;
		if (!strcmp(e->op, "&"))
			return cl_fail(l, at, "unsupported: taking an address with '&'");
		if (!cl_value(l, e->a, en, &a))
			return false;
		if (!strcmp(e->op, "*")) {
			/* a plain read, no tag */
			int r = cl_temp_reg(l);
			cl_access(l, OP_LOAD, a, 0, 0)->dst = r;
			*out = cl_reg(r);
			return true;
		}
		if (!strcmp(e->op, "-"))
			return cl_alu(l, ALU_SUB, cl_imm(value_int(0)), a, at, out);
		if (!strcmp(e->op, "!"))
			return cl_alu(l, ALU_EQ, a, cl_imm(value_int(0)), at, out);
		return cl_alu(l, ALU_XOR, a, cl_imm(value_int(-1)), at, out);
	}
	case CE_BINARY: {
		operand a, b;
		return cl_value(l, e->a, en, &a) && cl_value(l, e->b, en, &b) &&
		       apply_operator(l, e->op, a, b, at, out);
	}
	case CE_CALL:
		return lower_call(l, e, en, out, false);
	case CE_OPER:
		return cl_fail(l, at, "an operator '%s' where a value is expected", e->op);
	}
	return false;
}

/* ---- statements ---------------------------------------------------------------------------- */

/* A name a statement assigns: a register of the thread (a local is made
 * by its declaration; herd's C also lets a body assign a parameter). */
static bool assigned_reg(lower *l, const c_ex *lhs, const env *en, int *r)
{
	cl_resolve(&lhs, &en);
	if (lhs->kind != CE_NAME)
		return cl_fail(l, cl_where(en, lhs->loc), "cannot assign to this expression");
	*r = arch_reg(&l->ctx, lhs->name);   /* undeclared: as herd, a register */
	return true;
}

void cl_mov(lower *l, int dst, operand v)
{
	op *o = arch_add_op(&l->ctx, OP_ALU);
	o->alu = ALU_MOV;
	o->dst = dst;
	o->a = v;
}

op *cl_branch(lower *l, enum branch_cond c, operand tested)
{
	op *o = arch_add_op(&l->ctx, OP_BRANCH);
	o->cond = c;
	o->a = c == BR_ALWAYS ? (operand){ OPND_NONE, -1, { -1, 0 } } : tested;
	return o;
}

void cl_set_target(lower *l, int op_index)
{
	thread *th = l->ctx.th;
	th->ops[op_index].target = th->n_ops;
	free(th->ops[op_index].label);
	th->ops[op_index].label = xasprintf("@%d", th->n_ops);
}

/* A statement's own text and place: in a macro body, the call's. */
static void stmt_instr(lower *l, const c_st *s, const env *en)
{
	if (en)
		begin_instr(l, l->stmt_text, en->call);
	else
		begin_instr(l, s->text, s->loc);
}

/* ---- herd's statements (prog.h: herd_stmt) ------------------------------------ */

static int hs_open(lower *l, enum herd_stmt_kind k)
{
	thread *th = l->ctx.th;
	GROW(th->hstmts, l->cap_hs, (size_t)th->n_hstmts + 1);
	GROW(l->hs_up, l->cap_up, (size_t)th->n_hstmts + 1);
	int i = th->n_hstmts++;
	th->hstmts[i] = (herd_stmt){ k, th->n_ops, th->n_ops, -1, -1, 0, 1 };
	l->hs_up[i] = l->hs_cur;
	if (l->hs_cur >= 0)
		th->hstmts[l->hs_cur].n_kids++;
	l->hs_cur = i;
	return i;
}

static void hs_close(lower *l, int i)
{
	thread *th = l->ctx.th;
	th->hstmts[i].end_op = th->n_ops;
	th->hstmts[i].n_nodes = th->n_hstmts - i;
	l->hs_cur = l->hs_up[i];
}

/* What statement s is for herd, if one at all: a declaration without a
 * value is none in the body itself (herd's parser drops it there), and
 * a declaration of several names is one statement per name (weft's
 * parser makes it a block at the declaration's own place). */
static bool herd_stmt_kind_of(const lower *l, const c_st *s, enum herd_stmt_kind *k)
{
	switch (s->kind) {
	case CS_BLOCK:
		*k = HS_LIST;
		return !(s->n > 0 && s->kids[0]->kind == CS_DECL && s->kids[0]->loc.line == s->loc.line &&
		         s->kids[0]->loc.col == s->loc.col);
	case CS_DECL:
		*k = HS_SIMPLE;
		return s->e || l->hs_cur != 0;
	case CS_IF:
		*k = HS_IF;
		return true;
	case CS_WHILE:
		*k = HS_WHILE;
		return true;
	default:
		*k = HS_SIMPLE;
		return true;
	}
}

/* The herd statement an if or a while being lowered records its test
 * and branch in, or NULL inside a macro's body. */
static herd_stmt *hs_here(lower *l, const env *en)
{
	return en || l->hs_cur < 0 ? NULL : &l->ctx.th->hstmts[l->hs_cur];
}

/* herd's C while (CSem): test the condition; when it holds, run the body
 * and the loop again, one unrolling deeper; a path whose condition holds
 * once more than -unroll allows is cut there (herd's "too far").  Lowered
 * with the test at the bottom, so that every run of the body follows a
 * backward jump, which the thread interpreter counts against -unroll:
 *
 *     goto test          opens the ctrl scope (ACC_CTRL_SCOPE)
 *   top:  body
 *   test: cond; if cond goto top
 *         join           closes it (ACC_CTRL_JOIN)
 *
 * As herd nests each iteration inside the previous one's branch, a test's
 * reads control the rest of the loop (later tests included), and none of
 * them controls what follows the loop. */
static bool lower_while(lower *l, const c_st *s, const env *en)
{
	if (!en) {
		l->stmt_text = s->text;
		l->stmt_loc = s->loc;
	}
	stmt_instr(l, s, en);
	int to_test = l->ctx.th->n_ops;
	cl_branch(l, BR_ALWAYS, (operand){ OPND_NONE, -1, { -1, 0 } })->flags = ACC_CTRL_SCOPE;
	end_instr(l);
	int top = l->ctx.th->n_ops;
	if (!lower_stmt(l, s->then, en))
		return false;
	end_instr(l);
	stmt_instr(l, s, en);
	cl_set_target(l, to_test);
	int test = l->ctx.th->n_ops;
	operand c;
	if (!cl_value(l, s->e, en, &c))
		return false;
	int back = l->ctx.th->n_ops;
	cl_branch(l, BR_NE, c);
	thread *th = l->ctx.th;
	herd_stmt *hs = hs_here(l, en);
	if (hs) {
		hs->test_op = test;
		hs->branch_op = back;
	}
	th->ops[back].target = top;
	/* herd's warning names the loop it cut: "While" */
	th->ops[back].label = xstrdup("While");
	end_instr(l);
	begin_instr(l, "end of while", s->loc);
	int join = th->n_ops;
	cl_branch(l, BR_ALWAYS, c)->flags = ACC_CTRL_JOIN;
	end_instr(l);
	cl_set_target(l, join);
	return true;
}

static bool lower_stmt_ops(lower *l, const c_st *s, const env *en);

/* A statement, recorded as herd's statement around its ops (a macro's
 * body is part of the statement that calls it). */
static bool lower_stmt(lower *l, const c_st *s, const env *en)
{
	enum herd_stmt_kind k;
	if (en || !herd_stmt_kind_of(l, s, &k))
		return lower_stmt_ops(l, s, en);
	int i = hs_open(l, k);
	bool ok = lower_stmt_ops(l, s, en);
	hs_close(l, i);
	return ok;
}

static bool lower_stmt_ops(lower *l, const c_st *s, const env *en)
{
	switch (s->kind) {
	case CS_BLOCK:
		for (int i = 0; i < s->n; i++)
			if (!lower_stmt(l, s->kids[i], en))
				return false;
		return true;
	case CS_DECL: {
		if (!en) {
			l->stmt_text = s->text;
			l->stmt_loc = s->loc;
		}
		int r = arch_reg(&l->ctx, s->name);
		if (!s->e)
			return true;
		stmt_instr(l, s, en);
		operand v;
		if (!cl_value(l, s->e, en, &v))
			return false;
		cl_mov(l, r, v);
		return true;
	}
	case CS_ASSIGN:
	case CS_EXPR: {
		if (!en) {
			l->stmt_text = s->text;
			l->stmt_loc = s->loc;
		}
		const c_ex *e = s->e;
		const env *ee = en;
		cl_resolve(&e, &ee);
		if (s->kind == CS_EXPR && e->kind == CE_CALL) {
			const c_macro *mac = c11_is_keyword(e->name) ? NULL : c_macro_find(l->m, e->name);
			if (mac && mac->body) {
				operand ignored;
				return lower_call(l, e, ee, &ignored, true);
			}
		}
		stmt_instr(l, s, en);
		operand v;
		if (s->kind == CS_EXPR)
			return e->kind == CE_CALL ? lower_call(l, e, ee, &v, true) : cl_value(l, e, ee, &v);
		const c_ex *lhs = s->lhs;
		const env *le = en;
		cl_resolve(&lhs, &le);
		if (lhs->kind == CE_UNARY && !strcmp(lhs->op, "*")) {
			/* a plain write */
			operand a;
			if (!cl_value(l, lhs->a, le, &a) || !cl_value(l, s->e, en, &v))
				return false;
			cl_access(l, OP_STORE, a, 0, 0)->a = v;
			return true;
		}
		if (lhs->kind != CE_NAME)
			return cl_fail(l, cl_where(en, lhs->loc), "cannot assign to this expression");
		int r = -1;
		if (!assigned_reg(l, lhs, le, &r) || !cl_value(l, s->e, en, &v))
			return false;
		cl_mov(l, r, v);
		return true;
	}
	case CS_IF: {
		if (!en) {
			l->stmt_text = s->text;
			l->stmt_loc = s->loc;
		}
		stmt_instr(l, s, en);
		int test = l->ctx.th->n_ops;
		operand c;
		if (!cl_value(l, s->e, en, &c))
			return false;
		/* herd's C: the condition's reads control the events of the
		 * branches, not those after the if (the join ends the scope) */
		int to_else = l->ctx.th->n_ops;
		cl_branch(l, BR_EQ, c)->flags = ACC_CTRL_SCOPE;
		herd_stmt *hs = hs_here(l, en);
		if (hs) {
			hs->test_op = test;
			hs->branch_op = to_else;
		}
		end_instr(l);
		if (!lower_stmt(l, s->then, en))
			return false;
		int to_end = -1;
		if (s->els) {
			begin_instr(l, "else", s->els->loc);
			to_end = l->ctx.th->n_ops;
			cl_branch(l, BR_ALWAYS, c);
			end_instr(l);
			cl_set_target(l, to_else);
			if (!lower_stmt(l, s->els, en))
				return false;
		}
		end_instr(l);
		begin_instr(l, "end of if", s->loc);
		cl_set_target(l, to_end >= 0 ? to_end : to_else);
		int join = l->ctx.th->n_ops;
		cl_branch(l, BR_ALWAYS, c)->flags = ACC_CTRL_JOIN;
		end_instr(l);
		cl_set_target(l, join);
		return true;
	}
	case CS_WHILE:
		return lower_while(l, s, en);
	}
	return false;
}

bool c_lower_thread(litmus_test *t, const c_func *f, const c_macros *m, diag *d)
{
	lower l;
	memset(&l, 0, sizeof l);
	l.ctx.test = t;
	l.ctx.th = &t->threads[f->proc];
	l.ctx.d = d;
	l.ctx.instr = -1;
	l.ctx.loc = f->loc;
	l.m = m;
	l.hs_cur = -1;
	l.fused_instr = -1;
	for (int i = 0; i < f->n_params; i++) {
		int loc = arch_loc(&l.ctx, f->params[i]);
		int r = arch_reg(&l.ctx, f->params[i]);
		l.ctx.th->regs[r].init = value_addr(loc);
	}
	int errors = d->errors;
	bool ok = lower_stmt(&l, f->body, NULL);
	end_instr(&l);
	free(l.hs_up);
	return ok && d->errors == errors;
}
