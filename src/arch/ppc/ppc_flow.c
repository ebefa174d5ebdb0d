/* ppc_flow.c — PPC control flow and everything without data (see ppc.h):
 * branches, fences, nop, mfcr, dcbf.
 *
 *   b L, beq/bne/blt/bge/bgt/ble/bnl/bng [crN,]L  branches (herd tests cr0
 *                              only; weft also takes another field)
 *   blr                        the end of the thread: herd runs it with
 *                              -variant telechat, where a return from the
 *                              test's code is an exit
 *   sync (hwsync), lwsync, isync, eieio   fences SYNC, LWSYNC, ISYNC, EIEIO
 *   nop, dcbf rA,rB            nothing (no event, as in herd)
 *   mfcr rD                    rD = cr0's bits: LT 8, GT 4, EQ 2 (herd
 *                              reads field 0 only)
 */
#include "ppc.h"

enum flow_shape {
	F_BRANCH,    /* b L / beq [crN,]L                                    */
	F_EXIT,      /* blr                                                  */
	F_FENCE,     /* sync, lwsync, isync, eieio                           */
	F_NOP,       /* nop                                                  */
	F_DCBF,      /* dcbf rA,rB                                           */
	F_MFCR,      /* mfcr rD                                              */
};

static const ppc_form flow_forms[] = {
	{ "b", F_BRANCH, BR_ALWAYS, 0, 0, NULL },
	{ "beq", F_BRANCH, BR_EQ, 0, 0, NULL },
	{ "bne", F_BRANCH, BR_NE, 0, 0, NULL },
	{ "blt", F_BRANCH, BR_LT, 0, 0, NULL },
	{ "bge", F_BRANCH, BR_GE, 0, 0, NULL },
	{ "bnl", F_BRANCH, BR_GE, 0, 0, NULL },
	{ "bgt", F_BRANCH, BR_GT, 0, 0, NULL },
	{ "ble", F_BRANCH, BR_LE, 0, 0, NULL },
	{ "bng", F_BRANCH, BR_LE, 0, 0, NULL },
	{ "blr", F_EXIT, BR_ALWAYS, 0, 0, NULL },
	{ "sync", F_FENCE, 0, 0, 0, "SYNC" },
	{ "hwsync", F_FENCE, 0, 0, 0, "SYNC" },
	{ "lwsync", F_FENCE, 0, 0, 0, "LWSYNC" },
	{ "isync", F_FENCE, 0, 0, 0, "ISYNC" },
	{ "eieio", F_FENCE, 0, 0, 0, "EIEIO" },
	{ "nop", F_NOP, 0, 0, 0, NULL },
	{ "dcbf", F_DCBF, 0, 0, 0, NULL },
	{ "mfcr", F_MFCR, 0, 0, 0, NULL },
};

static bool translate_flow(arch_cursor *c, const ppc_form *f)
{
	arch_ctx *ctx = c->ctx;
	int cr, ra, rb;
	char label[ARCH_WORD_MAX];

	switch (f->shape) {
	case F_BRANCH:
		if (f->op == BR_ALWAYS) {
			if (!ppc_read_label(c, label) || !arch_expect_end(c))
				return false;
			arch_add_branch(ctx, BR_ALWAYS, arch_opnd_none(), label);
			return true;
		}
		if (!ppc_read_opt_crfield(c, &cr) || !ppc_read_label(c, label) || !arch_expect_end(c))
			return false;
		arch_add_branch(ctx, (enum branch_cond)f->op, arch_opnd_reg(cr), label);
		return true;
	case F_EXIT:
		if (!arch_expect_end(c))
			return false;
		arch_add_exit(ctx);
		return true;
	case F_FENCE:
		if (!arch_expect_end(c))
			return false;
		arch_emit_fence(ctx, f->fence);
		return true;
	case F_NOP:
		return arch_expect_end(c);
	case F_DCBF:
		/* a cache hint: its registers are read, nothing happens */
		return ppc_read_gpr(c, &ra, NULL) && ppc_read_comma(c) && ppc_read_gpr(c, &rb, NULL) &&
		       arch_expect_end(c);
	case F_MFCR:
		if (!ppc_read_gpr(c, &ra, NULL) || !arch_expect_end(c))
			return false;
		arch_emit_alu(ctx, ALU_CRBITS, ra, arch_opnd_reg(ppc_cr0(ctx)), arch_opnd_none());
		return true;
	}
	return arch_unsupported(c);
}

const ppc_family ppc_flow_family = { flow_forms, sizeof flow_forms / sizeof flow_forms[0], translate_flow };
