/* c_threads.c — the thread functions of a C test, P0(params) { body }, in
 * order, up to where the condition starts (as herd's splitter finds it:
 * exists, ~exists, forall, final, locations, filter). */
#include <stdlib.h>
#include <string.h>

#include "../arch/arch.h"
#include "c_int.h"


static void func_free(c_func *f)
{
	free(f->hash_cell);
	for (int i = 0; i < f->n_params; i++) {
		free(f->params[i]);
		free(f->param_types[i]);
	}
	free(f->params);
	free(f->param_types);
	c_st_free(f->body);
}

static bool at_constraints(const c_token *t)
{
	static const char *const words[] = { "exists", "forall", "final", "locations", "filter", "observed", "~" };
	for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
		if (c_tok_is(t, words[i]))
			return true;
	return false;
}

/* Is `ok`?  Else "expected WHAT" at the token (unless the lexer said
 * why already). */
static bool want(c_lexer *lx, bool ok, const char *what)
{
	if (!ok && lx->tok.kind != CT_ERROR)
		diag_error(lx->d, lx->tok.loc, "expected %s", what);
	return ok;
}

/* herd's memory map after the threads, `regions: x:R1 R2, y:R3` (its
 * BellExtra, which bell files that declare regions read): read, and not
 * used, as no model weft runs reads it.  At `regions`; false after an
 * error. */
static bool skip_regions(c_lexer *lx)
{
	c_lex_next(lx);
	if (!want(lx, c_tok_is(&lx->tok, ":"), "':' after regions"))
		return false;
	c_lex_next(lx);
	while (lx->tok.kind == CT_NAME && !at_constraints(&lx->tok)) {
		c_lex_next(lx);
		if (!want(lx, c_tok_is(&lx->tok, ":"), "'location:region ...' in the regions"))
			return false;
		c_lex_next(lx);
		if (!want(lx, lx->tok.kind == CT_NAME, "a region's name"))
			return false;
		while (lx->tok.kind == CT_NAME && !at_constraints(&lx->tok))
			c_lex_next(lx);
		if (!c_tok_is(&lx->tok, ","))
			break;
		c_lex_next(lx);
	}
	return lx->tok.kind != CT_ERROR;
}

/* `P<n>`: n, or -1. */
static int proc_number(const c_token *t)
{
	if (t->kind != CT_NAME || t->len < 2 || t->text[0] != 'P' || t->len > 6)
		return -1;
	int n = 0;
	for (int i = 1; i < t->len; i++) {
		if (t->text[i] < '0' || t->text[i] > '9')
			return -1;
		n = n * 10 + (t->text[i] - '0');
	}
	return n;
}

/* The parameter list after `(`: `type *name, ...`. */
static bool read_params(c_lexer *lx, c_func *f)
{
	size_t cap = 0;
	c_lex_next(lx);
	if (c_tok_is(&lx->tok, ")")) {
		c_lex_next(lx);
		return true;
	}
	for (;;) {
		const char *start = lx->tok.text;
		srcloc at = lx->tok.loc;
		if (!c_parse_type(lx)) {
			if (lx->tok.kind != CT_ERROR)
				diag_error(lx->d, at, "expected a parameter such as 'int *x'");
			return false;
		}
		if (lx->tok.kind != CT_NAME) {
			if (lx->tok.kind != CT_ERROR)
				diag_error(lx->d, lx->tok.loc, "expected the parameter's name");
			return false;
		}
		const char *tend = lx->tok.text;
		while (tend > start && (tend[-1] == ' ' || tend[-1] == '\t' || tend[-1] == '\n'))
			tend--;
		/* a parameter is a register holding its location's address:
		 * herd's grammar takes pointers only (`int y` is a syntax error
		 * there), so an integer parameter would run as a pointer here */
		if (!memchr(start, '*', (size_t)(tend - start))) {
			diag_error(lx->d, lx->tok.loc,
			           "parameter '%.*s' of P%d is not a pointer: a thread's parameters are the "
			           "locations it shares, as in 'int *%.*s' (herd7: unexpected '%.*s' (in prog) "
			           "(User error))", lx->tok.len, lx->tok.text, f->proc, lx->tok.len, lx->tok.text,
			           lx->tok.len, lx->tok.text);
			return false;
		}
		for (int i = 0; i < f->n_params; i++)
			if ((int)strlen(f->params[i]) == lx->tok.len && !memcmp(f->params[i], lx->tok.text, (size_t)lx->tok.len)) {
				diag_error(lx->d, lx->tok.loc, "parameter '%.*s' named twice", lx->tok.len, lx->tok.text);
				return false;
			}
		size_t c2 = cap;
		GROW(f->params, cap, (size_t)f->n_params + 1);
		GROW(f->param_types, c2, (size_t)f->n_params + 1);
		f->param_types[f->n_params] = xstrndup(start, (size_t)(tend - start));
		f->params[f->n_params++] = xstrndup(lx->tok.text, (size_t)lx->tok.len);
		c_lex_next(lx);
		int more = c_lex_list_next(lx, "after a parameter");
		if (more < 0)
			return false;
		if (!more)
			return true;
	}
}

bool c_read_threads(litmus_test *t, c_text_pos *pos, const c_macros *m, diag *d)
{
	c_lexer lx;
	c_lex_init(&lx, t->file, pos->p, pos->bol, pos->line, d);
	lx.herd_comments = true;
	c_func *fs = NULL;
	size_t cap = 0;
	int n = 0;
	bool ok = true;
	c_lex_next(&lx);
	for (;;) {
		c_token tk = lx.tok;
		if (tk.kind == CT_ERROR) {
			ok = false;
			break;
		}
		if (tk.kind == CT_EOF || at_constraints(&tk)) {
			pos->p = tk.text;
			pos->line = tk.loc.line;
			pos->bol = tk.text - (tk.loc.col - 1);
			break;
		}
		if (c_tok_is(&tk, "regions")) {
			if (!skip_regions(&lx)) {
				ok = false;
				break;
			}
			continue;
		}
		/* herd also reads `void P0(...)` */
		if (c_tok_is(&tk, "static") || c_tok_is(&tk, "void")) {
			c_lex_next(&lx);
			continue;
		}
		int proc = proc_number(&tk);
		if (proc < 0) {
			diag_error(d, tk.loc, "expected a thread 'P%d(...) { ... }' or the final condition, found '%.*s'",
			           n, tk.len, tk.text);
			ok = false;
			break;
		}
		if (proc != n) {
			diag_error(d, tk.loc, "threads must be P0, P1, ... in order: expected P%d, found P%d", n, proc);
			ok = false;
			break;
		}
		if (n >= C_MAX_THREADS) {
			diag_error(d, tk.loc, "more than %d threads", C_MAX_THREADS);
			ok = false;
			break;
		}
		GROW(fs, cap, (size_t)n + 1);
		c_func *f = &fs[n++];
		memset(f, 0, sizeof *f);
		f->proc = proc;
		f->loc = tk.loc;
		c_lex_next(&lx);
		if (!c_tok_is(&lx.tok, "(")) {
			diag_error(d, lx.tok.loc, "expected '(' after P%d", proc);
			ok = false;
			break;
		}
		lx.herd_comments = false;
		if (!read_params(&lx, f)) {
			ok = false;
			break;
		}
		if (!c_tok_is(&lx.tok, "{")) {
			if (lx.tok.kind != CT_ERROR)
				diag_error(d, lx.tok.loc, "expected the body '{' of P%d", proc);
			ok = false;
			break;
		}
		const char *open = lx.tok.text, *close = c_raw_body_end(open);
		if (close)
			f->hash_cell = c_hash_cell(f, open + 1, (size_t)(close - open - 1));
		f->body = c_parse_block(&lx);
		lx.herd_comments = true;
		if (!f->body) {
			ok = false;
			break;
		}
	}
	if (ok && n == 0) {
		diag_error(d, lx.tok.loc, "no thread: expected P0(...) { ... }");
		ok = false;
	}
	if (ok) {
		t->threads = xcalloc((size_t)n, sizeof *t->threads);
		t->n_threads = n;
		for (int i = 0; i < n; i++)
			t->threads[i].id = i;
		for (int i = 0; i < n && ok; i++)
			ok = c_lower_thread(t, &fs[i], m, d);
		/* all or nothing: a test whose text herd could not split
		 * hashes as its instructions instead */
		bool cells = true;
		for (int i = 0; i < n; i++)
			cells = cells && fs[i].hash_cell;
		if (ok && cells) {
			t->code_cells = xcalloc((size_t)n, sizeof *t->code_cells);
			t->n_code_cells = n;
			for (int i = 0; i < n; i++) {
				t->code_cells[i] = fs[i].hash_cell;
				fs[i].hash_cell = NULL;
			}
		}
	}
	for (int i = 0; i < n; i++)
		func_free(&fs[i]);
	free(fs);
	return ok;
}
