/* arch_ppc.c — POWER (PPC) instruction syntax: registers, operand readers,
 * and the lookup of a mnemonic in the instruction families (ppc.h).
 *
 * Syntax is herd's: `lwz r1,0(r2)` (also written `lwz r1,0,r2`), registers
 * r0..r31 (any case), herd's symbolic registers `%name`, condition-register
 * fields cr0..cr7.  Each instruction becomes ops (prog.h):
 *
 *   - compares write a CR field register ("cr0" unless another is named)
 *     with ALU_CMP (ALU_CMPU for the logical ones), i.e. -1/0/1 for
 *     LT/EQ/GT, and conditional branches test that register against 0
 *     (beq = EQ, blt = LT, ...);
 *   - record forms (`add.`, `andi.`, `rlwinm.`) also set cr0 = CMP(result, 0);
 *   - `stwcx. rS,rA,rB` is OP_STCOND into cr0 (1 stored, 0 failed)
 *     followed by cr0 = STCR(cr0): EQ alone (0) after a successful
 *     store, every bit cleared after a failed one, as herd's flags_res:
 *     then beq and blt and bgt fall through, bne, bge and ble jump, and
 *     mfcr reads 0.
 *   - lwarx/stwcx. accesses carry ACC_EXCL; sync (hwsync), lwsync, isync,
 *     eieio are fences of the sets SYNC, LWSYNC, ISYNC, EIEIO.
 *   - narrow loads zero-extend what they read (lbz, lhz, lwz: a word -1
 *     reads as 4294967295, as in herd), algebraic ones sign-extend (lha,
 *     lwa); registers and memory hold 64-bit values.
 *
 * Register 0 as the rA operand reads as the constant 0 where the ISA says
 * so and herd agrees: the indexed forms (lwzx, stwx, lwarx, stwcx., ...)
 * and addi/subi/addis (`addi rD,0,v` is li).  In the displacement forms
 * (`lwz rD,d(r0)`) herd reads the register; we do the same.
 */
#include <string.h>

#include "ppc.h"
static const char *const ppc_fences[] = { "SYNC", "LWSYNC", "ISYNC", "EIEIO", NULL };

static const char *const gpr_names[32] = {
	"r0",  "r1",  "r2",  "r3",  "r4",  "r5",  "r6",  "r7",
	"r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15",
	"r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23",
	"r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31",
};
static const char *const cr_names[8] = { "cr0", "cr1", "cr2", "cr3", "cr4", "cr5", "cr6", "cr7" };

/* General purpose register number, or -1 (symbolic registers: 32). */
static int gpr_index(const char *name)
{
	if ((name[0] == 'r' || name[0] == 'R'))
		return arch_reg_number(name + 1, 31);
	return arch_symbolic_reg(name) ? 32 : -1;
}

static int cr_index(const char *name)
{
	if ((name[0] == 'c' || name[0] == 'C') && (name[1] == 'r' || name[1] == 'R'))
		return arch_reg_number(name + 2, 7);
	return -1;
}

/* Symbolic registers have no static spelling: the name itself is returned
 * (it is already canonical), so the caller must copy it before the string
 * it passed goes away — arch_reg() does. */
static const char *ppc_canonical_reg(const char *name)
{
	int n = gpr_index(name);
	if (n == 32)
		return name;
	if (n >= 0)
		return gpr_names[n];
	n = cr_index(name);
	return n >= 0 ? cr_names[n] : NULL;
}

/* ---- operand readers --------------------------------------------------- */

/* A general purpose register; *is_r0 (may be NULL) tells whether it is r0,
 * which reads as 0 in some operand positions. */
bool ppc_read_gpr(arch_cursor *c, int *reg, bool *is_r0)
{
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) == 0)
		return arch_malformed(c, at, "expected a register");
	int n = gpr_index(w);
	if (n < 0)
		return arch_malformed(c, at, "'%s' is not a general purpose register", w);
	if (is_r0)
		*is_r0 = n == 0;
	*reg = arch_reg(c->ctx, ppc_canonical_reg(w));
	return true;
}

bool ppc_read_comma(arch_cursor *c) { return arch_expect(c, ','); }

bool ppc_read_imm(arch_cursor *c, value *v) { return arch_read_immediate(c, v); }

bool ppc_read_small(arch_cursor *c, int max, int *out)
{
	int64_t n;
	bool ok;
	arch_cursor_skip_space(c);
	const char *at = c->p;
	if (!arch_cursor_number(c, &n, &ok))
		return ok ? arch_malformed(c, at, "expected a number from 0 to %d", max) : false;
	if (n < 0 || n > max)
		return arch_malformed(c, at, "%lld is out of range (0 to %d)", (long long)n, max);
	*out = (int)n;
	return true;
}

static bool read_displacement(arch_cursor *c, int64_t *d)
{
	bool ok;
	if (arch_cursor_number(c, d, &ok))
		return true;
	return ok ? arch_malformed(c, NULL, "expected a displacement") : false;
}

bool ppc_read_dform_addr(arch_cursor *c, int64_t *d, int *ra, bool *ra_is_r0)
{
	if (!read_displacement(c, d))
		return false;
	if (arch_cursor_accept(c, '(')) {
		if (!ppc_read_gpr(c, ra, ra_is_r0))
			return false;
		return arch_expect(c, ')');
	}
	if (!arch_cursor_accept(c, ','))
		return arch_malformed(c, NULL, "expected '(' or ',' after the displacement");
	return ppc_read_gpr(c, ra, ra_is_r0);
}

bool ppc_read_xform_addr(arch_cursor *c, address *addr, int *ra, bool *ra_is_r0)
{
	int rb;
	if (!ppc_read_gpr(c, ra, ra_is_r0) || !ppc_read_comma(c) || !ppc_read_gpr(c, &rb, NULL))
		return false;
	*addr = arch_address(*ra_is_r0 ? arch_opnd_none() : arch_opnd_reg(*ra), arch_opnd_reg(rb), 0);
	return true;
}

bool ppc_read_opt_crfield(arch_cursor *c, int *cr)
{
	arch_cursor_skip_space(c);
	const char *save = c->p;
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) > 0) {
		int n = cr_index(w);
		if (n >= 0) {
			*cr = arch_flags_reg(c->ctx, cr_names[n], FLAGS_CLEAR_PPC);
			return ppc_read_comma(c);
		}
	}
	c->p = save;
	*cr = arch_flags_reg(c->ctx, "cr0", FLAGS_CLEAR_PPC);
	return true;
}

bool ppc_read_label(arch_cursor *c, char *label)
{
	const char *at;
	if (arch_cursor_word(c, label, &at) == 0 || label[0] == '%')
		return arch_malformed(c, at, "expected a label");
	return true;
}

void ppc_set_cr0_from(arch_ctx *ctx, int rd)
{
	arch_emit_alu(ctx, ALU_CMP, ppc_cr0(ctx), arch_opnd_reg(rd), arch_opnd_int(0));
}

int ppc_cr0(arch_ctx *ctx) { return arch_flags_reg(ctx, "cr0", FLAGS_CLEAR_PPC); }

int ppc_scratch(arch_ctx *ctx, int k)
{
	return arch_reg(ctx, k == 0 ? ARCH_SCRATCH_REG : ARCH_SCRATCH_REG "2");
}

/* ---- the lookup ----------------------------------------------------------- */

static const ppc_family *const families[] = { &ppc_alu_family, &ppc_mem_family, &ppc_flow_family };

static const ppc_form *find_form(const char *mnemonic, const ppc_family **fam)
{
	for (size_t k = 0; k < sizeof families / sizeof families[0]; k++)
		for (size_t i = 0; i < families[k]->n_forms; i++)
			if (arch_word_eq(families[k]->forms[i].mnemonic, mnemonic)) {
				*fam = families[k];
				return &families[k]->forms[i];
			}
	return NULL;
}

static bool ppc_translate(arch_ctx *ctx, const char *text)
{
	arch_cursor c;
	arch_cursor_init(&c, ctx, "PPC", text);
	char mnemonic[ARCH_WORD_MAX];
	const ppc_form *f = NULL;
	const ppc_family *fam = NULL;
	if (arch_cursor_word(&c, mnemonic, NULL) > 0 && mnemonic[0] != '%')
		f = find_form(mnemonic, &fam);
	if (!f)
		return arch_unsupported(&c);
	/* A mnemonic runs into its operands only through a blank. */
	if (*c.p != '\0' && *c.p != ' ' && *c.p != '\t')
		return arch_unsupported(&c);
	return fam->translate(&c, f);
}

/* the model probe (arch.h) */
static const char ppc_probe[] =
	"PPC probe\n"
	"{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }\n"
	" P0           | P1              ;\n"
	" li r1,1      | li r1,1         ;\n"
	" stw r1,0(r2) | stw r1,0(r2)    ;\n"
	" sync         | lwsync          ;\n"
	" lwz r3,0(r4) | lwarx r3,r0,r4  ;\n"
	"              | stwcx. r1,r0,r4 ;\n"
	"exists (0:r3=0 /\\ 1:r3=0)\n";

const arch arch_ppc = {
	.name = "PPC",
	.default_model = "power",
	.fences = ppc_fences,
	.canonical_reg = ppc_canonical_reg,
	.herd_print = ppc_herd_print,
	.reg_rank = ppc_reg_rank,
	.translate = ppc_translate,
	.probe = ppc_probe,
	.fence_file = "ppcfences.cat",
};
