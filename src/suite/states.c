/* states.c — final states as text, and the outcome words of a result. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"
#include "../report/report.h"

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

char *state_set_text(char *const *lines, int n)
{
	char **norm = xcalloc((size_t)n + 1, sizeof *norm);
	for (int i = 0; i < n; i++)
		norm[i] = state_normalize(lines[i]);
	if (n > 0)
		qsort(norm, (size_t)n, sizeof *norm, compare_strings);
	strbuf out = { 0 };
	sb_puts(&out, "");
	for (int i = 0; i < n; i++) {
		if (i > 0)
			sb_putc(&out, ' ');
		sb_puts(&out, norm[i]);
		free(norm[i]);
	}
	free(norm);
	return sb_take(&out);
}

char *state_set_of_result(const litmus_test *t, const test_result *r)
{
	char **lines = xcalloc((size_t)r->n_states + 1, sizeof *lines);
	for (int i = 0; i < r->n_states; i++)
		lines[i] = report_state_line(t, r, i);
	char *set = state_set_text(lines, r->n_states);
	for (int i = 0; i < r->n_states; i++)
		free(lines[i]);
	free(lines);
	return set;
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
