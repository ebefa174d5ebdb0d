/* cat_co_unread.c — the one coherence order herd's engine builds when the
 * model reads none.
 *
 * A model that generates its own orders (herd's c11_cos.cat: `with mo
 * from generate_orders(W & (A | IW), co0)`) and never reads co, fr or
 * `with co from` runs, in herd, without co from its engine
 * (herd/herd.ml: a cat model's options say co=false): herd's engine picks
 * only the final write of each location the test observes
 * (herd/mem.ml's all_finals_non_mixed, observed_finals_only), and counts
 * one execution per read-from map and choice of final writes, times the
 * model's own choices.  weft's engines build every coherence order; for
 * such a model, one of them per final write stands for herd's execution:
 * at each location, the initial write first, the observed final write
 * last, and the other writes in the order of their events.  The others
 * are not executions for the model (cat_run_checks drops them, as
 * forbidden), so each of herd's is counted once.
 */
#include <stdlib.h>

#include "cat_int.h"

bool cat_co_is_herds_one(const execution *x)
{
	if (!x->co.w || x->co.n != x->n)
		return true;
	const litmus_test *t = x->test;
	int nl = t ? t->n_locs : 0;
	bool *obs = xcalloc((size_t)(nl ? nl : 1), sizeof *obs);
	if (t && nl)
		cat_observed_locations(t, obs);
	bool ok = true;
	for (int i = 0; i < x->n && ok; i++) {
		const event *a = &x->ev[i];
		if (a->kind != EV_WRITE || (a->flags & EVF_INIT) || a->loc < 0)
			continue;
		for (int j = i + 1; j < x->n && ok; j++) {
			const event *b = &x->ev[j];
			if (b->kind != EV_WRITE || (b->flags & EVF_INIT) || b->loc != a->loc)
				continue;
			if (!brel_has(&x->co, j, i))
				continue;   /* in event order */
			/* b before a: only when a is the observed final write */
			bool a_last = true;
			for (int k = 0; k < x->n && a_last; k++)
				if (brel_has(&x->co, i, k))
					a_last = false;
			ok = a_last && a->loc < nl && obs[a->loc];
		}
	}
	free(obs);
	return ok;
}
