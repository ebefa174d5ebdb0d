/* x86_64_print.c — an X86_64 instruction as herd7 prints it for the
 * test's hash: AT&T syntax as written, mnemonics and registers in lower
 * case, immediates with '$', every nop form as NOP. */
#include <ctype.h>
#include <inttypes.h>
#include <string.h>

#include "arch_x86_sem.h"
#include "../arch_print.h"

static void x64_operand(strbuf *out, const char *a)
{
	int64_t v;
	/* herd prints an immediate with its `$` whether or not it was written */
	if ((a[0] == '$' && arch_parse_int(a + 1, &v)) || arch_parse_int(a, &v)) {
		sb_printf(out, "$%" PRId64, v);
		return;
	}
	/* registers (%rax) in lower case, location names as written */
	for (const char *p = a; *p; p++) {
		if (isspace((unsigned char)*p))
			continue;
		if (*p == '%') {
			sb_putc(out, '%');
			for (p++; *p && (isalnum((unsigned char)*p) || *p == '_'); p++)
				sb_putc(out, (char)tolower((unsigned char)*p));
			p--;
		} else {
			sb_putc(out, *p);
		}
	}
}

void x64_herd_print(const char *text, label_renamer rename, void *ctx, strbuf *out)
{
	arch_insn in;
	arch_insn_split(text, &in);
	char mn[32];
	strcpy(mn, in.mnemonic);
	arch_lower(mn);
	if (!strcmp(mn, "lock")) {
		sb_puts(out, "lock; ");
		x64_herd_print(in.rest, rename, ctx, out);
		arch_insn_free(&in);
		return;
	}
	/* herd reads every nop form (nopl 0(%rax,%rax,1), NOPW ...) and
	 * endbr64 as its NOP */
	if (!strcmp(mn, "endbr64") || !strncmp(mn, "nop", 3)) {
		sb_puts(out, "NOP");
		arch_insn_free(&in);
		return;
	}
	sb_puts(out, mn);
	if (mn[0] == 'j' && in.n_args >= 1) {
		sb_putc(out, ' ');
		arch_put_label(out, in.args[in.n_args - 1], rename, ctx);
		arch_insn_free(&in);
		return;
	}
	for (int i = 0; i < in.n_args; i++) {
		sb_putc(out, i ? ',' : ' ');
		x64_operand(out, in.args[i]);
	}
	arch_insn_free(&in);
}
