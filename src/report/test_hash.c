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
 *          Joined with "; ".  Integers are printed as written ("0x10"),
 *          a location by name ("&x" is "x"), vmsa's PTE(x) as "pte_x" and
 *          a PTE value in its hash form (vmsa.c); herd's ifetch values: a
 *          label "P1:L0" as "1:L0" (not renamed), an instruction as
 *          written (instr:"B .+8", nop as NOP), typed ins_t whatever the
 *          test writes.
 *   code   the threads as a table: each thread is the column of its
 *          instructions in herd's own syntax (its architecture's
 *          herd_print, arch.h), a label
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
 * Everything comes from the parsed test: the reader keeps the init block
 * as written (prog.h's init_entry), as herd's parser does, since the
 * initial state does not say which values were written and how; the
 * file is not read again.
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

/* herd sorts page-table entries (vmsa's pte_x) after the variables,
 * and array cells v[i] (its Deref) after every location */
enum loc_class { LC_REG, LC_SREG, LC_GLOBAL, LC_PTE, LC_CELL };

typedef struct hloc {
	enum loc_class cls;
	long proc;
	char *name;      /* register, symbolic register (no %) or location */
	char *text;      /* what gets hashed */
	int cell;        /* LC_CELL: the index; name is the array's */
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
	if (a->cell != b->cell)
		return a->cell < b->cell ? -1 : 1;
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
		    l->v[i].cell == l->v[i - 1].cell && !strcmp(l->v[i].name, l->v[i - 1].name))
			continue;
		if (!first)
			sb_puts(out, "; ");
		first = false;
		sb_puts(out, l->v[i].text);
	}
}

static char *loc_text(const hloc *h)
{
	if (h->cls == LC_REG)
		return xasprintf("%ld:%s", h->proc, h->name);
	if (h->cls == LC_CELL)
		return xasprintf("%s[%d]", h->name, h->cell);
	return xstrdup(h->name);
}

/* ---- the init block, as the reader kept it ------------------------------------- */

/* Memory location `loc` as herd names it: vmsa's PTE(x) is pte_x. */
static enum loc_class memory_name(const litmus_test *t, int loc, char **name)
{
	const location *l = &t->locs[loc];
	if (l->pte_of >= 0) {
		*name = xasprintf("pte_%s", t->locs[l->pte_of].name);
		return LC_PTE;
	}
	*name = xstrdup(l->name);
	return LC_GLOBAL;
}

/* An initial value as herd's parser keeps it and its hash prints it:
 * integers and instr:"..." as written, nop as NOP, a label of a thread
 * as "1:L0", a location by name (pte_x for PTE(x)), a PTE value in the
 * hash's own form. */
static void init_value(const litmus_test *t, const init_entry *e, strbuf *out)
{
	value v = e->init;
	if (value_is_instr(v)) {
		if (e->written)
			sb_printf(out, "instr:\"%s\"", e->written);
		else
			sb_puts(out, "NOP");
	} else if (value_is_pte(v)) {
		vmsa_value_print(t, v, true, out);
	} else if (e->written) {
		sb_puts(out, e->written);
	} else if (v.loc >= 0 && v.loc < t->n_locs && t->locs[v.loc].code_thread >= 0) {
		sb_printf(out, "%d:%s", t->locs[v.loc].code_thread, t->locs[v.loc].code_label);
	} else if (v.loc >= 0 && v.loc < t->n_locs) {
		char *name;
		memory_name(t, v.loc, &name);
		sb_puts(out, name);
		free(name);
	} else {
		sb_printf(out, "%lld", (long long)v.num);
	}
}

/* One entry: "0:r2=x", "uint64_t z=0", "int *p=x", "*p=x", "int t[2]";
 * an instruction value is typed ins_t whatever the test writes, a PTE
 * value pteval_t unless typed. */
static void init_entry_text(const litmus_test *t, const init_entry *e, int order, hloc_list *out)
{
	GROW(out->v, out->cap, (size_t)out->n + 1);
	hloc *h = &out->v[out->n++];
	memset(h, 0, sizeof *h);
	h->order = order;
	if (e->thread == INIT_MEMORY) {
		h->cls = memory_name(t, e->loc, &h->name);
	} else {
		h->cls = e->thread == INIT_SYMREG ? LC_SREG : LC_REG;
		h->proc = e->thread;
		h->name = xstrdup(e->reg);
	}
	char *loc = loc_text(h);
	const char *type = e->type;
	if (value_is_instr(e->init))
		type = "ins_t";
	else if (value_is_pte(e->init) && !type)
		type = "pteval_t";
	strbuf b = { 0 };
	if (e->array) {
		sb_printf(&b, "%s %s[%d]", type ? type : "", loc, e->array);
	} else {
		if (type)
			sb_printf(&b, "%s ", type);
		sb_printf(&b, "%s%s=", e->pointer ? "*" : "", loc);
		init_value(t, e, &b);
	}
	h->text = sb_take(&b);
	free(loc);
}

static void init_string(const litmus_test *t, strbuf *out)
{
	hloc_list l = { 0 };
	for (int i = 0; i < t->n_init_entries; i++)
		init_entry_text(t, &t->init_entries[i], i, &l);
	hloc_join(&l, out);
	hloc_list_free(&l);
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
 * labels as written (label.instr: by ops, a label after an instruction
 * without any, AArch64's NOP, would come before it), then the
 * instruction in herd's syntax. */
static void thread_column(const litmus_test *t, const thread *th, label_map *m, column *c)
{
	strbuf b = { 0 };
	for (int j = 0; j <= th->n_instrs; j++) {
		for (int k = 0; k < th->n_labels; k++) {
			if (th->labels[k].instr != j)
				continue;
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
		const location *l = &t->locs[lv.loc];
		if (l->array >= 0 && (lv.reg == LVAL_CELL || lv.reg == LVAL_WHOLE)) {
			/* herd observes the array, or its cell v[i] */
			h->cls = lv.reg == LVAL_CELL ? LC_CELL : LC_GLOBAL;
			h->name = xstrdup(t->locs[l->array].name);
			h->cell = lv.reg == LVAL_CELL ? l->cell : 0;
		} else {
			/* vmsa: PTE(x) after the variables, as in the init
			 * (not checked on a herd test observing one) */
			h->cls = memory_name(t, lv.loc, &h->name);
		}
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

void test_hash_compute(const litmus_test *t, char hex[33])
{
	strbuf all = { 0 }, init = { 0 }, code = { 0 }, obs = { 0 };
	info_digest(t, &all);
	init_string(t, &init);
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
}

void test_hash(const litmus_test *t, char hex[33])
{
	if (t->hash && strlen(t->hash) <= 32) {
		strcpy(hex, t->hash);
		return;
	}
	test_hash_compute(t, hex);
}
