/* handovers.c — the tests an engine left to the reference engine: per
 * test, or one summary for a run. */
#include "handovers.h"

/* What the messages call the engine that answers instead. */
static const char *reference_title(void)
{
	return engine_with(ENGINE_REFERENCE)->title;
}

void handover_say(const litmus_test *t, const char *model, const engine_desc *e, int why, diag *d)
{
	srcloc at = { t->file, 0, 0 };
	const char *test = t->name ? t->name : "?";
	strbuf msg = { 0 };
	sb_printf(&msg, "test %s, model '%s': %s; %s answers instead", test, model,
		  engine_fallback_reason(e, why), reference_title());
	if (why == e->fallback_warning)
		diag_warning(d, at, "%s", msg.s);
	else
		diag_note(d, at, "%s", msg.s);
	sb_free(&msg);
}

unsigned handover_bit(int why)
{
	return why > 0 && why < ENGINE_FALLBACK_MAX ? 1u << why : 0;
}

void handover_add(handover_tally *h, unsigned reasons, const char *test_name)
{
	for (int k = 1; k < ENGINE_FALLBACK_MAX; k++) {
		if (!(reasons & handover_bit(k)))
			continue;
		if (h->tests[k] < HANDOVER_NAMES)
			h->first[k][h->tests[k]] = test_name;
		h->tests[k]++;
	}
}

void handover_summary(const handover_tally *h, const char *model, diag *d)
{
	srcloc run = { NULL, 0, 0 };
	bool any = false;
	for (int k = 1; k < ENGINE_FALLBACK_MAX; k++) {
		int n = h->tests[k];
		if (n == 0)
			continue;
		any = true;
		strbuf names = { 0 };
		for (int i = 0; i < n && i < HANDOVER_NAMES; i++)
			sb_printf(&names, "%s%s", i > 0 ? ", " : "", h->first[k][i]);
		if (n > HANDOVER_NAMES)
			sb_printf(&names, " and %d more", n - HANDOVER_NAMES);
		strbuf msg = { 0 };
		sb_printf(&msg, "%s left %d test%s", h->engine->name, n, n == 1 ? "" : "s");
		if (model)
			sb_printf(&msg, " under model '%s'", model);
		sb_printf(&msg, " to %s (%s): %s", reference_title(), names.s,
			  engine_fallback_reason(h->engine, k));
		if (k == h->engine->fallback_warning)
			diag_warning(d, run, "%s", msg.s);
		else
			diag_note(d, run, "%s", msg.s);
		sb_free(&msg);
		sb_free(&names);
	}
	if (any)
		diag_note(d, run, "-v names each test %s left to %s, with its model and why", h->engine->name,
			  reference_title());
}
