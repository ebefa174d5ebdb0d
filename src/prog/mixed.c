/* mixed.c — herd7's -variant mixed as a rewrite of the test (prog.h's
 * mixed_split): every location cut into cells of the test's granule, every
 * access into one access per granule, so that the engines, which know one
 * event per access and one location per event, run herd's mixed-size
 * semantics unchanged.  herd builds the same events (eventsMonad.ml's
 * Mixed: one event per granule, least significant first, grouped as one
 * single-copy-atomic access) and pairs rf and co per granule; the joins
 * and cuts of values here are its recompose and explode. */
#include <stdlib.h>
#include <string.h>

#include "prog.h"

/* The size herd gives a location of declared type `type`: an integer
 * type's, 8 for anything else (a pointer). */
static int type_bytes(const char *type)
{
	int_type ty;
	return int_type_of(type, &ty) ? ty.bytes : 8;
}

static bool is_access(const op *o)
{
	return (o->kind == OP_LOAD || o->kind == OP_STORE || o->kind == OP_STCOND) && o->size > 0 &&
	       !(o->flags & ACC_IFETCH);
}

/* herd's granule (runTest.ml): the sizes of the typed locations of the
 * init block and of the accesses; half the one size if there is one,
 * else the smallest. */
static int granule_of(const litmus_test *t)
{
	unsigned sizes = 0;   /* bit k: 2^k bytes */
	for (int i = 0; i < t->n_init_entries; i++)
		if (t->init_entries[i].thread == INIT_MEMORY)
			sizes |= (unsigned)type_bytes(t->init_entries[i].pointer ? "*" : t->init_entries[i].type);
	for (int i = 0; i < t->n_threads; i++)
		for (int k = 0; k < t->threads[i].n_ops; k++)
			if (is_access(&t->threads[i].ops[k]))
				sizes |= (unsigned)t->threads[i].ops[k].size;
	if (!sizes)
		return 1;
	unsigned low = sizes & (~sizes + 1);
	if (sizes == low)
		return low > 1 ? (int)(low / 2) : 1;
	return (int)low;
}

static uint64_t granule_mask(int g)
{
	return g >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * g)) - 1;
}

/* Cut every location (not an array, a code place or a PTE) wider than
 * the granule into cells of it: cell 0 is the location itself, cell k
 * the location "x+<k*g>" holding the k-th granule of its initial value. */
static bool split_locations(litmus_test *t, int g, diag *d)
{
	srcloc at = { t->file, 0, 0 };
	int n = t->n_locs;
	for (int l = 0; l < n; l++) {
		location *x = &t->locs[l];
		if (x->code_thread >= 0 || x->pte_of >= 0 || x->pte >= 0)
			continue;
		if (x->array >= 0) {
			const location *a = &t->locs[x->array];
			if (a->cell_bytes == g)
				continue;
			diag_error(d, at, "array '%s' has cells of %d bytes, and herd's -variant mixed runs this test "
			           "with events of %d: weft does not split arrays", a->name, a->cell_bytes, g);
			return false;
		}
		int bytes = type_bytes(x->type);
		if (bytes < g)
			continue;
		value v = x->init;
		if (bytes == g) {
			/* one granule: an array of one cell, so that an access
			 * past it is said to be one */
			x->array = l;
			x->n_cells = x->granules = 1;
			x->cell_bytes = g;
			continue;
		}
		if (v.loc != -1) {
			diag_error(d, at, "location '%s' holds an address, which herd's -variant mixed would cut into "
			           "granules of %d bytes: not supported", x->name, g);
			return false;
		}
		int cells = bytes / g;
		t->locs = xrealloc(t->locs, (size_t)(t->n_locs + cells - 1) * sizeof *t->locs);
		x = &t->locs[l];
		x->array = l;
		x->cell = 0;
		x->n_cells = cells;
		x->cell_bytes = g;
		x->granules = cells;
		x->init = value_int((int64_t)((uint64_t)v.num & granule_mask(g)));
		for (int k = 1; k < cells; k++) {
			location *c = &t->locs[t->n_locs++];
			memset(c, 0, sizeof *c);
			c->name = xasprintf("%s+%d", t->locs[l].name, k * g);
			c->init = value_int((int64_t)(((uint64_t)v.num >> (8 * g * k)) & granule_mask(g)));
			c->array = l;
			c->cell = k;
			c->pte_of = c->pte = c->code_thread = -1;
		}
	}
	return true;
}

/* The ops that replace access o of a thread, appended to *out; new
 * registers (the granules' values) from *next_reg on. */
typedef struct op_list {
	int n;
	size_t cap;
	op *v;
} op_list;

static op *push(op_list *l, op o)
{
	GROW(l->v, l->cap, (size_t)l->n + 1);
	l->v[l->n] = o;
	return &l->v[l->n++];
}

static op alu(int instr, enum alu_op k, int dst, operand a, operand b)
{
	op o;
	memset(&o, 0, sizeof o);
	o.kind = OP_ALU;
	o.instr = instr;
	o.alu = k;
	o.dst = dst;
	o.a = a;
	o.b = b;
	o.addr.base.kind = o.addr.index.kind = OPND_NONE;
	o.addr.base.reg = o.addr.index.reg = -1;
	return o;
}

static operand reg_opnd(int r)
{
	operand x;
	memset(&x, 0, sizeof x);
	x.kind = OPND_REG;
	x.reg = r;
	return x;
}

static operand int_opnd(int64_t k)
{
	operand x;
	memset(&x, 0, sizeof x);
	x.kind = OPND_IMM;
	x.reg = -1;
	x.imm = value_int(k);
	return x;
}

/* A load of n granules: each into its own register, then joined into the
 * destination, least significant first, and extended as the access
 * extends (enum access_ext). */
static void split_load(op_list *out, const op *o, int g, int n, int regs)
{
	int first = out->n;
	for (int k = 0; k < n; k++) {
		op p = *o;
		p.label = NULL;
		p.dst = regs + k;
		p.size = g;
		p.ext = ACCESS_EXT_NONE;
		p.addr.offset += (int64_t)k * g;
		p.access_back = out->n - first;
		p.access_size = o->size;
		push(out, p);
	}
	if (o->dst < 0)
		return;
	push(out, alu(o->instr, ALU_MOV, o->dst, reg_opnd(regs + n - 1), int_opnd(0)));
	for (int k = n - 2; k >= 0; k--) {
		push(out, alu(o->instr, ALU_SHL, o->dst, reg_opnd(o->dst), int_opnd(8 * g)));
		push(out, alu(o->instr, ALU_OR, o->dst, reg_opnd(o->dst), reg_opnd(regs + k)));
	}
	if (o->ext == ACCESS_EXT_SIGN)
		push(out, alu(o->instr, ALU_SEXT, o->dst, reg_opnd(o->dst), int_opnd(o->size)));
}

/* A store of n granules: its value cut into them, each written by its own
 * store; a store-conditional decides for all (the first granule's), the
 * others written only when it stores (no branch event: one instruction). */
static void split_store(op_list *out, const op *o, int g, int n, int regs)
{
	for (int k = 0; k < n; k++) {
		operand v = o->a;
		if (k > 0) {
			push(out, alu(o->instr, ALU_SHRU, regs + k, v, int_opnd(8 * g * k)));
			v = reg_opnd(regs + k);
		}
		push(out, alu(o->instr, ALU_AND, regs + k, v, int_opnd((int64_t)granule_mask(g))));
	}
	int first = -1, skip = -1;
	for (int k = 0; k < n; k++) {
		op p = *o;
		p.label = NULL;
		p.a = reg_opnd(regs + k);
		p.size = g;
		p.ext = ACCESS_EXT_NONE;
		p.addr.offset += (int64_t)k * g;
		if (k > 0 && o->kind == OP_STCOND) {
			p.kind = OP_STORE;
			p.dst = -1;
			p.b.kind = OPND_NONE;
		}
		if (first < 0)
			first = out->n;
		p.access_back = out->n - first;
		p.access_size = o->size;
		push(out, p);
		if (k == 0 && o->kind == OP_STCOND && n > 1) {
			/* weft's flag: 1 when it stored; 0 skips the rest */
			op b = alu(o->instr, ALU_MOV, -1, reg_opnd(o->dst), int_opnd(0));
			b.kind = OP_BRANCH;
			b.cond = BR_EQ;
			b.flags = ACC_SILENT;
			skip = out->n;
			push(out, b);
		}
	}
	if (skip >= 0)
		out->v[skip].target = out->n;   /* an index in `out`: remapped by the caller */
}

/* herd pairs a store-exclusive only with a load-exclusive of its own
 * size (a reservation is of the bytes the load read: AArch64.mixed's
 * M007, litmus-tests-riscv's LR-SC-mixed1): one whose thread has no
 * load-exclusive of its size never stores, and is its failure, its flag
 * 0 (weft's flag: 1 when it stores). */
static void fail_unpaired_stconds(thread *th)
{
	for (int i = 0; i < th->n_ops; i++) {
		op *o = &th->ops[i];
		if (o->kind != OP_STCOND)
			continue;
		bool paired = false;
		for (int k = 0; k < th->n_ops && !paired; k++)
			paired = th->ops[k].kind == OP_LOAD && (th->ops[k].flags & ACC_EXCL) &&
			         th->ops[k].size == o->size;
		if (paired)
			continue;
		op f = alu(o->instr, ALU_MOV, o->dst, int_opnd(0), int_opnd(0));
		f.label = o->label;
		*o = f;
	}
}

/* Whether the AMO whose read is op k computes the value it writes from
 * the value read (amoadd, amoor, ...; not amoswap): an ALU op of its
 * instruction before its write sets the register the write stores. */
static bool amo_computes(const thread *th, int k)
{
	for (int j = k + 1; j < th->n_ops && th->ops[j].instr == th->ops[k].instr; j++) {
		const op *w = &th->ops[j];
		if (w->kind != OP_STORE)
			continue;
		for (int a = k + 1; a < j; a++)
			if (th->ops[a].kind == OP_ALU && w->a.kind == OPND_REG && th->ops[a].dst == w->a.reg)
				return true;
		return false;
	}
	return false;
}

/* herd 7.58's single-event AMOs (RISC-V's, ACC_FUSED) under -variant
 * mixed: its mixed-size reads-from never gives their read a value, so
 * an AMO that computes what it writes leaves an equation herd cannot
 * solve and herd drops every execution that runs it (litmus-tests-
 * riscv's LB-mixed1: no state); its read becomes an ACC_DROP branch
 * taken.  amoswap's read stays a variable herd prints (0:x1=S3) and its
 * write is read by no load: not supported. */
static bool drop_amos(thread *th, diag *d)
{
	for (int k = 0; k < th->n_ops; k++) {
		op *o = &th->ops[k];
		if (!(o->flags & ACC_FUSED) || o->kind != OP_LOAD)
			continue;
		if (!amo_computes(th, k)) {
			diag_error(d, th->instrs[o->instr].loc, "amoswap under herd's -variant mixed (herd leaves "
			           "the value it reads unsolved and its write unread): not supported");
			return false;
		}
		op drop = alu(o->instr, ALU_MOV, -1, int_opnd(0), int_opnd(0));
		drop.kind = OP_BRANCH;
		drop.cond = BR_EQ;
		drop.flags = ACC_SILENT | ACC_DROP;
		drop.target = k + 1;
		drop.label = o->label;
		*o = drop;
	}
	return true;
}

static bool split_thread(litmus_test *t, thread *th, int g, diag *d)
{
	int max_n = 0;
	for (int i = 0; i < th->n_ops; i++)
		if (is_access(&th->ops[i]) && th->ops[i].size / g > max_n)
			max_n = th->ops[i].size / g;
	if (max_n <= 1)
		return true;
	int regs = th->n_regs;
	th->regs = xrealloc(th->regs, (size_t)(th->n_regs + max_n) * sizeof *th->regs);
	for (int k = 0; k < max_n; k++) {
		reg *r = &th->regs[th->n_regs++];
		memset(r, 0, sizeof *r);
		r->name = xasprintf("#granule%d", k);
		r->init = value_int(0);
	}
	int *at = xmalloc(((size_t)th->n_ops + 1) * sizeof *at);
	op_list out = { 0 };
	bool ok = true;
	for (int i = 0; i < th->n_ops && ok; i++) {
		const op *o = &th->ops[i];
		at[i] = out.n;
		int n = is_access(o) ? o->size / g : 1;
		if (n <= 1) {
			push(&out, *o);
			continue;
		}
		if (o->size % g != 0) {
			diag_error(d, th->instrs[o->instr].loc, "an access of %d bytes is no whole number of herd's "
			           "%d-byte granules", o->size, g);
			ok = false;
		} else if (o->kind == OP_LOAD) {
			split_load(&out, o, g, n, regs);
		} else {
			int from = out.n;
			split_store(&out, o, g, n, regs);
			/* the store-conditional's skip: its target is in `out` */
			for (int k = from; k < out.n; k++)
				if (out.v[k].kind == OP_BRANCH)
					out.v[k].target = -1 - out.v[k].target;
		}
		free(th->ops[i].label);
		th->ops[i].label = NULL;
	}
	at[th->n_ops] = out.n;
	if (ok) {
		for (int k = 0; k < out.n; k++) {
			op *o = &out.v[k];
			if (o->kind == OP_BRANCH)
				o->target = o->target < 0 ? -1 - o->target : at[o->target];
		}
		for (int i = 0; i < th->n_instrs; i++) {
			instr *in = &th->instrs[i];
			int end = in->first_op + in->n_ops;
			in->first_op = at[in->first_op];
			in->n_ops = at[end] - in->first_op;
		}
		for (int i = 0; i < th->n_labels; i++)
			th->labels[i].op = at[th->labels[i].op];
		free(th->ops);
		th->ops = out.v;
		th->n_ops = out.n;
	} else {
		free(out.v);
	}
	free(at);
	(void)t;
	return ok;
}

bool mixed_split(litmus_test *t, diag *d)
{
	srcloc at = { t->file, 0, 0 };
	if (t->vmsa || t->ifetch) {
		diag_error(d, at, "herd's -variant mixed with %s: not supported", t->vmsa ? "vmsa" : "ifetch");
		return false;
	}
	for (int i = 0; i < t->n_threads; i++)
		if (t->threads[i].n_hstmts > 0) {
			diag_error(d, at, "herd's -variant mixed on a C test: not supported");
			return false;
		}
	int g = granule_of(t);
	for (int i = 0; i < t->n_threads; i++)
		if (!drop_amos(&t->threads[i], d))
			return false;
	t->mixed_granule = g;
	if (!split_locations(t, g, d))
		return false;
	for (int i = 0; i < t->n_threads; i++) {
		fail_unpaired_stconds(&t->threads[i]);
		if (!split_thread(t, &t->threads[i], g, d))
			return false;
	}
	return true;
}

void mixed_finals(const litmus_test *t, value *finals)
{
	int g = t->mixed_granule;
	for (int l = 0; l < t->n_locs; l++) {
		const location *x = &t->locs[l];
		if (x->granules <= 1)
			continue;
		uint64_t v = 0;
		bool ints = true;
		for (int c = 0; c < t->n_locs; c++) {
			const location *y = &t->locs[c];
			if (y->array != l || (c != l && y->cell == 0))
				continue;
			ints = ints && finals[c].loc == -1;
			v |= ((uint64_t)finals[c].num & granule_mask(g)) << (8 * g * y->cell);
		}
		if (ints)
			finals[l] = value_int((int64_t)v);
	}
}
