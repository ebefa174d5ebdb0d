/* arch_ppc.c — POWER (PPC) instruction syntax and semantics.
 *
 * Syntax is herd's: `lwz r1,0(r2)` (also written `lwz r1,0,r2`), registers
 * r0..r31 (any case), herd's symbolic registers `%name`, condition-register
 * fields cr0..cr7.  Each instruction becomes ops (prog.h):
 *
 *   - compares write a CR field register ("cr0" unless another is named)
 *     with ALU_CMP, i.e. -1/0/1 for LT/EQ/GT, and conditional branches
 *     test that register against 0 (beq = EQ, blt = LT, ...);
 *   - record forms (`add.`, `andi.`) also set cr0 = CMP(result, 0);
 *   - `stwcx. rS,rA,rB` is OP_STCOND into cr0 (1 stored, 0 failed)
 *     followed by cr0 = CMP(cr0, 1), so cr0 ends up 0 (EQ) after a
 *     successful store and -1 (not EQ) after a failed one: `bne` retries
 *     exactly when the store failed, `beq` is taken when it succeeded.
 *     (The ISA leaves LT and GT clear on failure; with one signed value
 *     weft reads failure as LT.  Only beq/bne are meaningful after stwcx.)
 *   - lwarx/stwcx. accesses carry ACC_EXCL; sync/lwsync/isync/eieio are
 *     fences of the sets SYNC, LWSYNC, ISYNC, EIEIO.
 *
 * Register 0 as the rA operand reads as the constant 0 where the ISA says
 * so and herd agrees: the indexed forms (lwzx, stwx, lwarx, stwcx., ...)
 * and addi/subi (`addi rD,0,v` is li).  In the displacement forms
 * (`lwz rD,d(r0)`) herd reads the register; we do the same.
 */
#include <string.h>

#include "../arch_operand.h"

static const char *const ppc_fences[] = { "SYNC", "LWSYNC", "ISYNC", "EIEIO", NULL };

static const char *const gpr_names[32] = {
	"r0",  "r1",  "r2",  "r3",  "r4",  "r5",  "r6",  "r7",
	"r8",  "r9",  "r10", "r11", "r12", "r13", "r14", "r15",
	"r16", "r17", "r18", "r19", "r20", "r21", "r22", "r23",
	"r24", "r25", "r26", "r27", "r28", "r29", "r30", "r31",
};
static const char *const cr_names[8] = { "cr0", "cr1", "cr2", "cr3", "cr4", "cr5", "cr6", "cr7" };

/* Parse the decimal number after a register prefix: no sign, no leading
 * zero (r01 is not a register name), at most `max`.  -1 when not one. */
static int reg_number(const char *s, int max)
{
	if (s[0] < '0' || s[0] > '9' || (s[0] == '0' && s[1] != '\0'))
		return -1;
	int n = 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		n = n * 10 + (*s - '0');
		if (n > max)
			return -1;
	}
	return n;
}

/* General purpose register number, or -1 (symbolic registers: 32). */
static int gpr_index(const char *name)
{
	if ((name[0] == 'r' || name[0] == 'R'))
		return reg_number(name + 1, 31);
	return arch_symbolic_reg(name) ? 32 : -1;
}

static int cr_index(const char *name)
{
	if ((name[0] == 'c' || name[0] == 'C') && (name[1] == 'r' || name[1] == 'R'))
		return reg_number(name + 2, 7);
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
static bool read_gpr(arch_cursor *c, int *reg, bool *is_r0)
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

static bool read_comma(arch_cursor *c) { return arch_expect(c, ','); }

/* A signed immediate operand: a number or a location's address. */
static bool read_imm(arch_cursor *c, value *v) { return arch_read_immediate(c, v); }

static bool read_displacement(arch_cursor *c, int64_t *d)
{
	bool ok;
	if (arch_cursor_number(c, d, &ok))
		return true;
	return ok ? arch_malformed(c, NULL, "expected a displacement") : false;
}

/* `d(rA)` or herd's alternative `d,rA`. */
static bool read_dform_addr(arch_cursor *c, int64_t *d, int *ra, bool *ra_is_r0)
{
	if (!read_displacement(c, d))
		return false;
	if (arch_cursor_accept(c, '(')) {
		if (!read_gpr(c, ra, ra_is_r0))
			return false;
		return arch_expect(c, ')');
	}
	if (!arch_cursor_accept(c, ','))
		return arch_malformed(c, NULL, "expected '(' or ',' after the displacement");
	return read_gpr(c, ra, ra_is_r0);
}

/* `rA,rB` of the indexed forms: address (rA|0) + rB. */
static bool read_xform_addr(arch_cursor *c, address *addr)
{
	int ra, rb;
	bool ra_is_r0;
	if (!read_gpr(c, &ra, &ra_is_r0) || !read_comma(c) || !read_gpr(c, &rb, NULL))
		return false;
	*addr = arch_address(ra_is_r0 ? arch_opnd_none() : arch_opnd_reg(ra), arch_opnd_reg(rb), 0);
	return true;
}

/* An optional leading `crN,` operand (compares and conditional branches). */
static bool read_opt_crfield(arch_cursor *c, int *cr)
{
	arch_cursor_skip_space(c);
	const char *save = c->p;
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) > 0) {
		int n = cr_index(w);
		if (n >= 0) {
			*cr = arch_flags_reg(c->ctx, cr_names[n], FLAGS_CLEAR_PPC);
			return read_comma(c);
		}
	}
	c->p = save;
	*cr = arch_flags_reg(c->ctx, "cr0", FLAGS_CLEAR_PPC);
	return true;
}

static bool read_label(arch_cursor *c, char *label)
{
	const char *at;
	if (arch_cursor_word(c, label, &at) == 0 || label[0] == '%')
		return arch_malformed(c, at, "expected a label");
	return true;
}

/* ---- instruction forms ----------------------------------------------- */

enum ppc_shape {
	SH_LI,        /* li rD,imm / lis                                   */
	SH_MR,        /* mr rD,rS                                          */
	SH_RRI,       /* addi rD,rA,imm and the other immediate ALU forms  */
	SH_RRR,       /* add rD,rA,rB and the other register ALU forms     */
	SH_NEG,       /* neg rD,rA                                         */
	SH_CMP,       /* cmpw [crN,]rA,rB                                  */
	SH_CMPI,      /* cmpwi [crN,]rA,imm                                */
	SH_LOAD_D,    /* lwz rD,d(rA)                                      */
	SH_LOAD_DU,   /* lwzu rD,d(rA): and rA = rA + d                    */
	SH_LOAD_X,    /* lwzx rD,rA,rB                                     */
	SH_STORE_D,   /* stw rS,d(rA)                                      */
	SH_STORE_DU,  /* stwu rS,d(rA): and rA = rA + d                    */
	SH_STORE_X,   /* stwx rS,rA,rB                                     */
	SH_LARX,      /* lwarx rD,rA,rB                                    */
	SH_STCX,      /* stwcx. rS,rA,rB                                   */
	SH_FENCE,     /* sync, lwsync, isync, eieio                        */
	SH_BRANCH,    /* b L / beq [crN,]L                                 */
};

typedef struct ppc_form {
	const char *mnemonic;
	enum ppc_shape shape;
	int alu;              /* enum alu_op for ALU shapes; enum branch_cond */
	int size;             /* access size in bytes                          */
	unsigned variant;     /* V_* below                                     */
	const char *fence;
} ppc_form;

enum {
	V_RECORD = 1u << 0,   /* "." form: also cr0 = CMP(rD, 0)          */
	V_SWAP = 1u << 1,     /* subf: rD = rB - rA                        */
	V_NEGATE = 1u << 2,   /* subi: the immediate is subtracted         */
	V_SHIFT16 = 1u << 3,  /* lis/addis: immediate << 16                */
	V_R0_ZERO = 1u << 4,  /* addi/subi: rA = r0 reads as 0             */
};

static const ppc_form ppc_forms[] = {
	{ "li", SH_LI, ALU_MOV, 0, 0, NULL },
	{ "lis", SH_LI, ALU_MOV, 0, V_SHIFT16, NULL },
	{ "mr", SH_MR, ALU_MOV, 0, 0, NULL },
	{ "addi", SH_RRI, ALU_ADD, 0, V_R0_ZERO, NULL },
	{ "addis", SH_RRI, ALU_ADD, 0, V_R0_ZERO | V_SHIFT16, NULL },
	{ "subi", SH_RRI, ALU_ADD, 0, V_R0_ZERO | V_NEGATE, NULL },
	{ "ori", SH_RRI, ALU_OR, 0, 0, NULL },
	{ "xori", SH_RRI, ALU_XOR, 0, 0, NULL },
	{ "andi.", SH_RRI, ALU_AND, 0, V_RECORD, NULL },
	{ "mulli", SH_RRI, ALU_MUL, 0, 0, NULL },
	{ "add", SH_RRR, ALU_ADD, 0, 0, NULL },
	{ "add.", SH_RRR, ALU_ADD, 0, V_RECORD, NULL },
	{ "sub", SH_RRR, ALU_SUB, 0, 0, NULL },
	{ "sub.", SH_RRR, ALU_SUB, 0, V_RECORD, NULL },
	{ "subf", SH_RRR, ALU_SUB, 0, V_SWAP, NULL },
	{ "subf.", SH_RRR, ALU_SUB, 0, V_SWAP | V_RECORD, NULL },
	{ "xor", SH_RRR, ALU_XOR, 0, 0, NULL },
	{ "xor.", SH_RRR, ALU_XOR, 0, V_RECORD, NULL },
	{ "or", SH_RRR, ALU_OR, 0, 0, NULL },
	{ "or.", SH_RRR, ALU_OR, 0, V_RECORD, NULL },
	{ "and", SH_RRR, ALU_AND, 0, 0, NULL },
	{ "and.", SH_RRR, ALU_AND, 0, V_RECORD, NULL },
	{ "mullw", SH_RRR, ALU_MUL, 0, 0, NULL },
	{ "mullw.", SH_RRR, ALU_MUL, 0, V_RECORD, NULL },
	{ "mulld", SH_RRR, ALU_MUL, 0, 0, NULL },
	{ "divw", SH_RRR, ALU_DIV, 0, 0, NULL },
	{ "divw.", SH_RRR, ALU_DIV, 0, V_RECORD, NULL },
	{ "divd", SH_RRR, ALU_DIV, 0, 0, NULL },
	{ "neg", SH_NEG, ALU_SUB, 0, 0, NULL },
	{ "neg.", SH_NEG, ALU_SUB, 0, V_RECORD, NULL },
	/* Unsigned compares are read as signed: litmus values are small
	 * non-negative integers, where the two agree. */
	{ "cmpw", SH_CMP, ALU_CMP, 0, 0, NULL },
	{ "cmpd", SH_CMP, ALU_CMP, 0, 0, NULL },
	{ "cmplw", SH_CMP, ALU_CMP, 0, 0, NULL },
	{ "cmpld", SH_CMP, ALU_CMP, 0, 0, NULL },
	{ "cmpwi", SH_CMPI, ALU_CMP, 0, 0, NULL },
	{ "cmpdi", SH_CMPI, ALU_CMP, 0, 0, NULL },
	{ "cmplwi", SH_CMPI, ALU_CMP, 0, 0, NULL },
	{ "cmpldi", SH_CMPI, ALU_CMP, 0, 0, NULL },
	{ "lbz", SH_LOAD_D, 0, 1, 0, NULL },
	{ "lhz", SH_LOAD_D, 0, 2, 0, NULL },
	{ "lwz", SH_LOAD_D, 0, 4, 0, NULL },
	{ "ld", SH_LOAD_D, 0, 8, 0, NULL },
	{ "lwzu", SH_LOAD_DU, 0, 4, 0, NULL },
	{ "ldu", SH_LOAD_DU, 0, 8, 0, NULL },
	{ "lbzx", SH_LOAD_X, 0, 1, 0, NULL },
	{ "lhzx", SH_LOAD_X, 0, 2, 0, NULL },
	{ "lwzx", SH_LOAD_X, 0, 4, 0, NULL },
	{ "ldx", SH_LOAD_X, 0, 8, 0, NULL },
	{ "stb", SH_STORE_D, 0, 1, 0, NULL },
	{ "sth", SH_STORE_D, 0, 2, 0, NULL },
	{ "stw", SH_STORE_D, 0, 4, 0, NULL },
	{ "std", SH_STORE_D, 0, 8, 0, NULL },
	{ "stwu", SH_STORE_DU, 0, 4, 0, NULL },
	{ "stdu", SH_STORE_DU, 0, 8, 0, NULL },
	{ "stbx", SH_STORE_X, 0, 1, 0, NULL },
	{ "sthx", SH_STORE_X, 0, 2, 0, NULL },
	{ "stwx", SH_STORE_X, 0, 4, 0, NULL },
	{ "stdx", SH_STORE_X, 0, 8, 0, NULL },
	{ "lwarx", SH_LARX, 0, 4, 0, NULL },
	{ "ldarx", SH_LARX, 0, 8, 0, NULL },
	{ "stwcx.", SH_STCX, 0, 4, 0, NULL },
	{ "stdcx.", SH_STCX, 0, 8, 0, NULL },
	{ "sync", SH_FENCE, 0, 0, 0, "SYNC" },
	{ "hwsync", SH_FENCE, 0, 0, 0, "SYNC" },
	{ "lwsync", SH_FENCE, 0, 0, 0, "LWSYNC" },
	{ "isync", SH_FENCE, 0, 0, 0, "ISYNC" },
	{ "eieio", SH_FENCE, 0, 0, 0, "EIEIO" },
	{ "b", SH_BRANCH, BR_ALWAYS, 0, 0, NULL },
	{ "beq", SH_BRANCH, BR_EQ, 0, 0, NULL },
	{ "bne", SH_BRANCH, BR_NE, 0, 0, NULL },
	{ "blt", SH_BRANCH, BR_LT, 0, 0, NULL },
	{ "bge", SH_BRANCH, BR_GE, 0, 0, NULL },
	{ "bnl", SH_BRANCH, BR_GE, 0, 0, NULL },
	{ "bgt", SH_BRANCH, BR_GT, 0, 0, NULL },
	{ "ble", SH_BRANCH, BR_LE, 0, 0, NULL },
	{ "bng", SH_BRANCH, BR_LE, 0, 0, NULL },
};

static const ppc_form *find_form(const char *mnemonic)
{
	for (size_t i = 0; i < sizeof ppc_forms / sizeof ppc_forms[0]; i++)
		if (arch_word_eq(ppc_forms[i].mnemonic, mnemonic))
			return &ppc_forms[i];
	return NULL;
}

/* cr0 = CMP(rD, 0): what the record ("dot") forms add. */
static void set_cr0_from(arch_ctx *ctx, int rd)
{
	arch_emit_alu(ctx, ALU_CMP, arch_flags_reg(ctx, "cr0", FLAGS_CLEAR_PPC), arch_opnd_reg(rd), arch_opnd_int(0));
}

static bool shift_immediate(arch_cursor *c, const char *at, value *v)
{
	if (v->loc >= 0)
		return arch_malformed(c, at, "a location address cannot be shifted");
	if (v->num < -32768 || v->num > 65535)
		return arch_malformed(c, at, "immediate out of range for a shifted form");
	v->num *= 65536;
	return true;
}

static bool translate_form(arch_cursor *c, const ppc_form *f)
{
	arch_ctx *ctx = c->ctx;
	int rd, ra, rb, cr;
	bool ra_is_r0;
	int64_t d;
	value imm;
	address addr;
	const char *at;
	char label[ARCH_WORD_MAX];

	switch (f->shape) {
	case SH_LI:
		if (!read_gpr(c, &rd, NULL) || !read_comma(c))
			return false;
		arch_cursor_skip_space(c);
		at = c->p;
		if (!read_imm(c, &imm) || !arch_expect_end(c))
			return false;
		if ((f->variant & V_SHIFT16) && !shift_immediate(c, at, &imm))
			return false;
		arch_emit_alu(ctx, ALU_MOV, rd, arch_opnd_imm(imm), arch_opnd_none());
		return true;
	case SH_MR:
		if (!read_gpr(c, &rd, NULL) || !read_comma(c) || !read_gpr(c, &ra, NULL) ||
		    !arch_expect_end(c))
			return false;
		arch_emit_alu(ctx, ALU_MOV, rd, arch_opnd_reg(ra), arch_opnd_none());
		return true;
	case SH_RRI:
		if (!read_gpr(c, &rd, NULL) || !read_comma(c) || !read_gpr(c, &ra, &ra_is_r0) ||
		    !read_comma(c))
			return false;
		arch_cursor_skip_space(c);
		at = c->p;
		if (!read_imm(c, &imm) || !arch_expect_end(c))
			return false;
		if ((f->variant & V_SHIFT16) && !shift_immediate(c, at, &imm))
			return false;
		if (f->variant & V_NEGATE) {
			if (imm.loc >= 0)
				return arch_malformed(c, at, "a location address cannot be negated");
			imm.num = -imm.num;
		}
		if ((f->variant & V_R0_ZERO) && ra_is_r0)
			arch_emit_alu(ctx, ALU_MOV, rd, arch_opnd_imm(imm), arch_opnd_none());
		else
			arch_emit_alu(ctx, (enum alu_op)f->alu, rd, arch_opnd_reg(ra), arch_opnd_imm(imm));
		if (f->variant & V_RECORD)
			set_cr0_from(ctx, rd);
		return true;
	case SH_RRR:
		if (!read_gpr(c, &rd, NULL) || !read_comma(c) || !read_gpr(c, &ra, NULL) ||
		    !read_comma(c) || !read_gpr(c, &rb, NULL) || !arch_expect_end(c))
			return false;
		if (f->variant & V_SWAP)
			arch_emit_alu(ctx, (enum alu_op)f->alu, rd, arch_opnd_reg(rb), arch_opnd_reg(ra));
		else
			arch_emit_alu(ctx, (enum alu_op)f->alu, rd, arch_opnd_reg(ra), arch_opnd_reg(rb));
		if (f->variant & V_RECORD)
			set_cr0_from(ctx, rd);
		return true;
	case SH_NEG:
		if (!read_gpr(c, &rd, NULL) || !read_comma(c) || !read_gpr(c, &ra, NULL) ||
		    !arch_expect_end(c))
			return false;
		arch_emit_alu(ctx, ALU_SUB, rd, arch_opnd_int(0), arch_opnd_reg(ra));
		if (f->variant & V_RECORD)
			set_cr0_from(ctx, rd);
		return true;
	case SH_CMP:
		if (!read_opt_crfield(c, &cr) || !read_gpr(c, &ra, NULL) || !read_comma(c) ||
		    !read_gpr(c, &rb, NULL) || !arch_expect_end(c))
			return false;
		arch_emit_alu(ctx, ALU_CMP, cr, arch_opnd_reg(ra), arch_opnd_reg(rb));
		return true;
	case SH_CMPI:
		if (!read_opt_crfield(c, &cr) || !read_gpr(c, &ra, NULL) || !read_comma(c) ||
		    !read_imm(c, &imm) || !arch_expect_end(c))
			return false;
		arch_emit_alu(ctx, ALU_CMP, cr, arch_opnd_reg(ra), arch_opnd_imm(imm));
		return true;
	case SH_LOAD_D:
	case SH_LOAD_DU:
		if (!read_gpr(c, &rd, NULL) || !read_comma(c) ||
		    !read_dform_addr(c, &d, &ra, &ra_is_r0) || !arch_expect_end(c))
			return false;
		arch_emit_load(ctx, rd, arch_address(arch_opnd_reg(ra), arch_opnd_none(), d), f->size, 0);
		/* The update happens only where herd does it: not into r0 and
		 * not when it would overwrite the loaded value (an invalid
		 * form in the ISA). */
		if (f->shape == SH_LOAD_DU && !ra_is_r0 && ra != rd)
			arch_emit_alu(ctx, ALU_ADD, ra, arch_opnd_reg(ra), arch_opnd_int(d));
		return true;
	case SH_LOAD_X:
		if (!read_gpr(c, &rd, NULL) || !read_comma(c) || !read_xform_addr(c, &addr) ||
		    !arch_expect_end(c))
			return false;
		arch_emit_load(ctx, rd, addr, f->size, 0);
		return true;
	case SH_STORE_D:
	case SH_STORE_DU:
		if (!read_gpr(c, &rd, NULL) || !read_comma(c) ||
		    !read_dform_addr(c, &d, &ra, &ra_is_r0) || !arch_expect_end(c))
			return false;
		arch_emit_store(ctx, arch_address(arch_opnd_reg(ra), arch_opnd_none(), d),
				arch_opnd_reg(rd), f->size, 0);
		if (f->shape == SH_STORE_DU && !ra_is_r0)
			arch_emit_alu(ctx, ALU_ADD, ra, arch_opnd_reg(ra), arch_opnd_int(d));
		return true;
	case SH_STORE_X:
		if (!read_gpr(c, &rd, NULL) || !read_comma(c) || !read_xform_addr(c, &addr) ||
		    !arch_expect_end(c))
			return false;
		arch_emit_store(ctx, addr, arch_opnd_reg(rd), f->size, 0);
		return true;
	case SH_LARX:
		if (!read_gpr(c, &rd, NULL) || !read_comma(c) || !read_xform_addr(c, &addr) ||
		    !arch_expect_end(c))
			return false;
		arch_emit_load(ctx, rd, addr, f->size, ACC_EXCL);
		return true;
	case SH_STCX:
		if (!read_gpr(c, &rd, NULL) || !read_comma(c) || !read_xform_addr(c, &addr) ||
		    !arch_expect_end(c))
			return false;
		cr = arch_flags_reg(ctx, "cr0", FLAGS_CLEAR_PPC);
		arch_emit_stcond(ctx, cr, addr, arch_opnd_reg(rd), f->size, ACC_EXCL);
		/* 1 (stored) -> 0 = EQ; 0 (failed) -> -1 = not EQ: see the top. */
		arch_emit_alu(ctx, ALU_CMP, cr, arch_opnd_reg(cr), arch_opnd_int(1));
		return true;
	case SH_FENCE:
		if (!arch_expect_end(c))
			return false;
		arch_emit_fence(ctx, f->fence);
		return true;
	case SH_BRANCH:
		if (f->alu == BR_ALWAYS) {
			if (!read_label(c, label) || !arch_expect_end(c))
				return false;
			arch_add_branch(ctx, BR_ALWAYS, arch_opnd_none(), label);
			return true;
		}
		if (!read_opt_crfield(c, &cr) || !read_label(c, label) || !arch_expect_end(c))
			return false;
		arch_add_branch(ctx, (enum branch_cond)f->alu, arch_opnd_reg(cr), label);
		return true;
	}
	return arch_unsupported(c);
}

static bool ppc_translate(arch_ctx *ctx, const char *text)
{
	arch_cursor c;
	arch_cursor_init(&c, ctx, "PPC", text);
	char mnemonic[ARCH_WORD_MAX];
	const ppc_form *f = NULL;
	if (arch_cursor_word(&c, mnemonic, NULL) > 0 && mnemonic[0] != '%')
		f = find_form(mnemonic);
	if (!f)
		return arch_unsupported(&c);
	/* A mnemonic runs into its operands only through a blank. */
	if (*c.p != '\0' && *c.p != ' ' && *c.p != '\t')
		return arch_unsupported(&c);
	return translate_form(&c, f);
}

const arch arch_ppc = {
	.name = "PPC",
	.default_model = "power",
	.fences = ppc_fences,
	.canonical_reg = ppc_canonical_reg,
	.translate = ppc_translate,
};
