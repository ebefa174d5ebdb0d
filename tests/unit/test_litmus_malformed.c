/* test_litmus_malformed.c — every file of tests/malformed/ must be refused
 * with the located error its EXPECT line gives:
 *     FILE<TAB>LINE:COL<TAB>substring of the message
 * and every .litmus file there must have such a line.
 *
 *   test_litmus_malformed [DIR]     (default: $WEFT_SRCDIR/tests/malformed)
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/litmus/litmus.h"

static int failures, passes;

static void check_case(const char *dir, const char *file, const char *linecol, const char *msg)
{
	char *path = xasprintf("%s/%s", dir, file);
	char *errs = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&errs, &len);
	diag d = { .out = f };
	litmus_test *t = litmus_parse_file(path, &d);
	fclose(f);
	char *where = xasprintf("%s:%s: error: ", path, linecol);
	/* The expected message must be on the line that carries the location. */
	const char *at = errs ? strstr(errs, where) : NULL;
	bool found = false;
	if (at) {
		const char *eol = strchr(at, '\n');
		char *line = xstrndup(at, eol ? (size_t)(eol - at) : strlen(at));
		found = strstr(line, msg) != NULL;
		free(line);
	}
	if (t || d.errors == 0 || !found) {
		failures++;
		printf("FAIL %s: want '%s%s'%s\n  got: %.2000s\n", file, where, msg,
		       t ? " (and it parsed)" : "", errs ? errs : "");
	} else {
		passes++;
	}
	litmus_test_free(t);
	free(where);
	free(errs);
	free(path);
}

int main(int argc, char **argv)
{
	char *dir;
	if (argc > 1) {
		dir = xstrdup(argv[1]);
	} else {
		const char *src = getenv("WEFT_SRCDIR");
		dir = xasprintf("%s/tests/malformed", src ? src : ".");
	}
	char *expect_path = xasprintf("%s/EXPECT", dir);
	FILE *f = fopen(expect_path, "r");
	if (!f) {
		printf("cannot open %s (set WEFT_SRCDIR or give the folder)\n", expect_path);
		return 1;
	}
	/* names listed in EXPECT, to find files without an expectation */
	strbuf listed = { 0 };
	sb_putc(&listed, '\n');
	char line[4096];
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		char *save = NULL;
		char *file = strtok_r(line, "\t", &save);
		char *linecol = strtok_r(NULL, "\t", &save);
		char *msg = strtok_r(NULL, "\t", &save);
		if (!file || !linecol || !msg) {
			printf("FAIL EXPECT: malformed line '%s'\n", line);
			failures++;
			continue;
		}
		sb_printf(&listed, "%s\n", file);
		check_case(dir, file, linecol, msg);
	}
	fclose(f);
	DIR *dh = opendir(dir);
	struct dirent *e;
	while (dh && (e = readdir(dh))) {
		size_t n = strlen(e->d_name);
		if (n > 7 && !strcmp(e->d_name + n - 7, ".litmus")) {
			char *needle = xasprintf("\n%s\n", e->d_name);
			if (!strstr(listed.s, needle)) {
				printf("FAIL %s: no line in EXPECT\n", e->d_name);
				failures++;
			}
			free(needle);
		}
	}
	if (dh)
		closedir(dh);
	printf("test_litmus_malformed: %d refused as expected, %d failed\n", passes, failures);
	sb_free(&listed);
	free(expect_path);
	free(dir);
	return failures || !passes ? 1 : 0;
}
