/* progress.c — a progress line for terminals, and the run's summary. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "progress.h"

/* Redraws per second: enough to look alive, few enough to cost nothing. */
static const double REDRAW_INTERVAL = 0.1;
/* Columns the line may use when $COLUMNS does not say. */
enum { DEFAULT_COLUMNS = 80 };

double progress_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_init(progress *p, FILE *out, int total, bool enabled)
{
	memset(p, 0, sizeof *p);
	p->enabled = enabled;
	p->out = out;
	p->total = total;
	p->start = progress_now();
	p->last_draw = -1;
}

static int columns(void)
{
	const char *c = getenv("COLUMNS");
	int n = c ? atoi(c) : 0;
	return n >= 20 && n <= 1000 ? n : DEFAULT_COLUMNS;
}

static void format_duration(char *buf, size_t size, double s)
{
	long t = (long)(s + 0.5);
	if (t >= 3600)
		snprintf(buf, size, "%ldh%02ldm", t / 3600, t / 60 % 60);
	else if (t >= 60)
		snprintf(buf, size, "%ldm%02lds", t / 60, t % 60);
	else
		snprintf(buf, size, "%lds", t);
}

/* 812, 24.0k, 1.31M: three figures at most. */
static void format_count(char *buf, size_t size, double x)
{
	static const char *const unit[] = { "", "k", "M", "G", "T" };
	int u = 0;
	while (x >= 1000 && u < 4) {
		x /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%.0f", x);
	else
		snprintf(buf, size, x < 10 ? "%.2f%s" : x < 100 ? "%.1f%s" : "%.0f%s", x, unit[u]);
}

static void draw(progress *p)
{
	double now = progress_now();
	double elapsed = now - p->start;
	double rate = elapsed > 0 ? p->done / elapsed : 0;
	char eta[32] = "?";
	if (rate > 0)
		format_duration(eta, sizeof eta, (p->total - p->done) / rate);
	char line[1024];
	int n = snprintf(line, sizeof line, "[%*d/%d] %d failed", (int)snprintf(NULL, 0, "%d", p->total),
			 p->done, p->total, p->failed);
	if (p->unexpected)
		n += snprintf(line + n, sizeof line - (size_t)n, ", %d unexpected", p->unexpected);
	n += snprintf(line + n, sizeof line - (size_t)n, "  %.1f/s  ETA %s  %s", rate, eta,
		      p->current ? p->current : "");
	double running = now - p->current_start;
	if (p->current && running >= 1 && (p->candidates > 0 || p->executions > 0) && n < (int)sizeof line) {
		char c[16], e[16], r[16];
		long work = p->candidates > 0 ? p->candidates : p->executions;
		format_count(c, sizeof c, (double)p->candidates);
		format_count(e, sizeof e, (double)p->executions);
		format_count(r, sizeof r, (double)work / running);
		if (p->candidates > 0)
			n += snprintf(line + n, sizeof line - (size_t)n, ": %s candidates, %s executions, %s/s", c, e,
				      r);
		else
			n += snprintf(line + n, sizeof line - (size_t)n, ": %s executions, %s/s", e, r);
	}
	/* Never wrap: a wrapped line cannot be erased with one \r. */
	int width = columns() - 1;
	if (n > width)
		line[width] = '\0';
	fprintf(p->out, "\r%s\033[K", line);
	fflush(p->out);
	p->drawn = true;
	p->last_draw = now;
}

void progress_tick(progress *p)
{
	if (p->enabled && progress_now() - p->last_draw >= REDRAW_INTERVAL)
		draw(p);
}

void progress_started(progress *p, const char *name)
{
	if (name != p->current) {
		p->current = name;
		p->current_start = progress_now();
		p->candidates = p->executions = 0;
	}
	progress_tick(p);
}

void progress_work(progress *p, long candidates, long executions)
{
	p->candidates = candidates;
	p->executions = executions;
}

void progress_finished(progress *p, bool failed, bool unexpected)
{
	p->done++;
	p->failed += failed;
	p->unexpected += unexpected;
	progress_tick(p);
}

void progress_clear(progress *p)
{
	if (p->enabled && p->drawn) {
		fputs("\r\033[K", p->out);
		fflush(p->out);
		p->drawn = false;
	}
}

static void count(strbuf *b, int n, const char *one, const char *many)
{
	sb_printf(b, ", %d %s", n, n == 1 ? one : many);
}

/* The summary's counts, without the time. */
static void summary_counts(strbuf *b, const run_totals *t)
{
	sb_printf(b, "weft: %d test%s", t->jobs, t->jobs == 1 ? "" : "s");
	/* Under several models the verdicts outnumber the tests: say so, or
	 * "18 tests, 10 Ok, 26 No" reads as a sum that does not add up. */
	if (t->models > 1)
		sb_printf(b, " x %d models:", t->models);
	else
		sb_putc(b, ',');
	sb_printf(b, " %d Ok, %d No", t->sum.ok, t->sum.no);
	count(b, t->sum.timeouts, "timeout", "timeouts");
	count(b, t->sum.errors, "error", "errors");
	if (t->out_of_memory)
		count(b, t->out_of_memory, "out of memory", "out of memory");
	if (t->crashed)
		count(b, t->crashed, "crashed", "crashed");
	if (t->sum.mismatches)
		count(b, t->sum.mismatches, "unexpected", "unexpected");
}

void summary_print(FILE *out, const run_totals *t, double seconds)
{
	strbuf b = { 0 };
	summary_counts(&b, t);
	sb_printf(&b, " in %.1fs\n", seconds);
	fputs(b.s, out);
	sb_free(&b);
}

void summary_print_saved(FILE *out, const run_totals *t)
{
	strbuf b = { 0 };
	summary_counts(&b, t);
	sb_puts(&b, " (saved results)\n");
	fputs(b.s, out);
	sb_free(&b);
}
