/* rvf_engine.c — the rvf engine's descriptor and run: it refuses what
 * pop refuses, by name and place, before exploring (rvf.h). */
#include "rvf.h"

static bool rvf_run(const litmus_test *t, cat_model *m, const engine_opts *o, test_result *r, diag *d)
{
	if (pop_refuses(t, m, "rvf", d))
		return false;
	pop_run_ctx rc;
	pop_run_ctx_init(&rc, t, o, d);
	bool ok = rvf_explore(&rc, o, r);
	pop_run_ctx_finish(&rc, r);
	return ok;
}

const engine_desc rvf_engine = {
	.name = "rvf",
	.title = "rvf",
	/* it explores classes of interleavings, not executions: it judges no
	 * candidate and counts its own work */
	.caps = 0,
	.run = rvf_run,
	.no_skipchecks = "rvf runs sequential consistency itself, without the model's checks",
	.own_stats = { [RVF_CLASSES] = "classes", [RVF_VERIFY_CALLS] = "verifysc-calls",
		       [RVF_VERIFY_FAILED] = "verifysc-failed", [RVF_VERIFY_SKIPPED] = "verifysc-skipped",
		       [RVF_VERIFY_US] = "verifysc-us", [RVF_VERIFY_SHARE] = "verifysc-share%" },
	.own_stats_yaml = { [RVF_CLASSES] = "rvf_classes", [RVF_VERIFY_CALLS] = "rvf_verifysc_calls",
			    [RVF_VERIFY_FAILED] = "rvf_verifysc_failed",
			    [RVF_VERIFY_SKIPPED] = "rvf_verifysc_skipped", [RVF_VERIFY_US] = "rvf_verifysc_us",
			    [RVF_VERIFY_SHARE] = "rvf_verifysc_share_pct" },
};
