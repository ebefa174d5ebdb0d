/* inputs.c — files, directories and @LIST files to a flat list of paths. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inputs.h"


static void add_path(input_list *l, char *owned)
{
	GROW(l->paths, l->cap, (size_t)l->n + 1);
	l->paths[l->n++] = owned;
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	if (n == 0 || !strcmp(dir, "."))
		return xstrdup(name);
	return xasprintf("%s%s%s", dir, dir[n - 1] == '/' ? "" : "/", name);
}

/* Every *.litmus file below dir, sorted by path so that runs are
 * deterministic whatever order the file system lists them in. */
static bool expand_dir(input_list *l, const char *dir, diag *d)
{
	static const char *const tests[] = { ".litmus", NULL };
	path_list found = { 0 };
	bool ok = files_below(dir, tests, &found, d);
	for (int i = 0; i < found.n; i++)
		add_path(l, found.v[i]);   /* l takes the paths */
	free(found.v);
	return ok;
}

static bool expand(input_list *l, const char *arg, int depth, diag *d);

static bool expand_list(input_list *l, const char *list, int depth, diag *d)
{
	if (depth > INPUT_LIST_MAX_DEPTH) {
		diag_error(d, (srcloc){ list, 0, 0 }, "@LIST files nested more than %d deep", INPUT_LIST_MAX_DEPTH);
		return false;
	}
	char *text = read_whole_file(list, NULL, d);
	if (!text)
		return false;
	const char *slash = strrchr(list, '/');
	char *dir = slash ? xstrndup(list, (size_t)(slash - list)) : xstrdup(".");
	if (slash == list)
		strcpy(dir, "/");
	bool ok = true;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		while (*line == ' ' || *line == '\t')
			line++;
		size_t n = strlen(line);
		while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == '\r'))
			line[--n] = '\0';
		if (n == 0 || line[0] == '#')
			continue;
		bool is_list = line[0] == '@';
		const char *name = line + is_list;
		char *rel = name[0] == '/' ? xstrdup(name) : join(dir, name);
		char *p = is_list ? xasprintf("@%s", rel) : xstrdup(rel);
		free(rel);
		ok &= expand(l, p, depth + 1, d);
		free(p);
	}
	free(dir);
	free(text);
	return ok;
}

static bool expand(input_list *l, const char *arg, int depth, diag *d)
{
	if (arg[0] == '@')
		return expand_list(l, arg + 1, depth, d);
	struct stat st;
	size_t n = strlen(arg);
	if (stat(arg, &st) != 0 && !strchr(arg, '/') &&
	    ((n > 4 && !strcmp(arg + n - 4, ".cat")) || (n > 5 && !strcmp(arg + n - 5, ".bell")))) {
		/* a model named without a folder: -check looks for it on the cat
		 * search path, as herd does */
		add_path(l, xstrdup(arg));
		return true;
	}
	if (stat(arg, &st) != 0) {
		diag_error(d, (srcloc){ arg, 0, 0 }, "cannot open: %s", strerror(errno));
		return false;
	}
	if (S_ISDIR(st.st_mode))
		return expand_dir(l, arg, d);
	add_path(l, xstrdup(arg));
	return true;
}

bool inputs_expand(input_list *l, const char *arg, diag *d)
{
	return expand(l, arg, 0, d);
}

void inputs_free(input_list *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->paths[i]);
	free(l->paths);
	l->paths = NULL;
	l->n = 0;
	l->cap = 0;
}
