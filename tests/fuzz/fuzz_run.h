/* fuzz_run.h — what the libFuzzer targets of tests/fuzz share: the input as
 * a NUL-terminated string, a diagnostics sink, weft's own models, and a
 * short run of both engines on a test (the readers' output must also be
 * something the engines survive).  Built only with --enable-fuzzing. */
#ifndef WEFT_FUZZ_RUN_H
#define WEFT_FUZZ_RUN_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cat/cat.h"
#include "engine/engine.h"
#include "litmus/litmus.h"

/* Inputs larger than this are skipped: they only slow the search down. */
enum { FUZZ_MAX_INPUT = 8192 };

static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Diagnostics go nowhere: a fuzzer prints only what crashes. */
static inline diag fuzz_diag(void)
{
	static FILE *sink;
	if (!sink)
		sink = fopen("/dev/null", "w");
	diag d = { .out = sink };
	return d;
}

static inline cat_search_path fuzz_search_path(void)
{
	static const char *dirs[] = { WEFT_SOURCE_CATDIR };
	cat_search_path sp = { 1, dirs };
	return sp;
}

/* Small enough to explore in a few milliseconds. */
static inline bool fuzz_small(const litmus_test *t)
{
	int ops = 0;
	for (int i = 0; i < t->n_threads; i++)
		ops += t->threads[i].n_ops;
	return t->n_threads <= 4 && ops <= 48;
}

/* Both engines under model m, each with a short time limit: a target runs
 * them under two models, so an input costs at most about 4 x 0.1 s plus the
 * engines' overshoot past their deadline, and one slower than 2 s (what
 * scripts/fuzz reports) is an engine that does not stop in time. */
static inline void fuzz_engines(const litmus_test *t, cat_model *m, diag *d)
{
	static const char *const engines[] = { "rsmc", "enumerate" };
	engine_opts o = { .unroll = ENGINE_UNROLL_DEFAULT };
	o.timeout = 0.1;
	for (size_t i = 0; i < sizeof engines / sizeof engines[0]; i++) {
		test_result r;
		if (engine_run(engines[i], t, m, &o, &r, d))
			test_result_free(&r);
	}
}

#endif
