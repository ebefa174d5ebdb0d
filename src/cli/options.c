/* options.c — the option table, its parser, and the help text made from it. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "herd_compat.h"
#include "options.h"
#include "../engine/engine.h"
#include "../util/util.h"

enum opt_id {
	OPT_HELP, OPT_VERSION, OPT_CHECK, OPT_DUMP, OPT_INTERACTIVE, OPT_SERVE, OPT_MODEL, OPT_ENGINE,
	OPT_INCLUDE, OPT_TIMEOUT, OPT_STATS, OPT_FORMAT, OPT_JOBS, OPT_MAXMEM,
	OPT_QUIET, OPT_VERBOSE, OPT_FAILURES_OK, OPT_SELECT, OPT_EXCL, OPT_NAMES, OPT_EXPECT,
	OPT_SHARD, OPT_TABLE, OPT_CELLS, OPT_ORDER, OPT_OUTPUT, OPT_HARDWARE, OPT_EXPLAIN, OPT_SHOW,
	OPT_CAPTION, OPT_LABEL,
	OPT_UNROLL, OPT_THROUGH, OPT_SKIPCHECKS, OPT_STRICTSKIP, OPT_CONDS, OPT_RESULTS, OPT_FORCE, OPT_CONF, OPT_VARIANT, OPT_MACROS, OPT_BELL,
	OPT_DIFF, OPT_SPEEDCHECK, OPT_NSHOW, OPT_SHOWONE, OPT_LIBDIR, OPT_HEXA, OPT_INITWRITES, OPT_JUDGE,
	OPT_INTERPRET,
};

typedef struct opt_spec {
	enum opt_id id;
	const char *name;     /* without dashes */
	const char *alias;    /* another accepted name, or NULL */
	const char *arg;      /* argument's name, NULL for a flag */
	const char *help;
} opt_spec;

/* herd's boolean options whose argument weft lets one leave out (true). */
static bool arg_optional(enum opt_id id)
{
	return id == OPT_HEXA || id == OPT_SHOWONE || id == OPT_INITWRITES;
}

/* -serve's argument, which may be left out: PORT or ADDR:PORT (digits
 * after the last colon), never a file that exists. */
static bool serve_arg(const char *a)
{
	const char *p = strrchr(a, ':');
	p = p ? p + 1 : a;
	if (!*p || strspn(p, "0123456789") != strlen(p))
		return false;
	struct stat st;
	return stat(a, &st) != 0;
}

static const opt_spec specs[] = {
	{ OPT_MODEL, "model", "cat", "[LABEL=]NAME|FILE",
	  "memory model: a .cat file, or NAME.cat on the search path (sc, tso, power; "
	  "aliases x86tso, ppc). Default: power for PPC, tso for X86 and X86_64, herd's riscv "
	  "(riscv.cat, on the search path) for RISCV, herd's aarch64 (aarch64.cat, on the search "
	  "path) for AArch64, herd's c11_partialSC for C when herd's library is on the search path, "
	  "else sc (the kernel's model comes with -conf). Repeatable: "
	  "every test runs under each model, in order, each block then ending with "
	  "`Model LABEL` (the short name, or the argument when two share one; LABEL=FILE "
	  "names it). A model "
	  "that says it is for other architectures ((* arch: PPC *), or herd's include "
	  "\"ppcfences.cat\") is refused alone, left out among several" },
	{ OPT_ENGINE, "engine", NULL, "NAME",
	  "exploration engine: rsmc (default: commit-before exploration, forbidden "
	  "executions cut off early; a test it cannot vouch for under the model goes to "
	  "the enumerator, with a note), enumerate (every candidate execution, then the "
	  "model; the default with -explain or -show, which need it), or bmc (the test "
	  "and the model encoded into SAT and solved by CaDiCaL: States are herd's, but "
	  "Positive and Negative count distinct final states, not executions), pop "
	  "(parsimonious-optimal DPOR over the threads' interleavings, SC models only), "
	  "await (spin loops as the one iteration that exits, whatever -unroll, and an await "
	  "that can spin forever as Flag liveness-violation; SC models only), or rvf "
	  "(one interleaving per class of equal values read, checked by VerifySC; SC models "
	  "only; Positive and Negative count distinct final states)" },
	{ OPT_UNROLL, "unroll", NULL, "N",
	  "take each backward jump at most N times per loop head on a path (default 2, "
	  "as herd7; 0: never); a path that would take it once more is cut, its executions "
	  "dropped, and the verdict reads Loop Ok or Loop No" },
	{ OPT_INCLUDE, "I", NULL, "DIR", "add DIR to the cat search path (repeatable)" },
	{ OPT_LIBDIR, "set-libdir", NULL, "DIR",
	  "herd7's library folder: searched for models and -conf files after the -I folders "
	  "(as is each folder of $HERDLIB)" },
	{ OPT_CONF, "conf", NULL, "FILE",
	  "read herd7's configuration file FILE (`key value` lines, # comments): each key "
	  "acts as the option of that name, in order; a model key counts when no -model "
	  "is given; FILE is found as written, else in the -I, -set-libdir and $HERDLIB "
	  "folders; the files it names are looked for in its own folder too" },
	{ OPT_SPEEDCHECK, "speedcheck", NULL, "false|true|fast",
	  "herd7's speedcheck: fast stops each test at the first execution that decides "
	  "its verdict (a witness of exists, a counter-example of forall), so the block "
	  "lists only the states found until then (runs the enumerate engine, or bmc "
	  "with -engine bmc: one SAT call); true and false list every state" },
	{ OPT_NSHOW, "nshow", NULL, "N", "with -show: write at most N graphs per test and model" },
	{ OPT_SHOWONE, "showone", NULL, "true|false", "same as -nshow 1 (true)" },
	{ OPT_HEXA, "hexa", NULL, "true|false",
	  "print values in result blocks in hexadecimal, 0x..., as herd7 -hexa "
	  "(the argument may be left out: true)" },
	{ OPT_INITWRITES, "initwrites", NULL, "true|false",
	  "herd7's initwrites: weft always represents initial values as write events "
	  "(true); false is noted and has no effect" },
	{ OPT_MACROS, "macros", NULL, "FILE",
	  "herd7's macro file for C tests (linux-kernel.def): the meaning of every kernel "
	  "primitive a C test calls, read as herd reads it; found as written, else in the -I, "
	  "-set-libdir and $HERDLIB folders. Without it, weft's own kernel-primitives.def "
	  "(on the model search path). C11's atomic_*_explicit, compare-exchanges, fences and "
	  "locks are herd's keywords, read without it; atomic_load, atomic_store, ... are "
	  "macros of herd's c11.def (-macros c11.def)" },
	{ OPT_VARIANT, "variant", NULL, "TAGS",
	  "herd7's variants (comma separated): a model's `if \"TAG\" ... else ... end` takes "
	  "its first branch for each TAG given (weft's PPC and X86 semantics have no variants); "
	  "mixed runs herd's mixed-size semantics (man weft, MIXED-SIZE ACCESSES)" },
	{ OPT_BELL, "bell", NULL, "FILE",
	  "herd7's bell file: read before each model (after stdlib.cat); the sets its "
	  "`instructions` declarations name ('rcu-lock gives Rcu-lock) are bound first" },
	{ OPT_FORMAT, "format", NULL, "herd|yaml|json",
	  "output: herd7's result blocks (default), one YAML document per test and model, or the same "
	  "as one JSON object a line (JSON Lines; its schema is installed as weft-results.schema.json)" },
	{ OPT_STATS, "stats", NULL, NULL,
	  "after each result block print `Stats NAME complete N blocked B commits C "
	  "candidates K forbidden F` (with -table: `(K candidates, F forbidden)` in each cell), then "
	  "`allowed A` when the model's `with X from S` counted a candidate more than once (N: "
	  "executions as herd counts them, A: candidates allowed), "
	  "rsmc's `order O` and `fallback enumerate` when the enumerator answered for it, "
	  "`interpreted I` when the model's compiled check left I candidates to its evaluator; "
	  "with -engine bmc: `Stats NAME engine bmc states S sat-calls C vars V clauses K`; "
	  "with -engine pop: `Stats NAME engine pop states S executions E redundant R blocked B "
	  "infeasible I depth D peak-bytes M`; "
	  "with -engine rvf: `Stats NAME engine rvf states S classes C verifysc-calls V verifysc-failed F "
	  "verifysc-skipped K verifysc-us U verifysc-share% P`" },
	{ OPT_INTERPRET, "interpret", NULL, NULL,
	  "judge complete executions with the cat evaluator alone: not with the model compiled "
	  "into a program over bit matrices (the default, same verdicts; for comparing the two)" },
	{ OPT_EXPLAIN, "explain", NULL, NULL,
	  "after each result block, say which checks forbid the condition's states and "
	  "print a cycle of one forbidden execution reaching them, or one allowed witness" },
	{ OPT_SHOW, "show", NULL, "prop|neg|all|none",
	  "write a Graphviz file per allowed execution (where the condition's proposition "
	  "holds, does not, all) into the -o folder; with -explain also the explained one" },
	{ OPT_THROUGH, "through", NULL, "none|invalid|all",
	  "as herd7 for a model read from a file: invalid and all let every candidate "
	  "execution through, forbidden ones counted in the block and drawn by -show "
	  "(their picture says which check would forbid them); none (default) lets only "
	  "allowed ones through. Uses the enumerator" },
	{ OPT_SKIPCHECKS, "skipchecks", "skipcheck", "NAME,...",
	  "ignore the outcome of the model's checks called NAME (their `as` name); "
	  "repeatable, the lists add up. A name no check of a model has is a warning. "
	  "Uses the enumerator" },
	{ OPT_STRICTSKIP, "strictskip", NULL, "true|false",
	  "with -skipchecks, as herd7: true keeps only the executions that fail every "
	  "skipped check and pass the others (those only the skipped checks forbid)" },
	{ OPT_CONDS, "conds", NULL, "FILE",
	  "replace the final condition of the tests FILE names: one `NAME CONDITION` a "
	  "line (CONDITION as at the end of a test, e.g. exists (1:r1=1 /\\ 1:r3=0), "
	  "optionally in double quotes; # or % starts a comment; repeatable, the files add "
	  "up); with -show prop, draw only "
	  "the executions reaching those states" },
	{ OPT_TABLE, "table", NULL, "markdown|latex|latex-doc|csv|html",
	  "print one table instead of result blocks: a row per test, a column per model "
	  "(latex: a booktabs tabular to \\input; latex-doc: a document of its own; "
	  "html: a page of its own, sortable by any column, verdicts coloured, "
	  "disagreements with -hardware marked)" },
	{ OPT_DIFF, "diff", NULL, NULL,
	  "compare two models (two -model, or two columns of -results): print only the tests "
	  "whose results differ, one line each `KIND TEST A: ... B: ...` (tab-separated; KIND "
	  "verdict, states, counts, failed or missing), the states one side lacks under it, then "
	  "the counts by kind on stderr; exit 0 when none differ, 1 when some do" },
	{ OPT_RESULTS, "results", NULL, "[LABEL=]FILE|DIR",
	  "make the -table from saved results instead of running tests: -format yaml or "
	  "json output (every .yaml, .yml, .json, .jsonl and .log file below DIR), herd7 logs (the column: "
	  "the file's name without extension, or its Model lines; LABEL= heads the one column of "
	  "FILE|DIR LABEL); -select, -names and "
	  "-excl choose tests, -model the columns and their order. The shards of a run "
	  "are joined in the run's test order; a missing or repeated shard, or a column "
	  "mixing producers (weft version, engine, options, model), is an error "
	  "(repeatable)" },
	{ OPT_FORCE, "force", NULL, NULL,
	  "with -results: make the table despite missing or repeated shards or mixed "
	  "producers, saying so in notes (of two results for one cell, the first read)" },
	{ OPT_CAPTION, "table-caption", NULL, "TEXT",
	  "LaTeX tables: put the tabular in a table float with this \\caption; HTML: the table's caption "
	  "and the page's title" },
	{ OPT_LABEL, "table-label", NULL, "KEY",
	  "LaTeX tables: put the tabular in a table float with this \\label" },
	{ OPT_CELLS, "table-cells", NULL, "verdict|counts|states",
	  "table cells: Allowed/Forbidden (default), plus execution counts, or plus the "
	  "number of final states" },
	{ OPT_ORDER, "table-order", NULL, "input|name|names",
	  "the rows of a -table (the lines of -diff): in the order the tests were given (default; "
	  "with -results the runs' order), by name as mcompare7 orders them, or as the -names files "
	  "list them" },
	{ OPT_HARDWARE, "hardware", NULL, "[LABEL=]LOG",
	  "add a table column read from a herd7/litmus7 log or an mcompare .allowed file, "
	  "headed LABEL or the log's title (litmus7: observed when a state of the histogram satisfies the test's "
	  "condition's proposition)" },
	{ OPT_OUTPUT, "o", NULL, "FILE|DIR",
	  "write the -table or the -format yaml or json documents to FILE, or the .dot files of "
	  "-show and -explain into the folder DIR (made if missing); checked before any "
	  "test runs" },
	{ OPT_SELECT, "select", NULL, "REGEX",
	  "run only tests whose name matches the PCRE2 REGEX (unanchored; repeatable: any)" },
	{ OPT_NAMES, "names", NULL, "FILE",
	  "run only tests named in FILE (one name a line; repeatable: any)" },
	{ OPT_EXCL, "excl", NULL, "FILE|REGEX",
	  "skip tests named in FILE when FILE is an existing file or looks like a path "
	  "(has a '/' or ends in .names, .txt, .lst, .list or .excl; then it must exist), "
	  "else tests whose name matches REGEX (repeatable)" },
	{ OPT_SHARD, "shard", NULL, "K/N",
	  "run only the K-th of N slices of the selected tests (test i when i mod N = K-1)" },
	{ OPT_JOBS, "j", NULL, "N", "run N tests at a time in worker processes (default: one per core)" },
	{ OPT_TIMEOUT, "timeout", NULL, "SECONDS",
	  "give up on a test after SECONDS of wall time; it is reported as a timeout" },
	{ OPT_MAXMEM, "maxmem", NULL, "MB",
	  "limit each test's address space to MB megabytes; it is reported as OutOfMemory" },
	{ OPT_FAILURES_OK, "failures-ok", NULL, NULL,
	  "timeouts, out-of-memory and crashed tests do not make the exit status 1" },
	{ OPT_EXPECT, "expect", NULL, "FILE.yaml",
	  "compare each test's verdict (and states) with FILE's, or with an earlier run's "
	  "-format yaml output; print `N tests compared, M mismatches`; exit 1 on a "
	  "mismatch, when N is 0, or when FILE names a model key (label, -model argument "
	  "or title) that is no model of the run" },
	{ OPT_JUDGE, "judge", NULL, NULL,
	  "judge each test by its `Result:` comment (Always, Sometimes, Never, Maybe, DEADLOCK, "
	  "optionally DATARACE) with the rules of the Linux kernel's judgelitmus.sh, instead of "
	  "printing blocks: one line per test that fails, in the kernel's words (` !!! Unexpected "
	  "non-Never verification FILE`), then a summary line; tests without a Result: comment "
	  "are counted apart (-v names them); exit 1 when a test fails or none was judged. "
	  "One model at most (the kernel's: -conf linux-kernel.cfg)" },
	{ OPT_QUIET, "q", NULL, NULL, "no progress line and no final summary on stderr" },
	{ OPT_VERBOSE, "v", NULL, NULL,
	  "a note for each test rsmc leaves to the enumerator, with its model and why, where "
	  "the test runs (without -v, a run of several tests says it once at the end: per "
	  "reason, how many tests and the first names; a run of one test says nothing, its "
	  "output stays herd7's); the notes on -conf keys weft ignores; with -judge, the "
	  "tests without a Result: comment" },
	{ OPT_CHECK, "check", NULL, NULL,
	  "parse only (.litmus and .cat files; a .cat file is also compiled and "
	  "evaluated on a small test of each architecture, to find type errors): print "
	  "nothing for good files, diagnostics for bad ones; exit 0 only if all pass" },
	{ OPT_DUMP, "dump", NULL, NULL, "print each parsed program in weft's readable form" },
	{ OPT_INTERACTIVE, "i", NULL, NULL,
	  "explore one test by hand (weft -i [-model M] TEST.litmus): commands read from "
	  "standard input commit events one at a time, choosing what each load reads and "
	  "where each store goes in coherence, with the model's verdict on every choice; "
	  "goto STATE searches for an execution ending in STATE or says which checks "
	  "forbid it, with a cycle ('help' at the prompt lists the commands)" },
	{ OPT_SERVE, "serve", NULL, "[[ADDR:]PORT]",
	  "explore one test in a web page (weft -serve [PORT] [-model M] TEST.litmus|DIR): "
	  "serves the page and a JSON API over a session, as -i's, at http://127.0.0.1:PORT/ "
	  "(default 8080; 0: any free port, printed); the execution graph drawn live, a "
	  "click on an event shows its choices with the model's verdicts, a refusal its "
	  "cycle; a DIR gives every test below it to pick from. Only 127.0.0.1 unless ADDR "
	  "names another address (then a warning)" },
	{ OPT_VERSION, "version", NULL, NULL, "print the version and exit" },
	{ OPT_HELP, "help", "h", NULL, "print this help and exit" },
};

/* Print `text` in the help's right-hand column, wrapped at word breaks so
 * that no line passes HELP_WIDTH columns. */
enum { HELP_WIDTH = 79, HELP_INDENT = 25 };

static void print_wrapped(FILE *out, const char *text)
{
	int col = HELP_INDENT;
	const char *p = text;
	while (*p) {
		const char *end = p;
		while (*end && *end != ' ')
			end++;
		int len = (int)(end - p);
		if (col > HELP_INDENT && col + 1 + len > HELP_WIDTH) {
			fprintf(out, "\n%*s", HELP_INDENT, "");
			col = HELP_INDENT;
		} else if (col > HELP_INDENT) {
			fputc(' ', out);
			col++;
		}
		fwrite(p, 1, (size_t)len, out);
		col += len;
		p = *end ? end + 1 : end;
	}
	fputc('\n', out);
}

void options_print_help(FILE *out)
{
	fputs("Usage: weft [OPTIONS] FILE.litmus|DIR|@LIST ...\n"
	      "       weft -check FILE.litmus|FILE.cat ...\n"
	      "       weft -i [-model M] FILE.litmus\n"
	      "       weft -serve [[ADDR:]PORT] [-model M] FILE.litmus|DIR\n"
	      "\n"
	      "Runs herd-style litmus tests against an axiomatic memory model written in\n"
	      "cat, and prints herd7's result block for each test.  A DIR argument means\n"
	      "every *.litmus file below it (sorted); @LIST is a file of paths, one a line,\n"
	      "relative to the list's folder.  Each test runs in a worker process; output\n"
	      "comes in input order whatever -j says.\n"
	      "\n"
	      "Options (single dash as in herd7; --name and --name=VALUE also work):\n",
	      out);
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		const opt_spec *s = &specs[i];
		char head[64];
		snprintf(head, sizeof head, "-%s%s%s", s->name, s->arg ? " " : "", s->arg ? s->arg : "");
		/* a head too wide for its column gets a line of its own */
		if (strlen(head) > HELP_INDENT - 3)
			fprintf(out, "  %s\n%*s", head, HELP_INDENT, "");
		else
			fprintf(out, "  %-22s ", head);
		print_wrapped(out, s->help);
		if (s->alias) {
			snprintf(head, sizeof head, "-%s", s->alias);
			fprintf(out, "  %-22s same as -%s\n", head, s->name);
		}
	}
	fputs("\n"
	      "The cat search path: the model's own folder, each -I DIR, each\n"
	      "-set-libdir DIR, each folder of $WEFT_CAT_PATH and of $HERDLIB (colon\n"
	      "separated), the installed models, then herd7's install folders\n"
	      "(/usr/local/share/herdtools7/herd, /usr/share/herdtools7/herd,\n"
	      "$HOME/.opam/default/share/herdtools7/herd).\n"
	      "\n"
	      "herd7 options that only shape herd's own graphs or messages (-graph,\n"
	      "-showevents, -fontsize, -gv, -v, ...) are accepted with a one-line note;\n"
	      "herd7 options that would change results weft cannot honour (-restrict,\n"
	      "-machsize, -throughflag, ...) are refused by name (man weft, HERD7 OPTIONS).\n"
	      "\n"
	      "Progress goes to stderr when it is a terminal; a one-line summary follows\n"
	      "any run of more than one test (both silenced by -q).\n"
	      "\n"
	      "Exit status: 0 success; 1 no test selected, a test or model could not be\n"
	      "read or run, a test timed out, ran out of memory or crashed, or an\n"
	      "expectation failed; 2 usage error.\n",
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

/* As usage_error, for a message built in msg (freed). */
static int usage_error_built(strbuf *msg)
{
	int rc = usage_error("%s", msg->s);
	sb_free(msg);
	return rc;
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

/* A decimal integer in [lo, hi], nothing else. */
static bool parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* "K/N" with 1 <= K <= N. */
static bool parse_shard(const char *s, int *k, int *n)
{
	const char *slash = strchr(s, '/');
	if (!slash)
		return false;
	char *head = xstrndup(s, (size_t)(slash - s));
	long kv, nv;
	bool ok = parse_long(head, 1, INT_MAX, &kv) && parse_long(slash + 1, 1, INT_MAX, &nv) && kv <= nv;
	free(head);
	if (ok) {
		*k = (int)kv;
		*n = (int)nv;
	}
	return ok;
}

static bool is_regular_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* An -excl argument meant as a file of names that is not there must not
 * quietly become a regex that excludes nothing: one with a '/' or a name
 * file's extension is taken as a file (and its absence reported).  Test
 * names have neither. */
static bool looks_like_path(const char *arg)
{
	static const char *const exts[] = { ".names", ".txt", ".lst", ".list", ".excl" };
	if (strchr(arg, '/'))
		return true;
	size_t n = strlen(arg);
	for (size_t i = 0; i < sizeof exts / sizeof exts[0]; i++) {
		size_t m = strlen(exts[i]);
		if (n > m && !strcmp(arg + n - m, exts[i]))
			return true;
	}
	return false;
}

static int keyword_index(const char *val, const char *const *names, int n)
{
	for (int k = 0; k < n; k++)
		if (!strcmp(val, names[k]))
			return k;
	return -1;
}

/* `what` needs an engine with every bit of `cap`, and the one given has
 * not: name those that have, and why this one is not enough (`why`,
 * after the engine's name when `engine` is given). */
static int needs_engine(const char *what, unsigned cap, const char *engine, const char *why)
{
	strbuf msg = { 0 };
	sb_printf(&msg, "%s need -engine ", what);
	engine_names(&msg, cap, " or ");
	sb_printf(&msg, ": %s%s%s", engine ? engine : "", engine ? " " : "", why);
	return usage_error_built(&msg);
}

/* Options that only make sense together, or not at all together. */
static int check_combinations(const weft_options *o, bool cells_given)
{
	/* a session explores one test under one model, answering on stdout */
	if (o->interactive && (o->models.n > 1 || o->table != TBL_NONE || o->explain || o->show != SHOW_NONE ||
			       o->format != FMT_HERD || o->inputs.n != 1))
		return usage_error("%s explores one test under one model: one .litmus file, at most one "
		                   "-model, and none of -table, -explain, -show, -format", "-i");
	if (o->serve && (o->interactive || o->models.n > 1 || o->table != TBL_NONE || o->explain ||
			 o->show != SHOW_NONE || o->format != FMT_HERD || o->inputs.n != 1 || o->through ||
			 o->skipchecks.n > 0 || o->conds.n > 0))
		return usage_error("%s explores one test (or a folder's tests, one at a time) under one model: "
		                   "one .litmus file or folder, at most one -model, and none of -i, -table, -explain, "
		                   "-show, -format, -through, -skipchecks, -conds", "-serve");
	if (o->explain && o->format != FMT_HERD)
		return usage_error("%s prints text after herd's blocks: not with -format yaml", "-explain");
	/* -judge reads each test's one herd block in place of printing it */
	if (o->judge && (o->models.n > 1 || o->table != TBL_NONE || o->explain || o->show != SHOW_NONE ||
			 o->format != FMT_HERD || o->interactive || o->results.n > 0 || o->action == ACT_CHECK ||
			 o->action == ACT_DUMP))
		return usage_error("%s judges each test's one result block: at most one -model, and none of "
		                   "-table, -explain, -show, -format, -i, -results, -check, -dump", "-judge");
	/* Explanations and graphs are drawn from every candidate execution,
	 * forbidden ones included, and only the enumerator builds those: rsmc
	 * cuts a forbidden execution off before it is complete.  Both engines
	 * give the same result blocks, so without an explicit -engine the
	 * enumerator is simply the one used; an explicit other engine is a
	 * contradiction worth saying. */
	const engine_desc *e = engine_find(o->engine);
	if (o->show != SHOW_NONE && !(e->caps & ENGINE_EVERY_CANDIDATE))
		return needs_engine("-explain and -show", ENGINE_EVERY_CANDIDATE, o->engine,
				    "does not build every execution, forbidden executions included, so it "
				    "has none to draw");
	/* bmc gives -explain the witness of each state it reports, and one
	 * execution the model forbids when the condition's states are not
	 * reached */
	if (o->explain && !(e->caps & (ENGINE_EVERY_CANDIDATE | ENGINE_WITNESSES)))
		return needs_engine("-explain and -show", ENGINE_EVERY_CANDIDATE, o->engine,
				    "never completes the forbidden executions, so it has none to explain "
				    "(-engine bmc gives -explain its witnesses)");
	/* Skipping checks changes the model rsmc's commit-before order was
	 * proved for (skipping thinair lets executions with a cycle in
	 * dependencies and rf through, which no commit order builds). */
	if ((o->through || o->skipchecks.n > 0) && !(e->caps & ENGINE_SKIPCHECKS))
		return needs_engine("-through and -skipchecks", ENGINE_SKIPCHECKS, NULL, e->no_skipchecks);
	/* -strictskip selects by the skipped checks: without any it would
	 * keep nothing less than everything; -explain's "forbidden by" would
	 * name a check that holds */
	if (o->strict_skip && o->skipchecks.n == 0)
		return usage_error("%s selects the executions the -skipchecks checks forbid: give -skipchecks",
		                   "-strictskip true");
	if (o->strict_skip && o->explain)
		return usage_error("%s keeps only executions the skipped checks forbid: -explain has no "
		                   "verdict of the model's to explain there", "-strictskip true");
	if (o->interactive && (o->through || o->skipchecks.n > 0 || o->conds.n > 0))
		return usage_error("%s takes none of -through, -skipchecks, -conds (goto STATE is its -conds)", "-i");
	if (o->caption && o->table != TBL_LATEX && o->table != TBL_LATEX_DOC && o->table != TBL_HTML)
		return usage_error("%s needs -table latex, latex-doc or html", "-table-caption");
	if (o->label && o->table != TBL_LATEX && o->table != TBL_LATEX_DOC)
		return usage_error("%s needs -table latex or latex-doc", "-table-label");
	if (o->order != ORDER_INPUT && o->table == TBL_NONE)
		return usage_error("%s needs -table or -diff", "-table-order");
	if (o->order == ORDER_NAMES && o->names_files.n == 0)
		return usage_error("%s needs -names FILE (the order of its lines)", "-table-order names");
	if (o->table == TBL_NONE) {
		if (cells_given)
			return usage_error("%s needs -table", "-table-cells");
		if (o->hardware)
			return usage_error("%s needs -table", "-hardware");
		if (o->output && o->show == SHOW_NONE && !o->explain && !format_is_documents(o->format))
			return usage_error("%s needs -table, -format yaml or json, -show or -explain", "-o");
		if (o->show != SHOW_NONE && !o->output)
			return usage_error("%s needs -o DIR (the folder for its .dot files)", "-show");
		return 0;
	}
	const char *what = o->table == TBL_DIFF ? "-diff" : "-table";
	if (o->explain || o->show != SHOW_NONE)
		return usage_error("%s cannot be combined with -explain or -show", what);
	if (o->format != FMT_HERD)
		return usage_error("%s cannot be combined with -format yaml or json", what);
	if (o->table == TBL_DIFF && (cells_given || o->hardware))
		return usage_error("%s compares two models: -table-cells and -hardware are -table's", what);
	return 0;
}

/* -results makes a table from what earlier runs saved: nothing runs. */
static int check_results(const weft_options *o)
{
	if (o->action == ACT_HELP || o->action == ACT_VERSION)
		return 0;
	if (o->results.n == 0)
		return o->force ? usage_error("%s needs -results", "-force") : 0;
	if (o->table == TBL_NONE)
		return usage_error("%s makes a table from saved results: give -table FORMAT (or -diff) too", "-results");
	if (o->inputs.n > 0)
		return usage_error("-results runs no test: '%s' is not an option (give saved results with "
				   "-results FILE|DIR)", o->inputs.v[0]);
	if (o->action != ACT_RUN || o->interactive || o->expect_files.n > 0 || o->shard_n > 0 || o->conds.n > 0 ||
	    o->through || o->skipchecks.n > 0)
		return usage_error("%s cannot be combined with -check, -dump, -i, -expect, -shard, -conds, "
				   "-through or -skipchecks", "-results");
	return 0;
}

static void push(str_list *l, const char *s)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->v = xrealloc(l->v, (size_t)l->cap * sizeof *l->v);
	}
	l->v[l->n++] = s;
}

/* `LABEL=FILE` names a column: *label gets LABEL (kept in owned) and FILE
 * is returned; anything else is a file or name as it is, *label NULL.  A
 * label is a word (letters, digits, _ . + -), so a path with '=' in a
 * folder's name is no label, nor is a file that exists under the name
 * as given. */
static const char *split_label(const char *val, const char **label, str_list *owned)
{
	*label = NULL;
	const char *eq = strchr(val, '=');
	if (!eq || eq == val || !eq[1] || is_regular_file(val))
		return val;
	for (const char *p = val; p < eq; p++)
		if (!(*p == '_' || *p == '.' || *p == '+' || *p == '-' || (*p >= '0' && *p <= '9') ||
		      (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z')))
			return val;
	char *l = xstrndup(val, (size_t)(eq - val));
	push(owned, l);
	*label = l;
	return eq + 1;
}

/* herd's booleans: true/false; an optional one left out means true. */
static bool parse_bool(const char *val, bool *out)
{
	if (!val || !strcmp(val, "true")) {
		*out = true;
		return true;
	}
	if (!strcmp(val, "false")) {
		*out = false;
		return true;
	}
	return false;
}

static void note(const char *fmt, const char *a, const char *b)
{
	fputs("weft: note: ", stderr);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
}

/* Apply option s with argument val (NULL for a flag, or an optional
 * argument left out).  Returns 0, or 2 after a usage message. */
static int apply(weft_options *o, const opt_spec *s, const char *val, bool *cells_given)
{
	long num;
	bool flag;
	switch (s->id) {
	case OPT_HELP: o->action = ACT_HELP; break;
	case OPT_VERSION: o->action = ACT_VERSION; break;
	case OPT_CHECK: o->action = ACT_CHECK; break;
	case OPT_DUMP: o->action = ACT_DUMP; break;
	case OPT_MODEL: {
		const char *label = NULL;
		const char *file = split_label(val, &label, &o->owned);
		for (int k = 0; label && k < o->model_labels.n; k++)
			if (o->model_labels.v[k] && !strcmp(o->model_labels.v[k], label))
				return usage_error("two -model arguments are labelled '%s'", label);
		while (o->model_labels.n < o->models.n)
			push(&o->model_labels, NULL);
		push(&o->models, file);
		push(&o->model_labels, label);
		break;
	}
	case OPT_ENGINE:
		if (!engine_find(val)) {
			strbuf msg = { 0 };
			sb_printf(&msg, "unknown engine '%s' (available: ", val);
			engine_names(&msg, 0, ", ");
			sb_putc(&msg, ')');
			return usage_error_built(&msg);
		}
		o->engine = val;
		o->engine_given = true;
		break;
	case OPT_INCLUDE: push(&o->include, val); break;
	case OPT_TIMEOUT:
		if (!parse_seconds(val, &o->timeout))
			return usage_error("-timeout wants a number of seconds, not '%s'", val);
		break;
	case OPT_STATS: o->stats = true; break;
	case OPT_INTERPRET: o->interpret = true; break;
	case OPT_FORMAT:
		if (!strcmp(val, "herd"))
			o->format = FMT_HERD;
		else if (!strcmp(val, "yaml"))
			o->format = FMT_YAML;
		else if (!strcmp(val, "json"))
			o->format = FMT_JSON;
		else
			return usage_error("unknown format '%s' (available: herd, yaml, json)", val);
		break;
	case OPT_JOBS:
		/* Each worker holds three pipes open in the parent. */
		if (!parse_long(val, 1, 256, &num))
			return usage_error("-j wants a number of workers from 1 to 256, not '%s'", val);
		o->jobs = (int)num;
		break;
	case OPT_MAXMEM:
		if (!parse_long(val, 1, LONG_MAX / (1024 * 1024), &num))
			return usage_error("-maxmem wants a number of megabytes, not '%s'", val);
		o->maxmem_mb = num;
		break;
	case OPT_UNROLL:
		if (!parse_long(val, 0, 1000000, &num))
			return usage_error("-unroll wants a number of times from 0 on, not '%s'", val);
		o->unroll = (int)num;
		break;
	case OPT_QUIET: o->quiet = true; break;
	case OPT_VERBOSE: o->verbose = true; break;
	case OPT_JUDGE: o->judge = true; break;
	case OPT_FAILURES_OK: o->failures_ok = true; break;
	case OPT_SELECT: push(&o->select, val); break;
	case OPT_NAMES: push(&o->names_files, val); break;
	case OPT_EXCL:
		/* herd7's -excl takes a file of names; a regex is handier.
		 * An existing file wins: write a regex that is not a file
		 * name (e.g. "(?:NAME)") to force the regex reading. */
		push(is_regular_file(val) || looks_like_path(val) ? &o->excl_files : &o->excl_regex, val);
		break;
	case OPT_EXPECT: push(&o->expect_files, val); break;
	case OPT_SHARD:
		if (!parse_shard(val, &o->shard_k, &o->shard_n))
			return usage_error("-shard wants K/N with 1 <= K <= N, not '%s'", val);
		break;
	case OPT_TABLE: {
		static const char *const names[] = { "markdown", "latex", "csv", "latex-doc", "html" };
		int k = keyword_index(val, names, 5);
		if (o->table == TBL_DIFF)
			return usage_error("%s prints the differences instead of a table: not with -table", "-diff");
		if (k < 0)
			return usage_error("unknown table format '%s' (available: markdown, latex, "
					   "latex-doc, csv, html)", val);
		o->table = (enum weft_table)(TBL_MARKDOWN + k);
		break;
	}
	case OPT_CELLS: {
		static const char *const names[] = { "verdict", "counts", "states" };
		int k = keyword_index(val, names, 3);
		if (k < 0)
			return usage_error("unknown table cells '%s' (available: verdict, counts, states)", val);
		o->cells = (enum weft_cells)k;
		*cells_given = true;
		break;
	}
	case OPT_ORDER: {
		static const char *const names[] = { "input", "name", "names" };
		int k = keyword_index(val, names, 3);
		if (k < 0)
			return usage_error("unknown table order '%s' (available: input, name, names)", val);
		o->order = (enum weft_order)k;
		break;
	}
	case OPT_SHOW: {
		static const char *const names[] = { "none", "prop", "neg", "all" };
		int k = keyword_index(val, names, 4);
		if (k < 0)
			return usage_error("unknown -show '%s' (available: prop, neg, all, none)", val);
		o->show = (enum weft_show)k;
		break;
	}
	case OPT_THROUGH: {
		static const char *const names[] = { "none", "invalid", "all" };
		int k = keyword_index(val, names, 3);
		if (k < 0)
			return usage_error("unknown -through '%s' (available: none, invalid, all)", val);
		o->through = k > 0;
		break;
	}
	case OPT_SKIPCHECKS:
		if (!*val)
			return usage_error("%s wants check names, separated by commas", "-skipchecks");
		push(&o->skipchecks, val);
		break;
	case OPT_STRICTSKIP: {
		static const char *const names[] = { "false", "true" };
		int k = keyword_index(val, names, 2);
		if (k < 0)
			return usage_error("-strictskip wants true or false, not '%s'", val);
		o->strict_skip = k == 1;
		break;
	}
	case OPT_CONDS: push(&o->conds, val); break;
	case OPT_OUTPUT: o->output = val; break;
	case OPT_HARDWARE: o->hardware = split_label(val, &o->hardware_label, &o->owned); break;
	case OPT_CAPTION: o->caption = val; break;
	case OPT_LABEL: o->label = val; break;
	case OPT_EXPLAIN: o->explain = true; break;
	case OPT_DIFF:
		if (o->table != TBL_NONE && o->table != TBL_DIFF)
			return usage_error("%s prints the differences instead of a table: not with -table", "-diff");
		o->table = TBL_DIFF;
		break;
	case OPT_RESULTS: {
		const char *label = NULL;
		push(&o->results, split_label(val, &label, &o->owned));
		push(&o->results_labels, label);
		break;
	}
	case OPT_FORCE: o->force = true; break;
	case OPT_INTERACTIVE: o->interactive = true; break;
	case OPT_SERVE: o->serve = true; o->serve_at = val; break;
	case OPT_CONF: return herd_conf_read(o, val);
	case OPT_MACROS: {
		char *path = herd_find_file(o, val);
		push(&o->owned, path);
		FILE *f = fopen(path, "r");
		if (!f) {
			fprintf(stderr, "weft: error: cannot read -macros file '%s': %s\n", val, strerror(errno));
			return 2;
		}
		fclose(f);
		o->macros = path;
		break;
	}
	case OPT_LIBDIR: push(&o->libdirs, val); break;
	case OPT_VARIANT:
		push(&o->variants, val);
		break;
	case OPT_BELL: {
		/* as herd's libfind: the kernel's linux-kernel.cfg names its bell
		 * without a folder, found with -I */
		char *path = herd_find_file(o, val);
		push(&o->owned, path);
		o->bell = path;
		break;
	}
	case OPT_SPEEDCHECK: {
		static const char *const names[] = { "false", "true", "fast" };
		int k = keyword_index(val, names, 3);
		if (k < 0)
			return usage_error("unknown -speedcheck '%s' (available: false, true, fast)", val);
		o->speedcheck = (enum weft_speed)k;
		break;
	}
	case OPT_NSHOW:
		if (!parse_long(val, 1, LONG_MAX, &num))
			return usage_error("-nshow wants a number of graphs from 1 on, not '%s'", val);
		o->nshow = num;
		break;
	case OPT_SHOWONE:
		if (!parse_bool(val, &flag))
			return usage_error("-showone wants true or false, not '%s'", val);
		if (flag)
			o->nshow = 1;
		break;
	case OPT_HEXA:
		if (!parse_bool(val, &flag))
			return usage_error("-hexa wants true or false, not '%s'", val);
		o->hexa = flag;
		break;
	case OPT_INITWRITES:
		if (!parse_bool(val, &flag))
			return usage_error("-initwrites wants true or false, not '%s'", val);
		if (!flag)
			note("-initwrites false: weft always represents initial values as write events%s%s", "", "");
		break;
	}
	return 0;
}

/* The option a mistyped name most likely meant: the one at the least
 * edit distance, at most 2 and less than half the name's length (so
 * '-x' suggests nothing), the first in the table on a tie. */
static const char *nearest_option(const char *name, size_t len)
{
	size_t limit = len / 2 < 2 ? len / 2 : 2;
	const char *best = NULL;
	size_t best_d = limit + 1;
	for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
		const char *names[2] = { specs[i].name, specs[i].alias };
		for (int k = 0; k < 2; k++) {
			if (!names[k])
				continue;
			size_t d = str_distance(name, len, names[k], limit);
			if (d < best_d) {
				best_d = d;
				best = names[k];
			}
		}
	}
	return best;
}

/* A herd7 option weft does not run: a note for one that only shapes
 * herd's own output, an error for one that would change results.  *skip
 * gets how many following arguments it consumes.  Returns 0 or 2. */
static int herd_only_option(const char *a, const char *name, size_t len, bool has_value, int *skip)
{
	bool takes_arg;
	const char *why;
	*skip = 0;
	switch (herd_option_fate(name, len, &takes_arg, &why)) {
	case HERD_OPT_UNKNOWN: {
		const char *near = nearest_option(name, len);
		if (!near)
			return usage_error("unknown option '%s'", a);
		strbuf msg = { 0 };
		sb_printf(&msg, "unknown option '%s' (did you mean '-%s'?)", a, near);
		return usage_error_built(&msg);
	}
	case HERD_OPT_REFUSED:
		fprintf(stderr, "weft: herd7's option '%s' %s, which weft cannot honour\n"
			"Try 'weft -help'.\n", a, why);
		return 2;
	case HERD_OPT_IGNORED:
		if (takes_arg && !has_value)
			*skip = 1;
		note("herd7's option %s %s: ignored", a, why);
		return 0;
	}
	return 0;
}

int options_apply_named(weft_options *o, const char *name, const char *value, const char *origin,
                        const char **ignored)
{
	*ignored = NULL;
	const opt_spec *s = find_spec(name, strlen(name));
	bool cells_given = false;
	if (!s) {
		bool takes_arg;
		const char *why;
		switch (herd_option_fate(name, strlen(name), &takes_arg, &why)) {
		case HERD_OPT_UNKNOWN:
			fprintf(stderr, "%s: error: unknown key '%s' in configuration file\n", origin, name);
			return 2;
		case HERD_OPT_REFUSED:
			if (herd_option_is_default(name, value))
				return 0;   /* herd's own default: weft's too */
			fprintf(stderr, "%s: error: key '%s' %s, which weft cannot honour\n", origin, name, why);
			return 2;
		case HERD_OPT_IGNORED:
			*ignored = why;
			return 0;
		}
	}
	/* the value outlives the configuration file's line buffer */
	char *copy = xstrdup(value);
	push(&o->owned, copy);
	if (!s->arg) {
		/* a flag in a configuration file reads `key true|false` */
		bool on;
		if (!parse_bool(copy, &on)) {
			fprintf(stderr, "%s: error: key '%s' wants true or false, not '%s'\n", origin, name, copy);
			return 2;
		}
		return on ? apply(o, s, NULL, &cells_given) : 0;
	}
	/* herd keeps the last model; weft's -model repeats, so a model from
	 * a configuration file stands in only when none is given */
	if (s->id == OPT_MODEL) {
		o->conf_model = copy;
		return 0;
	}
	return apply(o, s, copy, &cells_given);
}

int options_parse(weft_options *o, int argc, char **argv)
{
	memset(o, 0, sizeof *o);
	o->unroll = -1;
	o->action = ACT_RUN;
	o->format = FMT_HERD;
	o->engine = NULL;   /* resolved after the loop: see check_combinations */
	bool only_inputs = false, cells_given = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_inputs || a[0] != '-' || a[1] == '\0') {
			push(&o->inputs, a);
			continue;
		}
		if (!strcmp(a, "--")) {
			only_inputs = true;
			continue;
		}
		const char *name = a + 1 + (a[1] == '-');
		const char *eq = strchr(name, '=');
		size_t len = eq ? (size_t)(eq - name) : strlen(name);
		/* make's spelling -j4 as well as -j 4. */
		const char *glued = NULL;
		if (name[0] == 'j' && name[1] >= '0' && name[1] <= '9' && !eq) {
			glued = name + 1;
			len = 1;
		}
		const opt_spec *s = find_spec(name, len);
		if (!s) {
			int skip;
			int rc = herd_only_option(a, name, len, eq != NULL, &skip);
			if (rc)
				return rc;
			if (skip && i + 1 >= argc)
				return usage_error("option '%s' needs an argument", a);
			i += skip;
			continue;
		}
		const char *val = glued;
		if (s->arg && !val) {
			if (eq)
				val = eq + 1;
			else if (arg_optional(s->id) && !(i + 1 < argc && (!strcmp(argv[i + 1], "true") ||
								  !strcmp(argv[i + 1], "false"))))
				val = NULL;   /* herd's boolean left out: true */
			else if (s->id == OPT_SERVE && !(i + 1 < argc && serve_arg(argv[i + 1])))
				val = NULL;   /* the default port */
			else if (i + 1 < argc)
				val = argv[++i];
			else
				return usage_error("option '%s' needs an argument", a);
		} else if (!s->arg && eq) {
			return usage_error("option '%s' takes no argument", a);
		}
		int rc = apply(o, s, val, &cells_given);
		if (rc)
			return rc;
	}
	if (o->models.n == 0 && o->conf_model)
		push(&o->models, o->conf_model);
	if (o->verbose && o->conf_notes)
		fputs(o->conf_notes, stderr);
	/* -speedcheck fast stops inside the enumerator, or bmc asks its solver
	 * for the deciding state only (engine_opts.speedcheck) */
	if (!o->engine_given)
		o->engine = engine_with(o->explain || o->show != SHOW_NONE || o->through || o->skipchecks.n > 0 ||
						o->speedcheck == SPEED_FAST ? ENGINE_REFERENCE : ENGINE_DEFAULT)->name;
	if (o->speedcheck == SPEED_FAST && !(engine_find(o->engine)->caps & ENGINE_SPEEDCHECK)) {
		strbuf msg = { 0 };
		sb_puts(&msg, "-speedcheck fast needs -engine ");
		engine_names(&msg, ENGINE_SPEEDCHECK, " or ");
		sb_printf(&msg, ", not %s", o->engine);
		return usage_error_built(&msg);
	}
	if (o->nshow && o->show == SHOW_NONE)
		return usage_error("%s needs -show", o->nshow == 1 ? "-nshow (or -showone)" : "-nshow");
	int rc = check_combinations(o, cells_given);
	return rc ? rc : check_results(o);
}

void options_free(weft_options *o)
{
	for (int i = 0; i < o->owned.n; i++)
		free((char *)o->owned.v[i]);
	free(o->conf_notes);
	o->conf_notes = NULL;
	str_list *lists[] = { &o->models, &o->model_labels, &o->results_labels, &o->include, &o->select,
			      &o->excl_regex, &o->excl_files, &o->names_files, &o->expect_files, &o->results, &o->inputs, &o->skipchecks, &o->conds,
			      &o->libdirs, &o->variants, &o->owned };
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		free(lists[i]->v);
		lists[i]->v = NULL;
		lists[i]->n = lists[i]->cap = 0;
	}
}
