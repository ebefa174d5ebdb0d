/* table_hw.c — reading what a log says about tests, for the table's
 * hardware column.
 *
 * Two layouts are read:
 *   - mcompare tables (herdtools7's *.allowed): `NAME | V1 V2 ...` rows under
 *     a header row ` | Title1 Title2 ...`; the column whose title mentions
 *     "hardware" is used, else the last one.  As in herdtools7's tables, Ok
 *     means the test's interesting states were seen and No that they never
 *     were, whatever the quantifier (ppc.allowed says No for CoWW, whose
 *     litmus7 log reads "~exists ... is validated").
 *   - herd7 or litmus7 result logs: `Test NAME ...` starts a block; herd7's
 *     `Observation NAME Never|Sometimes|Always P N` counts the executions
 *     where the proposition holds (P); without it (litmus7), `Positive: P
 *     Negative: N` and `Condition Q (...)` do, P and N being swapped for
 *     ~exists as on herd's Witnesses line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report_extra.h"

/* Where an entry came from (both say: observed or not). */
enum hw_kind { HWK_VERDICT, HWK_OBSERVED };

typedef struct hw_entry {
	char *name;
	enum hw_kind kind;
	bool yes;            /* HWK_VERDICT: Ok; HWK_OBSERVED: observed */
} hw_entry;

struct hw_log {
	char *title;
	int n;
	size_t cap;
	hw_entry *v;         /* sorted by name after reading */
};

static void add_entry(hw_log *h, const char *name, size_t len, enum hw_kind kind, bool yes)
{
	GROW(h->v, h->cap, (size_t)h->n + 1);
	h->v[h->n++] = (hw_entry){ xstrndup(name, len), kind, yes };
}

static char *read_all(const char *path, diag *d)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		diag_error(d, (srcloc){ path, 0, 0 }, "cannot read the hardware log: %s", strerror(errno));
		return NULL;
	}
	strbuf sb = { 0 };
	char chunk[8192];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0)
		sb_putn(&sb, chunk, got);
	bool bad = ferror(f);
	fclose(f);
	if (bad) {
		sb_free(&sb);
		diag_error(d, (srcloc){ path, 0, 0 }, "cannot read the hardware log");
		return NULL;
	}
	return sb.s ? sb_take(&sb) : xstrdup("");
}

/* Split a line into blank-separated words, in place; returns how many
 * (at most max). */
static int split_words(char *line, char **w, int max)
{
	int n = 0;
	char *save = NULL;
	for (char *p = strtok_r(line, " \t\r", &save); p && n < max; p = strtok_r(NULL, " \t\r", &save))
		w[n++] = p;
	return n;
}

static bool contains_ci(const char *s, const char *needle)
{
	size_t m = strlen(needle);
	for (; *s; s++)
		if (!strncasecmp(s, needle, m))
			return true;
	return false;
}

enum { MAX_WORDS = 16 };

/* mcompare rows; returns false when the text has none. */
static bool read_mcompare(hw_log *h, char *text)
{
	int column = -1;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *bar = strchr(line, '|');
		if (!bar)
			continue;
		*bar = '\0';
		char *name[2];
		int n_name = split_words(line, name, 2);
		char *w[MAX_WORDS];
		int n = split_words(bar + 1, w, MAX_WORDS);
		if (n == 0)
			continue;
		if (n_name == 0) {
			/* the header: pick the column */
			column = n - 1;
			for (int k = 0; k < n; k++)
				if (contains_ci(w[k], "hardware")) {
					column = k;
					break;
				}
			free(h->title);
			size_t len = strlen(w[column]);
			if (len > 4 && !strcmp(w[column] + len - 4, ".txt"))
				len -= 4;
			h->title = xstrndup(w[column], len);
			continue;
		}
		if (n_name != 1)
			continue;
		int k = column >= 0 && column < n ? column : n - 1;
		if (!strcmp(w[k], "Ok") || !strcmp(w[k], "No"))
			add_entry(h, name[0], strlen(name[0]), HWK_VERDICT, !strcmp(w[k], "Ok"));
	}
	return h->n > 0;
}

/* One block of a herd7 / litmus7 log, between its Test line and the next. */
typedef struct log_block {
	char *name;
	bool has_obs, has_counts, has_quant;
	long obs_pos, pos, neg;
	bool not_exists;
} log_block;

static void close_block(hw_log *h, log_block *b)
{
	if (!b->name)
		return;
	if (b->has_obs)
		add_entry(h, b->name, strlen(b->name), HWK_OBSERVED, b->obs_pos > 0);
	else if (b->has_counts && b->has_quant)
		add_entry(h, b->name, strlen(b->name), HWK_OBSERVED, (b->not_exists ? b->neg : b->pos) > 0);
	free(b->name);
	memset(b, 0, sizeof *b);
}

static void read_logs(hw_log *h, char *text)
{
	log_block b = { 0 };
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *w[MAX_WORDS];
		int n = split_words(line, w, MAX_WORDS);
		if (n == 0)
			continue;
		if (!strcmp(w[0], "Test") && n >= 2) {
			close_block(h, &b);
			b.name = xstrdup(w[1]);
		} else if (!b.name) {
			continue;
		} else if (!strcmp(w[0], "Observation") && n >= 5) {
			b.has_obs = true;
			b.obs_pos = strtol(w[n - 2], NULL, 10);
		} else if (!strcmp(w[0], "Positive:") && n >= 4 && !strcmp(w[2], "Negative:")) {
			b.has_counts = true;
			b.pos = strtol(w[1], NULL, 10);
			b.neg = strtol(w[3], NULL, 10);
		} else if (!strcmp(w[0], "Condition") && n >= 2) {
			b.has_quant = true;
			b.not_exists = !strncmp(w[1], "~exists", 7) || !strncmp(w[1], "~", 1);
		}
	}
	close_block(h, &b);
}

static int entry_cmp(const void *a, const void *b)
{
	return strcmp(((const hw_entry *)a)->name, ((const hw_entry *)b)->name);
}

hw_log *hw_log_read(const char *path, diag *d)
{
	char *text = read_all(path, d);
	if (!text)
		return NULL;
	hw_log *h = xcalloc(1, sizeof *h);
	char *copy = xstrdup(text);
	if (!read_mcompare(h, copy)) {
		free(h->title);
		h->title = NULL;
		read_logs(h, text);
	}
	free(copy);
	free(text);
	if (h->n == 0) {
		diag_error(d, (srcloc){ path, 0, 0 },
			   "no test verdicts found (expected an mcompare table or herd7/litmus7 result blocks)");
		hw_log_free(h);
		return NULL;
	}
	if (!h->title) {
		const char *base = strrchr(path, '/');
		h->title = xstrdup(base ? base + 1 : path);
	}
	qsort(h->v, (size_t)h->n, sizeof *h->v, entry_cmp);
	return h;
}

void hw_log_free(hw_log *h)
{
	if (!h)
		return;
	for (int i = 0; i < h->n; i++)
		free(h->v[i].name);
	free(h->v);
	free(h->title);
	free(h);
}

const char *hw_log_title(const hw_log *h) { return h->title; }

int hw_log_count(const hw_log *h) { return h->n; }

enum hw_status hw_log_lookup(const hw_log *h, const char *name)
{
	hw_entry key = { (char *)name, HWK_VERDICT, false };
	const hw_entry *e = bsearch(&key, h->v, (size_t)h->n, sizeof *h->v, entry_cmp);
	if (!e)
		return HW_UNKNOWN;
	return e->yes ? HW_OBSERVED : HW_UNOBSERVED;
}
