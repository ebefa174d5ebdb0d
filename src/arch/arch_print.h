/* arch_print.h — shared tools of the herd printers (each architecture's
 * herd_print, arch.h): an instruction's text split into its mnemonic and
 * top-level operands, and the small spellings herd's printers share.
 *
 * herd hashes a test's program in its own instruction syntax, so each
 * printer re-derives herd's spelling from the text as written rather than
 * from weft's ops: the ops lose the mnemonic (PPC's lwz and ld are both a
 * load).  Private to src/arch: the rest of weft only sees arch.h.
 */
#ifndef WEFT_ARCH_PRINT_H
#define WEFT_ARCH_PRINT_H

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"

#define ARCH_INSN_MAX_ARGS 8

/* "mnemonic a, b(c), [d]" split at its top-level commas. */
typedef struct arch_insn {
	char mnemonic[32];
	int n_args;
	char *args[ARCH_INSN_MAX_ARGS]; /* trimmed, owned (arch_insn_free)  */
	const char *rest;               /* text after the mnemonic, trimmed
	                                 * start (X86's LOCK prefix)        */
} arch_insn;

void arch_insn_split(const char *text, arch_insn *in);
void arch_insn_free(arch_insn *in);
/* A herd_print made of a printer of split instructions: `text` split,
 * printed by `print`, freed. */
typedef void (*arch_insn_printer)(const arch_insn *in, label_renamer rename, void *ctx, strbuf *out);
void arch_insn_print(const char *text, arch_insn_printer print, label_renamer rename, void *ctx, strbuf *out);

/* s[0..n) without its surrounding blanks, owned by the caller. */
char *arch_trim_dup(const char *s, size_t n);
void arch_lower(char *s);
void arch_upper(char *s);
/* A whole-string integer (decimal, 0x hex, optional sign)? */
bool arch_parse_int(const char *s, int64_t *v);
/* `s` in decimal when it is an integer, else as written. */
void arch_put_int_or(strbuf *out, const char *s);
/* A label through herd's renaming (kept when `rename` does not know it). */
void arch_put_label(strbuf *out, const char *lbl, label_renamer rename, void *ctx);
/* Is `s` one of the NULL-terminated `list`? */
bool arch_in_list(const char *s, const char *const *list);

/* For a reg_rank (arch.h): the number of a register named by one of
 * `prefixes` and a decimal number below `n_regs` ("r12": 12), else -1. */
int arch_reg_rank_numbered(const char *name, const char *prefixes, int n_regs);

#endif
