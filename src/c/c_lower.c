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

#include "../arch/arch.h"
#include "c_int.h"


/* The bindings of one macro expansion: parameter i is the caller's
 * argument args[i], to be read in the caller's environment `outer`. */
typedef struct env {
	const c_macro *mac;
	c_ex *const *args;
	const struct env *outer;
	int depth;
	srcloc call;   /* where the outermost call is in the test */
} env;

typedef struct lower {
	arch_ctx ctx;
	const c_macros *m;
	int n_temps;
	const char *stmt_text;
	srcloc stmt_loc;
	bool in_stmt;   /* an instruction is open */
	size_t cap_hs;  /* of ctx.th->hstmts                               */
	int *hs_up;     /* per herd statement: the one it is a kid of, -1  */
	size_t cap_up;
	int hs_cur;     /* the herd statement being lowered, -1 before the body */
} lower;

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

static int temp_reg(lower *l)
{
	char name[24];
	snprintf(name, sizeof name, "#%d", l->n_temps++);
	return arch_reg(&l->ctx, name);
}

static bool fail(lower *l, srcloc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static bool fail(lower *l, srcloc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(l->ctx.d, at, fmt, ap);
	va_end(ap);
	return false;
}

/* Where to say an error is: the call in the test for macro bodies. */
static srcloc where(const env *en, srcloc at)
{
	return en ? en->call : at;
}

/* The annotation bit of tag `tag` in test t, added if new. */
static bool annot_bit(lower *l, const char *tag, srcloc at, unsigned *bit)
{
	litmus_test *t = l->ctx.test;
	for (int i = 0; i < t->n_annots; i++)
		if (!strcmp(t->annots[i], tag)) {
			*bit = 1u << i;
			return true;
		}
	if (t->n_annots >= 32)
		return fail(l, at, "more than 32 different tags in one test");
	if (!t->annots)
		t->annots = xcalloc(32, sizeof *t->annots);
	t->annots[t->n_annots] = xstrdup(tag);
	*bit = 1u << t->n_annots++;
	return true;
}

static const char *annot_name(lower *l, unsigned bit)
{
	for (int i = 0; i < l->ctx.test->n_annots; i++)
		if (bit == 1u << i)
			return l->ctx.test->annots[i];
	return NULL;
}

/* ---- expressions --------------------------------------------------------------------- */

static bool lower_value(lower *l, const c_ex *e, const env *en, operand *out);
static bool lower_stmt(lower *l, const c_st *s, const env *en);

/* Follow macro parameters to the tree they stand for. */
static void resolve(const c_ex **e, const env **en)
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

static operand reg_opnd(int r)
{
	operand o = { OPND_REG, r, { -1, 0 } };
	return o;
}

static operand imm_opnd(value v)
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
static bool alu(lower *l, enum alu_op k, operand a, operand b, srcloc at, operand *out)
{
	if (a.kind == OPND_IMM && (b.kind == OPND_IMM || b.kind == OPND_NONE)) {
		value r;
		if (op_alu(k, a.imm, b.kind == OPND_IMM ? b.imm : value_int(0), &r)) {
			*out = imm_opnd(r);
			return true;
		}
		if (k != ALU_MOV)
			return fail(l, at, "this constant expression has no value (division by zero, or "
			            "arithmetic on an address)");
	}
	int d = temp_reg(l);
	op *o = arch_add_op(&l->ctx, OP_ALU);
	o->alu = k;
	o->dst = d;
	o->a = a;
	o->b = b;
	*out = reg_opnd(d);
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
		return alu(l, ALU_XOR, b, imm_opnd(value_int(-1)), at, &nb) && alu(l, ALU_AND, a, nb, at, out);
	}
	if (!strcmp(op, "&&") || !strcmp(op, "||")) {
		/* herd's C evaluates both sides (no short circuit) */
		operand ta, tb, u;
		return alu(l, ALU_NE, a, imm_opnd(value_int(0)), at, &ta) &&
		       alu(l, ALU_NE, b, imm_opnd(value_int(0)), at, &tb) &&
		       alu(l, op[0] == '&' ? ALU_AND : ALU_OR, ta, tb, at, &u) && (*out = u, true);
	}
	if (!binary_alu(op, &k))
		return fail(l, at, "unsupported operator '%s'", op);
	return alu(l, k, a, b, at, out);
}

/* The address an access goes to: `*A` for __load/__store (herd: "Bad
 * __load argument" otherwise), A itself for the others. */
static bool deref_address(lower *l, const c_ex *e, const env *en, const char *prim, operand *out)
{
	const c_ex *x = e;
	const env *xe = en;
	resolve(&x, &xe);
	if (x->kind != CE_UNARY || strcmp(x->op, "*"))
		return fail(l, where(en, e->loc), "bad %s argument: expected '*address'", prim);
	return lower_value(l, x->a, xe, out);
}

static op *access(lower *l, enum op_kind k, operand addr, unsigned annot, unsigned flags)
{
	op *o = arch_add_op(&l->ctx, k);
	o->addr = addr_of(addr);
	o->annot = annot;
	o->flags = flags;
	return o;
}

static bool want_args(lower *l, const c_ex *call, const env *en, int n)
{
	if (call->n_args == n)
		return true;
	return fail(l, where(en, call->loc), "%s takes %d argument%s, given %d", call->name, n, n == 1 ? "" : "s",
	            call->n_args);
}

static bool tag_of(lower *l, const c_ex *call, const env *en, bool needed, unsigned *bit)
{
	*bit = 0;
	if (!call->tag) {
		if (needed)
			return fail(l, where(en, call->loc), "%s needs a tag, as in %s{ONCE}", call->name, call->name);
		return true;
	}
	return annot_bit(l, call->tag, where(en, call->loc), bit);
}

/* An operator argument of __atomic_op (+, -, &, |, ^, &~). */
static bool operator_arg(lower *l, const c_ex *e, const env *en, const char **op)
{
	const c_ex *x = e;
	const env *xe = en;
	resolve(&x, &xe);
	if (x->kind != CE_OPER)
		return fail(l, where(en, e->loc), "expected an operator (+, -, &, |, ^, &~) as the second argument");
	*op = x->op;
	return true;
}

/* A lock event (a fence with a location). */
static void located_event(lower *l, const char *name, operand addr, unsigned annot)
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
	int r = temp_reg(l);
	op *c = arch_add_op(&l->ctx, OP_CHOICE);
	c->dst = r;
	int to_zero = l->ctx.th->n_ops;
	op *b = arch_add_op(&l->ctx, OP_BRANCH);
	b->cond = BR_EQ;
	b->a = reg_opnd(r);
	b->flags = ACC_SILENT;
	if (trylock) {
		located_event(l, "LKR", a, 0);
		split_instr(l);
		located_event(l, "LKW", a, 0);
	} else {
		located_event(l, "RL", a, 0);
	}
	int to_end = l->ctx.th->n_ops;
	op *j = arch_add_op(&l->ctx, OP_BRANCH);
	j->flags = ACC_SILENT;
	l->ctx.th->ops[to_zero].target = l->ctx.th->n_ops;
	l->ctx.th->ops[to_zero].label = xasprintf("@%d", l->ctx.th->n_ops);
	located_event(l, trylock ? "LF" : "RU", a, 0);
	l->ctx.th->ops[to_end].target = l->ctx.th->n_ops;
	l->ctx.th->ops[to_end].label = xasprintf("@%d", l->ctx.th->n_ops);
	*out = reg_opnd(r);
}

/* The read-modify-writes: xchg, the atomic ops, add_unless, cmpxchg. */
static bool lower_rmw(lower *l, const c_ex *e, const env *en, const char *p, unsigned bit, operand *out)
{
	srcloc at = where(en, e->loc);
	operand a, v, w = imm_opnd(value_int(0));
	const char *opname = NULL;
	bool xchg = !strcmp(p, "xchg"), cmpxchg = !strcmp(p, "cmpxchg"), unless = !strcmp(p, "atomic_add_unless");
	int nargs = xchg ? 2 : 3;
	if (!want_args(l, e, en, nargs))
		return false;
	if (!xchg && !cmpxchg && !unless && !operator_arg(l, e->args[1], en, &opname))
		return false;
	if (!lower_value(l, e->args[0], en, &a) || !lower_value(l, e->args[xchg ? 1 : 2], en, &v))
		return false;
	if (cmpxchg || unless) {
		w = v;
		if (!lower_value(l, e->args[1], en, &v))
			return false;
	}
	int r = temp_reg(l);
	op *ld = access(l, OP_LOAD, a, bit, ACC_ATOMIC);
	ld->dst = r;
	operand read = reg_opnd(r), stored = v;
	int skip = -1;
	if (cmpxchg || unless) {
		/* herd's two alternatives: the test decides which one a read
		 * value takes (cmpxchg: it read the old value; add_unless: it
		 * did not read the excluded one) */
		operand c;
		if (!alu(l, cmpxchg ? ALU_NE : ALU_EQ, read, cmpxchg ? v : w, at, &c))
			return false;
		skip = l->ctx.th->n_ops;
		op *b = arch_add_op(&l->ctx, OP_BRANCH);
		b->cond = BR_NE;
		b->a = c;
		b->flags = ACC_SILENT;
		if (cmpxchg)
			stored = w;
		else if (!alu(l, ALU_ADD, read, v, at, &stored))
			return false;
	} else if (!xchg && !apply_operator(l, opname, read, v, at, &stored)) {
		return false;
	}
	split_instr(l);
	op *st = access(l, OP_STORE, a, bit, ACC_ATOMIC);
	st->a = stored;
	if (unless) {
		/* the value: 1 when it wrote, 0 when it read the excluded one */
		int flag = temp_reg(l);
		op *one = arch_add_op(&l->ctx, OP_ALU);
		one->dst = flag;
		one->a = imm_opnd(value_int(1));
		op *j = arch_add_op(&l->ctx, OP_BRANCH);
		j->flags = ACC_SILENT;
		int jump = l->ctx.th->n_ops - 1;
		l->ctx.th->ops[skip].target = l->ctx.th->n_ops;
		l->ctx.th->ops[skip].label = xasprintf("@%d", l->ctx.th->n_ops);
		op *zero = arch_add_op(&l->ctx, OP_ALU);
		zero->dst = flag;
		zero->a = imm_opnd(value_int(0));
		l->ctx.th->ops[jump].target = l->ctx.th->n_ops;
		l->ctx.th->ops[jump].label = xasprintf("@%d", l->ctx.th->n_ops);
		*out = reg_opnd(flag);
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
	*out = imm_opnd(value_int(0));
	const char *n = e->name;
	if (strncmp(n, "__", 2)) {
		*known = false;
		return false;
	}
	const char *p = n + 2;
	unsigned bit;
	operand a, v;
	if (!strcmp(p, "load")) {
		if (!want_args(l, e, en, 1) || !tag_of(l, e, en, false, &bit) ||
		    !deref_address(l, e->args[0], en, n, &a))
			return false;
		int r = temp_reg(l);
		access(l, OP_LOAD, a, bit, 0)->dst = r;
		*out = reg_opnd(r);
		return true;
	}
	if (!strcmp(p, "store")) {
		if (!want_args(l, e, en, 2) || !tag_of(l, e, en, false, &bit) ||
		    !deref_address(l, e->args[0], en, n, &a) || !lower_value(l, e->args[1], en, &v))
			return false;
		access(l, OP_STORE, a, bit, 0)->a = v;
		return true;
	}
	if (!strcmp(p, "fence")) {
		if (!want_args(l, e, en, 0) || !tag_of(l, e, en, true, &bit))
			return false;
		op *o = arch_add_op(&l->ctx, OP_FENCE);
		o->fence = annot_name(l, bit);
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
		if (!want_args(l, e, en, 1) || !lower_value(l, e->args[0], en, &a))
			return false;
		if (p[0] == 'l') {
			located_event(l, "LKR", a, 0);
			split_instr(l);
			located_event(l, "LKW", a, 0);
		} else {
			located_event(l, "UL", a, 0);
		}
		return true;
	}
	if (!strcmp(p, "srcu")) {
		if (!want_args(l, e, en, 1) || !tag_of(l, e, en, true, &bit) || !lower_value(l, e->args[0], en, &a))
			return false;
		located_event(l, annot_name(l, bit), a, bit);
		return true;
	}
	if (!strcmp(p, "trylock") || !strcmp(p, "islocked")) {
		if (!want_args(l, e, en, 1) || !lower_value(l, e->args[0], en, &a))
			return false;
		lower_lock_choice(l, p[0] == 't', a, out);
		return true;
	}
	*known = false;
	return false;
}

static bool lower_call(lower *l, const c_ex *e, const env *en, operand *out, bool as_stmt)
{
	srcloc at = where(en, e->loc);
	const c_macro *mac = c_macro_find(l->m, e->name);
	if (mac) {
		int depth = en ? en->depth + 1 : 1;
		if (depth > C_MAX_EXPANSION)
			return fail(l, at, "macro %s expands into itself (more than %d expansions deep)", e->name,
			            C_MAX_EXPANSION);
		if (e->n_args != mac->n_params)
			return fail(l, at, "macro %s takes %d argument%s, given %d", e->name, mac->n_params,
			            mac->n_params == 1 ? "" : "s", e->n_args);
		env inner = { mac, e->args, en, depth, at };
		*out = imm_opnd(value_int(0));
		if (mac->expr)
			return lower_value(l, mac->expr, &inner, out);
		if (!as_stmt)
			return fail(l, at, "macro %s is a statement, used here as a value", e->name);
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
		return fail(l, at, "unknown macro '%s': C tests take their primitives from a macro file, "
		            "and none was given (-macros linux-kernel.def, or -conf linux-kernel.cfg) nor "
		            "found (weft's own kernel-primitives.def, on the model search path); "
		            "herd7: Unknown macro %s (User error)", e->name, e->name);
	return fail(l, at, "unknown macro '%s' (not in %s; herd7: Unknown macro %s (User error))", e->name,
		    l->m->file, e->name);
}

static bool lower_value(lower *l, const c_ex *e, const env *en, operand *out)
{
	resolve(&e, &en);
	srcloc at = where(en, e->loc);
	switch (e->kind) {
	case CE_NUM:
		*out = imm_opnd(value_int(e->num));
		return true;
	case CE_NAME:
		/* herd's C lets a body use a register it never declares (the
		 * init block may set it: `1:r2=b`); it starts at 0 */
		*out = reg_opnd(arch_reg(&l->ctx, e->name));
		return true;
	case CE_UNARY: {
		operand a;
		if (!strcmp(e->op, "&"))
			return fail(l, at, "unsupported: taking an address with '&'");
		if (!lower_value(l, e->a, en, &a))
			return false;
		if (!strcmp(e->op, "*")) {
			/* a plain read, no tag */
			int r = temp_reg(l);
			access(l, OP_LOAD, a, 0, 0)->dst = r;
			*out = reg_opnd(r);
			return true;
		}
		if (!strcmp(e->op, "-"))
			return alu(l, ALU_SUB, imm_opnd(value_int(0)), a, at, out);
		if (!strcmp(e->op, "!"))
			return alu(l, ALU_EQ, a, imm_opnd(value_int(0)), at, out);
		return alu(l, ALU_XOR, a, imm_opnd(value_int(-1)), at, out);
	}
	case CE_BINARY: {
		operand a, b;
		return lower_value(l, e->a, en, &a) && lower_value(l, e->b, en, &b) &&
		       apply_operator(l, e->op, a, b, at, out);
	}
	case CE_CALL:
		return lower_call(l, e, en, out, false);
	case CE_OPER:
		return fail(l, at, "an operator '%s' where a value is expected", e->op);
	}
	return false;
}

/* ---- statements ---------------------------------------------------------------------------- */

/* A name a statement assigns: a register of the thread (a local is made
 * by its declaration; herd's C also lets a body assign a parameter). */
static bool assigned_reg(lower *l, const c_ex *lhs, const env *en, int *r)
{
	resolve(&lhs, &en);
	if (lhs->kind != CE_NAME)
		return fail(l, where(en, lhs->loc), "cannot assign to this expression");
	*r = arch_reg(&l->ctx, lhs->name);   /* undeclared: as herd, a register */
	return true;
}

static void mov(lower *l, int dst, operand v)
{
	op *o = arch_add_op(&l->ctx, OP_ALU);
	o->alu = ALU_MOV;
	o->dst = dst;
	o->a = v;
}

static op *branch(lower *l, enum branch_cond c, operand tested)
{
	op *o = arch_add_op(&l->ctx, OP_BRANCH);
	o->cond = c;
	o->a = c == BR_ALWAYS ? (operand){ OPND_NONE, -1, { -1, 0 } } : tested;
	return o;
}

static void set_target(lower *l, int op_index)
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
	branch(l, BR_ALWAYS, (operand){ OPND_NONE, -1, { -1, 0 } })->flags = ACC_CTRL_SCOPE;
	end_instr(l);
	int top = l->ctx.th->n_ops;
	if (!lower_stmt(l, s->then, en))
		return false;
	end_instr(l);
	stmt_instr(l, s, en);
	set_target(l, to_test);
	int test = l->ctx.th->n_ops;
	operand c;
	if (!lower_value(l, s->e, en, &c))
		return false;
	int back = l->ctx.th->n_ops;
	branch(l, BR_NE, c);
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
	branch(l, BR_ALWAYS, c)->flags = ACC_CTRL_JOIN;
	end_instr(l);
	set_target(l, join);
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
		if (!lower_value(l, s->e, en, &v))
			return false;
		mov(l, r, v);
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
		resolve(&e, &ee);
		if (s->kind == CS_EXPR && e->kind == CE_CALL) {
			const c_macro *mac = c_macro_find(l->m, e->name);
			if (mac && mac->body) {
				operand ignored;
				return lower_call(l, e, ee, &ignored, true);
			}
		}
		stmt_instr(l, s, en);
		operand v;
		if (s->kind == CS_EXPR)
			return e->kind == CE_CALL ? lower_call(l, e, ee, &v, true) : lower_value(l, e, ee, &v);
		const c_ex *lhs = s->lhs;
		const env *le = en;
		resolve(&lhs, &le);
		if (lhs->kind == CE_UNARY && !strcmp(lhs->op, "*")) {
			/* a plain write */
			operand a;
			if (!lower_value(l, lhs->a, le, &a) || !lower_value(l, s->e, en, &v))
				return false;
			access(l, OP_STORE, a, 0, 0)->a = v;
			return true;
		}
		if (lhs->kind != CE_NAME)
			return fail(l, where(en, lhs->loc), "cannot assign to this expression");
		int r = -1;
		if (!assigned_reg(l, lhs, le, &r) || !lower_value(l, s->e, en, &v))
			return false;
		mov(l, r, v);
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
		if (!lower_value(l, s->e, en, &c))
			return false;
		/* herd's C: the condition's reads control the events of the
		 * branches, not those after the if (the join ends the scope) */
		int to_else = l->ctx.th->n_ops;
		branch(l, BR_EQ, c)->flags = ACC_CTRL_SCOPE;
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
			branch(l, BR_ALWAYS, c);
			end_instr(l);
			set_target(l, to_else);
			if (!lower_stmt(l, s->els, en))
				return false;
		}
		end_instr(l);
		begin_instr(l, "end of if", s->loc);
		set_target(l, to_end >= 0 ? to_end : to_else);
		int join = l->ctx.th->n_ops;
		branch(l, BR_ALWAYS, c)->flags = ACC_CTRL_JOIN;
		end_instr(l);
		set_target(l, join);
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
