/* bmc.c — the symbolic engine (-engine bmc): the threads' paths grouped
 * by skeleton (same events and dependencies, values aside), each
 * combination of skeletons encoded with the model into one SAT problem
 * (bmc.h), whose distinct final states are read out one solver call each.
 * One incremental solver per combination; the straight-line tests of the
 * usual litmus suites have one. */
#include <stdlib.h>
#include <string.h>

#include "bmc.h"


static bool same_deps(const dep_list *a, const dep_list *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (a->e[i].from != b->e[i].from || a->e[i].to != b->e[i].to)
			return false;
	return true;
}

/* Do paths p and q have the same events (values aside) and dependencies? */
static bool same_skeleton(const thread_path *p, const thread_path *q)
{
	if (p->n_ev != q->n_ev)
		return false;
	for (int k = 0; k < p->n_ev; k++) {
		const path_event *a = &p->ev[k], *b = &q->ev[k];
		if (a->kind != b->kind || a->op != b->op || a->instr != b->instr || a->instance != b->instance ||
		    a->loc != b->loc || a->flags != b->flags || a->fence != b->fence)
			return false;
	}
	return same_deps(&p->addr, &q->addr) && same_deps(&p->data, &q->data) && same_deps(&p->ctrl, &q->ctrl);
}

/* The paths of one thread grouped by skeleton. */
typedef struct group {
	int n;
	size_t cap;
	const thread_path **p;
} group;

typedef struct groups {
	int n;
	size_t cap;
	group *g;
} groups;

static void group_paths(const path_set *ps, groups *out)
{
	memset(out, 0, sizeof *out);
	for (int k = 0; k < ps->n; k++) {
		const thread_path *p = &ps->p[k];
		int i = 0;
		while (i < out->n && !same_skeleton(out->g[i].p[0], p))
			i++;
		if (i == out->n) {
			GROW(out->g, out->cap, (size_t)out->n + 1);
			memset(&out->g[out->n], 0, sizeof out->g[out->n]);
			out->n++;
		}
		group *g = &out->g[i];
		GROW(g->p, g->cap, (size_t)g->n + 1);
		g->p[g->n++] = p;
	}
}

/* Encode and solve one combination of skeletons; false on an error. */
static bool solve_combination(const litmus_test *t, cat_model *m, const engine_opts *o, test_result *r,
                              state_table *tab, const thread_path ***pick, const int *n_pick, double deadline,
                              diag *d)
{
	sat *s = sat_new();
	bmc_enc e;
	cat_symbolic cs = { 0 };
	int *flag_lit = NULL;
	bool ok = bmc_prog_encode(&e, s, t, pick, n_pick, d);
	if (ok && m)
		ok = cat_model_symbolic(m, &e.x, &cs, d);
	if (ok) {
		flag_lit = xcalloc((size_t)cs.n_checks + 1, sizeof *flag_lit);
		ok = bmc_model_encode(&e, &cs, flag_lit, d);
	}
	if (ok) {
		int st = bmc_states(&e, m, r, tab, flag_lit, &cs, o, deadline, d);
		if (st == 0)
			r->timed_out = true;
		ok = st >= 0;
	}
	r->stats.own[BMC_SAT_CALLS] += sat_n_calls(s);
	r->stats.own[BMC_SAT_VARS] += sat_n_vars(s);
	r->stats.own[BMC_SAT_CLAUSES] += sat_n_clauses(s);
	free(flag_lit);
	cat_symbolic_free(&cs);
	bmc_enc_free(&e);
	sat_free(s);
	return ok;
}

/* Has speedcheck found the state that decides the verdict? */
static bool decided(const litmus_test *t, const test_result *r)
{
	return t->quant == Q_FORALL ? r->neg > 0 : r->pos > 0;
}

bool bmc_run(const litmus_test *t, cat_model *m, const engine_opts *o, test_result *r, diag *d)
{
	if (t->vmsa) {
		diag_error(d, t->vmsa_at, "the bmc engine does not run tests under herd's vmsa variant (page "
		           "tables): use -engine enumerate (or rsmc, which hands them to it)");
		return false;
	}
	if (t->mixed_granule) {
		srcloc at = { t->file, 0, 0 };
		diag_error(d, at, "the bmc engine does not run tests under herd's -variant mixed (its locations "
		           "of several granules): use -engine enumerate (or rsmc, which hands them to it)");
		return false;
	}
	if (t->ifetch) {
		/* a fetched instruction runs what its fetch read: a choice
		 * between instructions the encoding has no place for */
		diag_error(d, litmus_first_fetch(t), "not supported by bmc: instructions fetched from memory "
		           "(herd's ifetch variant); -engine enumerate runs them");
		return false;
	}
	int unroll = o->unroll >= 0 ? o->unroll : ENGINE_UNROLL_DEFAULT;
	double deadline = o->timeout > 0 ? paths_clock() + o->timeout : 0;
	path_set *paths = NULL;
	bool timed_out = false;
	paths_build(t, unroll, deadline, false, &paths, &r->stats.value_rounds, &timed_out, NULL, d);
	int nt = t->n_threads;
	groups *gs = xcalloc((size_t)nt + 1, sizeof *gs);
	for (int i = 0; i < nt; i++) {
		r->stats.paths += paths[i].n;
		group_paths(&paths[i], &gs[i]);
	}
	bool ok = true, any = true;
	for (int i = 0; i < nt; i++)
		any &= gs[i].n > 0;
	state_table tab = { 0 };
	int *choice = xcalloc((size_t)nt + 1, sizeof *choice);
	const thread_path ***pick = xcalloc((size_t)nt + 1, sizeof *pick);
	int *n_pick = xcalloc((size_t)nt + 1, sizeof *n_pick);
	/* every combination of one skeleton per thread, as an odometer */
	while (any && ok && !timed_out) {
		for (int i = 0; i < nt; i++) {
			pick[i] = gs[i].g[choice[i]].p;
			n_pick[i] = gs[i].g[choice[i]].n;
		}
		ok = solve_combination(t, m, o, r, &tab, pick, n_pick, deadline, d);
		if (r->timed_out || (o->speedcheck && decided(t, r)))
			break;
		int i = nt - 1;
		for (; i >= 0; i--) {
			if (++choice[i] < gs[i].n)
				break;
			choice[i] = 0;
		}
		if (i < 0)
			break;
	}
	if (timed_out)
		r->timed_out = true;
	r->addr_dropped = paths_addr_dropped(t, paths);
	result_sort_flags(r);
	state_table_free(&tab);
	for (int i = 0; i < nt; i++) {
		for (int k = 0; k < gs[i].n; k++)
			free(gs[i].g[k].p);
		free(gs[i].g);
	}
	free(gs);
	free(choice);
	free(pick);
	free(n_pick);
	paths_free(t, paths);
	return ok;
}
