/* aarch64_print.c — an AArch64 instruction as herd7 prints it for the
 * test's hash ("MNEMONIC a,b,c" in upper case, branch targets renamed),
 * and herd's order of AArch64 registers in a state.
 *
 * herd prints the instruction it parsed (lib/AArch64Base.ml's
 * dump_instruction_hash, its compat mode), not the text: an alias is
 * printed as what it was parsed into (NEG as SUB Rd,ZR, CSINC Rd,ZR,ZR as
 * CSET, MADD with the zero register as MUL, REV64 as REV, ADR as ADDR), a
 * shift by 0 of a register or an immediate operand is no shift, and
 * UBFM/SBFM name X registers whatever was written.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "aarch64.h"
#include "../arch_print.h"

/* One operand as herd prints it: blanks dropped ("[X1, W2, SXTW]" is
 * "[X1,W2,SXTW]"; "LSL #2" keeps its one blank), letters in upper case,
 * immediates "#k" in decimal.  The amount of a shift or extension in an
 * address is an immediate whether written "#2" or "2", and so is its
 * offset ("[X1,560]" is "[X1,#560]"); herd leaves out
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
			/* written X%name already has its X */
			bool sized = out->len > 0 && (out->s[out->len - 1] == 'X' || out->s[out->len - 1] == 'W') &&
			             (out->len == 1 || !isalnum((unsigned char)out->s[out->len - 2]));
			sb_puts(out, sized ? "%" : "X%");
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
		/* an address's offset written without its '#' ([X1,560]) */
		bool bare_offset = in_address && out->len > 0 && out->s[out->len - 1] == ',' &&
		                   (isdigit((unsigned char)*p) || *p == '-');
		if (*p == '#' || amount || bare_offset) {
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

/* An instruction being printed: its mnemonic and operands as herd
 * spells them, rewritten by the alias rules below. */
typedef struct a64_printed {
	char m[32];
	int n;
	char *args[ARCH_INSN_MAX_ARGS];
} a64_printed;

static void set_arg(a64_printed *p, int i, const char *s)
{
	free(p->args[i]);
	p->args[i] = xstrndup(s, strlen(s));
}

static void drop_arg(a64_printed *p, int i)
{
	free(p->args[i]);
	memmove(&p->args[i], &p->args[i + 1], (size_t)(p->n - i - 1) * sizeof p->args[0]);
	p->n--;
}

static void insert_arg(a64_printed *p, int i, const char *s)
{
	if (p->n >= ARCH_INSN_MAX_ARGS)
		return;
	memmove(&p->args[i + 1], &p->args[i], (size_t)(p->n - i) * sizeof p->args[0]);
	p->args[i] = xstrndup(s, strlen(s));
	p->n++;
}

static bool is_zr(const char *r) { return !strcmp(r, "XZR") || !strcmp(r, "WZR"); }

/* "LSL #0" and the other shifts by zero. */
static bool zero_shift(const char *a)
{
	return (!strncmp(a, "LSL ", 4) || !strncmp(a, "LSR ", 4) || !strncmp(a, "ASR ", 4) ||
	        !strncmp(a, "ROR ", 4)) && !strcmp(a + 4, "#0");
}

/* "SXTB", "UXTW #2" and the other extensions of a register. */
static bool is_extension(const char *a)
{
	static const char *const ext[] = { "SXTB", "SXTH", "SXTW", "SXTX", "UXTB", "UXTH", "UXTW", "UXTX" };
	for (size_t i = 0; i < sizeof ext / sizeof ext[0]; i++)
		if (!strncmp(a, ext[i], 4) && (a[4] == '\0' || a[4] == ' '))
			return true;
	return false;
}

static void herd_aliases(a64_printed *p)
{
	static const char *const op3[] = { "ADD", "ADDS", "SUB", "SUBS", "AND", "ANDS", "ORR", "ORN", "EOR",
	                                   "EON", "BIC", "BICS", "CMP", "TST", "NEG", "NEGS", "MVN", "LSL",
	                                   "LSR", "ASR", "ROR", "LSLV", "LSRV", "ASRV", "RORV", NULL };
	static const char *const cset[] = { "CSINC", "CSINV", "CSET", "CSETM", "CINC", NULL };
	static const char *const shiftv[] = { "LSLV", "LSRV", "ASRV", "RORV", NULL };
	/* the last operand of herd's I_OP3 is its op_ext: no shift by 0 */
	if (arch_in_list(p->m, op3) && p->n > 1 && zero_shift(p->args[p->n - 1]))
		drop_arg(p, p->n - 1);
	if (arch_in_list(p->m, shiftv))
		p->m[3] = '\0';
	/* herd's lexer reads EON as EOR */
	if (!strcmp(p->m, "EON"))
		p->m[2] = 'R';
	/* MOVZ, MOVN, MOVK print their shift after two commas (herd's
	 * format gives one, its pp_barrel_shift another) */
	if (!strncmp(p->m, "MOV", 3) && strchr("ZNK", p->m[3]) && p->m[3] && !p->m[4] && p->n == 3) {
		strbuf b = { 0 };
		sb_printf(&b, ",%s", p->args[2]);
		free(p->args[2]);
		p->args[2] = sb_take(&b);
	}
	const char *zr = p->n > 0 && p->args[0][0] == 'W' ? "WZR" : "XZR";
	if (!strcmp(p->m, "NEG") || !strcmp(p->m, "NEGS")) {
		/* SUB(S) Rd,ZR,OP2: printed so in herd's compat mode */
		p->m[0] = 'S', p->m[1] = 'U', p->m[2] = 'B';
		if (p->n > 0)
			insert_arg(p, 1, zr);
	}
	if (!strcmp(p->m, "CMP") && p->n == 3 && is_extension(p->args[2])) {
		/* CMP with an extended register is herd's I_ADDSUBEXT: no alias */
		strcpy(p->m, "SUBS");
		insert_arg(p, 0, zr);
	}
	if (p->n >= 3 && is_zr(p->args[0]) && (!strcmp(p->m, "SUBS") || !strcmp(p->m, "ANDS")) &&
	    !(p->n > 3 && is_extension(p->args[3]))) {
		strcpy(p->m, p->m[0] == 'S' ? "CMP" : "TST");
		drop_arg(p, 0);
	}
	if (!strcmp(p->m, "ORN") && p->n >= 3 && is_zr(p->args[1])) {
		strcpy(p->m, "MVN");
		drop_arg(p, 1);
	}
	if (!strcmp(p->m, "UBFM") || !strcmp(p->m, "SBFM"))
		for (int i = 0; i < 2 && i < p->n; i++)
			if (p->args[i][0] == 'W')
				p->args[i][0] = 'X';
	if (!strcmp(p->m, "REV64"))
		p->m[3] = '\0';
	if (!strcmp(p->m, "ADR"))
		strcpy(p->m, "ADDR");
	if (arch_in_list(p->m, cset)) {
		/* herd's I_CSEL, printed as CSET, CSETM, CINC when it is one
		 * (the condition inverted: herd's inverse_cond, twice for an
		 * alias written as such) */
		enum nzcv_cond c;
		if (p->n < 2 || !a64_cond(p->args[p->n - 1], &c))
			return;
		bool inc = !strcmp(p->m, "CSINC") || !strcmp(p->m, "CSET") || !strcmp(p->m, "CINC");
		if (!strcmp(p->m, "CSET") || !strcmp(p->m, "CSETM")) {
			insert_arg(p, 1, zr);
			insert_arg(p, 1, zr);
			c = a64_cond_inverse(c);
		} else if (!strcmp(p->m, "CINC")) {
			insert_arg(p, 2, p->args[1]);
			c = a64_cond_inverse(c);
		}
		strcpy(p->m, inc ? "CSINC" : "CSINV");
		if (p->n != 4 || strcmp(p->args[1], p->args[2]) || (!inc && !is_zr(p->args[1])))
			return;
		set_arg(p, 3, a64_cond_name(a64_cond_inverse(c)));
		if (is_zr(p->args[1])) {
			strcpy(p->m, inc ? "CSET" : "CSETM");
			drop_arg(p, 1);
			drop_arg(p, 1);
		} else {
			strcpy(p->m, "CINC");
			drop_arg(p, 2);
		}
	}
	static const struct { const char *full, *zero; } mul_z[] = {
		{ "MADD", "MUL" }, { "MSUB", "MNEG" }, { "SMADDL", "SMULL" }, { "SMSUBL", "SMNEGL" },
		{ "UMADDL", "UMULL" }, { "UMSUBL", "UMNEGL" },
	};
	for (size_t i = 0; i < sizeof mul_z / sizeof mul_z[0]; i++)
		if (!strcmp(p->m, mul_z[i].full) && p->n == 4 && is_zr(p->args[3])) {
			strcpy(p->m, mul_z[i].zero);
			drop_arg(p, 3);
		}
}

static void print_insn(const arch_insn *in, label_renamer rename, void *ctx, strbuf *out)
{
	static const char *const branches[] = { "B", "CBZ", "CBNZ", "TBZ", "TBNZ", "BL", "ADR", NULL };
	a64_printed p = { .n = in->n_args };
	memcpy(p.m, in->mnemonic, sizeof p.m);
	arch_upper(p.m);
	if (!strcmp(p.m, "LDUR")) {
		print_ldur(in, out);
		return;
	}
	bool branch = arch_in_list(p.m, branches) || !strncmp(p.m, "B.", 2);
	/* herd's compat printer spells LDXP's first register as a W one */
	bool ldxp = !strcmp(p.m, "LDXP") || !strcmp(p.m, "LDAXP");
	for (int i = 0; i < in->n_args; i++) {
		strbuf b = { 0 };
		if (branch && i == in->n_args - 1)
			arch_put_label(&b, in->args[i], rename, ctx);
		else
			a64_operand(&b, in->args[i]);
		if (ldxp && i == 0 && b.len > 0 && b.s[0] == 'X')
			b.s[0] = 'W';
		int sys = a64_sysreg(in->args[i]);
		if (sys >= 0 && (!strcmp(p.m, "MRS") || !strcmp(p.m, "MSR"))) {
			/* herd's spelling: TFSR_ELx keeps its small x */
			sb_reset(&b);
			sb_puts(&b, a64_sysreg_name(sys));
		}
		if (in->args[i][0] == '[')
			drop_zero_offset(&b, 0);
		p.args[i] = sb_take(&b);
	}
	for (int i = 0; i < p.n; i++) {
		int64_t k;
		if ((branch && i == p.n - 1) || !arch_parse_int(p.args[i], &k))
			continue;
		/* a constant written without its '#' */
		strbuf b = { 0 };
		sb_printf(&b, "#%lld", (long long)k);
		free(p.args[i]);
		p.args[i] = sb_take(&b);
	}
	herd_aliases(&p);
	sb_puts(out, p.m);
	for (int i = 0; i < p.n; i++) {
		/* a post-index "[X3],#4" prints "[X3]#4" in the printing herd
		 * hashes (its compat mode), " [X3]#4" in a pair's */
		bool post = i > 0 && p.args[i - 1][0] == '[' && p.args[i][0] == '#';
		bool post_next = i + 1 < p.n && p.args[i][0] == '[' && p.args[i + 1][0] == '#';
		if (!post)
			sb_puts(out, !i ? " " : post_next && is_pair(p.m) ? ", " : ",");
		sb_puts(out, p.args[i]);
	}
	for (int i = 0; i < p.n; i++)
		free(p.args[i]);
}

void a64_herd_print(const char *text, label_renamer rename, void *ctx, strbuf *out)
{
	arch_insn_print(text, print_insn, rename, ctx, out);
}

/* herd's order of registers: XZR, SP, then X0..X30 by number (W names
 * are the same registers), then the system registers in herd's order */
int a64_reg_rank(const char *name)
{
	if (!strcmp(name, "XZR"))
		return 0;
	if (!strcmp(name, "SP"))
		return 1;
	int sys = a64_sysreg(name);
	if (sys >= 0)
		return 2 + 31 + sys;
	int n = arch_reg_rank_numbered(name, "XWxw", 31);
	return n < 0 ? n : n + 2;
}
