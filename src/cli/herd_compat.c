/* herd_compat.c — herd7's options that weft ignores or refuses, and herd's
 * configuration files (see herd_compat.h).
 *
 * The lists follow herd7's own option table (herd/herd.ml) and its
 * configuration keys (herd/lexConf_herd.mll): the same names, the same
 * arity (every one takes one argument except the few marked unit).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "herd_compat.h"
#include "../util/util.h"

typedef struct herd_opt {
	const char *name;
	enum herd_opt_fate fate;
	bool unit;           /* takes no argument */
	const char *why;
} herd_opt;

#define GRAPH "only shapes herd's execution graphs"
#define VIEW "only starts herd's graph viewer"
#define TEXT "only changes herd's own messages"

static const herd_opt herd_opts[] = {
	/* graphs: what they contain and how they look */
	{ "view", HERD_OPT_IGNORED, false, VIEW },
	{ "gv", HERD_OPT_IGNORED, true, VIEW },
	{ "evince", HERD_OPT_IGNORED, true, VIEW },
	{ "preview", HERD_OPT_IGNORED, true, VIEW },
	{ "dotcom", HERD_OPT_IGNORED, false, GRAPH },
	{ "dotmode", HERD_OPT_IGNORED, false, GRAPH },
	{ "dotheader", HERD_OPT_IGNORED, false, GRAPH },
	{ "graph", HERD_OPT_IGNORED, false, GRAPH },
	{ "showevents", HERD_OPT_IGNORED, false, GRAPH },
	{ "showinitrf", HERD_OPT_IGNORED, false, GRAPH },
	{ "showfinalrf", HERD_OPT_IGNORED, false, GRAPH },
	{ "showpo", HERD_OPT_IGNORED, false, GRAPH },
	{ "doshow", HERD_OPT_IGNORED, false, GRAPH },
	{ "unshow", HERD_OPT_IGNORED, false, GRAPH },
	{ "symetric", HERD_OPT_IGNORED, false, GRAPH },
	{ "noid", HERD_OPT_IGNORED, false, GRAPH },
	{ "showraw", HERD_OPT_IGNORED, false, GRAPH },
	{ "oneinit", HERD_OPT_IGNORED, false, GRAPH },
	{ "showinitwrites", HERD_OPT_IGNORED, false, GRAPH },
	{ "cycles", HERD_OPT_IGNORED, false, GRAPH },
	{ "dumpes", HERD_OPT_IGNORED, false, GRAPH },
	{ "classes", HERD_OPT_IGNORED, false, GRAPH },
	{ "showobserved", HERD_OPT_IGNORED, false, GRAPH },
	{ "edgemerge", HERD_OPT_IGNORED, false, GRAPH },
	{ "showlegend", HERD_OPT_IGNORED, false, GRAPH },
	{ "showkind", HERD_OPT_IGNORED, false, GRAPH },
	{ "shortlegend", HERD_OPT_IGNORED, false, GRAPH },
	{ "labelinit", HERD_OPT_IGNORED, false, GRAPH },
	{ "showthread", HERD_OPT_IGNORED, false, GRAPH },
	{ "squished", HERD_OPT_IGNORED, false, GRAPH },
	{ "fixedsize", HERD_OPT_IGNORED, false, GRAPH },
	{ "extrachars", HERD_OPT_IGNORED, false, GRAPH },
	{ "brackets", HERD_OPT_IGNORED, false, GRAPH },
	{ "initrfpos", HERD_OPT_IGNORED, false, GRAPH },
	{ "finalrfpos", HERD_OPT_IGNORED, false, GRAPH },
	{ "initpos", HERD_OPT_IGNORED, false, GRAPH },
	{ "splines", HERD_OPT_IGNORED, false, GRAPH },
	{ "margin", HERD_OPT_IGNORED, false, GRAPH },
	{ "pad", HERD_OPT_IGNORED, false, GRAPH },
	{ "sep", HERD_OPT_IGNORED, false, GRAPH },
	{ "fontname", HERD_OPT_IGNORED, false, GRAPH },
	{ "fontsize", HERD_OPT_IGNORED, false, GRAPH },
	{ "edgefontsizedelta", HERD_OPT_IGNORED, false, GRAPH },
	{ "penwidth", HERD_OPT_IGNORED, false, GRAPH },
	{ "arrowsize", HERD_OPT_IGNORED, false, GRAPH },
	{ "edgeattr", HERD_OPT_IGNORED, false, GRAPH },
	{ "overlap", HERD_OPT_IGNORED, false, GRAPH },
	{ "mono", HERD_OPT_IGNORED, false, GRAPH },
	{ "scale", HERD_OPT_IGNORED, false, GRAPH },
	{ "xscale", HERD_OPT_IGNORED, false, GRAPH },
	{ "yscale", HERD_OPT_IGNORED, false, GRAPH },
	{ "dsiy", HERD_OPT_IGNORED, false, GRAPH },
	{ "siwidth", HERD_OPT_IGNORED, false, GRAPH },
	{ "ptscale", HERD_OPT_IGNORED, false, GRAPH },
	{ "boxscale", HERD_OPT_IGNORED, false, GRAPH },
	{ "shift", HERD_OPT_IGNORED, false, GRAPH },
	{ "threadposy", HERD_OPT_IGNORED, false, GRAPH },
	{ "relabel", HERD_OPT_IGNORED, false, GRAPH },
	{ "withbox", HERD_OPT_IGNORED, false, GRAPH },
	{ "labelbox", HERD_OPT_IGNORED, false, GRAPH },
	{ "movelabel", HERD_OPT_IGNORED, false, GRAPH },
	{ "tikz", HERD_OPT_IGNORED, false, GRAPH },
	{ "texmacros", HERD_OPT_IGNORED, false, GRAPH },
	{ "suffix", HERD_OPT_IGNORED, false, "only renames herd's graph files" },
	/* herd's own messages */
	{ "verbose", HERD_OPT_IGNORED, false, TEXT },
	{ "debug", HERD_OPT_IGNORED, false, TEXT },
	{ "exit", HERD_OPT_IGNORED, false, "weft always goes on after a failed test and says so in its exit status" },
	{ "candidates", HERD_OPT_IGNORED, false, "weft prints candidate counts with -stats" },
	{ "archcheck", HERD_OPT_IGNORED, false, "weft always checks that a model is for the test's architecture" },
	/* options that change which executions count: weft cannot honour them */
	{ "throughflag", HERD_OPT_REFUSED, false, "lets flagged executions through the model" },
	{ "restrict", HERD_OPT_REFUSED, false, "restricts the outcomes herd prints" },
	{ "machsize", HERD_OPT_REFUSED, false, "changes the size of -variant mixed's events" },
	{ "endian", HERD_OPT_REFUSED, false, "changes the byte order of mixed-size accesses" },
	{ "optace", HERD_OPT_REFUSED, false, "changes herd's candidate generation" },
	{ "maxphantom", HERD_OPT_REFUSED, false, "bounds herd's phantom updates" },
	{ "badexecs", HERD_OPT_REFUSED, false, "changes what happens to flagged executions" },
	{ "badflag", HERD_OPT_REFUSED, false, "changes what happens to flagged executions" },
	{ "statelessrc11", HERD_OPT_REFUSED, false, "selects herd's stateless RC11 checker" },
	{ "dumpallfaults", HERD_OPT_REFUSED, false, "prints faults (weft has no faults)" },
	{ "checkfilter", HERD_OPT_REFUSED, false, "changes how the filter counts" },
	{ "outcomereads", HERD_OPT_REFUSED, false, "adds every register that reads memory to the states" },
	{ "showflag", HERD_OPT_REFUSED, false, "draws flagged executions" },
	{ "kinds", HERD_OPT_REFUSED, false, "renames test kinds from a file" },
	{ "rename", HERD_OPT_REFUSED, false, "renames tests from a file" },
	{ "oknames", HERD_OPT_REFUSED, false, "selects tests by name (weft: -names FILE or -select REGEX)" },
	{ "nonames", HERD_OPT_REFUSED, false, "excludes tests by name (weft: -excl NAME-REGEX)" },
	{ "switch", HERD_OPT_REFUSED, true, "switches a herd internal" },
	{ "web", HERD_OPT_REFUSED, true, "reads herd's web.cfg (give it with -conf FILE)" },
	{ "c11", HERD_OPT_REFUSED, true, "reads herd's cpp11.cfg (weft runs no C11 tests)" },
};

enum herd_opt_fate herd_option_fate(const char *name, size_t len, bool *takes_arg, const char **why)
{
	for (size_t i = 0; i < sizeof herd_opts / sizeof herd_opts[0]; i++) {
		const herd_opt *h = &herd_opts[i];
		if (strlen(h->name) == len && !strncmp(h->name, name, len)) {
			*takes_arg = !h->unit;
			*why = h->why;
			return h->fate;
		}
	}
	*takes_arg = false;
	*why = NULL;
	return HERD_OPT_UNKNOWN;
}

/* Refused options given as herd's own default, which weft honours. */
static const struct { const char *name, *value; } herd_defaults[] = {
	{ "machsize", "auto" },   /* -variant mixed's events: from the test's sizes */
};

bool herd_option_is_default(const char *name, const char *value)
{
	for (size_t i = 0; i < sizeof herd_defaults / sizeof herd_defaults[0]; i++)
		if (!strcmp(herd_defaults[i].name, name))
			return value && !strcmp(herd_defaults[i].value, value);
	return false;
}

/* ---- configuration files --------------------------------------------------- */

static bool is_regular(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	fclose(f);
	return true;
}

/* herd looks a configuration file up on its library path; weft's
 * equivalent is the -I folders, the -set-libdir folders and $HERDLIB. */
char *herd_find_file(const weft_options *o, const char *file)
{
	if (is_regular(file) || strchr(file, '/'))
		return xstrdup(file);
	const str_list *lists[] = { &o->include, &o->libdirs };
	for (size_t l = 0; l < 2; l++)
		for (int i = 0; i < lists[l]->n; i++) {
			char *p = xasprintf("%s/%s", lists[l]->v[i], file);
			if (is_regular(p))
				return p;
			free(p);
		}
	const char *env = getenv("HERDLIB");
	if (env) {
		char *copy = xstrdup(env), *save = NULL;
		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			char *p = xasprintf("%s/%s", d, file);
			if (is_regular(p)) {
				free(copy);
				return p;
			}
			free(p);
		}
		free(copy);
	}
	return xstrdup(file);
}

static int conf_error(const char *file, int line, int col, const char *msg, const char *what)
{
	fprintf(stderr, "%s:%d:%d: error: ", file, line, col);
	fprintf(stderr, msg, what);
	fputc('\n', stderr);
	return 2;
}


/* The keys of one file that weft ignores for one reason, summed up in one
 * note (linux-kernel.cfg has 18 keys that only shape herd's graphs: one
 * line each would bury the result a kernel developer runs weft for). */
typedef struct ignored_keys {
	const char *why;
	char *first;   /* FILE:LINE:COL of the first such key (owned) */
	strbuf names;  /* each key once, in file order */
	int n;         /* distinct keys */
} ignored_keys;

enum { IGNORED_GROUPS_MAX = 8 };

/* A note on ignored keys is kept for -v (options_parse prints it then):
 * herd says nothing of them, and the kernel's scripts compare herd's whole
 * output, stderr included, with an earlier run's.  `line` is consumed. */
static void conf_note(weft_options *o, char *line)
{
	char *old = o->conf_notes;
	o->conf_notes = xasprintf("%s%s", old ? old : "", line);
	free(old);
	free(line);
}

static void ignored_add(weft_options *o, ignored_keys *g, int *ng, const char *why, const char *origin,
                        const char *key)
{
	int i = 0;
	while (i < *ng && g[i].why != why)
		i++;
	if (i == *ng) {
		if (*ng == IGNORED_GROUPS_MAX) {
			conf_note(o, xasprintf("%s: note: key '%s' %s: ignored\n", origin, key, why));
			return;
		}
		memset(&g[i], 0, sizeof g[i]);
		g[i].why = why;
		g[i].first = xstrdup(origin);
		(*ng)++;
	}
	/* a key repeated (edgeattr) is named once */
	const char *have = g[i].names.s ? g[i].names.s : "";
	size_t kl = strlen(key);
	for (const char *p = have; *p;) {
		const char *e = strchr(p, ',');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		if (l == kl && !strncmp(p, key, kl))
			return;
		p = e ? e + 2 : p + l;
	}
	sb_printf(&g[i].names, "%s%s", g[i].n ? ", " : "", key);
	g[i].n++;
}

static void ignored_report(weft_options *o, ignored_keys *g, int ng)
{
	for (int i = 0; i < ng; i++) {
		if (g[i].n == 1)
			conf_note(o, xasprintf("%s: note: key '%s' %s: ignored\n", g[i].first, g[i].names.s,
					       g[i].why));
		else
			conf_note(o, xasprintf("%s: note: %d keys ignored (%s): each %s\n", g[i].first, g[i].n,
					       g[i].names.s, g[i].why));
		free(g[i].first);
		sb_free(&g[i].names);
	}
}

static int conf_read_depth(weft_options *o, const char *file, int depth)
{
	if (depth > CONF_MAX_DEPTH)
		return conf_error(file, 1, 1, "configuration files nest more than %s deep (does one name itself?)",
				  "16");
	char *path = herd_find_file(o, file);
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "weft: cannot read configuration file '%s': %s\n", file, strerror(errno));
		free(path);
		return 2;
	}
	/* the files a configuration names (its model, bell, macros, and the
	 * model's includes) are looked for in its own folder too, after the
	 * -I folders: `-conf lkmm/linux-kernel.cfg` works from anywhere */
	const char *slash = strrchr(path, '/');
	if (slash) {
		char *dir = xstrndup(path, (size_t)(slash - path));
		bool have = false;
		for (int i = 0; i < o->include.n && !have; i++)
			have = !strcmp(o->include.v[i], dir);
		const char *why = NULL;
		if (!have && options_apply_named(o, "I", dir, path, &why) != 0) {
			free(dir);
			free(path);
			fclose(f);
			return 2;
		}
		free(dir);
	}
	char buf[4096];
	int line = 0, rc = 0, ng = 0;
	ignored_keys groups[IGNORED_GROUPS_MAX];
	while (rc == 0 && fgets(buf, sizeof buf, f)) {
		line++;
		size_t n = strlen(buf);
		while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
			buf[--n] = '\0';
		char *p = buf;
		while (*p == ' ' || *p == '\t')
			p++;
		if (!*p || *p == '#')
			continue;
		char *key = p;
		while (isalpha((unsigned char)*p))
			p++;
		if (p == key)
			rc = conf_error(path, line, (int)(p - buf) + 1, "expected a key (letters) %s", "here");
		else if (!*p)
			rc = conf_error(path, line, (int)(p - buf) + 1, "key '%s' needs a value", key);
		else if (*p != ' ' && *p != '\t' && *p != '=')
			rc = conf_error(path, line, (int)(p - buf) + 1, "expected a blank or '=' after the key%s", "");
		if (rc)
			break;
		char *end = p;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '=') {
			p++;
			while (*p == ' ' || *p == '\t')
				p++;
		}
		*end = '\0';
		if (!*p) {
			rc = conf_error(path, line, (int)(p - buf) + 1, "key '%s' needs a value", key);
			break;
		}
		char *origin = xasprintf("%s:%d:%d", path, line, (int)(key - buf) + 1);
		const char *why = NULL;
		if (!strcmp(key, "conf"))
			rc = conf_read_depth(o, p, depth + 1);
		else
			rc = options_apply_named(o, key, p, origin, &why);
		if (why)
			ignored_add(o, groups, &ng, why, origin, key);
		free(origin);
	}
	ignored_report(o, groups, ng);
	fclose(f);
	free(path);
	return rc;
}

int herd_conf_read(weft_options *o, const char *file)
{
	return conf_read_depth(o, file, 0);
}
