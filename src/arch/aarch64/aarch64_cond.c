/* aarch64_cond.c — AArch64's condition codes on the flags, as herd7 runs
 * them: the flags register holds PSTATE.NZCV (prog.h's ALU_NZCV_*, herd's
 * encoding N 8, Z 4, C 2, V 1; 0 before any instruction sets it, as every
 * register), and a condition is an ALU_NZCV_COND of it, computed into a
 * scratch register that the branch (or CSEL's choice) then tests. */
#include "aarch64.h"

static const char *const cond_names[] = {
	[NZCV_EQ] = "EQ", [NZCV_NE] = "NE", [NZCV_CS] = "CS", [NZCV_CC] = "CC", [NZCV_MI] = "MI",
	[NZCV_PL] = "PL", [NZCV_VS] = "VS", [NZCV_VC] = "VC", [NZCV_HI] = "HI", [NZCV_LS] = "LS",
	[NZCV_GE] = "GE", [NZCV_LT] = "LT", [NZCV_GT] = "GT", [NZCV_LE] = "LE", [NZCV_AL] = "AL",
};

bool a64_cond(const char *name, enum nzcv_cond *cond)
{
	for (size_t i = 0; i < sizeof cond_names / sizeof cond_names[0]; i++)
		if (arch_word_eq(name, cond_names[i])) {
			*cond = (enum nzcv_cond)i;
			return true;
		}
	return false;
}

const char *a64_cond_name(enum nzcv_cond cond) { return cond_names[cond]; }

/* herd's inverse_cond (lib/AArch64Base.ml), which CSET, CSETM and CINC
 * are made with: its GE inverts to GT, not LT, and herd runs and prints
 * what it computes. */
enum nzcv_cond a64_cond_inverse(enum nzcv_cond cond)
{
	static const enum nzcv_cond inverse[] = {
		[NZCV_EQ] = NZCV_NE, [NZCV_NE] = NZCV_EQ, [NZCV_CS] = NZCV_CC, [NZCV_CC] = NZCV_CS,
		[NZCV_MI] = NZCV_PL, [NZCV_PL] = NZCV_MI, [NZCV_VS] = NZCV_VC, [NZCV_VC] = NZCV_VS,
		[NZCV_HI] = NZCV_LS, [NZCV_LS] = NZCV_HI, [NZCV_GE] = NZCV_GT, [NZCV_LT] = NZCV_GE,
		[NZCV_GT] = NZCV_LE, [NZCV_LE] = NZCV_GT, [NZCV_AL] = NZCV_AL,
	};
	return inverse[cond];
}

int a64_cond_value(arch_ctx *ctx, enum nzcv_cond cond)
{
	int t = a64_scratch(ctx, 1);
	arch_emit_alu(ctx, ALU_NZCV_COND, t, arch_opnd_reg(a64_flags(ctx)), arch_opnd_int(cond));
	return t;
}
