/* states.c — final states as text, and the outcome words of a result. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

/* Names with embedded numbers compare numerically (r2 < r10). */
static int natural_cmp(const char *a, const char *b)
{
	while (*a && *b) {
		if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
			char *ea, *eb;
			unsigned long na = strtoul(a, &ea, 10), nb = strtoul(b, &eb, 10);
			if (na != nb)
				return na < nb ? -1 : 1;
			a = ea;
			b = eb;
			continue;
		}
		if (*a != *b)
			return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
		a++;
		b++;
	}
	return *a ? 1 : *b ? -1 : 0;
}

static int lval_cmp(const litmus_test *t, lval a, lval b)
{
	bool ra = a.thread >= 0, rb = b.thread >= 0;
	if (ra != rb)
		return ra ? -1 : 1;
	if (ra) {
		int ia = t->threads[a.thread].id, ib = t->threads[b.thread].id;
		if (ia != ib)
			return ia < ib ? -1 : 1;
		return natural_cmp(t->threads[a.thread].regs[a.reg].name, t->threads[b.thread].regs[b.reg].name);
	}
	return strcmp(t->locs[a.loc].name, t->locs[b.loc].name);
}

static void put_value(const litmus_test *t, value v, strbuf *out)
{
	if (v.loc < 0) {
		sb_printf(out, "%lld", (long long)v.num);
		return;
	}
	sb_puts(out, v.loc < t->n_locs ? t->locs[v.loc].name : "?");
	if (v.num)
		sb_printf(out, "+%lld", (long long)v.num);
}

char *state_text(const litmus_test *t, const test_result *r, int i)
{
	/* Insertion sort of the lval indices: a state has a handful. */
	int n = r->n_lvals;
	int *order = xcalloc((size_t)(n ? n : 1), sizeof *order);
	for (int k = 0; k < n; k++) {
		int j = k;
		while (j > 0 && lval_cmp(t, r->lvals[order[j - 1]], r->lvals[k]) > 0) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = k;
	}
	strbuf b = { 0 };
	sb_puts(&b, "");
	for (int k = 0; k < n; k++) {
		lval lv = r->lvals[order[k]];
		if (k)
			sb_putc(&b, ' ');
		if (lv.thread >= 0)
			sb_printf(&b, "%d:%s=", t->threads[lv.thread].id, t->threads[lv.thread].regs[lv.reg].name);
		else
			sb_printf(&b, "[%s]=", t->locs[lv.loc].name);
		put_value(t, r->states[i].vals[order[k]], &b);
		sb_putc(&b, ';');
	}
	free(order);
	return sb_take(&b);
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *state_normalize(const char *text)
{
	int n = 0;
	size_t cap = 0;
	char **bindings = NULL;
	const char *p = text;
	while (*p) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		strbuf b = { 0 };
		sb_puts(&b, "");
		for (size_t k = 0; k < len; k++)
			if (!isspace((unsigned char)p[k]) && p[k] != '[' && p[k] != ']')
				sb_putc(&b, p[k]);
		if (b.len > 0) {
			GROW(bindings, cap, (size_t)n + 1);
			bindings[n++] = sb_take(&b);
		}
		sb_free(&b);
		p += len + (end != NULL);
	}
	if (n > 0)
		qsort(bindings, (size_t)n, sizeof *bindings, compare_strings);
	strbuf out = { 0 };
	sb_puts(&out, "");
	for (int k = 0; k < n; k++) {
		sb_puts(&out, bindings[k]);
		sb_putc(&out, ';');
		free(bindings[k]);
	}
	free(bindings);
	return sb_take(&out);
}

const char *outcome_name(long pos, long neg)
{
	if (pos == 0)
		return "forbidden";
	return neg == 0 ? "required" : "allowed";
}

bool verdict_ok(enum quantifier q, long pos, long neg)
{
	switch (q) {
	case Q_EXISTS: return pos > 0;
	case Q_NOT_EXISTS: return pos == 0;
	case Q_FORALL: return neg == 0;
	}
	return false;
}
