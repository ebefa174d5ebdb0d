/* test_litmus.c — the litmus parser on small hand-written tests: every init
 * and condition form, labels, comments, the old X86 syntax, the -dump text,
 * cond_eval, and a few located errors (the full malformed suite is
 * tests/malformed/, run by test_litmus_malformed). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/arch/arch.h"
#include "../../src/litmus/litmus.h"
#include "check.h"


/* Parse `text`; *errors gets the diagnostics (caller frees). */
static litmus_test *parse(const char *text, char **errors)
{
	size_t len;
	FILE *f = open_memstream(errors, &len);
	diag d = { .out = f };
	litmus_test *t = litmus_parse_string("t.litmus", text, &d);
	fclose(f);
	return t;
}

static char *dump(const litmus_test *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	litmus_test_dump(t, f);
	fclose(f);
	return buf;
}

/* Parse, which must succeed, and check that each line of `want` (separated
 * by '\n') appears in the dump as a whole line. */
static litmus_test *expect_dump_lines(const char *what, const char *text, const char *want)
{
	char *errs = NULL;
	litmus_test *t = parse(text, &errs);
	CHECK(t != NULL, "%s: does not parse:\n%s", what, errs);
	if (t) {
		char *d = dump(t);
		char *w = xstrdup(want);
		char *save = NULL;
		for (char *line = strtok_r(w, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *needle = xasprintf("\n%s\n", line);
			char *hay = xasprintf("\n%s", d);
			CHECK(strstr(hay, needle) != NULL, "%s: dump lacks line '%s'; dump:\n%s", what,
			      line, d);
			free(needle);
			free(hay);
		}
		free(w);
		free(d);
	}
	free(errs);
	return t;
}

static void expect_ok(const char *what, const char *text, const char *want)
{
	litmus_test_free(expect_dump_lines(what, text, want));
}

/* Parse, which must fail with `msg` at line:col. */
static void expect_error(const char *what, const char *text, int line, int col, const char *msg)
{
	char *errs = NULL;
	litmus_test *t = parse(text, &errs);
	CHECK(t == NULL, "%s: parsed but should not", what);
	char *where = xasprintf("t.litmus:%d:%d: error: ", line, col);
	CHECK(errs && strstr(errs, where) && strstr(errs, msg),
	      "%s: want '%s%s', got:\n%s", what, where, msg, errs ? errs : "");
	free(where);
	free(errs);
	litmus_test_free(t);
}

#define PPC_MP                                          \
	"{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }\n"         \
	" P0           | P1           ;\n"              \
	" li r1,1      | lwz r1,0(r2) ;\n"              \
	" stw r1,0(r2) | lwsync       ;\n"              \
	" lwsync       | lwz r3,0(r4) ;\n"              \
	" li r3,1      |              ;\n"              \
	" stw r3,0(r4) |              ;\n"

static void test_header(void)
{
	litmus_test *t = expect_dump_lines(
		"header",
		"PPC MP+lwsync+addr.litmus (MPalias) \"the doc\"\n"
		"Cycle=Rfe PodRR Fre\n"
		"Relax = PodRR\n"
		"Hash=0123456789abcdef0123456789abcdef\n"
		PPC_MP "exists (1:r1=1 /\\ 1:r3=0)\n",
		"arch PPC\nname MP+lwsync+addr\nalias MPalias\ndoc \"the doc\"\n"
		"meta Cycle=Rfe PodRR Fre\nmeta Relax=PodRR\n"
		"meta Hash=0123456789abcdef0123456789abcdef\n"
		"hash 0123456789abcdef0123456789abcdef");
	if (t) {
		CHECK(t->arch == arch_find("PPC"), "arch table");
		CHECK(t->n_meta == 3 && !strcmp(t->meta[1].key, "Relax"), "meta order");
		CHECK(t->hash && !strcmp(t->hash, "0123456789abcdef0123456789abcdef"), "hash");
		CHECK(t->n_threads == 2 && t->threads[1].id == 1, "threads");
		CHECK(!strcmp(t->file, "t.litmus"), "file name kept");
	}
	litmus_test_free(t);
	/* Odd names, alias with a doc on the next line, `;` after the header. */
	expect_ok("slash name", "X86 x86/n8 (LitmusNEight)\n\"doc on line 2\"\n{x=0}\n P0 ;\n"
				" mov [x],$1 ;\nexists (x=1)\n",
		  "name x86/n8\nalias LitmusNEight\ndoc \"doc on line 2\"");
	expect_ok("header semicolon", "PPC a[1]+b-c.d;\n{}\nP0;\nsync;\nexists (true)\n",
		  "name a[1]+b-c.d\ncondition exists true");
	expect_ok("empty doc", "X86 amd3  (amdThree)  \"\"\n{x = 0; y = 0};\n P0 ;\n mfence ;\n"
			       "exists (x=0)\n",
		  "alias amdThree\ndoc \"\"");
}

static void test_init_forms(void)
{
	expect_ok("init forms",
		  "PPC init\n"
		  "{\n"
		  "x=1; y = -2; [z] = 0x10; w; int v = 3; uint64_t u;\n"
		  "0:r2=x; P0:r3 = 7; int64_t 0:r4; int64_t 0:r5 = -1; 1:r1=y;\n"
		  "p=q;\n"
		  "}\n"
		  " P0 | P1 ;\n"
		  " lwz r1,0(r2) | sync ;\n"
		  "exists (0:r1=1)\n",
		  "loc x = 1\nloc y = -2\nloc z = 16\nloc w = 0\nloc v = 3 type int\n"
		  "loc u = 0 type uint64_t\nloc p = q\nloc q = 0\n"
		  "  reg r2 = x\n  reg r3 = 7\n  reg r4 = 0 type int64_t\n"
		  "  reg r5 = -1 type int64_t\n  reg r1 = y");
	expect_ok("old syntax init", "X86 old\n{x = 0; y = 0; P0:EAX = 1; P1:ECX = 1};\n\n"
				     "  P0 | P1 ;\n  xchg [x], EAX | xchg [y], ECX ;\n"
				     "~ exists (P0:EAX = 0 /\\ P1:ECX = 0 )\n",
		  "  reg EAX = 1\n  reg ECX = 1\ncondition ~exists 0:EAX=0 /\\ 1:ECX=0");
	expect_ok("typed X86_64", "X86_64 t\n{ uint64_t z; uint64_t 0:rax = 0; uint64_t 1:rbx; }\n"
				  " P0 | P1 ;\n movq (z),%rax | movq (z),%rbx ;\n"
				  "exists (0:rax=1 /\\ 1:rbx=0)\n",
		  "loc z = 0 type uint64_t\n  reg rax = 0 type uint64_t\n  reg rbx = 0 type uint64_t");
	expect_ok("X86_64 registers with %", "X86_64 pct\n{ 0:%rax=1; 1:rbx=x; }\n P0 | P1 ;\n"
					     " movq %rax,(x) | movq (x),%rcx ;\nexists (1:%rcx=1 /\\ 0:rax=1)\n",
		  "  reg rax = 1\n  reg rbx = x\ncondition exists 1:rcx=1 /\\ 0:rax=1");
	expect_ok("empty init", "PPC e\n{}\n P0 ;\n sync ;\nforall (true)\n",
		  "thread P0\ncondition forall true");
	expect_ok("lone semicolon init", "PPC e\n{;}\n P0 ;\n sync ;\nexists (x=0)\n", "loc x = 0");
	/* herd's init list may end with a second ';' (herd7 runs it), and
	 * has no empty entry anywhere else */
	/* braces in a comment of the init block are counted by herd's
	 * splitter: balanced ones are harmless (herd7 runs this) */
	expect_ok("balanced braces in an init comment", "PPC e\n{ x=1; (* {} *) }\n P0 ;\n sync ;\nexists (x=1)\n",
		  "loc x = 1");
	expect_ok("double semicolon at the end of the init", "PPC e\n{ x=1;; }\n P0 ;\n sync ;\nexists (x=1)\n",
		  "loc x = 1");
	expect_ok("max hex and min decimal",
		  "PPC n\n{x=0xffffffffffffffff; y=-9223372036854775808; z=9223372036854775807}\n"
		  " P0 ;\n sync ;\nexists (x=-1)\n",
		  "loc x = -1\nloc y = -9223372036854775808\nloc z = 9223372036854775807");
	expect_ok("symbolic registers",
		  "PPC sym\n{ %x0=x; %y1=y; }\n P0 | P1 ;\n lwz r1,0(%x0) | lwz r1,0(%y1) ;\n"
		  "exists (0:r1=1)\n",
		  "thread P0\n  reg %x0 = x\n  reg %y1 = y");
}

/* What herd skips silently before the init block is accepted with a
 * warning: an unterminated doc string, a stray line of prose. */
static void test_preamble_warnings(void)
{
	char *errs = NULL;
	litmus_test *t = parse("PPC w\n\"doc without end\n(Some prose, not a comment)\n"
			       "Orig=Fre\n{}\n P0 ;\n sync ;\nexists (x=0)\n",
			       &errs);
	CHECK(t != NULL, "preamble warnings: does not parse:\n%s", errs);
	CHECK(errs && strstr(errs, "t.litmus:2:1: warning: unterminated doc string") &&
		      strstr(errs, "t.litmus:3:1: warning: ignoring unrecognised text"),
	      "preamble warnings: got '%s'", errs ? errs : "");
	if (t) {
		CHECK(t->doc && !strcmp(t->doc, "doc without end"), "doc '%s'", t->doc ? t->doc : "");
		CHECK(t->n_meta == 1 && !strcmp(t->meta[0].value, "Fre"), "meta after prose");
	}
	free(errs);
	litmus_test_free(t);
}

static void test_table(void)
{
	litmus_test *t = expect_dump_lines(
		"labels",
		"PPC lab\n{ 0:r2=x; }\n"
		" P0              | P1 ;\n"
		" lwz r1,0(r2)    | L9: ;\n"
		" cmpwi r1,0      |     ;\n"
		" beq L0          ;\n"
		" li r3,1         ;\n"
		" L0: li r4,2     ;\n"
		" L1:             ;\n"
		"exists (0:r3=0)\n",
		"  label L0 -> op 5\n  label L1 -> op 6\n  instr 2 \"beq L0\"\n"
		"    op 3 branch eq cr0 -> L0 (op 5)\n  instr 4 \"li r4,2\"\n  label L9 -> op 0");
	if (t) {
		/* lwz is a load and its zero-extension: two ops */
		thread *th = &t->threads[0];
		CHECK(th->n_instrs == 5 && th->n_ops == 6, "instrs %d ops %d", th->n_instrs, th->n_ops);
		CHECK(th->ops[3].kind == OP_BRANCH && th->ops[3].target == 5, "branch target");
		CHECK(th->instrs[4].loc.line == 8 && th->instrs[4].loc.col == 6,
		      "instr loc %d:%d", th->instrs[4].loc.line, th->instrs[4].loc.col);
		CHECK(th->instrs[0].n_ops == 2 && th->instrs[1].first_op == 2 && th->instrs[1].n_ops == 1,
		      "op ranges");
		CHECK(t->threads[1].n_instrs == 0 && t->threads[1].n_labels == 1, "label-only cell");
	}
	litmus_test_free(t);
	/* herd7 runs this text as it is; a comment before the header it
	 * refuses (tests/malformed/header-after-comment.litmus) */
	expect_ok("comments everywhere",
		  "PPC com (* after header *)\n"
		  "(* a (* nested *) comment\n spanning lines *)\n"
		  "{ x=1; (* in init *) 0:r2=x; }\n"
		  "(* between *)\n"
		  " P0 (* head *) | P1 ;\n"
		  " lwz r1,0(r2) (* in a cell *) | sync ;\n"
		  "            (* a line of its own *) (* two *)\n"
		  " sync | (* nothing *) ;\n"
		  "exists (* in cond *) (0:r1=1 (* here *))\n"
		  "(* trailing *)\n",
		  "  instr 0 \"lwz r1,0(r2)\"\ncondition exists 0:r1=1");
	expect_ok("fewer cells and empty rows",
		  "X86 few\n{}\n P0 | P1 | P2 ;\n | | ;\n mov [x],$1 ;\n | mov EAX,[x] ;\n"
		  "exists (1:EAX=1)\n",
		  "  instr 0 \"mov [x],$1\"\n  instr 0 \"mov EAX,[x]\"\nthread P2");
	expect_ok("location from the program only", "X86 loc\n{}\n P0 ;\n mov [a],$1 ;\nexists (b=2)\n",
		  "loc a = 0\nloc b = 0");
}

static void test_conditions(void)
{
	const char *head = "PPC c\n{ 0:r2=x; }\n P0 | P1 ;\n lwz r1,0(r2) | lwz r1,0(r2) ;\n";
	struct {
		const char *cond, *dump;
	} cases[] = {
		{ "exists (0:r1=1 /\\ 1:r1=0)", "condition exists 0:r1=1 /\\ 1:r1=0" },
		{ "~exists (0:r1=1)", "condition ~exists 0:r1=1" },
		{ "~ exists (0:r1=1)", "condition ~exists 0:r1=1" },
		{ "forall 0:r1=0 \\/ 0:r1=1", "condition forall 0:r1=0 \\/ 0:r1=1" },
		{ "final (P0:r1 = 0 /\\ P1:r1 = 0);\nwith\ntso: ~exists;\ncc: exists;\ndefault: forall;\n",
		  "condition exists 0:r1=0 /\\ 1:r1=0\nold-final" },
		{ "(0:r1=1)", "condition exists 0:r1=1" },
		{ "exists (x=1 /\\ [y]=2 /\\ 0:r1=x)", "condition exists x=1 /\\ y=2 /\\ 0:r1=x" },
		{ "exists (0:r1<>1 /\\ 0:r1!=2 /\\ 0:r1==3)",
		  "condition exists 0:r1<>1 /\\ 0:r1<>2 /\\ 0:r1=3" },
		{ "exists (not 0:r1=1 /\\ ~(x=1 \\/ x=2))",
		  "condition exists ~0:r1=1 /\\ ~(x=1 \\/ x=2)" },
		{ "exists (true \\/ false)", "condition exists true \\/ false" },
		/* herd's precedences: => binds tighter than /\, and is right-assoc. */
		{ "exists (x=1 /\\ x=2 => x=3 => x=4)", "condition exists x=1 /\\ (x=2 => x=3 => x=4)" },
		{ "exists ((x=1 => x=2) => x=3)", "condition exists (x=1 => x=2) => x=3" },
		{ "exists (x=1 \\/ x=2 /\\ x=3)", "condition exists x=1 \\/ x=2 /\\ x=3" },
		{ "exists ((x=1 \\/ x=2) /\\ x=3)", "condition exists (x=1 \\/ x=2) /\\ x=3" },
		{ "exists (x=1 /\\ (x=2 /\\ x=3))", "condition exists x=1 /\\ x=2 /\\ x=3" },
		{ "exists (x=1 \\/ (x=2 /\\ x=3 \\/ x=4))",
		  "condition exists x=1 \\/ x=2 /\\ x=3 \\/ x=4" },
		{ "exists (x=-5 /\\ x=0x1F)", "condition exists x=-5 /\\ x=31" },
		{ "locations [x; 0:r1; y*; 1:r1 int;]\nexists (true)",
		  "observed x; 0:r1; y; 1:r1\nloc y = 0" },
		{ "locations []\nexists (true)", "condition exists true" },
		{ "filter (0:r1=1)\nexists (1:r1=0)", "filter 0:r1=1\ncondition exists 1:r1=0" },
		{ "locations [x;] filter 1:r1=1 exists (0:r1=0);",
		  "observed x\nfilter 1:r1=1\ncondition exists 0:r1=0" },
		{ "exists (0:r1=1)\n<<\nshow 0\n>>\n<<\n", "condition exists 0:r1=1" },
		{ "exists (0:r9=1)", "  reg r9 = 0" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char *text = xasprintf("%s%s\n", head, cases[i].cond);
		expect_ok(cases[i].cond, text, cases[i].dump);
		free(text);
	}
}

/* cond_eval with a reader that knows x and 0:r1. */
typedef struct state {
	value x, r1;
} state;

static value read_state(void *ctx, lval lv)
{
	state *s = ctx;
	return lv.thread == 0 ? s->r1 : s->x;
}

static void test_eval(void)
{
	char *errs = NULL;
	litmus_test *t = parse("PPC e\n{0:r2=x;}\n P0 ;\n lwz r1,0(r2) ;\n"
			       "exists (0:r1=1 /\\ ~x=2 \\/ (x=3 => 0:r1=x))\n",
			       &errs);
	CHECK(t != NULL, "eval test parses: %s", errs);
	if (t) {
		int x = prog_find_loc(t, "x");
		state s1 = { value_int(0), value_int(1) };
		state s2 = { value_int(2), value_int(1) };
		state s3 = { value_int(3), value_addr(x) };
		state s4 = { value_int(3), value_int(0) };
		state s5 = { value_int(4), value_int(0) };
		CHECK(cond_eval(t->cond, read_state, &s1), "s1");
		CHECK(cond_eval(t->cond, read_state, &s2), "s2 (first disjunct false, second true)");
		CHECK(cond_eval(t->cond, read_state, &s3), "s3");
		CHECK(!cond_eval(t->cond, read_state, &s4), "s4");
		CHECK(cond_eval(t->cond, read_state, &s5), "s5 (implication with false premise)");
		CHECK(prog_find_reg(&t->threads[0], "r1") >= 0, "find reg");
		CHECK(prog_find_reg(&t->threads[0], "r7") < 0, "find missing reg");
		strbuf b = { 0 };
		value v = { x, 4 };
		value_print(t, v, &b);
		lval lv = { 0, prog_find_reg(&t->threads[0], "r2"), -1 };
		sb_putc(&b, ' ');
		lval_print(t, lv, &b);
		CHECK(!strcmp(b.s, "x+4 0:r2"), "value/lval print: %s", b.s);
		sb_free(&b);
	}
	free(errs);
	litmus_test_free(t);
}

/* cond_eval_partial with a reader that knows thread 0's registers only,
 * r1 perhaps shown symbolic. */
typedef struct partial_state {
	value r1, r2;
	bool r1_symbolic;
} partial_state;

static partial_value read_partial(void *ctx, lval lv)
{
	const partial_state *s = ctx;
	partial_value pv = { 0 };
	if (lv.thread == 0) {
		pv.known = true;
		pv.v = lv.reg == 0 ? s->r1 : s->r2;
		pv.maybe_symbolic = lv.reg == 0 && s->r1_symbolic;
	}
	return pv;
}

static void test_eval_partial(void)
{
	char *errs = NULL;
	litmus_test *t = parse("PPC e\n{0:r2=x;}\n P0 ;\n lwz r1,0(r2) ;\n"
			       "filter (0:r1=0 => x=1)\n"
			       "exists (0:r1=1 /\\ (0:r2=x \\/ x=1))\n",
			       &errs);
	CHECK(t != NULL, "partial eval test parses: %s", errs);
	if (t) {
		CHECK(prog_find_reg(&t->threads[0], "r1") == 0 && prog_find_reg(&t->threads[0], "r2") == 1,
		      "register numbers");
		int x = prog_find_loc(t, "x");
		struct {
			partial_state s;
			enum tri cond, filter;
			const char *what;
		} cases[] = {
			{ { value_int(0), value_addr(x), false }, TRI_FALSE, TRI_UNKNOWN, "r1=0: a conjunct false" },
			{ { value_int(1), value_addr(x), false }, TRI_TRUE, TRI_TRUE, "r1=1, r2=x: true whatever x" },
			{ { value_int(1), value_addr(x), true }, TRI_UNKNOWN, TRI_TRUE,
			  "r1=1 perhaps symbolic: r1=1 unknown, r1=0 false" },
			{ { value_int(0), value_addr(x), true }, TRI_FALSE, TRI_UNKNOWN,
			  "r1=0 perhaps symbolic: r1=1 false either way" },
			{ { value_int(1), value_int(0), false }, TRI_UNKNOWN, TRI_TRUE, "r2=0: the disjunction waits for x" },
		};
		for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
			CHECK(cond_eval_partial(t->cond, t, read_partial, &cases[i].s) == cases[i].cond, "cond: %s",
			      cases[i].what);
			CHECK(cond_eval_partial(t->filter, t, read_partial, &cases[i].s) == cases[i].filter,
			      "filter: %s", cases[i].what);
		}
	}
	free(errs);
	litmus_test_free(t);
}

/* The whole dump of a small test, compared exactly. */
static void test_dump_exact(void)
{
	char *errs = NULL;
	litmus_test *t = parse("X86 SB (SBalias) \"store buffering\"\n"
			       "Orig=Fre PodWR\n"
			       "{ x=0; y=0; 1:EBX=x; }\n"
			       " P0          | P1          ;\n"
			       " MOV [x],$1  | MOV [y],$1  ;\n"
			       " MFENCE      | L0:         ;\n"
			       " MOV EAX,[y] | MOV EAX,[x] ;\n"
			       "locations [x;]\n"
			       "exists (0:EAX=0 /\\ 1:EAX=0)\n",
			       &errs);
	CHECK(t != NULL, "dump test parses: %s", errs);
	if (t) {
		char *d = dump(t);
		const char *want = "arch X86\n"
				   "name SB\n"
				   "alias SBalias\n"
				   "doc \"store buffering\"\n"
				   "meta Orig=Fre PodWR\n"
				   "loc x = 0\n"
				   "loc y = 0\n"
				   "thread P0\n"
				   "  reg EAX = 0\n"
				   "  instr 0 \"MOV [x],$1\"\n"
				   "    op 0 store [x] <- 1 size 4\n"
				   "  instr 1 \"MFENCE\"\n"
				   "    op 1 fence MFENCE\n"
				   "  instr 2 \"MOV EAX,[y]\"\n"
				   "    op 2 load EAX <- [y] size 4\n"
				   "thread P1\n"
				   "  reg EAX = 0\n"
				   "  reg EBX = x\n"
				   "  label L0 -> op 1\n"
				   "  instr 0 \"MOV [y],$1\"\n"
				   "    op 0 store [y] <- 1 size 4\n"
				   "  instr 1 \"MOV EAX,[x]\"\n"
				   "    op 1 load EAX <- [x] size 4\n"
				   "observed x\n"
				   "condition exists 0:EAX=0 /\\ 1:EAX=0\n";
		CHECK(!strcmp(d, want), "exact dump; got:\n%s", d);
		free(d);
	}
	free(errs);
	litmus_test_free(t);
}

static void test_errors(void)
{
	expect_error("unknown arch", "ARM foo\n{}\n", 1, 1, "unknown architecture 'ARM'");
	expect_error("bad register", "PPC r\n{ 0:foo=1; }\n P0 ;\n sync ;\nexists (x=0)\n", 2, 5,
		     "'foo' is not a register of PPC");
	expect_error("thread count", "PPC r\n{}\n P0 | P1 ;\n sync | sync | sync ;\nexists (x=0)\n", 4,
		     14, "row has 3 cells but the test has 2 threads");
	expect_error("unknown thread", "PPC r\n{}\n P0 ;\n sync ;\nexists (P7:r1=0)\n", 5, 9,
		     "thread P7 does not exist");
	expect_error("unknown label", "PPC r\n{}\n P0 ;\n b L3 ;\nexists (x=0)\n", 4, 2,
		     "unknown label 'L3' in thread P0");
	expect_error("missing semicolon", "PPC r\n{}\n P0 ;\n sync\nexists (x=0)\n", 4, 6,
		     "missing ';' at the end of the table row");
	expect_error("unterminated comment", "PPC r\n{}\n(* oops\n P0 ;\n", 3, 1,
		     "unterminated comment");
	expect_error("empty", "", 1, 1, "empty test");
	expect_error("semicolon before the first init entry", "PPC r\n{ ;x=0; }\n P0 ;\n sync ;\nexists (x=0)\n", 2, 3,
		     "empty entry in the init block");
	expect_error("two semicolons", "PPC r\n{ ;; }\n P0 ;\n sync ;\nexists (x=0)\n", 2, 3,
		     "empty entry in the init block");
	expect_error("overflow", "PPC r\n{ x=9223372036854775808; }\n", 2, 5, "out of range");
	expect_error("translator error", "PPC r\n{}\n P0 ;\n frobnicate r1 ;\nexists (x=0)\n", 4, 2,
		     "frobnicate");
}

int main(void)
{
	test_header();
	test_init_forms();
	test_preamble_warnings();
	test_table();
	test_conditions();
	test_eval();
	test_eval_partial();
	test_dump_exact();
	test_errors();
	return test_summary("test_litmus");
}
