/* parse_state.c — what the init block and the conditions share: lvalues,
 * values, and finding or adding locations and registers. */
#include <stdlib.h>
#include <string.h>

#include "parser.h"

void grow_implied(void **arr, int n, size_t elem)
{
	if (n == 0)
		*arr = xrealloc(*arr, 4 * elem);
	else if (n >= 4 && (n & (n - 1)) == 0)
		*arr = xrealloc(*arr, 2 * (size_t)n * elem);
}

void parser_expected(parser *p, const token *t, const char *what)
{
	if (t->kind == T_ERROR)
		return;
	char buf[64];
	diag_error(p->d, t->loc, "expected %s, found %s", what, tok_describe(t, buf, sizeof buf));
}

int parser_loc(parser *p, const char *name, size_t len, srcloc at)
{
	char *s = xstrndup(name, len);
	arch_ctx ctx = { p->t, NULL, -1, at, p->d };
	int before = p->t->n_locs;
	int i = -1;
	if (prog_find_loc(p->t, s) >= 0 || before < LITMUS_MAX_LOCS)
		i = arch_loc(&ctx, s);
	else
		diag_error(p->d, at, "too many memory locations (at most %d)", LITMUS_MAX_LOCS);
	free(s);
	if (i >= 0 && !p->naming_wrapped) {
		size_t old_cap = p->loc_named_cap;
		GROW(p->loc_named, p->loc_named_cap, (size_t)i + 1);
		if (p->loc_named_cap > old_cap)
			memset(p->loc_named + old_cap, 0, p->loc_named_cap - old_cap);
		p->loc_named[i] = 1;
	}
	return i;
}

char *parser_canonical_reg(parser *p, const char *name, size_t len)
{
	char *s = xstrndup(name, len);
	const char *canon = p->arch->canonical_reg(s);
	char *r = canon ? xstrdup(canon) : NULL;
	free(s);
	return r;
}

int parser_reg(parser *p, thread *th, const char *name, size_t len, srcloc at)
{
	char *canon = parser_canonical_reg(p, name, len);
	if (!canon) {
		diag_error(p->d, at, "'%.*s' is not a register of %s", (int)len, name, p->arch->name);
		return -1;
	}
	int i = prog_find_reg(th, canon);
	if (i < 0) {
		if (th->n_regs >= LITMUS_MAX_REGS) {
			diag_error(p->d, at, "too many registers in thread P%d (at most %d)", th->id,
				   LITMUS_MAX_REGS);
			free(canon);
			return -1;
		}
		arch_ctx ctx = { p->t, th, -1, at, p->d };
		i = arch_reg(&ctx, canon);
	}
	if (strlen(canon) != len || strncmp(canon, name, len)) {
		free(th->regs[i].written);
		th->regs[i].written = xstrndup(name, len);
	}
	free(canon);
	return i;
}

/* `instr:"..."`: the instruction between the quotes, the cursor left
 * after the closing quote. */
static char *quoted_instr(parser *p, const token *t)
{
	cursor *c = &p->c;
	if (*c->p != ':')
		return NULL;
	cursor_advance(c);
	if (*c->p != '"') {
		diag_error(p->d, t->loc, "expected '\"' after 'instr:' (herd writes instr:\"NOP\")");
		return NULL;
	}
	cursor_advance(c);
	const char *s = c->p;
	while (*c->p && *c->p != '"' && *c->p != '\n')
		cursor_advance(c);
	if (*c->p != '"') {
		diag_error(p->d, t->loc, "unterminated instruction value (instr:\"...\")");
		return NULL;
	}
	char *text = xstrndup(s, (size_t)(c->p - s));
	cursor_advance(c);
	return text;
}

int parser_ifetch_value(parser *p, token *t, bool labels, value *out, char **written)
{
	if (written)
		*written = NULL;
	bool quoted = tok_is(t, "instr") && *p->c.p == ':';
	bool nop = tok_is(t, "NOP") || tok_is(t, "nop");
	bool label = labels && (t->kind == T_PROC || t->kind == T_NUM) && *p->c.p == ':';
	/* herd's label:"P1:L0" (as its states print a label value) */
	bool quoted_label = tok_is(t, "label") && p->c.p[0] == ':' && p->c.p[1] == '"';
	if (!quoted && !nop && !label && !quoted_label)
		return 0;
	/* AArch64 has code in memory without the ifetch variant too: herd
	 * reads label and instruction values, only fetches nothing */
	if (!p->t->ifetch && !(p->arch && p->arch->ifetch)) {
		diag_error(p->d, t->loc, "%s need herd's ifetch variant (a 'Variant=ifetch' line): "
		           "without it herd does not fetch instructions from memory",
		           label ? "labels as values ('1:L0')" : "instruction values ('NOP', 'instr:\"...\"')");
		return -1;
	}
	if (nop) {
		*out = prog_instr_value(p->t, "NOP");
		return 1;
	}
	if (quoted) {
		char *text = quoted_instr(p, t);
		if (!text)
			return -1;
		*out = prog_instr_value(p->t, text);
		if (written)
			*written = text;
		else
			free(text);
		return 1;
	}
	bool closing = false;
	token proc = *t;
	if (quoted_label) {
		/* `label:"P1:L0"`: the thread and label between the quotes */
		cursor_advance(&p->c);
		cursor_advance(&p->c);
		proc = parser_next(p);
		closing = true;
		if (proc.kind != T_PROC && proc.kind != T_NUM) {
			parser_expected(p, &proc, "a thread's label inside label:\"...\" ('P1:L0')");
			return -1;
		}
	}
	long th = (long)proc.num;
	token colon = parser_next(p), name = parser_next(p);
	if (colon.kind != T_COLON || name.kind != T_NAME) {
		parser_expected(p, &name, "a label after the thread ('1:L0')");
		return -1;
	}
	if (closing) {
		if (*p->c.p != '"') {
			diag_error(p->d, name.loc, "expected '\"' closing label:\"...\"");
			return -1;
		}
		cursor_advance(&p->c);
	}
	char *full = xasprintf("P%ld:%.*s", th, (int)name.len, name.start);
	int loc = parser_loc(p, full, strlen(full), name.loc);
	free(full);
	if (loc < 0)
		return -1;
	location *l = &p->t->locs[loc];
	if (l->code_thread < 0) {
		l->code_thread = (int)th;
		l->code_label = xstrndup(name.start, name.len);
	}
	p->label_use_at = xrealloc(p->label_use_at, (size_t)(p->n_label_uses + 1) * sizeof *p->label_use_at);
	p->label_use_loc = xrealloc(p->label_use_loc, (size_t)(p->n_label_uses + 1) * sizeof *p->label_use_loc);
	p->label_use_at[p->n_label_uses] = t->loc;
	p->label_use_loc[p->n_label_uses++] = loc;
	*out = value_addr(loc);
	return 1;
}

bool parser_value(parser *p, const token *t, value *out)
{
	if (p->t->vmsa) {
		bool handled;
		bool ok = parser_vmsa_value(p, t, out, &handled);
		if (handled)
			return ok;
	}
	if (t->kind == T_NUM) {
		*out = value_int(t->num);
		return true;
	}
	if (t->kind == T_NAME) {
		int loc = parser_loc(p, t->start, t->len, t->loc);
		if (loc < 0)
			return false;
		*out = value_addr(loc);
		if (*p->c.p == '[') {
			/* herd's value `x[N]` is x's address plus N (bytes,
			 * whatever x's type: its mk_sym_with_index) */
			token lb = parser_next(p), num = parser_next(p);
			token rb = num.kind == T_NUM ? parser_next(p) : num;
			if (lb.kind != T_LBRK || num.kind != T_NUM || rb.kind != T_RBRK) {
				parser_expected(p, &rb, "'x[N]', N a number");
				return false;
			}
			out->num = num.num;
		}
		return true;
	}
	parser_expected(p, t, "a value (an integer or a location name)");
	return false;
}

/* After vmsa's `PTE`: `(x)`, *var getting x's token. */
static bool pte_form_var(parser *p, token *var)
{
	token lp = parser_next(p);
	token name = parser_next(p);
	token rp = name.kind == T_NAME ? parser_next(p) : name;
	if (lp.kind != T_LPAR || name.kind != T_NAME || rp.kind != T_RPAR) {
		parser_expected(p, &rp, "PTE(variable)");
		return false;
	}
	*var = name;
	return true;
}

bool parse_lval_syntax(parser *p, token first, lval_syntax *out, token *next)
{
	out->loc = first.loc;
	out->thread = -1;
	out->pte = false;
	out->cell = false;
	out->index = 0;
	if (first.kind == T_PROC || first.kind == T_NUM) {
		if (first.num < 0 || first.num >= LITMUS_MAX_THREADS) {
			diag_error(p->d, first.loc, "'%.*s' is not a thread number", (int)first.len,
				   first.start);
			return false;
		}
		token colon = parser_next(p);
		if (colon.kind != T_COLON) {
			parser_expected(p, &colon, "':' after the thread number");
			return false;
		}
		token reg = parser_next(p);
		if (reg.kind != T_NAME && reg.kind != T_SYMREG) {
			parser_expected(p, &reg, "a register name");
			return false;
		}
		out->kind = LV_REG;
		out->thread = (int)first.num;
		out->name = reg;
	} else if (first.kind == T_SYMREG) {
		out->kind = LV_SYMREG;
		out->name = first;
	} else if (parser_refuse_vm_location(p, &first)) {
		return false;
	} else if (first.kind == T_NAME && parser_at_pte_form(p, &first)) {
		/* vmsa: PTE(x), as [PTE(x)] */
		out->kind = LV_LOC;
		out->pte = true;
		if (!pte_form_var(p, &out->name))
			return false;
	} else if (first.kind == T_NAME) {
		out->kind = LV_LOC;
		out->name = first;
		out->pte = false;
	} else if (first.kind == T_LBRK) {
		token name = parser_next(p);
		if (name.kind != T_NAME) {
			parser_expected(p, &name, "a location name inside '[ ]'");
			return false;
		}
		out->pte = false;
		if (parser_refuse_vm_location(p, &name))
			return false;
		if (parser_at_pte_form(p, &name)) {
			/* [PTE(x)] */
			if (!pte_form_var(p, &name))
				return false;
			out->pte = true;
		}
		token close = parser_next(p);
		if (close.kind != T_RBRK) {
			parser_expected(p, &close, "']'");
			return false;
		}
		out->kind = LV_LOC;
		out->name = name;
	} else {
		parser_expected(p, &first, "a register 'T:reg' or a location");
		return false;
	}
	*next = parser_next(p);
	return true;
}

bool parse_cell_index(parser *p, lval_syntax *ls, token *next)
{
	bool bare = ls->kind == LV_LOC && !ls->pte && ls->name.loc.line == ls->loc.line &&
	            ls->name.loc.col == ls->loc.col;
	if (!bare || next->kind != T_LBRK)
		return true;
	token num = parser_next(p);
	if (num.kind != T_NUM || num.num < 0) {
		parser_expected(p, &num, "a cell's index (a number, 0 or more)");
		return false;
	}
	token close = parser_next(p);
	if (close.kind != T_RBRK) {
		parser_expected(p, &close, "']' after a cell's index");
		return false;
	}
	ls->cell = true;
	ls->index = num.num > LITMUS_MAX_LOCS ? LITMUS_MAX_LOCS : (int)num.num;
	ls->index_at = num.loc;
	*next = parser_next(p);
	return true;
}

/* The cell `name[index]` of lvalue ls (ls->cell) at `loc`, the
 * location its name resolved to; -1 after an error in herd's words. */
static int cell_loc(parser *p, const lval_syntax *ls, int loc)
{
	const location *l = &p->t->locs[loc];
	if (l->array < 0) {
		diag_error(p->d, ls->index_at, "location %.*s is no array: it has no cell %d (herd7: 'Location "
			   "%.*s of type %s%s%s is used as an array')", (int)ls->name.len, ls->name.start,
			   ls->index, (int)ls->name.len, ls->name.start, l->type ? "Ty<" : "TyDef",
			   l->type ? l->type : "", l->type ? ">" : "");
		return -1;
	}
	const location *base = &p->t->locs[l->array];
	if (ls->index >= base->n_cells) {
		diag_error(p->d, ls->index_at, "array %.*s has %d cell%s: no cell %d (herd7: 'Out of bounds "
			   "access on array %.*s')", (int)ls->name.len, ls->name.start, base->n_cells,
			   base->n_cells == 1 ? "" : "s", ls->index, (int)ls->name.len, ls->name.start);
		return -1;
	}
	int cell;
	return prog_array_cell(p->t, l->array, (int64_t)ls->index * base->cell_bytes, 0, &cell) == CELL_OK ? cell
	                                                                                                : -1;
}

int parser_lval_loc(parser *p, const lval_syntax *ls)
{
	if (ls->pte)
		return parser_pte_loc(p, &ls->name);
	return parser_loc(p, ls->name.start, ls->name.len, ls->name.loc);
}

/* The thread using symbolic register `%name`, which must be unique. */
static int symreg_thread(parser *p, const lval_syntax *ls, int *reg)
{
	char *canon = parser_canonical_reg(p, ls->name.start, ls->name.len);
	if (!canon)
		canon = xstrndup(ls->name.start, ls->name.len);
	int found = -1, count = 0;
	for (int i = 0; i < p->t->n_threads; i++) {
		int r = prog_find_reg(&p->t->threads[i], canon);
		if (r >= 0) {
			if (count++ == 0) {
				found = i;
				*reg = r;
			}
		}
	}
	free(canon);
	if (count == 0)
		diag_error(p->d, ls->loc, "symbolic register '%.*s' is used by no thread",
			   (int)ls->name.len, ls->name.start);
	else if (count > 1)
		diag_error(p->d, ls->loc,
			   "symbolic register '%.*s' is used by several threads: write T:%.*s",
			   (int)ls->name.len, ls->name.start, (int)ls->name.len, ls->name.start);
	return count == 1 ? found : -1;
}

bool resolve_lval(parser *p, const lval_syntax *ls, lval *out)
{
	litmus_test *t = p->t;
	out->thread = -1;
	out->reg = -1;
	out->loc = -1;
	switch (ls->kind) {
	case LV_REG:
		if (ls->thread >= t->n_threads) {
			diag_error(p->d, ls->loc, "thread P%d does not exist (the test has %d thread%s)",
				   ls->thread, t->n_threads, t->n_threads == 1 ? "" : "s");
			return false;
		}
		out->thread = ls->thread;
		out->reg = parser_reg(p, &t->threads[ls->thread], ls->name.start, ls->name.len,
				      ls->name.loc);
		return out->reg >= 0;
	case LV_SYMREG:
		out->thread = symreg_thread(p, ls, &out->reg);
		return out->thread >= 0;
	case LV_LOC:
		out->loc = parser_lval_loc(p, ls);
		if (out->loc < 0)
			return false;
		if (ls->cell) {
			out->loc = cell_loc(p, ls, out->loc);
			out->reg = LVAL_CELL;
		} else if (t->locs[out->loc].array >= 0) {
			out->reg = LVAL_WHOLE;
		}
		return out->loc >= 0;
	}
	return false;
}
