/* herd_instr.h — (private to src/report) an instruction as herd7's
 * dump_instruction prints it, from the text as written in the test.
 *
 * herd7 hashes the program in its own normal spelling: PPC in lower case
 * with operands "r1,0(r2)", 64-bit ld/std folded to lwz/stw; X86 in upper
 * case, Intel order, immediates with '$', MOVB/W/L/Q folded to MOV; X86_64
 * in AT&T syntax as written.  Labels are replaced through `rename` (herd
 * renumbers them L00, L01, ... before hashing). */
#ifndef WEFT_REPORT_HERD_INSTR_H
#define WEFT_REPORT_HERD_INSTR_H

#include "../util/util.h"

/* Returns the new name of a label (static or owned by the caller's
 * context), or NULL if unknown (the label is then kept). */
typedef const char *(*label_renamer)(void *ctx, const char *label);

/* Append the herd spelling of `text` (one instruction, no label) for
 * architecture `arch_name` ("PPC", "X86", "X86_64"; others: as written,
 * blanks squeezed). */
void herd_instr_print(const char *arch_name, const char *text, label_renamer rename, void *ctx,
                      strbuf *out);

#endif
