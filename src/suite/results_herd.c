/* results_herd.c — herd7 result logs (and weft's own herd-format output)
 * read back as saved results.
 *
 * A block starts at `Test NAME KIND` and ends at a blank line or the next
 * Test line.  Its counts come from the Observation line (always positive,
 * then negative), else from the Witnesses line (swapped for ~exists, as
 * herd prints it).  weft's `Test NAME Timeout 60`, `Crashed ...` and
 * `OutOfMemory` lines are results too.  Other lines (Time, warnings) are
 * skipped. */
#include <stdlib.h>
#include <string.h>

#include "results_int.h"

typedef struct block {
	bool open;
	int line;
	char *name;
	char *model;          /* its Model line, NULL: the file's label */
	enum quantifier quant;
	int n_states;
	int n_lines;          /* the state lines read so far, of n_states */
	char **lines;
	bool ok, has_obs, has_wit;
	long obs_pos, obs_neg, wit_pos, wit_neg;
	bool has_stats;
	long candidates, forbidden;
	char *condition;
} block;

/* The word at *p (advanced past it and the blanks after), or NULL. */
static char *word(const char **p, const char *end)
{
	const char *q = *p;
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	const char *w = q;
	while (q < end && *q != ' ' && *q != '\t' && *q != '\r')
		q++;
	if (q == w) {
		*p = q;
		return NULL;
	}
	char *out = xstrndup(w, (size_t)(q - w));
	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	*p = q;
	return out;
}

static bool starts(const char *p, const char *end, const char *prefix)
{
	size_t n = strlen(prefix);
	return (size_t)(end - p) >= n && !strncmp(p, prefix, n);
}

/* A log's column without a Model line: its base name, extension dropped. */
static char *file_label(const char *path)
{
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
	return xstrndup(base, n);
}

typedef struct herd_reader {
	saved_set *s;
	int file;
	diag *d;
	char *label;
	int producer;
} herd_reader;

static void block_clear(block *b)
{
	free(b->name);
	free(b->model);
	free(b->condition);
	for (int i = 0; i < b->n_lines; i++)
		free(b->lines[i]);
	free(b->lines);
	memset(b, 0, sizeof *b);
}

static saved_result *add(herd_reader *h, const block *b, enum saved_status st)
{
	saved_result *r = saved_add(h->s, h->file);
	r->name = xstrdup(b->name);
	r->model = xstrdup(b->model ? b->model : h->label);
	r->producer = h->producer;
	r->line = b->line;
	r->status = st;
	return r;
}

/* The block ends: its result, or an error when it has no counts. */
static bool close_block(herd_reader *h, block *b)
{
	if (!b->open)
		return true;
	bool ok = b->has_obs || b->has_wit;
	if (!ok) {
		diag_error(h->d, (srcloc){ h->s->files[h->file], b->line, 1 },
			   "the block of test '%s' has no Observation or Witnesses line", b->name);
	} else {
		long pos = b->has_obs ? b->obs_pos : b->quant == Q_NOT_EXISTS ? b->wit_neg : b->wit_pos;
		long neg = b->has_obs ? b->obs_neg : b->quant == Q_NOT_EXISTS ? b->wit_pos : b->wit_neg;
		saved_result *r = add(h, b, pos > 0 ? SAVED_ALLOWED : SAVED_FORBIDDEN);
		r->quant_known = true;
		r->quant = b->quant;
		r->ok = b->ok;
		r->pos = pos;
		r->neg = neg;
		r->n_states = b->n_states;
		if (b->n_lines == b->n_states)
			r->states = state_set_text(b->lines, b->n_lines);
		r->has_stats = b->has_stats;
		r->candidates = b->candidates;
		r->forbidden = b->forbidden;
		r->condition = b->condition;
		b->condition = NULL;
	}
	block_clear(b);
	return ok;
}

/* `Test NAME KIND ...`: a block opens, or a failure is recorded. */
static bool test_line(herd_reader *h, block *b, const char *p, const char *end, int line)
{
	bool ok = close_block(h, b);
	b->name = word(&p, end);
	char *kind = word(&p, end);
	b->line = line;
	static const struct {
		const char *word;
		enum saved_status st;
	} failures[] = { { "Timeout", SAVED_TIMEOUT }, { "Crashed", SAVED_CRASHED },
			 { "OutOfMemory", SAVED_OUT_OF_MEMORY }, { "Error", SAVED_ERROR } };
	bool done = false;
	for (size_t i = 0; kind && i < sizeof failures / sizeof *failures; i++)
		if (!strcmp(kind, failures[i].word)) {
			add(h, b, failures[i].st);
			done = true;
		}
	if (!done && b->name && kind &&
	    (!strcmp(kind, "Allowed") || !strcmp(kind, "Forbidden") || !strcmp(kind, "Required"))) {
		b->open = true;
		b->quant = !strcmp(kind, "Forbidden") ? Q_NOT_EXISTS : !strcmp(kind, "Required") ? Q_FORALL : Q_EXISTS;
	} else if (!done) {
		diag_error(h->d, (srcloc){ h->s->files[h->file], line, 1 },
			   "expected `Test NAME Allowed|Forbidden|Required` (or Timeout, Crashed, OutOfMemory)");
		ok = false;
	}
	free(kind);
	if (!b->open)
		block_clear(b);
	return ok;
}

/* A line inside an open block. */
static void block_line(block *b, const char *p, const char *end)
{
	const char *q = p;
	if (starts(p, end, "States ")) {
		long n = strtol(p + 7, NULL, 10);
		b->n_states = n > 0 && n < 100000000 ? (int)n : 0;
		for (int i = 0; i < b->n_lines; i++)   /* a second States line */
			free(b->lines[i]);
		free(b->lines);
		b->n_lines = 0;
		b->lines = xcalloc((size_t)b->n_states + 1, sizeof *b->lines);
	} else if (b->n_lines < b->n_states) {
		/* the state lines follow the States line */
		const char *stop = end;
		while (stop > p && stop[-1] == '\r')
			stop--;
		b->lines[b->n_lines++] = xstrndup(p, (size_t)(stop - p));
	} else if (starts(p, end, "Ok") || starts(p, end, "Loop Ok")) {
		b->ok = true;
	} else if (starts(p, end, "Positive: ")) {
		b->has_wit = sscanf(p, "Positive: %ld Negative: %ld", &b->wit_pos, &b->wit_neg) == 2;
	} else if (starts(p, end, "Condition ")) {
		free(b->condition);
		const char *stop = end;
		while (stop > p && stop[-1] == '\r')
			stop--;
		b->condition = xstrndup(p + 10, (size_t)(stop - p - 10));
	} else if (starts(p, end, "Observation ")) {
		q += 12;
		free(word(&q, end));   /* the name */
		free(word(&q, end));   /* Never / Sometimes / Always */
		b->has_obs = sscanf(q, "%ld %ld", &b->obs_pos, &b->obs_neg) == 2;
	} else if (starts(p, end, "Stats ")) {
		char *line = xstrndup(p, (size_t)(end - p));
		const char *c = strstr(line, " candidates ");
		const char *f = strstr(line, " forbidden ");
		if (c && f) {
			b->has_stats = true;
			b->candidates = strtol(c + 12, NULL, 10);
			b->forbidden = strtol(f + 11, NULL, 10);
		}
		free(line);
	} else if (starts(p, end, "Model ")) {
		q += 6;
		free(b->model);
		b->model = word(&q, end);
	}
}

bool saved_read_herd(saved_set *s, int file, const char *text, size_t len, diag *d)
{
	herd_reader h = { s, file, d, file_label(s->files[file]), saved_producer(s, "a herd log") };
	block b;
	memset(&b, 0, sizeof b);
	bool ok = true;
	int line = 0;
	const char *end = text + len;
	for (const char *p = text; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end;
		line++;
		const char *q = p;
		while (q < stop && (*q == ' ' || *q == '\t' || *q == '\r'))
			q++;
		if (starts(p, stop, "Test "))
			ok = test_line(&h, &b, p + 5, stop, line) && ok;
		else if (q == stop)
			ok = close_block(&h, &b) && ok;
		else if (b.open)
			block_line(&b, p, stop);
		p = nl ? nl + 1 : end;
	}
	ok = close_block(&h, &b) && ok;
	free(h.label);
	return ok;
}
