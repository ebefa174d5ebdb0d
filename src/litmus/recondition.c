/* recondition.c — a test with another final condition: the test's own
 * text, read again, with its condition replaced, so that every lval and
 * value of the new one is read exactly as in a test (weft -i's goto STATE,
 * -conds). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "litmus.h"
#include "../arch/arch.h"

static bool word_at(const char *text, size_t i, const char *w)
{
	size_t n = strlen(w);
	if (strncmp(text + i, w, n) != 0)
		return false;
	bool before = i == 0 || !(isalnum((unsigned char)text[i - 1]) || text[i - 1] == '_');
	bool after = !(isalnum((unsigned char)text[i + n]) || text[i + n] == '_');
	return before && after;
}

/* Where the final condition's quantifier starts: the first exists,
 * ~exists, forall or final after the init block, outside comments and
 * strings; (size_t)-1 when there is none.  In a C test (c_braces), `(*`
 * inside a function's braces is C (`READ_ONCE(*x)`), not a comment. */
static size_t condition_start(const char *text, bool c_braces)
{
	int depth = 0, braces = 0;
	bool in_string = false, after_init = false;
	for (size_t i = 0; text[i]; i++) {
		char c = text[i];
		if (in_string) {
			in_string = c != '"';
			continue;
		}
		if (c == '(' && text[i + 1] == '*' && depth == 0 && c_braces && braces > 0)
			continue;
		if (c == '(' && text[i + 1] == '*') {
			depth++;
			i++;
			continue;
		}
		if (depth > 0) {
			if (c == '*' && text[i + 1] == ')') {
				depth--;
				i++;
			}
			continue;
		}
		if (c == '"') {
			in_string = true;
			continue;
		}
		if (c == '{')
			braces++;
		if (c == '}') {
			after_init = true;
			braces -= braces > 0;
		}
		if (!after_init)
			continue;
		if (c == '~') {
			size_t j = i + 1;
			while (text[j] == ' ' || text[j] == '\t')
				j++;
			if (word_at(text, j, "exists"))
				return i;
		}
		if (word_at(text, i, "exists") || word_at(text, i, "forall") || word_at(text, i, "final"))
			return i;
	}
	return (size_t)-1;
}

litmus_test *litmus_with_condition(const litmus_test *t, const char *condition, diag *d)
{
	size_t len;
	char *text = read_whole_file(t->file, &len, d);
	if (!text)
		return NULL;
	size_t at = condition_start(text, t->arch && t->arch->program == ARCH_PROGRAM_C);
	if (at == (size_t)-1) {
		diag_error(d, (srcloc){ t->file, 0, 0 }, "cannot find the test's final condition to replace");
		free(text);
		return NULL;
	}
	char *again = xasprintf("%.*s%s\n", (int)at, text, condition);
	free(text);
	litmus_test *t2 = litmus_parse_string_macros(t->file, again, t->macros, d);
	free(again);
	if (!t2)
		return NULL;
	bool same = t2->n_locs == t->n_locs && t2->n_threads == t->n_threads;
	for (int l = 0; same && l < t->n_locs; l++)
		same = !strcmp(t2->locs[l].name, t->locs[l].name);
	if (!same) {
		diag_error(d, (srcloc){ t->file, 0, 0 }, "the condition names a location the test does not have");
		litmus_test_free(t2);
		return NULL;
	}
	return t2;
}

