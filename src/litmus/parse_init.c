/* parse_init.c — the init block `{ ... }`.
 *
 * Entries are separated by `;` (a trailing one is allowed):
 *     x=1   x = 0   [x]=0   x          (a location; no value means 0)
 *     0:r2=x  P0:EAX = 1               (a register; `x` means x's address)
 *     %x0=x                            (a symbolic register, PPC)
 *     uint64_t x;  int64_t 0:r0;  int x = 1;   (typed)
 *     _Atomic int x = 0;                  (C11: the type "_Atomic int")
 *     int x[2];  int x[2]={1,y}          (an array: one location a cell)
 * The old hand-written syntax closes the block with `};`.  Locations are
 * set at once; register entries wait (parser.h) until the threads exist.
 */
#include <stdlib.h>
#include <string.h>

#include "parser.h"

static bool mark_loc_set(parser *p, int loc, const char *name, srcloc at)
{
	size_t old_cap = p->loc_set_cap;
	GROW(p->loc_set, p->loc_set_cap, (size_t)loc + 1);
	if (p->loc_set_cap > old_cap)
		memset(p->loc_set + old_cap, 0, p->loc_set_cap - old_cap);
	if (p->loc_set[loc]) {
		diag_error(p->d, at, "location '%s' is initialised twice", name);
		return false;
	}
	p->loc_set[loc] = 1;
	return true;
}

static bool is_lval_start(enum tok_kind k)
{
	return k == T_NAME || k == T_PROC || k == T_NUM || k == T_SYMREG || k == T_LBRK;
}

/* Keep the entry whose left-hand side is ls (`loc`: its location, if
 * memory) and whose type is `type` as the reader spells it ("int",
 * "int*", "*" or NULL) for herd's hash (prog.h's init_entry). */
static init_entry *keep_entry(parser *p, const lval_syntax *ls, int loc, const char *type)
{
	litmus_test *t = p->t;
	GROW_IMPLIED(t->init_entries, t->n_init_entries);
	init_entry *e = &t->init_entries[t->n_init_entries++];
	memset(e, 0, sizeof *e);
	e->loc = loc;
	e->thread = ls->kind == LV_REG ? ls->thread : ls->kind == LV_SYMREG ? INIT_SYMREG : INIT_MEMORY;
	if (ls->kind != LV_LOC) {
		/* herd's symbolic register token leaves out its % */
		bool pct = ls->name.len && ls->name.start[0] == '%';
		e->reg = xstrndup(ls->name.start + pct, ls->name.len - pct);
	}
	size_t n = type ? strlen(type) : 0;
	e->pointer = n && type[n - 1] == '*';
	if (n - e->pointer)
		e->type = xstrndup(type, n - e->pointer);
	return e;
}

/* `type x[N]` or `type x[N]={v0,...}` (herd's array declarations; `lbrk`
 * is the '['): locations x, x[1], ... x[N-1], one a cell (prog.h).
 * *next gets the token after the entry. */
static bool init_array(parser *p, const char *type, const lval_syntax *ls, token lbrk, token *next)
{
	int_type ty;
	if (ls->kind != LV_LOC) {
		diag_error(p->d, lbrk.loc, "only memory locations can be arrays");
		return false;
	}
	const char *after_name = ls->name.start + ls->name.len;
	while (is_blank(*after_name))
		after_name++;
	if (*after_name != '[') {   /* `int [x][2]` */
		diag_error(p->d, lbrk.loc, "an array is declared 'type name[size]'");
		return false;
	}
	if (!type) {
		diag_error(p->d, ls->loc, "array '%.*s' needs an element type ('int %.*s[...]')", (int)ls->name.len,
			   ls->name.start, (int)ls->name.len, ls->name.start);
		return false;
	}
	if (!int_type_of(type, &ty)) {
		diag_error(p->d, ls->loc, "arrays of '%s' are not supported (only arrays of integers)", type);
		return false;
	}
	token size = parser_next(p);
	if (size.kind == T_NUM && size.num > LITMUS_MAX_LOCS) {
		diag_error(p->d, size.loc, "array too large (at most %d cells)", LITMUS_MAX_LOCS);
		return false;
	}
	if (size.kind != T_NUM || size.num < 1) {
		parser_expected(p, &size, "the array's size (a number of cells, 1 or more)");
		return false;
	}
	token rbrk = parser_next(p);
	if (rbrk.kind != T_RBRK) {
		parser_expected(p, &rbrk, "']' after the array's size");
		return false;
	}
	int n = (int)size.num;
	/* a cell written without a value holds 0, not calloc's {0, 0}: that
	 * is the address of location 0 (prog.h's value) */
	value *init = xcalloc((size_t)n, sizeof *init);
	for (int i = 0; i < n; i++)
		init[i] = value_int(0);
	token after = parser_next(p);
	bool ok = true;
	if (after.kind == T_EQ) {
		token open = parser_next(p);
		if (open.kind != T_LBRACE) {
			parser_expected(p, &open, "'{' opening the array's values");
			ok = false;
		}
		int k = 0;
		while (ok) {
			token vt = parser_next(p);
			if (k == n) {
				diag_error(p->d, vt.loc, "array '%.*s' has %d cells but more initial values",
					   (int)ls->name.len, ls->name.start, n);
				ok = false;
				break;
			}
			ok = parser_value(p, &vt, &init[k++]);
			token sep = ok ? parser_next(p) : vt;
			if (!ok || sep.kind == T_RBRACE)
				break;
			if (sep.kind != T_COMMA) {
				parser_expected(p, &sep, "',' or '}' in the array's values");
				ok = false;
			}
		}
		if (ok && k < n) {
			diag_error(p->d, open.loc, "array '%.*s' has %d cells but %d initial value%s",
				   (int)ls->name.len, ls->name.start, n, k, k == 1 ? "" : "s");
			ok = false;
		}
		if (ok)
			after = parser_next(p);
	}
	int base = ok ? parser_loc(p, ls->name.start, ls->name.len, ls->name.loc) : -1;
	for (int i = 0; base >= 0 && i < n; i++) {
		char *name = i ? xasprintf("%.*s[%d]", (int)ls->name.len, ls->name.start, i) : NULL;
		int loc = i ? parser_loc(p, name, strlen(name), ls->name.loc) : base;
		if (loc < 0 || !mark_loc_set(p, loc, p->t->locs[loc].name, ls->loc)) {
			free(name);
			ok = false;
			break;
		}
		free(name);
		location *l = &p->t->locs[loc];
		l->init = init[i];
		free(l->type);
		l->type = xstrdup(type);
		l->array = base;
		l->cell = i;
	}
	if (ok && base >= 0) {
		p->t->locs[base].n_cells = n;
		p->t->locs[base].cell_bytes = ty.bytes;
		keep_entry(p, ls, base, type)->array = n;
	}
	free(init);
	*next = after;
	return ok && base >= 0;
}

/* One entry starting at token `first`; *next gets the token after it. */
static bool read_entry(parser *p, token first, token *next)
{
	char *type = NULL;
	token tok = first;
	lval_syntax ls = { 0 };
	token after;
	/* herd's `_Atomic T x = v` (C11): the type is "_Atomic T", so hashed */
	char *atomic = NULL;
	if (first.kind == T_NAME && tok_is(&first, "_Atomic")) {
		first = parser_next(p);
		if (first.kind != T_NAME) {
			parser_expected(p, &first, "a type after _Atomic");
			return false;
		}
		atomic = xasprintf("_Atomic %.*s", (int)first.len, first.start);
	}
	if (first.kind == T_NAME) {
		token second = parser_next(p);
		const char *q = p->c.p;
		while (is_blank(*q))
			q++;
		if (second.kind == T_LBRK && is_digit(*q)) {
			/* `x[2]`: herd's arrays are declared with a type */
			diag_error(p->d, first.loc, "array '%.*s' needs an element type ('int %.*s[...]')",
				   (int)first.len, first.start, (int)first.len, first.start);
			free(atomic);
			return false;
		}
		if (atomic && !is_lval_start(second.kind)) {
			parser_expected(p, &second, "the location an _Atomic type declares");
			free(atomic);
			return false;
		}
		if (is_lval_start(second.kind) || second.kind == T_STAR) {
			/* `type lvalue`: the first name was a type. */
			type = atomic ? atomic : xstrndup(first.start, first.len);
			tok = second;
			if (tok.kind == T_STAR) {
				char *ptr = xasprintf("%s*", type);
				free(type);
				type = ptr;
				tok = parser_next(p);
			}
			if (!parse_lval_syntax(p, tok, &ls, &after)) {
				free(type);
				return false;
			}
		} else {
			ls.kind = LV_LOC;
			ls.thread = -1;
			ls.name = first;
			ls.loc = first.loc;
			after = second;
		}
	} else if (first.kind == T_STAR) {
		type = xstrdup("*");
		if (!parse_lval_syntax(p, parser_next(p), &ls, &after)) {
			free(type);
			return false;
		}
	} else if (!parse_lval_syntax(p, first, &ls, &after)) {
		return false;
	}

	if (after.kind == T_LBRK) {
		bool ok = init_array(p, type, &ls, after, next);
		free(type);
		return ok;
	}
	/* Instructions as values belong to herd's ifetch variant. */
	if (type && !strcmp(type, "ins_t") && !p->t->ifetch && !(p->arch && p->arch->ifetch)) {
		diag_error(p->d, first.loc, "instruction values ('ins_t') need herd's ifetch variant (a "
			   "'Variant=ifetch' line): without it herd does not fetch instructions from memory");
		free(type);
		return false;
	}

	/* A location counts as appearing before the value that sets it. */
	int loc = -1;
	if (ls.kind == LV_LOC) {
		loc = parser_lval_loc(p, &ls);
		if (loc < 0) {
			free(type);
			return false;
		}
	}
	value v = value_int(0);
	char *written = NULL;   /* the value's text, for herd's hash */
	if (after.kind == T_EQ) {
		token vt = parser_next(p);
		if (vt.kind == T_AMP)
			vt = parser_next(p);
		int is_instr = parser_ifetch_value(p, &vt, true, &v, &written);
		if (is_instr < 0) {
			free(type);
			return false;
		}
		/* the kernel's ATOMIC_INIT(n) in C tests: n */
		bool atomic_init = vt.kind == T_NAME && vt.len == 11 && !memcmp(vt.start, "ATOMIC_INIT", 11) &&
		                   p->arch && p->arch->program == ARCH_PROGRAM_C;
		if (atomic_init) {
			token lp = parser_next(p);
			if (lp.kind != T_LPAR) {
				parser_expected(p, &lp, "'(' after ATOMIC_INIT");
				free(type);
				return false;
			}
			vt = parser_next(p);
		}
		if (!is_instr && !parser_value(p, &vt, &v)) {
			free(type);
			return false;
		}
		if (!is_instr && vt.kind == T_NUM)
			written = xstrndup(vt.start, vt.len);
		after = parser_next(p);
		if (atomic_init) {
			if (after.kind != T_RPAR) {
				parser_expected(p, &after, "')' after ATOMIC_INIT's value");
				free(type);
				free(written);
				return false;
			}
			after = parser_next(p);
		}
	}
	*next = after;

	if (ls.kind == LV_LOC) {
		location *l = &p->t->locs[loc];
		/* vmsa: an entry set without oa keeps mapping its own variable
		 * (herd hashes `[PTE(x)]=(el0:0)` with oa:phy_x) */
		if (l->pte_of >= 0 && value_is_pte(v) && pte_oa(v) < 0)
			v = value_pte(l->pte_of, pte_flags(v));
		if (!mark_loc_set(p, loc, l->name, ls.loc)) {
			free(type);
			free(written);
			return false;
		}
		init_entry *e = keep_entry(p, &ls, loc, type);
		e->init = v;
		e->written = written;
		l->init = v;
		free(l->type);
		l->type = type;
		return true;
	}
	if (p->n_pending >= LITMUS_MAX_ITEMS) {
		diag_error(p->d, ls.loc, "too many entries in the init block");
		free(type);
		free(written);
		return false;
	}
	init_entry *e = keep_entry(p, &ls, -1, type);
	e->init = v;
	e->written = written;
	GROW(p->pending, p->pending_cap, (size_t)p->n_pending + 1);
	pending_reg *r = &p->pending[p->n_pending++];
	r->thread = ls.kind == LV_REG ? ls.thread : -1;
	r->name = xstrndup(ls.name.start, ls.name.len);
	r->type = type;
	r->init = v;
	r->loc = ls.loc;
	r->name_loc = ls.name.loc;
	return true;
}

/* Where byte `at` of the text is. */
static srcloc text_loc(const parser *p, const char *at)
{
	srcloc l = { p->t->file, 1, 1 };
	for (const char *q = p->text; q < at; q++) {
		l.col = *q == '\n' ? 1 : l.col + 1;
		l.line += *q == '\n';
	}
	return l;
}

/* herd's splitter ends the init block at the '}' that balances its '{',
 * counting the braces inside comments too: where that is not the '}'
 * weft's reading reached (`close`), a brace in a comment makes the
 * difference, and herd refuses the test; so does weft, at that brace. */
static bool same_end_as_herd(parser *p, const char *open, const char *close)
{
	int depth = 0;
	const char *q = open + 1;
	for (; *q; q++)
		if (*q == '{')
			depth++;
		else if (*q == '}' && depth-- == 0)
			break;
	if (q == close)
		return true;
	int nest = 0;
	for (q = open + 1; q < close; q++) {
		if (q[0] == '(' && q[1] == '*') {
			nest++;
			q++;
		} else if (q[0] == '*' && q[1] == ')' && nest > 0) {
			nest--;
			q++;
		} else if (nest > 0 && (*q == '{' || *q == '}')) {
			break;
		}
	}
	diag_error(p->d, text_loc(p, q < close ? q : close), "a brace inside a comment of the init block: "
	           "herd's splitter counts it and ends the block elsewhere (it refuses the test)");
	return false;
}

bool parse_init(parser *p)
{
	token open = parser_next(p);
	if (open.kind != T_LBRACE) {
		parser_expected(p, &open, "'{' opening the init block");
		return false;
	}
	/* herd's list: entries separated by ';', with a ';' after the last
	 * and then one more allowed (`{;}`, `{ x=0;; }`); an empty entry
	 * anywhere else is an error, as in herd */
	token tok = parser_next(p);
	while (tok.kind != T_RBRACE) {
		if (tok.kind == T_EOF) {
			diag_error(p->d, open.loc, "unterminated init block: missing '}'");
			return false;
		}
		if (tok.kind == T_SEMI) {
			token semi = tok;
			tok = parser_next(p);
			if (tok.kind == T_RBRACE)
				break;
			diag_error(p->d, semi.loc, "empty entry in the init block");
			return false;
		}
		token next;
		if (!read_entry(p, tok, &next))
			return false;
		if (next.kind == T_SEMI) {
			tok = parser_next(p);
		} else if (next.kind == T_RBRACE) {
			tok = next;
		} else {
			parser_expected(p, &next, "';' or '}' in the init block");
			return false;
		}
	}
	if (!same_end_as_herd(p, open.start, tok.start))
		return false;
	p->t->n_init_instr_values = p->t->n_instr_values;
	/* The old syntax writes `};`. */
	if (!skip_space(&p->c, p->d, true))
		return false;
	if (*p->c.p == ';')
		cursor_advance(&p->c);
	return true;
}

/* Give the init block's register entries to their threads. */
bool apply_pending_regs(parser *p)
{
	litmus_test *t = p->t;
	/* per thread: which registers the init block has set */
	unsigned char **set = xcalloc((size_t)t->n_threads, sizeof *set);
	int *set_len = xcalloc((size_t)t->n_threads, sizeof *set_len);
	bool ok = true;
	for (int i = 0; ok && i < p->n_pending; i++) {
		pending_reg *pr = &p->pending[i];
		size_t len = strlen(pr->name);
		int th = pr->thread, reg = -1;
		if (th < 0) {
			/* `%x0=x`: a symbolic register, which belongs to the one
			 * thread whose code uses it. */
			lval_syntax ls = { .kind = LV_SYMREG, .thread = -1,
					   .name = { T_SYMREG, pr->name, len, pr->loc, 0 }, .loc = pr->loc };
			lval lv;
			ok = resolve_lval(p, &ls, &lv);
			th = lv.thread;
			reg = lv.reg;
		} else if (th >= t->n_threads) {
			diag_error(p->d, pr->loc, "thread P%d does not exist (the test has %d thread%s)",
				   th, t->n_threads, t->n_threads == 1 ? "" : "s");
			ok = false;
		} else {
			reg = parser_reg(p, &t->threads[th], pr->name, len, pr->name_loc);
			ok = reg >= 0;
		}
		if (!ok)
			break;
		thread *tp = &t->threads[th];
		if (set_len[th] < tp->n_regs) {
			set[th] = xrealloc(set[th], (size_t)tp->n_regs);
			memset(set[th] + set_len[th], 0, (size_t)(tp->n_regs - set_len[th]));
			set_len[th] = tp->n_regs;
		}
		if (set[th][reg]) {
			diag_error(p->d, pr->loc, "register %d:%s is initialised twice", th,
				   tp->regs[reg].name);
			ok = false;
			break;
		}
		set[th][reg] = 1;
		tp->regs[reg].init = pr->init;
		free(tp->regs[reg].type);
		tp->regs[reg].type = pr->type;
		pr->type = NULL;
	}
	for (int i = 0; i < t->n_threads; i++)
		free(set[i]);
	free(set);
	free(set_len);
	return ok;
}
