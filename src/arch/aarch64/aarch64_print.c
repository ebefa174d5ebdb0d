/* aarch64_print.c — an AArch64 instruction as herd7 prints it for the
 * test's hash ("MNEMONIC a,b,c" in upper case, branch targets renamed),
 * and herd's order of AArch64 registers in a state. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "aarch64.h"
#include "../arch_print.h"

/* One operand as herd prints it: blanks dropped ("[X1, W2, SXTW]" is
 * "[X1,W2,SXTW]"; "LSL #2" keeps its one blank), letters in upper case,
 * immediates "#k" in decimal. */
static void a64_operand(strbuf *out, const char *a)
{
	bool blank = false;
	for (const char *p = a; *p; p++) {
		if (isspace((unsigned char)*p)) {
			blank = true;
			continue;
		}
		/* a blank survives only between a word and '#' (LSL #2) */
		if (blank && *p == '#' && out->len > 0 && isalpha((unsigned char)out->s[out->len - 1]))
			sb_putc(out, ' ');
		blank = false;
		if (*p == '#') {
			const char *e = p + 1;
			while (*e && *e != ',' && *e != ']' && !isspace((unsigned char)*e))
				e++;
			char *num = xstrndup(p + 1, (size_t)(e - p - 1));
			sb_putc(out, '#');
			arch_put_int_or(out, num);
			free(num);
			p = e - 1;
			continue;
		}
		sb_putc(out, (char)toupper((unsigned char)*p));
	}
}

static void print_insn(const arch_insn *in, label_renamer rename, void *ctx, strbuf *out)
{
	char m[sizeof in->mnemonic];
	memcpy(m, in->mnemonic, sizeof m);
	arch_upper(m);
	bool branch = !strcmp(m, "B") || !strncmp(m, "B.", 2) || !strcmp(m, "CBZ") || !strcmp(m, "CBNZ");
	sb_puts(out, m);
	for (int i = 0; i < in->n_args; i++) {
		/* a post-index "[X3],#4" prints "[X3]#4" in the printing herd
		 * hashes (its compat mode) */
		bool post = i > 0 && in->args[i - 1][0] == '[' && in->args[i][0] == '#';
		if (!post)
			sb_puts(out, i ? "," : " ");
		if (branch && i == in->n_args - 1)
			arch_put_label(out, in->args[i], rename, ctx);
		else
			a64_operand(out, in->args[i]);
	}
}

void a64_herd_print(const char *text, label_renamer rename, void *ctx, strbuf *out)
{
	arch_insn_print(text, print_insn, rename, ctx, out);
}

/* X0..X30 by number (W names are the same registers) */
int a64_reg_rank(const char *name)
{
	return arch_reg_rank_numbered(name, "XWxw", 31);
}
