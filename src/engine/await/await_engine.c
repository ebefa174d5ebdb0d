/* await_engine.c — the await engine's descriptor and run: it refuses what
 * pop's steps cannot run (pop_refuses, by name and place), then explores. */
#include "await.h"

static bool await_run(const litmus_test *t, cat_model *m, const engine_opts *o, test_result *r, diag *d)
{
	if (pop_refuses(t, m, "await", d))
		return false;
	pop_run_ctx rc;
	pop_run_ctx_init(&rc, t, o, d);
	aw_loops *loops;
	aw_loops_init(&loops, t);
	bool ok = aw_explore(&rc, loops, o, r);
	aw_loops_free(loops, t);
	pop_run_ctx_finish(&rc, r);
	return ok;
}

const engine_desc await_engine = {
	.name = "await",
	.title = "the await engine",
	/* every state it explores is SC: it judges no candidate and counts
	 * its own work */
	.caps = 0,
	.run = await_run,
	.no_skipchecks = "the await engine runs sequential consistency itself, without the model's checks",
	.own_stats = { [AW_EXECUTIONS] = "complete", [AW_BLOCKED] = "blocked", [AW_LIVENESS] = "liveness",
		       [AW_STATES] = "states-seen", [AW_DROPPED] = "dropped-iterations",
		       [AW_PRUNED] = "pruned" },
	.own_stats_yaml = { [AW_EXECUTIONS] = "await_complete", [AW_BLOCKED] = "await_blocked",
			    [AW_LIVENESS] = "await_liveness", [AW_STATES] = "await_states_seen",
			    [AW_DROPPED] = "await_dropped_iterations", [AW_PRUNED] = "await_pruned" },
};
