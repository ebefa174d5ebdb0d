/* test_cat_expect.h — evaluating a cat expression on a hand-built
 * execution and comparing it with the expected pairs or members, for the
 * cat unit tests: a relation is written "a>b c>d" over event indices, a
 * set "a b".  Set expect_on to the execution first, and scratch_init(&S). */
#ifndef WEFT_TEST_CAT_EXPECT_H
#define WEFT_TEST_CAT_EXPECT_H

#include "test_cat_util.h"
#include "../../src/exec/exec.h"

/* The next number in a spec from *p on, other characters skipped; false
 * at its end. */
static bool next_number(const char **p, long *out)
{
	while (**p) {
		char *end;
		long a = strtol(*p, &end, 10);
		if (end != *p) {
			*p = end;
			*out = a;
			return true;
		}
		(*p)++;
	}
	return false;
}

/* "a>b c>d" -> relation over n events. */
static brel pairs(int n, const char *spec)
{
	brel r = brel_new(n);
	const char *p = spec;
	long a, b;
	while (next_number(&p, &a))
		if (*p == '>' && (p++, next_number(&p, &b)))
			brel_add(&r, (int)a, (int)b);
	return r;
}

static void pr_rel(const brel *r, char *buf, size_t cap)
{
	size_t len = 0;
	buf[0] = 0;
	for (int i = 0; i < r->n; i++)
		for (int j = 0; j < r->n; j++)
			if (brel_has(r, i, j) && len + 16 < cap)
				len += (size_t)snprintf(buf + len, cap - len, "%s%d>%d", len ? " " : "", i, j);
}

static scratch S;
/* The execution expect_rel and expect_set evaluate on. */
static const execution *expect_on;

static cat_model *load_text(const char *name, const char *text, const char *const *variants)
{
	const char *path = scratch_file(&S, name, text);
	cat_search_path sp = weft_path();
	captured c;
	capture_begin(&c);
	cat_model *m = cat_model_load(path, &(cat_load_options){ .search = &sp, .variants = variants }, &c.d);
	const char *msgs = capture_end(&c);
	CHECK(m != NULL, "model %s does not load: %s", name, msgs);
	capture_free(&c);
	return m;
}

/* Define v = <expr> in a model and compare v with the expected pairs. */
static void expect_rel_v(const char *expr, const char *want, const char *const *variants)
{
	char *text = xasprintf("let v = %s\n", expr);
	cat_model *m = load_text("expr.cat", text, variants);
	free(text);
	if (!m)
		return;
	brel got;
	captured c;
	capture_begin(&c);
	bool ok = cat_model_eval_relation(m, expect_on, "v", &got, &c.d);
	const char *msgs = capture_end(&c);
	if (!ok) {
		CHECK(false, "'%s' does not evaluate: %s", expr, msgs);
	} else {
		brel w = pairs(expect_on->n, want);
		char gb[512], wb[512];
		pr_rel(&got, gb, sizeof gb);
		pr_rel(&w, wb, sizeof wb);
		CHECK(brel_equal(&got, &w), "'%s'\n   got  {%s}\n   want {%s}", expr, gb, wb);
		brel_free(&w);
		brel_free(&got);
	}
	capture_free(&c);
	cat_model_free(m);
}

static void expect_rel(const char *expr, const char *want) { expect_rel_v(expr, want, NULL); }

/* A set S, checked as [S]. */
static void expect_set(const char *expr, const char *members)
{
	char *e = xasprintf("[%s]", expr);
	/* members "2 4" -> "2>2 4>4" */
	strbuf w = { 0 };
	const char *p = members;
	long a;
	while (next_number(&p, &a))
		sb_printf(&w, "%ld>%ld ", a, a);
	expect_rel(e, w.s ? w.s : "");
	sb_free(&w);
	free(e);
}

#endif
