/* parse_header.c — the first line (`ARCH NAME (alias) "doc"`), then the
 * preamble up to the init block: doc string, `key=value` lines, comments,
 * read by the rules of herd's splitter. */
#include <stdlib.h>
#include <string.h>

#include "parser.h"

static bool is_test_name_char(char ch)
{
	return is_alpha(ch) || is_digit(ch) || (ch && strchr("_/.-+[]", ch) != NULL);
}

static bool is_key_char(char ch)
{
	return is_alpha(ch) || is_digit(ch) || ch == '_' || ch == '/' || ch == '.' || ch == '-';
}

static char *trimmed_copy(const char *s, const char *e)
{
	while (s < e && is_blank(*s))
		s++;
	while (e > s && is_blank(e[-1]))
		e--;
	return xstrndup(s, (size_t)(e - s));
}

/* A "doc string": up to the next quote, over several lines if need be, as
 * herd's splitter reads it ([^'"']*).  Two corpus tests forget the closing
 * quote (the file has no other): herd's pattern then does not match, and
 * such a string is read up to the end of its line, with a warning. */
static bool read_doc(parser *p)
{
	cursor *c = &p->c;
	srcloc at = cursor_loc(c);
	if (p->t->doc) {
		diag_error(p->d, at, "a second doc string");
		return false;
	}
	cursor_advance(c);
	const char *s = c->p;
	bool closed = strchr(s, '"') != NULL;
	while (*c->p && *c->p != '"' && (closed || *c->p != '\n'))
		cursor_advance(c);
	const char *e = c->p;
	if (*c->p == '"') {
		cursor_advance(c);
	} else {
		diag_warning(p->d, at, "unterminated doc string (read up to the end of the line)");
		while (e > s && is_blank(e[-1]))
			e--;
	}
	p->t->doc = xstrndup(s, (size_t)(e - s));
	return true;
}

/* Rest of the header line after the name, as herd's splitter reads it:
 * an optional `(alias)`, an optional doc string (on this line or alone on
 * the next), an optional `;`.  Whatever follows is the preamble's. */
static bool header_tail(parser *p)
{
	cursor *c = &p->c;
	while (is_blank(*c->p))
		cursor_advance(c);
	if (*c->p == '(') {
		/* herd wants no blank inside; weft allows them (one old PPC
		 * test writes `(PPCMElevenLwsync )`); the alias is only shown
		 * by -dump */
		const char *s = c->p + 1;
		while (is_blank(*s))
			s++;
		const char *e = s;
		while (is_key_char(*e))
			e++;
		const char *close = e;
		while (is_blank(*close))
			close++;
		if (is_alpha(*s) && *close == ')') {
			p->t->alias = xstrndup(s, (size_t)(e - s));
			while (c->p <= close)
				cursor_advance(c);
			while (is_blank(*c->p))
				cursor_advance(c);
		}
	}
	const char *q = c->p + (*c->p == '\n');
	while (is_blank(*q))
		q++;
	if (*q == '"') {
		while (c->p < q)
			cursor_advance(c);
		if (!read_doc(p))
			return false;
		while (is_blank(*c->p))
			cursor_advance(c);
	}
	if (*c->p == ';')
		cursor_advance(c);
	return true;
}

/* Key `key` and the line's text after its '=' in [v, e). */
static void add_meta(parser *p, char *key, const char *v, const char *e)
{
	litmus_test *t = p->t;
	GROW(t->meta, p->meta_cap, (size_t)t->n_meta + 1);
	char *value = trimmed_copy(v, e);
	while (v < e && is_blank(*v))
		v++;
	if (e > v && e[-1] == '\r')   /* a CRLF line's CR is not herd's text */
		e--;
	t->meta[t->n_meta].key = key;
	t->meta[t->n_meta].value = value;
	t->meta[t->n_meta].written = xstrndup(v, (size_t)(e - v));
	t->n_meta++;
	if (!strcmp(key, "Hash")) {
		free(t->hash);
		t->hash = xstrdup(value);
	}
}

static const char *supported_archs(strbuf *b)
{
	const arch *const *all = arch_all();
	for (int i = 0; all[i]; i++)
		sb_printf(b, "%s%s", i ? ", " : "", all[i]->name);
	return b->s ? b->s : "";
}

/* A `key=value` line at the cursor, as herd's splitter takes one: the
 * key at the start of a piece, the value up to the newline, which must
 * come (an optional '\r' before it, no other).  Its end, or NULL. */
static const char *key_line_end(const char *s)
{
	if (!is_alpha(*s))
		return NULL;
	while (is_key_char(*s))
		s++;
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	if (*s != '=')
		return NULL;
	while (*s && *s != '\n' && *s != '\r')
		s++;
	if (*s == '\r')
		s++;
	return *s == '\n' ? s : NULL;
}

static bool take_key_line(parser *p, const char *end)
{
	cursor *c = &p->c;
	srcloc key_at = cursor_loc(c);
	const char *s = c->p;
	while (is_key_char(*c->p))
		cursor_advance(c);
	const char *key_end = c->p;
	while (*c->p != '=')
		cursor_advance(c);
	cursor_advance(c);
	const char *v = c->p;
	while (c->p < end)
		cursor_advance(c);
	add_meta(p, xstrndup(s, (size_t)(key_end - s)), v, c->p);
	if (!parse_test_variants(p, &p->t->meta[p->t->n_meta - 1], key_at))
		return false;
	/* herd's hardware updates of the access flag and dirty bit
	 * change which accesses fault: weft models none of them */
	if ((size_t)(key_end - s) == 4 && !strncmp(s, "TTHM", 4)) {
		diag_error(p->d, key_at, "hardware updates of the access flag and dirty bit (TTHM=%s) are "
		           "not supported", p->t->meta[p->t->n_meta - 1].value);
		return false;
	}
	if ((size_t)(key_end - s) == 3 && !strncmp(s, "EL0", 3)) {
		p->el0_meta = p->t->n_meta - 1;
		p->el0_at = key_at;
	}
	return true;
}

/* A piece of text herd skips, up to the newline or a '{'.  `depth` counts
 * the `(*` it has seen open over such pieces, so that the lines of a
 * comment are not taken for prose: only prose gets the warning (once,
 * `*warned`), and only prose is refused for control bytes. */
static bool skip_text(parser *p, int *depth, bool *warned)
{
	cursor *c = &p->c;
	const char *s = c->p;
	while (is_blank(*s))
		s++;
	bool prose = *depth == 0 && *s != '\n' && *s != '{' && *s && !(s[0] == '(' && s[1] == '*');
	if (prose && !*warned) {
		/* herd skips it (a few tests have a stray line of prose here) */
		diag_warning(p->d, cursor_loc_at(c, s), "ignoring unrecognised text before the init block");
		*warned = true;
	}
	while (*c->p && *c->p != '\n' && *c->p != '{') {
		if (prose && is_junk(*c->p)) {
			diag_error(p->d, cursor_loc(c), "unexpected byte 0x%02x", (unsigned char)*c->p);
			return false;
		}
		if (c->p[0] == '(' && c->p[1] == '*') {
			++*depth;
			cursor_advance(c);
		} else if (c->p[0] == '*' && c->p[1] == ')' && *depth > 0) {
			--*depth;
			cursor_advance(c);
		}
		cursor_advance(c);
	}
	return true;
}

/* Is there a `(*` before the cursor on its line? */
static bool opens_comment_on_line(const cursor *c)
{
	for (const char *q = c->bol; q + 1 < c->p; q++)
		if (q[0] == '(' && q[1] == '*')
			return true;
	return false;
}

/* The preamble, from the end of the header to the init block's '{', read
 * piece by piece as herd's splitter reads it (a piece starts a line, or
 * follows the header or a comment): a key=value line; `(*` that ends its
 * line, which opens a comment (nested, that must close); a '{', the init
 * block; else text up to the end of the line or a '{', skipped.  So a
 * `(* ...` with more on its line is text and need not close (herd runs
 * such tests), while a '{' on a comment's line opens the init block. */
static bool read_preamble(parser *p)
{
	cursor *c = &p->c;
	int depth = 0;
	bool warned = false;
	for (;;) {
		char ch = *c->p;
		if (ch == '\n') {
			cursor_advance(c);
		} else if (ch == '{') {
			if (opens_comment_on_line(c))
				diag_warning(p->d, cursor_loc(c), "this '{' opens the init block, as in herd: "
				             "a line that starts a '(*' comment and goes on is text up to a brace");
			return true;
		} else if (ch == '\0') {
			diag_error(p->d, cursor_loc(c), "missing init block '{ ... }'");
			return false;
		} else if (ch == '(' && c->p[1] == '*' && (c->p[2] == '\n' || c->p[2] == '{' || !c->p[2])) {
			if (!skip_comment(c, p->d))
				return false;
		} else if (ch == '"' && !p->t->doc) {
			if (!read_doc(p))
				return false;
		} else {
			const char *end = key_line_end(c->p);
			if (end ? !take_key_line(p, end) : !skip_text(p, &depth, &warned))
				return false;
		}
	}
}

bool parse_header(parser *p)
{
	cursor *c = &p->c;
	litmus_test *t = p->t;
	srcloc arch_at = cursor_loc(c);
	const char *first = c->p;
	if (!skip_space(c, p->d, true))
		return false;
	if (*c->p == '\0') {
		diag_error(p->d, cursor_loc(c), "empty test: expected a header 'ARCH NAME'");
		return false;
	}
	if (c->p != first) {
		/* herd's splitter wants the header at the very start */
		diag_error(p->d, arch_at, "the header 'ARCH NAME' must start the file (no blank, blank "
		           "line or comment before it)");
		return false;
	}
	const char *s = c->p;
	while (is_alpha(*c->p) || is_digit(*c->p) || *c->p == '_')
		cursor_advance(c);
	if (c->p == s) {
		diag_error(p->d, arch_at, "expected a header 'ARCH NAME'");
		return false;
	}
	t->arch_name = xstrndup(s, (size_t)(c->p - s));
	p->arch = t->arch = arch_find(t->arch_name);
	if (!p->arch) {
		strbuf b = { 0 };
		diag_error(p->d, arch_at, "unknown architecture '%s' (weft knows %s)", t->arch_name,
			   supported_archs(&b));
		sb_free(&b);
		return false;
	}
	if (!is_blank(*c->p) && *c->p != '\n' && *c->p != '\0') {
		diag_error(p->d, cursor_loc(c), "unexpected character after the architecture name");
		return false;
	}
	while (is_blank(*c->p))
		cursor_advance(c);
	srcloc name_at = cursor_loc(c);
	s = c->p;
	while (is_test_name_char(*c->p))
		cursor_advance(c);
	if (c->p == s) {
		diag_error(p->d, name_at, "expected a test name after '%s'", t->arch_name);
		return false;
	}
	size_t n = (size_t)(c->p - s);
	if (n > 7 && !memcmp(c->p - 7, ".litmus", 7))
		n -= 7;
	t->name = xstrndup(s, n);
	if (!is_blank(*c->p) && *c->p != '\n' && *c->p != '\0' && *c->p != '(' && *c->p != '"' &&
	    *c->p != ';') {
		diag_error(p->d, cursor_loc(c), "unexpected character in the test name");
		return false;
	}
	return header_tail(p) && read_preamble(p);
}
