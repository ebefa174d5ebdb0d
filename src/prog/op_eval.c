/* op_eval.c — what the ALU and branch ops of prog.h compute on values.
 * Shared by every engine, so that they cannot disagree on arithmetic. */
#include <stdint.h>

#include "prog.h"
#include "op_bits.h"

/* The low `bytes` bytes of x, sign- or zero-extended. */
static int64_t extend(uint64_t x, int bytes, bool sign)
{
	if (bytes >= 8)
		return (int64_t)x;
	unsigned bits = 8u * (unsigned)bytes;
	uint64_t low = x & ((UINT64_C(1) << bits) - 1);
	uint64_t top = UINT64_C(1) << (bits - 1);
	return sign && (low & top) ? (int64_t)(low | ~((UINT64_C(1) << bits) - 1)) : (int64_t)low;
}

static uint64_t rotl64(uint64_t x, uint64_t n)
{
	n &= 63;
	return n ? (x << n) | (x >> (64 - n)) : x;
}

/* Shifts and rotations of x by y (see prog.h). */
static uint64_t shift(enum alu_op k, uint64_t x, uint64_t y)
{
	switch (k) {
	case ALU_SHL: return y >= 64 ? 0 : x << y;
	case ALU_SHRU: return y >= 64 ? 0 : x >> y;
	case ALU_SHRS: {
		uint64_t sign = (x >> 63) ? ~UINT64_C(0) : 0;
		if (y >= 64)
			return sign;
		return y ? (x >> y) | (sign << (64 - y)) : x;
	}
	case ALU_ROTL32: {
		uint64_t w = x & UINT64_C(0xffffffff);
		return rotl64(w | (w << 32), y);
	}
	case ALU_ROTL64: return rotl64(x, y);
	default: return 0;
	}
}

/* Integer arithmetic, with addresses allowed only where they make sense
 * (address +/- integer, difference or comparison of addresses). */
/* An instruction value (herd's ifetch) is no number: it may be moved,
 * stored through a narrower register, and compared for equality. */
static bool instr_alu(enum alu_op k, value a, value b, value *r)
{
	switch (k) {
	case ALU_MOV: case ALU_ZEXT: case ALU_SEXT:
		*r = a;
		return !value_is_instr(b) || k == ALU_MOV;
	case ALU_EQ: case ALU_NE:
		*r = value_int(value_eq(a, b) == (k == ALU_EQ));
		return true;
	case ALU_CMP:   /* AArch64's CMP: only equality means something */
		*r = value_int(!value_eq(a, b));
		return true;
	case ALU_NZCV_SUB32:
	case ALU_NZCV_SUB64:
		/* ... as flags: Z and C when equal, C alone when not */
		*r = value_int(value_eq(a, b) ? 6 : 2);
		return true;
	default:
		return false;
	}
}

bool op_alu(enum alu_op k, value a, value b, value *r)
{
	if (value_is_instr(a) || value_is_instr(b))
		return instr_alu(k, a, b, r);
	bool ia = a.loc < 0, ib = b.loc < 0;
	uint64_t x = (uint64_t)a.num, y = (uint64_t)b.num;
	/* vmsa: a variable's address shifted right by 12 is its TLB page
	 * (herd's tlb_v, for TLBI); page-table entries and pages are moved
	 * and compared, nothing else */
	if (k == ALU_SHRU && !ia && a.loc >= 0 && a.num == 0 && ib && b.num == 12) {
		*r = value_page(a.loc);
		return true;
	}
	bool vm = value_is_pte(a) || value_is_page(a) || value_is_pte(b) || value_is_page(b);
	if (vm && k == ALU_XOR && value_eq(a, b)) {
		/* diy's false data dependency, EOR X2,X1,X1, on an entry */
		*r = value_int(0);
		return true;
	}
	if (vm && k != ALU_MOV && k != ALU_EQ && k != ALU_NE)
		return false;
	switch (k) {
	case ALU_MOV:
		*r = a;
		return true;
	case ALU_ADD:
		if (ia && ib)
			*r = value_int((int64_t)(x + y));
		else if (!ia && ib)
			*r = (value){ a.loc, (int64_t)(x + y) };
		else if (ia && !ib)
			*r = (value){ b.loc, (int64_t)(x + y) };
		else
			return false;
		return true;
	case ALU_SUB:
		if (ia && ib)
			*r = value_int((int64_t)(x - y));
		else if (!ia && ib)
			*r = (value){ a.loc, (int64_t)(x - y) };
		else if (!ia && !ib && a.loc == b.loc)
			*r = value_int((int64_t)(x - y));
		else
			return false;
		return true;
	case ALU_XOR:
		if (value_eq(a, b))
			*r = value_int(0);
		else if (ia && ib)
			*r = value_int((int64_t)(x ^ y));
		else
			return false;
		return true;
	case ALU_CMP:
		if (value_eq(a, b))
			*r = value_int(0);
		else if (ia && ib)
			*r = value_int(a.num < b.num ? -1 : 1);
		else if (a.loc != b.loc)
			*r = value_int(a.loc < b.loc ? -1 : 1);
		else
			*r = value_int(a.num < b.num ? -1 : 1);
		return true;
	case ALU_SEXT:
	case ALU_ZEXT:
		if (!ib || b.num < 1 || b.num > 8)
			return false;
		*r = ia ? value_int(extend(x, (int)b.num, k == ALU_SEXT)) : a;
		return true;
	case ALU_CMPU:
		if (ia && ib) {
			*r = value_int(x == y ? 0 : x < y ? -1 : 1);
			return true;
		}
		return op_alu(ALU_CMP, a, b, r);
	case ALU_CRBITS:
		if (a.loc == VALUE_FLAGS_CLEAR_LOC)
			*r = value_int(0);
		else if (ia)
			*r = value_int(a.num < 0 ? 8 : a.num > 0 ? 4 : 2);
		else
			*r = value_int(4);   /* an address compares greater than 0 */
		return true;
	case ALU_STCR:
		if (!ia)
			return false;
		*r = a.num == 1 ? value_int(0) : value_flags_clear(FLAGS_CLEAR_PPC);
		return true;
	case ALU_SHL:
	case ALU_SHRU:
	case ALU_SHRS:
	case ALU_ROTL32:
	case ALU_ROTL64:
		if (!ia || !ib)
			return false;
		*r = value_int((int64_t)shift(k, x, y));
		return true;
	case ALU_EQ:
	case ALU_NE:
		*r = value_int(value_eq(a, b) == (k == ALU_EQ));
		return true;
	case ALU_LT:
	case ALU_LE:
	case ALU_GT:
	case ALU_GE: {
		if (!value_eq(a, b) && (!ia || !ib))
			return false;   /* no order between addresses */
		int c = value_eq(a, b) ? 0 : a.num < b.num ? -1 : 1;
		bool holds = k == ALU_LT ? c < 0 : k == ALU_LE ? c <= 0 : k == ALU_GT ? c > 0 : c >= 0;
		*r = value_int(holds);
		return true;
	}
	case ALU_MIN:
	case ALU_MAX:
		if (!ia || !ib)
			return false;   /* no order between addresses */
		*r = (a.num < b.num) == (k == ALU_MIN) ? a : b;
		return true;
	case ALU_MOD:
		if (!ia || !ib || b.num == 0 || (a.num == INT64_MIN && b.num == -1))
			return false;
		*r = value_int(a.num % b.num);
		return true;
	case ALU_MUL:
	case ALU_DIV:
	case ALU_AND:
	case ALU_OR:
		if (!ia || !ib)
			return false;
		if (k == ALU_MUL)
			*r = value_int((int64_t)(x * y));
		else if (k == ALU_AND)
			*r = value_int((int64_t)(x & y));
		else if (k == ALU_OR)
			*r = value_int((int64_t)(x | y));
		else {
			if (b.num == 0 || (a.num == INT64_MIN && b.num == -1))
				return false;
			*r = value_int(a.num / b.num);
		}
		return true;
	default:
		return op_alu_bits(k, a, b, r);
	}
}

value op_access_value(const op *o, value v)
{
	/* integers only: an address, a flags or symbolic value is no bytes */
	if (o->ext == ACCESS_EXT_NONE || v.loc != -1 || o->size < 1 || o->size >= 8)
		return v;
	return value_int(extend((uint64_t)v.num, o->size, o->ext == ACCESS_EXT_SIGN));
}

bool op_branch_taken(enum branch_cond c, value v)
{
	if (v.loc == VALUE_FLAGS_CLEAR_LOC) {
		/* no flag set: see value_flags_clear */
		if (c == BR_ALWAYS || c == BR_NE || c == BR_LE)
			return true;
		return c == BR_GE && v.num == FLAGS_CLEAR_PPC;
	}
	int sign = v.loc >= 0 ? 1 : (v.num > 0) - (v.num < 0);
	switch (c) {
	case BR_ALWAYS: return true;
	case BR_EQ: return sign == 0;
	case BR_NE: return sign != 0;
	case BR_LT: return sign < 0;
	case BR_GE: return sign >= 0;
	case BR_GT: return sign > 0;
	case BR_LE: return sign <= 0;
	case BR_EITHER: return false;   /* the engines explore both ways */
	case BR_INDIRECT: return true;  /* to where the register says */
	}
	return false;
}
