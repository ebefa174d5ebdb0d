/* aarch64_mem.c — AArch64 loads and stores, as herd7 gives them meaning:
 *
 *   LDR/STR Rt,ADDR      ADDR is [Xn], [Xn,#k], [Xn,Xm], [Xn,Wm,SXTW],
 *                        [Xn,Wm,UXTW] (either with a shift #k after
 *                        it), [Xn,Xm,LSL #k], pre-index
 *                        [Xn,#k]! or post-index [Xn],#k (Xn updated);
 *                        the access is as wide as Rt (W: 4, X: 8 bytes)
 *   LDAR, LDAPR, STLR    acquire (set A), acquire-PC (Q), release (L)
 *   LDXR, LDAXR          load-exclusive: reserves the address (herd's
 *                        RESADDR), event atomic and exclusive
 *   STXR, STLXR Ws,Rt,.. store-exclusive: may store only to the reserved
 *                        address, ends the reservation; Ws = 0 when it
 *                        stores, 1 when not, both explored
 *   CAS Rs,Rt,[Xn]       reads the old value; equal to Rs: writes Rt
 *                        (the pair is an rmw); Rs gets the old value.
 *                        The choice is inside the instruction: no branch
 *                        event, no ctrl dependency.  herd 7.58 explores
 *                        variants of it (emit_cas)
 *   SWP Rs,Rt,[Xn]       Rt gets the old value, Rs is written
 *   LD<op> Rs,Rt,[Xn]    op ADD, EOR, SET (or), CLR (and not): the old
 *                        value OP Rs is written, Rt gets the old value;
 *                        ST<op> Rs,[Xn] is LD<op> Rs,ZR,[Xn]
 * The atomic family takes suffix A (read in A), L (write in L) or AL.
 * With the zero register as destination (Rt of SWP and LD<op>, Rs of
 * CAS) herd marks the read NoRet, and then not A.  The read and write of
 * one instruction are atomic (X) and form its rmw.
 *
 *   LDP, STP, LDIAPP, STILP   two accesses of neighbouring cells of an
 *                        array (emit_pair)
 *   LDUR Rt,[Xn{,#k}]    LDR with an unscaled offset (herd's LDUR; it
 *                        has no STUR of a general register)
 *   LDNP, STNP, LDPSW    pairs too (emit_pair): LDNP's and STNP's accesses
 *                        are in herd's set NT, LDPSW reads two words
 *                        into X registers, sign-extended
 *   LDXP, LDAXP, STXP, STLXP  exclusive pairs (emit_xpair)
 *   CASP Rs1,Rs2,Rt1,Rt2,[Xn]  CAS of a pair of cells (emit_cas), with
 *                        CAS's suffixes A, L and AL
 * Byte and halfword forms: each of LDR, LDAR, LDAPR, LDXR, LDAXR, STR,
 * STLR, STXR, STLXR and of the atomic family (after its A, L or AL) with
 * suffix B (1 byte) or H (2 bytes); and LDRSB, LDRSH, LDRSW, which
 * sign-extend.  A load gives its register the bytes read, zero- or
 * sign-extended (a sign-extending load to a W register keeps the low 32
 * bits of that), a store writes the low bytes of its register (prog.h's
 * enum access_ext), as herd's non-mixed-size runs do; CASB and CASH
 * compare the low bytes of Rs.
 */
#include <string.h>

#include "aarch64.h"

/* The last op emitted gets annotation bits `an`. */
static void annotate(arch_ctx *ctx, unsigned an) { ctx->th->ops[ctx->th->n_ops - 1].annot = an; }

/* How wide an access is: `size` bytes, and what it does to its value
 * when narrower than a register (enum access_ext); size 0: as wide as
 * the register (W: 4, X: 8 bytes). */
typedef struct a64_width {
	int size;
	enum access_ext ext;
} a64_width;

static const a64_width width_of_reg = { 0, ACCESS_EXT_NONE };

static int width_size(a64_width w, a64_reg r) { return w.size ? w.size : r.wide ? 8 : 4; }

/* The byte (B) or halfword (H) suffix of a mnemonic, or none (""), into
 * *w; false for anything else. */
static bool size_suffix(const char *s, a64_width *w)
{
	*w = width_of_reg;
	if (!*s)
		return true;
	if (s[1])
		return false;
	w->ext = ACCESS_EXT_ZERO;
	w->size = s[0] == 'B' ? 1 : s[0] == 'H' ? 2 : 0;
	return w->size != 0;
}

/* A load of w's width into dst; then sub-word ones extend what they read. */
static void emit_load_w(arch_ctx *ctx, int dst, address addr, a64_width w, a64_reg r, unsigned flags)
{
	arch_emit_load(ctx, dst, addr, width_size(w, r), flags);
	ctx->th->ops[ctx->th->n_ops - 1].ext = w.ext;
}

/* A store of w's width; a sub-word one writes the register's low bytes. */
static void emit_store_w(arch_ctx *ctx, address addr, operand data, a64_width w, a64_reg r, unsigned flags)
{
	arch_emit_store(ctx, addr, data, width_size(w, r), flags);
	ctx->th->ops[ctx->th->n_ops - 1].ext = w.ext;
}

/* `[Xn ...]` with what follows; a post-index `,#k` is returned in *post
 * (with *has_post), a pre-index `!` updates Xn before the access. */
typedef struct a64_addr {
	address addr;
	a64_reg base;
	bool has_post;
	value post;
	bool has_pre;    /* [Xn,#k]!: Xn moved by `pre` before the access */
	int64_t pre;
} a64_addr;

static bool read_index_ext(arch_cursor *c, a64_reg idx, operand *out)
{
	arch_ctx *ctx = c->ctx;
	*out = a64_src(idx);
	if (!arch_cursor_accept(c, ','))
		return true;
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) == 0)
		return arch_malformed(c, at, "expected SXTW, UXTW or LSL");
	int t = a64_scratch(ctx, 2);
	if (arch_word_eq(w, "SXTW") || arch_word_eq(w, "UXTW")) {
		arch_emit_alu(ctx, w[0] == 'S' || w[0] == 's' ? ALU_SEXT : ALU_ZEXT, t, *out, arch_opnd_int(4));
		/* [Xn,Wm,SXTW #k]: the extended index, shifted by k */
		if (a64_at_imm(c)) {
			value k;
			if (!a64_read_imm(c, &k))
				return false;
			arch_emit_alu(ctx, ALU_SHL, t, arch_opnd_reg(t), arch_opnd_imm(k));
		}
	} else if (arch_word_eq(w, "LSL")) {
		value k;
		if (!a64_read_imm(c, &k))
			return false;
		arch_emit_alu(ctx, ALU_SHL, t, *out, arch_opnd_imm(k));
	} else {
		return arch_malformed(c, at, "'%s' is not an extension weft runs (SXTW, UXTW, LSL)", w);
	}
	*out = arch_opnd_reg(t);
	return true;
}

/* What an instruction's address may be: any form, [Xn] only, or [Xn]
 * and [Xn,#k] (LDUR's unscaled offset). */
enum addr_mode { AM_ANY, AM_BASE, AM_OFFSET };

static bool read_addr(arch_cursor *c, enum addr_mode mode, a64_addr *a)
{
	memset(a, 0, sizeof *a);
	if (!arch_expect(c, '[') || !a64_read_reg(c, &a->base))
		return false;
	if (a->base.reg < 0)
		return arch_malformed(c, a->base.at, "the zero register is no address");
	operand index = arch_opnd_none();
	int64_t off = 0;
	if (arch_cursor_accept(c, ',')) {
		if (a64_at_imm(c)) {
			value k;
			const char *at = c->p;
			if (!a64_read_imm(c, &k))
				return false;
			if (k.loc >= 0)
				return arch_malformed(c, at, "an offset must be a number");
			off = k.num;
		} else if (mode == AM_OFFSET) {
			return arch_malformed(c, c->p, "this instruction takes [Xn] or [Xn,#k]");
		} else {
			a64_reg idx;
			if (!a64_read_reg(c, &idx) || !read_index_ext(c, idx, &index))
				return false;
		}
	}
	if (!arch_expect(c, ']'))
		return false;
	operand base = arch_opnd_reg(a->base.reg);
	if (mode == AM_OFFSET) {
		/* no writeback */
	} else if (arch_cursor_accept(c, '!')) {
		/* pre-index: Xn moves first, the access uses the new Xn */
		arch_emit_alu(c->ctx, ALU_ADD, a->base.reg, base, arch_opnd_int(off));
		a->has_pre = true;
		a->pre = off;
		off = 0;
	} else if (mode == AM_ANY && arch_cursor_accept(c, ',')) {
		if (index.kind != OPND_NONE || off != 0)
			return arch_malformed(c, c->p, "post-index after an offset");
		a->has_post = true;
		if (!a64_read_imm(c, &a->post))
			return false;
	}
	if (mode == AM_BASE && (index.kind != OPND_NONE || off != 0))
		return arch_malformed(c, a->base.at, "this instruction takes a plain [Xn] address");
	a->addr = arch_address(base, index, off);
	return arch_expect_end(c);
}

static void post_index(arch_ctx *ctx, const a64_addr *a)
{
	if (a->has_post)
		arch_emit_alu(ctx, ALU_ADD, a->base.reg, arch_opnd_reg(a->base.reg), arch_opnd_imm(a->post));
}

/* ---- plain, ordered and exclusive accesses ------------------------------ */

enum ldst_kind { LS_LOAD, LS_STORE, LS_STXR };

typedef struct ldst_form {
	const char *name;
	enum ldst_kind kind;
	unsigned annot;
	bool excl;
	enum addr_mode mode;
} ldst_form;

static const ldst_form ldst_forms[] = {
	{ "LDR", LS_LOAD, 0, false, AM_ANY },
	{ "LDUR", LS_LOAD, 0, false, AM_OFFSET },
	{ "LDAR", LS_LOAD, A64_ACQ, false, AM_BASE },
	{ "LDAPR", LS_LOAD, A64_ACQPC, false, AM_BASE },
	{ "LDXR", LS_LOAD, 0, true, AM_BASE },
	{ "LDAXR", LS_LOAD, A64_ACQ, true, AM_BASE },
	{ "STR", LS_STORE, 0, false, AM_ANY },
	{ "STLR", LS_STORE, A64_REL, false, AM_BASE },
	{ "STXR", LS_STXR, 0, true, AM_BASE },
	{ "STLXR", LS_STXR, A64_REL, true, AM_BASE },
};

/* Whether mnemonic m is form f, with a size suffix (B, H; LDR also SB,
 * SH, SW, which sign-extend) into *w. */
static bool ldst_name(const char *m, const ldst_form *f, a64_width *w)
{
	size_t n = strlen(f->name);
	if (strncmp(m, f->name, n) != 0)
		return false;
	const char *s = m + n;
	if (f->mode == AM_OFFSET && *s)   /* herd has LDUR alone */
		return false;
	if (size_suffix(s, w))
		return true;
	if (strcmp(f->name, "LDR") != 0 || s[0] != 'S' || !s[1])
		return false;
	if (!strcmp(s + 1, "W"))
		w->size = 4;
	else if (!size_suffix(s + 1, w))
		return false;
	w->ext = ACCESS_EXT_SIGN;
	return true;
}

static bool emit_ldst(arch_cursor *c, const ldst_form *f, a64_width w)
{
	arch_ctx *ctx = c->ctx;
	a64_reg rs = { -1, false, NULL }, rt;
	a64_addr a;
	if (f->kind == LS_STXR && (!a64_read_reg(c, &rs) || !a64_comma(c)))
		return false;
	if (!a64_read_reg(c, &rt) || !a64_comma(c) || !read_addr(c, f->mode, &a))
		return false;
	unsigned flags = f->excl ? ACC_ATOMIC | ACC_EXCL : 0;
	switch (f->kind) {
	case LS_LOAD:
		if (f->excl)   /* the reservation: this address */
			arch_emit_alu(ctx, ALU_ADD, a64_reservation(ctx), a.addr.base, arch_opnd_int(a.addr.offset));
		emit_load_w(ctx, rt.reg, a.addr, w, rt, flags);
		annotate(ctx, f->annot);
		/* LDRSB W0: sign-extended to 32 bits, the upper half clear */
		if (w.ext == ACCESS_EXT_SIGN && !rt.wide && rt.reg >= 0)
			arch_emit_alu(ctx, ALU_ZEXT, rt.reg, arch_opnd_reg(rt.reg), arch_opnd_int(4));
		break;
	case LS_STORE:
		emit_store_w(ctx, a.addr, a64_src(rt), w, rt, flags);
		annotate(ctx, f->annot);
		break;
	case LS_STXR: {
		/* weft's store-conditional flag is 1 on success; AArch64's
		 * status register is 0 */
		int flag = a64_scratch(ctx, 0);
		arch_emit_stcond(ctx, flag, a.addr, a64_src(rt), width_size(w, rt), flags);
		ctx->th->ops[ctx->th->n_ops - 1].ext = w.ext;
		annotate(ctx, f->annot);
		ctx->th->ops[ctx->th->n_ops - 1].b = arch_opnd_reg(a64_reservation(ctx));
		arch_emit_alu(ctx, ALU_MOV, a64_reservation(ctx), arch_opnd_int(0), arch_opnd_none());
		a64_write_alu(ctx, rs, ALU_XOR, arch_opnd_reg(flag), arch_opnd_int(1));
		break;
	}
	}
	post_index(ctx, &a);
	return true;
}

/* ---- pairs ---------------------------------------------------------------- */

/* LDP/STP Rt1,Rt2,ADDR and their ordered forms LDIAPP (both reads
 * acquire-PC) and STILP (both writes release): two accesses of Rt's size
 * at ADDR and ADDR + size, the cells of an array.  herd runs LDP's and
 * STP's two accesses unordered; LDIAPP's read of Rt1 is before its read
 * of Rt2 in iico_order, and so is STILP's write of Rt1 before that of
 * Rt2, except with pre-index writeback, where Rt2's write is first.
 * ADDR is [Xn], [Xn,#k], [Xn,#k]! or [Xn],#k (LDIAPP: post-index only,
 * STILP: pre-index only, as herd). */
typedef struct pair_form {
	const char *name;
	bool load;
	unsigned annot;
	bool ordered;
	bool sext_words;  /* LDPSW: words into X registers, sign-extended */
} pair_form;

static const pair_form pair_forms[] = {
	{ "LDP", true, 0, false, false },
	{ "STP", false, 0, false, false },
	{ "LDNP", true, A64_NT, false, false },
	{ "STNP", false, A64_NT, false, false },
	{ "LDIAPP", true, A64_ACQPC, true, false },
	{ "STILP", false, A64_REL, true, false },
	{ "LDPSW", true, 0, false, true },
};

/* A load of a pair into Rt1 that is its base register must not move the
 * second address: it goes through a scratch register, copied (by
 * `finish`, or sign-extended with sext_words) once both are read. */
static int pair_load_dst(arch_ctx *ctx, const a64_reg *rt, int i, bool via_scratch)
{
	return i == 0 && via_scratch ? a64_scratch(ctx, 0) : rt[i].reg;
}

static void pair_load_finish(arch_ctx *ctx, const a64_reg *rt, bool via_scratch, bool sext_words)
{
	for (int i = 0; i < 2; i++) {
		operand v = arch_opnd_reg(pair_load_dst(ctx, rt, i, via_scratch));
		if (rt[i].reg < 0)
			continue;
		if (sext_words)
			a64_write_alu(ctx, rt[i], ALU_SEXT, v, arch_opnd_int(4));
		else if (i == 0 && via_scratch)
			a64_write_alu(ctx, rt[i], ALU_MOV, v, arch_opnd_none());
	}
}

static bool emit_pair(arch_cursor *c, const pair_form *f)
{
	arch_ctx *ctx = c->ctx;
	a64_reg rt[2];
	a64_addr a;
	const char *addr_at;
	if (!a64_read_reg(c, &rt[0]) || !a64_comma(c) || !a64_read_reg(c, &rt[1]) || !a64_comma(c))
		return false;
	arch_cursor_skip_space(c);
	addr_at = c->p;
	if (rt[0].wide != rt[1].wide)
		return arch_malformed(c, rt[1].at, "the two registers of a pair must be both W or both X");
	if (f->sext_words && !rt[0].wide)
		return arch_malformed(c, rt[0].at, "LDPSW loads X registers");
	if (f->load && rt[0].reg >= 0 && rt[0].reg == rt[1].reg)
		return a64_refuse(c, "loading one register twice is unpredictable");
	int ops_before = ctx->th->n_ops;
	if (!read_addr(c, AM_ANY, &a))
		return false;
	bool pre = ctx->th->n_ops > ops_before;   /* read_addr moved Xn first */
	if (a.addr.index.kind != OPND_NONE)
		return arch_malformed(c, addr_at, "a pair's address is [Xn], [Xn,#k], [Xn,#k]! or [Xn],#k");
	/* herd's parser takes LDIAPP and STILP with the architecture's
	 * only addresses: [Xn] (offset 0), and writeback by the pair's size,
	 * LDIAPP's after its reads, STILP's before its writes */
	int64_t pair_size = rt[0].wide ? 16 : 8;
	if (f->ordered && f->load && (pre || (a.has_post ? a.post.loc >= 0 || a.post.num != pair_size
	                                                 : a.addr.offset != 0)))
		return a64_refuse(c, rt[0].wide ? "LDIAPP's address is [Xn], or [Xn],#16 to write back"
		                                : "LDIAPP's address is [Xn], or [Xn],#8 to write back");
	if (f->ordered && !f->load && (a.has_post || (a.has_pre ? a.pre != -pair_size : a.addr.offset != 0)))
		return a64_refuse(c, rt[0].wide ? "STILP's address is [Xn], or [Xn,#-16]! to write back"
		                                : "STILP's address is [Xn], or [Xn,#-8]! to write back");
	if ((pre || a.has_post) && (rt[0].reg == a.base.reg || rt[1].reg == a.base.reg))
		return a64_refuse(c, "a pair with writeback of a register it transfers is unpredictable");
	int size = rt[0].wide && !f->sext_words ? 8 : 4;
	/* the order of the two accesses: STILP with writeback stores Rt2 first */
	int first = f->ordered && !f->load && pre ? 1 : 0;
	bool via_scratch = f->load && rt[0].reg >= 0 && rt[0].reg == a.base.reg;
	for (int k = 0; k < 2; k++) {
		int i = k == 0 ? first : 1 - first;
		address at = a.addr;
		at.offset += i * size;
		unsigned flags = f->ordered && k == 1 ? ACC_IICO_ORDER : 0;
		if (f->load)
			arch_emit_load(ctx, pair_load_dst(ctx, rt, i, via_scratch), at, size, flags);
		else
			arch_emit_store(ctx, at, a64_src(rt[i]), size, flags);
		annotate(ctx, f->annot);
	}
	if (f->load)
		pair_load_finish(ctx, rt, via_scratch, f->sext_words);
	post_index(ctx, &a);
	return true;
}

/* ---- exclusive pairs ------------------------------------------------------- */

/* LDXP Rt1,Rt2,[Xn] (LDAXP: both reads acquire) reads the cells at Xn and
 * Xn + size, both exclusive, and reserves Xn; STXP Ws,Rt1,Rt2,[Xn]
 * (STLXP: both writes release) writes both or neither, as STXR writes
 * one, and Ws says which.  herd makes each pair of accesses one single-
 * copy-atomic access (para_atomic: ACC_SCA, its relations sm and si). */
typedef struct xpair_form {
	const char *name;
	bool load;
	unsigned annot;
} xpair_form;

static const xpair_form xpair_forms[] = {
	{ "LDXP", true, 0 }, { "LDAXP", true, A64_ACQ }, { "STXP", false, 0 }, { "STLXP", false, A64_REL },
};

static bool emit_xpair(arch_cursor *c, const xpair_form *f)
{
	arch_ctx *ctx = c->ctx;
	a64_reg rs = { -1, false, NULL }, rt[2];
	a64_addr a;
	if (!f->load && (!a64_read_reg(c, &rs) || !a64_comma(c)))
		return false;
	if (!f->load && rs.wide)
		return arch_malformed(c, rs.at, "the status register of a store-exclusive is a W register");
	if (!a64_read_reg(c, &rt[0]) || !a64_comma(c) || !a64_read_reg(c, &rt[1]) || !a64_comma(c) ||
	    !read_addr(c, AM_BASE, &a))
		return false;
	if (rt[0].wide != rt[1].wide)
		return arch_malformed(c, rt[1].at, "the two registers of a pair must be both W or both X");
	if (f->load && rt[0].reg >= 0 && rt[0].reg == rt[1].reg)
		return a64_refuse(c, "loading one register twice is unpredictable");
	int size = rt[0].wide ? 8 : 4;
	unsigned flags = ACC_ATOMIC | ACC_EXCL | ACC_SCA;
	address second = a.addr;
	second.offset += size;
	if (f->load) {
		bool via_scratch = rt[0].reg >= 0 && rt[0].reg == a.base.reg;
		arch_emit_alu(ctx, ALU_ADD, a64_reservation(ctx), a.addr.base, arch_opnd_int(a.addr.offset));
		arch_emit_load(ctx, pair_load_dst(ctx, rt, 0, via_scratch), a.addr, size, flags);
		annotate(ctx, f->annot);
		arch_emit_load(ctx, rt[1].reg, second, size, flags);
		annotate(ctx, f->annot);
		pair_load_finish(ctx, rt, via_scratch, false);
		return true;
	}
	/* the first write decides (herd's store-conditional), the second
	 * follows it, inside the instruction */
	int flag = a64_scratch(ctx, 0);
	arch_emit_stcond(ctx, flag, a.addr, a64_src(rt[0]), size, flags);
	annotate(ctx, f->annot);
	ctx->th->ops[ctx->th->n_ops - 1].b = arch_opnd_reg(a64_reservation(ctx));
	int skip = ctx->th->n_ops;
	a64_silent_branch(ctx, BR_EQ, arch_opnd_reg(flag));
	arch_emit_store(ctx, second, a64_src(rt[1]), size, flags);
	annotate(ctx, f->annot);
	ctx->th->ops[skip].target = ctx->th->n_ops;
	arch_emit_alu(ctx, ALU_MOV, a64_reservation(ctx), arch_opnd_int(0), arch_opnd_none());
	a64_write_alu(ctx, rs, ALU_XOR, arch_opnd_reg(flag), arch_opnd_int(1));
	return true;
}

/* ---- the atomic read-modify-write family --------------------------------- */

enum rmw_kind { RMW_CAS, RMW_SWP, RMW_LDOP, RMW_STOP };

/* `base`, an optional ordering suffix A, L or AL, then an optional size
 * suffix B or H (into *w). */
static bool rmw_suffix(const char *m, const char *base, unsigned *rd_an, unsigned *wr_an, a64_width *w)
{
	size_t n = strlen(base);
	if (strncmp(m, base, n) != 0)
		return false;
	const char *s = m + n;
	*rd_an = *wr_an = 0;
	if (!strncmp(s, "AL", 2)) {
		*rd_an = A64_ACQ;
		*wr_an = A64_REL;
		s += 2;
	} else if (*s == 'A') {
		*rd_an = A64_ACQ;
		s++;
	} else if (*s == 'L') {
		*wr_an = A64_REL;
		s++;
	}
	return size_suffix(s, w);
}

static const struct { const char *op; enum alu_op alu; } ldops[] = {
	{ "ADD", ALU_ADD }, { "EOR", ALU_XOR }, { "SET", ALU_OR }, { "CLR", ALU_AND },
};

/* A compare-and-swap's operands: n (1: CAS, 2: CASP) cells of width w
 * from addr, compared with the rs (as expected: CASB's low bytes), given
 * the rt; old: the scratch registers the cells are read into. */
typedef struct cas_regs {
	int n;
	a64_reg rs[2], rt[2];
	address addr;
	a64_width w;
	int old[2];
	operand expected[2];
	unsigned wr_an;
} cas_regs;

/* Ops after `from` up to here jump to the end of the instruction. */
static int jump_to_end(arch_ctx *ctx)
{
	int at = ctx->th->n_ops;
	a64_silent_branch(ctx, BR_ALWAYS, arch_opnd_none());
	return at;
}

/* A silent branch to the next op: the choice it stands for is already
 * made, but what follows depends on `tested` by iico_ctrl (ACC_PICK). */
static void pick_from(arch_ctx *ctx, int tested, unsigned pick)
{
	op *o = a64_silent_branch(ctx, BR_NE, arch_opnd_reg(tested));
	o->flags |= pick;
	o->target = ctx->th->n_ops;
}

/* A choice between variants (BR_EITHER): returns the branch to patch
 * with the first op of the other variant. */
static int either(arch_ctx *ctx)
{
	int at = ctx->th->n_ops;
	a64_silent_branch(ctx, BR_EITHER, arch_opnd_none());
	return at;
}

/* What one variant of a CAS does after its choice, for each of its n
 * cells: write Rt (or, old_back, the value read back, with no DATA
 * register), or nothing (!write); then Rs gets the value it was compared
 * with (rs_own) or the one read. */
static void cas_outcome(arch_ctx *ctx, const cas_regs *r, bool write, bool old_back, bool rs_own)
{
	for (int i = 0; write && i < r->n; i++) {
		address at = r->addr;
		at.offset += i * width_size(r->w, r->rs[0]);
		/* CASP's write-back follows reads herd does not make atomic
		 * (its mop_fail_with_wb): no rmw; CAS's are */
		unsigned flags = ACC_ATOMIC | (old_back && r->n == 2 ? ACC_NO_RMW : 0);
		emit_store_w(ctx, at, old_back ? arch_opnd_reg(r->old[i]) : a64_src(r->rt[i]), r->w, r->rs[0], flags);
		annotate(ctx, r->wr_an);
		if (old_back)
			ctx->th->ops[ctx->th->n_ops - 1].b = arch_opnd_int(0);   /* no DATA register */
	}
	for (int i = 0; i < r->n; i++)
		a64_write_alu(ctx, r->rs[i], ALU_MOV, rs_own ? r->expected[i] : arch_opnd_reg(r->old[i]),
		              arch_opnd_none());
}

/* CAS Rs,Rt,[Xn] as herd 7.58 explores it: the read, then when it equals
 * Rs one of two successes (Rt written, atomic with the read; Rs gets its
 * own value or the one read, and what follows depends on Rs and the read
 * by iico_ctrl), else one of three failures (Rs gets the value read: with
 * that iico_ctrl, without it, or with a write of the value read back,
 * atomic with the read).  Each variant is an execution of herd's: the
 * engines explore each (BR_EITHER); the variants' events, values and
 * dependencies are what tell them apart.  CASP Rs1,Rs2,Rt1,Rt2,[Xn] is
 * the same on the pair of cells at Xn and Xn + size (herd's casp): two
 * reads, equal when both equal their Rs, two writes, unordered. */
static bool emit_cas(arch_ctx *ctx, cas_regs *r, unsigned rd_an)
{
	int eq = a64_scratch(ctx, 1);
	for (int i = 0; i < r->n; i++) {
		address at = r->addr;
		at.offset += i * width_size(r->w, r->rs[0]);
		emit_load_w(ctx, r->old[i], at, r->w, r->rs[0], ACC_ATOMIC);
		annotate(ctx, r->n == 1 && r->rs[0].reg < 0 ? A64_NORET : rd_an);
	}
	r->expected[0] = a64_src(r->rs[0]);
	r->expected[1] = r->n == 2 ? a64_src(r->rs[1]) : arch_opnd_none();
	if (r->w.size) {   /* CASB, CASH: the low bytes of Rs, which a success
	                    * writes back to Rs */
		int low = a64_scratch(ctx, 2);
		arch_emit_alu(ctx, ALU_ZEXT, low, r->expected[0], arch_opnd_int(r->w.size));
		r->expected[0] = arch_opnd_reg(low);
	}
	if (r->n == 1) {
		arch_emit_alu(ctx, ALU_CMP, eq, arch_opnd_reg(r->old[0]), r->expected[0]);
	} else {
		int t = a64_scratch(ctx, 4);
		arch_emit_alu(ctx, ALU_NE, eq, arch_opnd_reg(r->old[0]), r->expected[0]);
		arch_emit_alu(ctx, ALU_NE, t, arch_opnd_reg(r->old[1]), r->expected[1]);
		arch_emit_alu(ctx, ALU_OR, eq, arch_opnd_reg(eq), arch_opnd_reg(t));
	}
	int to_fail = ctx->th->n_ops;
	a64_silent_branch(ctx, BR_NE, arch_opnd_reg(eq));
	int ends[5], n_ends = 0;
	/* success, Rs from Rs */
	int ok2 = either(ctx);
	pick_from(ctx, eq, ACC_PICK);
	cas_outcome(ctx, r, true, false, true);
	ends[n_ends++] = jump_to_end(ctx);
	/* success, Rs from the read, the comparison reaching the write only */
	ctx->th->ops[ok2].target = ctx->th->n_ops;
	pick_from(ctx, eq, ACC_PICK_MEM);
	cas_outcome(ctx, r, true, false, false);
	ends[n_ends++] = jump_to_end(ctx);
	/* failure, with iico_ctrl */
	ctx->th->ops[to_fail].target = ctx->th->n_ops;
	int no2 = either(ctx);
	pick_from(ctx, eq, ACC_PICK);
	cas_outcome(ctx, r, false, false, false);
	ends[n_ends++] = jump_to_end(ctx);
	/* failure, without */
	ctx->th->ops[no2].target = ctx->th->n_ops;
	int no3 = either(ctx);
	cas_outcome(ctx, r, false, false, false);
	ends[n_ends++] = jump_to_end(ctx);
	/* failure, the value read written back, the comparison reaching the
	 * write only */
	ctx->th->ops[no3].target = ctx->th->n_ops;
	pick_from(ctx, eq, ACC_PICK_MEM);
	cas_outcome(ctx, r, true, true, false);
	for (int i = 0; i < n_ends; i++)
		ctx->th->ops[ends[i]].target = ctx->th->n_ops;
	return true;
}

/* CASP's registers Rs1,Rs2,Rt1,Rt2 and its [Xn], read at c. */
static bool emit_casp(arch_cursor *c, unsigned rd_an, unsigned wr_an)
{
	arch_ctx *ctx = c->ctx;
	cas_regs r = { .n = 2, .w = width_of_reg, .wr_an = wr_an };
	a64_addr a;
	a64_reg regs[4];
	for (int i = 0; i < 4; i++)
		if (!a64_read_reg(c, &regs[i]) || !a64_comma(c))
			return false;
	for (int i = 1; i < 4; i++)
		if (regs[i].wide != regs[0].wide)
			return arch_malformed(c, regs[i].at, "CASP's four registers must be all W or all X");
	if (!read_addr(c, AM_BASE, &a))
		return false;
	r.rs[0] = regs[0];
	r.rs[1] = regs[1];
	r.rt[0] = regs[2];
	r.rt[1] = regs[3];
	r.addr = a.addr;
	r.old[0] = a64_scratch(ctx, 0);
	r.old[1] = a64_scratch(ctx, 3);
	return emit_cas(ctx, &r, rd_an);
}

static bool emit_rmw(arch_cursor *c, enum rmw_kind k, enum alu_op alu, a64_width w, unsigned rd_an, unsigned wr_an)
{
	arch_ctx *ctx = c->ctx;
	a64_reg rs, rt = { -1, false, NULL };
	a64_addr a;
	if (!a64_read_reg(c, &rs) || !a64_comma(c))
		return false;
	if (k != RMW_STOP && (!a64_read_reg(c, &rt) || !a64_comma(c)))
		return false;
	if (!read_addr(c, AM_BASE, &a))
		return false;
	if (k == RMW_CAS) {
		cas_regs r = { .n = 1, .rs = { rs }, .rt = { rt }, .addr = a.addr, .w = w,
			       .old = { a64_scratch(ctx, 0) }, .wr_an = wr_an };
		return emit_cas(ctx, &r, rd_an);
	}
	if (k == RMW_STOP) {
		/* herd's store form is the load form with the zero register */
		k = RMW_LDOP;
		rt.wide = rs.wide;
	}
	a64_reg dest = rt;
	unsigned read_an = dest.reg < 0 ? A64_NORET : rd_an;
	int old = a64_scratch(ctx, 0);
	emit_load_w(ctx, old, a.addr, w, rs, ACC_ATOMIC);
	annotate(ctx, read_an);
	operand data = a64_src(rs);
	if (k == RMW_LDOP) {
		int t = a64_scratch(ctx, 1);
		operand arg = a64_src(rs);
		if (alu == ALU_AND) {   /* CLR: old AND NOT Rs */
			arch_emit_alu(ctx, ALU_XOR, t, arg, arch_opnd_int(-1));
			arg = arch_opnd_reg(t);
		}
		arch_emit_alu(ctx, alu, t, arch_opnd_reg(old), arg);
		data = arch_opnd_reg(t);
	}
	emit_store_w(ctx, a.addr, data, w, rs, ACC_ATOMIC);
	annotate(ctx, wr_an);
	/* LD<op>'s write is computed from Rs, herd's DATA register read */
	if (k == RMW_LDOP)
		ctx->th->ops[ctx->th->n_ops - 1].b = a64_src(rs);
	a64_write_alu(ctx, dest, ALU_MOV, arch_opnd_reg(old), arch_opnd_none());
	return true;
}

bool a64_mem_translate(arch_cursor *c, const char *m, bool *mine)
{
	*mine = true;
	char up[ARCH_WORD_MAX];
	size_t n = strlen(m);
	for (size_t i = 0; i <= n; i++)
		up[i] = (char)(m[i] >= 'a' && m[i] <= 'z' ? m[i] - 'a' + 'A' : m[i]);
	a64_width w;
	for (size_t i = 0; i < sizeof ldst_forms / sizeof ldst_forms[0]; i++)
		if (ldst_name(up, &ldst_forms[i], &w))
			return emit_ldst(c, &ldst_forms[i], w);
	unsigned rd_an, wr_an;
	if (rmw_suffix(up, "CASP", &rd_an, &wr_an, &w) && !w.size)
		return emit_casp(c, rd_an, wr_an);
	if (rmw_suffix(up, "CAS", &rd_an, &wr_an, &w))
		return emit_rmw(c, RMW_CAS, ALU_MOV, w, rd_an, wr_an);
	if (rmw_suffix(up, "SWP", &rd_an, &wr_an, &w))
		return emit_rmw(c, RMW_SWP, ALU_MOV, w, rd_an, wr_an);
	for (size_t i = 0; i < sizeof ldops / sizeof ldops[0]; i++) {
		char base[8];
		for (int st = 0; st < 2; st++) {
			strcpy(base, st ? "ST" : "LD");
			strcat(base, ldops[i].op);
			/* ST<op> has no A form: it returns nothing to acquire */
			if (rmw_suffix(up, base, &rd_an, &wr_an, &w) && !(st && rd_an))
				return emit_rmw(c, st ? RMW_STOP : RMW_LDOP, ldops[i].alu, w, rd_an, wr_an);
		}
	}
	for (size_t i = 0; i < sizeof pair_forms / sizeof pair_forms[0]; i++)
		if (!strcmp(up, pair_forms[i].name))
			return emit_pair(c, &pair_forms[i]);
	for (size_t i = 0; i < sizeof xpair_forms / sizeof xpair_forms[0]; i++)
		if (!strcmp(up, xpair_forms[i].name))
			return emit_xpair(c, &xpair_forms[i]);
	if (!strcmp(up, "STUR") || !strcmp(up, "STLUR") || !strcmp(up, "LDAPUR"))
		return a64_refuse(c, "herd7 7.58 has it for SIMD registers only");
	*mine = false;
	return false;
}
