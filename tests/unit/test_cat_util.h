/* test_cat_util.h — small helpers shared by the cat unit tests: counting
 * checks, writing model text to a scratch folder, loading it with weft's
 * own cat/ folder on the search path, capturing diagnostics. */
#ifndef WEFT_TEST_CAT_UTIL_H
#define WEFT_TEST_CAT_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../src/cat/cat.h"
#include "../../src/cat/analysis/cat_analysis.h"
#include "check.h"

#ifndef WEFT_SOURCE_CATDIR
#define WEFT_SOURCE_CATDIR "cat"
#endif
#ifndef WEFT_SHARED_DIR
#define WEFT_SHARED_DIR "../shared"
#endif


/* A scratch folder for model files, removed by scratch_done(). */
typedef struct scratch {
	char dir[256];
	int nfiles;
	char files[64][320];
} scratch;

static inline void scratch_init(scratch *s)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(s->dir, sizeof s->dir, "%s/weft-cat-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(s->dir)) {
		perror("mkdtemp");
		exit(2);
	}
	s->nfiles = 0;
}

/* Write `text` to dir/name; returns the path (owned by s). */
static inline const char *scratch_file(scratch *s, const char *name, const char *text)
{
	char want[320];
	snprintf(want, sizeof want, "%s/%s", s->dir, name);
	char *path = NULL;
	for (int i = 0; i < s->nfiles && !path; i++)
		if (!strcmp(s->files[i], want))
			path = s->files[i];
	if (!path) {
		if (s->nfiles >= 64) {
			fprintf(stderr, "scratch: too many files\n");
			exit(2);
		}
		path = s->files[s->nfiles++];
		memcpy(path, want, sizeof want);
	}
	FILE *f = fopen(path, "w");
	if (!f) {
		perror(path);
		exit(2);
	}
	fputs(text, f);
	fclose(f);
	return path;
}

static inline void scratch_done(scratch *s)
{
	for (int i = 0; i < s->nfiles; i++)
		remove(s->files[i]);
	rmdir(s->dir);
}

/* The search path of the tests: weft's own cat/ folder. */
static inline cat_search_path weft_path(void)
{
	static const char *dirs[] = { WEFT_SOURCE_CATDIR };
	cat_search_path sp = { 1, dirs };
	return sp;
}

/* A diag that writes into a memory buffer, so messages can be checked. */
typedef struct captured {
	diag d;
	char *buf;
	size_t len;
} captured;

static inline void capture_begin(captured *c)
{
	c->buf = NULL;
	c->len = 0;
	c->d = (diag){ .out = open_memstream(&c->buf, &c->len) };
}

static inline const char *capture_end(captured *c)
{
	fclose(c->d.out);
	c->d.out = NULL;
	return c->buf ? c->buf : "";
}

static inline void capture_free(captured *c)
{
	free(c->buf);
	c->buf = NULL;
}

/* herd's model folder from the shared corpus, or NULL (with a message). */
static inline const char *herd_cat_dir(const char *test)
{
	static char dir[1024];
	snprintf(dir, sizeof dir, "%s/corpus/herd-cat", WEFT_SHARED_DIR);
	char probe[1100];
	snprintf(probe, sizeof probe, "%s/ppc.cat", dir);
	FILE *f = fopen(probe, "r");
	if (!f) {
		printf("%s: SKIP herd7 model checks: %s not found (the shared corpus is absent)\n", test, dir);
		return NULL;
	}
	fclose(f);
	return dir;
}

#endif
