/* test_hash.c — the digest herd7 prints as Hash= when a test has none.
 *
 * herd7 (lib/testHash.ml and the parser around it) hashes a normalised
 * printing of the test, so that two files that differ only in layout,
 * label names, comments or metadata get the same hash.  Re-derived here:
 *
 *   Hash = hex(MD5( I ++ D(init) ++ D(code) ++ D(observed) ))
 *
 * where D(s) is the raw 16-byte MD5 of string s and ++ concatenates bytes.
 *
 *   I      ""  unless the metadata has keys MemoryType, MT or CacheType
 *          (any case): then D of the concatenation of "key=value" (key in
 *          lower case, value as written, trailing blanks included) for
 *          those keys, in reverse order of the keys sorted by name.
 *   init   the entries of the init block as written (not the defaults),
 *          sorted by location — registers first (by thread number, then
 *          register name as a byte string), then symbolic registers
 *          (%name, by name), then memory locations (by name) — one per
 *          location, each printed "loc=value" ("0:r2=x", "x=1"), or
 *          "type loc=value" when a type is declared ("uint64_t z=0" for a
 *          bare declaration), "*loc=value", "type *loc=value",
 *          "type name[size]"; a symbolic register prints without its %.
 *          C's `atomic_t x = ATOMIC_INIT(1)` is "atomic_t x=1".
 *          Joined with "; ".  Values are printed as written.
 *   code   the threads as a table: each thread is the column of its
 *          instructions in herd's own syntax (its architecture's herd_print, arch.h), a label
 *          being a line "L00:" of its own before its instruction.  Labels
 *          are renamed L00, L01, ... in the byte order of their names over
 *          the whole test.  Each line is the cells " %-Ws " (W: the width
 *          of the widest line of that column, a missing line being an
 *          empty cell) joined by "|", then ";\n".  A C test's threads
 *          are hashed as herd reads them for litmus7: one cell a thread,
 *          the function with its body as written (src/c/c_hash_form.c),
 *          on one line of the table whatever newlines it holds.
 *   observed  the locations of the condition and of `locations [...]`,
 *          each once, registers first ("1:r3" by thread then name) then
 *          memory locations ("x", no brackets), joined with "; ".
 *
 * The init block is read again from the file, because a litmus_test does
 * not record which initial values were written and which are defaults.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../arch/arch.h"
#include "report.h"

/* ---- digests -------------------------------------------------------------- */

static void md5_raw(const char *s, size_t n, unsigned char raw[16])
{
	char hex[33];
	md5_hex(s, n, hex);
	for (int i = 0; i < 16; i++) {
		int hi = isdigit((unsigned char)hex[2 * i]) ? hex[2 * i] - '0' : hex[2 * i] - 'a' + 10;
		int lo = isdigit((unsigned char)hex[2 * i + 1]) ? hex[2 * i + 1] - '0' : hex[2 * i + 1] - 'a' + 10;
		raw[i] = (unsigned char)(hi * 16 + lo);
	}
}

static void put_digest(strbuf *all, const strbuf *s)
{
	unsigned char raw[16];
	md5_raw(s->s ? s->s : "", s->len, raw);
	sb_putn(all, (const char *)raw, 16);
}

/* ---- locations in herd's order ------------------------------------------------ */

/* herd sorts page-table entries (vmsa's pte_x) after the variables */
enum loc_class { LC_REG, LC_SREG, LC_GLOBAL, LC_PTE };

typedef struct hloc {
	enum loc_class cls;
	long proc;
	char *name;      /* register, symbolic register (no %) or location */
	char *text;      /* what gets hashed */
	int order;       /* position as written, for a stable sort */
} hloc;

static int hloc_cmp(const void *pa, const void *pb)
{
	const hloc *a = pa, *b = pb;
	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	if (a->cls == LC_REG && a->proc != b->proc)
		return a->proc < b->proc ? -1 : 1;
	int c = strcmp(a->name, b->name);
	if (c)
		return c;
	return a->order < b->order ? -1 : a->order > b->order;
}

typedef struct hloc_list {
	int n;
	size_t cap;
	hloc *v;
} hloc_list;

static void hloc_list_free(hloc_list *l)
{
	for (int i = 0; i < l->n; i++) {
		free(l->v[i].name);
		free(l->v[i].text);
	}
	free(l->v);
}

/* Sort, drop repeated locations (herd keeps the first), join with "; ". */
static void hloc_join(hloc_list *l, strbuf *out)
{
	if (l->n > 1)
		qsort(l->v, (size_t)l->n, sizeof *l->v, hloc_cmp);
	bool first = true;
	for (int i = 0; i < l->n; i++) {
		if (i > 0 && l->v[i].cls == l->v[i - 1].cls && l->v[i].proc == l->v[i - 1].proc &&
		    !strcmp(l->v[i].name, l->v[i - 1].name))
			continue;
		if (!first)
			sb_puts(out, "; ");
		first = false;
		sb_puts(out, l->v[i].text);
	}
}

/* Classify a location as written: "P1:r2"/"1:r2", "%s", "[x]", "x". */
static void classify(const char *s, hloc *h)
{
	size_t n = strlen(s);
	const char *p = s;
	if (*p == 'P' || *p == 'p')
		p++;
	if (isdigit((unsigned char)*p)) {
		const char *q = p;
		while (isdigit((unsigned char)*q))
			q++;
		if (*q == ':' && q[1]) {
			h->cls = LC_REG;
			h->proc = strtol(p, NULL, 10);
			h->name = xstrdup(q + 1);
			return;
		}
	}
	h->proc = 0;
	if (s[0] == '%') {
		h->cls = LC_SREG;
		h->name = xstrdup(s + 1);
	} else if (n >= 2 && s[0] == '[' && s[n - 1] == ']') {
		h->cls = LC_GLOBAL;
		const char *b = s + 1;
		size_t m = n - 2;
		while (m && isspace((unsigned char)*b)) {
			b++;
			m--;
		}
		while (m && isspace((unsigned char)b[m - 1]))
			m--;
		h->name = xstrndup(b, m);
	} else {
		h->cls = LC_GLOBAL;
		h->name = xstrdup(s);
	}
}

static char *loc_text(const hloc *h)
{
	if (h->cls == LC_REG)
		return xasprintf("%ld:%s", h->proc, h->name);
	return xstrdup(h->name);
}

/* ---- the init block, read again from the file ---------------------------------- */

/* Remove (* nested comments *) and "quoted strings" (replaced by blanks,
 * so that braces inside them do not count; a string ends at the end of its
 * line at the latest). */
static void blank_comments(char *s)
{
	int depth = 0;
	bool quote = false;
	for (char *p = s; *p; p++) {
		if (!quote && p[0] == '(' && p[1] == '*') {
			depth++;
			p[0] = p[1] = ' ';
			p++;
			continue;
		}
		if (depth && p[0] == '*' && p[1] == ')') {
			depth--;
			p[0] = p[1] = ' ';
			p++;
			continue;
		}
		if (depth) {
			if (*p != '\n')
				*p = ' ';
			continue;
		}
		if (*p == '"') {
			/* herd's instruction values, instr:"B .+8", are hashed
			 * as written: their quotes and text stay */
			if (!quote && p - s >= 6 && !strncmp(p - 6, "instr:", 6)) {
				char *q = p + 1;
				while (*q && *q != '"' && *q != '\n')
					q++;
				if (*q == '"') {
					p = q;
					continue;
				}
			}
			quote = !quote;
			*p = ' ';
			continue;
		}
		if (*p == '\n')
			quote = false;   /* an unterminated string ends with its line */
		else if (quote)
			*p = ' ';
	}
}

static char *trim(char *s)
{
	while (isspace((unsigned char)*s))
		s++;
	size_t n = strlen(s);
	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
	return s;
}

/* ---- vmsa's forms, as herd dumps them for its hash ---------------------------- */

/* `W(name)` at s (blanks allowed inside): name's bounds; false if s is
 * not that form. */
static bool wrapped(const char *s, const char *w, const char **name, size_t *len)
{
	size_t n = strlen(w);
	if (strncmp(s, w, n))
		return false;
	s += n;
	while (isspace((unsigned char)*s))
		s++;
	if (*s != '(')
		return false;
	s++;
	while (isspace((unsigned char)*s))
		s++;
	const char *b = s;
	while (*s && *s != ')' && !isspace((unsigned char)*s))
		s++;
	*name = b;
	*len = (size_t)(s - b);
	while (isspace((unsigned char)*s))
		s++;
	return *s == ')' && *len > 0;
}

/* A PTE value as written, "(oa:PA(x), valid:0)", as herd hashes it:
 * "(oa:phy_x, af:1, db:1, dbm:0, valid:0)", el0 only when 0; without an
 * oa, phy_ then `own` (the variable whose entry it initialises, or "").
 * NULL when the text is not one (the parser has checked the fields). */
static char *pte_hash_text(const char *v, const char *own)
{
	if (*v != '(')
		return NULL;
	unsigned flags = PTE_DEFAULT_FLAGS;
	char *oa = xasprintf("phy_%s", own);
	char *body = xstrdup(v + 1);
	char *end = strrchr(body, ')');
	if (end)
		*end = '\0';
	char *save = NULL;
	for (char *f = strtok_r(body, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		char *colon = strchr(f, ':');
		if (!colon)
			continue;
		*colon = '\0';
		char *k = trim(f), *val = trim(colon + 1);
		const char *name;
		size_t len;
		if (!strcmp(k, "oa") && wrapped(val, "PA", &name, &len)) {
			free(oa);
			oa = xasprintf("phy_%.*s", (int)len, name);
		}
		for (size_t i = 0; i < N_PTE_FIELDS; i++)
			if (!strcmp(k, pte_fields[i].name))
				flags = atoi(val) ? flags | pte_fields[i].bit : flags & ~pte_fields[i].bit;
	}
	free(body);
	strbuf r = { 0 };
	sb_printf(&r, "(oa:%s", oa);
	vmsa_flags_print(flags, true, &r);
	sb_putc(&r, ')');
	free(oa);
	return sb_take(&r);
}

/* herd's ifetch values as its hash prints them: a label of a thread
 * (`P1:L0`, `1:L0`) as "1:L0"; an instruction (`NOP`, `instr:"..."`) as
 * written, its type ins_t whether the test writes it or not.  Checked on
 * herd's own outputs of its AArch64.self tests. */
static void ifetch_value(char **value, char **type, char *ins_t, char *buf, size_t size)
{
	char *v = *value;
	if (!v)
		return;
	if (!strncmp(v, "instr:", 6) || !strcmp(v, "NOP") || !strcmp(v, "nop")) {
		if (!*type)
			*type = ins_t;
		if (!strcmp(v, "nop"))
			*value = "NOP";   /* herd reads either as its NOP */
		return;
	}
	const char *d = v + (*v == 'P' || *v == 'p');
	const char *q = d;
	while (isdigit((unsigned char)*q))
		q++;
	if (q > d && *q == ':' && q[1] && (isalpha((unsigned char)q[1]) || q[1] == '_')) {
		snprintf(buf, size, "%s", d);
		*value = buf;
	}
}

/* One init entry, e.g. "P0:r2=x", "uint64_t z", "int *p=&x", "t[2]". */
static void init_entry(char *e, int order, bool ifetch, hloc_list *out)
{
	e = trim(e);
	if (!*e)
		return;
	char *eq = strchr(e, '=');
	char *value = NULL;
	if (eq) {
		*eq = '\0';
		value = trim(eq + 1);
	}
	char *lhs = trim(e);
	/* "0: X0" is the register 0:X0 (blanks around the thread's colon) */
	char *colon = strchr(lhs, ':');
	if (colon) {
		char *d = colon;
		while (d > lhs && isspace((unsigned char)d[-1]))
			d--;
		char *digits = d;
		while (digits > lhs && isdigit((unsigned char)digits[-1]))
			digits--;
		if (digits < d && (digits == lhs || isspace((unsigned char)digits[-1]) ||
		                   ((digits[-1] == 'P' || digits[-1] == 'p') &&
		                    (digits - 1 == lhs || isspace((unsigned char)digits[-2]))))) {
			char *after = colon + 1;
			while (isspace((unsigned char)*after))
				after++;
			*d = ':';
			memmove(d + 1, after, strlen(after) + 1);
		}
	}
	/* the location is the last word of the left-hand side */
	char *locw = lhs + strlen(lhs);
	while (locw > lhs && !isspace((unsigned char)locw[-1]))
		locw--;
	char *type = NULL;
	if (locw > lhs) {
		locw[-1] = '\0';
		type = trim(lhs);
	}
	bool pointer = false;
	if (*locw == '*') {
		pointer = true;
		locw++;
	}
	if (type && *type && type[strlen(type) - 1] == '*') {
		pointer = true;
		type[strlen(type) - 1] = '\0';
		type = trim(type);
	}
	if (type && !*type)
		type = NULL;
	if (value && pointer && *value == '&')
		value = trim(value + 1);
	/* herd's init grammar reads C's `atomic_t x = ATOMIC_INIT(1)` as the
	 * value 1 of type atomic_t */
	if (value && type && !strncmp(value, "ATOMIC_INIT", 11)) {
		char *lp = trim(value + 11), *rp = strrchr(lp, ')');
		if (*lp == '(' && rp && !rp[1]) {
			*rp = '\0';
			value = trim(lp + 1);
		}
	}
	char *bracket = strchr(locw, '[');
	bool array = type && bracket && locw[0] != '[';
	GROW(out->v, out->cap, (size_t)out->n + 1);
	hloc *h = &out->v[out->n++];
	memset(h, 0, sizeof *h);
	h->order = order;
	if (array) {
		char *name = xstrndup(locw, (size_t)(bracket - locw));
		classify(name, h);
		free(name);
		h->text = xasprintf("%s %s%s", type, h->name, bracket);
		return;
	}
	classify(locw, h);
	/* vmsa: [PTE(x)] is pte_x, PTE(x) as a value too, and a PTE value is
	 * typed pteval_t even when written without */
	const char *vname;
	size_t vlen;
	char *own = NULL;
	if (h->cls == LC_GLOBAL && wrapped(h->name, "PTE", &vname, &vlen)) {
		own = xstrndup(vname, vlen);
		char *n = xasprintf("pte_%s", own);
		free(h->name);
		h->name = n;
		h->cls = LC_PTE;
	}
	char *pte_text = value ? pte_hash_text(value, own ? own : "") : NULL;
	free(own);
	char *pte_addr = value && wrapped(value, "PTE", &vname, &vlen) ? xasprintf("pte_%.*s", (int)vlen, vname)
	                                                                 : NULL;
	if (pte_text && !type)
		type = "pteval_t";
	if (pte_text || pte_addr)
		value = pte_text ? pte_text : pte_addr;
	char label[256], ins_t[] = "ins_t";
	if (ifetch)
		ifetch_value(&value, &type, ins_t, label, sizeof label);
	char *loc = loc_text(h);
	const char *v = value && *value ? value : "0";
	if (!type && !pointer)
		h->text = xasprintf("%s=%s", loc, v);
	else if (!type)
		h->text = xasprintf("*%s=%s", loc, v);
	else if (pointer)
		h->text = xasprintf("%s *%s=%s", type, loc, v);
	else
		h->text = xasprintf("%s %s=%s", type, loc, v);
	free(loc);
	free(pte_text);
	free(pte_addr);
}

/* The init entries of the file, printed and sorted; false if the file
 * cannot be read or has no init block. */
static bool init_string(const litmus_test *t, strbuf *out)
{
	diag quiet = { .out = NULL };
	FILE *null = fopen("/dev/null", "w");
	quiet.out = null;
	size_t len;
	char *text = t->file ? read_whole_file(t->file, &len, &quiet) : NULL;
	if (null)
		fclose(null);
	if (!text)
		return false;
	/* The init block is where the parser found it: herd's preamble
	 * rules (parse_header.c) let a `(*` there stay open. */
	char *open = t->init_offset > 0 && (size_t)t->init_offset < len && text[t->init_offset] == '{'
	                     ? text + t->init_offset : NULL;
	if (open) {
		blank_comments(open);
	} else {
		blank_comments(text);
		char *p = strchr(text, '\n');   /* skip the header line */
		open = p ? strchr(p, '{') : NULL;
	}
	if (!open) {
		free(text);
		return false;
	}
	int depth = 0;
	char *close = NULL;
	for (char *q = open; *q; q++) {
		if (*q == '{')
			depth++;
		else if (*q == '}' && --depth == 0) {
			close = q;
			break;
		}
	}
	if (!close) {
		free(text);
		return false;
	}
	*close = '\0';
	hloc_list l = { 0 };
	char *start = open + 1;
	int order = 0;
	depth = 0;
	for (char *q = start;; q++) {
		if (*q == '{')
			depth++;
		else if (*q == '}')
			depth--;
		if ((*q == ';' && depth == 0) || !*q) {
			bool end = !*q;
			*q = '\0';
			init_entry(start, order++, t->ifetch, &l);
			if (end)
				break;
			start = q + 1;
		}
	}
	hloc_join(&l, out);
	hloc_list_free(&l);
	free(text);
	return true;
}

/* ---- the code --------------------------------------------------------------- */

typedef struct label_map {
	int n;
	size_t cap;
	char **names;     /* sorted, unique */
	char (*renamed)[8];
} label_map;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void label_map_add(label_map *m, const char *name)
{
	/* '#': weft's own (an offset branch's "#instr:N"), not the test's */
	if (!name || name[0] == '#')
		return;
	for (int i = 0; i < m->n; i++)
		if (!strcmp(m->names[i], name))
			return;
	GROW(m->names, m->cap, (size_t)m->n + 1);
	m->names[m->n++] = xstrdup(name);
}

static const char *label_rename(void *ctx, const char *name)
{
	label_map *m = ctx;
	char *const *hit = bsearch(&name, m->names, (size_t)m->n, sizeof *m->names, cmp_str);
	return hit ? m->renamed[hit - m->names] : NULL;
}

static void label_map_build(label_map *m, const litmus_test *t)
{
	for (int i = 0; i < t->n_threads; i++) {
		const thread *th = &t->threads[i];
		for (int k = 0; k < th->n_labels; k++)
			label_map_add(m, th->labels[k].name);
		for (int k = 0; k < th->n_ops; k++)
			if (th->ops[k].kind == OP_BRANCH)
				label_map_add(m, th->ops[k].label);
	}
	if (m->n > 1)
		qsort(m->names, (size_t)m->n, sizeof *m->names, cmp_str);
	m->renamed = xcalloc((size_t)m->n + 1, sizeof *m->renamed);
	for (int i = 0; i < m->n; i++)
		snprintf(m->renamed[i], sizeof m->renamed[i], "L%02d", i % 100);
}

static void label_map_free(label_map *m)
{
	for (int i = 0; i < m->n; i++)
		free(m->names[i]);
	free(m->names);
	free(m->renamed);
}

typedef struct column {
	int n;
	size_t cap;
	char **lines;
	size_t width;
} column;

static void column_add(column *c, char *line)
{
	GROW(c->lines, c->cap, (size_t)c->n + 1);
	c->lines[c->n++] = line;
	size_t w = strlen(line);
	if (w > c->width)
		c->width = w;
}

/* One thread's lines: each label as "Lnn:" before the instruction it
 * names, then the instruction in herd's syntax. */
static void thread_column(const litmus_test *t, const thread *th, label_map *m, column *c)
{
	bool *done = xcalloc((size_t)th->n_labels + 1, sizeof *done);
	strbuf b = { 0 };
	for (int j = 0; j <= th->n_instrs; j++) {
		int at = j < th->n_instrs ? th->instrs[j].first_op : th->n_ops + 1;
		for (int k = 0; k < th->n_labels; k++) {
			if (done[k] || th->labels[k].op > at)
				continue;
			done[k] = true;
			const char *n = label_rename(m, th->labels[k].name);
			column_add(c, xasprintf("%s:", n ? n : th->labels[k].name));
		}
		if (j == th->n_instrs)
			break;
		sb_reset(&b);
		arch_herd_print(t->arch, th->instrs[j].text ? th->instrs[j].text : "", label_rename, m, &b);
		column_add(c, xstrdup(b.s ? b.s : ""));
	}
	sb_free(&b);
	free(done);
}

static void code_string(const litmus_test *t, strbuf *out)
{
	if (t->n_code_cells) {
		/* C: one cell a thread, each one line of the table, however
		 * many newlines it holds */
		for (int i = 0; i < t->n_code_cells; i++)
			sb_printf(out, "%s %s ", i ? "|" : "", t->code_cells[i]);
		sb_puts(out, ";\n");
		return;
	}
	label_map m = { 0 };
	label_map_build(&m, t);
	int nt = t->n_threads;
	column *cols = xcalloc((size_t)nt + 1, sizeof *cols);
	int rows = 0;
	for (int i = 0; i < nt; i++) {
		thread_column(t, &t->threads[i], &m, &cols[i]);
		if (cols[i].n > rows)
			rows = cols[i].n;
	}
	for (int r = 0; r < rows; r++) {
		for (int i = 0; i < nt; i++) {
			if (i)
				sb_putc(out, '|');
			const char *s = r < cols[i].n ? cols[i].lines[r] : "";
			sb_printf(out, " %-*s ", (int)cols[i].width, s);
		}
		sb_puts(out, ";\n");
	}
	for (int i = 0; i < nt; i++) {
		for (int r = 0; r < cols[i].n; r++)
			free(cols[i].lines[r]);
		free(cols[i].lines);
	}
	free(cols);
	label_map_free(&m);
}

/* ---- observed locations ------------------------------------------------------- */

/* `as_written`: a register's name as the condition spells it, which herd
 * hashes ("0:RAX" where the states say 0:rax); NULL: the canonical name. */
static void observe(const litmus_test *t, lval lv, const char *as_written, hloc_list *l)
{
	GROW(l->v, l->cap, (size_t)l->n + 1);
	hloc *h = &l->v[l->n];
	memset(h, 0, sizeof *h);
	h->order = l->n;
	if (lv.thread >= 0) {
		if (lv.thread >= t->n_threads || lv.reg < 0 || lv.reg >= t->threads[lv.thread].n_regs)
			return;
		h->cls = LC_REG;
		h->proc = t->threads[lv.thread].id;
		const reg *r = &t->threads[lv.thread].regs[lv.reg];
		h->name = xstrdup(as_written ? as_written : r->written ? r->written : r->name);
	} else {
		if (lv.loc < 0 || lv.loc >= t->n_locs)
			return;
		const location *loc = &t->locs[lv.loc];
		/* vmsa: PTE(x) as herd names it, pte_x, after the variables
		 * (as in the init; not checked on a herd test observing one) */
		h->cls = loc->pte_of >= 0 ? LC_PTE : LC_GLOBAL;
		h->name = loc->pte_of >= 0 ? xasprintf("pte_%s", t->locs[loc->pte_of].name) : xstrdup(loc->name);
	}
	h->text = loc_text(h);
	l->n++;
}

static void observe_cond(const litmus_test *t, const cond *c, hloc_list *l)
{
	if (!c)
		return;
	switch (c->kind) {
	case COND_EQ:
	case COND_NE:
		observe(t, c->lhs, c->lhs_name, l);
		if (c->rhs_is_lval)
			observe(t, c->rhs_lval, c->rhs_name, l);
		break;
	case COND_NOT:
		observe_cond(t, c->l, l);
		break;
	case COND_AND:
	case COND_OR:
	case COND_IMPLIES:
		observe_cond(t, c->l, l);
		observe_cond(t, c->r, l);
		break;
	case COND_FAULT:
		/* herd observes a fault atom's variable (its hash of
		 * `forall fault(P0:L0,x)` has "x") */
		if (c->f_loc >= 0) {
			lval lv = { -1, -1, c->f_loc };
			observe(t, lv, NULL, l);
		}
		break;
	case COND_TRUE:
	case COND_FALSE:
		break;
	}
}

static void observed_string(const litmus_test *t, strbuf *out)
{
	hloc_list l = { 0 };
	observe_cond(t, t->cond, &l);
	for (int i = 0; i < t->n_observed; i++)
		observe(t, t->observed[i], NULL, &l);
	hloc_join(&l, out);
	hloc_list_free(&l);
}

/* ---- metadata that herd digests ---------------------------------------------- */

static bool key_is(const char *k, const char *want)
{
	size_t n = strlen(want);
	if (strlen(k) != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (toupper((unsigned char)k[i]) != toupper((unsigned char)want[i]))
			return false;
	return true;
}

static int cmp_meta(const void *a, const void *b)
{
	const meta *x = *(const meta *const *)a, *y = *(const meta *const *)b;
	return strcmp(x->key, y->key);
}

static void info_digest(const litmus_test *t, strbuf *all)
{
	const meta **keep = xcalloc((size_t)t->n_meta + 1, sizeof *keep);
	int n = 0;
	for (int i = 0; i < t->n_meta; i++)
		if (t->meta[i].key && (key_is(t->meta[i].key, "MemoryType") || key_is(t->meta[i].key, "MT") ||
		                       key_is(t->meta[i].key, "CacheType")))
			keep[n++] = &t->meta[i];
	if (n) {
		/* stable: equal keys keep their order */
		for (int i = 1; i < n; i++)
			for (int j = i; j > 0 && cmp_meta(&keep[j - 1], &keep[j]) > 0; j--) {
				const meta *tmp = keep[j];
				keep[j] = keep[j - 1];
				keep[j - 1] = tmp;
			}
		strbuf s = { 0 };
		for (int i = n - 1; i >= 0; i--) {
			for (const char *k = keep[i]->key; *k; k++)
				sb_putc(&s, (char)tolower((unsigned char)*k));
			const char *v = keep[i]->written ? keep[i]->written : keep[i]->value;
			sb_printf(&s, "=%s", v ? v : "");
		}
		put_digest(all, &s);
		sb_free(&s);
	}
	free(keep);
}

/* ---- putting it together ------------------------------------------------------- */

bool test_hash_compute(const litmus_test *t, char hex[33])
{
	strbuf all = { 0 }, init = { 0 }, code = { 0 }, obs = { 0 };
	info_digest(t, &all);
	bool ok = init_string(t, &init);
	code_string(t, &code);
	observed_string(t, &obs);
	put_digest(&all, &init);
	put_digest(&all, &code);
	put_digest(&all, &obs);
	md5_hex(all.s, all.len, hex);
	sb_free(&all);
	sb_free(&init);
	sb_free(&code);
	sb_free(&obs);
	return ok;
}

void test_hash(const litmus_test *t, char hex[33])
{
	if (t->hash && strlen(t->hash) <= 32) {
		strcpy(hex, t->hash);
		return;
	}
	test_hash_compute(t, hex);
}
