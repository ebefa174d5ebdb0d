/* test_util.c — md5 against RFC 1321's test suite, strbuf, diagnostics,
 * the edit distance of suggestions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../src/util/util.h"

static int failures, passes;

static void expect_str(const char *what, const char *got, const char *want)
{
	if (strcmp(got, want) != 0) {
		printf("FAIL %s: got '%s', want '%s'\n", what, got, want);
		failures++;
	} else {
		passes++;
	}
}

static void test_md5(void)
{
	static const char *cases[][2] = {
		{ "", "d41d8cd98f00b204e9800998ecf8427e" },
		{ "a", "0cc175b9c0f1b6a831c399e269772661" },
		{ "abc", "900150983cd24fb0d6963f7d28e17f72" },
		{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
		{ "abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b" },
		{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		  "d174ab98d277d9f5a5611c2c9f419d9f" },
		{ "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
		  "57edf4a22be3c955ac49da2e2107b67a" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char hex[33];
		md5_hex(cases[i][0], strlen(cases[i][0]), hex);
		expect_str("md5", hex, cases[i][1]);
	}
	/* Lengths around the 56/64-byte padding boundary. */
	char buf[130];
	memset(buf, 'x', sizeof buf);
	char hex55[33], hex56[33], hex64[33];
	md5_hex(buf, 55, hex55);
	md5_hex(buf, 56, hex56);
	md5_hex(buf, 64, hex64);
	if (!strcmp(hex55, hex56) || !strcmp(hex56, hex64)) {
		printf("FAIL md5 padding: digests collide\n");
		failures++;
	} else {
		passes++;
	}
}

static void test_strbuf(void)
{
	strbuf b = { 0 };
	sb_puts(&b, "a");
	sb_printf(&b, "%d-%s", 42, "x");
	sb_putc(&b, '!');
	expect_str("strbuf", b.s, "a42-x!");
	for (int i = 0; i < 1000; i++)
		sb_putc(&b, 'y');
	if (b.len != 1006) {
		printf("FAIL strbuf length %zu\n", b.len);
		failures++;
	}
	char *s = sb_take(&b);
	if (b.s != NULL || b.len != 0) {
		printf("FAIL sb_take leaves the buffer non-empty\n");
		failures++;
	}
	free(s);
}

static void test_diag(void)
{
	char text[256] = { 0 };
	FILE *f = fmemopen(text, sizeof text - 1, "w");
	diag d = { .out = f };
	srcloc at = { "t.litmus", 3, 7 };
	diag_error(&d, at, "bad %s", "thing");
	fclose(f);
	expect_str("diag", text, "t.litmus:3:7: error: bad thing\n");
	if (d.errors != 1) {
		printf("FAIL diag count %d\n", d.errors);
		failures++;
	}
}

/* A diag that drops prints nothing and still counts; one that collects
 * keeps the lines as they would have been printed, and passes them on. */
static void test_diag_drop_collect(void)
{
	char text[256] = { 0 };
	FILE *f = fmemopen(text, sizeof text - 1, "w");
	diag dropped = { .out = f, .drop = true };
	srcloc at = { "t.litmus", 3, 7 };
	diag_error(&dropped, at, "bad %s", "thing");
	diag_warning(&dropped, at, "odd");
	diag_note(&dropped, at, "fyi");
	fflush(f);
	expect_str("diag drop prints", text, "");
	if (dropped.errors != 1 || dropped.warnings != 1) {
		printf("FAIL diag drop counts %d errors %d warnings\n", dropped.errors, dropped.warnings);
		failures++;
	}
	strbuf kept = { 0 };
	diag collecting = { .out = f, .collect = &kept };
	diag_error(&collecting, at, "bad %s", "thing");
	diag_note(&collecting, (srcloc){ NULL, 0, 0 }, "fyi");
	fflush(f);
	expect_str("diag collect prints", text, "");
	expect_str("diag collect keeps", kept.s ? kept.s : "", "t.litmus:3:7: error: bad thing\nweft: note: fyi\n");
	diag printing = { .out = f };
	diag_put_collected(&printing, kept.s);
	diag_put_collected(&dropped, kept.s);
	fclose(f);
	expect_str("diag passed on", text, "t.litmus:3:7: error: bad thing\nweft: note: fyi\n");
	if (collecting.errors != 1 || printing.errors != 0) {
		printf("FAIL diag collect counts %d, passed on %d\n", collecting.errors, printing.errors);
		failures++;
	}
	sb_free(&kept);
}

/* files_below: suffixes filter, hidden names are skipped, folders are
 * walked at any depth, the result is sorted whatever the creation order. */
static void test_files_below(void)
{
	char root[] = "/tmp/weft-files-below-XXXXXX";
	if (!mkdtemp(root)) {
		printf("FAIL files_below: cannot make a temporary folder\n");
		failures++;
		return;
	}
	const char *dirs[] = { "b", "a", "a/deep", ".hidden" };
	const char *files[] = { "b/z.litmus", "a/deep/y.litmus", "a/x.litmus", "a/notes.txt", ".hidden/h.litmus",
		                "top.litmus" };
	for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++) {
		char *p = xasprintf("%s/%s", root, dirs[i]);
		mkdir(p, 0700);
		free(p);
	}
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char *p = xasprintf("%s/%s", root, files[i]);
		FILE *f = fopen(p, "w");
		if (f)
			fclose(f);
		free(p);
	}
	static const char *const want_suffix[] = { ".litmus", NULL };
	path_list got = { 0 };
	diag d = { .drop = true };
	bool ok = files_below(root, want_suffix, &got, &d);
	const char *want[] = { "a/deep/y.litmus", "a/x.litmus", "b/z.litmus", "top.litmus" };
	if (!ok || got.n != 4) {
		printf("FAIL files_below: ok %d, %d files, want 4\n", ok, got.n);
		failures++;
	} else {
		for (int i = 0; i < 4; i++) {
			char *w = xasprintf("%s/%s", root, want[i]);
			expect_str("files_below order", got.v[i], w);
			free(w);
		}
	}
	path_list_free(&got);
	/* a missing folder is reported, not a crash */
	char *missing = xasprintf("%s/none", root);
	ok = files_below(missing, want_suffix, &got, &d);
	if (ok || d.errors != 1 || got.n != 0) {
		printf("FAIL files_below on a missing folder: ok %d, errors %d\n", ok, d.errors);
		failures++;
	} else {
		passes++;
	}
	free(missing);
	for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
		char *p = xasprintf("%s/%s", root, files[i]);
		unlink(p);
		free(p);
	}
	for (size_t i = sizeof dirs / sizeof *dirs; i-- > 0;) {
		char *p = xasprintf("%s/%s", root, dirs[i]);
		rmdir(p);
		free(p);
	}
	rmdir(root);
}

/* WEFT_ASSERT: in a checked build (sanitizers, fuzzing) a broken
 * invariant aborts, saying where; elsewhere it costs nothing and the
 * condition is not even evaluated. */
static void test_weft_assert(void)
{
	int evaluated = 0;
	WEFT_ASSERT(++evaluated > 0);
#ifdef WEFT_CHECKED
	if (evaluated != 1) {
		printf("FAIL WEFT_ASSERT did not evaluate its condition in a checked build\n");
		failures++;
	}
	fflush(stdout);
	pid_t child = fork();
	if (child == 0) {
		fclose(stderr);   /* the message is expected: keep the log clean */
		WEFT_ASSERT(evaluated == 2);
		_exit(0);
	}
	int status = 0;
	if (child < 0 || waitpid(child, &status, 0) != child || !WIFSIGNALED(status) ||
	    WTERMSIG(status) != SIGABRT) {
		printf("FAIL a failed WEFT_ASSERT did not abort (status %d)\n", status);
		failures++;
	} else {
		passes++;
	}
#else
	if (evaluated != 0) {
		printf("FAIL WEFT_ASSERT evaluated its condition in an unchecked build\n");
		failures++;
	} else {
		passes++;
	}
#endif
}

static void expect_size(const char *what, size_t got, size_t want)
{
	if (got != want) {
		printf("FAIL %s: got %zu, want %zu\n", what, got, want);
		failures++;
	} else {
		passes++;
	}
}

static void test_str_distance(void)
{
	expect_size("same", str_distance("model", 5, "model", 2), 0);
	expect_size("swap", str_distance("modle", 5, "model", 2), 1);
	expect_size("missing letter", str_distance("modl", 4, "model", 2), 1);
	expect_size("extra letter", str_distance("modeel", 6, "model", 2), 1);
	expect_size("substitution", str_distance("modal", 5, "model", 2), 1);
	expect_size("two edits", str_distance("mdoal", 5, "model", 2), 2);
	expect_size("over the limit", str_distance("engine", 6, "model", 2), 3);
	expect_size("prefix of a name", str_distance("mode", 4, "model", 2), 1);
	expect_size("empty", str_distance("", 0, "ab", 2), 2);
	char longer[100];
	memset(longer, 'a', sizeof longer - 1);
	longer[sizeof longer - 1] = 0;
	expect_size("too long", str_distance(longer, strlen(longer), longer, 2), 3);
}

int main(void)
{
	test_str_distance();
	test_weft_assert();
	test_md5();
	test_strbuf();
	test_diag();
	test_diag_drop_collect();
	test_files_below();
	printf("%d passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}
