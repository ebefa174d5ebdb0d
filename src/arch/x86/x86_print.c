/* x86_print.c — an X86 instruction as herd7 prints it for the test's hash
 * (upper case, Intel order, immediates with '$', MOVB/W/L/Q folded to
 * MOV), and herd's order of X86 registers in a state. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arch_x86_sem.h"
#include "../arch_print.h"

/* herd's X86 registers, in its order of a state's registers */
static const char *const herd_regs[] = { "EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP",
                                         "EIP", "ZF", "SF", "CF", NULL };

/* The rank of `s` in herd_regs, in any case; -1 when not a register. */
int x86_reg_rank(const char *s)
{
	char buf[16];
	size_t n = strlen(s);
	if (n >= sizeof buf)
		return -1;
	memcpy(buf, s, n + 1);
	arch_upper(buf);
	for (int i = 0; herd_regs[i]; i++)
		if (!strcmp(buf, herd_regs[i]))
			return i;
	return -1;
}

static void x86_operand(strbuf *out, const char *a)
{
	size_t n = strlen(a);
	if (n >= 2 && a[0] == '[' && a[n - 1] == ']') {
		char *inner = arch_trim_dup(a + 1, n - 2);
		sb_putc(out, '[');
		if (x86_reg_rank(inner) >= 0)
			arch_upper(inner);
		sb_puts(out, inner);
		sb_putc(out, ']');
		free(inner);
		return;
	}
	int64_t v;
	if (a[0] == '$' && arch_parse_int(a + 1, &v)) {
		sb_printf(out, "$%" PRId64, v);
		return;
	}
	if (arch_parse_int(a, &v)) {
		sb_printf(out, "$%" PRId64, v);
		return;
	}
	char *c = xstrdup(a);
	if (x86_reg_rank(c) >= 0)
		arch_upper(c);
	sb_puts(out, c);
	free(c);
}

void x86_herd_print(const char *text, label_renamer rename, void *ctx, strbuf *out)
{
	arch_insn in;
	arch_insn_split(text, &in);
	char mn[32];
	strcpy(mn, in.mnemonic);
	arch_upper(mn);
	if (!strcmp(mn, "LOCK")) {
		sb_puts(out, "LOCK; ");
		x86_herd_print(in.rest, rename, ctx, out);
		arch_insn_free(&in);
		return;
	}
	if (!strcmp(mn, "MOVB") || !strcmp(mn, "MOVW") || !strcmp(mn, "MOVL") || !strcmp(mn, "MOVQ") ||
	    !strcmp(mn, "MOVT"))
		strcpy(mn, "MOV");
	if (mn[0] == 'J' && in.n_args >= 1) {
		static const char *const conds[][2] = {
			{ "JE", "E" }, { "JZ", "E" }, { "JNE", "NE" }, { "JNZ", "NE" }, { "JL", "L" },
			{ "JLE", "LE" }, { "JG", "G" }, { "JGE", "GE" }, { "JS", "S" }, { "JNS", "NS" },
		};
		const char *c = NULL;
		for (size_t i = 0; i < sizeof conds / sizeof conds[0]; i++)
			if (!strcmp(mn, conds[i][0]))
				c = conds[i][1];
		if (c)
			sb_printf(out, "J%s ", c);
		else
			sb_printf(out, "%s ", mn);
		arch_put_label(out, in.args[in.n_args - 1], rename, ctx);
		arch_insn_free(&in);
		return;
	}
	sb_puts(out, mn);
	/* herd's printer has an extra blank after these three */
	if (!strcmp(mn, "CMP") || !strcmp(mn, "DEC") || !strcmp(mn, "INC"))
		sb_putc(out, ' ');
	for (int i = 0; i < in.n_args; i++) {
		sb_putc(out, i ? ',' : ' ');
		x86_operand(out, in.args[i]);
	}
	arch_insn_free(&in);
}
