/* cat_identity.c — what a model is, whatever it is called.
 *
 * An engine may treat a model specially only for what it says, never for
 * its title or its file name (a user's retitled copy must behave exactly
 * as the original).  Two views of "what it says" are offered here:
 *
 *   fingerprint   an MD5 over the tokens of every file the model loaded
 *                 (stdlib.cat and includes too, in load order), with each
 *                 file's title left out.  Comments, layout and the title
 *                 do not change it; any other change does.  rsmc uses it
 *                 to recognise the models whose commit-before order is
 *                 proved and tested (cb.c).
 *   canonical definition   the text of a top-level binding in a fixed
 *                 form (fully parenthesised, no layout), when every name
 *                 in it is a built-in of the execution (po, rf, addr, W,
 *                 a fence set, ...).  A name the model itself binds could
 *                 mean anything, so such a definition has no canonical
 *                 form.  rsmc uses it to recognise a declared
 *                 `commit_before` that is one of its built-in orders and
 *                 compute it in C instead of through the evaluator.
 */
#include <stdlib.h>
#include <string.h>

#include "cat_int.h"
#include "analysis/cat_analysis.h"
#include "cat_lex.h"

void cat_tokens_digest(const cat_tokens *ts, int from, char hex[33])
{
	strbuf b = { 0 };
	for (int i = from; i < ts->n; i++) {
		const cat_token *t = &ts->t[i];
		/* kind, then the text: a separator no token contains */
		sb_printf(&b, "%d:", (int)t->kind);
		sb_putn(&b, t->text ? t->text : "", t->text ? t->len : 0);
		sb_putc(&b, '\x1e');
	}
	md5_hex(b.s ? b.s : "", b.len, hex);
	sb_free(&b);
}

void cat_model_set_fingerprint(cat_model *m)
{
	strbuf b = { 0 };
	for (int i = 0; i < m->nfiles; i++)
		sb_puts(&b, m->files[i]->digest);
	md5_hex(b.s ? b.s : "", b.len, m->fingerprint);
	sb_free(&b);
}

const char *cat_model_fingerprint(const cat_model *m)
{
	return m->fingerprint;
}

/* ---- canonical definitions -------------------------------------------------- */

static bool canon(const cat_model *m, const cat_ex *e, strbuf *b);

static bool canon_list(const cat_model *m, const cat_ex *e, const char *op, strbuf *b)
{
	sb_putc(b, '(');
	for (int i = 0; i < e->n; i++) {
		if (i)
			sb_puts(b, op);
		if (!canon(m, e->kids[i], b))
			return false;
	}
	sb_putc(b, ')');
	return true;
}

static bool canon_postfix(const cat_model *m, const cat_ex *e, const char *op, strbuf *b)
{
	sb_putc(b, '(');
	if (!canon(m, e->kids[0], b))
		return false;
	sb_puts(b, op);
	sb_putc(b, ')');
	return true;
}

static bool canon(const cat_model *m, const cat_ex *e, strbuf *b)
{
	switch (e->kind) {
	case CE_EMPTY_REL:
		sb_putc(b, '0');
		return true;
	case CE_UNIV:
		sb_putc(b, '_');
		return true;
	case CE_VAR:
		/* a built-in slot, or a fence set looked up in the execution */
		if (e->ref == REF_DYN ||
		    (e->ref == REF_GLOBAL && e->index >= 0 && e->index < m->nslots &&
		     m->slots[e->index].kind == SLOT_BUILTIN)) {
			sb_puts(b, e->name);
			return true;
		}
		return false;
	case CE_UNION: return canon_list(m, e, "|", b);
	case CE_SEQ: return canon_list(m, e, ";", b);
	case CE_INTER: return canon_list(m, e, "&", b);
	case CE_DIFF: return canon_list(m, e, "\\", b);
	case CE_PROD: return canon_list(m, e, "*", b);
	case CE_STAR: return canon_postfix(m, e, "*", b);
	case CE_PLUS: return canon_postfix(m, e, "+", b);
	case CE_OPT: return canon_postfix(m, e, "?", b);
	case CE_INV: return canon_postfix(m, e, "^-1", b);
	case CE_COMPL:
		sb_puts(b, "(~");
		if (!canon(m, e->kids[0], b))
			return false;
		sb_putc(b, ')');
		return true;
	case CE_TRY:
		sb_puts(b, "(try ");
		if (!canon(m, e->kids[0], b))
			return false;
		sb_puts(b, " with ");
		if (!canon(m, e->kids[1], b))
			return false;
		sb_putc(b, ')');
		return true;
	case CE_TOID:
		sb_putc(b, '[');
		if (!canon(m, e->kids[0], b))
			return false;
		sb_putc(b, ']');
		return true;
	default:
		return false;
	}
}

char *cat_model_canonical_definition(const cat_model *m, const char *name)
{
	int s = -1;
	for (int i = m->nslots - 1; i >= 0 && s < 0; i--)
		if (m->slots[i].name && !strcmp(m->slots[i].name, name))
			s = i;
	if (s < 0 || m->slots[s].kind != SLOT_LET || !m->slots[s].def)
		return NULL;
	strbuf b = { 0 };
	if (!canon(m, m->slots[s].def, &b)) {
		sb_free(&b);
		return NULL;
	}
	return sb_take(&b);
}
