/* riscv.h — the RISC-V front-end's private parts, shared by its files:
 *
 *   arch_riscv.c   registers, syntax and semantics, registration
 *   riscv_print.c  herd's spelling of an instruction for the hash
 */
#ifndef WEFT_RISCV_H
#define WEFT_RISCV_H

#include "../arch.h"

/* A register's canonical spelling (xN for ABI names too), NULL if not one. */
const char *riscv_canonical_reg(const char *name);
void riscv_herd_print(const char *text, label_renamer rename, void *ctx, strbuf *out);
/* x0 < x1 < ... < x31 (and r0..r31), by number */
int riscv_reg_rank(const char *name);

#endif
