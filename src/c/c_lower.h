/* c_lower.h — private to the lowering of C threads into prog.h ops: the
 * state of one thread's lowering and the helpers that c_lower.c (the
 * statements, expressions, macros and the kernel's __primitives) and
 * c_c11.c (herd's C11 keywords) share.
 *
 * Ownership: a `lower` lives on c_lower_thread's stack; the ops, registers
 * and annotations it makes belong to the test (litmus_test).
 */
#ifndef WEFT_C_LOWER_H
#define WEFT_C_LOWER_H

#include "../arch/arch.h"
#include "c_int.h"

/* The bindings of one macro expansion: parameter i is the caller's
 * argument args[i], to be read in the caller's environment `outer`. */
typedef struct env {
	const c_macro *mac;
	c_ex *const *args;
	const struct env *outer;
	int depth;
	srcloc call;   /* where the outermost call is in the test */
} env;

typedef struct lower {
	arch_ctx ctx;
	const c_macros *m;
	int n_temps;
	const char *stmt_text;
	srcloc stmt_loc;
	bool in_stmt;   /* an instruction is open */
	size_t cap_hs;  /* of ctx.th->hstmts                               */
	int *hs_up;     /* per herd statement: the one it is a kid of, -1  */
	size_t cap_up;
	int hs_cur;     /* the herd statement being lowered, -1 before the body */
	int fused_instr; /* the instruction holding a single-event RMW (c_c11.c),
	                  * -1: none yet */
} lower;

/* A new scratch register "#N" of the thread. */
int cl_temp_reg(lower *l);
/* Report a located error; returns false. */
bool cl_fail(lower *l, srcloc at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Where to say an error is: the call in the test for macro bodies. */
srcloc cl_where(const env *en, srcloc at);
/* The annotation bit of tag `tag` in the test, added if new. */
bool cl_annot_bit(lower *l, const char *tag, srcloc at, unsigned *bit);
/* The tag of annotation bit `bit` (one bit set). */
const char *cl_annot_name(lower *l, unsigned bit);
/* Follow macro parameters to the tree they stand for. */
void cl_resolve(const c_ex **e, const env **en);
/* The value of expression e, computed by ops as needed. */
bool cl_value(lower *l, const c_ex *e, const env *en, operand *out);
operand cl_reg(int r);
operand cl_imm(value v);
/* *out := a k b, folded when both are constants. */
bool cl_alu(lower *l, enum alu_op k, operand a, operand b, srcloc at, operand *out);
void cl_mov(lower *l, int dst, operand v);
/* An access of kind k (OP_LOAD, OP_STORE) at the address a holds. */
op *cl_access(lower *l, enum op_kind k, operand addr, unsigned annot, unsigned flags);
/* A lock event (a fence with a location) of set `name`. */
void cl_located_event(lower *l, const char *name, operand addr, unsigned annot);
/* A branch testing `tested` (ignored for BR_ALWAYS); its target is set
 * later (cl_set_target). */
op *cl_branch(lower *l, enum branch_cond c, operand tested);
/* Branch op_index goes to the next op to be added. */
void cl_set_target(lower *l, int op_index);
/* Does call have n arguments?  Else a located error. */
bool cl_want_args(lower *l, const c_ex *call, const env *en, int n);

/* ---- herd's C11 keywords (c_c11.c) ------------------------------------ */

/* Is `name` one of the words herd's C lexer reads as a C11 keyword
 * (atomic_load_explicit, atomic_thread_fence, lock, WCAS, ...)?  Those
 * are herd's, whatever a macro file defines. */
bool c11_is_keyword(const char *name);
/* A memory_order_* word (herd's MEMORDER tokens)? */
bool c11_is_memory_order(const char *name);
/* Lower call e of such a keyword; as_stmt: e is a statement of its own
 * (herd's stores, fences and locks are statements only). */
bool c11_lower_call(lower *l, const c_ex *e, const env *en, operand *out, bool as_stmt);

#endif
