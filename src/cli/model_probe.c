/* model_probe.c — a model evaluated once on a small test of each
 * architecture, so that errors only evaluation can see (a type error such
 * as `po & W`) are found by -check and before a run, and reported once.
 *
 * The probes are the architectures' own (arch.h's probe): store buffering
 * with a fence and a read-modify-write between the two, events of every
 * kind a model names (reads, writes, fences, an rmw pair) in two threads.
 * A model's error that no such execution reaches still shows at run time,
 * once per test. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models.h"
#include "../arch/arch.h"
#include "../engine/engine.h"
#include "../litmus/litmus.h"

static bool probe_on(cat_model *m, const arch *a, diag *d)
{
	if (!a->probe)
		return true;
	diag quiet = { .drop = true };
	char *where = xasprintf("<weft's %s probe>", a->name);
	litmus_test *t = litmus_parse_string(where, a->probe, &quiet);
	free(where);
	if (!t)   /* weft's own probe: a bug here, not the model's */
		return true;
	engine_opts eo = { 0 };
	eo.unroll = ENGINE_UNROLL_DEFAULT;
	test_result r;
	bool ok = engine_run(NULL, t, m, &eo, &r, d);
	if (ok)
		test_result_free(&r);
	litmus_test_free(t);
	return ok;
}

bool model_probe(cat_model *m, const char *arch_name, diag *d)
{
	const arch *a = arch_name ? arch_find(arch_name) : NULL;
	return a ? probe_on(m, a, d) : true;
}

bool model_probe_any(cat_model *m, diag *d)
{
	/* A model may be written for one architecture (its fence names), so
	 * one that evaluates on some probe is well typed; when none does, the
	 * first probe's errors say why. */
	strbuf first = { 0 };
	for (const arch *const *a = arch_all(); *a; a++) {
		if (!(*a)->probe)
			continue;
		strbuf text = { 0 };
		diag captured = { .collect = &text };
		bool ok = probe_on(m, *a, &captured);
		if (ok) {
			sb_free(&text);
			sb_free(&first);
			return true;
		}
		if (!first.s)
			first = text;
		else
			sb_free(&text);
	}
	diag_put_collected(d, first.s);
	d->errors++;
	sb_free(&first);
	return false;
}
