/* rsmc_engine.c — the rsmc engine's descriptor: what it can do, and its
 * reasons for leaving a test to the enumerator, in words. */
#include "rsmc.h"
#include "../../arch/arch.h"

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
	case FALLBACK_SMALL_CATDEP:
		return "the model computes herd's dependencies (catdep) and the test is small, where the enumerator "
		       "is faster (it judged at most " ENGINE_REFERENCE_BUDGET_TEXT " candidates)";
	case FALLBACK_N: break;
	}
	return "rsmc answered itself";
}

/* Under a catdep model (herd's aarch64.cat) rsmc tracks herd's
 * dependencies on its threads at a cost: on the corpus's 2,238 AArch64
 * tests it took 1.38 s of engine time on the 1,562 it ran itself, the
 * enumerator 0.46 s, faster on all but 50 of them (by 0.003 s in all);
 * but rsmc explores far fewer executions once a test grows (SB+4W: 162
 * commits, 4 ms; the enumerator 14,400 candidates, 40 ms; SB+6W: rsmc
 * 0.02 s, the enumerator over a minute).  So the enumerator tries first,
 * within its budget. */
static int rsmc_reference_first(const litmus_test *t, const cat_model *m)
{
	bool catdep = m && cat_model_computes_deps(m) && t->arch && t->arch->herd_deps;
	/* vmsa, ifetch and mixed tests go to the enumerator whole anyway */
	return catdep && !t->vmsa && !t->ifetch && !t->mixed_granule ? FALLBACK_SMALL_CATDEP : 0;
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
	.reference_first = rsmc_reference_first,
};
