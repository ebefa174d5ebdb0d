/* table.c — the outcome table as data: rows, model columns, and the one-line
 * records that carry a cell from a worker to the parent. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "report_extra.h"

void table_init(outcome_table *t)
{
	memset(t, 0, sizeof *t);
}

void table_free(outcome_table *t)
{
	for (int i = 0; i < t->n_models; i++)
		free(t->models[i]);
	free(t->models);
	for (int i = 0; i < t->n_rows; i++) {
		free(t->rows[i].name);
		for (int k = 0; k < t->rows[i].n_cells; k++)
			free(t->rows[i].cells[k].states);
		free(t->rows[i].cells);
		free(t->rows[i].condition);
	}
	free(t->rows);
	free(t->hardware);
	memset(t, 0, sizeof *t);
}

int table_column(outcome_table *t, const char *key)
{
	for (int i = 0; i < t->n_models; i++)
		if (!strcmp(t->models[i], key))
			return i;
	t->models = xrealloc(t->models, (size_t)(t->n_models + 1) * sizeof *t->models);
	t->models[t->n_models] = xstrdup(key);
	return t->n_models++;
}

int table_add_row(outcome_table *t, const char *name)
{
	GROW(t->rows, t->cap_rows, (size_t)t->n_rows + 1);
	table_row *r = &t->rows[t->n_rows];
	memset(r, 0, sizeof *r);
	r->name = xstrdup(name);
	r->hw = HW_UNKNOWN;
	return t->n_rows++;
}

typedef struct row_key {
	int row;
	long rank;           /* unranked rows: after every ranked one */
	const char *name;    /* NULL: by rank only */
} row_key;

static int compare_row_keys(const void *a, const void *b)
{
	const row_key *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	int c = x->name ? strcmp(x->name, y->name) : 0;
	return c ? c : x->row - y->row;
}

void table_sort_rows(outcome_table *t, const int *rank)
{
	if (t->n_rows < 2)
		return;
	row_key *k = xcalloc((size_t)t->n_rows, sizeof *k);
	for (int i = 0; i < t->n_rows; i++)
		k[i] = (row_key){ i, !rank ? 0 : rank[i] < 0 ? LONG_MAX : rank[i], rank ? NULL : t->rows[i].name };
	qsort(k, (size_t)t->n_rows, sizeof *k, compare_row_keys);
	table_row *rows = xcalloc(t->cap_rows, sizeof *rows);
	for (int i = 0; i < t->n_rows; i++)
		rows[i] = t->rows[k[i].row];
	free(t->rows);
	t->rows = rows;
	free(k);
}

table_cell *table_cell_at(outcome_table *t, int row, int column)
{
	table_row *r = &t->rows[row];
	if (column >= r->n_cells) {
		r->cells = xrealloc(r->cells, (size_t)(column + 1) * sizeof *r->cells);
		for (int k = r->n_cells; k <= column; k++)
			r->cells[k] = (table_cell){ CELL_NOT_RUN, 0, 0, 0, 0, 0, NULL };
		r->n_cells = column + 1;
	}
	return &r->cells[column];
}

/* ---- records ------------------------------------------------------------------- */

static const char *const status_words[] = {
	[CELL_NOT_RUN] = "not-run", [CELL_ALLOWED] = "allowed", [CELL_FORBIDDEN] = "forbidden",
	[CELL_TIMEOUT] = "timeout", [CELL_ERROR] = "error", [CELL_CRASHED] = "crashed",
	[CELL_OUT_OF_MEMORY] = "out-of-memory",
};
static const char *const quant_words[] = { [Q_EXISTS] = "exists", [Q_NOT_EXISTS] = "~exists", [Q_FORALL] = "forall" };

#define RECORD_TAG "@cell\t"

void table_record_print(FILE *out, const char *model_key, enum cell_status st, enum quantifier q,
			const test_result *r, const char *states)
{
	/* an engine that judges no candidates one by one (bmc): -1, "not
	 * counted" */
	bool counted = !(r && r->engine && !(r->engine->caps & ENGINE_COUNTS));
	fprintf(out, RECORD_TAG "%s\t%s\t%s\t%ld\t%ld\t%d\t%ld\t%ld", model_key, status_words[st],
		quant_words[q], r ? r->pos : 0, r ? r->neg : 0, r ? r->n_states : 0,
		!counted ? -1 : r ? r->stats.candidates : 0, !counted ? -1 : r ? r->stats.forbidden : 0);
	/* "=" stands for the empty set: a tab-split line has no empty field */
	if (states)
		fprintf(out, "\t=%s", states);
	fputc('\n', out);
}

void table_record_status(FILE *out, const char *model_key, enum cell_status st)
{
	fprintf(out, RECORD_TAG "%s\t%s\t-\t0\t0\t0\t0\t0\n", model_key, status_words[st]);
}

#define CONDITION_TAG "@cond\t"

void table_record_condition(FILE *out, const litmus_test *t)
{
	strbuf b = { 0 };
	report_condition(t, &b);
	fprintf(out, CONDITION_TAG "%s\n", b.s ? b.s : "");
	sb_free(&b);
}

static int word_index(const char *w, const char *const *words, int n)
{
	for (int i = 0; i < n; i++)
		if (words[i] && !strcmp(w, words[i]))
			return i;
	return -1;
}

/* One record line (without its tag), split at tabs in place. */
static bool read_record(outcome_table *t, int row, char *line)
{
	char *field[9];
	int n = 0;
	char *save = NULL;
	for (char *p = strtok_r(line, "\t", &save); p && n < 9; p = strtok_r(NULL, "\t", &save))
		field[n++] = p;
	if (n != 8 && !(n == 9 && field[8][0] == '='))
		return false;
	int st = word_index(field[1], status_words, (int)(sizeof status_words / sizeof *status_words));
	if (st < 0)
		return false;
	table_cell *c = table_cell_at(t, row, table_column(t, field[0]));
	c->status = (enum cell_status)st;
	c->pos = strtol(field[3], NULL, 10);
	c->neg = strtol(field[4], NULL, 10);
	c->n_states = (int)strtol(field[5], NULL, 10);
	c->candidates = strtol(field[6], NULL, 10);
	c->forbidden = strtol(field[7], NULL, 10);
	free(c->states);
	c->states = n == 9 ? xstrdup(field[8] + 1) : NULL;
	int q = word_index(field[2], quant_words, 3);
	if (q >= 0) {
		t->rows[row].quant_known = true;
		t->rows[row].quant = (enum quantifier)q;
	}
	return true;
}

int table_records_read(outcome_table *t, int row, const char *text, size_t len)
{
	int n = 0;
	size_t tag = strlen(RECORD_TAG);
	const char *end = text + len;
	for (const char *p = text; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		size_t ctag = strlen(CONDITION_TAG);
		if ((size_t)(stop - p) > ctag && !strncmp(p, CONDITION_TAG, ctag)) {
			free(t->rows[row].condition);
			t->rows[row].condition = xstrndup(p + ctag, (size_t)(stop - p) - ctag);
		} else if ((size_t)(stop - p) > tag && !strncmp(p, RECORD_TAG, tag)) {
			char *line = xstrndup(p + tag, (size_t)(stop - p) - tag);
			n += read_record(t, row, line);
			free(line);
		}
		p = nl ? nl + 1 : end;
	}
	return n;
}
