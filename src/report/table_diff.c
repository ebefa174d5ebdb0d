/* table_diff.c — -diff: the tests whose results differ between the two
 * columns of an outcome table, each with the kind of difference, then the
 * counts by kind.  The table holds what each side said (a live run's cell
 * records, or saved results), so a live run and two saved runs compare
 * the same way. */
#include <stdlib.h>
#include <string.h>

#include "report_extra.h"
#include "table_int.h"

static const char *const kind_words[] = {
	[DIFF_VERDICT] = "verdict", [DIFF_STATES] = "states", [DIFF_COUNTS] = "counts",
	[DIFF_FAILED] = "failed", [DIFF_MISSING] = "missing",
};

static bool is_result(enum cell_status s)
{
	return s == CELL_ALLOWED || s == CELL_FORBIDDEN;
}

/* How cells a and b of one test differ; DIFF_SAME when they do not. */
static enum diff_kind classify(const table_cell *a, const table_cell *b)
{
	if (a->status == CELL_NOT_RUN || b->status == CELL_NOT_RUN)
		return a->status == b->status ? DIFF_SAME : DIFF_MISSING;
	if (!is_result(a->status) || !is_result(b->status))
		return a->status == b->status ? DIFF_SAME : DIFF_FAILED;
	if (a->status != b->status)
		return DIFF_VERDICT;
	/* the state sets when both sides kept them, else their sizes */
	if (a->states && b->states ? strcmp(a->states, b->states) != 0 : a->n_states != b->n_states)
		return DIFF_STATES;
	if (a->pos != b->pos || a->neg != b->neg)
		return DIFF_COUNTS;
	return DIFF_SAME;
}

static void describe(FILE *out, const char *label, const table_cell *c)
{
	/* the tables' words, but a side with no result says so in words */
	fprintf(out, "\t%s: %s", label, c->status == CELL_NOT_RUN ? "absent" : status_text(c->status));
	if (is_result(c->status))
		fprintf(out, " (%d state%s, positive %ld, negative %ld)", c->n_states, c->n_states == 1 ? "" : "s",
			c->pos, c->neg);
}

/* The states of set `from` that set `other` lacks, one a line after
 * `mark` (sets are state_set_text's: sorted, space-separated). */
static void only_in(FILE *out, const char *from, const char *other, char mark)
{
	char *copy = xstrdup(from);
	char *save = NULL;
	for (char *s = strtok_r(copy, " ", &save); s; s = strtok_r(NULL, " ", &save)) {
		size_t n = strlen(s);
		bool found = false;
		for (const char *p = other; !found && (p = strstr(p, s)); p += n)
			found = (p == other || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0');
		if (!found)
			fprintf(out, "\t%c %s\n", mark, s);
	}
	free(copy);
}

int table_diff_write(FILE *out, const outcome_table *t, int a, int b, int counts[DIFF_KINDS])
{
	memset(counts, 0, DIFF_KINDS * sizeof *counts);
	int differ = 0;
	for (int i = 0; i < t->n_rows; i++) {
		const table_row *r = &t->rows[i];
		const table_cell *ca = cell_of(r, a), *cb = cell_of(r, b);
		enum diff_kind k = classify(ca, cb);
		counts[k]++;
		if (k == DIFF_SAME)
			continue;
		differ++;
		fprintf(out, "%s\t%s", kind_words[k], r->name);
		describe(out, t->models[a], ca);
		describe(out, t->models[b], cb);
		fputc('\n', out);
		if ((k == DIFF_STATES || k == DIFF_VERDICT) && ca->states && cb->states) {
			only_in(out, ca->states, cb->states, '-');
			only_in(out, cb->states, ca->states, '+');
		}
	}
	return differ;
}

const char *diff_kind_word(enum diff_kind k)
{
	return k == DIFF_SAME ? "same" : kind_words[k];
}
