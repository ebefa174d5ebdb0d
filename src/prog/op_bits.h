/* op_bits.h — op_eval.c's helper for AArch64's flag and bit ops
 * (op_bits.c): ALU_NZCV_*, ALU_RBIT, ALU_REVB, ALU_ABS. */
#ifndef WEFT_OP_BITS_H
#define WEFT_OP_BITS_H

#include "prog.h"

/* As op_alu, for those ops only (false for any other). */
bool op_alu_bits(enum alu_op k, value a, value b, value *r);

#endif
