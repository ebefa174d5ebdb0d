/* cat_incr.c — checking the monotone checks of a growing execution (RSMC's
 * committed prefix) with evaluators that keep their work between calls.
 *
 * The evaluator keeps the values that depend only on the static part of an
 * execution (cat_eval.c) while that part does not change.  A model has one
 * evaluator; an engine that alternates partial and complete executions of
 * different sizes on it throws that memo away at every call.  A
 * cat_partial holds one evaluator per execution size instead: the commits
 * tried from one state (one event, each parameter) all give executions of
 * the same size with the same events, po and dependencies, so they share
 * the static values, and the model's own evaluator, left to complete
 * executions, keeps its memo across them too.  Values are exactly those a
 * fresh evaluation computes; only the reuse differs.
 */
#include <stdlib.h>

#include "cat_int.h"

struct cat_partial {
	cat_model *m;
	int n;            /* entries of ev */
	cat_eval **ev;    /* by execution size; allocated when first used */
};

cat_partial *cat_partial_new(cat_model *m)
{
	cat_partial *p = xcalloc(1, sizeof *p);
	p->m = m;
	return p;
}

void cat_partial_free(cat_partial *p)
{
	if (!p)
		return;
	for (int i = 0; i < p->n; i++)
		if (p->ev[i]) {
			cat_eval_free(p->ev[i]);
			free(p->ev[i]);
		}
	free(p->ev);
	free(p);
}

/* The evaluator for executions of n events (each is its own allocation:
 * an evaluator points into itself, so it must not move). */
static cat_eval *evaluator(cat_partial *p, int n)
{
	if (n >= p->n) {
		int nn = n + 8;
		p->ev = xrealloc(p->ev, (size_t)nn * sizeof *p->ev);
		for (int i = p->n; i < nn; i++)
			p->ev[i] = NULL;
		p->n = nn;
	}
	if (!p->ev[n]) {
		p->ev[n] = xmalloc(sizeof *p->ev[n]);
		cat_eval_init(p->ev[n], p->m);
	}
	return p->ev[n];
}

bool cat_partial_check(cat_partial *p, const execution *x, cat_verdict *out, diag *d)
{
	cat_model *m = p->m;
	cat_eval *ev = evaluator(p, x->n);
	cat_eval_begin(ev, x);
	out->allowed = true;
	out->failed = NULL;
	out->n_flags = 0;
	out->flags = m->flag_names;
	for (int i = 0; i < m->nchecks; i++) {
		if (!m->checks[i].monotone || m->checks[i].flag)
			continue;
		bool failed, fired;
		if (!cat_eval_check(ev, i, &failed, &fired)) {
			cat_eval_report(ev, d);
			return false;
		}
		if (failed) {
			out->allowed = false;
			out->failed = m->checks[i].name;
			break;
		}
	}
	return true;
}
