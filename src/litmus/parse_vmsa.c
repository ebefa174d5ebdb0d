/* parse_vmsa.c — what herd's Variant=vmsa adds to a test (prog.h's vmsa
 * section):
 *     Variant=vmsa  Variant=vmsa,fatal     (the preamble)
 *     EL0=P0,P2                            (threads running at EL0)
 *     [PTE(x)]=(oa:PA(y), valid:0)         (a page-table entry)
 *     0:X3=PTE(x)                          (the address of x's entry)
 *     pteval_t 0:X0=(valid:0)              (a PTE value; fields oa, af,
 *                                           db, dbm, valid, el0)
 * and, once the whole test is read, an entry PTE(v) = (oa:PA(v)) for
 * every variable v the test does not give one. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parser.h"

/* The location PTE(v) of data location v, made (with herd's default
 * entry, mapping v to its own page) when new; -1 after an error. */
static int pte_of_loc(parser *p, int v, srcloc at)
{
	litmus_test *t = p->t;
	if (t->locs[v].pte >= 0)
		return t->locs[v].pte;
	if (t->locs[v].pte_of >= 0 || t->locs[v].array >= 0) {
		diag_error(p->d, at, "'%s' has no page-table entry (weft maps scalar variables only)",
		           t->locs[v].name);
		return -1;
	}
	char *name = xasprintf("PTE(%s)", t->locs[v].name);
	int l = parser_loc(p, name, strlen(name), at);
	free(name);
	if (l < 0)
		return -1;
	t->locs[l].pte_of = v;
	t->locs[l].init = value_pte(v, PTE_DEFAULT_FLAGS);
	t->locs[v].pte = l;
	return l;
}

/* `NAME(var)` after the NAME token f: the data location var; -1 after an
 * error. */
static int read_wrapped_var(parser *p, const token *f)
{
	token lp = parser_next(p);
	if (lp.kind != T_LPAR) {
		parser_expected(p, &lp, "'(' and a variable");
		return -1;
	}
	token v = parser_next(p);
	if (v.kind != T_NAME) {
		parser_expected(p, &v, "a variable name");
		return -1;
	}
	token rp = parser_next(p);
	if (rp.kind != T_RPAR) {
		parser_expected(p, &rp, "')'");
		return -1;
	}
	p->naming_wrapped = true;
	int loc = parser_loc(p, v.start, v.len, v.loc);
	p->naming_wrapped = false;
	if (loc >= 0 && tok_is(f, "PA")) {
		p->pa_use_loc = xrealloc(p->pa_use_loc, (size_t)(p->n_pa_uses + 1) * sizeof *p->pa_use_loc);
		p->pa_use_loc[p->n_pa_uses++] = loc;
	}
	if (loc >= 0 && p->t->locs[loc].pte_of >= 0) {
		diag_error(p->d, v.loc, "%.*s(...) takes a variable, not a page-table entry", (int)f->len, f->start);
		return -1;
	}
	return loc;
}

int parser_pte_loc(parser *p, const token *var)
{
	p->naming_wrapped = true;   /* [PTE(v)] does not name v, for herd */
	int v = parser_loc(p, var->start, var->len, var->loc);
	p->naming_wrapped = false;
	if (v < 0)
		return -1;
	return pte_of_loc(p, v, var->loc);
}

/* Whether the next character (blanks skipped) is '(': `PTE(` and `PA(`
 * are forms, `PTE` alone a variable's name. */
static bool paren_follows(const parser *p)
{
	const char *q = p->c.p;
	while (is_blank(*q))
		q++;
	return *q == '(';
}

bool parser_at_pte_form(const parser *p, const token *t)
{
	return p->t->vmsa && t->kind == T_NAME && tok_is(t, "PTE") && paren_follows(p);
}

bool parser_refuse_vm_location(parser *p, const token *t)
{
	if (t->kind != T_NAME || !paren_follows(p))
		return false;
	if (tok_is(t, "PTE") && !p->t->vmsa) {
		diag_error(p->d, t->loc, "PTE(...) means something only under herd's vmsa variant (Variant=vmsa, "
		           "or -variant vmsa)");
		return true;
	}
	if (tok_is(t, "TTD") || tok_is(t, "PTE2")) {
		/* herd's entries of other levels or stages (mlpt, PTE2) */
		diag_error(p->d, t->loc, "page-table entries of other levels or stages ('%.*s(...)') are not "
		           "supported", (int)t->len, t->start);
		return true;
	}
	return false;
}

/* `(field:value, ...)`, the '(' being read: a PTE value. */
static bool pte_literal(parser *p, value *out)
{
	int oa = -1;
	unsigned flags = PTE_DEFAULT_FLAGS;
	for (;;) {
		token f = parser_next(p);
		if (f.kind != T_NAME) {
			parser_expected(p, &f, "a page-table entry field (oa, af, db, dbm, valid, el0)");
			return false;
		}
		token colon = parser_next(p);
		if (colon.kind != T_COLON) {
			parser_expected(p, &colon, "':' after the field's name");
			return false;
		}
		if (tok_is(&f, "oa")) {
			token pa = parser_next(p);
			if (pa.kind != T_NAME || !tok_is(&pa, "PA")) {
				parser_expected(p, &pa, "PA(variable) as the output address");
				return false;
			}
			if ((oa = read_wrapped_var(p, &pa)) < 0)
				return false;
		} else {
			size_t i = 0;
			while (i < N_PTE_FIELDS && !tok_is(&f, pte_fields[i].name))
				i++;
			if (i == N_PTE_FIELDS) {
				diag_error(p->d, f.loc, "unknown page-table entry field '%.*s' (weft knows oa, af, db, "
				           "dbm, valid and el0; no memory attributes)", (int)f.len, f.start);
				return false;
			}
			token n = parser_next(p);
			if (n.kind != T_NUM || (n.num != 0 && n.num != 1)) {
				parser_expected(p, &n, "0 or 1");
				return false;
			}
			flags = n.num ? flags | pte_fields[i].bit : flags & ~pte_fields[i].bit;
		}
		token sep = parser_next(p);
		if (sep.kind == T_RPAR)
			break;
		if (sep.kind != T_COMMA) {
			parser_expected(p, &sep, "',' or ')' in the page-table entry");
			return false;
		}
	}
	*out = value_pte(oa, flags);
	return true;
}

bool parser_vmsa_value(parser *p, const token *t, value *out, bool *handled)
{
	*handled = true;
	if (t->kind == T_LPAR)
		return pte_literal(p, out);
	if (t->kind == T_NAME && tok_is(t, "PTE") && paren_follows(p)) {
		int v = read_wrapped_var(p, t);
		int l = v >= 0 ? pte_of_loc(p, v, t->loc) : -1;
		*out = value_addr(l);
		return l >= 0;
	}
	if (t->kind == T_NAME && tok_is(t, "PA") && paren_follows(p)) {
		diag_error(p->d, t->loc, "a physical address (PA(...)) is supported only as a page-table "
		           "entry's oa");
		return false;
	}
	*handled = false;
	return true;
}

static bool is_vmsa_tag(const char *tag, size_t n)
{
	/* kvm is herd's older name of vmsa */
	return (n == 4 && !strncasecmp(tag, "vmsa", 4)) || (n == 3 && !strncasecmp(tag, "kvm", 3));
}

/* telechat changes only AArch64's RET here, NV2 its MRS and MSR: on
 * another architecture weft keeps refusing the tag rather than answer
 * for another test */
static bool is_aarch64(const parser *p)
{
	return p->t->arch && !strcmp(p->t->arch->name, "AArch64");
}

static void set_vmsa(parser *p, srcloc at)
{
	p->t->vmsa = true;
	p->t->vmsa_at = at;
}

bool parser_variant_tag(parser *p, const char *tag, srcloc at)
{
	/* herd honours a test's own variants, which change what the test
	 * means; weft runs AArch64's vmsa (virtual memory), with or without
	 * `fatal` (faults end their thread: herd's default without fault
	 * handlers too), and refuses the others (skip, faultToNext,
	 * handled, PTE2, ...): no answer rather than one for another test */
	bool vmsa = p->t->arch && p->t->arch->vmsa;
	if (vmsa && is_vmsa_tag(tag, strlen(tag))) {
		set_vmsa(p, at);
	} else if (!strcasecmp(tag, "mixed")) {
		/* herd's mixed-size semantics (prog.h's mixed_split) */
		p->t->mixed = true;
	} else if (!strcasecmp(tag, "telechat") && is_aarch64(p)) {
		p->t->telechat = true;
	} else if (!strcasecmp(tag, "NV2") && is_aarch64(p)) {
		p->t->nv2 = true;
	} else if (vmsa && !strcasecmp(tag, "fatal")) {
		p->variant_fatal = true;
		p->variant_at = at;
	} else {
		diag_error(p->d, at, "herd variant '%s' (Variant=) is not supported", tag);
		return false;
	}
	return true;
}

bool parser_cli_variants(parser *p, srcloc at)
{
	bool vmsa = p->t->arch && p->t->arch->vmsa;
	bool cli_fatal = false; /* -variant fatal: nothing without vmsa */
	for (int i = 0; p->variants && p->variants[i]; i++) {
		if (!strcasecmp(p->variants[i], "mixed"))
			p->t->mixed = true;
		else if (!strcasecmp(p->variants[i], "telechat") && is_aarch64(p))
			p->t->telechat = true;
		else if (!strcasecmp(p->variants[i], "NV2") && is_aarch64(p))
			p->t->nv2 = true;
	}
	for (int i = 0; vmsa && p->variants && p->variants[i]; i++) {
		const char *v = p->variants[i];
		if (!p->t->vmsa && is_vmsa_tag(v, strlen(v)))
			set_vmsa(p, at);
		else if (!strcasecmp(v, "fatal"))
			cli_fatal = true;
	}
	if (p->variant_fatal && !p->t->vmsa) {
		/* herd's fatal also ends a thread at UDF's and SVC's faults
		 * (its A247, A259), which weft does not model */
		diag_error(p->d, p->variant_at, "Variant=fatal without herd's vmsa variant (faults of UDF and SVC "
		           "ending their thread) is not supported: weft runs fatal faults only under vmsa "
		           "(Variant=vmsa, or -variant vmsa)");
		return false;
	}
	p->t->vmsa_fatal = p->t->vmsa && (p->variant_fatal || cli_fatal);
	return true;
}

/* `EL0=P0,P2`, kept as metadata until the threads are known. */
static bool read_el0(parser *p, const char *list, srcloc at)
{
	litmus_test *t = p->t;
	t->el0 = xcalloc((size_t)t->n_threads + 1, 1);
	for (const char *q = list; *q;) {
		while (*q == ' ' || *q == '\t' || *q == ',')
			q++;
		if (!*q)
			break;
		const char *s = q;
		if (*q == 'P')
			q++;
		long n = -1;
		if (is_digit(*q))
			n = strtol(q, (char **)&q, 10);
		if (n < 0 || n >= t->n_threads || (*q && *q != ',' && *q != ' ' && *q != '\t')) {
			diag_error(p->d, at, "EL0= lists threads (P0,P2): '%.*s' is not one of this test's",
			           (int)strcspn(s, ", \t"), s);
			return false;
		}
		t->el0[n] = 1;
	}
	return true;
}

bool parse_vmsa_finish(parser *p)
{
	litmus_test *t = p->t;
	if (p->el0_meta >= 0) {
		if (!t->vmsa) {
			diag_error(p->d, p->el0_at, "EL0= (threads at EL0) means something only under Variant=vmsa");
			return false;
		}
		if (!read_el0(p, t->meta[p->el0_meta].value, p->el0_at))
			return false;
	}
	if (!t->vmsa)
		return true;
	for (int i = 0; i < p->n_pa_uses; i++) {
		int v = p->pa_use_loc[i];
		t->locs[v].no_init = (size_t)v >= p->loc_named_cap || !p->loc_named[v];
	}
	int n = t->n_locs;
	for (int l = 0; l < n; l++) {
		if (t->locs[l].array >= 0) {
			srcloc at = { t->file, 0, 0 };
			diag_error(p->d, at, "arrays are not supported under Variant=vmsa ('%s')", t->locs[l].name);
			return false;
		}
		if (t->locs[l].pte_of < 0 && pte_of_loc(p, l, (srcloc){ t->file, 0, 0 }) < 0)
			return false;
	}
	return true;
}

/* The instruction a label of thread th labels (label.instr: a NOP has no
 * op, so the label's op may be the next instruction's): -2 when none (a
 * label at the end), -3 when th has no such label. */
static int label_instr(const thread *th, const token *l)
{
	for (int i = 0; i < th->n_labels; i++)
		if (strlen(th->labels[i].name) == l->len && !memcmp(th->labels[i].name, l->start, l->len))
			return th->labels[i].instr < th->n_instrs ? th->labels[i].instr : -2;
	return -3;
}

/* herd's fault types, as a condition writes them after MMU: */
static int fault_type_named(const token *t)
{
	for (int k = VMSA_TRANSLATION; k <= VMSA_PERMISSION; k++)
		if (tok_is(t, vmsa_fault_name(k)))
			return k;
	return -1;
}

bool parse_fault_atom(parser *p, token f, cond *c, token *next)
{
	litmus_test *t = p->t;
	if (!t->vmsa) {
		diag_error(p->d, f.loc, "fault(...) in a condition means something only under Variant=vmsa");
		return false;
	}
	token lp = parser_next(p);
	token pt = parser_next(p);
	if (lp.kind != T_LPAR || (pt.kind != T_PROC && pt.kind != T_NUM)) {
		parser_expected(p, &pt, "a thread (P0) in fault(...)");
		return false;
	}
	if (pt.num < 0 || pt.num >= t->n_threads) {
		diag_error(p->d, pt.loc, "thread P%lld does not exist (the test has %d thread%s)", (long long)pt.num,
		           t->n_threads, t->n_threads == 1 ? "" : "s");
		return false;
	}
	const thread *th = &t->threads[pt.num];
	c->lhs = lval_fault((int)pt.num);
	c->f_instr = c->f_loc = c->f_type = -1;
	token k = parser_next(p);
	if (k.kind == T_COLON) {
		token l = parser_next(p);
		if (l.kind != T_NAME) {
			parser_expected(p, &l, "a label after the thread");
			return false;
		}
		c->f_instr = label_instr(th, &l);
		if (c->f_instr == -3) {
			diag_error(p->d, l.loc, "thread P%d has no label '%.*s'", th->id, (int)l.len, l.start);
			return false;
		}
		c->f_label = xstrndup(l.start, l.len);
		k = parser_next(p);
	}
	while (k.kind == T_COMMA) {
		token a = parser_next(p);
		if (a.kind != T_NAME) {
			parser_expected(p, &a, "a variable or a fault type (MMU:Translation) in fault(...)");
			return false;
		}
		/* herd's faults of other kinds than the MMU's, which weft's
		 * threads never raise: refused rather than read as a
		 * variable of that name */
		static const char *const other_faults[] = { "UndefinedInstruction", "SupervisorCall", "TagCheck",
		                                            "PacCheck", NULL };
		for (int i = 0; other_faults[i]; i++)
			if (tok_is(&a, other_faults[i])) {
				diag_error(p->d, a.loc, "fault type '%s' is not supported (weft knows MMU:Translation, "
				           "MMU:AccessFlag and MMU:Permission)", other_faults[i]);
				return false;
			}
		k = parser_next(p);
		if (k.kind == T_COLON) {
			/* a fault type: MMU:Translation, AccessFlag or Permission */
			token ty = parser_next(p);
			if (!tok_is(&a, "MMU") || ty.kind != T_NAME || (c->f_type = fault_type_named(&ty)) < 0) {
				diag_error(p->d, a.loc, "unknown fault type (weft knows MMU:Translation, "
				           "MMU:AccessFlag and MMU:Permission)");
				return false;
			}
			k = parser_next(p);
		} else {
			c->f_loc = parser_loc(p, a.start, a.len, a.loc);
			if (c->f_loc < 0)
				return false;
		}
	}
	if (k.kind != T_RPAR) {
		parser_expected(p, &k, "')' closing fault(...)");
		return false;
	}
	*next = parser_next(p);
	return true;
}
