/* arch_print.c — the herd printers' shared tools (see arch_print.h), and
 * the spelling of an architecture without a printer of its own. */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arch_print.h"

char *arch_trim_dup(const char *s, size_t n)
{
	while (n && isspace((unsigned char)*s)) {
		s++;
		n--;
	}
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	return xstrndup(s, n);
}

void arch_insn_split(const char *text, arch_insn *in)
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
			if (in->n_args < ARCH_INSN_MAX_ARGS)
				in->args[in->n_args++] = arch_trim_dup(start, (size_t)(p - start));
			if (!*p)
				break;
			start = p + 1;
		}
	}
}

void arch_insn_free(arch_insn *in)
{
	for (int i = 0; i < in->n_args; i++)
		free(in->args[i]);
}

void arch_insn_print(const char *text, arch_insn_printer print, label_renamer rename, void *ctx, strbuf *out)
{
	arch_insn in;
	arch_insn_split(text, &in);
	print(&in, rename, ctx, out);
	arch_insn_free(&in);
}

void arch_lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

void arch_upper(char *s)
{
	for (; *s; s++)
		*s = (char)toupper((unsigned char)*s);
}

bool arch_parse_int(const char *s, int64_t *v)
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

void arch_put_int_or(strbuf *out, const char *s)
{
	int64_t v;
	if (arch_parse_int(s, &v))
		sb_printf(out, "%" PRId64, v);
	else
		sb_puts(out, s);
}

void arch_put_label(strbuf *out, const char *lbl, label_renamer rename, void *ctx)
{
	const char *n = rename ? rename(ctx, lbl) : NULL;
	sb_puts(out, n ? n : lbl);
}

bool arch_in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return true;
	return false;
}

int arch_reg_rank_numbered(const char *name, const char *prefixes, int n_regs)
{
	if (!name || !name[0] || !strchr(prefixes, name[0]) || !name[1])
		return -1;
	char *end;
	long n = strtol(name + 1, &end, 10);
	return !*end && n >= 0 && n < n_regs ? (int)n : -1;
}

/* An architecture without a herd printer: as written, runs of blanks
 * squeezed to one. */
static void print_as_written(const char *text, strbuf *out)
{
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

void arch_herd_print(const arch *a, const char *text, label_renamer rename, void *ctx, strbuf *out)
{
	if (a && a->herd_print)
		a->herd_print(text, rename, ctx, out);
	else
		print_as_written(text, out);
}

int arch_reg_rank(const arch *a, const char *name)
{
	return a && a->reg_rank && name ? a->reg_rank(name) : -1;
}
