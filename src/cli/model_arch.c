/* model_arch.c — the architectures a model says it is written for.
 *
 * herd's models say it by including their architecture's fences (ppc.cat
 * includes ppcfences.cat, x86tso.cat includes x86fences.cat: arch.h's
 * fence_file); weft's may
 * say it in a comment, `(* arch: PPC *)` (several names separated by
 * commas or blanks).  A model that says neither is for every architecture.
 * Only the model's own file is read, not its includes' includes: the top
 * of the file is where a reader looks for what a model is for. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models.h"
#include "../arch/arch.h"

/* The model's file, found as cat_model_load finds it: a path as given,
 * FILE.cat in the current folder, else NAME.cat (or its alias's) on the
 * search path.  Owned by the caller; NULL when not found. */
static char *model_file(const char *name, const cat_search_path *sp)
{
	if (strchr(name, '/') || (str_has_suffix(name, ".cat") && access(name, R_OK) == 0))
		return xstrdup(name);
	const char *alias = !strcmp(name, "ppc") ? "power" : !strcmp(name, "x86tso") ? "tso" : NULL;
	const char *tries[2] = { name, alias };
	for (int k = 0; k < 2 && tries[k]; k++) {
		char *file = xasprintf("%s%s", tries[k], str_has_suffix(tries[k], ".cat") ? "" : ".cat");
		char *path = search_path_find(sp, file);
		free(file);
		if (path)
			return path;
	}
	return NULL;
}

/* herd's fence files of architectures weft does not run: a model that
 * includes one is for none of weft's (the others are the architectures'
 * own, arch.h's fence_file). */
static const char *const foreign_fence_files[][2] = {
	{ "armfences.cat", "ARM" },
};

static void add_words(strbuf *archs, const char *words, size_t len)
{
	char *copy = xstrndup(words, len);
	char *save = NULL;
	for (char *w = strtok_r(copy, " \t\r\n,", &save); w; w = strtok_r(NULL, " \t\r\n,", &save))
		if (!model_archs_has(archs->s, w))
			sb_printf(archs, "%s%s", archs->len ? " " : "", w);
	free(copy);
}

/* `arch` added to `archs` when `included` (the text after an include's
 * opening quote) names `fence_file`. */
static void add_if_includes(strbuf *archs, char **because, const char *included, const char *fence_file,
                            const char *arch)
{
	size_t n = strlen(fence_file);
	if (strncmp(included, fence_file, n) || included[n] != '"')
		return;
	add_words(archs, arch, strlen(arch));
	if (!*because)
		*because = xasprintf("include \"%s\"", fence_file);
}

char *model_declared_archs(const char *name, const cat_search_path *sp, char **because)
{
	*because = NULL;
	char *path = model_file(name, sp);
	char *text = path ? read_whole_file(path, NULL, NULL) : NULL;
	free(path);
	if (!text)
		return NULL;
	strbuf archs = { 0 };
	for (const char *p = text; (p = strstr(p, "(*")); p += 2) {
		const char *q = p + 2;
		while (isspace((unsigned char)*q))
			q++;
		const char *end = strstr(q, "*)");
		if (end && !strncmp(q, "arch:", 5)) {
			add_words(&archs, q + 5, (size_t)(end - q - 5));
			if (!*because)
				*because = xstrndup(p, (size_t)(end + 2 - p));
		}
	}
	for (const char *p = text; (p = strstr(p, "include")); p += 7) {
		const char *q = p + 7;
		while (isspace((unsigned char)*q))
			q++;
		if (*q != '"')
			continue;
		for (const arch *const *a = arch_all(); *a; a++)
			if ((*a)->fence_file)
				add_if_includes(&archs, because, q + 1, (*a)->fence_file, (*a)->name);
		for (size_t i = 0; i < sizeof foreign_fence_files / sizeof foreign_fence_files[0]; i++)
			add_if_includes(&archs, because, q + 1, foreign_fence_files[i][0], foreign_fence_files[i][1]);
	}
	free(text);
	return archs.len ? sb_take(&archs) : NULL;
}

bool model_archs_has(const char *archs, const char *arch)
{
	if (!archs || !arch)
		return false;
	size_t n = strlen(arch);
	for (const char *p = archs; (p = strstr(p, arch)); p += n)
		if ((p == archs || p[-1] == ' ') && (p[n] == ' ' || p[n] == '\0'))
			return true;
	return false;
}
