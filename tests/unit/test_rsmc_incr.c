/* test_rsmc_incr.c — cat_partial (cat_incr.c), the evaluators RSMC checks
 * its executions with, against the model's own evaluator: on every
 * candidate execution the enumerator judges for a sample of corpus tests,
 * under weft's models and herd7's own cat files (functions, flags, tags,
 * fence sets looked up by name), cat_partial_check_all must give
 * cat_model_check's verdict (allowed, failing check, fired flags) and
 * cat_partial_check cat_model_check_partial's.  A second model instance
 * judges, so neither evaluator shares state with the other.  Also: the
 * verdicts stay right when the same executions come back in another
 * order (the kept values are keyed by their inputs, not by history).
 * Skipped, with a message, without the shared corpus. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cat/cat.h"
#include "cat/analysis/cat_analysis.h"
#include "engine/engine.h"
#include "litmus/litmus.h"

static int failures;
static long compared;

#define CHECK(cond, ...)                                                         \
	do {                                                                     \
		if (!(cond) && failures++ < 20) {                                \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                            \
			fputc('\n', stderr);                                     \
		}                                                                \
	} while (0)

typedef struct cmp_ctx {
	cat_model *ref;      /* judges with its own evaluator */
	cat_partial *p;      /* under test */
	const char *what;    /* test and model, for messages */
	int n_keep;          /* executions kept for the second pass */
	execution *keep;
} cmp_ctx;

static bool same_verdict(const cat_verdict *a, const cat_verdict *b)
{
	if (a->allowed != b->allowed || a->n_flags != b->n_flags || a->n_allowed != b->n_allowed)
		return false;
	if ((a->failed == NULL) != (b->failed == NULL) || (a->failed && strcmp(a->failed, b->failed)))
		return false;
	for (int i = 0; i < a->n_flags; i++)
		if (strcmp(a->flags[i], b->flags[i]))
			return false;
	return true;
}

static void compare(cmp_ctx *c, const execution *x)
{
	diag d = { .out = stderr };
	cat_verdict r = { 0 }, q = { 0 };
	bool ok1 = cat_model_check(c->ref, x, &r, &d);
	/* copy the reference verdict: the next call on ref reuses its buffer */
	bool allowed = r.allowed;
	const char *failed = r.failed;
	int nf = r.n_flags, n_allowed = r.n_allowed;
	const char *flags[64];
	for (int i = 0; i < nf && i < 64; i++)
		flags[i] = r.flags[i];
	bool ok2 = cat_partial_check_all(c->p, x, &q, &d);
	CHECK(ok1 == ok2, "%s: evaluation %d vs %d", c->what, ok1, ok2);
	cat_verdict rr = { allowed, failed, nf < 64 ? nf : 64, flags, NULL, n_allowed };
	if (ok1 && ok2) {
		compared++;
		CHECK(same_verdict(&rr, &q), "%s: complete verdicts differ (%s vs %s)", c->what,
		      failed ? failed : "allowed", q.failed ? q.failed : "allowed");
	}
	ok1 = cat_model_check_partial(c->ref, x, &r, &d);
	allowed = r.allowed;
	failed = r.failed;
	ok2 = cat_partial_check(c->p, x, &q, &d);
	CHECK(ok1 == ok2, "%s: partial evaluation %d vs %d", c->what, ok1, ok2);
	if (ok1 && ok2)
		CHECK(allowed == q.allowed && (failed == NULL) == (q.failed == NULL),
		      "%s: partial verdicts differ", c->what);
}

static void copy_execution(execution *dst, const execution *src)
{
	execution_init(dst, src->test, src->n);
	memcpy(dst->ev, src->ev, (size_t)src->n * sizeof *src->ev);
	brel *d[] = { &dst->po, &dst->rf, &dst->co, &dst->addr, &dst->data, &dst->ctrl, &dst->rmw };
	const brel *s[] = { &src->po, &src->rf, &src->co, &src->addr, &src->data, &src->ctrl, &src->rmw };
	for (int i = 0; i < 7; i++) {
		brel_free(d[i]);
		*d[i] = brel_copy(s[i]);
	}
}

static void on_candidate(void *vctx, const engine_candidate *cand)
{
	cmp_ctx *c = vctx;
	compare(c, cand->x);
	if (c->n_keep < 64) {
		execution *k = &c->keep[c->n_keep++];
		copy_execution(k, cand->x);
	}
}

static void run_one(const char *path, const char *model, const cat_search_path *sp)
{
	diag d = { .out = stderr };
	litmus_test *t = litmus_parse_file(path, &d);
	if (!t)
		return;
	cat_model *judge = cat_model_load(model, &(cat_load_options){ .search = sp }, &d);
	cat_model *ref = cat_model_load(model, &(cat_load_options){ .search = sp }, &d);
	cat_model *mine = cat_model_load(model, &(cat_load_options){ .search = sp }, &d);
	CHECK(judge && ref && mine, "model %s loads", model);
	if (judge && ref && mine) {
		char what[512];
		snprintf(what, sizeof what, "%s under %s", path, model);
		cmp_ctx c = { ref, cat_partial_new(mine), what, 0, xcalloc(64, sizeof(execution)) };
		engine_opts o = { .timeout = 10, .unroll = ENGINE_UNROLL_DEFAULT, .on_candidate = on_candidate, .candidate_ctx = &c };
		test_result r = { 0 };
		engine_run("enumerate", t, judge, &o, &r, &d);
		test_result_free(&r);
		/* the kept executions again, last first */
		for (int i = c.n_keep - 1; i >= 0; i--)
			compare(&c, &c.keep[i]);
		for (int i = 0; i < c.n_keep; i++)
			execution_free(&c.keep[i]);
		free(c.keep);
		cat_partial_free(c.p);
	}
	cat_model_free(judge);
	cat_model_free(ref);
	cat_model_free(mine);
	litmus_test_free(t);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every k-th .litmus file of dir, sorted, at most n. */
static int sample(const char *dir, int n, char ***out)
{
	DIR *dp = opendir(dir);
	if (!dp)
		return 0;
	int cnt = 0;
	size_t cap = 0;
	char **all = NULL;
	struct dirent *de;
	while ((de = readdir(dp))) {
		size_t l = strlen(de->d_name);
		if (l < 8 || strcmp(de->d_name + l - 7, ".litmus"))
			continue;
		GROW(all, cap, (size_t)cnt + 1);
		all[cnt++] = xstrdup(de->d_name);
	}
	closedir(dp);
	qsort(all, (size_t)cnt, sizeof *all, cmp_names);
	int k = cnt > n ? cnt / n : 1, m = 0;
	char **pick = xcalloc((size_t)n + 1, sizeof *pick);
	for (int i = 0; i < cnt; i++) {
		if (i % k == 0 && m < n) {
			pick[m++] = xasprintf("%s/%s", dir, all[i]);
		}
		free(all[i]);
	}
	free(all);
	*out = pick;
	return m;
}

int main(void)
{
	char corpus[1024], herd[1024];
	snprintf(corpus, sizeof corpus, "%s/corpus/tests", WEFT_SHARED_DIR);
	snprintf(herd, sizeof herd, "%s/corpus/herd-cat", WEFT_SHARED_DIR);
	struct stat st;
	if (stat(corpus, &st) != 0 || stat(herd, &st) != 0) {
		printf("test_rsmc_incr: skipped: no corpus under %s\n", WEFT_SHARED_DIR);
		return 0;
	}
	const char *ours_dirs[] = { WEFT_SOURCE_CATDIR };
	const char *herd_dirs[] = { herd };
	cat_search_path ours = { 1, ours_dirs }, theirs = { 1, herd_dirs };
	struct {
		const char *arch;
		int n;
		const char *models[4];
		const cat_search_path *sp;
	} runs[] = {
		{ "PPC", 60, { "power", "sc", NULL }, &ours },
		{ "PPC", 40, { "ppc.cat", "sc.cat", NULL }, &theirs },
		{ "X86", 40, { "tso", "sc", NULL }, &ours },
		{ "X86", 40, { "x86tso.cat", "x86tso-mixed.cat", NULL }, &theirs },
	};
	for (size_t r = 0; r < sizeof runs / sizeof runs[0]; r++) {
		char dir[1200];
		snprintf(dir, sizeof dir, "%s/%s", corpus, runs[r].arch);
		char **files = NULL;
		int nf = sample(dir, runs[r].n, &files);
		for (int i = 0; i < nf; i++) {
			for (int k = 0; runs[r].models[k]; k++)
				run_one(files[i], runs[r].models[k], runs[r].sp);
			free(files[i]);
		}
		free(files);
	}
	CHECK(compared > 1000, "too few executions compared: %ld", compared);
	printf("test_rsmc_incr: %ld executions compared, %d failures\n", compared, failures);
	return failures ? 1 : 0;
}
