/* tabulate.c — saved results into an outcome table. */
#include <stdlib.h>
#include <string.h>

#include "tabulate.h"
#include "../suite/suite.h"

/* Rows by test name: open addressing, for suites of 100,000 tests.  Two
 * tests of one name (SB in PPC/ and in X86/) are two rows, told apart by
 * their files: a name's rows are chained. */
typedef struct row_index {
	size_t cap;      /* a power of two */
	int *slot;       /* the name's first row + 1, 0: empty */
	size_t cap_rows;
	int *next;       /* per row: the next row of its name, -1: none */
	const char **path; /* per row: the file of its first result, NULL:
	                    * unknown (borrowed from the saved set) */
} row_index;

static size_t hash_name(const char *s)
{
	size_t h = 1469598103934665603u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211u;
	return h;
}

/* The first row of `name`, added when new. */
static int first_row_of(row_index *ix, outcome_table *t, const char *name)
{
	if ((size_t)t->n_rows * 2 >= ix->cap) {
		size_t cap = ix->cap ? ix->cap * 2 : 1024;
		int *slot = xcalloc(cap, sizeof *slot);
		for (int r = 0; r < t->n_rows; r++) {
			size_t at = hash_name(t->rows[r].name) & (cap - 1);
			while (slot[at])
				at = (at + 1) & (cap - 1);
			slot[at] = r + 1;
		}
		free(ix->slot);
		ix->slot = slot;
		ix->cap = cap;
	}
	size_t at = hash_name(name) & (ix->cap - 1);
	while (ix->slot[at]) {
		if (!strcmp(t->rows[ix->slot[at] - 1].name, name))
			return ix->slot[at] - 1;
		at = (at + 1) & (ix->cap - 1);
	}
	int r = table_add_row(t, name);
	ix->slot[at] = r + 1;
	return r;
}

/* A new row r, of file `path`, the last of its name so far. */
static int track_row(row_index *ix, int r, const char *path)
{
	GROW(ix->next, ix->cap_rows, (size_t)r + 1);
	ix->path = xrealloc(ix->path, ix->cap_rows * sizeof *ix->path);
	ix->next[r] = -1;
	ix->path[r] = path;
	return r;
}

static bool cell_free(const outcome_table *t, int row, int col)
{
	return col >= t->rows[row].n_cells || t->rows[row].cells[col].status == CELL_NOT_RUN;
}

/* The row of a result for `name` in column col from file `path` (NULL:
 * unknown): the name's row of that file; else its first row with that
 * cell free (the same tests saved from another folder, or a log); else,
 * every cell taken, a new row when the file differs from theirs (another
 * test of that name), else the first row (the result repeats one). */
static int row_of(row_index *ix, outcome_table *t, const char *name, const char *path, int col)
{
	int n = t->n_rows;
	int first = first_row_of(ix, t, name);
	if (t->n_rows > n)
		return track_row(ix, first, path);
	for (int r = first; path && r >= 0; r = ix->next[r])
		if (ix->path[r] && !strcmp(ix->path[r], path))
			return r;
	int last = first;
	for (int r = first; r >= 0; r = ix->next[r]) {
		if (cell_free(t, r, col)) {
			if (!ix->path[r])
				ix->path[r] = path;
			return r;
		}
		last = r;
	}
	if (!path)
		return first;
	int r = track_row(ix, table_add_row(t, name), path);
	ix->next[last] = r;
	return r;
}

static enum cell_status cell_status_of(enum saved_status st)
{
	switch (st) {
	case SAVED_ALLOWED: return CELL_ALLOWED;
	case SAVED_FORBIDDEN: return CELL_FORBIDDEN;
	case SAVED_TIMEOUT: return CELL_TIMEOUT;
	case SAVED_ERROR: return CELL_ERROR;
	case SAVED_CRASHED: return CELL_CRASHED;
	case SAVED_OUT_OF_MEMORY: return CELL_OUT_OF_MEMORY;
	}
	return CELL_ERROR;
}

/* -model with -results: the columns to keep, in order.  An argument is a
 * label as the results wrote it, else its short name is (`-model ppc`
 * finds the column power). */
static void chosen_columns(outcome_table *t, const weft_options *o, const saved_set *s)
{
	for (int k = 0; k < o->models.n; k++) {
		const char *arg = o->models.v[k];
		bool written = false;
		for (int i = 0; i < s->n && !written; i++)
			written = !strcmp(s->v[i].model, arg);
		if (written) {
			table_column(t, arg);
		} else {
			char *key = suite_model_key(arg);
			table_column(t, key);
			free(key);
		}
	}
}

/* -model LABEL=NAME with -results: column NAME is headed LABEL, once its
 * cells are in (they were found by the saved name). */
static void relabel_columns(outcome_table *t, const weft_options *o)
{
	for (int k = 0; k < o->models.n && k < o->model_labels.n && k < t->n_models; k++)
		if (o->model_labels.v[k]) {
			free(t->models[k]);
			t->models[k] = xstrdup(o->model_labels.v[k]);
		}
}

static int column_of(const outcome_table *t, const char *label)
{
	for (int m = 0; m < t->n_models; m++)
		if (!strcmp(t->models[m], label))
			return m;
	return -1;
}

/* One result into its cell (the first result of a cell stays) and the
 * counts; flags[row] remembers the once-a-test failures counted. */
enum { COUNTED_ERROR = 1, COUNTED_CRASHED = 2, COUNTED_OOM = 4 };

static void count_result(const saved_result *r, unsigned char *flags, run_totals *tot)
{
	switch (r->status) {
	case SAVED_ALLOWED: case SAVED_FORBIDDEN:
		if (r->ok)
			tot->sum.ok++;
		else
			tot->sum.no++;
		break;
	case SAVED_TIMEOUT: tot->sum.timeouts++; break;
	case SAVED_ERROR:
		tot->sum.errors += !(*flags & COUNTED_ERROR);
		*flags |= COUNTED_ERROR;
		break;
	case SAVED_CRASHED:
		tot->crashed += !(*flags & COUNTED_CRASHED);
		*flags |= COUNTED_CRASHED;
		break;
	case SAVED_OUT_OF_MEMORY:
		tot->out_of_memory += !(*flags & COUNTED_OOM);
		*flags |= COUNTED_OOM;
		break;
	}
}

/* -results LABEL=PATH: the one column of the results read from PATH
 * (s->v[from..]) is headed LABEL, in its runs' model lists too.  False
 * after reporting when PATH holds several columns. */
static bool label_column(saved_set *s, int from, const char *label, const char *path, diag *d)
{
	const char *old = NULL;
	for (int i = from; i < s->n; i++) {
		if (old && strcmp(old, s->v[i].model)) {
			diag_error(d, (srcloc){ path, 0, 0 },
				   "-results %s=%s names one column, and %s holds results under '%s' and '%s': "
				   "name the saved columns with -model LABEL=NAME instead",
				   label, path, path, old, s->v[i].model);
			return false;
		}
		old = s->v[i].model;
	}
	if (!old)
		return true;
	char *was = xstrdup(old);
	for (int i = from; i < s->n; i++) {
		saved_result *r = &s->v[i];
		free(r->model);
		r->model = xstrdup(label);
		for (int k = 0; r->run >= 0 && k < s->runs[r->run].n_models; k++)
			if (!strcmp(s->runs[r->run].models[k], was)) {
				free(s->runs[r->run].models[k]);
				s->runs[r->run].models[k] = xstrdup(label);
			}
	}
	free(was);
	return true;
}

bool tabulate_saved(outcome_table *t, const weft_options *o, const selector *sel, run_totals *tot, diag *d)
{
	memset(tot, 0, sizeof *tot);
	saved_set s = { 0 };
	bool ok = true;
	for (int i = 0; i < o->results.n; i++) {
		int from = s.n;
		bool read = saved_read(&s, o->results.v[i], d);
		const char *label = i < o->results_labels.n ? o->results_labels.v[i] : NULL;
		ok = read && (!label || label_column(&s, from, label, o->results.v[i], d)) && ok;
	}
	if (!ok || !saved_join(&s, o->force, d)) {
		saved_free(&s);
		return false;
	}
	bool chosen = o->models.n > 0;
	if (chosen)
		chosen_columns(t, o, &s);
	row_index ix = { 0 };
	unsigned char *flags = xcalloc((size_t)s.n + 1, 1);
	bool *run_seen = xcalloc((size_t)s.n_runs + 1, sizeof *run_seen);
	for (int i = 0; i < s.n; i++) {
		const saved_result *r = &s.v[i];
		if (!selector_accepts(sel, r->name))
			continue;
		/* a run's -model labels are its columns even where no test
		 * ran (a model left out for the suite's architecture) */
		if (!chosen && r->run >= 0 && !run_seen[r->run]) {
			run_seen[r->run] = true;
			for (int k = 0; k < s.runs[r->run].n_models; k++)
				table_column(t, s.runs[r->run].models[k]);
		}
		int col = chosen ? column_of(t, r->model) : table_column(t, r->model);
		if (col < 0)
			continue;
		int row = row_of(&ix, t, r->name, r->path, col);
		table_row *tr = &t->rows[row];
		if (!tr->quant_known && r->quant_known) {
			tr->quant_known = true;
			tr->quant = r->quant;
		}
		if (!tr->condition && r->condition)
			tr->condition = xstrdup(r->condition);
		table_cell *c = table_cell_at(t, row, col);
		if (c->status != CELL_NOT_RUN)
			continue;
		*c = (table_cell){ cell_status_of(r->status), r->pos, r->neg, r->n_states, r->candidates, r->forbidden,
				   r->states ? xstrdup(r->states) : NULL };
		count_result(r, &flags[row], tot);
	}
	tot->jobs = t->n_rows;
	if (chosen)
		relabel_columns(t, o);
	free(run_seen);
	free(flags);
	free(ix.slot);
	free(ix.next);
	free(ix.path);
	saved_free(&s);
	if (t->n_rows == 0) {
		diag_error(d, (srcloc){ o->results.v[0], 0, 0 }, "no saved result left to tabulate: none of the tests %s",
			   chosen ? "passes -select, -names and -excl under the -model columns"
				  : "passes -select, -names and -excl");
		return false;
	}
	return true;
}
