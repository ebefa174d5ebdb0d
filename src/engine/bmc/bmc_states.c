/* bmc_states.c — reading final states out of the solver (bmc.h): each
 * satisfying assignment gives one state of the displayed lvals, which a
 * blocking clause then rules out, until none is left.  So the solver is
 * called once per distinct final state (plus one), not once per
 * execution: Positive and Negative count states, not executions. */
#include <stdlib.h>

#include "bmc.h"

/* The literal that displayed lval lv ends with value v (typed). */
static int typed_lit(bmc_enc *e, int idx, value v)
{
	const bmc_dom *dom = &e->lvals[idx].typed;
	for (int i = 0; i < dom->n; i++)
		if (value_eq(dom->v[i], v))
			return dom->lit[i];
	return SAT_FALSE;
}

/* Rule state vals out: some displayed lval ends otherwise. */
static void block(bmc_enc *e, const int *idx, int n, const value *vals)
{
	int *c = xmalloc(((size_t)n + 1) * sizeof *c);
	for (int i = 0; i < n; i++)
		c[i] = -typed_lit(e, idx[i], vals[i]);
	sat_clause(e->s, c, n);
	free(c);
}

typedef struct state_reader {
	const test_result *r;
	const value *vals;
} state_reader;

static value read_state(void *ctx, lval lv)
{
	const state_reader *sr = ctx;
	for (int i = 0; i < sr->r->n_lvals; i++) {
		lval o = sr->r->lvals[i];
		if (o.thread == lv.thread && (lv.thread >= 0 ? o.reg == lv.reg : o.loc == lv.loc))
			return sr->vals[i];
	}
	return value_int(0);
}

/* The state of the current model of the solver. */
static void read_vals(bmc_enc *e, const int *idx, int n, value *vals)
{
	for (int i = 0; i < n; i++) {
		const bmc_dom *dom = &e->lvals[idx[i]].typed;
		vals[i] = value_int(0);
		for (int k = 0; k < dom->n; k++)
			if (sat_value(e->s, dom->lit[k])) {
				vals[i] = dom->v[k];
				break;
			}
	}
}

static bool state_holds(const test_result *r, const litmus_test *t, const value *vals)
{
	state_reader sr = { r, vals };
	return t->cond ? cond_eval_final(t->cond, t, read_state, &sr) : true;
}

static void add_state(test_result *r, state_table *tab, const litmus_test *t, const value *vals)
{
	bool holds = state_holds(r, t, vals);
	if (holds)
		r->pos++;
	else
		r->neg++;
	result_add_state(r, tab, vals, vals, holds);   /* bmc solves for typed values only */
}

/* For -explain, when no allowed execution reaches the condition's
 * target states (where it holds; for forall, where it fails): one
 * execution that reaches them, the model's checks off, which the model
 * then forbids, handed to on_candidate with the enumerator's verdict. */
static int forbidden_witness(bmc_enc *e, cat_model *m, test_result *r, const int *idx, value *vals,
                             const engine_opts *o, diag *d)
{
	const litmus_test *t = e->t;
	for (int k = 0; k < r->n_states; k++)
		if (r->states[k].holds == (t->quant != Q_FORALL))
			return 1;
	int c = t->cond ? bmc_cond_lit(e, t->cond, true) : SAT_TRUE;
	int assume[2] = { e->full, t->quant == Q_FORALL ? -c : c };
	if (!sat_solve(e->s, assume, 2))
		return 1;
	read_vals(e, idx, r->n_lvals, vals);
	return bmc_witness(e, m, r, vals, state_holds(r, t, vals), false, o, d) ? 1 : -1;
}

int bmc_states(bmc_enc *e, cat_model *m, test_result *r, state_table *tab, const int *flag_lit,
               const cat_symbolic *cs, const engine_opts *o, double deadline, diag *d)
{
	const litmus_test *t = e->t;
	if (t->filter)
		sat_clause1(e->s, bmc_cond_lit(e, t->filter, true));
	int n = r->n_lvals;
	int *idx = xmalloc(((size_t)n + 1) * sizeof *idx);
	for (int i = 0; i < n; i++)
		idx[i] = (int)(bmc_lval_of(e, r->lvals[i]) - e->lvals);
	value *vals = xmalloc(((size_t)n + 1) * sizeof *vals);
	int status = 1;
	/* what every counted execution is: not cut, allowed */
	int full[2] = { e->full, e->model_on };
	sat_set_deadline(e->s, deadline, paths_clock);
	if (o->speedcheck) {
		int c = t->cond ? bmc_cond_lit(e, t->cond, true) : SAT_TRUE;
		int assume[3] = { full[0], full[1], t->quant == Q_FORALL ? -c : c };
		if (sat_solve(e->s, assume, 3)) {
			read_vals(e, idx, n, vals);
			if (!bmc_witness(e, m, r, vals, state_holds(r, t, vals), true, o, d))
				status = -1;
			else
				add_state(r, tab, t, vals);
		}
		goto done;
	}
	/* a cut execution the model allows: herd's "Loop" */
	int cut[2] = { e->cut, e->model_on };
	if (!r->loop && e->cut != SAT_FALSE && sat_solve(e->s, cut, 2))
		r->loop = true;
	for (int i = 0; i < cs->n_checks; i++) {
		if (!flag_lit[i])
			continue;
		int assume[3] = { full[0], full[1], flag_lit[i] };
		if (sat_solve(e->s, assume, 3))
			result_add_flag(r, cat_model_check_flag(m, i));
	}
	for (int k = 0; k < r->n_states; k++)
		block(e, idx, n, r->states[k].vals);
	while (sat_solve(e->s, full, 2)) {
		read_vals(e, idx, n, vals);
		if (!bmc_witness(e, m, r, vals, state_holds(r, t, vals), true, o, d)) {
			status = -1;
			break;
		}
		add_state(r, tab, t, vals);
		block(e, idx, n, vals);
		if (deadline > 0 && paths_clock() > deadline) {
			status = 0;
			break;
		}
	}
	if (status == 1 && !sat_interrupted(e->s) && o->on_candidate)
		status = forbidden_witness(e, m, r, idx, vals, o, d);
done:
	if (status == 1 && sat_interrupted(e->s))
		status = 0;
	free(idx);
	free(vals);
	return status;
}
