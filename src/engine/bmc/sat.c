/* sat.c — CaDiCaL behind sat.h: constants, clause folding, polarity gates. */
#include <ccadical.h>
#include <stdlib.h>

#include "../../util/util.h"
#include "sat.h"

struct sat {
	CCaDiCaL *solver;
	int n_vars;
	long n_clauses, n_calls;
	int *buf;            /* a clause being folded */
	size_t cap;
	double deadline;     /* 0: none */
	double (*clock)(void);
	bool interrupted;
};

/* CaDiCaL asks this now and then during a solve. */
static int past_deadline(void *state)
{
	const sat *s = state;
	return s->deadline > 0 && s->clock() > s->deadline;
}

void sat_set_deadline(sat *s, double deadline, double (*clock)(void))
{
	s->deadline = deadline;
	s->clock = clock;
	if (deadline > 0)
		ccadical_set_terminate(s->solver, s, past_deadline);
}

bool sat_interrupted(const sat *s) { return s->interrupted; }

sat *sat_new(void)
{
	sat *s = xcalloc(1, sizeof *s);
	s->solver = ccadical_init();
	/* no "c ..." lines on stdout, which holds the result blocks */
	ccadical_set_option(s->solver, "quiet", 1);
	/* variable 1 is SAT_TRUE */
	s->n_vars = 1;
	ccadical_add(s->solver, SAT_TRUE);
	ccadical_add(s->solver, 0);
	s->n_clauses = 1;
	return s;
}

void sat_free(sat *s)
{
	if (!s)
		return;
	ccadical_release(s->solver);
	free(s->buf);
	free(s);
}

int sat_var(sat *s)
{
	return ++s->n_vars;
}

void sat_clause(sat *s, const int *lits, int n)
{
	GROW(s->buf, s->cap, (size_t)n + 1);
	int k = 0;
	for (int i = 0; i < n; i++) {
		if (lits[i] == SAT_TRUE)
			return;
		if (lits[i] == SAT_FALSE)
			continue;
		s->buf[k++] = lits[i];
	}
	for (int i = 0; i < k; i++)
		ccadical_add(s->solver, s->buf[i]);
	ccadical_add(s->solver, 0);
	s->n_clauses++;
}

void sat_clause1(sat *s, int a) { sat_clause(s, &a, 1); }
void sat_clause2(sat *s, int a, int b) { int c[2] = { a, b }; sat_clause(s, c, 2); }
void sat_clause3(sat *s, int a, int b, int c) { int l[3] = { a, b, c }; sat_clause(s, l, 3); }

bool sat_solve(sat *s, const int *assume, int n)
{
	for (int i = 0; i < n; i++)
		if (assume[i] != SAT_TRUE)
			ccadical_assume(s->solver, assume[i]);
	s->n_calls++;
	int res = ccadical_solve(s->solver);
	s->interrupted = res != 10 && res != 20;
	return res == 10;
}

bool sat_value(sat *s, int lit)
{
	if (lit == SAT_TRUE || lit == SAT_FALSE)
		return lit == SAT_TRUE;
	return ccadical_val(s->solver, lit) > 0;
}

long sat_n_vars(const sat *s) { return s->n_vars; }
long sat_n_clauses(const sat *s) { return s->n_clauses; }
long sat_n_calls(const sat *s) { return s->n_calls; }

/* or / and through one function: and(x) = -or(-x) with the polarity
 * flipped. */
int sat_or(sat *s, const int *in, int n, int pol)
{
	int k = 0, only = SAT_FALSE;
	for (int i = 0; i < n; i++) {
		if (in[i] == SAT_TRUE)
			return SAT_TRUE;
		if (in[i] != SAT_FALSE) {
			k++;
			only = in[i];
		}
	}
	if (k <= 1)
		return only;
	int g = sat_var(s);
	if (pol & POL_UP)
		for (int i = 0; i < n; i++)
			if (in[i] != SAT_FALSE)
				sat_clause2(s, -in[i], g);
	if (pol & POL_DOWN) {
		int *c = xmalloc(((size_t)n + 1) * sizeof *c);
		int m = 0;
		c[m++] = -g;
		for (int i = 0; i < n; i++)
			if (in[i] != SAT_FALSE)
				c[m++] = in[i];
		sat_clause(s, c, m);
		free(c);
	}
	return g;
}

int sat_and(sat *s, const int *in, int n, int pol)
{
	int *neg = xmalloc(((size_t)n + 1) * sizeof *neg);
	for (int i = 0; i < n; i++)
		neg[i] = -in[i];
	int g = -sat_or(s, neg, n, sat_flip(pol));
	free(neg);
	return g;
}

int sat_or2(sat *s, int a, int b, int pol)
{
	int in[2] = { a, b };
	return sat_or(s, in, 2, pol);
}

int sat_and2(sat *s, int a, int b, int pol)
{
	int in[2] = { -a, -b };
	return -sat_or(s, in, 2, sat_flip(pol));
}
