/* rsmc_engine.c — the rsmc engine's descriptor: what it can do, and its
 * reasons for leaving a test to the enumerator, in words. */
#include "rsmc.h"

static const char *rsmc_fallback_reason(int why)
{
	switch ((enum rsmc_fallback)why) {
	case FALLBACK_NONE: break;
	case FALLBACK_VMSA:
		return "the test runs under herd's vmsa variant (page tables), which rsmc does not model";
	case FALLBACK_IFETCH:
		return "the test fetches instructions from memory (herd's ifetch variant: a fetch and a commit "
		       "event per fetched instruction), which rsmc does not model";
	case FALLBACK_MIXED:
		return "the test runs under herd's -variant mixed (an access of several events, a location of "
		       "several granules), which rsmc does not model";
	case FALLBACK_ORDER_CYCLE:
		return "an execution may have a cycle in the commit-before order, which rsmc cannot build";
	case FALLBACK_CATDEP:
		return "the model computes herd's dependencies (catdep), which rsmc tracks on AArch64 tests only";
	case FALLBACK_VARIANTS:
		return "an instruction has variants herd explores each (CAS), which rsmc does not";
	case FALLBACK_INDIRECT:
		return "a branch goes where a register says (BR, BLR, RET), which rsmc does not follow";
	case FALLBACK_RESERVATION:
		return "a store-conditional needs a reservation, which rsmc does not model";
	case FALLBACK_C_RMW:
		return "a C read-modify-write of two po-ordered events or one that may fail (xchg, cmpxchg), "
		       "or a choice (spin_trylock, spin_is_locked), which rsmc does not model";
	case FALLBACK_C_LOCKS:
		return "rsmc's commit order is not proven to reach every execution of a C test with lock or "
		       "srcu events under this model";
	case FALLBACK_BLOCKED:
		return "a run blocked (no deadlock freedom), so some races were never seen";
	case FALLBACK_DECLARED_BLOCKED:
		return "the commit_before the model declares blocks a run (it is not deadlock free there), "
		       "so rsmc cannot vouch for its answer";
	case FALLBACK_ADDR_DROPPED:
		return "a run accesses memory through an address, read from memory, that is not a location "
		       "(herd drops such candidates), and rsmc cannot go on past it";
	case FALLBACK_N: break;
	}
	return "rsmc answered itself";
}

const engine_desc rsmc_engine = {
	.name = "rsmc",
	.title = "rsmc",
	/* it cuts a forbidden execution off before it is complete: none to
	 * show or explain; its order is proved for the model as it is */
	.caps = ENGINE_DEFAULT | ENGINE_COUNTS,
	.run = rsmc_run,
	.no_skipchecks = "rsmc's order is proved for the model with all its checks",
	.fallback_reason = rsmc_fallback_reason,
	.n_fallbacks = FALLBACK_N,
	.fallback_warning = FALLBACK_DECLARED_BLOCKED,
};
