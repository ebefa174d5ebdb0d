/* thread_interp.c — what ti_run (thread_run.c) and the policies of the
 * enumerator, rsmc and the session do with an op: operands, register flow
 * with taints, dependencies, event descriptions, the unroll limit.  See
 * thread_interp.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "thread_interp.h"
#include "../arch/arch.h"

/* ---- sorted sets of event indices --------------------------------------------- */

static const idxset empty_set = { 0, 0, NULL };

/* ---- dependency lists ----------------------------------------------------------- */

void dep_list_add(dep_list *l, int from, int to)
{
	/* an event's edges are all added when it is fetched, after those of
	 * every earlier event: a duplicate can only be among the last ones
	 * (a path of n events costs O(n) per edge otherwise, O(n^3) in all) */
	for (int i = l->n - 1; i >= 0 && l->e[i].to == to; i--)
		if (l->e[i].from == from)
			return;
	GROW(l->e, l->cap, (size_t)l->n + 1);
	l->e[l->n].from = from;
	l->e[l->n].to = to;
	l->n++;
}

/* Edges from each of `from` (a set: no duplicates) to `to`: only those of
 * earlier calls for `to` can repeat one, so only they are looked at. */
static void edges_from(dep_list *l, const idxset *from, int to)
{
	int before = l->n, first = l->n;
	while (first > 0 && l->e[first - 1].to == to)
		first--;
	GROW(l->e, l->cap, (size_t)l->n + (size_t)from->n);
	for (int i = 0; i < from->n; i++) {
		bool dup = false;
		for (int k = first; k < before && !dup; k++)
			dup = l->e[k].from == from->v[i];
		if (!dup) {
			l->e[l->n].from = from->v[i];
			l->e[l->n].to = to;
			l->n++;
		}
	}
}

/* ---- states ----------------------------------------------------------------------- */

static int n_reg_slots(const ti_ctx *c)
{
	return c->th->n_regs > 0 ? c->th->n_regs : 1;
}

ti_ctx ti_ctx_of(const litmus_test *t, int ti, int unroll, interp_warned *warned, diag *d, bool herd_deps)
{
	ti_ctx c = { 0 };
	c.t = t;
	c.th = ti >= 0 ? &t->threads[ti] : NULL;
	c.unroll = unroll;
	c.warned = warned;
	c.d = d;
	c.herd_deps = herd_deps && t->arch && t->arch->herd_deps;
	return c;
}

void ti_state_init(ti_state *s, const ti_ctx *c, bool unknowns)
{
	const thread *th = c->th;
	size_t nr = (size_t)n_reg_slots(c);
	memset(s, 0, sizeof *s);
	s->val = xcalloc(nr, sizeof *s->val);
	s->taint = xcalloc(nr, sizeof *s->taint);
	s->var = xcalloc(nr, sizeof *s->var);
	if (unknowns) {
		s->known = xcalloc(nr, sizeof *s->known);
		s->xtaint = xcalloc(nr, sizeof *s->xtaint);
	}
	for (int r = 0; r < th->n_regs; r++) {
		s->val[r] = th->regs[r].init;
		if (s->known)
			s->known[r] = true;
	}
	s->visits = xcalloc((size_t)th->n_ops + 1, sizeof *s->visits);
	if (c->herd_deps)
		s->hd = herd_taint_new(th->n_regs, c->t->n_locs);
}

void ti_state_copy(ti_state *dst, const ti_state *src, const ti_ctx *c)
{
	size_t nr = (size_t)n_reg_slots(c);
	memset(dst, 0, sizeof *dst);
	dst->val = xmalloc(nr * sizeof *dst->val);
	memcpy(dst->val, src->val, nr * sizeof *dst->val);
	dst->taint = xcalloc(nr, sizeof *dst->taint);
	dst->var = xmalloc(nr * sizeof *dst->var);
	memcpy(dst->var, src->var, nr * sizeof *dst->var);
	for (int r = 0; r < c->th->n_regs; r++)
		idxset_copy_into(&dst->taint[r], &src->taint[r]);
	if (src->known) {
		dst->known = xmalloc(nr * sizeof *dst->known);
		memcpy(dst->known, src->known, nr * sizeof *dst->known);
		dst->xtaint = xcalloc(nr, sizeof *dst->xtaint);
		for (int r = 0; r < c->th->n_regs; r++)
			idxset_copy_into(&dst->xtaint[r], &src->xtaint[r]);
	}
	idxset_copy_into(&dst->ctrl, &src->ctrl);
	idxset_copy_into(&dst->xctrl, &src->xctrl);
	if (src->n_scopes) {
		GROW(dst->scopes, dst->cap_scopes, (size_t)src->n_scopes);
		for (int i = 0; i < src->n_scopes; i++) {
			memset(&dst->scopes[i], 0, sizeof dst->scopes[i]);
			idxset_copy_into(&dst->scopes[i], &src->scopes[i]);
		}
	}
	dst->n_scopes = src->n_scopes;
	size_t nv = (size_t)c->th->n_ops + 1;
	dst->visits = xmalloc(nv * sizeof *dst->visits);
	memcpy(dst->visits, src->visits, nv * sizeof *dst->visits);
	dst->instance = src->instance;
	dst->hd = src->hd ? herd_taint_copy(src->hd) : NULL;
}

void ti_state_free(ti_state *s, const ti_ctx *c)
{
	for (int r = 0; r < c->th->n_regs; r++) {
		idxset_free(&s->taint[r]);
		if (s->xtaint)
			idxset_free(&s->xtaint[r]);
	}
	free(s->val);
	free(s->known);
	free(s->taint);
	free(s->var);
	free(s->xtaint);
	idxset_free(&s->ctrl);
	idxset_free(&s->xctrl);
	for (int i = 0; i < s->n_scopes; i++)
		idxset_free(&s->scopes[i]);
	free(s->scopes);
	free(s->visits);
	herd_taint_free(s->hd);
	memset(s, 0, sizeof *s);
}

/* ---- operands ---------------------------------------------------------------------- */

static srcloc op_loc(const ti_ctx *c, const op *o)
{
	if (o->instr >= 0 && o->instr < c->th->n_instrs)
		return c->th->instrs[o->instr].loc;
	srcloc none = { c->t->file, 0, 0 };
	return none;
}

static bool reg_ok(const ti_ctx *c, const op *o, int r)
{
	if (r >= 0 && r < c->th->n_regs)
		return true;
	if (!c->warned->reg) {
		c->warned->reg = true;
		diag_warning(c->d, op_loc(c, o), "instruction uses a register the thread does not have; path dropped");
	}
	return false;
}

void ti_begin_op(const ti_ctx *c, ti_state *s, int pc)
{
	const thread *th = c->th;
	/* a new instruction instance starts at an instruction's first op:
	 * events of one instance are not ordered by po, as in herd */
	const op *o = &th->ops[pc];
	if (o->instr < 0 || o->instr >= th->n_instrs || th->instrs[o->instr].first_op == pc) {
		s->instance++;
		if (s->hd)
			herd_taint_new_instance(s->hd);
	}
}

bool ti_operand(const ti_ctx *c, const ti_state *s, const op *o, const operand *x, value *v, bool *known)
{
	if (known)
		*known = true;
	switch (x->kind) {
	case OPND_NONE:
		*v = value_int(0);
		return true;
	case OPND_IMM:
		*v = x->imm;
		return true;
	case OPND_REG:
		if (!reg_ok(c, o, x->reg))
			return false;
		*v = s->val[x->reg];
		if (known && s->known)
			*known = s->known[x->reg];
		return true;
	}
	return false;
}

static const idxset *taint_of(const ti_state *s, const operand *x)
{
	return x->kind == OPND_REG ? &s->taint[x->reg] : &empty_set;
}

static bool is_var(const ti_state *s, const operand *x) { return x->kind == OPND_REG && s->var[x->reg]; }

static const idxset *xtaint_of(const ti_state *s, const operand *x)
{
	return x->kind == OPND_REG && s->xtaint ? &s->xtaint[x->reg] : &empty_set;
}

/* What herd7 does with an access to `symbol`, an address off a location
 * (x+8; x-4 it spells x+-4), which herd reads as the symbol of a location
 * of its own: a read of it makes a mixed-size test, which it rejects; a
 * write it answers.  In herd's words, appended to b. */
static void herd_off_location(const op *o, const char *symbol, strbuf *b)
{
	if (o->kind == OP_LOAD)
		sb_printf(b, "herd7: mixed-size test rejected (symbol [%s]), consider option -variant mixed "
		          "(User error)", symbol);
	else
		sb_printf(b, "herd7 takes %s as a location of its own; weft does not", symbol);
}

/* An access under -variant mixed that herd's granules (mixed.c) do not
 * fit: not aligned on its size, or past its location's end. */
static void granule_misfit(const ti_ctx *c, const op *o, const char *name, int64_t offset, bool past_end)
{
	diag_error(c->d, op_loc(c, o), "an access at byte offset %" PRId64 " of '%s' %s (herd7: Unaligned or "
	           "out-of-bound access)", offset, name, past_end ? "reaches past its end" : "is not aligned");
}

/* Why an access misses the cells of array `loc` (prog_array_cell): an
 * error, as herd gives none of these a non-mixed-size answer. */
static void array_misfit(const ti_ctx *c, const op *o, int loc, int64_t offset, enum cell_fit fit)
{
	const location *l = &c->t->locs[loc];
	const location *a = l->array >= 0 ? &c->t->locs[l->array] : l;
	if (a->granules) {
		granule_misfit(c, o, a->name, offset, fit != CELL_MISALIGNED);
		return;
	}
	if (fit == CELL_MIXED)
		diag_error(c->d, op_loc(c, o),
		           "an access of %d bytes to a cell of '%s', an array of %d-byte cells, mixes "
		           "sizes: mixed-size tests are not supported", o->size, a->name, a->cell_bytes);
	else if (fit == CELL_MISALIGNED)
		diag_error(c->d, op_loc(c, o),
		           "access at byte offset %" PRId64 " of array '%s' is not at the start of a cell "
		           "(cells of %d bytes)", offset, a->name, a->cell_bytes);
	else if (l != a)
		diag_error(c->d, op_loc(c, o),
		           "access at byte offset %" PRId64 " is outside array '%s' (%d cells of %d bytes)",
		           offset, a->name, a->n_cells, a->cell_bytes);
	else {
		strbuf symbol = { 0 }, herd = { 0 };
		sb_printf(&symbol, "%s+%" PRId64, a->name, offset);
		herd_off_location(o, symbol.s, &herd);
		diag_error(c->d, op_loc(c, o), "access at byte offset %" PRId64
		           " is outside array '%s' (%d cells of %d bytes) (%s)",
		           offset, a->name, a->n_cells, a->cell_bytes, herd.s);
		sb_free(&symbol);
		sb_free(&herd);
	}
}

/* An access through an address no read computed, that is no location's:
 * herd7 rejects the test, in the words it uses for the case (a read that
 * no write can feed, any other access), so the error names the register
 * that holds the address and what it holds. */
static void not_a_location(const ti_ctx *c, const op *o, const address *a, value addr)
{
	strbuf held = { 0 };
	value_print(c->t, addr, &held);
	const operand *r = a->base.kind == OPND_REG ? &a->base : a->index.kind == OPND_REG ? &a->index : NULL;
	bool alone = r && (r == &a->base ? a->index.kind != OPND_REG : a->base.kind != OPND_REG) && !a->offset;
	const char *name = r && r->reg >= 0 && r->reg < c->th->n_regs ? c->th->regs[r->reg].name : NULL;
	strbuf what = { 0 };
	if (alone && name && name[0] != '#' && prog_find_loc(c->t, name) >= 0)
		/* C: a shared variable the thread function does not take */
		sb_printf(&what, "'%s' holds %s ('%s' is a location of the test, but not a parameter of P%d)",
		          name, held.s, name, c->th->id);
	else if (alone && name && name[0] != '#')
		sb_printf(&what, "'%s' holds %s", name, held.s);
	else
		sb_printf(&what, "the address is %s", held.s);
	/* herd spells an address off a location x+N, x+-4 too */
	if (addr.loc >= 0 && addr.loc < c->t->n_locs) {
		sb_reset(&held);
		sb_printf(&held, "%s+%" PRId64, c->t->locs[addr.loc].name, addr.num);
	}
	strbuf herd = { 0 };
	if (o->kind == OP_FENCE)
		sb_printf(&herd, "herd7 takes it as a lock of its own at '[%s]'; weft does not", held.s);
	else if (addr.loc >= 0)
		herd_off_location(o, held.s, &herd);
	else if (o->kind == OP_LOAD)
		sb_printf(&herd, "herd7: Non symbolic location with no initial write: '[%s]'", held.s);
	else
		sb_printf(&herd, "herd7: Non-symbolic memory access found on '[%s]' (User error)", held.s);
	diag_error(c->d, op_loc(c, o), "%s through an address that is not a location: %s (%s)",
	           o->kind == OP_FENCE ? "lock operation" : "memory access", what.s, herd.s);
	sb_free(&held);
	sb_free(&what);
	sb_free(&herd);
}

/* The location accessed through a: -1 when the address is not exactly
 * one location's own address, TI_LOC_UNKNOWN when a register it uses is
 * not known yet.  An address computed from values read from memory is
 * whatever a candidate read: herd drops the candidates where it is no
 * location (C-PPOCA's *r2 with r2 read from init, MOV EBX,[EAX] with EAX
 * read), and so does weft, remembering where (interp_warned.addr_dropped)
 * so that a test left with no execution says why.  Any other address is
 * fixed by the test itself (an undeclared name, a register never set or
 * set to an integer): herd rejects the test, and weft gives an error,
 * once per run, which makes the caller give no answer. */
static int eval_address(const ti_ctx *c, const ti_state *s, const op *o, const address *a)
{
	value b, x;
	bool kb, kx;
	if (!ti_operand(c, s, o, &a->base, &b, &kb) || !ti_operand(c, s, o, &a->index, &x, &kx))
		return -1;
	if (!kb || !kx)
		return TI_LOC_UNKNOWN;
	int loc = -1;
	int64_t num = 0;
	if (b.loc >= 0 && x.loc < 0) {
		loc = b.loc;
		num = (int64_t)((uint64_t)b.num + (uint64_t)x.num + (uint64_t)a->offset);
	} else if (x.loc >= 0 && b.loc < 0) {
		loc = x.loc;
		num = (int64_t)((uint64_t)x.num + (uint64_t)b.num + (uint64_t)a->offset);
	}
	if (loc >= 0 && loc < c->t->n_locs && (num != 0 || c->t->locs[loc].array >= 0)) {
		int cell;
		/* outside -variant mixed, herd asks only that a location be
		 * accessed with one size (access_size_ok), whatever its type:
		 * a W store to an int64_t cell is run */
		enum cell_fit fit = prog_array_cell(c->t, loc, num, c->t->mixed ? o->size : 0, &cell);
		if (fit == CELL_OK)
			return cell;
		if (fit != CELL_NOT_ARRAY) {
			if (!c->warned->addr) {
				c->warned->addr = true;
				array_misfit(c, o, loc, num, fit);
			}
			return -1;
		}
	}
	if (loc < 0 || loc >= c->t->n_locs || num != 0) {
		if (taint_of(s, &a->base)->n || taint_of(s, &a->index)->n) {
			if (!c->warned->addr_dropped.file)
				c->warned->addr_dropped = op_loc(c, o);
			return -1;
		}
		if (!c->warned->addr) {
			c->warned->addr = true;
			value addr = loc >= 0 ? (value){ loc, num }
			                      : value_int((int64_t)((uint64_t)b.num + (uint64_t)x.num + (uint64_t)a->offset));
			not_a_location(c, o, a, addr);
		}
		return -1;
	}
	return loc;
}

void interp_warned_free(interp_warned *w)
{
	free(w->access_size);
	w->access_size = NULL;
}

/* The size of location loc's values: its declared integer type's, 8 for
 * a pointer, as herd sizes a location. */
static int location_bytes(const litmus_test *t, int loc)
{
	int_type ty;
	return int_type_of(t->locs[loc].type, &ty) ? ty.bytes : 8;
}

/* herd's checks of an access's size: under -variant mixed, weft runs an
 * access only as wide as its location (the rest is herd's mixed-size
 * semantics, which weft does not have); otherwise every access to one
 * location has one size, or herd rejects the test ("Illegal mixed-size
 * test").  An error, once per run; false drops the path. */
static bool access_size_ok(const ti_ctx *c, const op *o, int loc)
{
	if (o->size <= 0 || loc < 0 || loc >= c->t->n_locs || (o->flags & ACC_IFETCH))
		return true;
	const location *l = &c->t->locs[loc];
	int want;
	if (c->t->mixed) {
		want = l->array >= 0 ? c->t->locs[l->array].cell_bytes : location_bytes(c->t, loc);
		/* a split access starts at a multiple of its size */
		int at = l->array >= 0 ? l->cell * want : 0;
		if (o->access_size > 0 && o->access_back == 0 && at % o->access_size != 0) {
			if (!c->warned->addr) {
				c->warned->addr = true;
				granule_misfit(c, o, c->t->locs[l->array].name, at, false);
			}
			return false;
		}
	} else {
		if (!c->warned->access_size)
			c->warned->access_size = xcalloc((size_t)c->t->n_locs, sizeof *c->warned->access_size);
		if (!c->warned->access_size[loc])
			c->warned->access_size[loc] = o->size;
		want = c->warned->access_size[loc];
	}
	if (o->size == want)
		return true;
	if (!c->warned->addr) {
		c->warned->addr = true;
		const char *name = l->array >= 0 ? c->t->locs[l->array].name : l->name;
		if (c->t->mixed)
			diag_error(c->d, op_loc(c, o), "an access of %d bytes to '%s', a location of %d, under "
			           "herd's -variant mixed: mixed-size accesses are not supported", o->size, name, want);
		else
			diag_error(c->d, op_loc(c, o), "an access of %d bytes to '%s', which another access "
			           "reaches with %d, mixes sizes (herd7: Illegal mixed-size test (User error)); "
			           "mixed-size tests (herd's -variant mixed) are not supported", o->size, name, want);
	}
	return false;
}

bool ti_access(const ti_ctx *c, const ti_state *s, const op *o, int *loc, value *v, bool *kv)
{
	*loc = eval_address(c, s, o, &o->addr);
	if (*loc == -1 || !access_size_ok(c, o, *loc))
		return false;
	if ((o->kind == OP_STORE || o->kind == OP_STCOND) && !ti_operand(c, s, o, &o->a, v, kv))
		return false;
	if (o->kind == OP_STORE || o->kind == OP_STCOND)
		*v = op_access_value(o, *v);
	if ((o->kind == OP_LOAD || o->kind == OP_STCOND) && o->dst >= 0 && !reg_ok(c, o, o->dst))
		return false;
	return true;
}

bool ti_fence_loc(const ti_ctx *c, const ti_state *s, const op *o, int *loc)
{
	*loc = -1;
	if (!(o->flags & ACC_LOCATED))
		return true;
	*loc = eval_address(c, s, o, &o->addr);
	return *loc != -1;
}

/* ---- register flow ---------------------------------------------------------------- */

bool ti_alu(const ti_ctx *c, ti_state *s, const op *o)
{
	value a, b, r = value_int(0);
	bool ka, kb;
	if (!ti_operand(c, s, o, &o->a, &a, &ka) || !ti_operand(c, s, o, &o->b, &b, &kb))
		return false;
	bool known = ka && kb;
	/* an unknown value (RSMC) is computed again once it is known */
	if (known && !op_alu(o->alu, a, b, &r)) {
		if (!c->warned->arith) {
			c->warned->arith = true;
			diag_warning(c->d, op_loc(c, o), "arithmetic on an address or division by zero; path dropped");
		}
		return false;
	}
	if (o->dst < 0)
		return true;
	if (!reg_ok(c, o, o->dst))
		return false;
	int d = o->dst;
	if (s->hd)
		herd_taint_alu(s->hd, o);
	/* the operands are read before dst is written: dst may be one */
	if (s->xtaint) {
		idxset xu = { 0 };
		idxset_union(&xu, xtaint_of(s, &o->a), xtaint_of(s, &o->b));
		idxset_free(&s->xtaint[d]);
		s->xtaint[d] = xu;
		s->known[d] = known;
	}
	idxset u = { 0 };
	idxset_union(&u, taint_of(s, &o->a), taint_of(s, &o->b));
	idxset_free(&s->taint[d]);
	s->taint[d] = u;
	s->var[d] = is_var(s, &o->a) || is_var(s, &o->b);
	s->val[d] = r;
	return true;
}

void ti_set_loaded(ti_state *s, const op *o, int e, value v, bool known)
{
	int d = o->dst;
	if (d < 0)
		return;
	if (s->hd)
		herd_taint_loaded(s->hd, o, e);
	s->val[d] = known ? op_access_value(o, v) : v;
	s->var[d] = true;
	idxset_set1(&s->taint[d], e);
	if (s->xtaint) {
		s->known[d] = known;
		s->xtaint[d].n = 0;
	}
}

bool ti_stcond_may_succeed(const ti_ctx *c, const ti_state *s, const op *o, int loc, bool *known)
{
	*known = true;
	if (o->b.kind == OPND_NONE)
		return true;
	value v;
	if (!ti_operand(c, s, o, &o->b, &v, known) || !*known)
		return true;
	return v.loc == loc && v.num == 0;
}

void ti_set_stcond_flag(ti_state *s, const op *o, int e, value flag, bool known)
{
	int d = o->dst;
	if (d < 0)
		return;
	if (s->hd)
		herd_taint_clear_reg(s->hd, d);
	s->val[d] = flag;
	s->var[d] = true;
	s->taint[d].n = 0;
	if ((o->flags & ACC_FLAG_DEP) && e >= 0)
		idxset_set1(&s->taint[d], e);
	if (s->xtaint) {
		s->known[d] = known;
		if (known)
			s->xtaint[d].n = 0;
		else
			idxset_set1(&s->xtaint[d], e);
	}
}

/* ---- events and dependencies -------------------------------------------------------- */

path_event ti_event(const ti_state *s, const op *o, int op_index, enum event_kind kind, int loc, value val)
{
	path_event pe;
	memset(&pe, 0, sizeof pe);
	pe.kind = kind;
	pe.op = op_index;
	pe.instr = o->instr;
	pe.instance = s->instance;
	pe.loc = loc >= 0 ? loc : -1;
	pe.val = val;
	pe.copy_of = -1;
	if (kind == EV_READ || kind == EV_WRITE) {
		if (o->flags & ACC_ATOMIC)
			pe.flags |= EVF_ATOMIC;
		if (o->flags & ACC_EXCL)
			pe.flags |= EVF_EXCL;
		if (o->flags & ACC_SCA)
			pe.flags |= EVF_SCA;
		if (o->flags & ACC_NO_RMW)
			pe.flags |= EVF_NO_RMW;
	}
	/* ifetch's fetch and the commit of the instruction fetched are the
	 * same kinds of event as vmsa's translation read and commit */
	if (kind == EV_READ && (o->flags & ACC_IFETCH))
		pe.flags |= EVF_IMP;
	if (kind == EV_BRANCH && (o->flags & ACC_COMMIT))
		pe.flags |= EVF_COMMIT;
	if (kind == EV_FENCE || kind == EV_TLBI)
		pe.fence = o->fence;
	return pe;
}

void ti_record_deps(const ti_state *s, const op *o, int e, const ti_deps *out)
{
	edges_from(out->ctrl, &s->ctrl, e);
	if (out->xdep)
		edges_from(out->xdep, &s->xctrl, e);
	if (o->kind != OP_LOAD && o->kind != OP_STORE && o->kind != OP_STCOND)
		return;
	const operand *from[] = { &o->addr.base, &o->addr.index, &o->a };
	dep_list *to[] = { out->addr, out->addr, out->data };
	int n = o->kind == OP_LOAD ? 2 : 3;
	for (int i = 0; i < n; i++) {
		edges_from(to[i], taint_of(s, from[i]), e);
		if (out->xdep)
			edges_from(out->xdep, xtaint_of(s, from[i]), e);
	}
}

void ti_record_herd_deps(ti_state *s, const op *o, int e, enum event_kind kind, int loc, dep_list *out)
{
	if (s->hd)
		herd_taint_event(s->hd, o, e, kind, loc, out);
}

/* ---- control ------------------------------------------------------------------------ */

/* May we jump from op `from` to op `target`?  A backward jump (target <=
 * from) counts one visit of its target (see ti_branch_follow), against
 * the unroll limit; `known`: a conditional jump on a value computed from
 * constants alone, which herd follows without counting it (mem.ml's
 * add_tgt without check_back) where the architecture says so (arch.h's
 * known_loops), up to ENGINE_MAX_KNOWN_LOOP. */
static bool jump_allowed(const ti_ctx *c, ti_state *s, int from, int target, bool known)
{
	if (target > from || (c->uncounted && c->uncounted[from]))
		return true;
	if (known && c->t->arch && c->t->arch->known_loops)
		return ++s->visits[target] <= ENGINE_MAX_KNOWN_LOOP;
	return ++s->visits[target] <= c->unroll;
}

int ti_indirect_target(const ti_ctx *c, value v)
{
	const litmus_test *t = c->t;
	if (v.loc < 0 || v.loc >= t->n_locs || v.num != 0)
		return -1;
	const location *l = &t->locs[v.loc];
	if (l->code_thread != c->th->id || !l->code_label)
		return -1;
	int n;
	if (sscanf(l->code_label, "#instr:%d", &n) == 1)
		return n >= 0 && n < c->th->n_instrs ? c->th->instrs[n].first_op
		                                     : n == c->th->n_instrs ? c->th->n_ops : -1;
	for (int i = 0; i < c->th->n_labels; i++)
		if (!strcmp(c->th->labels[i].name, l->code_label))
			return c->th->labels[i].op;
	return -1;
}

bool ti_branch_follow(const ti_ctx *c, ti_state *s, const op *o, value v, int *pc)
{
	int from = *pc;
	if (o->cond == BR_INDIRECT) {
		/* run_branch made sure it goes somewhere */
		int target = ti_indirect_target(c, v);
		if (!jump_allowed(c, s, from, target, false))
			return false;
		*pc = target;
		return true;
	}
	if ((o->flags & ACC_CTRL_JOIN) && s->n_scopes > 0) {
		/* the end of a C if: what it controlled is behind */
		idxset_free(&s->ctrl);
		s->ctrl = s->scopes[--s->n_scopes];   /* moved: the slot is free */
	}
	if (o->flags & ACC_CTRL_SCOPE) {
		GROW(s->scopes, s->cap_scopes, (size_t)s->n_scopes + 1);
		idxset *saved = &s->scopes[s->n_scopes++];
		memset(saved, 0, sizeof *saved);
		idxset_copy_into(saved, &s->ctrl);
	}
	if (o->cond == BR_ALWAYS) {
		if (!jump_allowed(c, s, from, o->target, false))
			return false;
		*pc = o->target;
		return true;
	}
	bool known = !is_var(s, &o->a);
	const idxset *tt = taint_of(s, &o->a), *xt = xtaint_of(s, &o->a);
	if (s->hd)
		herd_taint_branch(s->hd, o);
	if (o->flags & ACC_SILENT)
		tt = xt = &empty_set;   /* no control dependency */
	if (tt->n)
		idxset_union(&s->ctrl, &s->ctrl, tt);
	if (xt->n)
		idxset_union(&s->xctrl, &s->xctrl, xt);
	if (!op_branch_taken(o->cond, v)) {
		*pc = from + 1;
		return true;
	}
	if (!jump_allowed(c, s, from, o->target, known))
		return false;
	*pc = o->target;
	return true;
}
