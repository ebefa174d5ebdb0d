/* prog.c — freeing, evaluating and printing the program representation.
 *
 * The `-dump` form (litmus_test_dump) is weft's stable, line-oriented view
 * of what the front-end understood.  One item per line, two-space indents
 * under a thread, everything in the order of the test (no sorting, no
 * addresses, no source positions, so equal programs dump equally):
 *
 *     arch PPC                             header word
 *     name MP+lwsync+addr                  test name (".litmus" removed)
 *     alias PPCMP                          only when the header has one
 *     doc "text"                           only when the test has one
 *     meta Cycle=Rfe PodRR Fre             key=value lines, in order
 *     hash 0123abcd...                     only when a Hash= line exists
 *     loc x = 0                            memory locations in order of first
 *     loc p = y type uint64_t              appearance; init value (a location
 *                                          name is its address), declared type
 *     thread P0
 *       reg r2 = x                         registers of the thread with their
 *       reg rax = 0 type uint64_t          initial values, in order of appearance
 *       label L0 -> op 3                   label and the op index it marks
 *       instr 0 "lwz r1,0(r2)"             each source instruction (its cell
 *         op 0 load r1 <- [r2] size 4      text), then its ops, numbered
 *       instr 1 "bne L0"                   within the thread
 *         op 1 branch ne cr0 -> L0 (op 3)
 *       loop await ops 0..4                each loop (loops.c): await, cas or
 *       loop unrolled ops 3..9 (why)       unrolled, its ops, "entered at op
 *                                          N" when not at its first
 *     observed 0:r1; x                     the `locations [...]` list
 *     filter 0:r1=1                        only when there is a filter
 *     condition exists 0:r1=1 /\ x=0       quantifier and condition
 *     old-final                            the test wrote "final ... with"
 *
 * Ops print as
 *     alu <mov|add|sub|mul|div|and|or|xor|cmp> DST <- A[, B]
 *     load DST <- ADDR [size N] [flags X,EX,fused]
 *     store ADDR <- A [size N] [flags ...]
 *     stcond ADDR <- A status DST [size N] [flags ...]
 *     fence NAME
 *     branch <always|eq|ne|lt|ge|gt|le|either> [REG] -> LABEL (op N) [silent] [drop] ...
 * where an operand is a register name, an integer, or a location name
 * (an address, `x+4` with an offset), and ADDR is `[base+index+offset]`
 * without its absent parts.  Conditions print with herd's operators
 * (`/\`, `\/`, `=>`, `~`, `=`, `<>`) and only the parentheses needed
 * (chains of one associative operator print flat, as herd prints them).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"

/* ---- freeing ------------------------------------------------------------ */

void cond_free(cond *c)
{
	/* Long chains lean left (a /\ b /\ c ...): walk the left spine in a
	 * loop and recurse only to the right, which is shallow. */
	while (c) {
		cond *l = c->l;
		cond_free(c->r);
		free(c->lhs_name);
		free(c->rhs_name);
		free(c->f_label);
		free(c->arr_vals);
		free(c);
		c = l;
	}
}

static void thread_free(thread *th)
{
	for (int i = 0; i < th->n_regs; i++) {
		free(th->regs[i].name);
		free(th->regs[i].written);
		free(th->regs[i].type);
	}
	free(th->regs);
	for (int i = 0; i < th->n_instrs; i++)
		free(th->instrs[i].text);
	free(th->instrs);
	for (int i = 0; i < th->n_ops; i++)
		free(th->ops[i].label);
	free(th->ops);
	for (int i = 0; i < th->n_labels; i++)
		free(th->labels[i].name);
	free(th->labels);
	free(th->hstmts);
}

const op *litmus_first_back_jump(const litmus_test *t, const thread **in)
{
	for (int i = 0; i < t->n_threads; i++) {
		const thread *th = &t->threads[i];
		for (int k = 0; k < th->n_ops; k++)
			if (th->ops[k].kind == OP_BRANCH && th->ops[k].target <= k) {
				*in = th;
				return &th->ops[k];
			}
	}
	return NULL;
}

void litmus_test_free(litmus_test *t)
{
	if (!t)
		return;
	free(t->file);
	free(t->arch_name);
	free(t->name);
	free(t->alias);
	free(t->doc);
	for (int i = 0; i < t->n_meta; i++) {
		free(t->meta[i].key);
		free(t->meta[i].value);
		free(t->meta[i].written);
	}
	free(t->meta);
	free(t->hash);
	for (int i = 0; i < t->n_init_entries; i++) {
		free(t->init_entries[i].reg);
		free(t->init_entries[i].type);
		free(t->init_entries[i].written);
	}
	free(t->init_entries);
	for (int i = 0; i < t->n_code_cells; i++)
		free(t->code_cells[i]);
	free(t->code_cells);
	for (int i = 0; i < t->n_locs; i++) {
		free(t->locs[i].name);
		free(t->locs[i].type);
		free(t->locs[i].code_label);
	}
	free(t->locs);
	free(t->el0);
	for (int i = 0; i < t->n_instr_values; i++)
		free(t->instr_values[i]);
	free(t->instr_values);
	for (int i = 0; i < t->n_model_variants; i++)
		free(t->model_variants[i]);
	free(t->model_variants);
	for (int i = 0; i < t->n_threads; i++)
		thread_free(&t->threads[i]);
	free(t->threads);
	for (int i = 0; i < t->n_annots; i++)
		free(t->annots[i]);
	free(t->annots);
	free(t->macros);
	free(t->observed);
	cond_free(t->filter);
	cond_free(t->cond);
	free(t);
}

/* ---- evaluation ----------------------------------------------------------- */

/* An atom's constant as compared: herd masks both the final value and the
 * constant to the location's type (Constraints.build_bdd's mask_type), so
 * with an int8_t register `0:r1=200` and `0:r1=-56` say the same.  t NULL:
 * raw values. */
static value atom_constant(const litmus_test *t, const cond *c)
{
	return t ? lval_final_value(t, c->lhs, c->rhs) : c->rhs;
}

static bool eval(const cond *c, lval_reader read, void *ctx, const litmus_test *t)
{
	/* Left chains are iterated like cond_free, for the same reason. */
	for (;;) {
		switch (c->kind) {
		case COND_TRUE:
			return true;
		case COND_FALSE:
			return false;
		case COND_EQ:
			return value_eq(read(ctx, c->lhs), c->rhs_is_lval ? read(ctx, c->rhs_lval) : atom_constant(t, c));
		case COND_NE:
			return !value_eq(read(ctx, c->lhs), c->rhs_is_lval ? read(ctx, c->rhs_lval) : atom_constant(t, c));
		case COND_NOT:
			return !eval(c->l, read, ctx, t);
		case COND_AND:
			if (!eval(c->r, read, ctx, t))
				return false;
			c = c->l;
			break;
		case COND_OR:
			if (eval(c->r, read, ctx, t))
				return true;
			c = c->l;
			break;
		case COND_IMPLIES:
			return !eval(c->l, read, ctx, t) || eval(c->r, read, ctx, t);
		case COND_FAULT:
			return vmsa_fault_matches(c, read(ctx, c->lhs));
		default:
			return false;
		}
	}
}

bool cond_any(const cond *c, bool (*pred)(const cond *node, void *ctx), void *ctx)
{
	const cond **stack = NULL;
	size_t cap = 0;
	int sp = 0;
	bool found = false;
	if (c) {
		GROW(stack, cap, 1);
		stack[sp++] = c;
	}
	while (sp > 0 && !found) {
		const cond *k = stack[--sp];
		found = pred(k, ctx);
		GROW(stack, cap, (size_t)sp + 2);
		if (k->l)
			stack[sp++] = k->l;
		if (k->r)
			stack[sp++] = k->r;
	}
	free(stack);
	return found;
}

bool cond_eval(const cond *c, lval_reader read, void *ctx)
{
	return eval(c, read, ctx, NULL);
}

typedef struct final_reader {
	const litmus_test *t;
	lval_reader read;
	void *ctx;
} final_reader;

static value read_final(void *vctx, lval lv)
{
	const final_reader *fr = vctx;
	return lval_final_value(fr->t, lv, fr->read(fr->ctx, lv));
}

bool cond_eval_final(const cond *c, const litmus_test *t, lval_reader read, void *ctx)
{
	final_reader fr = { t, read, ctx };
	return eval(c, read_final, &fr, t);
}

/* ---- evaluation on a partly known state -------------------------------------------- */

static enum tri tri_not(enum tri a)
{
	return a == TRI_UNKNOWN ? TRI_UNKNOWN : a == TRI_TRUE ? TRI_FALSE : TRI_TRUE;
}

/* lhs = rhs of atom c: a symbolic value equals no constant, and whether it
 * equals another lval's value is not known until both are. */
static enum tri atom_equal(const cond *c, const litmus_test *t, partial_reader read, void *ctx)
{
	partial_value l = read(ctx, c->lhs);
	if (!l.known)
		return TRI_UNKNOWN;
	value lv = lval_final_value(t, c->lhs, l.v);
	if (c->rhs_is_lval) {
		partial_value r = read(ctx, c->rhs_lval);
		if (!r.known || l.maybe_symbolic || r.maybe_symbolic)
			return TRI_UNKNOWN;
		return value_eq(lv, lval_final_value(t, c->rhs_lval, r.v)) ? TRI_TRUE : TRI_FALSE;
	}
	if (!value_eq(lv, atom_constant(t, c)))
		return TRI_FALSE;
	return l.maybe_symbolic ? TRI_UNKNOWN : TRI_TRUE;
}

enum tri cond_eval_partial(const cond *c, const litmus_test *t, partial_reader read, void *ctx)
{
	/* Left chains are iterated, as in eval. */
	enum tri acc;
	switch (c->kind) {
	case COND_AND:
	case COND_OR:
		break;
	case COND_TRUE:
		return TRI_TRUE;
	case COND_FALSE:
		return TRI_FALSE;
	case COND_EQ:
		return atom_equal(c, t, read, ctx);
	case COND_NE:
		return tri_not(atom_equal(c, t, read, ctx));
	case COND_NOT:
		return tri_not(cond_eval_partial(c->l, t, read, ctx));
	case COND_IMPLIES: {
		enum tri a = cond_eval_partial(c->l, t, read, ctx);
		if (a == TRI_FALSE)
			return TRI_TRUE;
		enum tri b = cond_eval_partial(c->r, t, read, ctx);
		if (b == TRI_TRUE)
			return TRI_TRUE;
		return a == TRI_TRUE && b == TRI_FALSE ? TRI_FALSE : TRI_UNKNOWN;
	}
	default:
		/* an atom this evaluator does not know: anything */
		return TRI_UNKNOWN;
	}
	/* a chain of one connective: its absorbing value decides at once */
	enum cond_kind k = c->kind;
	enum tri absorb = k == COND_AND ? TRI_FALSE : TRI_TRUE;
	acc = tri_not(absorb);
	for (; c->kind == k; c = c->l) {
		enum tri r = cond_eval_partial(c->r, t, read, ctx);
		if (r == absorb)
			return absorb;
		if (r == TRI_UNKNOWN)
			acc = TRI_UNKNOWN;
	}
	enum tri r = cond_eval_partial(c, t, read, ctx);
	if (r == absorb)
		return absorb;
	return r == TRI_UNKNOWN ? TRI_UNKNOWN : acc;
}

/* ---- lookups ---------------------------------------------------------------- */

int prog_find_loc(const litmus_test *t, const char *name)
{
	for (int i = 0; i < t->n_locs; i++)
		if (!strcmp(t->locs[i].name, name))
			return i;
	return -1;
}

enum cell_fit prog_array_cell(const litmus_test *t, int loc, int64_t offset, int size, int *cell)
{
	const location *base = &t->locs[loc];
	*cell = loc;
	if (base->n_cells == 0) {
		if (offset != 0)
			return CELL_NOT_ARRAY;
		/* a cell reached by its own location (never built by the
		 * threads, whose addresses start from cell 0): its size */
		if (base->array >= 0)
			base = &t->locs[base->array];
		return size > 0 && base->cell_bytes > 0 && size != base->cell_bytes ? CELL_MIXED : CELL_OK;
	}
	if (offset < 0 || offset / base->cell_bytes >= base->n_cells)
		return CELL_OUTSIDE;
	if (offset % base->cell_bytes != 0)
		return CELL_MISALIGNED;
	if (size > 0 && size != base->cell_bytes)
		return CELL_MIXED;
	int64_t want = offset / base->cell_bytes;
	if (want == 0)
		return CELL_OK;
	for (int i = 0; i < t->n_locs; i++)
		if (t->locs[i].array == loc && t->locs[i].cell == want) {
			*cell = i;
			return CELL_OK;
		}
	return CELL_OUTSIDE;
}

int prog_find_reg(const thread *th, const char *name)
{
	for (int i = 0; i < th->n_regs; i++)
		if (!strcmp(th->regs[i].name, name))
			return i;
	return -1;
}

/* ---- textual forms ------------------------------------------------------------ */

void value_print(const litmus_test *t, value v, strbuf *out)
{
	if (value_is_symbolic(v)) {
		sb_printf(out, "S%" PRId64, v.num);
		return;
	}
	if (value_is_pte(v) || value_is_page(v)) {
		vmsa_value_print(t, v, false, out);
		return;
	}
	if (value_is_instr(v)) {
		if (t && v.num >= 0 && v.num < t->n_instr_values)
			sb_puts(out, t->instr_values[v.num]);
		else
			sb_printf(out, "instr#%" PRId64, v.num);
		return;
	}
	if (v.loc < 0) {
		sb_printf(out, "%" PRId64, v.num);
		return;
	}
	if (t && v.loc < t->n_locs)
		sb_puts(out, t->locs[v.loc].name);
	else
		sb_printf(out, "loc#%d", (int)v.loc);
	if (v.num > 0)
		sb_printf(out, "+%" PRId64, v.num);
	else if (v.num < 0)
		sb_printf(out, "%" PRId64, v.num);
}

/* herd compares instructions, not their spelling: `nop` and `NOP`,
 * `B  L0` and `B L0` are one value. */
static char *canonical_instr(const char *text)
{
	strbuf b = { 0 };
	bool in_mnemonic = true, blank = false;
	for (const char *p = text; *p; p++) {
		char ch = *p;
		if (ch == ' ' || ch == '\t') {
			blank = b.len > 0;
			in_mnemonic = false;
			continue;
		}
		if (ch == ',') {
			sb_putc(&b, ',');
			blank = false;
			continue;
		}
		if (blank && b.len > 0 && b.s[b.len - 1] != ',')
			sb_putc(&b, ' ');
		blank = false;
		sb_putc(&b, in_mnemonic && ch >= 'a' && ch <= 'z' ? (char)(ch - 'a' + 'A') : ch);
	}
	return b.s ? sb_take(&b) : xstrdup("");
}

srcloc litmus_first_fetch(const litmus_test *t)
{
	for (int i = 0; i < t->n_threads; i++)
		for (int k = 0; k < t->threads[i].n_ops; k++)
			if (t->threads[i].ops[k].flags & ACC_IFETCH)
				return t->threads[i].instrs[t->threads[i].ops[k].instr].loc;
	return (srcloc){ t->file, 0, 0 };
}

value prog_instr_value(litmus_test *t, const char *text)
{
	char *c = canonical_instr(text);
	for (int i = 0; i < t->n_instr_values; i++)
		if (!strcmp(t->instr_values[i], c)) {
			free(c);
			return value_instr(i);
		}
	t->instr_values = xrealloc(t->instr_values, (size_t)(t->n_instr_values + 1) * sizeof *t->instr_values);
	t->instr_values[t->n_instr_values] = c;
	return value_instr(t->n_instr_values++);
}

void lval_print(const litmus_test *t, lval lv, strbuf *out)
{
	if (lval_is_fault(lv)) {
		sb_printf(out, "fault(P%d)", lv.thread);
	} else if (lv.thread >= 0) {
		if (t && lv.thread < t->n_threads && lv.reg >= 0 &&
		    lv.reg < t->threads[lv.thread].n_regs)
			sb_printf(out, "%d:%s", lv.thread, t->threads[lv.thread].regs[lv.reg].name);
		else
			sb_printf(out, "%d:reg#%d", lv.thread, lv.reg);
	} else if (t && lv.loc >= 0 && lv.loc < t->n_locs) {
		const location *l = &t->locs[lv.loc];
		if (l->array >= 0 && (lv.reg == LVAL_CELL || lv.reg == LVAL_WHOLE))
			sb_printf(out, "%s[%d]", t->locs[l->array].name, l->cell);
		else
			sb_puts(out, l->name);
	} else {
		sb_printf(out, "loc#%d", lv.loc);
	}
}

/* Binding strength of a condition's top operator, herd's order. */
static int cond_prec(const cond *c)
{
	switch (c->kind) {
	case COND_OR:
		return 1;
	case COND_AND:
		return 2;
	case COND_IMPLIES:
		return 0; /* see cond_print_binary */
	case COND_NOT:
		return 4;
	default:
		return 5;
	}
}

static void cond_print_prec(const litmus_test *t, const cond *c, int min, strbuf *out);

/* herd binds `=>` tighter than `/\` and `\/`, against most readers'
 * habits: an implication is always parenthesised inside another operator,
 * and so are conjunctions and disjunctions inside an implication, so the
 * printed text means the same under either reading. */
static void cond_print_binary(const litmus_test *t, const cond *c, strbuf *out)
{
	if (c->kind == COND_IMPLIES) {
		cond_print_prec(t, c->l, 4, out);
		sb_puts(out, " => ");
		if (c->r->kind == COND_IMPLIES)
			cond_print_binary(t, c->r, out);
		else
			cond_print_prec(t, c->r, 4, out);
		return;
	}
	/* /\ and \/ are associative: a nested chain prints flat, either side,
	 * as herd prints it. */
	int p = cond_prec(c);
	cond_print_prec(t, c->l, p, out);
	sb_puts(out, c->kind == COND_AND ? " /\\ " : " \\/ ");
	cond_print_prec(t, c->r, p, out);
}

static void cond_print_prec(const litmus_test *t, const cond *c, int min, strbuf *out)
{
	bool paren = cond_prec(c) < min && !(c->kind == COND_IMPLIES && min == 0);
	if (paren)
		sb_putc(out, '(');
	switch (c->kind) {
	case COND_TRUE:
		sb_puts(out, "true");
		break;
	case COND_FALSE:
		sb_puts(out, "false");
		break;
	case COND_EQ:
	case COND_NE:
		lval_print(t, c->lhs, out);
		sb_puts(out, c->kind == COND_EQ ? "=" : "<>");
		if (c->rhs_is_lval)
			lval_print(t, c->rhs_lval, out);
		else
			value_print(t, c->rhs, out);
		break;
	case COND_NOT:
		sb_putc(out, '~');
		cond_print_prec(t, c->l, 4, out);
		break;
	case COND_FAULT:
		vmsa_fault_atom_print(t, c, out);
		break;
	case COND_AND:
	case COND_OR:
	case COND_IMPLIES:
		cond_print_binary(t, c, out);
		break;
	}
	if (paren)
		sb_putc(out, ')');
}

/* ---- the dump ----------------------------------------------------------------- */

static void operand_print(const litmus_test *t, const thread *th, operand o, strbuf *out)
{
	switch (o.kind) {
	case OPND_NONE:
		sb_putc(out, '_');
		break;
	case OPND_REG:
		if (o.reg >= 0 && o.reg < th->n_regs)
			sb_puts(out, th->regs[o.reg].name);
		else
			sb_printf(out, "reg#%d", o.reg);
		break;
	case OPND_IMM:
		value_print(t, o.imm, out);
		break;
	}
}

static void reg_print(const thread *th, int r, strbuf *out)
{
	operand o = { OPND_REG, r, { -1, 0 } };
	operand_print(NULL, th, o, out);
}

static void address_print(const litmus_test *t, const thread *th, address a, strbuf *out)
{
	bool any = false;
	sb_putc(out, '[');
	if (a.base.kind != OPND_NONE) {
		operand_print(t, th, a.base, out);
		any = true;
	}
	if (a.index.kind != OPND_NONE) {
		if (any)
			sb_putc(out, '+');
		operand_print(t, th, a.index, out);
		any = true;
	}
	if (a.offset != 0 || !any)
		sb_printf(out, any && a.offset > 0 ? "+%" PRId64 : "%" PRId64, a.offset);
	sb_putc(out, ']');
}

/* The test's own annotation names of o (C's tags), as " {ONCE}". */
static void own_annots(const litmus_test *t, const op *o, strbuf *out)
{
	if (!t->n_annots || !o->annot)
		return;
	sb_puts(out, " {");
	const char *sep = "";
	for (int i = 0; i < t->n_annots && i < 32; i++)
		if (o->annot & (1u << i)) {
			sb_printf(out, "%s%s", sep, t->annots[i]);
			sep = ",";
		}
	sb_putc(out, '}');
}

static void access_attrs(const op *o, strbuf *out)
{
	if (o->size)
		sb_printf(out, " size %d", o->size);
	if (o->flags) {
		sb_puts(out, " flags ");
		const char *sep = "";
		if (o->flags & ACC_ATOMIC) {
			sb_printf(out, "%sX", sep);
			sep = ",";
		}
		if (o->flags & ACC_EXCL) {
			sb_printf(out, "%sEX", sep);
			sep = ",";
		}
		if (o->flags & ACC_IICO_ORDER) {
			sb_printf(out, "%siico_order", sep);
			sep = ",";
		}
		if (o->flags & ACC_FUSED) {
			sb_printf(out, "%sfused", sep);
			sep = ",";
		}
		if (o->flags & ACC_IFETCH)
			sb_printf(out, "%sifetch", sep);
	}
}

static const char *const alu_names[] = {
	[ALU_MOV] = "mov", [ALU_ADD] = "add", [ALU_SUB] = "sub", [ALU_MUL] = "mul",
	[ALU_DIV] = "div", [ALU_AND] = "and", [ALU_OR] = "or",   [ALU_XOR] = "xor",
	[ALU_CMP] = "cmp", [ALU_SHL] = "shl", [ALU_SHRU] = "shru", [ALU_SHRS] = "shrs",
	[ALU_ROTL32] = "rotl32", [ALU_ROTL64] = "rotl64", [ALU_SEXT] = "sext", [ALU_ZEXT] = "zext",
	[ALU_CMPU] = "cmpu", [ALU_CRBITS] = "crbits", [ALU_EQ] = "eq", [ALU_NE] = "ne",
	[ALU_LT] = "lt", [ALU_LE] = "le", [ALU_GT] = "gt", [ALU_GE] = "ge", [ALU_MOD] = "mod",
	[ALU_STCR] = "stcr", [ALU_NZCV_ADD32] = "nzcv_add32", [ALU_NZCV_ADD64] = "nzcv_add64",
	[ALU_NZCV_SUB32] = "nzcv_sub32", [ALU_NZCV_SUB64] = "nzcv_sub64", [ALU_NZCV_NZ] = "nzcv_nz",
	[ALU_NZCV_COND] = "nzcv_cond", [ALU_RBIT] = "rbit", [ALU_REVB] = "revb", [ALU_ABS] = "abs",
	[ALU_MIN] = "min", [ALU_MAX] = "max",
};

static const char *const branch_names[] = {
	[BR_ALWAYS] = "always", [BR_EQ] = "eq", [BR_NE] = "ne", [BR_LT] = "lt",
	[BR_GE] = "ge",         [BR_GT] = "gt", [BR_LE] = "le", [BR_EITHER] = "either",
};

static void op_print(const litmus_test *t, const thread *th, const op *o, strbuf *out)
{
	switch (o->kind) {
	case OP_ALU:
		sb_printf(out, "alu %s ", (unsigned)o->alu <= ALU_LAST ? alu_names[o->alu] : "?");
		reg_print(th, o->dst, out);
		sb_puts(out, " <- ");
		operand_print(t, th, o->a, out);
		if (o->b.kind != OPND_NONE) {
			sb_puts(out, ", ");
			operand_print(t, th, o->b, out);
		}
		break;
	case OP_LOAD:
		sb_puts(out, "load ");
		reg_print(th, o->dst, out);
		sb_puts(out, " <- ");
		address_print(t, th, o->addr, out);
		access_attrs(o, out);
		own_annots(t, o, out);
		break;
	case OP_STORE:
	case OP_STCOND:
		sb_puts(out, o->kind == OP_STORE ? "store " : "stcond ");
		address_print(t, th, o->addr, out);
		sb_puts(out, " <- ");
		operand_print(t, th, o->a, out);
		if (o->kind == OP_STCOND) {
			sb_puts(out, " status ");
			reg_print(th, o->dst, out);
		}
		access_attrs(o, out);
		own_annots(t, o, out);
		break;
	case OP_FENCE:
		sb_printf(out, "fence %s", o->fence ? o->fence : "?");
		if (o->flags & ACC_LOCATED) {
			sb_putc(out, ' ');
			address_print(t, th, o->addr, out);
		}
		own_annots(t, o, out);
		break;
	case OP_CHOICE:
		sb_puts(out, "choice ");
		reg_print(th, o->dst, out);
		sb_puts(out, " <- 0|1");
		break;
	case OP_TLBI:
		sb_printf(out, "tlbi %s", o->fence ? o->fence : "?");
		if (o->a.kind != OPND_NONE) {
			sb_putc(out, ' ');
			operand_print(t, th, o->a, out);
		}
		break;
	case OP_BRANCH:
		sb_printf(out, "branch %s", (unsigned)o->cond <= BR_EITHER ? branch_names[o->cond] : "?");
		if (o->a.kind != OPND_NONE) {
			sb_putc(out, ' ');
			operand_print(t, th, o->a, out);
		}
		sb_printf(out, " -> %s (op %d)", o->label ? o->label : o->target < th->n_ops ? "op" : "end",
		          o->target);
		if (o->flags & ACC_COMMIT)
			sb_puts(out, " commit");
		if (o->flags & ACC_SILENT)
			sb_puts(out, " silent");
		if (o->flags & ACC_DROP)
			sb_puts(out, " drop");
		if (o->flags & ACC_CTRL_SCOPE)
			sb_puts(out, " ctrl-scope");
		if (o->flags & ACC_CTRL_JOIN)
			sb_puts(out, " ctrl-join");
		break;
	}
}

static const char *quant_name(enum quantifier q)
{
	return q == Q_NOT_EXISTS ? "~exists" : q == Q_FORALL ? "forall" : "exists";
}

static void dump_thread(const litmus_test *t, const thread *th, strbuf *b)
{
	sb_printf(b, "thread P%d\n", th->id);
	for (int r = 0; r < th->n_regs; r++) {
		sb_printf(b, "  reg %s = ", th->regs[r].name);
		value_print(t, th->regs[r].init, b);
		if (th->regs[r].type)
			sb_printf(b, " type %s", th->regs[r].type);
		sb_putc(b, '\n');
	}
	for (int l = 0; l < th->n_labels; l++)
		sb_printf(b, "  label %s -> op %d\n", th->labels[l].name, th->labels[l].op);
	for (int i = 0; i < th->n_instrs; i++) {
		const instr *in = &th->instrs[i];
		sb_printf(b, "  instr %d \"%s\"\n", i, in->text);
		for (int k = in->first_op; k < in->first_op + in->n_ops && k < th->n_ops; k++) {
			sb_printf(b, "    op %d ", k);
			op_print(t, th, &th->ops[k], b);
			sb_putc(b, '\n');
		}
	}
	prog_loop *loops;
	int n = prog_find_loops(th, &loops);
	for (int i = 0; i < n; i++) {
		sb_printf(b, "  loop %s ops %d..%d", prog_loop_kind_name(loops[i].kind), loops[i].head,
		          loops[i].branch);
		if (loops[i].mid_entry >= 0)
			sb_printf(b, " entered at op %d", loops[i].mid_entry);
		if (loops[i].why)
			sb_printf(b, " (%s)", loops[i].why);
		sb_putc(b, '\n');
	}
	free(loops);
}

void litmus_test_dump(const litmus_test *t, FILE *out)
{
	strbuf b = { 0 };
	sb_printf(&b, "arch %s\nname %s\n", t->arch_name, t->name);
	if (t->alias)
		sb_printf(&b, "alias %s\n", t->alias);
	if (t->doc)
		sb_printf(&b, "doc \"%s\"\n", t->doc);
	for (int i = 0; i < t->n_meta; i++)
		sb_printf(&b, "meta %s=%s\n", t->meta[i].key, t->meta[i].value);
	if (t->hash)
		sb_printf(&b, "hash %s\n", t->hash);
	if (t->vmsa) {
		/* what the engines run: virtual memory, and which threads at EL0 */
		sb_printf(&b, "vmsa%s", t->vmsa_fatal ? " fatal" : "");
		for (int i = 0; t->el0 && i < t->n_threads; i++)
			if (t->el0[i])
				sb_printf(&b, " el0 P%d", t->threads[i].id);
		sb_putc(&b, '\n');
	}
	for (int i = 0; i < t->n_locs; i++) {
		sb_printf(&b, "loc %s = ", t->locs[i].name);
		value_print(t, t->locs[i].init, &b);
		if (t->locs[i].type)
			sb_printf(&b, " type %s", t->locs[i].type);
		if (t->locs[i].no_init)
			sb_puts(&b, " (no initial write: only PA(...) names it)");
		sb_putc(&b, '\n');
	}
	for (int i = 0; i < t->n_threads; i++)
		dump_thread(t, &t->threads[i], &b);
	if (t->n_observed) {
		sb_puts(&b, "observed");
		for (int i = 0; i < t->n_observed; i++) {
			sb_puts(&b, i ? "; " : " ");
			lval_print(t, t->observed[i], &b);
		}
		sb_putc(&b, '\n');
	}
	if (t->filter) {
		sb_puts(&b, "filter ");
		cond_print_prec(t, t->filter, 0, &b);
		sb_putc(&b, '\n');
	}
	if (t->cond) {
		sb_printf(&b, "condition %s ", quant_name(t->quant));
		cond_print_prec(t, t->cond, 0, &b);
		sb_putc(&b, '\n');
	}
	if (t->old_final)
		sb_puts(&b, "old-final\n");
	if (b.s)
		fputs(b.s, out);
	sb_free(&b);
}
