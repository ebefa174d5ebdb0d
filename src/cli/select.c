/* select.c — test names from headers, name filters, shards. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

/* ---- headers ------------------------------------------------------------ */


static bool is_space(int c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

bool litmus_header_read(const char *path, char **arch, char **name)
{
	*arch = NULL;
	*name = NULL;
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	char line[SELECT_HEADER_MAX];
	bool found = false;
	while (!found && fgets(line, sizeof line, f)) {
		const char *p = line;
		while (is_space((unsigned char)*p))
			p++;
		if (*p == '\0')
			continue;
		found = true;
		const char *a = p;
		while (*p && !is_space((unsigned char)*p))
			p++;
		size_t alen = (size_t)(p - a);
		while (is_space((unsigned char)*p))
			p++;
		const char *nm = p;
		while (*p && !is_space((unsigned char)*p))
			p++;
		size_t nlen = (size_t)(p - nm);
		if (nlen > 7 && !strncmp(nm + nlen - 7, ".litmus", 7))
			nlen -= 7;
		if (nlen == 0)
			break;
		*arch = xstrndup(a, alen);
		*name = xstrndup(nm, nlen);
	}
	fclose(f);
	return *name != NULL;
}

/* ---- filters ------------------------------------------------------------- */

typedef struct regex_list {
	int n;
	pcre2_code **code;
} regex_list;

/* A name and the line it came from: -table-order names orders rows by it. */
typedef struct named {
	char *name;     /* owned */
	int rank;       /* its first line's place among the files' lines */
} named;

typedef struct name_set {
	int n;
	size_t cap;
	named *names;   /* sorted by name once read */
} name_set;

struct selector {
	regex_list select, excl;
	pcre2_match_data *md;
	bool have_names;   /* some -names file was given (even an empty one) */
	name_set names, excl_names;
};

static bool regexes_compile(regex_list *l, const str_list *src, const char *opt, diag *d)
{
	l->code = xcalloc((size_t)src->n + 1, sizeof *l->code);
	for (int i = 0; i < src->n; i++) {
		int err;
		PCRE2_SIZE at;
		pcre2_code *c = pcre2_compile((PCRE2_SPTR)src->v[i], PCRE2_ZERO_TERMINATED, PCRE2_UTF,
					      &err, &at, NULL);
		if (!c) {
			PCRE2_UCHAR msg[256];
			pcre2_get_error_message(err, msg, sizeof msg);
			diag_error(d, (srcloc){ opt, 0, 0 }, "bad regular expression '%s' at offset %zu: %s",
				   src->v[i], (size_t)at, (const char *)msg);
			return false;
		}
		l->code[l->n++] = c;
	}
	return true;
}

static void regexes_free(regex_list *l)
{
	for (int i = 0; i < l->n; i++)
		pcre2_code_free(l->code[i]);
	free(l->code);
}

static bool regexes_match(const regex_list *l, pcre2_match_data *md, const char *s)
{
	for (int i = 0; i < l->n; i++)
		if (pcre2_match(l->code[i], (PCRE2_SPTR)s, PCRE2_ZERO_TERMINATED, 0, 0, md, NULL) >= 0)
			return true;
	return false;
}

static int compare_names(const void *a, const void *b)
{
	const named *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : (x->rank > y->rank) - (x->rank < y->rank);
}

static int compare_name_key(const void *key, const void *elt)
{
	return strcmp(key, ((const named *)elt)->name);
}

/* One name a line (its first word); blank lines and '#' comments skipped. */
static bool names_read(name_set *s, const char *path, diag *d)
{
	char *text = read_whole_file(path, NULL, d);
	if (!text)
		return false;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		while (is_space((unsigned char)*line))
			line++;
		if (*line == '\0' || *line == '#')
			continue;
		size_t n = 0;
		while (line[n] && !is_space((unsigned char)line[n]))
			n++;
		GROW(s->names, s->cap, (size_t)s->n + 1);
		s->names[s->n] = (named){ xstrndup(line, n), s->n };
		s->n++;
	}
	free(text);
	return true;
}

/* Sorted by name, a repeated name's first line first: the one bsearch
 * must find, so its rank is its first line's. */
static void names_sort(name_set *s)
{
	if (s->n == 0)
		return;
	qsort(s->names, (size_t)s->n, sizeof *s->names, compare_names);
	for (int i = 1; i < s->n; i++)
		if (!strcmp(s->names[i].name, s->names[i - 1].name))
			s->names[i].rank = s->names[i - 1].rank;
}

static const named *names_find(const name_set *s, const char *name)
{
	return s->n > 0 ? bsearch(name, s->names, (size_t)s->n, sizeof *s->names, compare_name_key) : NULL;
}

static bool names_has(const name_set *s, const char *name)
{
	return names_find(s, name) != NULL;
}

static void names_free(name_set *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->names[i].name);
	free(s->names);
}

selector *selector_new(const weft_options *o, diag *d)
{
	selector *s = xcalloc(1, sizeof *s);
	bool ok = regexes_compile(&s->select, &o->select, "-select", d);
	ok = ok && regexes_compile(&s->excl, &o->excl_regex, "-excl", d);
	for (int i = 0; ok && i < o->names_files.n; i++)
		ok = names_read(&s->names, o->names_files.v[i], d);
	for (int i = 0; ok && i < o->excl_files.n; i++)
		ok = names_read(&s->excl_names, o->excl_files.v[i], d);
	if (!ok) {
		selector_free(s);
		return NULL;
	}
	s->have_names = o->names_files.n > 0;
	names_sort(&s->names);
	names_sort(&s->excl_names);
	s->md = pcre2_match_data_create(1, NULL);
	return s;
}

void selector_free(selector *s)
{
	if (!s)
		return;
	regexes_free(&s->select);
	regexes_free(&s->excl);
	names_free(&s->names);
	names_free(&s->excl_names);
	pcre2_match_data_free(s->md);
	free(s);
}

int selector_names_rank(const selector *s, const char *name)
{
	const named *e = names_find(&s->names, name);
	return e ? e->rank : -1;
}

bool selector_accepts(const selector *s, const char *name)
{
	if (s->have_names && !names_has(&s->names, name))
		return false;
	if (s->select.n > 0 && !regexes_match(&s->select, s->md, name))
		return false;
	if (names_has(&s->excl_names, name) || regexes_match(&s->excl, s->md, name))
		return false;
	return true;
}

/* ---- the plan ------------------------------------------------------------ */

static char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return xstrdup(slash ? slash + 1 : path);
}

void plan_build(test_plan *p, int n_paths, char *const *paths, const selector *s,
		int shard_k, int shard_n)
{
	int kept = 0;
	strbuf names = { 0 };
	for (int i = 0; i < n_paths; i++) {
		test_entry e = { paths[i], NULL, NULL, i, 0 };
		bool is_cat = str_has_suffix(paths[i], ".cat") || str_has_suffix(paths[i], ".bell");
		bool known = !is_cat && litmus_header_read(paths[i], &e.arch, &e.name);
		if (is_cat)
			e.name = xstrdup(paths[i]);
		else if (!known)
			e.name = base_name(paths[i]);
		if (known && !selector_accepts(s, e.name)) {
			free(e.name);
			free(e.arch);
			continue;
		}
		/* Slices are taken round-robin over the selected tests: each shard
		 * gets a spread of the suite, so slow families are shared out. */
		e.seq = ++p->selected;
		sb_printf(&names, "%s\n", e.name);
		if (shard_n > 0 && kept++ % shard_n != shard_k - 1) {
			free(e.name);
			free(e.arch);
			continue;
		}
		GROW(p->v, p->cap, (size_t)p->n + 1);
		p->v[p->n++] = e;
	}
	md5_hex(names.s ? names.s : "", names.len, p->selection_md5);
	sb_free(&names);
}

void plan_free(test_plan *p)
{
	for (int i = 0; i < p->n; i++) {
		free(p->v[i].name);
		free(p->v[i].arch);
	}
	free(p->v);
	p->v = NULL;
	p->n = 0;
	p->cap = 0;
}
