/* c_hash_form.c — a C thread function as herd's hash sees it.
 *
 * herd does not hash a C test's events: it reads the program a second
 * time as litmus7 does (a "shallow" reading that keeps each function's
 * body as raw text) and digests each function printed as
 *
 *     P<n>(<type>* <name>, <type>* <name>) {\n<body>\n}\n
 *
 * where <body> is every byte between the function's braces, exactly as
 * written (comments, blank lines and tabs included: the shallow reader
 * only counts braces), and <type> is the parameter's type with its
 * outermost '*' taken off (litmus7 sees a location's type as the type of
 * what it holds), spelled by herd's type printer: "volatile int",
 * "int*", "_Atomic int", "struct srcu_struct".  test_hash.c puts these
 * cells side by side as it does other architectures' thread columns.
 */
#include <string.h>

#include "c_int.h"

/* ---- herd's C types ------------------------------------------------------ */

enum ty_kind { TY_BASE, TY_VOLATILE, TY_CONST, TY_ATOMIC, TY_POINTER };

/* A type as herd's parser builds it: a chain of wrappers around a base
 * name.  Types of parameters are short, so a fixed chain is enough. */
#define TY_MAX 32

typedef struct ty_chain {
	enum ty_kind kind[TY_MAX]; /* kind[0] is the base */
	int n;
	char base[128];
} ty_chain;

static bool ty_wrap(ty_chain *t, enum ty_kind k)
{
	if (t->n >= TY_MAX)
		return false;
	t->kind[t->n++] = k;
	return true;
}

/* herd's CType.dump of the type made of t's first n links. */
static void ty_dump(const ty_chain *t, int n, strbuf *out)
{
	enum ty_kind k = t->kind[n - 1];
	if (k == TY_BASE) {
		sb_puts(out, t->base);
		return;
	}
	bool on_base = n >= 2 && t->kind[n - 2] == TY_BASE;
	switch (k) {
	case TY_VOLATILE:
		if (on_base) {
			sb_printf(out, "volatile %s", t->base);
		} else {
			ty_dump(t, n - 1, out);
			sb_puts(out, " volatile");
		}
		break;
	case TY_ATOMIC:
		if (on_base) {
			sb_printf(out, "_Atomic %s", t->base);
		} else {
			sb_puts(out, "_Atomic (");
			ty_dump(t, n - 1, out);
			sb_putc(out, ')');
		}
		break;
	case TY_CONST:
		ty_dump(t, n - 1, out);
		sb_puts(out, " const");
		break;
	case TY_POINTER:
		ty_dump(t, n - 1, out);
		sb_putc(out, '*');
		break;
	case TY_BASE:
		break;
	}
}

static bool word_is(const char *w, size_t n, const char *s)
{
	return strlen(s) == n && !memcmp(w, s, n);
}

/* The ')' or '>' that closes the one at s, or NULL. */
static const char *closing(const char *s, char open, char close)
{
	int depth = 0;
	for (; *s; s++)
		if (*s == open)
			depth++;
		else if (*s == close && --depth == 0)
			return s;
	return NULL;
}

static bool ty_read_n(const char *s, size_t len, ty_chain *t, int depth);

/* herd's `_Atomic (T)`: the chain of T wrapped in _Atomic, as t's base
 * (its links before those written after it); s at '('.  The end of the
 * parenthesis in *end. */
static bool ty_atomic_of(const char *s, ty_chain *t, const char **end, int depth)
{
	const char *e = closing(s, '(', ')');
	if (!e || depth > 4 || !ty_read_n(s + 1, (size_t)(e - s - 1), t, depth + 1) || !ty_wrap(t, TY_ATOMIC))
		return false;
	*end = e + 1;
	return true;
}

/* Read a parameter's type as written ("volatile int *", "struct
 * srcu_struct *", "int **", "_Atomic(int) *", "atomic<int64_t> *") the
 * way herd's grammar does: qualifiers before the base word apply to it,
 * '*', volatile and const after it wrap what precedes.  False for text
 * that is not such a type. */
static bool ty_read(const char *s, ty_chain *t)
{
	return ty_read_n(s, strlen(s), t, 0);
}

static bool ty_read_n(const char *s, size_t len, ty_chain *t, int depth)
{
	memset(t, 0, sizeof *t);
	const char *end = s + len;
	int pre_volatile = 0, pre_const = 0, pre_atomic = 0;
	int base_links = 1;   /* the links the qualifiers written first wrap */
	bool have_base = false;
	size_t blen = 0;
	while (s < end) {
		if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') {
			s++;
			continue;
		}
		if (s[0] == '/' && s[1] == '*') {
			const char *e = strstr(s + 2, "*/");
			if (!e || e + 2 > end)
				return false;
			s = e + 2;
			continue;
		}
		if (*s == '*') {
			if (!have_base || !ty_wrap(t, TY_POINTER))
				return false;
			s++;
			continue;
		}
		const char *w = s;
		while (s < end && ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		                   *s == '_'))
			s++;
		size_t n = (size_t)(s - w);
		if (!n)
			return false;
		const char *after = s;
		while (after < end && (*after == ' ' || *after == '\t' || *after == '\n' || *after == '\r'))
			after++;
		if (word_is(w, n, "_Atomic") && after < end && *after == '(') {
			/* herd's ATOMIC base, base = ( typ ) */
			if (have_base || !ty_atomic_of(after, t, &s, depth) || s > end)
				return false;
			have_base = true;
			base_links = t->n;
			continue;
		}
		if (word_is(w, n, "atomic") && after < end && *after == '<') {
			/* herd's atomic<T>: an atomic T */
			const char *e = closing(after, '<', '>');
			if (!e || e >= end)
				return false;
			w = after + 1;
			while (*w == ' ' || *w == '\t')
				w++;
			n = 0;
			while (w + n < e && w[n] != ' ' && w[n] != '\t')
				n++;
			s = e + 1;
			pre_atomic++;
		}
		bool qual_v = word_is(w, n, "volatile"), qual_c = word_is(w, n, "const");
		if (have_base && (qual_v || qual_c)) {
			if (!ty_wrap(t, qual_v ? TY_VOLATILE : TY_CONST))
				return false;
			continue;
		}
		if (have_base && t->n > 1)
			return false;   /* a word after a '*' */
		if (qual_v || qual_c || word_is(w, n, "_Atomic")) {
			if (have_base)
				return false;
			pre_volatile += qual_v;
			pre_const += qual_c;
			pre_atomic += !qual_v && !qual_c;
			continue;
		}
		/* herd's lexer reads atomic_int as an atomic int */
		bool atomic_int = word_is(w, n, "atomic_int");
		if (atomic_int) {
			w = "int";
			n = 3;
			pre_atomic++;
		}
		if (blen + n + 2 > sizeof t->base)
			return false;
		if (blen)
			t->base[blen++] = ' ';
		memcpy(t->base + blen, w, n);
		blen += n;
		t->base[blen] = '\0';
		if (!have_base) {
			have_base = true;
			t->kind[t->n++] = TY_BASE;
		}
	}
	if (!have_base)
		return false;
	/* the qualifiers written first wrap the base itself */
	int after = t->n - base_links;
	enum ty_kind rest[TY_MAX];
	memcpy(rest, t->kind + base_links, (size_t)after * sizeof *rest);
	t->n = base_links;
	for (int i = 0; i < pre_atomic; i++)
		if (!ty_wrap(t, TY_ATOMIC))
			return false;
	for (int i = 0; i < pre_volatile; i++)
		if (!ty_wrap(t, TY_VOLATILE))
			return false;
	for (int i = 0; i < pre_const; i++)
		if (!ty_wrap(t, TY_CONST))
			return false;
	for (int i = 0; i < after; i++)
		if (!ty_wrap(t, rest[i]))
			return false;
	return true;
}

/* ---- the cell ---------------------------------------------------------------- */

const char *c_raw_body_end(const char *open)
{
	int depth = 0;
	for (const char *p = open + 1; *p; p++) {
		if (*p == '{')
			depth++;
		else if (*p == '}' && depth-- == 0)
			return p;
	}
	return NULL;
}

char *c_hash_cell(const c_func *f, const char *body, size_t body_len)
{
	strbuf b = { 0 };
	sb_printf(&b, "P%d(", f->proc);
	for (int i = 0; i < f->n_params; i++) {
		if (i)
			sb_puts(&b, ", ");
		ty_chain t;
		if (ty_read(f->param_types[i], &t) && t.n > 1 && t.kind[t.n - 1] == TY_POINTER)
			ty_dump(&t, t.n - 1, &b);
		else
			sb_puts(&b, f->param_types[i]);   /* herd refuses these */
		sb_printf(&b, "* %s", f->params[i]);
	}
	sb_puts(&b, ") {\n");
	sb_putn(&b, body, body_len);
	sb_puts(&b, "\n}\n");
	return b.s;
}
