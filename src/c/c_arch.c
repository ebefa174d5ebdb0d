/* c_arch.c — the architecture table of herd's C tests.  Their threads
 * are functions, not instruction cells: the litmus reader hands them to
 * c_read_threads (c.h); this table gives the register names of their
 * conditions and the sets of their lock events.  Their default model is
 * herd's, c11_partialSC.cat, when herd's library is on the cat search path
 * (weft does not ship it), else sc; the kernel's model comes with its
 * -conf linux-kernel.cfg. */
#include <string.h>

#include "../arch/arch.h"

/* herd's lock events (CAction.ml's LKR, LKW, UL, LF, RL, RU, and C11's
 * successful lock LS): weft makes them fences with a location (c_lower.c,
 * c_c11.c); a model sees one set each, empty when the test has none. */
static const char *const c_fences[] = { "LKR", "LKW", "UL", "LF", "RL", "RU", "LS", NULL };

/* Any C name is a register of the thread that declares it. */
static const char *c_canonical_reg(const char *name)
{
	if (!name || !((*name >= 'a' && *name <= 'z') || (*name >= 'A' && *name <= 'Z') || *name == '_'))
		return NULL;
	for (const char *p = name; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return NULL;
	return name;
}

static bool c_translate(arch_ctx *ctx, const char *text)
{
	(void)text;
	diag_error(ctx->d, ctx->loc, "C tests are functions P0(...) { ... }, not an instruction table");
	return false;
}

const arch arch_c = {
	.name = "C",
	.default_model = "sc",
	/* a kernel developer who forgets -conf must not take sc's Never for
	 * the kernel model's answer */
	.default_model_note = "C tests run under sc, weft's default for C: herd7's default, c11_partialSC.cat, is "
	                      "not on the cat search path (herd's library: -set-libdir DIR or $HERDLIB), and "
	                      "the Linux-kernel model comes with -conf linux-kernel.cfg (sc knows nothing of "
	                      "locks or RCU grace periods)",
	.herd_default_model = "c11_partialSC",
	.herd_default_note = "C tests run under herd7's default for C, c11_partialSC.cat (C11); the Linux-kernel "
	                     "model comes with -conf linux-kernel.cfg",
	.fences = c_fences,
	.annots = NULL,
	.canonical_reg = c_canonical_reg,
	.translate = c_translate,
	.program = ARCH_PROGRAM_C,
	.rmw_primitives = true,
	.lock_events = true,
	.final_writes_observed = true,
	.po_within_instruction = true,
};
