/* files_below.c — the files of a directory tree with given suffixes, in a
 * deterministic order.  Test folders (-select, plain arguments) and saved
 * results (-results DIR) are both read this way. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util.h"

static int compare_paths(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void push(path_list *l, char *owned)
{
	GROW(l->v, l->cap, (size_t)l->n + 1);
	l->v[l->n++] = owned;
}

void path_list_free(path_list *l)
{
	for (int i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	*l = (path_list){ 0 };
}

bool files_below(const char *dir, const char *const *suffixes, path_list *out, diag *d)
{
	path_list todo = { 0 };
	bool ok = true;
	int first = out->n;
	push(&todo, xstrdup(dir));
	/* an explicit stack of folders: no recursion, however deep the tree */
	while (todo.n > 0) {
		char *cur = todo.v[--todo.n];
		DIR *dh = opendir(cur);
		if (!dh) {
			diag_error(d, (srcloc){ cur, 0, 0 }, "cannot read directory: %s", strerror(errno));
			ok = false;
			free(cur);
			continue;
		}
		size_t len = strlen(cur);
		const char *sep = len > 0 && cur[len - 1] == '/' ? "" : "/";
		struct dirent *e;
		while ((e = readdir(dh)) != NULL) {
			if (e->d_name[0] == '.')
				continue;
			char *p = xasprintf("%s%s%s", cur, sep, e->d_name);
			struct stat st;
			bool wanted = false;
			if (stat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
				push(&todo, p);
				continue;
			}
			for (int i = 0; suffixes[i] && !wanted; i++)
				wanted = str_has_suffix(e->d_name, suffixes[i]);
			if (wanted)
				push(out, p);
			else
				free(p);
		}
		closedir(dh);
		free(cur);
	}
	free(todo.v);
	if (out->n > first)
		qsort(out->v + first, (size_t)(out->n - first), sizeof *out->v, compare_paths);
	return ok;
}
