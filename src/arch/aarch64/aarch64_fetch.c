/* aarch64_fetch.c — herd's ifetch variant (self-modifying code) for
 * AArch64, as herd/AArch64Sem.ml's check_self runs an instruction:
 *
 * An instruction is fetched from memory when one of its labels has the
 * name of an "exported" label, one the init block uses as a value
 * (`0:X1=1:L0`).  Its code location is "P<thread>:<label>", whose initial
 * value is the instruction itself.  It becomes
 *
 *   a fetch: a read of the code location (herd's Imp & Instr & R, ops
 *            flagged ACC_IFETCH), into a scratch register;
 *   for each instruction that may be there (the init block's instruction
 *   values, then the instruction itself), a silent test of the value read;
 *   per candidate: a commit event (herd's Commit Pred: in B, not BCC;
 *            ACC_COMMIT), then that instruction's ops, translated at this
 *            instruction's place (`B .+8` counts from here), then a jump
 *            to the next instruction.
 *
 * herd faults (UndefinedInstruction) when the value read is none of them;
 * weft does not model faults: the engine refuses a test where a code
 * location may hold such a value (paths_check_fetches).  herd filters the
 * init block's instructions with AArch64.can_overwrite, whose definition
 * was not found; weft keeps them all, which only matters for a value no
 * execution stores.  DC CVAU,Xn and IC IVAU,Xn are one event each at the
 * location Xn holds (sets DC.CVAU, IC.IVAU); IC IALLU, IC IALLUIS and the
 * other DC operations are refused.
 */
#include <stdlib.h>
#include <string.h>

#include "aarch64.h"

/* The label of the instruction about to be translated that the init
 * block exports (by name, whatever its thread: herd compares names only),
 * or NULL; *several: the instruction has more than one label. */
static const char *exported_label(const arch_ctx *ctx, bool *several)
{
	const thread *th = ctx->th;
	const litmus_test *t = ctx->test;
	const char *found = NULL;
	int n = 0;
	for (int i = 0; i < th->n_labels; i++) {
		if (th->labels[i].instr != ctx->instr)
			continue;
		n++;
		for (int l = 0; l < t->n_locs; l++)
			if (t->locs[l].code_label && !strcmp(t->locs[l].code_label, th->labels[i].name))
				found = th->labels[i].name;
	}
	*several = n > 1;
	return found;
}

int a64_code_location(arch_ctx *ctx, const char *label)
{
	char *name = xasprintf("P%d:%s", ctx->th->id, label);
	int loc = arch_loc(ctx, name);
	free(name);
	location *l = &ctx->test->locs[loc];
	if (l->code_thread < 0) {
		l->code_thread = ctx->th->id;
		l->code_label = xstrdup(label);
	}
	return loc;
}

bool a64_fetch_translate(arch_ctx *ctx, const char *text, bool (*plain)(arch_ctx *, const char *), bool *mine)
{
	bool several;
	const char *label = ctx->test->ifetch ? exported_label(ctx, &several) : NULL;
	*mine = label != NULL;
	if (!label)
		return false;
	if (several) {
		diag_error(ctx->d, ctx->loc, "instruction '%s' has several labels, one of them used as a value: "
		           "weft does not know which one herd fetches it at", text);
		return false;
	}
	litmus_test *t = ctx->test;
	int loc = a64_code_location(ctx, label);
	value self = prog_instr_value(t, text);
	t->locs[loc].init = self;

	/* the candidates: the init block's instructions, then this one */
	int n_cand = 0;
	int64_t *cand = xmalloc((size_t)(t->n_init_instr_values + 1) * sizeof *cand);
	for (int i = 0; i < t->n_init_instr_values; i++)
		if (i != self.num)
			cand[n_cand++] = i;
	cand[n_cand++] = self.num;

	int fetched = a64_scratch(ctx, 0), same = a64_scratch(ctx, 1);
	arch_emit_load(ctx, fetched, arch_address(arch_opnd_imm(value_addr(loc)), arch_opnd_none(), 0), 4,
	               ACC_IFETCH);
	int *test_op = xmalloc((size_t)n_cand * sizeof *test_op);
	for (int k = 0; k < n_cand; k++) {
		arch_emit_alu(ctx, ALU_EQ, same, arch_opnd_reg(fetched), arch_opnd_imm(value_instr(cand[k])));
		a64_silent_branch(ctx, BR_NE, arch_opnd_reg(same));
		test_op[k] = ctx->th->n_ops - 1;
	}
	/* none of them: herd's fault, which the engine refuses to reach */
	arch_add_exit(ctx);
	char *next = xasprintf("#instr:%d", ctx->instr + 1);
	bool ok = true;
	for (int k = 0; ok && k < n_cand; k++) {
		ctx->th->ops[test_op[k]].target = ctx->th->n_ops;
		op *commit = arch_add_op(ctx, OP_BRANCH);
		commit->cond = BR_ALWAYS;
		commit->a = arch_opnd_none();
		commit->flags = ACC_COMMIT;
		commit->label = NULL;
		commit->target = ctx->th->n_ops;
		ok = plain(ctx, t->instr_values[cand[k]]);
		arch_add_branch(ctx, BR_ALWAYS, arch_opnd_none(), next);
	}
	free(next);
	free(test_op);
	free(cand);
	return ok;
}

/* DC <op>,Xn and IC <op>,Xn: a located event (prog.h's ACC_LOCATED) named
 * after the operation, at the address Xn holds. */
bool a64_cache_translate(arch_cursor *c, const char *m, bool *mine)
{
	bool dc = arch_word_eq(m, "DC"), ic = arch_word_eq(m, "IC");
	*mine = dc || ic;
	if (!*mine)
		return false;
	char w[ARCH_WORD_MAX];
	const char *at;
	if (arch_cursor_word(c, w, &at) == 0)
		return arch_malformed(c, at, "expected a cache operation (CVAU, IVAU)");
	const char *set = dc && arch_word_eq(w, "CVAU") ? "DC.CVAU" : ic && arch_word_eq(w, "IVAU") ? "IC.IVAU" : NULL;
	if (!set)
		return a64_refuse(c, "weft runs DC CVAU and IC IVAU only (herd's other cache maintenance "
		                     "operations act on all or on set/way, which weft does not model)");
	a64_reg rn;
	if (!a64_comma(c) || !a64_read_reg(c, &rn) || !arch_expect_end(c))
		return false;
	op *o = arch_add_op(c->ctx, OP_FENCE);
	o->fence = set;
	o->flags = ACC_LOCATED;
	o->addr = arch_address(a64_src(rn), arch_opnd_none(), 0);
	return true;
}
