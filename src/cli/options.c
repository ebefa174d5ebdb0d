/* options.c — the option table, its parser, and the help text made from it. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"
#include "../util/util.h"

enum opt_id {
	OPT_HELP, OPT_VERSION, OPT_CHECK, OPT_DUMP, OPT_MODEL, OPT_ENGINE,
	OPT_INCLUDE, OPT_TIMEOUT, OPT_STATS,
};

typedef struct opt_spec {
	enum opt_id id;
	const char *name;     /* without dashes */
	const char *alias;    /* another accepted name, or NULL */
	const char *arg;      /* argument's name, NULL for a flag */
	const char *help;
} opt_spec;

static const opt_spec specs[] = {
	{ OPT_MODEL, "model", "cat", "NAME|FILE",
	  "memory model: a .cat file, or NAME.cat on the search path (sc, tso, power; "
	  "aliases x86tso, ppc). Default: power for PPC, tso for X86 and X86_64" },
	{ OPT_ENGINE, "engine", NULL, "NAME", "exploration engine: enumerate (default)" },
	{ OPT_INCLUDE, "I", NULL, "DIR", "add DIR to the cat search path (repeatable)" },
	{ OPT_TIMEOUT, "timeout", NULL, "SECONDS",
	  "give up on a test after SECONDS; it is reported as a timeout" },
	{ OPT_STATS, "stats", NULL, NULL,
	  "after each result block print `Stats NAME complete N blocked B commits C`" },
	{ OPT_CHECK, "check", NULL, NULL,
	  "parse only (.litmus and .cat files): print nothing for good files, "
	  "diagnostics for bad ones; exit 0 only if all parse" },
	{ OPT_DUMP, "dump", NULL, NULL, "print each parsed program in weft's readable form" },
	{ OPT_VERSION, "version", NULL, NULL, "print the version and exit" },
	{ OPT_HELP, "help", "h", NULL, "print this help and exit" },
};

void options_print_help(FILE *out)
{
	fputs("Usage: weft [OPTIONS] FILE.litmus|DIR|@LIST ...\n"
	      "       weft -check FILE.litmus|FILE.cat ...\n"
	      "\n"
	      "Runs herd-style litmus tests against an axiomatic memory model written in\n"
	      "cat, and prints herd7's result block for each test.  A DIR argument means\n"
	      "every *.litmus file below it (sorted); @LIST is a file of paths, one a line,\n"
	      "relative to the list's folder.\n"
	      "\n"
	      "Options (single dash as in herd7; --name and --name=VALUE also work):\n",
	      out);
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		const opt_spec *s = &specs[i];
		char head[64];
		snprintf(head, sizeof head, "-%s%s%s", s->name, s->arg ? " " : "", s->arg ? s->arg : "");
		fprintf(out, "  %-22s %s\n", head, s->help);
		if (s->alias) {
			snprintf(head, sizeof head, "-%s", s->alias);
			fprintf(out, "  %-22s same as -%s\n", head, s->name);
		}
	}
	fputs("\n"
	      "The cat search path: the model's own folder, each -I DIR, each folder of\n"
	      "$WEFT_CAT_PATH (colon separated), then the installed models.\n"
	      "\n"
	      "Exit status: 0 success; 1 a test or model could not be read or run;\n"
	      "2 usage error.\n",
	      out);
}

static const opt_spec *find_spec(const char *name, size_t len)
{
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		const opt_spec *s = &specs[i];
		if (strlen(s->name) == len && !strncmp(s->name, name, len))
			return s;
		if (s->alias && strlen(s->alias) == len && !strncmp(s->alias, name, len))
			return s;
	}
	return NULL;
}

static int usage_error(const char *fmt, const char *what)
{
	fputs("weft: ", stderr);
	fprintf(stderr, fmt, what);
	fputs("\nTry 'weft -help'.\n", stderr);
	return 2;
}

static bool parse_seconds(const char *s, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= 0) || v > 1e9)
		return false;
	*out = v;
	return true;
}

int options_parse(weft_options *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->action = ACT_RUN;
	o->engine = "enumerate";
	o->include = xcalloc((size_t)argc, sizeof *o->include);
	o->inputs = xcalloc((size_t)argc, sizeof *o->inputs);
	bool only_inputs = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_inputs || a[0] != '-' || a[1] == '\0') {
			o->inputs[o->n_inputs++] = a;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_inputs = true;
			continue;
		}
		const char *name = a + 1 + (a[1] == '-');
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		const opt_spec *s = find_spec(name, len);
		if (!s)
			return usage_error("unknown option '%s'", a);
		const char *val = NULL;
		if (s->arg) {
			if (eq)
				val = eq + 1;
			else if (i + 1 < argc)
				val = argv[++i];
			else
				return usage_error("option '%s' needs an argument", a);
		} else if (eq) {
			return usage_error("option '%s' takes no argument", a);
		}
		switch (s->id) {
		case OPT_HELP: o->action = ACT_HELP; break;
		case OPT_VERSION: o->action = ACT_VERSION; break;
		case OPT_CHECK: o->action = ACT_CHECK; break;
		case OPT_DUMP: o->action = ACT_DUMP; break;
		case OPT_MODEL: o->model = val; break;
		case OPT_ENGINE:
			if (strcmp(val, "enumerate") != 0)
				return usage_error("unknown engine '%s' (available: enumerate)", val);
			o->engine = val;
			break;
		case OPT_INCLUDE: o->include[o->n_include++] = val; break;
		case OPT_TIMEOUT:
			if (!parse_seconds(val, &o->timeout))
				return usage_error("-timeout wants a number of seconds, not '%s'", val);
			break;
		case OPT_STATS: o->stats = true; break;
		}
	}
	return 0;
}

void options_free(weft_options *o)
{
	free(o->include);
	free(o->inputs);
	o->include = NULL;
	o->inputs = NULL;
}
