/* riscv_print.c — a RISC-V instruction as herd7 prints it for the test's
 * hash (herd's RISCVBase.dump_instruction), and herd's order of RISC-V
 * registers in a state. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "riscv.h"
#include "../arch_print.h"

/* A register in herd's spelling (x0..x31 for ABI names too), else as is. */
static void riscv_reg(strbuf *out, const char *r)
{
	const char *canon = riscv_canonical_reg(r);
	sb_puts(out, canon ? canon : r);
}

/* `off(rs)` / `(rs)`, printed "off(xN)" (`with_offset`) or "(xN)". */
static void riscv_addr(strbuf *out, const char *a, bool with_offset)
{
	const char *open = strchr(a, '(');
	const char *close = open ? strchr(open, ')') : NULL;
	if (!open || !close) {
		sb_puts(out, a);
		return;
	}
	if (with_offset) {
		char *off = arch_trim_dup(a, (size_t)(open - a));
		if (*off)
			arch_put_int_or(out, off);
		else
			sb_puts(out, "0");
		free(off);
	}
	char *reg = arch_trim_dup(open + 1, (size_t)(close - open - 1));
	sb_puts(out, "(");
	riscv_reg(out, reg);
	sb_puts(out, ")");
	free(reg);
}

/* `li` is `ori rd,x0,k`, bare `fence` is `fence rw,rw`, the ".aq.rl"
 * order prints ".aqrl", lr/sc addresses print with their 0 offset and AMO
 * ones without.  herd prints xori with a leading blank (its pp_opi), which
 * its hash includes; NOP and MV in lower case, and `addi rd,rs,0` as the
 * `mv rd,rs` it stands for. */
static void print_insn(const arch_insn *in, label_renamer rename, void *ctx, strbuf *out)
{
	char m[sizeof in->mnemonic];
	memcpy(m, in->mnemonic, sizeof m);
	size_t n = strlen(m);
	if (n > 6 && !strcmp(m + n - 6, ".aq.rl"))
		memcpy(m + n - 6, ".aqrl", 6);
	bool lrsc = !strncmp(m, "lr.", 3) || !strncmp(m, "sc.", 3);
	bool amo = !strncmp(m, "amo", 3);
	bool branch = !strcmp(m, "j") || (m[0] == 'b' && in->n_args == 3);
	if (!strcmp(m, "fence") && in->n_args == 0) {
		sb_puts(out, "fence rw,rw");
		return;
	}
	if (!strcmp(m, "li") && in->n_args == 2) {
		sb_puts(out, "ori ");
		riscv_reg(out, in->args[0]);
		sb_puts(out, ",x0,");
		arch_put_int_or(out, in->args[1]);
		return;
	}
	if (!strcmp(m, "NOP") || !strcmp(m, "MV"))
		arch_lower(m);
	int64_t k;
	if (!strcmp(m, "addi") && in->n_args == 3 && arch_parse_int(in->args[2], &k) && k == 0) {
		arch_insn two = *in;   /* its arguments borrowed, not freed */
		strcpy(two.mnemonic, "mv");
		two.n_args = 2;
		print_insn(&two, rename, ctx, out);
		return;
	}
	if (!strcmp(m, "fence")) {
		sb_puts(out, "fence ");
		for (int i = 0; i < in->n_args; i++) {
			if (i)
				sb_puts(out, ",");
			sb_puts(out, in->args[i]);
		}
		return;
	}
	sb_puts(out, !strcmp(m, "xori") ? " xori" : m);
	for (int i = 0; i < in->n_args; i++) {
		sb_puts(out, i ? "," : " ");
		const char *a = in->args[i];
		if (branch && i == in->n_args - 1)
			arch_put_label(out, a, rename, ctx);
		else if (strchr(a, '('))
			riscv_addr(out, a, !amo || lrsc);
		else if (isdigit((unsigned char)a[0]) || a[0] == '-' || a[0] == '+')
			arch_put_int_or(out, a);
		else
			riscv_reg(out, a);
	}
}

void riscv_herd_print(const char *text, label_renamer rename, void *ctx, strbuf *out)
{
	arch_insn_print(text, print_insn, rename, ctx, out);
}

int riscv_reg_rank(const char *name)
{
	return arch_reg_rank_numbered(name, "rRx", 32);
}
