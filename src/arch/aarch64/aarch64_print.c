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
		if (*p == '%') {
			/* a symbolic register: herd's pp_xreg "X%name", its name
			 * as written (herd's symbolic registers are X ones) */
			sb_puts(out, "X%");
			while (isalnum((unsigned char)p[1]) || p[1] == '_')
				sb_putc(out, *++p);
			blank = false;
			continue;
		}
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

/* ---- the memory side's spellings ---------------------------------------- */

/* An address printed from `at` on: herd prints an offset of 0 as no
 * offset ([X1,#0] is [X1]; a pre-index [X1,#0]! keeps it). */
static void drop_zero_offset(strbuf *out, size_t at)
{
	size_t n = out->len - at;
	const char *a = out->s + at;
	if (n > 4 && a[0] == '[' && !strcmp(a + n - 4, ",#0]") && !memchr(a, ',', n - 4)) {
		out->len -= 3;
		out->s[out->len - 1] = ']';
		out->s[out->len] = '\0';
	}
}

/* A register operand printed at `at` as herd's X spelling (W0 is X0). */
static void as_x_reg(strbuf *out, size_t at)
{
	if (out->len > at && out->s[at] == 'W')
		out->s[at] = 'X';
}

static bool is_pair(const char *m)
{
	static const char *const pairs[] = { "LDP", "STP", "LDNP", "STNP", "LDIAPP", "STILP", "LDPSW", NULL };
	return arch_in_list(m, pairs);
}

/* herd's LDUR, "LDUR Xt, [Xn{,#k}]": Rt always as an X register. */
static void print_ldur(const arch_insn *in, strbuf *out)
{
	sb_puts(out, "LDUR ");
	for (int i = 0; i < in->n_args; i++) {
		size_t at = out->len;
		if (i)
			sb_puts(out, ", ");
		a64_operand(out, in->args[i]);
		if (i == 0)
			as_x_reg(out, at);
		else
			drop_zero_offset(out, at + 2);
	}
}

static void print_insn(const arch_insn *in, label_renamer rename, void *ctx, strbuf *out)
{
	char m[sizeof in->mnemonic];
	memcpy(m, in->mnemonic, sizeof m);
	arch_upper(m);
	if (!strcmp(m, "LDUR")) {
		print_ldur(in, out);
		return;
	}
	bool branch = !strcmp(m, "B") || !strncmp(m, "B.", 2) || !strcmp(m, "CBZ") || !strcmp(m, "CBNZ") ||
	              !strcmp(m, "BL") || !strcmp(m, "ADR");
	/* herd's compat printer spells ADR "ADDR" */
	if (!strcmp(m, "ADR"))
		strcpy(m, "ADDR");
	/* herd's compat printer spells LDXP's first register as a W one */
	bool ldxp = !strcmp(m, "LDXP") || !strcmp(m, "LDAXP");
	sb_puts(out, m);
	for (int i = 0; i < in->n_args; i++) {
		/* a post-index "[X3],#4" prints "[X3]#4" in the printing herd
		 * hashes (its compat mode), " [X3]#4" in a pair's */
		bool post = i > 0 && in->args[i - 1][0] == '[' && in->args[i][0] == '#';
		bool post_next = i + 1 < in->n_args && in->args[i][0] == '[' && in->args[i + 1][0] == '#';
		if (!post)
			sb_puts(out, !i ? " " : post_next && is_pair(m) ? ", " : ",");
		size_t at = out->len;
		if (branch && i == in->n_args - 1)
			arch_put_label(out, in->args[i], rename, ctx);
		else
			a64_operand(out, in->args[i]);
		if (ldxp && i == 0 && out->s[at] == 'X')
			out->s[at] = 'W';
		if (in->args[i][0] == '[')
			drop_zero_offset(out, at);
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
