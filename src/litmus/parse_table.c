/* parse_table.c — the thread table.
 *
 *      P0           | P1           ;      header row: P0 .. Pn-1 in order
 *      li r1,1      | L0:          ;      rows: `|`-separated cells, `;` ends
 *      stw r1,0(r2) | lwz r1,0(r2) ;      a row (on the same line)
 *
 * A row may have fewer cells than there are threads.  A cell may start with
 * labels `L0:` and may hold only labels; the instruction text that remains is
 * handed to the architecture's translator.  The table ends where the
 * constraints start (a line beginning with exists, ~exists, forall, final,
 * locations, filter, ...), as in herd.  Comments may appear anywhere.
 * Branch labels are resolved when a thread is complete.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "parser.h"

/* One cell as read: text with comments blanked, and where it starts. */
typedef struct cell {
	strbuf text;
	srcloc loc;      /* of the first non-blank byte (or of the cell) */
	srcloc bar;      /* of the `|` or `;` that ends the cell          */
} cell;

typedef struct row {
	int n;
	size_t cap;
	cell *cells;
} row;

static void row_clear(row *r)
{
	for (int i = 0; i < r->n; i++)
		sb_free(&r->cells[i].text);
	r->n = 0;
}

static bool is_word_char(char ch) { return is_alpha(ch) || is_digit(ch) || ch == '_'; }

/* Words that end the program part of a test (herd's splitter). */
static bool at_constraints(const char *s)
{
	static const char *const words[] = {
		"exists", "forall", "final", "locations", "filter", "observed", "Observed", "cases",
	};
	/* `~exists`, and herd's bare `(prop)` (no instruction starts with a
	 * parenthesis; `(*` is a comment and was skipped already) */
	if (*s == '~' || *s == '(')
		return true;
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
		size_t n = strlen(words[i]);
		if (!strncmp(s, words[i], n) && !is_word_char(s[n]))
			return true;
	}
	return false;
}

/* Read one row into `r`.  *end is set when the table is over instead. */
static bool read_row(parser *p, row *r, bool *end)
{
	cursor *c = &p->c;
	row_clear(r);
	*end = false;
	if (!skip_space(c, p->d, true))
		return false;
	if (*c->p == '\0' || at_constraints(c->p)) {
		*end = true;
		return true;
	}
	srcloc row_at = cursor_loc(c);
	for (;;) {
		GROW(r->cells, r->cap, (size_t)r->n + 1);
		cell *cl = &r->cells[r->n++];
		memset(cl, 0, sizeof *cl);
		cl->loc = cursor_loc(c);
		bool started = false;
		for (;;) {
			char ch = *c->p;
			if (ch == '\0' || ch == '\n') {
				diag_error(p->d, cursor_loc(c),
					   "missing ';' at the end of the table row started at line %d",
					   row_at.line);
				return false;
			}
			if (ch == '(' && c->p[1] == '*') {
				if (!skip_comment(c, p->d))
					return false;
				sb_putc(&cl->text, ' ');
				continue;
			}
			if (ch == '|' || ch == ';') {
				cl->bar = cursor_loc(c);
				cursor_advance(c);
				break;
			}
			if (is_junk(ch)) {
				diag_error(p->d, cursor_loc(c), "unexpected byte 0x%02x in the thread table",
					   (unsigned char)ch);
				return false;
			}
			if (!started && !is_blank(ch)) {
				started = true;
				cl->loc = cursor_loc(c);
			}
			sb_putc(&cl->text, ch);
			cursor_advance(c);
		}
		if (c->p[-1] == ';')
			return true;
	}
}

/* Trimmed view of a cell's text. */
static const char *cell_trim(cell *cl, size_t *len)
{
	const char *s = cl->text.s ? cl->text.s : "";
	size_t n = cl->text.len;
	while (n > 0 && is_blank(*s)) {
		s++;
		n--;
	}
	while (n > 0 && is_blank(s[n - 1]))
		n--;
	*len = n;
	return s;
}

static bool header_row(parser *p, row *r)
{
	litmus_test *t = p->t;
	if (r->n > LITMUS_MAX_THREADS) {
		diag_error(p->d, r->cells[0].loc, "too many threads (at most %d)", LITMUS_MAX_THREADS);
		return false;
	}
	for (int i = 0; i < r->n; i++) {
		size_t n;
		const char *s = cell_trim(&r->cells[i], &n);
		char want[16];
		snprintf(want, sizeof want, "P%d", i);
		if (n > 3 && s[0] == 'P' && !memcmp(s + n - 2, ".F", 2)) {
			/* herd's vmsa: the fault handler of thread P0, run when
			 * one of its instructions faults */
			diag_error(p->d, r->cells[i].loc, "fault handlers ('%.*s', a thread's handler column) are not "
			           "supported", n > 40 ? 40 : (int)n, s);
			return false;
		}
		if (n != strlen(want) || memcmp(s, want, n) != 0) {
			diag_error(p->d, r->cells[i].loc,
				   "expected '%s' in the thread table header, found '%.*s'", want,
				   n > 40 ? 40 : (int)n, s);
			return false;
		}
	}
	t->n_threads = r->n;
	t->threads = xcalloc((size_t)r->n, sizeof *t->threads);
	for (int i = 0; i < r->n; i++)
		t->threads[i].id = i;
	return true;
}

/* herd's lexers take a label starting with '.' too (AArch64's `.text:`) */
static bool is_label_start(char ch) { return is_alpha(ch) || ch == '_' || ch == '.'; }
static bool is_label_char(char ch) { return is_word_char(ch) || ch == '.'; }

static bool add_label(parser *p, thread *th, const char *name, size_t len, srcloc at)
{
	for (int i = 0; i < th->n_labels; i++)
		if (strlen(th->labels[i].name) == len && !memcmp(th->labels[i].name, name, len)) {
			diag_error(p->d, at, "label '%.*s' defined twice in thread P%d", (int)len, name,
				   th->id);
			return false;
		}
	if (++p->n_labels > LITMUS_MAX_INSTRS) {
		diag_error(p->d, at, "too many labels (at most %d)", LITMUS_MAX_INSTRS);
		p->fatal = true;
		return false;
	}
	GROW_IMPLIED(th->labels, th->n_labels);
	th->labels[th->n_labels].name = xstrndup(name, len);
	th->labels[th->n_labels].op = th->n_ops;
	th->labels[th->n_labels].instr = th->n_instrs;
	th->n_labels++;
	return true;
}

/* One cell of thread `th`: labels, then an instruction. */
static bool table_cell(parser *p, thread *th, cell *cl)
{
	size_t n;
	const char *s = cell_trim(cl, &n);
	const char *start = s;
	/* `NAME:` prefixes are labels. */
	for (;;) {
		size_t k = 0;
		if (k < n && is_label_start(s[k]))
			while (k < n && is_label_char(s[k]))
				k++;
		if (k == 0 || k >= n || s[k] != ':')
			break;
		srcloc at = cl->loc;
		at.col += (int)(s - start);
		if (!add_label(p, th, s, k, at))
			return false;
		s += k + 1;
		n -= k + 1;
		while (n > 0 && is_blank(*s)) {
			s++;
			n--;
		}
	}
	if (n == 0)
		return true;

	litmus_test *t = p->t;
	srcloc at = cl->loc;
	at.col += (int)(s - start);
	if (++p->n_instrs > LITMUS_MAX_INSTRS) {
		diag_error(p->d, at, "too many instructions (at most %d)", LITMUS_MAX_INSTRS);
		p->fatal = true;
		return false;
	}
	GROW_IMPLIED(th->instrs, th->n_instrs);
	int idx = th->n_instrs++;
	instr *in = &th->instrs[idx];
	in->text = xstrndup(s, n);
	in->loc = at;
	in->first_op = th->n_ops;
	in->n_ops = 0;

	arch_ctx ctx = { t, th, idx, at, p->d };
	int errors = p->d->errors;
	bool ok = p->arch->translate(&ctx, th->instrs[idx].text);
	in = &th->instrs[idx];
	in->n_ops = th->n_ops - in->first_op;
	if (!ok && p->d->errors == errors)
		diag_error(p->d, at, "cannot translate %s instruction '%s'", p->arch->name, in->text);
	if (ok && t->n_locs > LITMUS_MAX_LOCS) {
		diag_error(p->d, at, "too many memory locations (at most %d)", LITMUS_MAX_LOCS);
		ok = false;
		p->fatal = true;
	}
	if (ok && th->n_regs > LITMUS_MAX_REGS) {
		diag_error(p->d, at, "too many registers in thread P%d (at most %d)", th->id,
			   LITMUS_MAX_REGS);
		ok = false;
		p->fatal = true;
	}
	return ok;
}

/* Turn every branch's label into an op index. */
static bool resolve_branches(parser *p, thread *th)
{
	bool ok = true;
	int reported = 0;
	for (int i = 0; i < th->n_ops; i++) {
		op *o = &th->ops[i];
		if (o->kind == OP_BRANCH && !o->label && o->target < 0 && o->cond != BR_INDIRECT)
			o->target = th->n_ops;   /* arch_add_exit: the end of the thread */
		/* a branch without a label and with a target (inside one
		 * instruction, as x86's CMPXCHG) is already resolved */
		if (o->kind != OP_BRANCH || !o->label)
			continue;
		int j, n_instr;
		if (sscanf(o->label, "#instr:%d", &n_instr) == 1 && n_instr >= 0 && n_instr <= th->n_instrs) {
			/* an offset branch (AArch64's `B .+8`): instruction N */
			o->target = n_instr < th->n_instrs ? th->instrs[n_instr].first_op : th->n_ops;
			continue;
		}
		for (j = 0; j < th->n_labels; j++)
			if (!strcmp(th->labels[j].name, o->label))
				break;
		if (j < th->n_labels) {
			o->target = th->labels[j].op;
			continue;
		}
		srcloc at = o->instr >= 0 && o->instr < th->n_instrs ? th->instrs[o->instr].loc
								      : cursor_loc(&p->c);
		diag_error(p->d, at, "unknown label '%s' in thread P%d", o->label, th->id);
		ok = false;
		if (++reported >= LITMUS_MAX_TABLE_ERRORS)
			break;
	}
	return ok;
}

bool parse_table(parser *p)
{
	row r = { 0 };
	bool end, ok = false;
	if (!read_row(p, &r, &end))
		goto out;
	if (end) {
		diag_error(p->d, cursor_loc(&p->c), "missing thread table (expected 'P0 | P1 ... ;')");
		goto out;
	}
	if (!header_row(p, &r))
		goto out;
	int errors = p->d->errors;
	for (;;) {
		if (!read_row(p, &r, &end))
			goto out;
		if (end)
			break;
		if (r.n > p->t->n_threads) {
			diag_error(p->d, r.cells[p->t->n_threads - 1].bar,
				   "row has %d cells but the test has %d thread%s", r.n, p->t->n_threads,
				   p->t->n_threads == 1 ? "" : "s");
			goto out;
		}
		for (int i = 0; i < r.n; i++) {
			if (table_cell(p, &p->t->threads[i], &r.cells[i]))
				continue;
			if (p->fatal)
				goto out;
			if (p->d->errors - errors >= LITMUS_MAX_TABLE_ERRORS) {
				diag_error(p->d, r.cells[i].loc, "too many errors, giving up");
				goto out;
			}
		}
	}
	for (int i = 0; i < p->t->n_threads; i++)
		if (!resolve_branches(p, &p->t->threads[i]) &&
		    p->d->errors - errors >= LITMUS_MAX_TABLE_ERRORS)
			break;
	ok = p->d->errors == errors;
out:
	row_clear(&r);
	free(r.cells);
	return ok;
}
