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
 * immediates "#k" in decimal.  The amount of a shift or extension in an
 * address is an immediate whether written "#2" or "2"; herd leaves out
 * an amount of 0, and LSL #0 altogether ("[X1,X2,LSL 0]" is "[X1,X2]"). */
static void a64_operand(strbuf *out, const char *a)
{
	bool blank = false, in_address = false;
	for (const char *p = a; *p; p++) {
		if (*p == '[' || *p == ']')
			in_address = *p == '[';
		if (isspace((unsigned char)*p)) {
			blank = true;
			continue;
		}
		/* LSL#2 is LSL #2 too */
		bool amount = (blank || *p == '#') && out->len > 0 && isalpha((unsigned char)out->s[out->len - 1]) &&
		              (*p == '#' || isdigit((unsigned char)*p));
		/* a blank survives only between a word and its amount (LSL #2) */
		if (amount)
			sb_putc(out, ' ');
		blank = false;
		if (*p == '#' || amount) {
			const char *n = *p == '#' ? p + 1 : p, *e = n;
			while (*e && *e != ',' && *e != ']' && !isspace((unsigned char)*e))
				e++;
			char *num = xstrndup(n, (size_t)(e - n));
			int64_t k;
			if (amount && in_address && arch_parse_int(num, &k) && k == 0) {
				/* drop " " and, after LSL, the whole ",LSL" */
				out->len--;
				size_t w = out->len;
				while (w > 0 && isalpha((unsigned char)out->s[w - 1]))
					w--;
				if (w > 0 && out->s[w - 1] == ',' && !strncmp(out->s + w, "LSL", out->len - w) &&
				    out->len - w == 3)
					out->len = w - 1;
				out->s[out->len] = '\0';
			} else {
				sb_putc(out, '#');
				arch_put_int_or(out, num);
			}
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
