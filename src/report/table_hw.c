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
 *     where the proposition holds (P).  litmus7's blocks have none: what
 *     the hardware did is its `Histogram`, the states seen with their
 *     counts, and the test was observed when a state seen satisfies the
 *     condition's proposition (hw_cond.c) — for a Require test (litmus7's
 *     kind for forall), one that does not, a counterexample: mcompare's
 *     tables say No for a Require test whose every run satisfied it.  The
 *     summary (`Positive: P Negative: N`, `Ok`) is not read when the
 *     histogram can be judged: its sense depends on the kind (for a Forbid
 *     test, Positive counts runs that did NOT reach the interesting
 *     state), and reading it as herd's marked MP+syncs and 13 more POWER
 *     classics Observed where mcompare's table, from the same runs, says
 *     No.  Without a Condition line, the counts are read by the kind
 *     (Allow: P > 0, Forbid and Require: N > 0); without a kind, swapped
 *     for ~exists as on herd's Witnesses line.
 */
#include <ctype.h>
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
	int n_hist;
	char **hist;         /* a litmus7 block's states seen (owned), for
	                      * hw_log_lookup_for */
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
	h->v[h->n++] = (hw_entry){ xstrndup(name, len), kind, yes, 0, NULL };
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
	char kind;           /* litmus7's kind: 'A'llow, 'F'orbid, 'R'equire, 0 */
	char *condition;     /* the Condition line's text after the keyword */
	int n_hist;
	size_t hist_cap;
	char **hist;         /* histogram states seen (count > 0) */
} log_block;

/* `COUNT:> STATE` or `COUNT*> STATE` (litmus7's histogram line): the state
 * when COUNT > 0, else NULL. */
static const char *histogram_state(const char *line)
{
	const char *p = line;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return NULL;
	char *end;
	long long count = strtoll(p, &end, 10);
	while (*end == ' ')   /* litmus7 pads counts: "4803397 :> x=2; y=2;" */
		end++;
	if ((end[0] != ':' && end[0] != '*') || end[1] != '>')
		return NULL;
	return count > 0 ? end + 2 : NULL;
}

/* Observed, from the histogram: 1, 0, or -1 when it cannot say. */
static int histogram_observed(const log_block *b)
{
	if (b->n_hist == 0)
		return -1;
	bool want = b->kind != 'R';
	if (!b->condition) {
		if (!b->has_counts || !b->kind)
			return -1;
		return (b->kind == 'A' ? b->pos : b->neg) > 0;
	}
	bool seen = false;
	for (int i = 0; i < b->n_hist; i++) {
		int holds = hw_condition_holds(b->condition, b->hist[i]);
		if (holds < 0)
			return -1;
		seen = seen || (bool)holds == want;
	}
	return seen;
}

static void close_block(hw_log *h, log_block *b)
{
	if (!b->name)
		return;
	int from_histogram = histogram_observed(b);
	int before = h->n;
	if (b->has_obs)
		add_entry(h, b->name, strlen(b->name), HWK_OBSERVED, b->obs_pos > 0);
	else if (from_histogram >= 0)
		add_entry(h, b->name, strlen(b->name), HWK_OBSERVED, from_histogram);
	else if (b->has_counts && b->has_quant)
		add_entry(h, b->name, strlen(b->name), HWK_OBSERVED, (b->not_exists ? b->neg : b->pos) > 0);
	else if (b->n_hist > 0)   /* judged only with the test's own condition */
		add_entry(h, b->name, strlen(b->name), HWK_OBSERVED, false);
	if (h->n > before && !b->has_obs) {
		h->v[h->n - 1].n_hist = b->n_hist;
		h->v[h->n - 1].hist = b->hist;
	} else {
		for (int i = 0; i < b->n_hist; i++)
			free(b->hist[i]);
		free(b->hist);
	}
	free(b->condition);
	free(b->name);
	memset(b, 0, sizeof *b);
}

static void read_logs(hw_log *h, char *text)
{
	log_block b = { 0 };
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *state = b.name ? histogram_state(line) : NULL;
		if (state) {
			GROW(b.hist, b.hist_cap, (size_t)b.n_hist + 1);
			b.hist[b.n_hist++] = xstrdup(state);
			continue;
		}
		if (b.name && !strncmp(line, "Condition ", 10)) {
			free(b.condition);
			b.condition = xstrdup(line + 10);
		}
		char *w[MAX_WORDS];
		int n = split_words(line, w, MAX_WORDS);
		if (n == 0)
			continue;
		if (!strcmp(w[0], "Test") && n >= 2) {
			close_block(h, &b);
			b.name = xstrdup(w[1]);
			if (n >= 3 && (!strcmp(w[2], "Allow") || !strcmp(w[2], "Forbid") || !strcmp(w[2], "Require")))
				b.kind = w[2][0];
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

hw_log *hw_log_parse(const char *path, const char *text_in, diag *d)
{
	char *text = xstrdup(text_in);
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
	for (int i = 0; i < h->n; i++) {
		for (int k = 0; k < h->v[i].n_hist; k++)
			free(h->v[i].hist[k]);
		free(h->v[i].hist);
		free(h->v[i].name);
	}
	free(h->v);
	free(h->title);
	free(h);
}

const char *hw_log_title(const hw_log *h) { return h->title; }

int hw_log_count(const hw_log *h) { return h->n; }

enum hw_status hw_log_lookup_for(const hw_log *h, const char *name, const char *condition)
{
	hw_entry key = { (char *)name, HWK_VERDICT, false, 0, NULL };
	const hw_entry *e = bsearch(&key, h->v, (size_t)h->n, sizeof *h->v, entry_cmp);
	if (!e)
		return HW_UNKNOWN;
	if (condition && e->n_hist > 0) {
		bool seen = false;
		int i;
		for (i = 0; i < e->n_hist; i++) {
			int holds = hw_condition_holds(condition, e->hist[i]);
			if (holds < 0)
				break;
			seen = seen || holds;
		}
		if (i == e->n_hist)
			return seen ? HW_OBSERVED : HW_UNOBSERVED;
	}
	return e->yes ? HW_OBSERVED : HW_UNOBSERVED;
}

enum hw_status hw_log_lookup(const hw_log *h, const char *name)
{
	return hw_log_lookup_for(h, name, NULL);
}
