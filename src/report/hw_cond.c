/* hw_cond.c — a litmus7 log's condition, judged on one state of its
 * histogram.
 *
 * litmus7 writes, per test, the final states it saw and how often
 * (`COUNT:> 1:r1=0; 1:r3=1;`), then a summary whose counts and verdict
 * depend on the test's kind (Allow, Forbid, Require): read alone, the
 * summary of a Forbid test says "Positive" for runs that did NOT reach the
 * interesting state.  What the hardware did is in the histogram: a state
 * satisfying the condition's proposition was seen, or not.  This file
 * decides the "satisfying" part: the proposition (`/\`, `\/`, `~`, `not`,
 * parentheses, `LOC=VALUE`, `true`, `false`) evaluated on a state's
 * bindings. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "report_extra.h"

typedef struct prop_reader {
	const char *p;       /* the proposition, where parsing is */
	const char *state;   /* `loc=value;` bindings */
	bool bad;            /* not a proposition we read */
} prop_reader;

static void skip_blanks(prop_reader *c)
{
	while (isspace((unsigned char)*c->p))
		c->p++;
}

static bool eat(prop_reader *c, const char *tok)
{
	skip_blanks(c);
	size_t n = strlen(tok);
	if (strncmp(c->p, tok, n))
		return false;
	c->p += n;
	return true;
}

/* A location or value word: up to a blank, '=', ')', '/', '\\' or ';'. */
static size_t word_len(const char *s)
{
	size_t n = 0;
	while (s[n] && !isspace((unsigned char)s[n]) && !strchr("=)/\\;", s[n]))
		n++;
	return n;
}

/* The same location: `[x]` is `x`. */
static bool same_loc(const char *a, size_t na, const char *b, size_t nb)
{
	if (na >= 2 && a[0] == '[' && a[na - 1] == ']')
		a++, na -= 2;
	if (nb >= 2 && b[0] == '[' && b[nb - 1] == ']')
		b++, nb -= 2;
	return na == nb && !strncmp(a, b, na);
}

static bool same_value(const char *a, size_t na, const char *b, size_t nb)
{
	char x[64], y[64];
	if (na < sizeof x && nb < sizeof y) {
		memcpy(x, a, na);
		x[na] = '\0';
		memcpy(y, b, nb);
		y[nb] = '\0';
		char *ex, *ey;
		long vx = strtol(x, &ex, 0), vy = strtol(y, &ey, 0);
		if (na > 0 && nb > 0 && !*ex && !*ey)
			return vx == vy;
	}
	return na == nb && !strncmp(a, b, na);
}

/* The value the state binds loc to: whether found, and where. */
static bool state_value(const char *state, const char *loc, size_t nloc, const char **val, size_t *nval)
{
	const char *s = state;
	while (*s) {
		while (isspace((unsigned char)*s) || *s == ';')
			s++;
		if (!*s)
			break;
		const char *l = s;
		size_t nl = word_len(l);
		s += nl;
		while (isspace((unsigned char)*s))
			s++;
		if (*s != '=')
			return false;
		s++;
		while (isspace((unsigned char)*s))
			s++;
		const char *v = s;
		size_t nv = word_len(v);
		s += nv;
		if (same_loc(l, nl, loc, nloc)) {
			*val = v;
			*nval = nv;
			return true;
		}
		while (*s && *s != ';')
			s++;
	}
	return false;
}

static bool disjunction(prop_reader *c);

static bool unary(prop_reader *c)
{
	if (eat(c, "~"))
		return !unary(c);
	skip_blanks(c);
	if (!strncmp(c->p, "not", 3) && (isspace((unsigned char)c->p[3]) || c->p[3] == '(')) {
		c->p += 3;
		return !unary(c);
	}
	if (eat(c, "(")) {
		bool v = disjunction(c);
		if (!eat(c, ")"))
			c->bad = true;
		return v;
	}
	skip_blanks(c);
	size_t n = word_len(c->p);
	if (n == 0) {
		c->bad = true;
		return false;
	}
	const char *loc = c->p;
	c->p += n;
	if (!eat(c, "=")) {
		if (n == 4 && !strncmp(loc, "true", 4))
			return true;
		if (n == 5 && !strncmp(loc, "false", 5))
			return false;
		c->bad = true;
		return false;
	}
	skip_blanks(c);
	const char *want = c->p;
	size_t nwant = word_len(want);
	c->p += nwant;
	const char *got;
	size_t ngot;
	if (nwant == 0 || !state_value(c->state, loc, n, &got, &ngot)) {
		c->bad = true;   /* a location the histogram does not show */
		return false;
	}
	return same_value(got, ngot, want, nwant);
}

static bool conjunction(prop_reader *c)
{
	bool v = unary(c);
	while (!c->bad && eat(c, "/\\"))
		v = unary(c) && v;
	return v;
}

static bool disjunction(prop_reader *c)
{
	bool v = conjunction(c);
	while (!c->bad && eat(c, "\\/"))
		v = conjunction(c) || v;
	return v;
}

int hw_condition_holds(const char *condition, const char *state)
{
	const char *p = condition;
	while (isspace((unsigned char)*p))
		p++;
	/* the quantifier, then the proposition up to litmus7's verdict */
	static const char *const quants[] = { "~exists", "exists", "forall", "~ exists" };
	for (size_t i = 0; i < sizeof quants / sizeof quants[0]; i++)
		if (!strncmp(p, quants[i], strlen(quants[i]))) {
			p += strlen(quants[i]);
			break;
		}
	char *prop = xstrdup(p);
	char *verdict = strstr(prop, " is ");
	if (verdict)
		*verdict = '\0';
	prop_reader c = { prop, state, false };
	bool v = disjunction(&c);
	skip_blanks(&c);
	bool whole = !c.bad && *c.p == '\0';
	free(prop);
	return whole ? v : -1;
}
