/* session_goto.c — `goto STATE`: the enumerator (engine.h) builds every
 * candidate execution of the test, the ones whose final state satisfies
 * STATE are kept, and the model judges them.  The enumerator is used
 * rather than the session's own commits because it builds herd's
 * candidates, those with a cycle in dependencies and rf included, so that
 * a forbidden state is explained by the same candidates as -explain's.
 *
 * STATE is read by the litmus parser: the test's own text with its final
 * condition replaced by `exists (STATE)`, so every lval and value is
 * written exactly as in a test. */
#include <stdlib.h>
#include <string.h>

#include "../engine/engine.h"
#include "../litmus/litmus.h"
#include "../report/report_extra.h"
#include "session_int.h"

/* ---- the candidates reaching the state ---------------------------------------------------- */

typedef struct collected {
	bool want;        /* keep candidates where the proposition is this */
	int n;
	size_t cap;
	execution *x;
} collected;

static bool is_lock_write(const event *e)
{
	return e->kind == EV_FENCE && e->loc >= 0 && e->fence && !strcmp(e->fence, "LKW");
}

/* x with the lock order lw[0..n) (each location's lock writes a run, in
 * the order they take the lock, after the location's initial write). */
static void add_lock_order(collected *col, const execution *x, const int *lw, int n)
{
	GROW(col->x, col->cap, (size_t)col->n + 1);
	execution *y = &col->x[col->n++];
	execution_copy(y, x);
	if (n == 0)
		return;
	execution_init_lock_co(y);
	for (int i = 0; i < n; i++) {
		for (int w = 0; w < x->n; w++)
			if ((x->ev[w].flags & EVF_INIT) && x->ev[w].loc == x->ev[lw[i]].loc)
				brel_add(&y->lock_co, w, lw[i]);
		for (int j = i + 1; j < n && x->ev[lw[j]].loc == x->ev[lw[i]].loc; j++)
			brel_add(&y->lock_co, lw[i], lw[j]);
	}
}

/* Every lock order from place `at` on: the lock write there is each of
 * those of its location's run not placed yet, in turn. */
static void lock_orders_from(collected *col, const execution *x, int *lw, int n, int at)
{
	if (at >= n) {
		add_lock_order(col, x, lw, n);
		return;
	}
	for (int i = at; i < n && x->ev[lw[i]].loc == x->ev[lw[at]].loc; i++) {
		int k = lw[at];
		lw[at] = lw[i];
		lw[i] = k;
		lock_orders_from(col, x, lw, n, at + 1);
		lw[i] = lw[at];
		lw[at] = k;
	}
}

/* x with each order in which its spin_locks may take their locks (the
 * session's lock_co: per lock location its initial write, then its lock
 * writes): the enumerator's candidates leave that order to the model, the
 * session's commits choose it.  x alone when it takes no lock. */
static void add_lock_orders(collected *col, const execution *x)
{
	int *lw = xmalloc(((size_t)x->n + 1) * sizeof *lw), n = 0;
	for (int e = 0; e < x->n; e++)
		if (is_lock_write(&x->ev[e]))
			lw[n++] = e;
	/* by location, then event: each location's lock writes a run */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && x->ev[lw[j]].loc < x->ev[lw[j - 1]].loc; j--) {
			int k = lw[j];
			lw[j] = lw[j - 1];
			lw[j - 1] = k;
		}
	lock_orders_from(col, x, lw, n, 0);
	free(lw);
}

static void collect(void *ctx, const engine_candidate *c)
{
	collected *col = ctx;
	if (c->holds != col->want)
		return;
	add_lock_orders(col, c->x);
}

/* ---- following a candidate with commits --------------------------------------------------- */

/* Per thread of st, the candidate's event each fetched event is (-1: a
 * store-conditional that fails there, -2: none yet).  False when the
 * thread's path is not the candidate's. */
static bool align(const sstate *st, const execution *x, int **map)
{
	for (int ti = 0; ti < st->t->n_threads; ti++) {
		const sthread *th = &st->th[ti];
		map[ti] = xrealloc(map[ti], ((size_t)th->n + 1) * sizeof **map);
		int j = 0;
		while (j < x->n && x->ev[j].thread != ti)
			j++;
		for (int k = 0; k < th->n; k++) {
			const sev *e = &th->ev[k];
			if (e->choice) {
				map[ti][k] = -3;   /* no event */
				continue;
			}
			bool there = j < x->n && x->ev[j].thread == ti && x->ev[j].op == e->op && x->ev[j].kind == e->kind;
			if (e->failed) {
				map[ti][k] = -1;
				continue;
			}
			if (e->stcond && !e->committed && !there) {
				map[ti][k] = -1;
				continue;
			}
			if (!there)
				return false;
			map[ti][k] = j++;
		}
	}
	return true;
}

static sref ref_of(const sstate *st, int *const *map, const execution *x, int w)
{
	if (x->ev[w].flags & EVF_INIT)
		return (sref){ -1, x->ev[w].loc };
	int ti = x->ev[w].thread;
	for (int k = 0; k < st->th[ti].n; k++)
		if (map[ti][k] == w)
			return (sref){ ti, k };
	return (sref){ -2, -1 };
}

static bool committed_ref(const sstate *st, sref r)
{
	if (r.thread == -1)
		return true;
	const sev *e = sstate_ev(st, r);
	return e && e->committed;
}

/* The alternative of choice d->ev that x took (the events the thread
 * fetches after it are x's): d->pick set, or false for neither. */
static bool choice_towards(const sstate *st, const execution *x, sdecision *d)
{
	int nt = st->t->n_threads;
	int **map = xcalloc((size_t)nt + 1, sizeof *map);
	bool found = false;
	for (int pick = 1; pick >= 0 && !found; pick--) {
		d->pick = pick;
		sstate next;
		sstate_extend(&next, st, d);
		found = align(&next, x, map);
		sstate_free(&next);
	}
	for (int i = 0; i < nt; i++)
		free(map[i]);
	free(map);
	return found;
}

/* The next commit towards x, or false when none can be made. */
static bool next_commit(const sstate *st, int *const *map, const execution *x, sdecision *d)
{
	for (int ti = 0; ti < st->t->n_threads; ti++)
		for (int k = 0; k < st->th[ti].n; k++) {
			sref r = { ti, k };
			if (!sstate_enabled(st, r))
				continue;
			const sev *e = &st->th[ti].ev[k];
			*d = (sdecision){ r, { -2, -1 }, { -2, -1 }, false, false };
			int xe = map[ti][k];
			if (e->choice) {
				if (choice_towards(st, x, d))
					return true;
				continue;
			}
			if (xe == -1) {
				d->fail = true;
				return true;
			}
			if (e->kind == EV_READ) {
				for (int w = 0; w < x->n; w++)
					if (brel_has(&x->rf, w, xe)) {
						d->src = ref_of(st, map, x, w);
						if (committed_ref(st, d->src))
							return true;
					}
				continue;
			}
			/* after the last committed store co-before it (a lock
			 * write: before it in the lock order) */
			int loc = e->loc;
			const brel *order = e->lock_write ? &x->lock_co : &x->co;
			if (!order->w)
				continue;
			d->after = st->co[loc][0];
			for (int c = 1; c < st->n_co[loc]; c++) {
				sref w = st->co[loc][c];
				int xw = map[w.thread][w.index];
				if (xw >= 0 && brel_has(order, xw, xe))
					d->after = w;
			}
			return true;
		}
	return false;
}

static bool same_execution(const execution *a, const execution *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++) {
		const event *p = &a->ev[i], *q = &b->ev[i];
		if (p->kind != q->kind || p->thread != q->thread || p->loc != q->loc || !value_eq(p->val, q->val) ||
		    p->flags != q->flags)
			return false;
	}
	if (!a->lock_co.w != !b->lock_co.w || (a->lock_co.w && !brel_equal(&a->lock_co, &b->lock_co)))
		return false;
	return brel_equal(&a->po, &b->po) && brel_equal(&a->rf, &b->rf) && brel_equal(&a->co, &b->co) &&
	       brel_equal(&a->addr, &b->addr) && brel_equal(&a->data, &b->data) && brel_equal(&a->ctrl, &b->ctrl) &&
	       brel_equal(&a->rmw, &b->rmw);
}

/* The commits that build candidate x from nothing, whatever the model
 * says, into *out (a state to free).  False when x cannot be built by
 * commits (a cycle in dependencies and rf), or when what they build is
 * not x (*mismatch: a disagreement with the enumerator). */
static bool follow(const session *s, const execution *x, sstate *out, bool *mismatch)
{
	*mismatch = false;
	sstate st;
	sstate_build(&st, s->t, s->unroll, s->herd_deps, NULL, 0);
	int **map = xcalloc((size_t)s->t->n_threads + 1, sizeof *map);
	bool ok = false;
	for (;;) {
		if (sstate_complete(&st)) {
			ok = same_execution(&st.x, x);
			*mismatch = !ok;
			break;
		}
		sdecision d;
		if (!align(&st, x, map) || !next_commit(&st, map, x, &d)) {
			*mismatch = !align(&st, x, map);
			break;
		}
		sstate next;
		sstate_extend(&next, &st, &d);
		sstate_free(&st);
		st = next;
	}
	for (int ti = 0; ti < s->t->n_threads; ti++)
		free(map[ti]);
	free(map);
	if (ok)
		*out = st;
	else
		sstate_free(&st);
	return ok;
}

static void put_commits(const sstate *st, strbuf *out)
{
	char **texts = sstate_commit_texts(st);
	for (int i = 0; i < st->n_dec; i++)
		sb_printf(out, "%scommit %s", i ? "; " : "", texts[i]);
	names_free(texts, st->n_dec);
}

/* ---- reporting ----------------------------------------------------------------------------- */

/* An order's immediate successors: the order itself, written once. */
static void put_order(const execution *x, const brel *order, char **names, const char *title, strbuf *out)
{
	sb_printf(out, "  %s:", title);
	bool first = true;
	for (int w = 0; w < x->n; w++)
		for (int v = 0; v < x->n; v++) {
			if (!brel_has(order, w, v))
				continue;
			bool between = false;
			for (int u = 0; u < x->n && !between; u++)
				between = brel_has(order, w, u) && brel_has(order, u, v);
			if (!between) {
				sb_printf(out, "%s%s -> %s", first ? " " : "; ", names[w], names[v]);
				first = false;
			}
		}
	sb_putc(out, '\n');
}

static void put_execution(const execution *x, char **names, strbuf *out)
{
	sb_puts(out, "  Events:");
	for (int i = 0; i < x->n; i++) {
		sb_printf(out, "%s%s: ", i ? "; " : " ", names[i]);
		event_describe(x, i, out);
	}
	sb_puts(out, "\n  rf:");
	bool first = true;
	for (int w = 0; w < x->n; w++)
		for (int r = 0; r < x->n; r++)
			if (brel_has(&x->rf, w, r)) {
				sb_printf(out, "%s%s -> %s", first ? " " : "; ", names[w], names[r]);
				first = false;
			}
	sb_putc(out, '\n');
	put_order(x, &x->co, names, "co", out);
	if (x->lock_co.w)
		put_order(x, &x->lock_co, names, "lock order", out);
}

static bool is_check(cat_model *m, const char *name)
{
	for (int i = 0; i < cat_model_n_checks(m); i++)
		if (!strcmp(cat_model_check_name(m, i), name))
			return true;
	return false;
}

typedef struct check_count {
	const char *name;
	long count;
} check_count;

static bool explain_forbidden(session *s, collected *col, strbuf *out, diag *d)
{
	cat_model *m = s->m;
	int nc = cat_model_n_checks(m);
	int *failing = xcalloc((size_t)nc + 1, sizeof *failing);
	int *best_failing = xcalloc((size_t)nc + 1, sizeof *best_failing);
	int best = -1, best_n = 0;
	check_count *counts = xcalloc((size_t)nc + 1, sizeof *counts);
	int n_counts = 0;
	for (int i = 0; i < col->n; i++) {
		cat_verdict v = { 0 };
		bool ok = cat_model_check(m, &col->x[i], &v, d);
		/* a candidate whose co no element of the model's `with co from`
		 * orders as it does (herd has no such execution) fails no check */
		bool no_choice = ok && v.failed && !is_check(m, v.failed);
		int n = ok && !no_choice ? cat_model_failing_checks(m, &col->x[i], failing, d) : 0;
		if (!ok || n < 0) {
			free(failing);
			free(best_failing);
			free(counts);
			return false;
		}
		const char *first = v.failed ? v.failed : "?";
		int k = 0;
		while (k < n_counts && strcmp(counts[k].name, first) != 0)
			k++;
		if (k == n_counts)
			counts[n_counts++] = (check_count){ first, 0 };
		counts[k].count++;
		if (!no_choice && (best < 0 || n < best_n)) {
			best = i;
			best_n = n;
			memcpy(best_failing, failing, (size_t)n * sizeof *failing);
		}
	}
	sb_printf(out, "forbidden: no allowed execution reaches that state (%d candidate execution%s %s)\n", col->n,
		  col->n == 1 ? "" : "s", col->n == 1 ? "does" : "do");
	sb_puts(out, "  Forbidden by");
	for (int k = 0; k < n_counts; k++)
		sb_printf(out, "%s%s (%ld of %d)", k ? ", " : ": ", counts[k].name, counts[k].count, col->n);
	/* The closest candidate is named by its first failing check in the
	 * model's order, the one herd stops at (and the one -explain counts);
	 * any other check it fails is said apart, so that a reader sees which
	 * check forbids it and that lifting that one check would not do. */
	if (best < 0) {
		sb_puts(out, "\n  (no coherence order the model chooses agrees with any of them)\n");
		free(failing);
		free(best_failing);
		free(counts);
		return true;
	}
	sb_printf(out, "\n  The candidate failing the fewest checks is forbidden by %s (the first check it fails in the "
		       "model's order, where herd stops)\n",
		  best_n > 0 ? cat_model_check_name(m, best_failing[0]) : "?");
	if (best_n > 1) {
		sb_puts(out, "  It also fails:");
		for (int k = 1; k < best_n; k++)
			sb_printf(out, "%s%s", k > 1 ? ", " : " ", cat_model_check_name(m, best_failing[k]));
		sb_putc(out, '\n');
	}
	const execution *x = &col->x[best];
	char **names = execution_names(x);
	put_execution(x, names, out);
	bool ok = true;
	sb_puts(out, "  One witness per failing check (a cycle; a path for an empty check):\n");
	for (int k = 0; k < best_n && ok; k++) {
		strbuf line = { 0 }, why = { 0 };
		ok = witness_line(m, x, names, best_failing[k], &line, NULL, d, &why);
		if (ok)
			sb_printf(out, "  %s: %s\n", cat_model_check_name(m, best_failing[k]), line.s ? line.s : "");
		else
			diag_error(d, (srcloc){ s->t->file, 0, 0 }, "%s", why.s ? why.s : "");
		sb_free(&line);
		sb_free(&why);
	}
	sstate st;
	bool mismatch;
	if (ok && follow(s, x, &st, &mismatch)) {
		sb_puts(out, "  Commits (commit refuses the first step the model forbids): ");
		put_commits(&st, out);
		sb_putc(out, '\n');
		sstate_free(&st);
	} else if (ok) {
		sb_puts(out, mismatch ? "  internal error: the session builds another execution than the enumerator\n"
				      : "  (no commit order builds it: it has a cycle in dependencies and rf)\n");
	}
	names_free(names, x->n);
	free(failing);
	free(best_failing);
	free(counts);
	return ok;
}

void session_set_search_limit(session *s, double seconds)
{
	s->search_seconds = seconds > 0 ? seconds : 0;
}

bool session_goto(session *s, const char *state, strbuf *out, diag *d)
{
	litmus_test *owned = NULL;
	const litmus_test *t = s->t;
	collected col = { 0 };
	col.want = !(state == NULL && t->quant == Q_FORALL);
	if (state) {
		char *condition = xasprintf("exists (%s)", state);
		owned = litmus_with_condition(s->t, condition, d);
		free(condition);
		if (!owned)
			return false;
		t = owned;
	}
	engine_opts o = { 0 };
	o.unroll = s->unroll;
	o.timeout = s->search_seconds;
	o.on_candidate = collect;
	o.candidate_ctx = &col;
	test_result r = { 0 };
	bool ok = engine_run(NULL, t, NULL, &o, &r, d); /* the reference: every candidate */
	bool cut = r.timed_out;
	test_result_free(&r);
	int found = -1;
	for (int i = 0; ok && i < col.n && found < 0; i++) {
		cat_verdict v = { 0 };
		ok = cat_model_check(s->m, &col.x[i], &v, d);
		if (ok && v.allowed)
			found = i;
	}
	if (!ok) {
		/* reported through d */
	} else if (cut && found < 0) {
		sb_printf(out, "gave up after %g s: the search for the candidate executions ending in that state "
			       "did not finish (%d found so far, none allowed)\n",
			  s->search_seconds, col.n);
	} else if (col.n == 0) {
		sb_puts(out, "unreachable: no candidate execution of the test ends in that state\n");
	} else if (found >= 0) {
		sstate st;
		bool mismatch;
		if (follow(s, &col.x[found], &st, &mismatch)) {
			session_set_state(s, st.dec, st.n_dec, true);
			sstate_free(&st);
			sb_puts(out, "reached: an allowed execution ends in that state\n  State: ");
			session_final_state(s, out);
			sb_puts(out, "\n  Commits: ");
			put_commits(&s->cur, out);
			sb_putc(out, '\n');
		} else {
			char **names = execution_names(&col.x[found]);
			sb_puts(out, "reached: an allowed execution ends in that state");
			sb_puts(out, mismatch ? " (internal error: the session builds another execution than the enumerator)\n"
					      : " (no commit order builds it: it has a cycle in dependencies and rf)\n");
			put_execution(&col.x[found], names, out);
			names_free(names, col.x[found].n);
		}
	} else {
		ok = explain_forbidden(s, &col, out, d);
	}
	for (int i = 0; i < col.n; i++)
		execution_free(&col.x[i]);
	free(col.x);
	if (owned)
		litmus_test_free(owned);
	return ok;
}
