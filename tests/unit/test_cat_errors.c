/* test_cat_errors.c — malformed models give located errors, never a crash.
 *
 * Each file of tests/cat/ starts with a comment
 *     (* expect: LINE:COL: message fragment *)
 * and must fail `cat_check_file` with exactly one error at that place
 * containing that fragment.  Then random mutations of real model files
 * (bytes replaced, deleted, duplicated; truncations) are loaded: they may
 * load or fail, but must not crash (run under ASan/UBSan to make that a
 * strong statement). */
#include <dirent.h>

#include "test_cat_util.h"

#ifndef WEFT_CAT_FIXTURES
#define WEFT_CAT_FIXTURES WEFT_SOURCE_CATDIR "/../tests/cat"
#endif

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void test_fixtures(void)
{
	DIR *dir = opendir(WEFT_CAT_FIXTURES);
	CHECK(dir != NULL, "cannot open %s", WEFT_CAT_FIXTURES);
	if (!dir)
		return;
	char *names[256];
	int n = 0;
	struct dirent *de;
	while ((de = readdir(dir)) && n < 256) {
		size_t len = strlen(de->d_name);
		if (len > 4 && !strcmp(de->d_name + len - 4, ".cat"))
			names[n++] = xstrdup(de->d_name);
	}
	closedir(dir);
	qsort(names, (size_t)n, sizeof names[0], cmp_str);
	CHECK(n >= 15, "at least 15 malformed models (found %d)", n);
	cat_search_path sp = weft_path();
	for (int i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", WEFT_CAT_FIXTURES, names[i]);
		size_t len;
		diag quiet = { .out = stderr };
		char *text = read_whole_file(path, &len, &quiet);
		const char *tag = text ? strstr(text, "(* expect: ") : NULL;
		CHECK(tag != NULL, "%s: no '(* expect: ... *)' line", names[i]);
		if (tag) {
			tag += strlen("(* expect: ");
			const char *end = strstr(tag, " *)");
			char want[512];
			snprintf(want, sizeof want, "%.*s", end ? (int)(end - tag) : 0, tag);
			/* want = "L:C: fragment" */
			char *colon2 = strchr(want, ':') ? strchr(strchr(want, ':') + 1, ':') : NULL;
			if (!colon2) {
				CHECK(false, "%s: malformed expectation '%s'", names[i], want);
			} else {
				*colon2 = 0;
				const char *loc = want, *frag = colon2 + 2;
				captured c;
				capture_begin(&c);
				bool ok = cat_check_file(path, &(cat_load_options){ .search = &sp }, &c.d);
				int errors = c.d.errors;
				const char *msgs = capture_end(&c);
				char *prefix = xasprintf("%s:%s: error: ", path, loc);
				CHECK(!ok, "%s: loads without error", names[i]);
				CHECK(errors == 1, "%s: %d errors reported", names[i], errors);
				CHECK(!strncmp(msgs, prefix, strlen(prefix)) && strstr(msgs, frag),
				      "%s:\n   got  %s   want %s...%s", names[i], msgs, prefix, frag);
				free(prefix);
				capture_free(&c);
			}
		}
		free(text);
		free(path);
		free(names[i]);
	}
}

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)((rng >> 11) % n);
}

static char *mutate(const char *src, size_t len)
{
	strbuf b = { 0 };
	sb_putn(&b, src, len);
	static const char junk[] = "()[]{}|&;\\*+?^-1~_0'\"=,->#let rec and in fun match with end try if";
	int edits = 1 + (int)rnd(4);
	for (int k = 0; k < edits && b.len > 0; k++) {
		size_t at = rnd((unsigned)b.len);
		switch (rnd(5)) {
		case 0: /* replace a byte */
			b.s[at] = junk[rnd(sizeof junk - 1)];
			break;
		case 1: /* delete a run */ {
			size_t l = 1 + rnd(8);
			if (at + l > b.len)
				l = b.len - at;
			memmove(b.s + at, b.s + at + l, b.len - at - l + 1);
			b.len -= l;
			break;
		}
		case 2: /* truncate */
			b.s[at] = 0;
			b.len = at;
			break;
		case 3: /* duplicate a run */ {
			size_t l = 1 + rnd(12);
			if (at + l > b.len)
				l = b.len - at;
			char *copy = xstrndup(b.s + at, l);
			strbuf nb = { 0 };
			sb_putn(&nb, b.s, at + l);
			sb_puts(&nb, copy);
			sb_puts(&nb, b.s + at + l);
			free(copy);
			sb_free(&b);
			b = nb;
			break;
		}
		default: /* a random byte, maybe not ASCII */
			b.s[at] = (char)(1 + rnd(255));
			break;
		}
	}
	return sb_take(&b);
}

static void test_mutations(void)
{
	const char *herd = herd_cat_dir("test_cat_errors");
	const char *sources[16];
	int ns = 0;
	char *owned[16];
	const char *ours[] = { "stdlib.cat", "sc.cat", "tso.cat", "power.cat" };
	for (int i = 0; i < 4; i++)
		sources[ns++] = owned[i] = xasprintf("%s/%s", WEFT_SOURCE_CATDIR, ours[i]);
	const char *theirs[] = { "ppc.cat", "x86tso-mixed.cat", "cross.cat", "stdlib.cat", "ppo.cat" };
	int nowned = 4;
	if (herd)
		for (int i = 0; i < 5; i++)
			sources[ns++] = owned[nowned++] = xasprintf("%s/%s", herd, theirs[i]);
	scratch s;
	scratch_init(&s);
	/* The mutated file sits with a copy of weft's stdlib; herd's other files
	 * are reachable through the path so includes resolve. */
	const char *dirs[] = { WEFT_SOURCE_CATDIR, herd ? herd : WEFT_SOURCE_CATDIR };
	cat_search_path sp = { 2, dirs };
	int loaded = 0, rejected = 0;
	for (int k = 0; k < ns; k++) {
		size_t len;
		diag quiet = { .out = stderr };
		char *text = read_whole_file(sources[k], &len, &quiet);
		if (!text)
			continue;
		for (int it = 0; it < 150; it++) {
			char *m = mutate(text, len);
			const char *path = scratch_file(&s, "mutant.cat", m);
			captured c;
			capture_begin(&c);
			bool ok = cat_check_file(path, &(cat_load_options){ .search = &sp }, &c.d);
			const char *msgs = capture_end(&c);
			if (ok) {
				loaded++;
			} else {
				rejected++;
				/* Every error is located: "file:line:col: error: ". */
				CHECK(strstr(msgs, ": error: ") != NULL && strchr(msgs, ':') != NULL,
				      "unlocated error: %s", msgs);
			}
			capture_free(&c);
			free(m);
		}
		free(text);
	}
	printf("test_cat_errors: %d mutants loaded, %d rejected with located errors\n", loaded, rejected);
	CHECK(rejected > 0, "some mutants are rejected");
	scratch_done(&s);
	for (int i = 0; i < nowned; i++)
		free(owned[i]);
}

int main(void)
{
	test_fixtures();
	test_mutations();
	return test_summary("test_cat_errors");
}
