/* c_macros.c — herd's macro files (.def): one macro a definition,
 *
 *     READ_ONCE(X) __load{ONCE}(X)              an expression macro
 *     WRITE_ONCE(X,V) { __store{ONCE}(X,V); }   a statement macro
 *
 * with // and C comments.  Bodies are read by c_parse.c; their names are
 * parameters, other macros or herd's primitives, resolved when a test
 * uses them (c_lower.c), so a user's edited .def works as herd reads it.
 */
#include <stdlib.h>
#include <string.h>

#include "c_int.h"

void c_macros_free(c_macros *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->n; i++) {
		c_macro *k = &m->v[i];
		free(k->name);
		for (int j = 0; j < k->n_params; j++)
			free(k->params[j]);
		free(k->params);
		c_ex_free(k->expr);
		c_st_free(k->body);
	}
	free(m->v);
	free(m->file);
	free(m);
}

const c_macro *c_macro_find(const c_macros *m, const char *name)
{
	if (!m)
		return NULL;
	/* a later definition replaces an earlier one, as herd's list does */
	for (int i = m->n - 1; i >= 0; i--)
		if (!strcmp(m->v[i].name, name))
			return &m->v[i];
	return NULL;
}

static bool read_params(c_lexer *lx, c_macro *k)
{
	size_t cap = 0;
	c_lex_next(lx);   /* ( */
	if (c_tok_is(&lx->tok, ")")) {
		c_lex_next(lx);
		return true;
	}
	for (;;) {
		if (lx->tok.kind != CT_NAME) {
			if (lx->tok.kind != CT_ERROR)
				diag_error(lx->d, lx->tok.loc, "expected a macro parameter name");
			return false;
		}
		GROW(k->params, cap, (size_t)k->n_params + 1);
		k->params[k->n_params++] = xstrndup(lx->tok.text, (size_t)lx->tok.len);
		c_lex_next(lx);
		int more = c_lex_list_next(lx, "in the macro's parameters");
		if (more < 0)
			return false;
		if (!more)
			return true;
	}
}

c_macros *c_macros_read(const char *path, diag *d)
{
	size_t len;
	char *text = read_whole_file(path, &len, d);
	if (!text)
		return NULL;
	c_macros *m = xcalloc(1, sizeof *m);
	m->file = xstrdup(path);
	size_t cap = 0;
	int errors = d->errors;
	if (strlen(text) != len) {
		srcloc at = { m->file, 1, 1 };
		diag_error(d, at, "NUL byte in the macro file (not a text file?)");
	}
	c_lexer lx;
	c_lex_init(&lx, m->file, text, text, 1, d);
	c_lex_next(&lx);
	while (d->errors == errors && lx.tok.kind != CT_EOF) {
		if (lx.tok.kind != CT_NAME) {
			if (lx.tok.kind != CT_ERROR)
				diag_error(d, lx.tok.loc, "expected a macro definition 'NAME(PARAMS) BODY'");
			break;
		}
		c_macro k;
		memset(&k, 0, sizeof k);
		k.loc = lx.tok.loc;
		k.name = xstrndup(lx.tok.text, (size_t)lx.tok.len);
		c_lex_next(&lx);
		bool ok = c_tok_is(&lx.tok, "(");
		if (!ok)
			diag_error(d, lx.tok.loc, "expected '(' after macro name '%s'", k.name);
		ok = ok && read_params(&lx, &k);
		if (ok && c_tok_is(&lx.tok, "{")) {
			k.body = c_parse_block(&lx);
			ok = k.body != NULL;
		} else if (ok) {
			k.expr = c_parse_expr(&lx);
			ok = k.expr != NULL;
		}
		GROW(m->v, cap, (size_t)m->n + 1);
		m->v[m->n++] = k;
		if (!ok)
			break;
	}
	free(text);
	if (d->errors != errors) {
		c_macros_free(m);
		return NULL;
	}
	return m;
}
