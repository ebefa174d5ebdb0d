/* results_fast.c — weft's own -format yaml layout, read line by line.
 *
 * A campaign's saved results are tens of megabytes of YAML, and libyaml's
 * parser, an allocation per event, takes about a second for 10,000 tests;
 * a table is wanted at once.  weft writes its documents in one layout
 * (result_doc.c and doc_yaml.c: libyaml's emitter, no line width): `---`, then one
 * `key: value` line a field at the top, `run:` and `stats:` as one-line
 * flow mappings, `states:` as a block list whose items start with `- `.
 * This reader takes exactly that layout and nothing else: any line it does
 * not expect (a comment, a blank line, a multi-line scalar, an anchor, a
 * value it could not use) makes it give the whole file back, untouched, to
 * the libyaml reader (results_yaml.c), which reads any YAML and reports
 * errors where they are.  The two fill the same saved_doc, so they cannot
 * disagree on what a document means. */
#include <stdlib.h>
#include <string.h>

#include "results_int.h"

typedef struct cursor {
	const char *p, *end;   /* the rest of the line */
} cursor;

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A double-quoted scalar at c->p (past the opening quote): decoded into
 * *out; false when it does not end on this line or uses an escape this
 * reader leaves to libyaml. */
static bool double_quoted(cursor *c, strbuf *out)
{
	static const char plain[] = "\\\"/", from[] = "ntr0abefv", to[] = "\n\t\r\0\a\b\033\f\v";
	while (c->p < c->end) {
		char ch = *c->p++;
		if (ch == '"')
			return true;
		if (ch != '\\') {
			sb_putc(out, ch);
			continue;
		}
		if (c->p >= c->end)
			return false;
		char e = *c->p++;
		const char *k;
		if (strchr(plain, e)) {
			sb_putc(out, e);
		} else if ((k = strchr(from, e)) && e) {
			sb_putc(out, to[k - from]);
		} else if (e == 'x' || e == 'u') {
			int n = e == 'x' ? 2 : 4, v = 0;
			for (int i = 0; i < n; i++) {
				int h = c->p < c->end ? hex_digit(*c->p++) : -1;
				if (h < 0)
					return false;
				v = v * 16 + h;
			}
			if (v == 0 || v >= 0x80)
				return false;   /* NUL, or UTF-8 to encode: libyaml's job */
			sb_putc(out, (char)v);
		} else {
			return false;
		}
	}
	return false;
}

static bool single_quoted(cursor *c, strbuf *out)
{
	while (c->p < c->end) {
		char ch = *c->p++;
		if (ch != '\'') {
			sb_putc(out, ch);
		} else if (c->p < c->end && *c->p == '\'') {
			sb_putc(out, '\'');
			c->p++;
		} else {
			return true;
		}
	}
	return false;
}

/* A scalar at c->p into *out: quoted, or plain up to one of `stops` (the
 * line's end for a block value; ",]}" inside a flow collection). */
static bool scalar(cursor *c, strbuf *out, const char *stops)
{
	sb_reset(out);
	if (c->p < c->end && *c->p == '"')
		return c->p++, double_quoted(c, out);
	if (c->p < c->end && *c->p == '\'')
		return c->p++, single_quoted(c, out);
	/* what a plain scalar cannot start with, or would be more than text */
	if (c->p < c->end && strchr("[]{},#&*!|>%@`-?:", *c->p) && !(*c->p == '-' && c->p + 1 < c->end && c->p[1] != ' '))
		return false;
	const char *start = c->p;
	while (c->p < c->end && !strchr(stops, *c->p)) {
		if (*c->p == '#' && c->p > start && c->p[-1] == ' ')
			return false;   /* a comment */
		c->p++;
	}
	if (c->p == start || c->p[-1] == ' ')
		return false;
	sb_putn(out, start, (size_t)(c->p - start));
	return true;
}

static void blanks(cursor *c)
{
	while (c->p < c->end && *c->p == ' ')
		c->p++;
}

/* A key (plain word) and its ": ", at c->p, into *key. */
static bool key_of(cursor *c, strbuf *key)
{
	sb_reset(key);
	const char *start = c->p;
	while (c->p < c->end && (*c->p == '_' || (*c->p >= 'a' && *c->p <= 'z') || (*c->p >= 'A' && *c->p <= 'Z') ||
				 (*c->p >= '0' && *c->p <= '9')))
		c->p++;
	if (c->p == start || c->p >= c->end || *c->p != ':')
		return false;
	sb_putn(key, start, (size_t)(c->p - start));
	c->p++;
	if (c->p < c->end && *c->p != ' ')
		return false;
	blanks(c);
	return true;
}

/* A one-line flow mapping of run: or stats:, c->p past its '{'. */
static bool flow_mapping(cursor *c, saved_doc *x, enum doc_section sec, strbuf *key, strbuf *val)
{
	blanks(c);
	if (c->p < c->end && *c->p == '}')
		return c->p++, true;
	for (;;) {
		if (!key_of(c, key))
			return false;
		if (c->p < c->end && *c->p == '[') {
			/* run: models: [a, b] */
			if (sec != DOC_RUN || strcmp(key->s, "models"))
				return false;
			c->p++;
			blanks(c);
			if (c->p < c->end && *c->p == ']') {
				c->p++;
			} else {
				for (;;) {
					if (!scalar(c, val, ",]"))
						return false;
					saved_doc_model(x, val->s);
					blanks(c);
					if (c->p < c->end && *c->p == ']') {
						c->p++;
						break;
					}
					if (c->p >= c->end || *c->p != ',')
						return false;
					c->p++;
					blanks(c);
				}
			}
		} else {
			if (!scalar(c, val, ",}") || saved_doc_scalar(x, sec, key->s, val->s))
				return false;
		}
		blanks(c);
		if (c->p < c->end && *c->p == '}')
			return c->p++, true;
		if (c->p >= c->end || *c->p != ',')
			return false;
		c->p++;
		blanks(c);
	}
}

/* One top-level line `key: value` of document x.  *block is set to the
 * key when the value is a block list on the lines after it. */
static bool top_line(cursor *c, saved_doc *x, strbuf *key, strbuf *val, bool *block, bool *states)
{
	if (!key_of(c, key))
		return false;
	*block = false;
	*states = !strcmp(key->s, "states");
	if (c->p == c->end) {
		*block = true;   /* a block list follows: states, or skipped */
		return true;
	}
	bool wanted = !strcmp(key->s, "run") || !strcmp(key->s, "stats");
	if (*c->p == '{') {
		c->p++;
		if (!strcmp(key->s, "stats"))
			x->has_stats = true;
		if (wanted) {
			if (!flow_mapping(c, x, !strcmp(key->s, "run") ? DOC_RUN : DOC_STATS, key, val))
				return false;
		} else {
			return false;   /* a mapping this reader has no use for */
		}
		return c->p == c->end;
	}
	if (*c->p == '[') {
		/* flags: [...], or states: [] */
		if (*states)
			return c->end - c->p == 2 && c->p[1] == ']';
		return !wanted && memchr(c->p, ']', (size_t)(c->end - c->p)) == c->end - 1;
	}
	if (wanted || *states)
		return false;
	if (!scalar(c, val, "") || c->p != c->end)
		return false;
	return !saved_doc_scalar(x, DOC_TOP, key->s, val->s);
}

typedef struct doc_list {
	int n;
	size_t cap;
	saved_doc *v;
} doc_list;

/* Every document of the text into *docs; false at the first line that is
 * not weft's layout. */
static bool read_all(const char *text, size_t len, doc_list *docs)
{
	strbuf key = { 0 }, val = { 0 };
	saved_doc *x = NULL;
	bool block = false, states = false, any = false, ok = true;
	int line = 0;
	const char *end = text + len;
	for (const char *p = text; ok && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		cursor c = { p, nl ? nl : end };
		line++;
		p = nl ? nl + 1 : end;
		if (c.end - c.p == 3 && !strncmp(c.p, "---", 3)) {
			/* an empty document (libyaml's reader skips it too) is
			 * replaced by the next */
			if (!x || any) {
				GROW(docs->v, docs->cap, (size_t)docs->n + 1);
				x = &docs->v[docs->n++];
			}
			memset(x, 0, sizeof *x);
			x->line = line + 1;
			block = any = false;
			continue;
		}
		any = true;
		if (!x || c.p == c.end || c.end[-1] == '\r') {
			ok = false;
		} else if (c.end - c.p == 3 && !strncmp(c.p, "...", 3)) {
			block = false;
		} else if (block && (*c.p == '-' || *c.p == ' ')) {
			ok = c.end - c.p >= 2 && c.p[1] == ' ';
			if (ok && states && *c.p == '-') {
				/* an item of states: `- state: LINE` first */
				x->n_states++;
				x->states_kept = true;
				c.p += 2;
				ok = key_of(&c, &key) && !strcmp(key.s, "state") && scalar(&c, &val, "") && c.p == c.end;
				if (ok)
					saved_doc_state(x, val.s);
			}
		} else {
			ok = top_line(&c, x, &key, &val, &block, &states);
		}
	}
	sb_free(&key);
	sb_free(&val);
	if (x && !any)
		docs->n--;
	return ok && docs->n > 0;
}

int saved_read_yaml_fast(saved_set *s, int file, const char *text, size_t len, diag *d)
{
	doc_list docs = { 0, 0, NULL };
	int status = -1;
	if (read_all(text, len, &docs)) {
		status = 1;
		for (int i = 0; i < docs.n && status; i++)
			status = saved_doc_add(s, file, &docs.v[i], d);
	}
	for (int i = 0; i < docs.n; i++)
		saved_doc_free(&docs.v[i]);
	free(docs.v);
	return status;
}
