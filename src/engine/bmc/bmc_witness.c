/* bmc_witness.c — every state bmc reports is replayed as a concrete
 * execution and judged by the ordinary evaluator (bmc.h).
 *
 * The solver's model gives a path per thread, rf and co: with them the
 * enumerator's own execution is built (paths_execution), and it must be
 * well formed (each read reads a write of its location and value, co a
 * total order per location, initial write first), allowed by the model
 * (cat_model_check, the enumerator's judge) and end in the state read out
 * of the solver.  A failure would be a bug of the encoding: it is an
 * error, never a silently wrong block. */
#include <stdlib.h>
#include <string.h>

#include "bmc.h"

static bool fail(const bmc_enc *e, diag *d, const char *why)
{
	srcloc at = { e->t->file, 0, 0 };
	diag_error(d, at, "internal error in the bmc engine: a solution %s (test %s)", why,
	           e->t->name ? e->t->name : "?");
	return false;
}

bool bmc_witness(bmc_enc *e, cat_model *m, const test_result *r, const value *vals, bool holds, bool want_allowed,
                 const engine_opts *o, diag *d)
{
	const litmus_test *t = e->t;
	int nt = t->n_threads, n = e->n;
	const thread_path **pick = xcalloc((size_t)nt + 1, sizeof *pick);
	int *base = xcalloc((size_t)nt + 1, sizeof *base);
	for (int i = 0; i < nt; i++)
		for (int p = 0; p < e->n_paths[i] && !pick[i]; p++)
			if (sat_value(e->s, e->sel[i][p]))
				pick[i] = e->paths[i][p];
	bool ok = true;
	for (int i = 0; i < nt && ok; i++)
		if (!pick[i] || pick[i]->toofar)
			ok = fail(e, d, "takes no path, or a cut one, in a thread");
	execution x;
	memset(&x, 0, sizeof x);
	if (ok) {
		paths_execution(t, pick, base, &x);
		for (int a = 0; a < n; a++)
			for (int b = 0; b < n; b++) {
				if (sat_value(e->s, *bmc_at(e->rf, n, a, b)))
					brel_add(&x.rf, a, b);
				if (sat_value(e->s, *bmc_at(e->co, n, a, b)))
					brel_add(&x.co, a, b);
			}
		/* well formed: one write of the same location and value per
		 * read; co total on each location's writes */
		for (int b = 0; b < n && ok; b++) {
			if (x.ev[b].kind != EV_READ)
				continue;
			int k = 0;
			for (int a = 0; a < n; a++)
				if (brel_has(&x.rf, a, b)) {
					k++;
					if (x.ev[a].kind != EV_WRITE || x.ev[a].loc != x.ev[b].loc ||
					    !value_eq(x.ev[a].val, x.ev[b].val))
						k = 99;
				}
			if (k != 1)
				ok = fail(e, d, "has a read without exactly one matching write");
		}
		for (int a = 0; a < n && ok; a++)
			for (int b = 0; b < n && ok; b++)
				if (a != b && x.ev[a].kind == EV_WRITE && x.ev[b].kind == EV_WRITE &&
				    x.ev[a].loc == x.ev[b].loc && brel_has(&x.co, a, b) == brel_has(&x.co, b, a))
					ok = fail(e, d, "has a coherence that is not a total order");
		brel closed = brel_copy(&x.co);
		brel_transitive_closure(&closed);
		if (ok && (!brel_equal(&closed, &x.co) || !brel_irreflexive(&x.co)))
			ok = fail(e, d, "has a coherence that is not a total order");
		brel_free(&closed);
	}
	cat_verdict v = { 0 };
	v.allowed = true;
	if (ok && m) {
		if (!cat_model_check(m, &x, &v, d))
			ok = false;
		else if (want_allowed && !v.allowed)
			ok = fail(e, d, "is an execution the model forbids");
	}
	/* the state read out of the solver is this execution's */
	for (int i = 0; i < r->n_lvals && ok; i++) {
		lval lv = r->lvals[i];
		value got = value_int(0);
		if (lv.thread >= 0 && lv.thread < nt && lv.reg >= 0 && lv.reg < t->threads[lv.thread].n_regs)
			got = pick[lv.thread]->regs[lv.reg];
		else if (lv.thread < 0 && lv.loc >= 0 && lv.loc < t->n_locs)
			for (int w = 0; w < n; w++) {
				bool last = x.ev[w].kind == EV_WRITE && x.ev[w].loc == lv.loc;
				for (int w2 = 0; w2 < n && last; w2++)
					last = !brel_has(&x.co, w, w2);
				if (last)
					got = x.ev[w].val;
			}
		if (!value_eq(lval_final_value(t, lv, got), vals[i]))
			ok = fail(e, d, "ends in another state than the one read out");
	}
	if (ok && o && o->on_candidate) {
		engine_candidate cand = { &x, &v, holds, vals, r->n_lvals };
		o->on_candidate(o->candidate_ctx, &cand);
	}
	if (x.ev)
		execution_free(&x);
	free(pick);
	free(base);
	return ok;
}
