/* herd_instr.c — herd7's spelling of one instruction (see herd_instr.h).
 *
 * We re-derive herd's printer from the text as written rather than from
 * weft's ops: the ops lose the mnemonic (lwz and ld are both a load), and
 * herd's hash is over its own instruction syntax. */
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "herd_instr.h"
#include "../arch/arch.h"

#define MAX_ARGS 8

typedef struct insn {
	char mnemonic[32];
	int n_args;
	char *args[MAX_ARGS];   /* trimmed, owned */
	const char *rest;       /* text after the mnemonic, trimmed start */
} insn;

static char *trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

/* Split "mnemonic a, b(c), [d]" at top-level commas. */
static void insn_split(const char *text, insn *in)
{
	memset(in, 0, sizeof *in);
	while (isspace((unsigned char)*text))
		text++;
	size_t k = 0;
	while (text[k] && !isspace((unsigned char)text[k]) && k + 1 < sizeof in->mnemonic) {
		in->mnemonic[k] = text[k];
		k++;
	}
	in->mnemonic[k] = '\0';
	const char *p = text + k;
	while (*p && !isspace((unsigned char)*p))
		p++;   /* an over-long mnemonic: the tail is dropped */
	while (isspace((unsigned char)*p))
		p++;
	in->rest = p;
	if (!*p)
		return;
	int depth = 0;
	const char *start = p;
	for (;; p++) {
		if (*p == '(' || *p == '[')
			depth++;
		else if ((*p == ')' || *p == ']') && depth > 0)
			depth--;
		if ((*p == ',' && depth == 0) || !*p) {
			if (in->n_args < MAX_ARGS)
				in->args[in->n_args++] = trim_dup(start, (size_t)(p - start));
			if (!*p)
				break;
			start = p + 1;
		}
	}
}

static void insn_free(insn *in)
{
	for (int i = 0; i < in->n_args; i++)
		free(in->args[i]);
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

static void upper(char *s)
{
	for (; *s; s++)
		*s = (char)toupper((unsigned char)*s);
}

/* A whole-string integer (decimal, 0x hex, optional sign)? */
static bool parse_int(const char *s, int64_t *v)
{
	if (!*s)
		return false;
	char *end;
	long long x = strtoll(s, &end, 0);
	if (*end)
		return false;
	*v = (int64_t)x;
	return true;
}

static void put_int_or(strbuf *out, const char *s)
{
	int64_t v;
	if (parse_int(s, &v))
		sb_printf(out, "%" PRId64, v);
	else
		sb_puts(out, s);
}

static void put_label(strbuf *out, const char *lbl, label_renamer rename, void *ctx)
{
	const char *n = rename ? rename(ctx, lbl) : NULL;
	sb_puts(out, n ? n : lbl);
}

/* ---- PPC ------------------------------------------------------------------ */

static void ppc_reg(strbuf *out, const char *r)
{
	if (r[0] == '%') {
		sb_puts(out, r);
		return;
	}
	char *c = xstrdup(r);
	lower(c);
	sb_puts(out, c);
	free(c);
}

static void ppc_operand(strbuf *out, const char *a)
{
	int64_t v;
	if (parse_int(a, &v))
		sb_printf(out, "%" PRId64, v);
	else
		ppc_reg(out, a);
}

static bool in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

/* "k(rA)" -> "k(ra)" with k in decimal */
static bool ppc_disp(strbuf *out, const char *a)
{
	const char *open = strchr(a, '(');
	size_t n = strlen(a);
	if (!open || n == 0 || a[n - 1] != ')')
		return false;
	char *k = trim_dup(a, (size_t)(open - a));
	char *r = trim_dup(open + 1, (size_t)(a + n - 1 - open - 1));
	if (!*k) {
		free(k);
		k = xstrdup("0");
	}
	put_int_or(out, k);
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

static void ppc_print(const insn *in, label_renamer rename, void *ctx, strbuf *out)
{
	static const char *const dform[] = { "lwz", "stw", "lbz", "lhz", "stb", "sth", "lwzu", "stwu",
	                                     "lmw", "stmw", "lwa", NULL };
	static const char *const bcc[] = { "beq", "bne", "blt", "bge", "bgt", "ble", NULL };
	char mn[32];
	strcpy(mn, in->mnemonic);
	lower(mn);
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
		put_label(out, a[n - 1], rename, ctx);
		return;
	}
	if (in_list(mn, bcc) && n >= 1) {
		sb_puts(out, mn);
		sb_puts(out, "  ");
		put_label(out, a[n - 1], rename, ctx);
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
	if (in_list(mn, dform) && n == 3 && parse_int(a[1], &k)) {
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
		if (!(in_list(mn, dform) && i == 1 && ppc_disp(out, a[i])))
			ppc_operand(out, a[i]);
	}
}

/* ---- X86 (Intel syntax) ---------------------------------------------------- */

static bool x86_is_reg(const char *s)
{
	static const char *const regs[] = { "EAX", "EBX", "ECX", "EDX", "ESI", "EDI", "EBP", "ESP",
	                                    "EIP", "ZF", "SF", "CF", NULL };
	char buf[16];
	size_t n = strlen(s);
	if (n >= sizeof buf)
		return false;
	memcpy(buf, s, n + 1);
	upper(buf);
	return in_list(buf, regs);
}

static void x86_operand(strbuf *out, const char *a)
{
	size_t n = strlen(a);
	if (n >= 2 && a[0] == '[' && a[n - 1] == ']') {
		char *inner = trim_dup(a + 1, n - 2);
		sb_putc(out, '[');
		if (x86_is_reg(inner))
			upper(inner);
		sb_puts(out, inner);
		sb_putc(out, ']');
		free(inner);
		return;
	}
	int64_t v;
	if (a[0] == '$' && parse_int(a + 1, &v)) {
		sb_printf(out, "$%" PRId64, v);
		return;
	}
	if (parse_int(a, &v)) {
		sb_printf(out, "$%" PRId64, v);
		return;
	}
	char *c = xstrdup(a);
	if (x86_is_reg(c))
		upper(c);
	sb_puts(out, c);
	free(c);
}

static void x86_print(const char *text, label_renamer rename, void *ctx, strbuf *out)
{
	insn in;
	insn_split(text, &in);
	char mn[32];
	strcpy(mn, in.mnemonic);
	upper(mn);
	if (!strcmp(mn, "LOCK")) {
		sb_puts(out, "LOCK; ");
		x86_print(in.rest, rename, ctx, out);
		insn_free(&in);
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
		put_label(out, in.args[in.n_args - 1], rename, ctx);
		insn_free(&in);
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
	insn_free(&in);
}

/* ---- X86_64 (AT&T syntax) -------------------------------------------------- */

static void x64_operand(strbuf *out, const char *a)
{
	int64_t v;
	/* herd prints an immediate with its `$` whether or not it was written */
	if ((a[0] == '$' && parse_int(a + 1, &v)) || parse_int(a, &v)) {
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

static void x64_print(const char *text, label_renamer rename, void *ctx, strbuf *out)
{
	insn in;
	insn_split(text, &in);
	char mn[32];
	strcpy(mn, in.mnemonic);
	lower(mn);
	if (!strcmp(mn, "lock")) {
		sb_puts(out, "lock; ");
		x64_print(in.rest, rename, ctx, out);
		insn_free(&in);
		return;
	}
	/* herd reads every nop form (nopl 0(%rax,%rax,1), NOPW ...) and
	 * endbr64 as its NOP */
	if (!strcmp(mn, "endbr64") || !strncmp(mn, "nop", 3)) {
		sb_puts(out, "NOP");
		insn_free(&in);
		return;
	}
	sb_puts(out, mn);
	if (mn[0] == 'j' && in.n_args >= 1) {
		sb_putc(out, ' ');
		put_label(out, in.args[in.n_args - 1], rename, ctx);
		insn_free(&in);
		return;
	}
	for (int i = 0; i < in.n_args; i++) {
		sb_putc(out, i ? ',' : ' ');
		x64_operand(out, in.args[i]);
	}
	insn_free(&in);
}

/* ---- RISCV ------------------------------------------------------------------ */

/* A register in herd's spelling (x0..x31 for ABI names too), else as is. */
static void riscv_reg(strbuf *out, const char *r)
{
	const arch *a = arch_find("RISCV");
	const char *canon = a ? a->canonical_reg(r) : NULL;
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
		char *off = trim_dup(a, (size_t)(open - a));
		if (*off)
			put_int_or(out, off);
		else
			sb_puts(out, "0");
		free(off);
	}
	char *reg = trim_dup(open + 1, (size_t)(close - open - 1));
	sb_puts(out, "(");
	riscv_reg(out, reg);
	sb_puts(out, ")");
	free(reg);
}

/* herd's RISCVBase.dump_instruction: `li` is `ori rd,x0,k`, bare `fence`
 * is `fence rw,rw`, the ".aq.rl" order prints ".aqrl", lr/sc addresses
 * print with their 0 offset and AMO ones without.  herd prints xori with
 * a leading blank (its pp_opi), which its hash includes. */
static void riscv_print(const insn *in, label_renamer rename, void *ctx, strbuf *out)
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
		put_int_or(out, in->args[1]);
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
			put_label(out, a, rename, ctx);
		else if (strchr(a, '('))
			riscv_addr(out, a, !amo || lrsc);
		else if (isdigit((unsigned char)a[0]) || a[0] == '-' || a[0] == '+')
			put_int_or(out, a);
		else
			riscv_reg(out, a);
	}
}

/* ---- AArch64 ---------------------------------------------------------------- */

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
			put_int_or(out, num);
			free(num);
			p = e - 1;
			continue;
		}
		sb_putc(out, (char)toupper((unsigned char)*p));
	}
}

/* herd's AArch64 printer: "MNEMONIC a,b,c", branch targets renamed. */
static void a64_print(const insn *in, label_renamer rename, void *ctx, strbuf *out)
{
	char m[sizeof in->mnemonic];
	memcpy(m, in->mnemonic, sizeof m);
	upper(m);
	bool branch = !strcmp(m, "B") || !strncmp(m, "B.", 2) || !strcmp(m, "CBZ") || !strcmp(m, "CBNZ");
	sb_puts(out, m);
	for (int i = 0; i < in->n_args; i++) {
		/* a post-index "[X3],#4" prints "[X3]#4" in the printing herd
		 * hashes (its compat mode) */
		bool post = i > 0 && in->args[i - 1][0] == '[' && in->args[i][0] == '#';
		if (!post)
			sb_puts(out, i ? "," : " ");
		if (branch && i == in->n_args - 1)
			put_label(out, in->args[i], rename, ctx);
		else
			a64_operand(out, in->args[i]);
	}
}

void herd_instr_print(const char *arch_name, const char *text, label_renamer rename, void *ctx,
                      strbuf *out)
{
	if (!strcmp(arch_name, "PPC")) {
		insn in;
		insn_split(text, &in);
		ppc_print(&in, rename, ctx, out);
		insn_free(&in);
	} else if (!strcmp(arch_name, "X86")) {
		x86_print(text, rename, ctx, out);
	} else if (!strcmp(arch_name, "X86_64")) {
		x64_print(text, rename, ctx, out);
	} else if (!strcmp(arch_name, "RISCV")) {
		insn in;
		insn_split(text, &in);
		riscv_print(&in, rename, ctx, out);
		insn_free(&in);
	} else if (!strcmp(arch_name, "AArch64")) {
		insn in;
		insn_split(text, &in);
		a64_print(&in, rename, ctx, out);
		insn_free(&in);
	} else {
		/* unknown: as written, runs of blanks squeezed */
		bool blank = false;
		for (const char *p = text; *p; p++) {
			if (isspace((unsigned char)*p)) {
				blank = out->len > 0;
				continue;
			}
			if (blank)
				sb_putc(out, ' ');
			blank = false;
			sb_putc(out, *p);
		}
	}
}
