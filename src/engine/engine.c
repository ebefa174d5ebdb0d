/* engine.c — the engines' registry, and engine_run: pick the engine by
 * name, time it, hand a test it cannot vouch for to the reference engine,
 * and fill the parts of the result that do not depend on the engine. */
#include <string.h>
#include <time.h>

#include "engine.h"
#include "paths.h"
#include "result.h"

extern const engine_desc enumerate_engine, rsmc_engine, bmc_engine, pop_engine, await_engine, rvf_engine;

/* The registry: every engine of this build, the reference first.  A new
 * engine is a folder under src/engine/ with its descriptor, and a line
 * here. */
static const engine_desc *const engines[] = {
	&enumerate_engine,
	&rsmc_engine,
	&bmc_engine,
	&pop_engine,
	&await_engine,
	&rvf_engine,
};
enum { N_ENGINES = sizeof engines / sizeof engines[0] };

const engine_desc *engine_find(const char *name)
{
	for (int i = 0; i < N_ENGINES; i++)
		if (!strcmp(engines[i]->name, name))
			return engines[i];
	return NULL;
}

const engine_desc *engine_with(unsigned cap)
{
	for (int i = 0; i < N_ENGINES; i++)
		if ((engines[i]->caps & cap) == cap)
			return engines[i];
	return NULL;
}

void engine_names(strbuf *b, unsigned cap, const char *last_sep)
{
	int n = 0, total = 0;
	for (int i = 0; i < N_ENGINES; i++)
		total += (engines[i]->caps & cap) == cap;
	for (int i = 0; i < N_ENGINES; i++) {
		if ((engines[i]->caps & cap) != cap)
			continue;
		if (n > 0)
			sb_puts(b, n == total - 1 ? last_sep : ", ");
		sb_puts(b, engines[i]->name);
		n++;
	}
}

const char *engine_fallback_reason(const engine_desc *e, int why)
{
	if (e && e->fallback_reason && why > 0 && why < e->n_fallbacks)
		return e->fallback_reason(why);
	return "the engine answered itself";
}

/* Start out again, empty, for engine e's run. */
static void result_restart(test_result *out, const engine_desc *e, const engine_opts *o, const litmus_test *t)
{
	test_result_free(out);
	memset(out, 0, sizeof *out);
	out->engine = e;
	out->live = o->live;
	result_collect_lvals(out, t);
}

/* Engine e's reference_first: the reference engine's answer when it
 * finishes within ENGINE_REFERENCE_BUDGET candidates (*answered; its
 * messages passed on to d, out->fallback e's reason), else nothing of its
 * run is kept.  False when that run failed (the model could not evaluate
 * an execution). */
static bool try_reference_first(const engine_desc *e, const engine_desc *ref, const litmus_test *t, cat_model *m,
                                const engine_opts *o, test_result *out, diag *d, bool *answered)
{
	*answered = false;
	int why = o->weft_chose && e != ref && e->reference_first && !o->on_candidate ? e->reference_first(t, m) : 0;
	if (!why)
		return true;
	engine_opts first = *o;
	first.budget = ENGINE_REFERENCE_BUDGET;
	strbuf text = { 0 };
	diag held = { .collect = &text };
	out->engine = ref;
	bool ok = ref->run(t, m, &first, out, &held);
	if (ok && out->over_budget) {
		result_restart(out, e, o, t);
	} else {
		diag_put_collected(d, text.s);
		d->errors += held.errors;
		d->warnings += held.warnings;
		out->fallback = why;
		*answered = true;
	}
	sb_free(&text);
	return ok;
}

bool engine_run(const char *engine_name, const litmus_test *t, cat_model *m,
                const engine_opts *o, test_result *out, diag *d)
{
	memset(out, 0, sizeof *out);
	const engine_desc *ref = engine_with(ENGINE_REFERENCE);
	const engine_desc *e = engine_name ? engine_find(engine_name) : ref;
	if (!e) {
		srcloc at = { t->file, 0, 0 };
		strbuf known = { 0 };
		engine_names(&known, 0, ", ");
		diag_error(d, at, "unknown engine '%s' (known: %s)", engine_name, known.s);
		sb_free(&known);
		return false;
	}
	engine_opts defaults = { .unroll = ENGINE_UNROLL_DEFAULT };
	if (!o)
		o = &defaults;
	result_restart(out, e, o, t);
	clock_t c0 = clock();
	double wall0 = paths_clock();
	int errors = d->errors;
	long compiled0 = 0, interp0 = 0, compiled1, interp1;
	if (m)
		cat_model_check_counts(m, &compiled0, &interp0);
	bool answered;
	bool ok = try_reference_first(e, ref, t, m, o, out, d, &answered);
	if (ok && !answered)
		ok = e->run(t, m, o, out, d);
	WEFT_ASSERT(!out->fallback || (out->fallback > 0 && out->fallback < e->n_fallbacks));
	/* an error (an access through no location) is the test's, and the
	 * reference engine would only say it again */
	if (ok && !answered && out->fallback && d->errors == errors) {
		/* the engine cannot vouch for its answer (it said why): the
		 * reference engine's, within what is left of the time limit,
		 * with the first engine's blocked runs kept for -stats */
		engine_opts rest = *o;
		if (rest.timeout > 0) {
			rest.timeout -= paths_clock() - wall0;
			if (rest.timeout < 0.001)
				rest.timeout = 0.001;
		}
		int why = out->fallback;
		const char *order = out->order;
		long blocked = out->stats.blocked;
		result_restart(out, ref, o, t);
		ok = ref->run(t, m, &rest, out, d);
		WEFT_ASSERT(!out->fallback);   /* the reference answers every test */
		out->fallback = why;
		out->order = order;
		out->stats.blocked = blocked;
	}
	if (m) {
		cat_model_check_counts(m, &compiled1, &interp1);
		out->stats.interpreted = interp1 - interp0;
	}
	WEFT_ASSERT(!ok || !(out->engine->caps & ENGINE_COUNTS) || result_counts_agree(out));
	out->time = (double)(clock() - c0) / CLOCKS_PER_SEC;
	if (ok && out->addr_dropped.file && !out->n_states && !out->pos && !out->neg && !out->timed_out)
		diag_warning(d, out->addr_dropped,
		             "test %s has no execution: candidates access memory here through an address, "
		             "read from memory, that is not a location, and are dropped, as herd7 drops "
		             "them; its empty result proves nothing",
		             t->name ? t->name : "?");
	if (!ok) {
		test_result_free(out);
		return false;
	}
	return true;
}
