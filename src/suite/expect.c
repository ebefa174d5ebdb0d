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
	char *model;          /* the key as written, until expect_resolve
	                       * makes it the label of one model of the run */
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
	e->model = xstrdup(model);
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

/* The value of key `name` in mapping node m, or NULL. */
static yaml_node_t *lookup(reader *r, yaml_node_t *m, const char *name)
{
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		const char *k = scalar(yaml_document_get_node(&r->doc, p->key));
		if (k && !strcmp(k, name))
			return yaml_document_get_node(&r->doc, p->value);
	}
	return NULL;
}

/* A document of weft's own -format yaml output (it has a scalar `name` and
 * a `model`), rather than a mapping of test names. */
static bool is_result_doc(reader *r, yaml_node_t *root)
{
	return root->type == YAML_MAPPING_NODE && scalar(lookup(r, root, "name")) && lookup(r, root, "model");
}

/* One result document as the expectation that the same test under the same
 * model gives the same outcome and states again (a recorded baseline).  A
 * test that had no result (Timeout, Error, ...) expects nothing. */
static bool read_result_doc(reader *r, expect_set *s, yaml_node_t *root)
{
	const char *test = scalar(lookup(r, root, "name"));
	yaml_node_t *model = lookup(r, root, "model");
	const char *outcome = scalar(lookup(r, root, "outcome"));
	yaml_node_t *states = lookup(r, root, "states");
	if (!scalar(model) || !*scalar(model)) {
		diag_error(r->d, at(r, model), "expected a model name for test '%s'", test);
		return false;
	}
	if (!outcome)
		return true;
	GROW(s->v, s->cap, (size_t)s->n + 1);
	expectation *e = &s->v[s->n];
	memset(e, 0, sizeof *e);
	e->test = xstrdup(test);
	e->model = xstrdup(scalar(model));
	e->file = xstrdup(r->path);
	e->line = (int)root->start_mark.line + 1;
	bool ok = parse_verdict(outcome, &e->verdict);
	if (!ok)
		diag_error(r->d, at(r, root), "unknown outcome '%s' (allowed, forbidden, required)", outcome);
	if (ok && states && states->type == YAML_SEQUENCE_NODE) {
		e->has_states = true;
		for (yaml_node_item_t *it = states->data.sequence.items.start; it < states->data.sequence.items.top;
		     it++) {
			yaml_node_t *item = yaml_document_get_node(&r->doc, *it);
			const char *text = item && item->type == YAML_MAPPING_NODE ? scalar(lookup(r, item, "state"))
										 : NULL;
			if (!text) {
				diag_error(r->d, at(r, item), "expected {state: ..., ...} in the states of '%s'", test);
				ok = false;
				break;
			}
			e->states = xrealloc(e->states, ((size_t)e->n_states + 1) * sizeof *e->states);
			e->states[e->n_states].norm = state_normalize(text);
			e->states[e->n_states++].text = xstrdup(text);
		}
		if (ok && e->n_states > 0)
			qsort(e->states, (size_t)e->n_states, sizeof *e->states, compare_pairs);
	}
	if (!ok) {
		expectation_free(e);
		return false;
	}
	s->n++;
	return true;
}

static int compare_expectations(const void *a, const void *b)
{
	const expectation *x = a, *y = b;
	int c = strcmp(x->test, y->test);
	return c ? c : strcmp(x->model, y->model);
}

/* The reader behind expect_read and expect_read_text: the parser's input
 * is set; `path` names it in messages. */
static bool read_parser(expect_set *s, yaml_parser_t *parser, const char *path, diag *d)
{
	reader r = { .path = path, .d = d };
	bool ok = true, results = false;
	/* One document of expectations, or a stream of result documents. */
	for (int n = 0; ok; n++) {
		if (!yaml_parser_load(parser, &r.doc)) {
			diag_error(d, (srcloc){ path, (int)parser->problem_mark.line + 1,
						(int)parser->problem_mark.column + 1 },
				   "YAML: %s", parser->problem ? parser->problem : "malformed");
			ok = false;
			break;
		}
		yaml_node_t *root = yaml_document_get_root_node(&r.doc);
		if (!root) {   /* the end of the stream */
			yaml_document_delete(&r.doc);
			break;
		}
		if (n == 0)
			results = is_result_doc(&r, root);
		if (results && !is_result_doc(&r, root)) {
			diag_error(d, at(&r, root), "expected a result document (name, model, ...) like the ones before");
			ok = false;
		} else if (results) {
			ok = read_result_doc(&r, s, root);
		} else if (n > 0) {
			diag_error(d, at(&r, root), "a second document: an expectations file is one mapping of "
				   "test names (or a stream of weft's -format yaml results)");
			ok = false;
		} else {
			/* An empty file expects nothing (and then compares nothing,
			 * which the run reports). */
			ok = (root->type == YAML_SCALAR_NODE && !*scalar(root)) || read_root(&r, s, root);
		}
		yaml_document_delete(&r.doc);
	}
	/* Sorted now, in the parent: workers only search. */
	if (s->n > 0)
		qsort(s->v, (size_t)s->n, sizeof *s->v, compare_expectations);
	return ok;
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
	bool ok = read_parser(s, &parser, path, d);
	yaml_parser_delete(&parser);
	fclose(f);
	return ok;
}

bool expect_read_text(expect_set *s, const char *name, const char *text, size_t len, diag *d)
{
	yaml_parser_t parser;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
	bool ok = read_parser(s, &parser, name, d);
	yaml_parser_delete(&parser);
	return ok;
}

/* ---- resolving model keys ------------------------------------------------------- */

void expect_resolve(expect_set *s, expect_resolver resolve, void *ctx)
{
	/* Each distinct key once: its first place, how many use it, its label. */
	int n_keys = 0;
	int *first = xcalloc((size_t)s->n + 1, sizeof *first);
	int *uses = xcalloc((size_t)s->n + 1, sizeof *uses);
	int *key_of = xcalloc((size_t)s->n + 1, sizeof *key_of);
	for (int i = 0; i < s->n; i++) {
		int k = 0;
		while (k < n_keys && strcmp(s->v[first[k]].model, s->v[i].model))
			k++;
		if (k == n_keys)
			first[n_keys++] = i;
		else if (!strcmp(s->v[i].file, s->v[first[k]].file) && s->v[i].line < s->v[first[k]].line)
			first[k] = i;   /* report the key where a reader meets it first */
		uses[k]++;
		key_of[i] = k;
	}
	char **label = xcalloc((size_t)n_keys + 1, sizeof *label);
	for (int k = 0; k < n_keys; k++) {
		const expectation *e = &s->v[first[k]];
		const char *l = resolve(ctx, e->model, e->file, e->line, uses[k]);
		label[k] = l ? xstrdup(l) : NULL;
	}
	int kept = 0;
	for (int i = 0; i < s->n; i++) {
		expectation *e = &s->v[i];
		if (!label[key_of[i]]) {
			expectation_free(e);
			continue;
		}
		free(e->model);
		e->model = xstrdup(label[key_of[i]]);
		s->v[kept++] = *e;
	}
	s->n = kept;
	if (s->n > 0)
		qsort(s->v, (size_t)s->n, sizeof *s->v, compare_expectations);
	for (int k = 0; k < n_keys; k++)
		free(label[k]);
	free(label);
	free(key_of);
	free(uses);
	free(first);
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
		 const test_result *r, strbuf *notes, int *compared)
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
	if (lo < s->n && !compare_expectations(&s->v[lo], &key))
		(*compared)++;
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
