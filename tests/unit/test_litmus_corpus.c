/* test_litmus_corpus.c — parse every .litmus file of the shared corpus.
 *
 *   test_litmus_corpus [-v] [DIR|FILE...]
 *
 * Without arguments, reads ../shared/corpus/tests/{PPC,X86,X86_64}/@all
 * (WEFT_SHARED_DIR, set by the build); skips (exit 77) when the corpus is
 * absent.  Each file must parse, its test name must match the file name by
 * the corpus rule (README: `/` and characters outside [A-Za-z0-9+._-] become
 * `_`), its architecture must be its folder's, and its dump must be the same
 * when printed twice.  Prints the count, every warning, and every failure
 * with its errors.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../src/litmus/litmus.h"

#ifndef WEFT_SHARED_DIR
#define WEFT_SHARED_DIR "../shared"
#endif

static int parsed, failed, warned;
static bool verbose;

/* The file name the corpus derives from a test name. */
static char *file_name_of(const char *name)
{
	strbuf b = { 0 };
	for (const char *p = name; *p; p++) {
		char ch = *p;
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
			  ch == '+' || ch == '.' || ch == '_' || ch == '-';
		sb_putc(&b, ok ? ch : '_');
	}
	sb_puts(&b, ".litmus");
	return sb_take(&b);
}

static char *dump_to_string(const litmus_test *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return xstrdup("");
	litmus_test_dump(t, f);
	fclose(f);
	return buf;
}

static void check_file(const char *path, const char *folder_arch)
{
	char *errbuf = NULL;
	size_t errlen = 0;
	FILE *errs = open_memstream(&errbuf, &errlen);
	diag d = { .out = errs };
	litmus_test *t = litmus_parse_file(path, &d);
	fclose(errs);
	const char *why = NULL;
	char *expect_file = NULL;
	if (!t) {
		why = "does not parse";
	} else {
		const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
		expect_file = file_name_of(t->name);
		char *d1 = dump_to_string(t), *d2 = dump_to_string(t);
		if (folder_arch && strcmp(t->arch_name, folder_arch) != 0)
			why = "architecture differs from its folder";
		else if (strcmp(base, expect_file) != 0)
			why = "test name does not match the file name";
		else if (strcmp(d1, d2) != 0 || d1[0] == '\0')
			why = "dump is not deterministic";
		if (verbose)
			fputs(d1, stdout);
		free(d1);
		free(d2);
	}
	if (why) {
		failed++;
		printf("FAIL %s: %s%s%s\n%s", path, why, expect_file ? " -> " : "",
		       expect_file ? expect_file : "", errbuf ? errbuf : "");
	} else {
		parsed++;
		if (d.warnings) {
			warned++;
			fputs(errbuf, stdout);
		}
	}
	free(expect_file);
	free(errbuf);
	litmus_test_free(t);
}

/* Every file named in DIR/@all (herd's index), or every .litmus of DIR. */
static int check_dir(const char *dir, const char *arch)
{
	char *index = xasprintf("%s/@all", dir);
	FILE *f = fopen(index, "r");
	free(index);
	int n = 0;
	if (f) {
		char line[4096];
		while (fgets(line, sizeof line, f)) {
			line[strcspn(line, "\r\n")] = '\0';
			if (!line[0] || line[0] == '#')
				continue;
			char *path = xasprintf("%s/%s", dir, line);
			check_file(path, arch);
			free(path);
			n++;
		}
		fclose(f);
		return n;
	}
	DIR *dh = opendir(dir);
	if (!dh)
		return -1;
	struct dirent *e;
	while ((e = readdir(dh))) {
		size_t len = strlen(e->d_name);
		if (len > 7 && !strcmp(e->d_name + len - 7, ".litmus")) {
			char *path = xasprintf("%s/%s", dir, e->d_name);
			check_file(path, arch);
			free(path);
			n++;
		}
	}
	closedir(dh);
	return n;
}

int main(int argc, char **argv)
{
	int first = 1;
	if (argc > 1 && !strcmp(argv[1], "-v")) {
		verbose = true;
		first = 2;
	}
	if (first < argc) {
		for (int i = first; i < argc; i++) {
			struct stat st;
			if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode))
				check_dir(argv[i], NULL);
			else
				check_file(argv[i], NULL);
		}
	} else {
		static const char *const archs[] = { "PPC", "X86", "X86_64" };
		for (size_t i = 0; i < 3; i++) {
			char *dir = xasprintf("%s/corpus/tests/%s", WEFT_SHARED_DIR, archs[i]);
			int n = check_dir(dir, archs[i]);
			if (n < 0) {
				printf("SKIP: corpus folder %s not found\n", dir);
				free(dir);
				return 77;
			}
			printf("%s: %d files\n", archs[i], n);
			free(dir);
		}
	}
	printf("%d parsed (%d with warnings), %d failed\n", parsed, warned, failed);
	return failed ? 1 : 0;
}
