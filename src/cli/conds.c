/* conds.c — reading -conds files (conds.h). */
#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "conds.h"

typedef struct cond_entry {
	char *name, *condition;
	int file;        /* index in conds_set.paths */
	int line;
} cond_entry;

struct conds_set {
	int n_paths;
	char **paths;    /* the files read, in order */
	int n;
	size_t cap;
	cond_entry *v;
};

static const cond_entry *entry_of(const conds_set *c, const char *name)
{
	/* the last line for a name wins (of the last file naming it) */
	for (int i = c->n - 1; i >= 0; i--)
		if (!strcmp(c->v[i].name, name))
			return &c->v[i];
	return NULL;
}

const char *conds_find(const conds_set *c, const char *name)
{
	const cond_entry *e = c && name ? entry_of(c, name) : NULL;
	return e ? e->condition : NULL;
}

srcloc conds_where(const conds_set *c, const char *name)
{
	const cond_entry *e = entry_of(c, name);
	return (srcloc){ e ? c->paths[e->file] : c->paths[0], e ? e->line : 0, 1 };
}

/* One line, trimmed: false after reporting a name without a condition,
 * or a quoted one that is not closed or followed by more than a comment. */
static bool add_line(conds_set *c, char *line_text, int line, diag *d)
{
	const char *path = c->paths[c->n_paths - 1];
	char *s = line_text;
	/* a comment, as in herd's files: `#` or `%` to the end of the line,
	 * outside the quotes (no condition has either character) */
	bool quoted = false;
	for (char *p = s; *p; p++) {
		if (*p == '"')
			quoted = !quoted;
		else if (!quoted && (*p == '#' || *p == '%')) {
			*p = '\0';
			break;
		}
	}
	while (isspace((unsigned char)*s))
		s++;
	size_t len = strlen(s);
	while (len > 0 && isspace((unsigned char)s[len - 1]))
		s[--len] = '\0';
	if (len == 0)
		return true;
	char *name_end = s;
	while (*name_end && !isspace((unsigned char)*name_end))
		name_end++;
	char *cond = name_end;
	while (isspace((unsigned char)*cond))
		cond++;
	if (*cond == '"') {
		char *close = strchr(cond + 1, '"');
		if (!close || close[1]) {
			diag_error(d, (srcloc){ path, line, (int)((close ? close + 1 : cond) - line_text) + 1 },
				   close ? "unexpected text after the quoted condition"
					 : "the condition's double quote is not closed");
			return false;
		}
		*close = '\0';
		cond++;
	}
	if (!*cond) {
		diag_error(d, (srcloc){ path, line, (int)(name_end - s) + 1 },
			   "expected a condition after the test name (NAME exists (...))");
		return false;
	}
	GROW(c->v, c->cap, (size_t)c->n + 1);
	c->v[c->n++] = (cond_entry){ xstrndup(s, (size_t)(name_end - s)), xstrdup(cond), c->n_paths - 1, line };
	return true;
}

/* One file into c; false after reporting. */
static bool load_file(conds_set *c, const char *path, diag *d)
{
	size_t len;
	char *text = read_whole_file(path, &len, d);
	if (!text)
		return false;
	c->paths = xrealloc(c->paths, ((size_t)c->n_paths + 1) * sizeof *c->paths);
	c->paths[c->n_paths++] = xstrdup(path);
	bool ok = true;
	int line = 1;
	for (char *p = text; ok && *p; line++) {
		char *nl = strchr(p, '\n');
		if (nl)
			*nl = '\0';
		ok = add_line(c, p, line, d);
		p = nl ? nl + 1 : p + strlen(p);
	}
	free(text);
	return ok;
}

conds_set *conds_load(const char *const *paths, int n, diag *d)
{
	conds_set *c = xcalloc(1, sizeof *c);
	bool ok = true;
	for (int i = 0; i < n; i++)
		ok = load_file(c, paths[i], d) && ok;
	if (!ok || c->n_paths == 0) {
		conds_free(c);
		return NULL;
	}
	return c;
}

void conds_free(conds_set *c)
{
	if (!c)
		return;
	for (int i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].condition);
	}
	free(c->v);
	for (int i = 0; i < c->n_paths; i++)
		free(c->paths[i]);
	free(c->paths);
	free(c);
}
