/* herd_text.c — herd7's result block (see report.h).
 *
 * The facts that make the block byte-identical to herd7's:
 *   - A state line lists the displayed locations (the condition's and the
 *     `locations` list's) in herd's location order: registers first, by
 *     thread, then by the architecture's register order (PPC r0 < r1 < ...
 *     < r31 numerically; X86 EAX EBX ECX EDX ESI EDI EBP ESP; X86_64 by base
 *     register rax rbx rcx rdx rsi rdi rbp rsp r8 ... r15); then memory
 *     locations by name, printed [x].  Each binding is "loc=value;", joined
 *     by one blank.
 *   - State lines are sorted by their values as computed (before the
 *     types cut them for printing: two lines may print alike), compared
 *     location by location in that order; integers (numerically) before
 *     addresses (by name).  An address prints as the location's name.
 *   - The condition is re-printed from its tree: "/\", "\/", "=>" with one
 *     blank each side, "not (...)" for negation (also for <>), "true" and
 *     "false"; parentheses only where herd puts them: an \/ or => under a
 *     /\, an => under an \/, an /\ or \/ under a =>.
 */
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "../arch/arch.h"

/* ---- herd's order of locations ---------------------------------------------- */

static int lval_cmp(const litmus_test *t, lval a, lval b)
{
	/* vmsa's faults come after the registers and locations */
	if (lval_is_fault(a) || lval_is_fault(b)) {
		if (lval_is_fault(a) != lval_is_fault(b))
			return lval_is_fault(a) ? 1 : -1;
		return a.thread < b.thread ? -1 : a.thread > b.thread;
	}
	bool ra = a.thread >= 0, rb = b.thread >= 0;
	if (ra != rb)
		return ra ? -1 : 1;
	/* herd's cells v[i] (its Deref) come after every location named
	 * plainly, by array and index; an array's cells shown whole keep
	 * the array's place among the locations, in index order */
	if (!ra && (a.reg == LVAL_CELL) != (b.reg == LVAL_CELL))
		return a.reg == LVAL_CELL ? 1 : -1;
	if (!ra && (a.reg == LVAL_CELL || a.reg == LVAL_WHOLE || b.reg == LVAL_WHOLE)) {
		const location *la = &t->locs[a.loc], *lb = &t->locs[b.loc];
		int c = strcmp(t->locs[la->array >= 0 ? la->array : a.loc].name,
		               t->locs[lb->array >= 0 ? lb->array : b.loc].name);
		if (c)
			return c;
		return la->cell < lb->cell ? -1 : la->cell > lb->cell;
	}
	if (ra) {
		int ia = t->threads[a.thread].id, ib = t->threads[b.thread].id;
		if (ia != ib)
			return ia < ib ? -1 : 1;
		const char *na = t->threads[a.thread].regs[a.reg].name;
		const char *nb = t->threads[b.thread].regs[b.reg].name;
		int ka = arch_reg_rank(t->arch, na), kb = arch_reg_rank(t->arch, nb);
		if (ka >= 0 && kb >= 0 && ka != kb)
			return ka < kb ? -1 : 1;
		if ((ka >= 0) != (kb >= 0))
			return ka >= 0 ? -1 : 1;
		return strcmp(na, nb);
	}
	return strcmp(t->locs[a.loc].name, t->locs[b.loc].name);
}

static int value_cmp(const litmus_test *t, value a, value b)
{
	/* herd orders its symbolic values before its constants */
	bool sa = value_is_symbolic(a), sb = value_is_symbolic(b);
	if (sa != sb)
		return sa ? -1 : 1;
	/* instructions (herd's ifetch) after the integers, by spelling */
	bool xa = value_is_instr(a), xb = value_is_instr(b);
	if (xa != xb)
		return xa ? 1 : -1;
	if (xa)
		return strcmp(t->instr_values[a.num], t->instr_values[b.num]);
	bool ia = a.loc < 0, ib = b.loc < 0;
	if (ia != ib)
		return ia ? -1 : 1;
	if (!ia && a.loc != b.loc) {
		int c = strcmp(t->locs[a.loc].name, t->locs[b.loc].name);
		if (c)
			return c;
		return a.loc < b.loc ? -1 : 1;
	}
	return a.num < b.num ? -1 : a.num > b.num;
}

/* ---- printing values and locations ---------------------------------------------- */

static void put_value_as(const litmus_test *t, value v, bool hexa, strbuf *out);

/* A code location as a value, herd's label:"P0:L0"; a return place
 * ("#instr:N", after BL) by the label of instruction N when it has one,
 * else by herd's address of it, 10000 * (thread + 1) + 4 * N. */
static void put_code_place(const litmus_test *t, const location *l, strbuf *out)
{
	int n;
	const char *label = l->code_label;
	if (label && sscanf(label, "#instr:%d", &n) == 1 && l->code_thread < t->n_threads) {
		const thread *th = &t->threads[l->code_thread];
		label = NULL;
		for (int k = 0; k < th->n_labels && !label; k++)
			if (th->labels[k].instr == n)
				label = th->labels[k].name;
		if (!label) {
			sb_printf(out, "%d", 10000 * (l->code_thread + 1) + 4 * n);
			return;
		}
	}
	sb_printf(out, "label:\"P%d:%s\"", l->code_thread, label ? label : "?");
}

/* herd -hexa prints integers as OCaml's "0x%Lx": the 64-bit two's
 * complement, so -1 is 0xffffffffffffffff. */
static void put_value_as(const litmus_test *t, value v, bool hexa, strbuf *out)
{
	if (value_is_symbolic(v)) {
		sb_printf(out, "S%lld", (long long)v.num);
		return;
	}
	if (value_is_instr(v)) {
		/* an instruction, herd's instr:"B .+4", but NOP bare */
		bool nop = v.num >= 0 && v.num < t->n_instr_values && !strcmp(t->instr_values[v.num], "NOP");
		if (!nop)
			sb_puts(out, "instr:\"");
		value_print(t, v, out);
		if (!nop)
			sb_putc(out, '"');
		return;
	}
	if (value_is_pte(v) || value_is_page(v)) {
		/* vmsa's entries and pages */
		value_print(t, v, out);
		return;
	}
	if (v.loc < 0 && hexa) {
		sb_printf(out, "0x%llx", (unsigned long long)v.num);
		return;
	}
	if (v.loc < 0) {
		sb_printf(out, "%lld", (long long)v.num);
		return;
	}
	if (v.loc < t->n_locs && t->locs[v.loc].code_thread >= 0 && t->locs[v.loc].code_label && !v.num) {
		put_code_place(t, &t->locs[v.loc], out);
		return;
	}
	sb_puts(out, v.loc < t->n_locs ? t->locs[v.loc].name : "?");
	if (v.num)
		sb_printf(out, "+%lld", (long long)v.num);
}

static void put_lval(const litmus_test *t, lval lv, strbuf *out)
{
	if (lval_is_fault(lv))
		sb_printf(out, "fault(P%d)", t->threads[lv.thread].id);
	else if (lv.thread >= 0)
		sb_printf(out, "%d:%s", t->threads[lv.thread].id, t->threads[lv.thread].regs[lv.reg].name);
	else if (lv.reg == LVAL_CELL)
		lval_print(t, lv, out);   /* v[i], no brackets */
	else
		sb_printf(out, "[%s]", t->locs[lv.loc].name);
}

/* herd's atom on a whole array (prog.h's cond.array_atom): `v={1,2}`,
 * or `[v]=1` for a value that is no vector. */
static void put_array_atom(const litmus_test *t, const cond *c, bool hexa, strbuf *out)
{
	const char *name = t->locs[c->arr_loc].name;
	if (c->n_arr_vals < 0) {
		sb_printf(out, "[%s]=", name);
		put_value_as(t, c->rhs, hexa, out);
		return;
	}
	sb_printf(out, "%s={", name);
	for (int i = 0; i < c->n_arr_vals; i++) {
		if (i)
			sb_putc(out, ',');
		put_value_as(t, c->arr_vals[i], hexa, out);
	}
	sb_putc(out, '}');
}

/* ---- the condition ---------------------------------------------------------------- */

enum prec { P_TOP, P_AND, P_OR, P_IMPLIES };

static bool needs_paren(enum prec above, enum prec here)
{
	switch (above) {
	case P_TOP:
		return false;
	case P_IMPLIES:
		return here != P_IMPLIES;
	case P_AND:
		return here != P_AND;
	case P_OR:
		return here == P_IMPLIES;
	}
	return false;
}

/* The right of `=`: a value, or another location (`0:r1=1:r2`). */
static void put_rhs(const litmus_test *t, const cond *c, bool hexa, strbuf *out)
{
	if (c->rhs_is_lval)
		put_lval(t, c->rhs_lval, out);
	else
		put_value_as(t, c->rhs, hexa, out);
}

static void put_cond(const litmus_test *t, const cond *c, enum prec above, bool hexa, strbuf *out)
{
	if (!c) {
		sb_puts(out, "true");
		return;
	}
	if (c->array_atom) {
		put_array_atom(t, c, hexa, out);
		return;
	}
	enum prec here;
	const char *opname;
	switch (c->kind) {
	case COND_TRUE:
		sb_puts(out, "true");
		return;
	case COND_FALSE:
		sb_puts(out, "false");
		return;
	case COND_EQ:
		put_lval(t, c->lhs, out);
		sb_putc(out, '=');
		put_rhs(t, c, hexa, out);
		return;
	case COND_NE:
		sb_puts(out, "not (");
		put_lval(t, c->lhs, out);
		sb_putc(out, '=');
		put_rhs(t, c, hexa, out);
		sb_putc(out, ')');
		return;
	case COND_NOT:
		sb_puts(out, "not (");
		put_cond(t, c->l, P_TOP, hexa, out);
		sb_putc(out, ')');
		return;
	case COND_FAULT:
		vmsa_fault_atom_print(t, c, out);
		return;
	case COND_AND:
		here = P_AND;
		opname = " /\\ ";
		break;
	case COND_OR:
		here = P_OR;
		opname = " \\/ ";
		break;
	case COND_IMPLIES:
		here = P_IMPLIES;
		opname = " => ";
		break;
	default:
		return;
	}
	bool paren = needs_paren(above, here);
	if (paren)
		sb_putc(out, '(');
	put_cond(t, c->l, here, hexa, out);
	sb_puts(out, opname);
	put_cond(t, c->r, here, hexa, out);
	if (paren)
		sb_putc(out, ')');
}

static const char *quant_name(enum quantifier q)
{
	switch (q) {
	case Q_NOT_EXISTS: return "~exists";
	case Q_FORALL: return "forall";
	case Q_EXISTS: break;
	}
	return "exists";
}

static const char *kind_name(enum quantifier q)
{
	switch (q) {
	case Q_NOT_EXISTS: return "Forbidden";
	case Q_FORALL: return "Required";
	case Q_EXISTS: break;
	}
	return "Allowed";
}

void report_condition_as(const litmus_test *t, bool hexa, strbuf *out)
{
	sb_printf(out, "%s (", quant_name(t->quant));
	put_cond(t, t->cond, P_TOP, hexa, out);
	sb_putc(out, ')');
}

void report_condition(const litmus_test *t, strbuf *out)
{
	report_condition_as(t, false, out);
}

/* ---- the block ---------------------------------------------------------------------- */

typedef struct sort_ctx {
	const litmus_test *t;
	const test_result *r;
	const int *order;     /* lval indices in herd's order */
} sort_ctx;

/* The values a state is sorted by: as computed, not as printed (engine.h's
 * final_state.raw), as herd orders them; a result built without them (a
 * unit test's) by what it prints. */
static const value *sort_values(const final_state *s)
{
	return s->raw ? s->raw : s->vals;
}

/* qsort has no context argument in C11: sort with a small merge sort. */
static int state_cmp(const sort_ctx *c, int a, int b)
{
	const value *va = sort_values(&c->r->states[a]), *vb = sort_values(&c->r->states[b]);
	for (int i = 0; i < c->r->n_lvals; i++) {
		int k = c->order[i];
		int d = value_cmp(c->t, va[k], vb[k]);
		if (d)
			return d;
	}
	return 0;
}

static void merge_sort(const sort_ctx *c, int *a, int *tmp, int n)
{
	if (n < 2)
		return;
	int h = n / 2;
	merge_sort(c, a, tmp, h);
	merge_sort(c, a + h, tmp, n - h);
	int i = 0, j = h, k = 0;
	while (i < h && j < n)
		tmp[k++] = state_cmp(c, a[i], a[j]) <= 0 ? a[i++] : a[j++];
	while (i < h)
		tmp[k++] = a[i++];
	while (j < n)
		tmp[k++] = a[j++];
	memcpy(a, tmp, (size_t)n * sizeof *a);
}

static int *lval_order(const litmus_test *t, const test_result *r)
{
	int n = r->n_lvals;
	int *order = xmalloc(((size_t)n + 1) * sizeof *order);
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && lval_cmp(t, r->lvals[order[j - 1]], r->lvals[order[j]]) > 0; j--) {
			int tmp = order[j];
			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	return order;
}

typedef struct state_faults {
	const test_result *r;
	const value *vals;
} state_faults;

static value fault_in_state(int tix, void *vctx)
{
	const state_faults *s = vctx;
	for (int k = 0; k < s->r->n_lvals; k++)
		if (lval_is_fault(s->r->lvals[k]) && s->r->lvals[k].thread == tix)
			return s->vals[k];
	return value_no_fault();
}

/* The final value v of lv in a state line. */
static void put_binding_value(const litmus_test *t, lval lv, value v, bool hexa, strbuf *b)
{
	if (!hexa && v.loc == -1 && v.num < 0 && lval_is_unsigned64(t, lv))
		sb_printf(b, "%llu", (unsigned long long)v.num);
	else
		put_value_as(t, v, hexa, b);
}

/* One state line's bindings, in herd's order `order` (from lval_order). */
static void put_state(const litmus_test *t, const test_result *r, const int *order, int state, bool hexa,
		      strbuf *b)
{
	const value *v = r->states[state].vals;
	bool shown_fault = false;
	for (int i = 0; i < r->n_lvals; i++) {
		int k = order[i];
		if (lval_is_fault(r->lvals[k])) {
			/* herd lists the faults the condition names after the
			 * rest: " Fault(P1:L0,x,MMU:Translation);" */
			if (value_is_fault(v[k])) {
				vmsa_fault_print(t, r->lvals[k].thread, v[k], b);
				shown_fault = true;
			}
			continue;
		}
		if (i)
			sb_putc(b, ' ');
		lval lv = r->lvals[k];
		if (lv.thread < 0 && lv.reg == LVAL_WHOLE) {
			/* an array's cells, in order (lval_order), one binding */
			int arr = t->locs[lv.loc].array;
			sb_printf(b, "%s={", t->locs[arr].name);
			put_binding_value(t, lv, v[k], hexa, b);
			while (i + 1 < r->n_lvals && r->lvals[order[i + 1]].thread < 0 &&
			       r->lvals[order[i + 1]].reg == LVAL_WHOLE &&
			       t->locs[r->lvals[order[i + 1]].loc].array == arr) {
				k = order[++i];
				sb_putc(b, ',');
				put_binding_value(t, r->lvals[k], v[k], hexa, b);
			}
			sb_puts(b, "};");
			continue;
		}
		put_lval(t, lv, b);
		sb_putc(b, '=');
		put_binding_value(t, lv, v[k], hexa, b);
		sb_putc(b, ';');
	}
	/* then the condition's fault atoms that hold of no fault, each
	 * " ~Fault(P1:L0,y);", after herd's separating space, which stays
	 * (a double space) when no fault was shown */
	if (t->cond && vmsa_cond_has_fault_atom(t->cond)) {
		if (!shown_fault)
			sb_putc(b, ' ');
		state_faults sf = { r, v };
		vmsa_unmet_atoms_print(t, t->cond, fault_in_state, &sf, b);
	}
}

char *report_state_line(const litmus_test *t, const test_result *r, int state)
{
	int *order = lval_order(t, r);
	strbuf b = { 0 };
	sb_puts(&b, "");
	put_state(t, r, order, state, false, &b);
	free(order);
	return sb_take(&b);
}

void report_herd(FILE *out, const litmus_test *t, const test_result *r, bool print_time, bool stats)
{
	herd_report_opts ro = { print_time, stats, false };
	report_herd_opts(out, t, r, &ro);
}

void report_herd_opts(FILE *out, const litmus_test *t, const test_result *r, const herd_report_opts *ro)
{
	bool print_time = ro->print_time, stats = ro->stats;
	if (r->timed_out)
		return;
	const char *name = t->name ? t->name : "?";
	strbuf b = { 0 };
	sb_printf(&b, "Test %s %s\n", name, kind_name(t->quant));
	sb_printf(&b, "States %d\n", r->n_states);
	int *order = lval_order(t, r);
	int *idx = xmalloc(((size_t)r->n_states + 1) * sizeof *idx);
	int *tmp = xmalloc(((size_t)r->n_states + 1) * sizeof *tmp);
	for (int i = 0; i < r->n_states; i++)
		idx[i] = i;
	sort_ctx sc = { t, r, order };
	merge_sort(&sc, idx, tmp, r->n_states);
	for (int s = 0; s < r->n_states; s++) {
		put_state(t, r, order, idx[s], ro->hexa, &b);
		sb_putc(&b, '\n');
	}
	free(idx);
	free(tmp);
	free(order);
	bool ok;
	switch (t->quant) {
	case Q_NOT_EXISTS: ok = r->pos == 0; break;
	case Q_FORALL: ok = r->neg == 0; break;
	default: ok = r->pos > 0; break;
	}
	sb_printf(&b, "%s%s\n", r->loop ? "Loop " : "", result_has_flag(r, CAT_UNDEF_FLAG) ? "Undef" : ok ? "Ok" : "No");
	sb_puts(&b, "Witnesses\n");
	if (t->quant == Q_NOT_EXISTS)
		sb_printf(&b, "Positive: %ld Negative: %ld\n", r->neg, r->pos);
	else
		sb_printf(&b, "Positive: %ld Negative: %ld\n", r->pos, r->neg);
	for (int i = 0; i < r->n_flags; i++)
		sb_printf(&b, "Flag %s\n", r->flags[i]);
	sb_puts(&b, "Condition ");
	report_condition_as(t, ro->hexa, &b);
	sb_putc(&b, '\n');
	sb_printf(&b, "Observation %s %s %ld %ld\n", name,
	          r->pos == 0 ? "Never" : r->neg == 0 ? "Always" : "Sometimes", r->pos, r->neg);
	if (print_time)
		sb_printf(&b, "Time %s %0.2f\n", name, r->time);
	char hex[33];
	test_hash(t, hex);
	sb_printf(&b, "Hash=%s\n", hex);
	/* weft's own line, after the herd block proper so that herd's log tools,
	 * which read a block from its Test line to its Hash line, skip it. */
	if (stats && r->engine && !(r->engine->caps & ENGINE_COUNTS)) {
		/* an engine that counts no executions (bmc): its states and
		 * its own counters */
		sb_printf(&b, "Stats %s engine %s states %d", name, r->engine->name, r->n_states);
		for (int i = 0; i < ENGINE_OWN_STATS && r->engine->own_stats[i]; i++)
			sb_printf(&b, " %s %ld", r->engine->own_stats[i], r->stats.own[i]);
		sb_putc(&b, '\n');
	} else if (stats) {
		sb_printf(&b, "Stats %s complete %ld blocked %ld commits %ld candidates %ld forbidden %ld", name,
		          r->stats.complete, r->stats.blocked, r->stats.commits, r->stats.candidates,
		          r->stats.forbidden);
		/* when a candidate passed under several of the model's choices,
		 * complete (herd's count) is more than the candidates allowed */
		if (r->stats.allowed != r->stats.complete)
			sb_printf(&b, " allowed %ld", r->stats.allowed);
		/* which order rsmc used, and whether the enumerator answered */
		if (r->order)
			sb_printf(&b, " order %s", r->order);
		if (r->fallback)
			sb_puts(&b, " fallback enumerate");
		/* candidates the model's compiled check could not judge */
		if (r->stats.interpreted)
			sb_printf(&b, " interpreted %ld", r->stats.interpreted);
		sb_putc(&b, '\n');
	}
	sb_putc(&b, '\n');
	fputs(b.s, out);
	sb_free(&b);
}
