/* arch_operand.h — shared tools of the instruction translators (arch_ppc.c,
 * arch_x86.c, arch_x86_64.c): a cursor that reads one instruction's text
 * (mnemonic, registers, numbers, names) and reports located errors naming
 * the instruction and the architecture, and shorthands that append fully
 * initialised ops to the thread.
 *
 * This is private to src/arch: the rest of weft only sees arch.h.
 */
#ifndef WEFT_ARCH_OPERAND_H
#define WEFT_ARCH_OPERAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"

/* Register used for values an instruction needs internally (the old memory
 * value of an xchg, the loaded operand of `add [x],eax`).  No architecture's
 * canonical_reg accepts this spelling, so a condition can never name it. */
#define ARCH_SCRATCH_REG "#tmp"

/* Longest mnemonic, register or location name a translator reads; longer
 * words are reported as malformed rather than truncated silently. */
#define ARCH_WORD_MAX 64

/* Reading position inside one instruction's text.  `text` is the whole
 * (trimmed) instruction as handed to arch->translate: error columns are
 * computed from the distance to its start. */
typedef struct arch_cursor {
	arch_ctx *ctx;
	const char *arch;   /* architecture name for messages ("PPC") */
	const char *text;   /* the whole instruction                  */
	const char *p;      /* next unread character                  */
} arch_cursor;

void arch_cursor_init(arch_cursor *c, arch_ctx *ctx, const char *arch, const char *text);
void arch_cursor_skip_space(arch_cursor *c);
/* True when only blanks remain. */
bool arch_cursor_at_end(arch_cursor *c);
/* Skip blanks; if the next character is `ch`, consume it and return true. */
bool arch_cursor_accept(arch_cursor *c, char ch);
/* Skip blanks and read a word: an optional `%` then [A-Za-z_] followed by
 * [A-Za-z0-9_.].  Writes it NUL-terminated into buf (ARCH_WORD_MAX bytes)
 * and returns its length; 0 (nothing consumed) when no word starts here or
 * it is too long.  `*start` (may be NULL) gets where the word starts. */
size_t arch_cursor_word(arch_cursor *c, char *buf, const char **start);
/* Skip blanks and read an integer: optional '-' or '+', then decimal digits
 * or 0x/0X hex digits.  Returns false without consuming anything when no
 * number starts here; reports and returns false with *ok = false when the
 * number is malformed or out of range (`ok` tells the two apart). */
bool arch_cursor_number(arch_cursor *c, int64_t *out, bool *ok);

/* Column-adjusted location of a position inside the instruction text. */
srcloc arch_cursor_loc(const arch_cursor *c, const char *at);

/* "unsupported <ARCH> instruction '<text>'" at the mnemonic. */
bool arch_unsupported(arch_cursor *c);
/* "malformed <ARCH> instruction '<text>': <why>" at `at` (NULL: the cursor).
 * Always returns false, so translators can `return arch_malformed(...)`. */
bool arch_malformed(arch_cursor *c, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Malformed unless only blanks remain. */
bool arch_expect_end(arch_cursor *c);
/* Consume `ch` or report "expected 'ch'". */
bool arch_expect(arch_cursor *c, char ch);

/* ASCII case-insensitive equality (mnemonics and register names). */
bool arch_word_eq(const char *a, const char *b);

/* herd's symbolic register `%name` (a letter or '_' first, then letters,
 * digits and '_'): its own canonical spelling, in every architecture. */
bool arch_symbolic_reg(const char *name);

/* The decimal number after a register's prefix (r12, x5, cr3): no sign, no
 * leading zero (r01 is not a register name), at most `max`; -1 when not. */
int arch_reg_number(const char *s, int max);

/* ---- operands -------------------------------------------------------- */

static inline operand arch_opnd_none(void)
{
	operand o = { OPND_NONE, -1, { -1, 0 } };
	return o;
}
static inline operand arch_opnd_reg(int reg)
{
	operand o = { OPND_REG, reg, { -1, 0 } };
	return o;
}
static inline operand arch_opnd_imm(value v)
{
	operand o = { OPND_IMM, -1, v };
	return o;
}
static inline operand arch_opnd_int(int64_t n) { return arch_opnd_imm(value_int(n)); }

static inline address arch_address(operand base, operand index, int64_t offset)
{
	address a = { base, index, offset };
	return a;
}

/* Read an immediate written as a number or as a location name (the
 * location's address, as in `li r1,x`); returns false after an error. */
bool arch_read_immediate(arch_cursor *c, value *out);

/* ---- emitting ops (each sets every field the kind uses) ------------- */

void arch_emit_alu(arch_ctx *ctx, enum alu_op alu, int dst, operand a, operand b);
void arch_emit_load(arch_ctx *ctx, int dst, address addr, int size, unsigned flags);
void arch_emit_store(arch_ctx *ctx, address addr, operand data, int size, unsigned flags);
void arch_emit_stcond(arch_ctx *ctx, int dst, address addr, operand data, int size,
		      unsigned flags);
void arch_emit_fence(arch_ctx *ctx, const char *fence);

#endif
