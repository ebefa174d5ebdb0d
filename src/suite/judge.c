/* judge.c — the Linux kernel's judgement of a C test: its `Result:` comment
 * against its result, by the rules of tools/memory-model's judgelitmus.sh
 * (see suite.h).  Text in, verdict and the kernel's line out: the run that
 * made the text is the caller's.
 */
#include <stdlib.h>
#include <string.h>

#include "suite.h"

/* The next line of text[*at..len): its start and length (no newline);
 * false at the end. */
static bool next_line(const char *text, size_t len, size_t *at, const char **line, size_t *n)
{
	if (*at >= len)
		return false;
	const char *p = text + *at;
	const char *nl = memchr(p, '\n', len - *at);
	*line = p;
	*n = nl ? (size_t)(nl - p) : len - *at;
	*at += *n + (nl != NULL);
	return true;
}

static bool starts_with(const char *line, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && !memcmp(line, prefix, k);
}

static bool ends_with(const char *line, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && !memcmp(line + n - k, suffix, k);
}

/* Where `needle` first occurs in line[0..n), or NULL. */
static const char *find_in(const char *line, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; k > 0 && i + k <= n; i++)
		if (!memcmp(line + i, needle, k))
			return line + i;
	return NULL;
}

/* A Result: line, as the script's grep '^[( ]\* Result: ' finds it; the
 * length of that prefix, or 0. */
static size_t result_prefix(const char *line, size_t n)
{
	static const char rest[] = "* Result: ";
	size_t k = sizeof rest - 1;
	if (n < k + 1 || (line[0] != '(' && line[0] != ' ') || memcmp(line + 1, rest, k))
		return 0;
	return k + 1;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

void judge_expect_read(judge_expect *e, const char *text, size_t len)
{
	memset(e, 0, sizeof *e);
	size_t at = 0, n;
	const char *line;
	while (next_line(text, len, &at, &line, &n)) {
		size_t k = result_prefix(line, n);
		if (!k)
			continue;
		/* awk's $3: the first word after "Result:", on the first such
		 * line only */
		if (!e->has_result) {
			e->has_result = true;
			size_t i = k;
			while (i < n && blank(line[i]))
				i++;
			size_t j = i;
			while (j < n && !blank(line[j]))
				j++;
			e->outcome = xstrndup(line + i, j - i);
		}
		/* '^[( ]\* Result: .* DATARACE', on any such line */
		if (find_in(line + k, n - k, " DATARACE"))
			e->datarace = true;
	}
}

void judge_expect_free(judge_expect *e)
{
	free(e->outcome);
	e->outcome = NULL;
}

/* What the script reads in a test's output. */
typedef struct output_facts {
	bool observation;    /* a line starting "Observation"          */
	bool never_0_0;      /* one ending "Never 0 0": a deadlock      */
	bool has_outcome;    /* one holding the expected outcome word   */
	bool datarace;       /* a line "Flag data-race"                 */
	bool timeout;        /* weft's record of a timeout              */
	strbuf unknown;      /* the names of "...: Unknown macro NAME (User
	                      * error)" lines, blank-separated          */
} output_facts;

/* weft's record of a test it gave up on: "Test NAME Timeout SECONDS" (job.c
 * prints it where herd's block would be; /usr/bin/time's "exit status 124"
 * line is what the script looks for after herd7). */
static bool timeout_record(const char *line, size_t n)
{
	if (!starts_with(line, n, "Test "))
		return false;
	const char *name_end = memchr(line + 5, ' ', n - 5);
	return name_end && starts_with(name_end, n - (size_t)(name_end - line), " Timeout");
}

static void read_facts(output_facts *f, const char *out, size_t len, const char *outcome)
{
	memset(f, 0, sizeof *f);
	static const char macro[] = ": Unknown macro ";
	size_t at = 0, n;
	const char *line;
	while (next_line(out, len, &at, &line, &n)) {
		if (starts_with(line, n, "Observation")) {
			f->observation = true;
			f->never_0_0 = f->never_0_0 || ends_with(line, n, "Never 0 0");
			f->has_outcome = f->has_outcome || (*outcome && find_in(line, n, outcome));
		}
		if (n == strlen("Flag data-race") && starts_with(line, n, "Flag data-race"))
			f->datarace = true;
		f->timeout = f->timeout || timeout_record(line, n);
		/* sed 's/^.*: Unknown macro //; s/ (User error).*$//' */
		const char *last = NULL;
		for (const char *p = line; (p = find_in(p, n - (size_t)(p - line), macro)); p++)
			last = p;
		if (last) {
			const char *name = last + strlen(macro);
			size_t rest = n - (size_t)(name - line);
			const char *stop = find_in(name, rest, " (User error)");
			size_t nl = stop ? (size_t)(stop - name) : rest;
			sb_printf(&f->unknown, "%s%.*s", f->unknown.len ? " " : "", (int)nl, name);
		}
	}
}

enum judge_verdict judge_output(const judge_expect *e, const char *out, size_t len, const char *file,
                                strbuf *line)
{
	const char *outcome = e->outcome ? e->outcome : "";
	output_facts f;
	read_facts(&f, out, len, outcome);
	enum judge_verdict v = JUDGE_PASS;
	if (e->has_result && e->datarace && !f.datarace) {
		sb_printf(line, "!!! Predicted data race not modeled %s", file);
		v = JUDGE_FAIL;
	} else if (e->has_result && !e->datarace && f.datarace) {
		sb_printf(line, "!!! Unexpected data race modeled %s", file);
		v = JUDGE_FAIL;
	} else if (!f.observation) {
		if (f.unknown.len)
			sb_printf(line, "!!! Current LKMM version does not know \"%s\" %s", f.unknown.s, file);
		else if (f.timeout)
			sb_printf(line, " !!! Timeout %s", file);
		else
			sb_printf(line, " !!! Verification error %s", file);
		v = JUDGE_FAIL;
	} else if (!e->has_result) {
		/* the script would judge against the word "specified" and fail:
		 * weft counts these tests apart */
		v = JUDGE_UNJUDGED;
	} else if (!strcmp(outcome, "DEADLOCK")) {
		if (!f.never_0_0) {
			sb_printf(line, " !!! Unexpected non-DEADLOCK verification %s", file);
			v = JUDGE_FAIL;
		}
	} else if (f.never_0_0) {
		sb_printf(line, " !!! Unexpected non-%s deadlock %s", outcome, file);
		v = JUDGE_FAIL;
	} else if (!f.has_outcome && strcmp(outcome, "Maybe") != 0) {
		/* a data race the test predicted forgives a wrong outcome word */
		v = f.datarace ? JUDGE_FORGIVEN : JUDGE_FAIL;
		sb_printf(line, " %s non-%s verification %s", f.datarace ? "--- Forgiven" : "!!! Unexpected",
			  outcome, file);
	}
	sb_free(&f.unknown);
	return v;
}
