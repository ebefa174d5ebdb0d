/* arch.h — an architecture, whole: everything weft knows of one is its
 * `struct arch` table, as herd's per-architecture modules are herd's.
 *
 * The table lives in the architecture's folder (ppc/arch_ppc.c,
 * x86/arch_x86.c, ...; C's in src/c/c_arch.c) and is listed in
 * arch_registry.c.  The litmus parser finds it by the header's first word
 * and hands it each instruction cell, which it turns into ops of the
 * thread (see prog.h); the report asks it for herd's spelling of an
 * instruction (the hash) and herd's order of registers, the command line
 * for its default model, its model probe and its fence file, and the
 * parser, the engines and the models read its capability fields (what it
 * has: vmsa, ifetch, lock events, ...) rather than its name.  How to add
 * one: docs/adding-an-architecture.md.
 */
#ifndef WEFT_ARCH_H
#define WEFT_ARCH_H

#include "../prog/prog.h"

/* The new name of a label in herd's printing of a program (herd renumbers
 * them L00, L01, ... before hashing): static or owned by `ctx`; NULL when
 * unknown (the label is then kept). */
typedef const char *(*label_renamer)(void *ctx, const char *label);

/* What an instruction parser may do to the thread it is adding to. */
typedef struct arch_ctx {
	litmus_test *test;  /* to find/add memory locations by name        */
	thread *th;         /* ops are appended here; registers added here  */
	int instr;          /* index of the instruction being translated    */
	srcloc loc;         /* where the instruction's text starts          */
	diag *d;
} arch_ctx;

/* How a test's program part is written. */
enum arch_program {
	ARCH_PROGRAM_TABLE, /* herd's instruction table: each cell through translate */
	ARCH_PROGRAM_C,     /* herd's C: thread functions P0(...) { ... } read by
	                     * src/c; its init block takes the kernel's
	                     * ATOMIC_INIT(n), and `(*` inside braces is C
	                     * (READ_ONCE(*x)), not a comment */
};

typedef struct arch {
	const char *name;          /* header word: "PPC", "X86", "X86_64" */
	const char *default_model; /* model name used when -model is absent */
	/* Said once a run when a test of this architecture runs under
	 * default_model, because that default is not herd7's (NULL: it is). */
	const char *default_model_note;
	/* herd7's own default (C: c11_partialSC), a model of herd's library
	 * that weft does not ship: used in place of default_model when
	 * NAME.cat is on the cat search path, with herd_default_note said
	 * once a run instead of default_model_note; NULL: default_model is
	 * herd's or stands for it. */
	const char *herd_default_model;
	const char *herd_default_note;
	/* Fence set names this architecture defines (NULL-terminated); the
	 * models see one event set per name, empty when no such fence occurs. */
	const char *const *fences;
	/* Annotation set names (NULL-terminated, at most 32; NULL: none): bit
	 * i of an op's `annot` puts the memory events of that op in the set
	 * named annots[i] (RISC-V's Acq, Rel, ...), empty when no op has it. */
	const char *const *annots;
	/* Canonical spelling of a register name, or NULL if `name` is not a
	 * register of this architecture ("R1" -> "r1" on PPC, "eax" -> "EAX"
	 * on X86, "%rax" -> "rax" on X86_64).  Returns static storage. */
	const char *(*canonical_reg)(const char *name);
	/* Translate one instruction (`text`, trimmed, without label) into ops
	 * appended to ctx->th (each with .instr = ctx->instr).  Branch targets
	 * are label names at this point: use arch_add_branch() so the parser
	 * can resolve them after the whole thread is read.  Returns false after
	 * reporting an error through ctx->d. */
	bool (*translate)(arch_ctx *ctx, const char *text);
	/* The enumerator builds herd's catdep dependency relations for this
	 * architecture's tests (exec.h, enum herd_dep), which its herd model
	 * computes from register events (AArch64: aarch64deps.cat). */
	bool herd_deps;
	/* herd7's spelling of one instruction (`text` as written, without
	 * label), as herd's dump_instruction prints it in the program it
	 * hashes (test_hash.c); labels through `rename`.  NULL: as written
	 * (arch_herd_print). */
	void (*herd_print)(const char *text, label_renamer rename, void *ctx, strbuf *out);
	/* Rank of a register (its canonical name) in herd's order of a
	 * state's registers within a thread (PPC: r0 < r1 < ... < r31), or -1
	 * when it has none: ranked ones come first, the others compare as
	 * strings.  NULL: none is ranked. */
	int (*reg_rank)(const char *name);
	/* A small test of this architecture (store buffering with a fence
	 * and a read-modify-write: events of every kind a model names), on
	 * which a model is evaluated once before a run and by -check, so that
	 * errors only evaluation can see are reported once (cli/
	 * model_probe.c).  NULL: models are not probed on this architecture. */
	const char *probe;
	/* herd's fence file of this architecture ("ppcfences.cat"): a model
	 * that includes it is for this architecture (cli/model_arch.c).  NULL:
	 * none. */
	const char *fence_file;

	/* ---- what the architecture has: read instead of its name ---- */
	/* herd follows a conditional backward branch on a value computed from
	 * constants without counting it against -unroll (mem.ml's check_back;
	 * AArch64's flags and CBZ give such values, PPC's and RISC-V's
	 * compares do not): the engines do too (thread_interp.c) */
	bool known_loops;
	enum arch_program program;
	/* herd's virtual-memory variant (Variant=vmsa, -variant vmsa/kvm:
	 * parse_vmsa.c) and instruction fetches (Variant=ifetch:
	 * parse_variants.c); other architectures refuse them by name. */
	bool vmsa, ifetch;
	/* Read-modify-writes are primitives whose read and write are
	 * po-ordered instructions, which may fail or choose between
	 * alternatives (C's cmpxchg, spin_trylock): rsmc leaves such tests to
	 * the enumerator.  (AArch64's CAS is one instruction: rsmc models it.) */
	bool rmw_primitives;
	/* Lock and srcu events, fences with a location (C's spin_lock, ...):
	 * under an order that is not a proven one rsmc leaves such tests to
	 * the enumerator. */
	bool lock_events;
	/* The final writes are those of the locations the test observes (its
	 * condition and `locations`), as herd's C has them; false: of every
	 * location. */
	bool final_writes_observed;
	/* po also orders the events of one instruction that its own data
	 * and addresses order (herd's C: CMem's wide_po, its po there being
	 * po_iico); false: events of one instruction are not po-related. */
	bool po_within_instruction;
} arch;

const arch *arch_find(const char *name);
/* The name of annotation bit i of t's ops (the test's own list, else its
 * architecture's), or NULL past the last one. */
const char *litmus_annot_name(const litmus_test *t, int i);
/* NULL-terminated list of all registered architectures. */
const arch *const *arch_all(void);
/* Append herd's spelling of one instruction of `a` (see herd_print). */
void arch_herd_print(const arch *a, const char *text, label_renamer rename, void *ctx, strbuf *out);
/* a->reg_rank(name), -1 when `a` ranks no register. */
int arch_reg_rank(const arch *a, const char *name);

/* Helpers for the per-architecture files. */
op *arch_add_op(arch_ctx *ctx, enum op_kind kind);
/* Register index in the thread for `name` (canonical), added if new. */
int arch_reg(arch_ctx *ctx, const char *canonical_name);
/* The same for a condition register (PPC's crN, x86's flags): one made here
 * starts cleared, value_flags_clear(arch_flags), as in herd. */
int arch_flags_reg(arch_ctx *ctx, const char *canonical_name, int arch_flags);
/* Location index for a memory location name, added to the test if new. */
int arch_loc(arch_ctx *ctx, const char *name);
/* A branch op to a label that the parser resolves at the end of the thread. */
op *arch_add_branch(arch_ctx *ctx, enum branch_cond cond, operand tested, const char *label);
/* A jump to the end of the thread (PPC's blr as herd runs it): no label;
 * the parser sets its target to the thread's op count. */
op *arch_add_exit(arch_ctx *ctx);

#endif
