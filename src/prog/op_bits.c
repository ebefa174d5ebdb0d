/* op_bits.c — the ALU ops of prog.h that AArch64 alone makes: its
 * condition flags (PSTATE.NZCV) and conditions on them, bit and byte
 * reversals, the absolute value.  The flags are herd's AArch64Sem
 * formulas (Hacker's Delight 2-13): the carry and overflow of an addition
 * or subtraction read from the sign bit of the operand width. */
#include <stdint.h>

#include "prog.h"
#include "op_bits.h"

enum { NZCV_N = 8, NZCV_Z = 4, NZCV_C = 2, NZCV_V = 1 };

static uint64_t low_bits(uint64_t x, unsigned bits)
{
	return bits >= 64 ? x : x & ((UINT64_C(1) << bits) - 1);
}

static unsigned sign_of(uint64_t x, unsigned bits) { return (unsigned)(x >> (bits - 1)) & 1u; }

static unsigned nz_of(uint64_t res, unsigned bits)
{
	return (sign_of(res, bits) ? NZCV_N : 0) | (low_bits(res, bits) == 0 ? NZCV_Z : 0);
}

/* The flags of x + y or x - y on `bits`-bit integers. */
static unsigned nzcv_arith(uint64_t x, uint64_t y, unsigned bits, bool sub)
{
	x = low_bits(x, bits);
	y = low_bits(y, bits);
	uint64_t res = low_bits(sub ? x - y : x + y, bits);
	uint64_t carry, over;
	if (sub) {
		carry = (x & ~y) | ((x | ~y) & ~res);
		over = (x ^ y) & (res ^ x);
	} else {
		carry = (x & y) | ((x | y) & ~res);
		over = (res ^ x) & (res ^ y);
	}
	return nz_of(res, bits) | (sign_of(carry, bits) ? NZCV_C : 0) | (sign_of(over, bits) ? NZCV_V : 0);
}

/* Two addresses are no numbers: herd orders them (x before y) and finds
 * the subtraction of one from the other negative or positive, its carry
 * set; equal ones subtract to zero. */
static bool nzcv_of_addresses(value a, value b, value *r)
{
	if (value_eq(a, b))
		*r = value_int(NZCV_Z | NZCV_C);
	else
		*r = value_int(a.loc < b.loc || (a.loc == b.loc && a.num < b.num) ? NZCV_N | NZCV_C : NZCV_C);
	return true;
}

static bool cond_holds(unsigned f, int64_t cond)
{
	bool n = f & NZCV_N, z = f & NZCV_Z, c = f & NZCV_C, v = f & NZCV_V;
	switch (cond) {
	case NZCV_EQ: return z;
	case NZCV_NE: return !z;
	case NZCV_CS: return c;
	case NZCV_CC: return !c;
	case NZCV_MI: return n;
	case NZCV_PL: return !n;
	case NZCV_VS: return v;
	case NZCV_VC: return !v;
	case NZCV_HI: return c && !z;
	case NZCV_LS: return !c || z;
	case NZCV_GE: return n == v;
	case NZCV_LT: return n != v;
	case NZCV_GT: return n == v && !z;
	case NZCV_LE: return n != v || z;
	default: return true;   /* AL */
	}
}

static uint64_t reverse_bits(uint64_t x, unsigned bits)
{
	uint64_t r = 0;
	for (unsigned i = 0; i < bits; i++)
		if (x >> i & 1)
			r |= UINT64_C(1) << (bits - 1 - i);
	return r;
}

static uint64_t reverse_bytes(uint64_t x, unsigned container)
{
	uint64_t r = 0;
	for (unsigned base = 0; base < 8; base += container)
		for (unsigned i = 0; i < container; i++) {
			uint64_t byte = x >> (8 * (base + i)) & 0xff;
			r |= byte << (8 * (base + container - 1 - i));
		}
	return r;
}

bool op_alu_bits(enum alu_op k, value a, value b, value *r)
{
	bool ia = a.loc < 0, ib = b.loc < 0;
	uint64_t x = (uint64_t)a.num, y = (uint64_t)b.num;
	switch (k) {
	case ALU_NZCV_ADD32:
	case ALU_NZCV_ADD64:
	case ALU_NZCV_SUB32:
	case ALU_NZCV_SUB64: {
		bool sub = k == ALU_NZCV_SUB32 || k == ALU_NZCV_SUB64;
		bool wide = k == ALU_NZCV_ADD64 || k == ALU_NZCV_SUB64;
		if (!ia && !ib && sub && wide)
			return nzcv_of_addresses(a, b, r);
		if (!ia || !ib)
			return false;
		*r = value_int(nzcv_arith(x, y, wide ? 64 : 32, sub));
		return true;
	}
	case ALU_NZCV_NZ:
		if (!ia || !ib || (b.num != 32 && b.num != 64))
			return false;
		*r = value_int(nz_of(x, (unsigned)b.num));
		return true;
	case ALU_NZCV_COND:
		if (!ia || !ib)
			return false;
		*r = value_int(cond_holds((unsigned)x, b.num));
		return true;
	case ALU_RBIT:
		if (!ia || !ib || b.num < 1 || b.num > 8)
			return false;
		*r = value_int((int64_t)reverse_bits(low_bits(x, 8u * (unsigned)b.num), 8u * (unsigned)b.num));
		return true;
	case ALU_REVB:
		if (!ia || !ib || (b.num != 2 && b.num != 4 && b.num != 8))
			return false;
		*r = value_int((int64_t)reverse_bytes(x, (unsigned)b.num));
		return true;
	case ALU_ABS:
		if (!ia)
			return false;
		*r = value_int(a.num < 0 ? (int64_t)(0 - x) : a.num);
		return true;
	default:
		return false;
	}
}
