/* bmc_engine.c — the bmc engine's descriptor, in every build (without
 * CaDiCaL, bmc_absent.c's bmc_run says why it cannot run). */
#include "bmc.h"


const engine_desc bmc_engine = {
	.name = "bmc",
	.title = "bmc",
	/* one SAT call per final state: no candidate is judged or counted
	 * one by one, and -explain gets each state's witness */
	.caps = ENGINE_WITNESSES | ENGINE_SPEEDCHECK,
	.run = bmc_run,
	.no_skipchecks = "bmc encodes the model's checks as they are",
	.own_stats = { [BMC_SAT_CALLS] = "sat-calls", [BMC_SAT_VARS] = "vars", [BMC_SAT_CLAUSES] = "clauses" },
	.own_stats_yaml = { [BMC_SAT_CALLS] = "sat_calls", [BMC_SAT_VARS] = "sat_vars",
			    [BMC_SAT_CLAUSES] = "sat_clauses" },
};
