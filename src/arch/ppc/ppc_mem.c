/* ppc_mem.c — PPC loads and stores (see ppc.h): byte, halfword, word and
 * doubleword; the displacement forms `lwz rD,d(rA)`, the indexed forms
 * `lwzx rD,rA,rB` (rA = r0 reads as 0), their update forms (rA gets the
 * effective address, as herd's lwzu/stwu: not into r0, and for loads not
 * into the loaded register), the algebraic loads (lha, lwa: sign-extended),
 * and the reservations lwarx/ldarx with stwcx./stdcx.
 *
 * The reservation is herd's: lwarx sets RES and RESADDR, stwcx. may store
 * only when RES is set and RESADDR is its address, and clears RES either
 * way (so a stwcx. with no lwarx before it, or after one of another
 * address, always fails).  weft keeps both in one hidden register, #res
 * (the reserved address, 0 for none).  A stwcx. that straight-line code
 * reaches only from a lwarx of the same address, with nothing between that
 * changes its address registers, is reserved whatever happens: it carries
 * no check, so that rsmc, which does not model reservations, keeps it.
 *
 * A narrow plain load zero-extends what it reads (herd reads `lwz` of a
 * word holding -1 as 4294967295); an algebraic one sign-extends.  Stores
 * write the register's value.
 */
#include "ppc.h"

enum mem_shape {
	M_LOAD_D,    /* lwz rD,d(rA)                                         */
	M_LOAD_X,    /* lwzx rD,rA,rB                                        */
	M_STORE_D,   /* stw rS,d(rA)                                         */
	M_STORE_X,   /* stwx rS,rA,rB                                        */
	M_LARX,      /* lwarx rD,rA,rB                                       */
	M_STCX,      /* stwcx. rS,rA,rB                                      */
};

/* herd's RES and RESADDR in one: the reserved address, 0 for none.  No
 * condition can name it (no PPC register is spelt with '#'). */
static int reservation(arch_ctx *ctx) { return arch_reg(ctx, "#res"); }

static bool same_operand(operand a, operand b)
{
	if (a.kind != b.kind)
		return false;
	if (a.kind == OPND_REG)
		return a.reg == b.reg;
	return a.kind == OPND_NONE || value_eq(a.imm, b.imm);
}

static bool writes_reg(const op *o, operand r)
{
	return r.kind == OPND_REG && o->dst == r.reg &&
	       (o->kind == OP_ALU || o->kind == OP_LOAD || o->kind == OP_STCOND);
}

/* Whether the stwcx. about to be emitted at `addr` is reached only from a
 * lwarx of the same address (see the top of the file): walking back over
 * ops that neither branch, nor are a label's target, nor change addr's
 * registers, nor are another store-conditional. */
static bool surely_reserved(const arch_ctx *ctx, address addr)
{
	const thread *th = ctx->th;
	for (int i = th->n_ops - 1; i >= 0; i--) {
		for (int l = 0; l < th->n_labels; l++)
			if (th->labels[l].op == i + 1)
				return false;
		const op *o = &th->ops[i];
		if (o->kind == OP_BRANCH || o->kind == OP_STCOND)
			return false;
		if (o->kind == OP_LOAD && (o->flags & ACC_EXCL))
			return same_operand(o->addr.base, addr.base) && same_operand(o->addr.index, addr.index) &&
			       o->addr.offset == addr.offset;
		if (writes_reg(o, addr.base) || writes_reg(o, addr.index))
			return false;
	}
	return false;
}

#define UPD PPC_V_UPDATE
#define SGN PPC_V_SIGNED

static const ppc_form mem_forms[] = {
	{ "lbz", M_LOAD_D, 0, 1, 0, NULL },
	{ "lhz", M_LOAD_D, 0, 2, 0, NULL },
	{ "lwz", M_LOAD_D, 0, 4, 0, NULL },
	{ "ld", M_LOAD_D, 0, 8, 0, NULL },
	{ "lha", M_LOAD_D, 0, 2, SGN, NULL },
	{ "lwa", M_LOAD_D, 0, 4, SGN, NULL },
	{ "lbzu", M_LOAD_D, 0, 1, UPD, NULL },
	{ "lhzu", M_LOAD_D, 0, 2, UPD, NULL },
	{ "lwzu", M_LOAD_D, 0, 4, UPD, NULL },
	{ "ldu", M_LOAD_D, 0, 8, UPD, NULL },
	{ "lhau", M_LOAD_D, 0, 2, SGN | UPD, NULL },
	{ "lbzx", M_LOAD_X, 0, 1, 0, NULL },
	{ "lhzx", M_LOAD_X, 0, 2, 0, NULL },
	{ "lwzx", M_LOAD_X, 0, 4, 0, NULL },
	{ "ldx", M_LOAD_X, 0, 8, 0, NULL },
	{ "lhax", M_LOAD_X, 0, 2, SGN, NULL },
	{ "lwax", M_LOAD_X, 0, 4, SGN, NULL },
	{ "lbzux", M_LOAD_X, 0, 1, UPD, NULL },
	{ "lhzux", M_LOAD_X, 0, 2, UPD, NULL },
	{ "lwzux", M_LOAD_X, 0, 4, UPD, NULL },
	{ "ldux", M_LOAD_X, 0, 8, UPD, NULL },
	{ "lhaux", M_LOAD_X, 0, 2, SGN | UPD, NULL },
	{ "lwaux", M_LOAD_X, 0, 4, SGN | UPD, NULL },
	{ "stb", M_STORE_D, 0, 1, 0, NULL },
	{ "sth", M_STORE_D, 0, 2, 0, NULL },
	{ "stw", M_STORE_D, 0, 4, 0, NULL },
	{ "std", M_STORE_D, 0, 8, 0, NULL },
	{ "stbu", M_STORE_D, 0, 1, UPD, NULL },
	{ "sthu", M_STORE_D, 0, 2, UPD, NULL },
	{ "stwu", M_STORE_D, 0, 4, UPD, NULL },
	{ "stdu", M_STORE_D, 0, 8, UPD, NULL },
	{ "stbx", M_STORE_X, 0, 1, 0, NULL },
	{ "sthx", M_STORE_X, 0, 2, 0, NULL },
	{ "stwx", M_STORE_X, 0, 4, 0, NULL },
	{ "stdx", M_STORE_X, 0, 8, 0, NULL },
	{ "stbux", M_STORE_X, 0, 1, UPD, NULL },
	{ "sthux", M_STORE_X, 0, 2, UPD, NULL },
	{ "stwux", M_STORE_X, 0, 4, UPD, NULL },
	{ "stdux", M_STORE_X, 0, 8, UPD, NULL },
	{ "lwarx", M_LARX, 0, 4, 0, NULL },
	{ "ldarx", M_LARX, 0, 8, 0, NULL },
	{ "stwcx.", M_STCX, 0, 4, 0, NULL },
	{ "stdcx.", M_STCX, 0, 8, 0, NULL },
};

/* What a load of `size` bytes leaves in rD: zero- or sign-extended. */
static void emit_extend(arch_ctx *ctx, const ppc_form *f, int rd)
{
	if (f->size < 8)
		arch_emit_alu(ctx, (f->variant & SGN) ? ALU_SEXT : ALU_ZEXT, rd, arch_opnd_reg(rd),
			      arch_opnd_int(f->size));
}

static bool translate_mem(arch_cursor *c, const ppc_form *f)
{
	arch_ctx *ctx = c->ctx;
	int rd, ra, cr;
	bool ra_is_r0;
	int64_t d;
	address addr;
	bool update = (f->variant & UPD) != 0;

	if (!ppc_read_gpr(c, &rd, NULL) || !ppc_read_comma(c))
		return false;
	switch (f->shape) {
	case M_LOAD_D:
		if (!ppc_read_dform_addr(c, &d, &ra, &ra_is_r0) || !arch_expect_end(c))
			return false;
		arch_emit_load(ctx, rd, arch_address(arch_opnd_reg(ra), arch_opnd_none(), d), f->size, 0);
		emit_extend(ctx, f, rd);
		/* The update happens only where herd does it: not into r0 and
		 * not when it would overwrite the loaded value (an invalid
		 * form in the ISA). */
		if (update && !ra_is_r0 && ra != rd)
			arch_emit_alu(ctx, ALU_ADD, ra, arch_opnd_reg(ra), arch_opnd_int(d));
		return true;
	case M_LOAD_X: {
		if (!ppc_read_xform_addr(c, &addr, &ra, &ra_is_r0) || !arch_expect_end(c))
			return false;
		/* the effective address, before the load may overwrite rB */
		bool upd = update && !ra_is_r0 && ra != rd;
		int t = upd ? ppc_scratch(ctx, 0) : -1;
		if (upd)
			arch_emit_alu(ctx, ALU_ADD, t, addr.base, addr.index);
		arch_emit_load(ctx, rd, addr, f->size, 0);
		emit_extend(ctx, f, rd);
		if (upd)
			arch_emit_alu(ctx, ALU_MOV, ra, arch_opnd_reg(t), arch_opnd_none());
		return true;
	}
	case M_STORE_D:
		if (!ppc_read_dform_addr(c, &d, &ra, &ra_is_r0) || !arch_expect_end(c))
			return false;
		arch_emit_store(ctx, arch_address(arch_opnd_reg(ra), arch_opnd_none(), d), arch_opnd_reg(rd),
				f->size, 0);
		if (update && !ra_is_r0)
			arch_emit_alu(ctx, ALU_ADD, ra, arch_opnd_reg(ra), arch_opnd_int(d));
		return true;
	case M_STORE_X:
		if (!ppc_read_xform_addr(c, &addr, &ra, &ra_is_r0) || !arch_expect_end(c))
			return false;
		arch_emit_store(ctx, addr, arch_opnd_reg(rd), f->size, 0);
		if (update && !ra_is_r0)
			arch_emit_alu(ctx, ALU_ADD, ra, arch_opnd_reg(ra), addr.index);
		return true;
	case M_LARX:
		if (!ppc_read_xform_addr(c, &addr, &ra, &ra_is_r0) || !arch_expect_end(c))
			return false;
		/* the reservation first: the load may overwrite rB */
		if (addr.base.kind == OPND_NONE)
			arch_emit_alu(ctx, ALU_MOV, reservation(ctx), addr.index, arch_opnd_none());
		else
			arch_emit_alu(ctx, ALU_ADD, reservation(ctx), addr.base, addr.index);
		arch_emit_load(ctx, rd, addr, f->size, ACC_EXCL);
		emit_extend(ctx, f, rd);
		return true;
	case M_STCX:
		if (!ppc_read_xform_addr(c, &addr, &ra, &ra_is_r0) || !arch_expect_end(c))
			return false;
		cr = ppc_cr0(ctx);
		bool reserved = surely_reserved(ctx, addr);
		arch_emit_stcond(ctx, cr, addr, arch_opnd_reg(rd), f->size, ACC_EXCL);
		if (!reserved)
			ctx->th->ops[ctx->th->n_ops - 1].b = arch_opnd_reg(reservation(ctx));
		/* herd's flags_res: EQ alone when stored, no bit at all when
		 * failed (so blt/bgt fall through, bge/ble/bne jump, mfcr 0). */
		arch_emit_alu(ctx, ALU_STCR, cr, arch_opnd_reg(cr), arch_opnd_none());
		arch_emit_alu(ctx, ALU_MOV, reservation(ctx), arch_opnd_int(0), arch_opnd_none());
		return true;
	}
	return arch_unsupported(c);
}

const ppc_family ppc_mem_family = { mem_forms, sizeof mem_forms / sizeof mem_forms[0], translate_mem };
