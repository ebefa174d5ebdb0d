/* test_cat_parse.c — the cat lexer and parser: operator precedences and
 * associativity (checked on printed syntax trees), comments, names, titles,
 * every instruction form, and located syntax errors. */
#include "test_cat_util.h"

#include "../../src/cat/cat_ast.h"

/* ---- an S-expression printer for syntax trees ---------------------------------------- */

static void pr(strbuf *b, const cat_ex *e);

static void pr_pat(strbuf *b, const cat_pat *p)
{
	if (p->tuple)
		sb_putc(b, '(');
	for (int i = 0; i < p->n; i++)
		sb_printf(b, "%s%s", i ? "," : "", p->names[i] ? p->names[i] : "_");
	if (p->tuple)
		sb_putc(b, ')');
}

static void pr_kids(strbuf *b, const char *head, const cat_ex *e)
{
	sb_printf(b, "(%s", head);
	for (int i = 0; i < e->n; i++) {
		sb_putc(b, ' ');
		pr(b, e->kids[i]);
	}
	sb_putc(b, ')');
}

static void pr_binds(strbuf *b, const cat_bind *bs, int nb)
{
	for (int i = 0; i < nb; i++) {
		sb_puts(b, " [");
		pr_pat(b, &bs[i].pat);
		sb_putc(b, ' ');
		pr(b, bs[i].e);
		sb_putc(b, ']');
	}
}

static void pr_cond(strbuf *b, const cat_cond *c)
{
	switch (c->kind) {
	case CC_VARIANT: sb_printf(b, "\"%s\"", c->variant); break;
	case CC_NOT: sb_puts(b, "(not "); pr_cond(b, c->l); sb_putc(b, ')'); break;
	case CC_AND: case CC_OR:
		sb_printf(b, "(%s ", c->kind == CC_AND ? "&&" : "||");
		pr_cond(b, c->l);
		sb_putc(b, ' ');
		pr_cond(b, c->r);
		sb_putc(b, ')');
		break;
	default:
		sb_printf(b, "(%s ", c->kind == CC_EQ ? "=" : c->kind == CC_SUBSET ? "subset" : "in");
		pr(b, c->a);
		sb_putc(b, ' ');
		pr(b, c->b);
		sb_putc(b, ')');
	}
}

static void pr(strbuf *b, const cat_ex *e)
{
	switch (e->kind) {
	case CE_EMPTY_REL: sb_puts(b, "0"); return;
	case CE_EMPTY: sb_puts(b, "{}"); return;
	case CE_UNIV: sb_puts(b, "_"); return;
	case CE_TAG: sb_printf(b, "'%s", e->name); return;
	case CE_VAR: sb_puts(b, e->name); return;
	case CE_SET: pr_kids(b, "set", e); return;
	case CE_TUPLE: pr_kids(b, "tuple", e); return;
	case CE_UNION: pr_kids(b, "|", e); return;
	case CE_SEQ: pr_kids(b, ";", e); return;
	case CE_INTER: pr_kids(b, "&", e); return;
	case CE_DIFF: pr_kids(b, "\\", e); return;
	case CE_PROD: pr_kids(b, "*", e); return;
	case CE_ADD: pr_kids(b, "++", e); return;
	case CE_STAR: pr_kids(b, "star", e); return;
	case CE_PLUS: pr_kids(b, "plus", e); return;
	case CE_OPT: pr_kids(b, "opt", e); return;
	case CE_INV: pr_kids(b, "inv", e); return;
	case CE_COMPL: pr_kids(b, "~", e); return;
	case CE_TOID: pr_kids(b, "toid", e); return;
	case CE_APP: pr_kids(b, "app", e); return;
	case CE_FUN:
		sb_puts(b, "(fun ");
		pr_pat(b, &e->pat);
		sb_putc(b, ' ');
		pr(b, e->kids[0]);
		sb_putc(b, ')');
		return;
	case CE_LET: case CE_LETREC:
		sb_puts(b, e->kind == CE_LET ? "(let" : "(letrec");
		pr_binds(b, e->binds, e->nb);
		sb_putc(b, ' ');
		pr(b, e->kids[0]);
		sb_putc(b, ')');
		return;
	case CE_MATCH_TAG: {
		sb_puts(b, "(match ");
		pr(b, e->kids[0]);
		int ntags = e->n - 1 - (e->has_default ? 1 : 0);
		for (int i = 0; i < ntags; i++) {
			sb_printf(b, " ['%s ", e->tags[i]);
			pr(b, e->kids[i + 1]);
			sb_putc(b, ']');
		}
		if (e->has_default) {
			sb_puts(b, " [_ ");
			pr(b, e->kids[e->n - 1]);
			sb_putc(b, ']');
		}
		sb_putc(b, ')');
		return;
	}
	case CE_MATCH_SET:
		sb_puts(b, "(matchset ");
		pr(b, e->kids[0]);
		sb_puts(b, " [{} ");
		pr(b, e->kids[1]);
		sb_printf(b, "] [%s++%s ", e->name ? e->name : "_", e->name2 ? e->name2 : "_");
		pr(b, e->kids[2]);
		sb_puts(b, "])");
		return;
	case CE_TRY: pr_kids(b, "try", e); return;
	case CE_IF:
		sb_puts(b, "(if ");
		pr_cond(b, e->cond);
		sb_putc(b, ' ');
		pr(b, e->kids[0]);
		sb_putc(b, ' ');
		pr(b, e->kids[1]);
		sb_putc(b, ')');
		return;
	}
}

/* Parse "let x = <src>" and print x's definition. */
static void expect_exp(const char *src, const char *want)
{
	char *text = xasprintf("let x = %s\n", src);
	captured c;
	capture_begin(&c);
	cat_file *f = cat_parse("test.cat", text, &c.d);
	const char *msgs = capture_end(&c);
	if (!f) {
		CHECK(false, "'%s' does not parse: %s", src, msgs);
	} else if (f->ins.n != 1 || f->ins.v[0]->kind != CI_LET) {
		CHECK(false, "'%s' gives %d instructions", src, f->ins.n);
	} else {
		strbuf b = { 0 };
		pr(&b, f->ins.v[0]->binds[0].e);
		CHECK(!strcmp(b.s, want), "'%s'\n   got  %s\n   want %s", src, b.s, want);
		sb_free(&b);
	}
	cat_file_free(f);
	capture_free(&c);
	free(text);
}

static void test_precedence(void)
{
	/* Loosest to tightest: | ++ ; \ & * ~ postfix application. */
	expect_exp("a | b ; c \\ d & e * f", "(| a (; b (\\ c (& d (* e f)))))");
	expect_exp("a * b & c \\ d ; e | f", "(| (; (\\ (& (* a b) c) d) e) f)");
	expect_exp("a ++ b | c ++ d", "(| (++ a b) (++ c d))");
	expect_exp("x ++ s ; t", "(++ x (; s t))");
	/* Associativity. */
	expect_exp("a \\ b \\ c", "(\\ (\\ a b) c)");
	expect_exp("a & b & c", "(& a (& b c))");
	expect_exp("a ; b ; c", "(; a b c)");
	expect_exp("a | b | c", "(| a b c)");
	expect_exp("(a | b) | c", "(| a b c)");
	expect_exp("a ; (b ; c)", "(; a b c)");
	expect_exp("a ++ b ++ c", "(++ a (++ b c))");
	/* Postfix operators and their interplay with the product. */
	expect_exp("r* | s+ ; t? & u^-1", "(| (star r) (; (plus s) (& (opt t) (inv u))))");
	expect_exp("r^-1 ; s", "(; (inv r) s)");
	expect_exp("a * b", "(* a b)");
	expect_exp("a* | b", "(| (star a) b)");
	expect_exp("a * ~b", "(* a (~ b))");
	expect_exp("(a * b)+", "(plus (* a b))");
	expect_exp("r*", "(star r)");
	expect_exp("_ * B", "(* _ B)");
	expect_exp("(r;s)*;t", "(; (star (; r s)) t)");
	/* Complement binds tighter than the binary operators. */
	expect_exp("~a | b", "(| (~ a) b)");
	expect_exp("~a & b", "(& (~ a) b)");
	expect_exp("~r^-1", "(~ (inv r))");
	/* [S], sets, constants. */
	expect_exp("[R]; po; [W]", "(; (toid R) po (toid W))");
	expect_exp("[R & EX]; po \\ (po; [M & EX]; po); [W & EX]",
	           "(; (toid (& R EX)) (\\ po (; po (toid (& M EX)) po)) (toid (& W EX)))");
	expect_exp("0", "0");
	expect_exp("{}", "{}");
	expect_exp("{a, b | c}", "(set a (| b c))");
	expect_exp("'tag", "'tag");
	expect_exp("begin a | b end ; c", "(; (| a b) c)");
	/* Application: juxtaposition, left associative, tighter than all. */
	expect_exp("f x y", "(app (app f x) y)");
	expect_exp("f(x, y)", "(app f (tuple x y))");
	expect_exp("f(x)", "(app f x)");
	expect_exp("f()", "(app f (tuple))");
	expect_exp("domain 0", "(app domain 0)");
	expect_exp("f x ++ g y", "(++ (app f x) (app g y))");
	expect_exp("f [S] ; r", "(; (app f (toid S)) r)");
	expect_exp("fencerel(B)+", "(plus (app fencerel B))");
	/* Tuples at the top of an expression. */
	expect_exp("a, b | c", "(tuple a (| b c))");
	expect_exp("(k, o | ys, oss)", "(tuple k (| o ys) oss)");
	/* Names with '-', '.', a leading '_' and a trailing prime. */
	expect_exp("po-loc | DMB.SY | _RMW | r' | same-instance", "(| po-loc DMB.SY _RMW r' same-instance)");
	/* Binding forms inside expressions. */
	expect_exp("fun x -> x | y", "(fun x (| x y))");
	expect_exp("fun (a, b) -> a ; b", "(fun (a,b) (; a b))");
	expect_exp("fun (a) -> a", "(fun a a)");
	expect_exp("let y = a in y | b", "(let [y a] (| y b))");
	expect_exp("let rec y = a | y ; y and z = y in z", "(letrec [y (| a (; y y))] [z y] z)");
	expect_exp("let f(a, _) = a in f(b, c)", "(let [f (fun (a,_) a)] (app f (tuple b c)))");
	expect_exp("try a with b | c", "(try a (| b c))");
	expect_exp("if \"v\" then a else b", "(if \"v\" a b)");
	expect_exp("if not \"v\" && \"w\" || \"u\" then a else b", "(if (|| (&& (not \"v\") \"w\") \"u\") a b)");
	expect_exp("if a = b then c else d", "(if (= a b) c d)");
	expect_exp("if a subset b then c else d", "(if (subset a b) c d)");
	expect_exp("match s with || {} -> a || e ++ r -> e | r end",
	           "(matchset s [{} a] [e++r (| e r)])");
	expect_exp("match s with e ++ r -> e || {} -> a end", "(matchset s [{} a] [e++r e])");
	expect_exp("match t with 'a -> x || 'b -> y || _ -> z end", "(match t ['a x] ['b y] [_ z])");
	expect_exp("match t with 'a -> x end", "(match t ['a x])");
}

static cat_file *parse_ok(const char *text)
{
	captured c;
	capture_begin(&c);
	cat_file *f = cat_parse("test.cat", text, &c.d);
	const char *msgs = capture_end(&c);
	CHECK(f != NULL, "does not parse: %s\n---\n%s", msgs, text);
	capture_free(&c);
	return f;
}

static void test_comments_and_titles(void)
{
	cat_file *f = parse_ok("(* a (* nested *) comment *) \"x86 TSO Mixed\"\n"
	                       "// line comment\n# hash comment\nlet a = b # trailing\n(* *)");
	if (f) {
		CHECK(f->title && !strcmp(f->title, "x86 TSO Mixed"), "quoted title: %s", f->title);
		CHECK(f->ins.n == 1, "comments skipped: %d instructions", f->ins.n);
	}
	cat_file_free(f);
	f = parse_ok("X86 TSO\ninclude \"x.cat\"\n");
	if (f)
		CHECK(f->title && !strcmp(f->title, "TSO") && f->ins.n == 1, "ARCH NAME title: %s", f->title);
	cat_file_free(f);
	f = parse_ok("PPC\nlet a = b\n");
	if (f)
		CHECK(f->title && !strcmp(f->title, "PPC"), "plain title");
	cat_file_free(f);
	f = parse_ok("acyclic po\n");
	if (f)
		CHECK(f->title == NULL && f->ins.n == 1, "no title");
	cat_file_free(f);
	f = parse_ok("");
	if (f)
		CHECK(f->title == NULL && f->ins.n == 0, "empty file");
	cat_file_free(f);
}

static void test_instructions(void)
{
	cat_file *f = parse_ok(
		"M\n"
		"let a = po and b = rf\n"
		"let f(x, y) = x | y\n"
		"let g x = x\n"
		"let (p, q) = (a, b)\n"
		"let r, s = a, b\n"
		"let rec u = a | u;u and v = u\n"
		"let w = a in\n"
		"acyclic po | rf as sc\n"
		"irreflexive po\n"
		"empty rmw & (fre;coe)\n"
		"flag ~empty a as warn\n"
		"undefined_unless empty a\n"
		"~acyclic a\n"
		"show a, b\n"
		"show a \\ b as c\n"
		"unshow a\n"
		"include \"other.cat\"\n"
		"procedure p(x, y) = let z = x | y acyclic z end\n"
		"procedure q x = empty x end\n"
		"call p(a, b) as pc\n"
		"call q(a)\n"
		"with co from generate(a)\n"
		"enum Scopes = || 'wi || 'sg\n"
		"if \"opt\" let k = a else let k = b end\n"
		"debug a\n");
	if (!f)
		return;
	enum cat_ins_kind kinds[] = { CI_LET, CI_LET, CI_LET, CI_LET, CI_LET, CI_LETREC, CI_LET,
	                              CI_CHECK, CI_CHECK, CI_CHECK, CI_CHECK, CI_CHECK, CI_CHECK,
	                              CI_SHOW, CI_SHOW, CI_SHOW, CI_INCLUDE, CI_PROCEDURE, CI_PROCEDURE,
	                              CI_CALL, CI_CALL, CI_WITH_FROM, CI_ENUM, CI_IF, CI_DEBUG };
	int nk = (int)(sizeof kinds / sizeof kinds[0]);
	CHECK(f->ins.n == nk, "instruction count %d, want %d", f->ins.n, nk);
	for (int i = 0; i < f->ins.n && i < nk; i++)
		CHECK(f->ins.v[i]->kind == kinds[i], "instruction %d kind %d, want %d", i, f->ins.v[i]->kind, kinds[i]);
	if (f->ins.n == nk) {
		cat_ins **v = f->ins.v;
		CHECK(v[0]->nb == 2, "let ... and ...");
		CHECK(v[1]->binds[0].e->kind == CE_FUN && v[1]->binds[0].e->pat.tuple &&
		      v[1]->binds[0].e->pat.n == 2, "let f(x, y)");
		CHECK(v[2]->binds[0].e->kind == CE_FUN && !v[2]->binds[0].e->pat.tuple, "let g x");
		CHECK(v[3]->binds[0].pat.tuple && v[3]->binds[0].pat.n == 2, "let (p, q)");
		CHECK(v[4]->binds[0].pat.tuple && v[4]->binds[0].pat.n == 2 &&
		      v[4]->binds[0].e->kind == CE_TUPLE, "let r, s = a, b");
		CHECK(v[5]->nb == 2, "let rec ... and");
		CHECK(v[7]->test == TEST_ACYCLIC && v[7]->as_name && !strcmp(v[7]->as_name, "sc") &&
		      !strcmp(v[7]->text, "po | rf"), "acyclic ... as sc (text '%s')", v[7]->text);
		CHECK(v[8]->test == TEST_IRREFLEXIVE && !v[8]->as_name && !strcmp(v[8]->text, "po"),
		      "irreflexive unnamed");
		CHECK(v[9]->test == TEST_EMPTY && !strcmp(v[9]->text, "rmw & (fre;coe)"),
		      "empty, text '%s'", v[9]->text);
		CHECK(v[10]->mode == CHECK_FLAG && v[10]->negated && v[10]->test == TEST_EMPTY, "flag ~empty");
		CHECK(v[11]->mode == CHECK_UNDEFINED_UNLESS, "undefined_unless");
		CHECK(v[12]->negated && v[12]->mode == CHECK_REQUIRE, "~acyclic");
		CHECK(!strcmp(v[16]->name, "other.cat"), "include name");
		CHECK(v[17]->body.n == 2 && v[17]->pat.n == 2, "procedure body");
		CHECK(!strcmp(v[19]->name, "p") && v[19]->as_name && !strcmp(v[19]->as_name, "pc"), "call as");
		CHECK(!strcmp(v[21]->name, "co"), "with co from");
		CHECK(v[22]->ntags == 2 && !strcmp(v[22]->tags[1], "sg"), "enum tags");
		CHECK(v[23]->body.n == 1 && v[23]->body2.n == 1, "if variant else");
	}
	cat_file_free(f);
}

static void expect_error(const char *text, const char *want_loc, const char *want_msg)
{
	captured c;
	capture_begin(&c);
	cat_file *f = cat_parse("bad.cat", text, &c.d);
	const char *msgs = capture_end(&c);
	CHECK(f == NULL, "'%s' should not parse", text);
	char prefix[128];
	snprintf(prefix, sizeof prefix, "bad.cat:%s: error: ", want_loc);
	CHECK(!strncmp(msgs, prefix, strlen(prefix)) && strstr(msgs, want_msg),
	      "'%s': message '%s', want '%s...%s'", text, msgs, prefix, want_msg);
	cat_file_free(f);
	capture_free(&c);
}

static void test_errors(void)
{
	expect_error("let a = b |\n", "2:1", "expected an expression");
	expect_error("let a = (b | c\n", "2:1", "expected ')'");
	expect_error("acyclic\n", "2:1", "expected an expression");
	expect_error("let = b\n", "1:5", "expected a name to bind");
	expect_error("(* unterminated", "1:1", "unterminated comment");
	expect_error("let a = \"abc\n", "1:9", "unterminated string");
	expect_error("let a = b $ c\n", "1:11", "unexpected character '$'");
	expect_error("let a = 12\n", "1:9", "unexpected number");
	expect_error("let a = r^x\n", "1:11", "expected '-1' after '^'");
	expect_error("foo bar baz\n", "1:9", "expected an instruction");
	expect_error("forall x in S do acyclic x end\n", "1:1", "unsupported: 'forall'");
	expect_error("procedure p(x) = acyclic x\n", "2:1", "expected 'end'");
	expect_error("let a = match s with {} -> a end\n", "1:30", "'||' and the other clause");
	expect_error("include other\n", "1:9", "quoted file name");
	expect_error("acyclic a as\n", "2:1", "check name after 'as'");
	expect_error("let rec a = b when acyclic a\n", "1:15", "unsupported: 'let rec ... when'");
	expect_error("instructions R\n", "2:1", "expected '['");
	expect_error("instructions R[{'a}\n", "2:1", "expected ']'");
	expect_error("instructions [{'a}]\n", "1:14", "instruction kind");
}

/* A bell's declarations: the kind, and the set expressions in brackets. */
static void test_bell_declarations(void)
{
	diag quiet = { .out = stderr };
	cat_file *f = cat_parse("b.bell", "\"t\"\nenum A = 'x || 'y\ninstructions R[A]\n"
	                                  "default W[{'x}, 'y | A]\ninstructions F[]\n", &quiet);
	CHECK(f != NULL && f->ins.n == 4, "bell parses");
	if (f && f->ins.n == 4) {
		cat_ins *const *v = f->ins.v;
		CHECK(v[1]->kind == CI_INSTRUCTIONS && !v[1]->is_default && !strcmp(v[1]->name, "R") &&
		      v[1]->e->n == 1 && v[1]->e->kids[0]->kind == CE_VAR, "instructions R[A]");
		CHECK(v[2]->kind == CI_INSTRUCTIONS && v[2]->is_default && v[2]->e->n == 2 &&
		      v[2]->e->kids[1]->kind == CE_UNION, "default W[{'x}, 'y | A]");
		CHECK(v[3]->kind == CI_INSTRUCTIONS && v[3]->e->n == 0, "instructions F[]");
	}
	cat_file_free(f);
}

/* A model from text in memory (cat_load_options.text) is the model from its
 * file: same fingerprint (titles and comments aside), and errors located
 * by the name given. */
static void test_load_text(void)
{
	const char *dirs[] = { WEFT_SOURCE_CATDIR };
	cat_search_path sp = { 1, dirs };
	char path[512];
	snprintf(path, sizeof path, "%s/power.cat", WEFT_SOURCE_CATDIR);
	size_t len;
	diag d = { .out = stderr };
	char *text = read_whole_file(path, &len, &d);
	CHECK(text != NULL, "cannot read %s", path);
	if (!text)
		return;
	cat_model *from_file = cat_model_load(path, &(cat_load_options){ .search = &sp }, &d);
	cat_model *from_text = cat_model_load("buffer.cat", &(cat_load_options){ .search = &sp, .text = text }, &d);
	CHECK(from_file && from_text, "power.cat loads both ways");
	if (from_file && from_text)
		CHECK(!strcmp(cat_model_fingerprint(from_file), cat_model_fingerprint(from_text)),
		      "same fingerprint from file and from text");
	cat_model_free(from_file);
	cat_model_free(from_text);
	free(text);
	FILE *sink = tmpfile();
	diag quiet = { .out = sink };
	CHECK(cat_model_load("bad.cat", &(cat_load_options){ .search = &sp, .text = "\"bad\"\nacyclic po |\n" }, &quiet) == NULL,
	      "a model text with a syntax error does not load");
	CHECK(quiet.errors == 1, "one located error");
	if (sink) {
		char buf[256] = { 0 };
		rewind(sink);
		CHECK(fgets(buf, sizeof buf, sink) && !strncmp(buf, "bad.cat:", 8), "located by its name: %s", buf);
		fclose(sink);
	}
}

int main(void)
{
	test_load_text();
	test_precedence();
	test_comments_and_titles();
	test_instructions();
	test_errors();
	test_bell_declarations();
	return test_summary("test_cat_parse");
}
