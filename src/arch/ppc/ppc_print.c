/* ppc_print.c — a PPC instruction as herd7 prints it for the test's hash,
 * and herd's order of PPC registers in a state.
 *
 * herd hashes the program in lower case with operands "r1,0(r2)", its
 * 64-bit ld/std folded to lwz/stw and hwsync to sync. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ppc.h"
#include "../arch_print.h"

static void ppc_reg(strbuf *out, const char *r)
{
	if (r[0] == '%') {
		sb_puts(out, r);
		return;
	}
	char *c = xstrdup(r);
	arch_lower(c);
	sb_puts(out, c);
	free(c);
}

static void ppc_operand(strbuf *out, const char *a)
{
	int64_t v;
	if (arch_parse_int(a, &v))
		sb_printf(out, "%" PRId64, v);
	else
		ppc_reg(out, a);
}

/* "k(rA)" -> "k(ra)" with k in decimal */
static bool ppc_disp(strbuf *out, const char *a)
{
	const char *open = strchr(a, '(');
	size_t n = strlen(a);
	if (!open || n == 0 || a[n - 1] != ')')
		return false;
	char *k = arch_trim_dup(a, (size_t)(open - a));
	char *r = arch_trim_dup(open + 1, (size_t)(a + n - 1 - open - 1));
	if (!*k) {
		free(k);
		k = xstrdup("0");
	}
	arch_put_int_or(out, k);
	sb_putc(out, '(');
	ppc_reg(out, r);
	sb_putc(out, ')');
	free(k);
	free(r);
	return true;
}

/* "cr0" -> 0 */
static int ppc_crf(const char *a)
{
	if ((a[0] == 'c' || a[0] == 'C') && (a[1] == 'r' || a[1] == 'R') && isdigit((unsigned char)a[2]) && !a[3])
		return a[2] - '0';
	return -1;
}

static void print_insn(const arch_insn *in, label_renamer rename, void *ctx, strbuf *out)
{
	static const char *const dform[] = { "lwz", "stw", "lbz", "lhz", "stb", "sth", "lwzu", "stwu",
	                                     "lmw", "stmw", "lwa", NULL };
	static const char *const bcc[] = { "beq", "bne", "blt", "bge", "bgt", "ble", NULL };
	char mn[32];
	strcpy(mn, in->mnemonic);
	arch_lower(mn);
	/* herd hashes 64-bit accesses as their 32-bit forms */
	if (!strcmp(mn, "ld"))
		strcpy(mn, "lwz");
	else if (!strcmp(mn, "std"))
		strcpy(mn, "stw");
	else if (!strcmp(mn, "ldx"))
		strcpy(mn, "lwzx");
	else if (!strcmp(mn, "stdx"))
		strcpy(mn, "stwx");
	/* herd reads hwsync as its sync */
	else if (!strcmp(mn, "hwsync"))
		strcpy(mn, "sync");
	int n = in->n_args;
	char *const *a = in->args;
	/* herd's printers of these put a blank after some commas:
	 * "rlwinm r3,r4,5, 0,31" and "extsw r0, r1" */
	if ((!strcmp(mn, "rlwinm") || !strcmp(mn, "rlwimi")) && n == 5) {
		sb_printf(out, "%s ", mn);
		for (int i = 0; i < 5; i++) {
			sb_puts(out, i == 0 ? "" : i == 3 ? ", " : ",");
			ppc_operand(out, a[i]);
		}
		return;
	}
	if (!strcmp(mn, "extsw") && n == 2) {
		sb_puts(out, "extsw ");
		ppc_operand(out, a[0]);
		sb_puts(out, ", ");
		ppc_operand(out, a[1]);
		return;
	}
	if ((!strcmp(mn, "b") || !strcmp(mn, "bl")) && n >= 1) {
		sb_puts(out, mn);
		sb_puts(out, "   ");
		arch_put_label(out, a[n - 1], rename, ctx);
		return;
	}
	if (arch_in_list(mn, bcc) && n >= 1) {
		sb_puts(out, mn);
		sb_puts(out, "  ");
		arch_put_label(out, a[n - 1], rename, ctx);
		return;
	}
	sb_puts(out, mn);
	if (n == 0)
		return;
	sb_putc(out, ' ');
	int i = 0;
	bool comma = false;
	if ((!strcmp(mn, "cmpw") || !strcmp(mn, "cmpwi") || !strcmp(mn, "cmplwi")) && n == 3 &&
	    ppc_crf(a[0]) >= 0) {
		/* herd omits field cr0 */
		if (ppc_crf(a[0]) != 0) {
			sb_printf(out, "cr%d", ppc_crf(a[0]));
			comma = true;
		}
		i = 1;
	}
	int64_t k;
	if (arch_in_list(mn, dform) && n == 3 && arch_parse_int(a[1], &k)) {
		/* "lwz r1,0,r2" is herd's old spelling of "lwz r1,0(r2)" */
		ppc_reg(out, a[0]);
		sb_printf(out, ",%" PRId64 "(", k);
		ppc_reg(out, a[2]);
		sb_putc(out, ')');
		return;
	}
	for (; i < n; i++) {
		if (comma)
			sb_putc(out, ',');
		comma = true;
		if (!(arch_in_list(mn, dform) && i == 1 && ppc_disp(out, a[i])))
			ppc_operand(out, a[i]);
	}
}

void ppc_herd_print(const char *text, label_renamer rename, void *ctx, strbuf *out)
{
	arch_insn_print(text, print_insn, rename, ctx, out);
}

/* r0 < r1 < ... < r31, by number */
int ppc_reg_rank(const char *name)
{
	return arch_reg_rank_numbered(name, "rR", 32);
}
