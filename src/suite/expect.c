/* expect.c — reading -expect files (libyaml's document loader) and checking
 * results against them. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "suite.h"
#include "../report/report.h"

/* A state line as written, and its canonical form (the one compared). */
typedef struct state_pair {
	char *norm;
	char *text;
} state_pair;

enum expected_verdict { EXP_NONE, EXP_ALLOWED, EXP_FORBIDDEN, EXP_REQUIRED, EXP_OK, EXP_NO };

static const char *const verdict_words[] = { "", "allowed", "forbidden", "required", "Ok", "No" };

typedef struct expectation {
	char *test;
	char *model;          /* model key (see models.h: aliases folded) */
	enum expected_verdict verdict;
	bool has_states;
	int n_states;
	state_pair *states;   /* sorted by normalised form */
	char *file;           /* where it was written, for messages */
	int line;
} expectation;

struct expect_set {
	int n;
	size_t cap;
	expectation *v;   /* sorted by (test, model) after each read */
};

expect_set *expect_new(void)
{
	return xcalloc(1, sizeof(expect_set));
}

static void expectation_free(expectation *e)
{
	free(e->test);
	free(e->model);
	for (int i = 0; i < e->n_states; i++) {
		free(e->states[i].norm);
		free(e->states[i].text);
	}
	free(e->states);
	free(e->file);
}

void expect_free(expect_set *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->n; i++)
		expectation_free(&s->v[i]);
	free(s->v);
	free(s);
}

int expect_count(const expect_set *s)
{
	return s->n;
}

/* ---- reading ------------------------------------------------------------ */

typedef struct reader {
	yaml_document_t doc;
	const char *path;
	diag *d;
} reader;

static srcloc at(const reader *r, const yaml_node_t *n)
{
	return (srcloc){ r->path, (int)n->start_mark.line + 1, (int)n->start_mark.column + 1 };
}

static const char *scalar(const yaml_node_t *n)
{
	return n && n->type == YAML_SCALAR_NODE ? (const char *)n->data.scalar.value : NULL;
}

static bool parse_verdict(const char *s, enum expected_verdict *v)
{
	for (int i = EXP_ALLOWED; i <= EXP_NO; i++)
		if (!strcasecmp(s, verdict_words[i])) {
			*v = (enum expected_verdict)i;
			return true;
		}
	return false;
}

char *suite_model_key(const char *name)
{
	const char *slash = strrchr(name, '/');
	const char *base = slash ? slash + 1 : name;
	size_t n = strlen(base);
	if (n > 4 && !strcmp(base + n - 4, ".cat"))
		n -= 4;
	if (n == 3 && !strncmp(base, "ppc", 3))
		return xstrdup("power");
	if (n == 6 && !strncmp(base, "x86tso", 6))
		return xstrdup("tso");
	return xstrndup(base, n);
}

static int compare_pairs(const void *a, const void *b)
{
	return strcmp(((const state_pair *)a)->norm, ((const state_pair *)b)->norm);
}

static bool read_states(reader *r, yaml_node_t *seq, expectation *e)
{
	if (seq->type != YAML_SEQUENCE_NODE) {
		diag_error(r->d, at(r, seq), "'states' wants a list of state lines like \"0:r1=1; [x]=2;\"");
		return false;
	}
	e->has_states = true;
	for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++) {
		yaml_node_t *item = yaml_document_get_node(&r->doc, *it);
		const char *text = scalar(item);
		if (!text || !strchr(text, '=')) {
			diag_error(r->d, at(r, item), "a state is a line of bindings like \"0:r1=1; [x]=2;\"");
			return false;
		}
		e->states = xrealloc(e->states, ((size_t)e->n_states + 1) * sizeof *e->states);
		e->states[e->n_states].norm = state_normalize(text);
		e->states[e->n_states++].text = xstrdup(text);
	}
	if (e->n_states > 0)
		qsort(e->states, (size_t)e->n_states, sizeof *e->states, compare_pairs);
	return true;
}

/* MODEL: VERDICT, or MODEL: {verdict: V, states: [...]} */
static bool read_model(reader *r, const char *test, yaml_node_t *key, yaml_node_t *val, expectation *e)
{
	const char *model = scalar(key);
	if (!model || !*model) {
		diag_error(r->d, at(r, key), "expected a model name under test '%s'", test);
		return false;
	}
	e->test = xstrdup(test);
	e->model = suite_model_key(model);
	e->file = xstrdup(r->path);
	e->line = (int)key->start_mark.line + 1;
	const char *v = scalar(val);
	if (v) {
		if (!parse_verdict(v, &e->verdict)) {
			diag_error(r->d, at(r, val), "unknown verdict '%s' (allowed, forbidden, required, Ok, No)", v);
			return false;
		}
		return true;
	}
	if (val->type != YAML_MAPPING_NODE) {
		diag_error(r->d, at(r, val), "expected a verdict or {verdict: ..., states: [...]} for %s/%s",
			   test, model);
		return false;
	}
	for (yaml_node_pair_t *p = val->data.mapping.pairs.start; p < val->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&r->doc, p->key);
		yaml_node_t *x = yaml_document_get_node(&r->doc, p->value);
		const char *name = scalar(k);
		if (name && !strcmp(name, "verdict")) {
			const char *w = scalar(x);
			if (!w || !parse_verdict(w, &e->verdict)) {
				diag_error(r->d, at(r, x), "unknown verdict '%s' (allowed, forbidden, required, Ok, No)",
					   w ? w : "");
				return false;
			}
		} else if (name && !strcmp(name, "states")) {
			if (!read_states(r, x, e))
				return false;
		} else {
			diag_error(r->d, at(r, k), "unknown key '%s' (verdict, states)", name ? name : "");
			return false;
		}
	}
	if (e->verdict == EXP_NONE && !e->has_states) {
		diag_error(r->d, at(r, val), "%s/%s: give a verdict, states, or both", test, model);
		return false;
	}
	return true;
}

static bool read_root(reader *r, expect_set *s, yaml_node_t *root)
{
	if (root->type != YAML_MAPPING_NODE) {
		diag_error(r->d, at(r, root), "expected a mapping of test names to {model: verdict}");
		return false;
	}
	for (yaml_node_pair_t *p = root->data.mapping.pairs.start; p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&r->doc, p->key);
		yaml_node_t *v = yaml_document_get_node(&r->doc, p->value);
		const char *test = scalar(k);
		if (!test || !*test) {
			diag_error(r->d, at(r, k), "expected a test name");
			return false;
		}
		if (v->type != YAML_MAPPING_NODE) {
			diag_error(r->d, at(r, v), "expected {model: verdict, ...} under test '%s'", test);
			return false;
		}
		for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
			GROW(s->v, s->cap, (size_t)s->n + 1);
			expectation *e = &s->v[s->n];
			memset(e, 0, sizeof *e);
			bool ok = read_model(r, test, yaml_document_get_node(&r->doc, q->key),
					     yaml_document_get_node(&r->doc, q->value), e);
			if (!ok) {
				expectation_free(e);
				return false;
			}
			s->n++;
		}
	}
	return true;
}

static int compare_expectations(const void *a, const void *b)
{
	const expectation *x = a, *y = b;
	int c = strcmp(x->test, y->test);
	return c ? c : strcmp(x->model, y->model);
}

bool expect_read(expect_set *s, const char *path, diag *d)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		diag_error(d, (srcloc){ path, 0, 0 }, "cannot open expectations");
		return false;
	}
	yaml_parser_t parser;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	reader r = { .path = path, .d = d };
	bool ok;
	if (!yaml_parser_load(&parser, &r.doc)) {
		diag_error(d, (srcloc){ path, (int)parser.problem_mark.line + 1, (int)parser.problem_mark.column + 1 },
			   "YAML: %s", parser.problem ? parser.problem : "malformed");
		ok = false;
	} else {
		yaml_node_t *root = yaml_document_get_root_node(&r.doc);
		/* An empty file expects nothing. */
		ok = !root || (root->type == YAML_SCALAR_NODE && !*scalar(root)) || read_root(&r, s, root);
		yaml_document_delete(&r.doc);
	}
	yaml_parser_delete(&parser);
	fclose(f);
	/* Sorted now, in the parent: workers only search. */
	if (s->n > 0)
		qsort(s->v, (size_t)s->n, sizeof *s->v, compare_expectations);
	return ok;
}

/* ---- checking ------------------------------------------------------------- */

static bool verdict_matches(enum expected_verdict v, enum quantifier q, long pos, long neg)
{
	switch (v) {
	case EXP_NONE: return true;
	case EXP_ALLOWED: return pos > 0;
	case EXP_FORBIDDEN: return pos == 0;
	case EXP_REQUIRED: return neg == 0;
	case EXP_OK: return verdict_ok(q, pos, neg);
	case EXP_NO: return !verdict_ok(q, pos, neg);
	}
	return false;
}

/* The states of r, sorted by canonical form. */
static state_pair *result_states(const litmus_test *t, const test_result *r)
{
	state_pair *v = xcalloc((size_t)r->n_states + 1, sizeof *v);
	for (int i = 0; i < r->n_states; i++) {
		v[i].text = report_state_line(t, r, i);
		v[i].norm = state_normalize(v[i].text);
	}
	qsort(v, (size_t)r->n_states, sizeof *v, compare_pairs);
	return v;
}

/* Merge-walk two sorted lists, listing what only one has. */
static bool states_differ(const state_pair *want, int n_want, const state_pair *got, int n_got,
			  strbuf *missing, strbuf *extra)
{
	int i = 0, j = 0;
	while (i < n_want || j < n_got) {
		int c = i == n_want ? 1 : j == n_got ? -1 : strcmp(want[i].norm, got[j].norm);
		if (c < 0)
			sb_printf(missing, " \"%s\"", want[i++].text);
		else if (c > 0)
			sb_printf(extra, " \"%s\"", got[j++].text);
		else
			i++, j++;
	}
	return missing->len > 0 || extra->len > 0;
}

int expect_check(const expect_set *s, const litmus_test *t, const char *model_key,
		 const test_result *r, strbuf *notes)
{
	expectation key = { .test = t->name, .model = (char *)model_key };
	int lo = 0, hi = s->n;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (compare_expectations(&s->v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	int failed = 0;
	state_pair *got = NULL;
	for (int i = lo; i < s->n && !compare_expectations(&s->v[i], &key); i++) {
		const expectation *e = &s->v[i];
		strbuf why = { 0 };
		if (!verdict_matches(e->verdict, t->quant, r->pos, r->neg)) {
			const char *said = e->verdict == EXP_OK || e->verdict == EXP_NO
				? (verdict_ok(t->quant, r->pos, r->neg) ? "Ok" : "No")
				: outcome_name(r->pos, r->neg);
			sb_printf(&why, "expected %s, got %s (positive %ld, negative %ld)", verdict_words[e->verdict],
				  said, r->pos, r->neg);
		}
		if (e->has_states) {
			if (!got)
				got = result_states(t, r);
			strbuf missing = { 0 }, extra = { 0 };
			if (states_differ(e->states, e->n_states, got, r->n_states, &missing, &extra)) {
				sb_printf(&why, "%sstates differ:", why.len ? "; " : "");
				if (missing.len)
					sb_printf(&why, " missing%s", missing.s);
				if (extra.len)
					sb_printf(&why, "%s unexpected%s", missing.len ? ";" : "", extra.s);
			}
			sb_free(&missing);
			sb_free(&extra);
		}
		if (why.len) {
			sb_printf(notes, "  %s (%s): %s  [%s:%d]\n", t->name, model_key, why.s, e->file, e->line);
			failed++;
		}
		sb_free(&why);
	}
	if (got) {
		for (int i = 0; i < r->n_states; i++) {
			free(got[i].norm);
			free(got[i].text);
		}
		free(got);
	}
	return failed;
}
