/* pop_engine.c — the pop engine's descriptor and run: what it refuses, by
 * name and place, before exploring (pop.h says why each). */
#include <string.h>

#include "pop.h"
#include "../paths.h"
#include "../result.h"
#include "../rsmc/rsmc.h"   /* cb_proven_kind: the SC models, by content */
#include "../../arch/arch.h"

/* Sequential consistency, recognised by the model's content (the
 * fingerprints of weft's and herd's sc.cat that rsmc proves its SC order
 * on), never by its name. */
static bool model_is_sc(cat_model *m)
{
	enum cb_kind k;
	return m && cb_proven_kind(cat_model_fingerprint(m), &k) && k == CB_SC;
}

static bool is_access_op(const op *o)
{
	return o->kind == OP_LOAD || o->kind == OP_STORE || o->kind == OP_STCOND;
}

/* An instruction pop cannot run as steps of SC interleavings, or NULL. */
static const char *unsupported_instr(const litmus_test *t, const thread *th, const instr *in)
{
	int accesses = 0, fused = 0;
	for (int k = in->first_op; k < in->first_op + in->n_ops && k < th->n_ops; k++) {
		const op *o = &th->ops[k];
		if (o->kind == OP_TLBI)
			return "a TLB invalidation (herd's vmsa variant)";
		if (o->kind == OP_BRANCH && o->cond == BR_INDIRECT)
			return "a branch to where a register says (BR, BLR, RET)";
		if (is_access_op(o)) {
			accesses++;
			fused += (o->flags & ACC_FUSED) != 0;
		}
	}
	bool po_inside = t->arch && t->arch->po_within_instruction;
	if (accesses > 1 && !po_inside && !(accesses == 2 && fused == 2))
		return "an instruction with two accesses: herd's po does not order the events of one instruction "
		       "here, so sc.cat allows orders no interleaving of steps has";
	return NULL;
}

bool pop_refuses(const litmus_test *t, cat_model *m, const char *who, diag *d)
{
	srcloc at = { t->file, 0, 0 };
	if (!model_is_sc(m)) {
		diag_error(d, at, "not supported by %s: the model is not sequential consistency (%s runs weft's "
		                  "and herd's sc.cat, recognised by their content)", who, who);
		return true;
	}
	if (t->vmsa) {
		diag_error(d, t->vmsa_at, "not supported by %s: herd's vmsa variant (page tables)", who);
		return true;
	}
	if (t->ifetch) {
		diag_error(d, litmus_first_fetch(t), "not supported by %s: instructions fetched from memory "
		                                     "(herd's ifetch variant)", who);
		return true;
	}
	for (int i = 0; i < t->n_threads; i++) {
		const thread *th = &t->threads[i];
		for (int k = 0; k < th->n_instrs; k++) {
			const char *why = unsupported_instr(t, th, &th->instrs[k]);
			if (why) {
				diag_error(d, th->instrs[k].loc, "not supported by %s: %s", who, why);
				return true;
			}
		}
	}
	return false;
}

void pop_run_ctx_init(pop_run_ctx *rc, const litmus_test *t, const engine_opts *o, diag *d)
{
	memset(rc, 0, sizeof *rc);
	rc->t = t;
	rc->unroll = o->unroll;
	rc->d = d;
	if (o->timeout > 0)
		rc->deadline = paths_clock() + o->timeout;
}

void pop_run_ctx_finish(pop_run_ctx *rc, test_result *r)
{
	r->addr_dropped = rc->warned.addr_dropped;
	interp_warned_free(&rc->warned);
	result_sort_flags(r);
}

static bool pop_run(const litmus_test *t, cat_model *m, const engine_opts *o, test_result *r, diag *d)
{
	if (pop_refuses(t, m, "pop", d))
		return false;
	pop_run_ctx rc;
	pop_run_ctx_init(&rc, t, o, d);
	bool ok = pop_explore(&rc, o, r);
	pop_run_ctx_finish(&rc, r);
	return ok;
}

const engine_desc pop_engine = {
	.name = "pop",
	.title = "pop",
	/* every interleaving it explores is allowed (SC): it judges no
	 * candidate and counts its own work */
	.caps = 0,
	.run = pop_run,
	.no_skipchecks = "pop runs sequential consistency itself, without the model's checks",
	.own_stats = { [POP_EXECUTIONS] = "executions", [POP_REDUNDANT] = "redundant",
		       [POP_BLOCKED] = "blocked", [POP_INFEASIBLE] = "infeasible", [POP_DEPTH] = "depth",
		       [POP_PEAK_BYTES] = "peak-bytes" },
	.own_stats_yaml = { [POP_EXECUTIONS] = "pop_executions", [POP_REDUNDANT] = "pop_redundant",
			    [POP_BLOCKED] = "pop_blocked", [POP_INFEASIBLE] = "pop_infeasible",
			    [POP_DEPTH] = "pop_depth", [POP_PEAK_BYTES] = "pop_peak_bytes" },
};
