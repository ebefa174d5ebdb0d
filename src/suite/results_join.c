/* results_join.c — saved results in table order, checked: every shard of
 * a run there once, and one producer a column. */
#include <stdlib.h>
#include <string.h>

#include "results_int.h"

/* A result's place: its group (a run, or the file of results without one)
 * in the order first met, its seq in the group, the order it was read. */
typedef struct place {
	int group, seq, order, index;
} place;

static int compare_places(const void *a, const void *b)
{
	const place *x = a, *y = b;
	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* An error, or a note under -force; msg is freed. */
static void problem(diag *d, bool force, srcloc at, char *msg)
{
	if (force)
		diag_note(d, at, "%s", msg);
	else
		diag_error(d, at, "%s", msg);
	free(msg);
}

static srcloc where(const saved_set *s, const saved_result *r)
{
	return (srcloc){ s->files[r->file], r->line, 1 };
}

/* Two results for one (test, model) of one run: the later is dropped.
 * Said once per shard (or once per run when it is not sharded). */
static int drop_duplicates(saved_set *s, place *pl, bool *dropped, bool force, diag *d)
{
	int problems = 0;
	int n_said = 0;
	long *said = xcalloc((size_t)s->n + 1, sizeof *said);
	for (int i = 0; i < s->n; i++) {
		const saved_result *r = &s->v[pl[i].index];
		if (r->run < 0 || r->seq == 0)
			continue;
		for (int j = i - 1; j >= 0 && pl[j].group == pl[i].group && pl[j].seq == pl[i].seq; j--) {
			const saved_result *q = &s->v[pl[j].index];
			if (dropped[pl[j].index] || strcmp(q->model, r->model))
				continue;
			dropped[pl[i].index] = true;
			long key = (long)r->run * 1000003L + r->shard_k;
			bool again = false;
			for (int k = 0; k < n_said && !again; k++)
				again = said[k] == key;
			if (!again) {
				said[n_said++] = key;
				problems++;
				char *shard = r->shard_n ? xasprintf("shard %d/%d", r->shard_k, r->shard_n) : xstrdup("the run");
				char *first = xasprintf("%s:%d", s->files[q->file], q->line);
				char *what = xasprintf("%s (test %s under %s)", shard, r->name, r->model);
				problem(d, force, where(s, r),
					xasprintf("%s is saved twice: this result repeats the one at %s%s", what, first,
						  force ? "; the first is kept"
							: " (give each shard once, or -force to keep the first)"));
				free(what);
				free(first);
				free(shard);
			}
			break;
		}
	}
	free(said);
	return problems;
}

/* Every selected test of each run has a result: the missing ones are
 * said by shard ("shard 3/4 is missing"), or by count when not sharded. */
static int find_missing(const saved_set *s, const bool *dropped, bool force, diag *d)
{
	int problems = 0;
	for (int g = 0; g < s->n_runs; g++) {
		const saved_run *run = &s->runs[g];
		if (run->selected <= 0)
			continue;
		bool *seen = xcalloc((size_t)run->selected + 1, sizeof *seen);
		int file = -1;
		for (int i = 0; i < s->n; i++) {
			const saved_result *r = &s->v[i];
			if (r->run != g || dropped[i])
				continue;
			if (file < 0)
				file = r->file;
			if (r->seq >= 1 && r->seq <= run->selected)
				seen[r->seq] = true;
		}
		int n = run->shard_n > 0 ? run->shard_n : 1;
		for (int k = 1; k <= n; k++) {
			int missing = 0, first = 0, in_shard = 0;
			for (int q = k; q <= run->selected; q += n) {
				in_shard++;
				if (!seen[q] && missing++ == 0)
					first = q;
			}
			if (missing == 0)
				continue;
			problems++;
			char *msg;
			if (missing == in_shard && run->shard_n)
				msg = xasprintf("shard %d/%d is missing (none of its %d test%s has a saved result)", k,
						run->shard_n, in_shard, in_shard == 1 ? "" : "s");
			else if (run->shard_n)
				msg = xasprintf("shard %d/%d is incomplete: %d of its %d tests have no saved result, "
						"the first is selected test #%d (a shard cut short?)",
						k, run->shard_n, missing, in_shard, first);
			else
				msg = xasprintf("some results are missing: %d of the %d selected tests have none, the "
						"first is selected test #%d (a run cut short?)", missing, in_shard, first);
			problem(d, force, (srcloc){ s->files[file], 0, 0 },
				xasprintf("run %.8s: %s%s", run->id, msg, force ? "" : "; -force makes the table anyway"));
			free(msg);
		}
		free(seen);
	}
	return problems;
}

/* One producer a column: a column whose results came from two is said
 * once for each other producer. */
static int mixed_producers(const saved_set *s, const place *pl, const bool *dropped, bool force, diag *d)
{
	int problems = 0;
	/* each column's first result (columns are few) */
	int n_cols = 0;
	int *col_first = xcalloc((size_t)s->n + 1, sizeof *col_first);
	/* (column, producer) pairs already said */
	int n_said = 0;
	int *said_col = xcalloc((size_t)s->n + 1, sizeof *said_col);
	int *said_prod = xcalloc((size_t)s->n + 1, sizeof *said_prod);
	for (int i = 0; i < s->n; i++) {
		const saved_result *r = &s->v[pl[i].index];
		if (dropped[pl[i].index])
			continue;
		int c = 0;
		while (c < n_cols && strcmp(s->v[col_first[c]].model, r->model))
			c++;
		if (c == n_cols)
			col_first[n_cols++] = pl[i].index;
		const saved_result *f = &s->v[col_first[c]];
		if (f->producer == r->producer)
			continue;
		bool again = false;
		for (int k = 0; k < n_said && !again; k++)
			again = said_col[k] == c && said_prod[k] == r->producer;
		if (again)
			continue;
		said_col[n_said] = c;
		said_prod[n_said++] = r->producer;
		problems++;
		problem(d, force, where(s, r),
			xasprintf("column %s mixes producers: this result is from %s, the column's first (%s:%d) from %s",
				  r->model, s->producers[r->producer], s->files[f->file], f->line,
				  s->producers[f->producer]));
		if (!force)
			diag_note(d, where(s, r), "give each producer its own column, or -force to mix them");
	}
	free(col_first);
	free(said_col);
	free(said_prod);
	return problems;
}

bool saved_join(saved_set *s, bool force, diag *d)
{
	place *pl = xcalloc((size_t)s->n + 1, sizeof *pl);
	/* group ranks: runs and run-less files, in the order first met */
	int n_groups = 0;
	int *run_group = xcalloc((size_t)s->n_runs + 1, sizeof *run_group);
	int *file_group = xcalloc((size_t)s->n_files + 1, sizeof *file_group);
	for (int i = 0; i < s->n; i++) {
		const saved_result *r = &s->v[i];
		int *g = r->run >= 0 ? &run_group[r->run] : &file_group[r->file];
		if (*g == 0)
			*g = ++n_groups;
		pl[i] = (place){ *g, r->run >= 0 ? r->seq : 0, r->order, i };
	}
	free(run_group);
	free(file_group);
	qsort(pl, (size_t)s->n, sizeof *pl, compare_places);
	bool *dropped = xcalloc((size_t)s->n + 1, sizeof *dropped);
	int problems = drop_duplicates(s, pl, dropped, force, d);
	problems += find_missing(s, dropped, force, d);
	problems += mixed_producers(s, pl, dropped, force, d);
	/* the results in table order, the dropped ones freed */
	saved_result *v = xcalloc((size_t)s->n + 1, sizeof *v);
	int n = 0;
	for (int i = 0; i < s->n; i++) {
		saved_result *r = &s->v[pl[i].index];
		if (dropped[pl[i].index]) {
			saved_result_free(r);
		} else {
			v[n++] = *r;
		}
	}
	free(s->v);
	s->v = v;
	s->n = n;
	s->cap = (size_t)s->n + 1;
	free(dropped);
	free(pl);
	return force || problems == 0;
}
