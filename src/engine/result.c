/* result.c — the pieces of a test_result every engine fills the same way. */
#include <stdlib.h>
#include <string.h>

#include "result.h"

static bool lval_same(lval a, lval b)
{
	if (a.thread != b.thread)
		return false;
	/* a location's forms (prog.h: x, v[i], a cell of v whole) are
	 * shown each on its own */
	return a.reg == b.reg && (a.thread >= 0 || a.loc == b.loc);
}

static void add_lval(test_result *r, size_t *cap, lval lv)
{
	for (int i = 0; i < r->n_lvals; i++)
		if (lval_same(r->lvals[i], lv))
			return;
	GROW(r->lvals, *cap, (size_t)r->n_lvals + 1);
	r->lvals[r->n_lvals++] = lv;
}

static void cond_lvals(test_result *r, size_t *cap, const cond *c)
{
	if (!c)
		return;
	switch (c->kind) {
	case COND_EQ:
	case COND_NE:
		add_lval(r, cap, c->lhs);
		if (c->rhs_is_lval)
			add_lval(r, cap, c->rhs_lval);
		break;
	case COND_NOT:
		cond_lvals(r, cap, c->l);
		break;
	case COND_AND:
	case COND_OR:
	case COND_IMPLIES:
		cond_lvals(r, cap, c->l);
		cond_lvals(r, cap, c->r);
		break;
	case COND_FAULT:
		add_lval(r, cap, c->lhs);   /* the thread's fault (lval_fault) */
		break;
	case COND_TRUE:
	case COND_FALSE:
		break;
	}
}

void result_collect_lvals(test_result *r, const litmus_test *t)
{
	size_t cap = 0;
	cond_lvals(r, &cap, t->cond);
	for (int i = 0; i < t->n_observed; i++)
		add_lval(r, &cap, t->observed[i]);
}

static uint64_t hash_values(const value *v, int n)
{
	uint64_t h = 1469598103934665603u;   /* FNV-1a over the fields */
	for (int i = 0; i < n; i++) {
		uint64_t parts[2] = { (uint64_t)(int64_t)v[i].loc, (uint64_t)v[i].num };
		for (int k = 0; k < 2; k++) {
			h ^= parts[k];
			h *= 1099511628211u;
			h ^= h >> 29;
		}
	}
	return h;
}

static bool same_values(const value *a, const value *b, int n)
{
	for (int i = 0; i < n; i++)
		if (!value_eq(a[i], b[i]))
			return false;
	return true;
}

static void rehash(test_result *r, state_table *tab)
{
	int n = tab->n_slots ? tab->n_slots * 2 : 64;
	free(tab->slots);
	tab->slots = xmalloc((size_t)n * sizeof *tab->slots);
	for (int i = 0; i < n; i++)
		tab->slots[i] = -1;
	tab->n_slots = n;
	for (int s = 0; s < r->n_states; s++) {
		uint64_t h = hash_values(r->states[s].raw, r->n_lvals) & (uint64_t)(n - 1);
		while (tab->slots[h] >= 0)
			h = (h + 1) & (uint64_t)(n - 1);
		tab->slots[h] = s;
	}
}

void result_add_state(test_result *r, state_table *tab, const value *vals, const value *raw, bool holds)
{
	if ((r->n_states + 1) * 2 > tab->n_slots)
		rehash(r, tab);
	uint64_t mask = (uint64_t)tab->n_slots - 1;
	uint64_t h = hash_values(raw, r->n_lvals) & mask;
	while (tab->slots[h] >= 0) {
		final_state *s = &r->states[tab->slots[h]];
		if (same_values(s->raw, raw, r->n_lvals)) {
			s->count++;
			return;
		}
		h = (h + 1) & mask;
	}
	GROW(r->states, tab->cap_states, (size_t)r->n_states + 1);
	final_state *s = &r->states[r->n_states];
	size_t bytes = ((size_t)r->n_lvals + 1) * sizeof *s->vals;
	s->vals = xmalloc(bytes);
	memcpy(s->vals, vals, (size_t)r->n_lvals * sizeof *s->vals);
	s->raw = xmalloc(bytes);
	memcpy(s->raw, raw, (size_t)r->n_lvals * sizeof *s->raw);
	s->holds = holds;
	s->count = 1;
	tab->slots[h] = r->n_states++;
}

void state_table_free(state_table *tab)
{
	free(tab->slots);
	tab->slots = NULL;
	tab->n_slots = 0;
}

void result_add_flag(test_result *r, const char *name)
{
	if (result_has_flag(r, name))
		return;
	r->flags = xrealloc(r->flags, ((size_t)r->n_flags + 1) * sizeof *r->flags);
	r->flags[r->n_flags++] = xstrdup(name);
}

bool result_has_flag(const test_result *r, const char *name)
{
	for (int i = 0; i < r->n_flags; i++)
		if (!strcmp(r->flags[i], name))
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void result_sort_flags(test_result *r)
{
	if (r->n_flags > 1)
		qsort(r->flags, (size_t)r->n_flags, sizeof *r->flags, cmp_str);
}

void test_result_free(test_result *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->n_states; i++) {
		free(r->states[i].vals);
		free(r->states[i].raw);
	}
	free(r->states);
	for (int i = 0; i < r->n_flags; i++)
		free(r->flags[i]);
	free(r->flags);
	free(r->lvals);
	memset(r, 0, sizeof *r);
}

value *result_state_scratch(const test_result *r)
{
	return xcalloc(2 * (size_t)r->n_lvals + 1, sizeof(value));
}

bool result_counts_agree(const test_result *r)
{
	long in_states = 0;
	for (int i = 0; i < r->n_states; i++)
		in_states += r->states[i].count;
	return r->pos + r->neg == r->stats.complete && in_states == r->stats.allowed;
}

void result_count_candidate(test_result *r)
{
	r->stats.candidates++;
	if (r->live)
		r->live->candidates = r->stats.candidates;
}

void result_count_execution(test_result *r, state_table *tab, const litmus_test *t, const cat_verdict *v,
			    bool toofar, value (*final)(void *ctx, lval lv), void *ctx, value *vals)
{
	if (!v->allowed) {
		r->stats.forbidden++;
		return;
	}
	if (toofar) {
		r->stats.toofar++;
		r->loop = true;
		return;
	}
	bool holds = t->cond ? cond_eval_final(t->cond, t, final, ctx) : true;
	/* herd counts an execution once per choice of the model's `with`
	 * under which it passes */
	long times = v->n_allowed > 0 ? v->n_allowed : 1;
	r->stats.complete += times;
	if (r->live)
		r->live->executions = r->stats.complete;
	r->stats.allowed++;
	if (holds)
		r->pos += times;
	else
		r->neg += times;
	value *raw = vals + r->n_lvals;
	for (int i = 0; i < r->n_lvals; i++) {
		raw[i] = final(ctx, r->lvals[i]);
		vals[i] = lval_final_value(t, r->lvals[i], raw[i]);
	}
	result_add_state(r, tab, vals, raw, holds);
	for (int i = 0; i < v->n_flags; i++)
		result_add_flag(r, v->flags[i]);
}

void result_count_sc_execution(test_result *r, state_table *tab, const litmus_test *t, bool toofar,
			       value (*final)(void *ctx, lval lv), void *ctx, value *vals)
{
	if (t->filter && !cond_eval_final(t->filter, t, final, ctx)) {
		r->stats.filtered++;
		return;
	}
	cat_verdict v = { .allowed = true, .n_allowed = 1 };
	result_count_execution(r, tab, t, &v, toofar, final, ctx, vals);
}
