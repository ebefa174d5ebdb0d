/* judging.c — weft -judge's bookkeeping: each test's text to judge_output,
 * the kernel's lines and the summary out (see judging.h). */
#include <stdlib.h>

#include "judging.h"
#include "../suite/suite.h"

void judging_init(judging *j, const test_plan *plan, bool verbose, FILE *out)
{
	*j = (judging){ .plan = plan, .verbose = verbose, .out = out, .err_job = -1 };
}

void judging_err(judging *j, int i, const char *text, size_t len)
{
	if (j->err_job != i)
		sb_reset(&j->err);
	j->err_job = i;
	sb_putn(&j->err, text, len);
}

void judging_test(judging *j, int i, const char *out, size_t len)
{
	const char *path = j->plan->v[i].path;
	/* what a kernel script's FILE.litmus.out holds: herd7's stderr and
	 * stdout (the diagnostics come first here, which no rule minds) */
	strbuf text = { 0 };
	if (j->err_job == i)
		sb_putn(&text, j->err.s ? j->err.s : "", j->err.len);
	sb_putn(&text, out, len);
	j->err_job = -1;
	sb_reset(&j->err);
	judge_expect e;
	size_t srclen = 0;
	/* a test that cannot be read was already reported by its run */
	diag quiet = { .drop = true };
	char *src = read_whole_file(path, &srclen, &quiet);
	judge_expect_read(&e, src ? src : "", srclen);
	free(src);
	strbuf line = { 0 };
	switch (judge_output(&e, text.s ? text.s : "", text.len, path, &line)) {
	case JUDGE_PASS: j->passed++; break;
	case JUDGE_FORGIVEN: j->forgiven++; break;
	case JUDGE_FAIL: j->failed++; break;
	case JUDGE_UNJUDGED:
		j->unjudged++;
		if (j->verbose)
			sb_printf(&line, " --- No Result: comment %s", path);
		break;
	}
	if (line.len) {
		fprintf(j->out, "%s\n", line.s);
		fflush(j->out);
	}
	sb_free(&line);
	judge_expect_free(&e);
	sb_free(&text);
}

bool judging_summary(const judging *j)
{
	int judged = j->passed + j->forgiven + j->failed;
	if (judged == 0)
		fprintf(j->out, " ^^^ NOTHING JUDGED: no test has a Result: comment");
	else if (j->failed)
		fprintf(j->out, " ^^^ VERIFICATION MISMATCHES: %d failed of %d judged", j->failed, judged);
	else
		fprintf(j->out, "All litmus tests verified as was expected: %d judged", judged);
	if (j->forgiven)
		fprintf(j->out, " (%d forgiven a data race)", j->forgiven);
	if (j->unjudged)
		fprintf(j->out, "; %d ran without a Result: comment%s", j->unjudged,
			j->verbose ? "" : " (-v names them)");
	fputc('\n', j->out);
	fflush(j->out);
	/* a run that judged nothing must not look like one that passed */
	return j->failed == 0 && judged > 0;
}

void judging_free(judging *j)
{
	sb_free(&j->err);
}
