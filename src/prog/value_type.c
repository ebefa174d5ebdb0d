/* value_type.c — the integer types of litmus locations and registers, and
 * the wrap-around of final values to them (prog.h, "typed values").
 *
 * herd gives every location and register a C type, "int" (32-bit signed)
 * unless the init block declares another, and shows final values and
 * compares them with a condition's in that type (its states it tells
 * apart by the values held: engine.h's final_state): an undeclared PPC
 * register holding
 * 0xaaaaaaaaaaaaaaab prints as -1431655765, an `int64_t` one as the full
 * value, a `uint32_t` memory word holding -1 as 4294967295.  weft computes
 * on 64-bit values and applies the type when a final state is read.
 */
#include <string.h>

#include "prog.h"

typedef struct type_name {
	const char *name;
	int bytes;
	bool is_signed;
} type_name;

static const type_name type_names[] = {
	{ "int", 4, true }, { "signed", 4, true }, { "signed int", 4, true }, { "int32_t", 4, true },
	{ "unsigned", 4, false }, { "unsigned int", 4, false }, { "uint32_t", 4, false },
	{ "char", 1, true }, { "signed char", 1, true }, { "int8_t", 1, true },
	{ "unsigned char", 1, false }, { "uint8_t", 1, false },
	{ "short", 2, true }, { "int16_t", 2, true }, { "unsigned short", 2, false }, { "uint16_t", 2, false },
	{ "long", 8, true }, { "long long", 8, true }, { "int64_t", 8, true }, { "intptr_t", 8, true },
	{ "unsigned long", 8, false }, { "unsigned long long", 8, false }, { "uint64_t", 8, false },
	{ "uintptr_t", 8, false }, { "size_t", 8, false },
	/* herd's own spellings of the sized types */
	{ "int128_t", 8, true }, { "uint128_t", 8, false },
};

bool int_type_of(const char *declared, int_type *out)
{
	if (!declared) {
		out->bytes = 4;
		out->is_signed = true;
		return true;
	}
	for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
		if (!strcmp(type_names[i].name, declared)) {
			out->bytes = type_names[i].bytes;
			out->is_signed = type_names[i].is_signed;
			return true;
		}
	return false;
}

const char *lval_declared_type(const litmus_test *t, lval lv)
{
	if (lv.thread >= 0)
		return lv.thread < t->n_threads && lv.reg >= 0 && lv.reg < t->threads[lv.thread].n_regs
			? t->threads[lv.thread].regs[lv.reg].type : NULL;
	return lv.loc >= 0 && lv.loc < t->n_locs ? t->locs[lv.loc].type : NULL;
}

value value_in_type(value v, int_type ty)
{
	if (v.loc != -1 || ty.bytes >= 8)
		return v;   /* addresses and flags keep their meaning */
	unsigned bits = 8u * (unsigned)ty.bytes;
	uint64_t mask = (UINT64_C(1) << bits) - 1;
	uint64_t low = (uint64_t)v.num & mask;
	if (ty.is_signed && (low >> (bits - 1)))
		low |= ~mask;
	return value_int((int64_t)low);
}

value lval_final_value(const litmus_test *t, lval lv, value v)
{
	int_type ty;
	if (!t || !int_type_of(lval_declared_type(t, lv), &ty))
		return v;
	return value_in_type(v, ty);
}

bool lval_is_unsigned64(const litmus_test *t, lval lv)
{
	int_type ty;
	return t && int_type_of(lval_declared_type(t, lv), &ty) && ty.bytes == 8 && !ty.is_signed &&
	       lval_declared_type(t, lv) != NULL;
}
