/* test_cat_eval.c — evaluation of every operator and construct of the cat
 * language on a small hand-built execution, including let rec fixpoints,
 * functions, matches, try, variants, includes, procedures, flags and a
 * failing check reported by its `as` name. */
#include "test_cat_util.h"
#include "test_cat_build.h"
#include "test_cat_expect.h"

/* The execution used throughout (MP with a sync):
 *   0: IW x   1: IW y
 *   thread 0:  2: W x=1   3: F SYNC   4: W y=1
 *   thread 1:  5: R y=1   6: R x=0
 *   rf: 4->5, 0->6     co: 0->2, 1->4 */
static const char *const ppc_fences[] = { "SYNC", "LWSYNC", "ISYNC", "EIEIO", NULL };

static void build_mp(xb *b)
{
	xb_init(b, "PPC", ppc_fences);
	int ix = xb_iw(b, 0), iy = xb_iw(b, 1);
	xb_w(b, 0, 0, 1);
	xb_fence(b, 0, "SYNC");
	int wy = xb_w(b, 0, 1, 1);
	int ry = xb_r(b, 1, 1, 1);
	int rx = xb_r(b, 1, 0, 0);
	xb_rf(b, wy, ry);
	xb_rf(b, ix, rx);
	(void)iy;
	xb_build(b);
}

static xb X;

static void test_primitives(void)
{
	expect_rel("po", "2>3 2>4 3>4 5>6");
	expect_rel("rf", "4>5 0>6");
	expect_rel("co", "0>2 1>4");
	expect_rel("fr", "6>2");
	expect_rel("loc", "0>0 0>2 0>6 2>0 2>2 2>6 6>0 6>2 6>6 1>1 1>4 1>5 4>1 4>4 4>5 5>1 5>4 5>5");
	expect_rel("int & (M * M)", "2>2 2>4 4>2 4>4 5>5 5>6 6>5 6>6");
	expect_rel("ext & (IW * IW)", "");
	expect_rel("ext & (W * R)", "0>5 0>6 1>5 1>6 2>5 2>6 4>5 4>6");
	expect_rel("id & (R * R)", "5>5 6>6");
	expect_set("W", "0 1 2 4");
	expect_set("R", "5 6");
	expect_set("M", "0 1 2 4 5 6");
	expect_set("F", "3");
	expect_set("IW", "0 1");
	expect_set("FW", "2 4");
	expect_set("SYNC", "3");
	expect_set("LWSYNC", "");
	expect_set("Exp", "0 1 2 4 5 6");
	expect_set("NExp | B | X | EX | RMW", "");
	expect_rel("sm", "0>0 1>1 2>2 4>4 5>5 6>6");
	expect_rel("same-instance & (M * M)", "0>0 1>1 2>2 4>4 5>5 6>6");
	expect_rel("addr | data | ctrl | rmw | amo | iico_data | iico_ctrl", "");
	expect_set("_ & F", "3");
}

static void test_operators(void)
{
	expect_rel("po | rf", "2>3 2>4 3>4 5>6 4>5 0>6");
	expect_rel("po & (W * W)", "2>4");
	expect_rel("po \\ (W * W)", "2>3 3>4 5>6");
	expect_rel("rf ; po", "4>6");
	expect_rel("rf ; po ; fr", "4>2");
	expect_rel("W * R", "0>5 0>6 1>5 1>6 2>5 2>6 4>5 4>6");
	expect_rel("(rf | po)+ & (W * R)", "2>5 2>6 4>5 4>6 0>6");
	expect_rel("(rf | fr)*", "0>0 1>1 2>2 3>3 4>4 5>5 6>6 4>5 0>6 6>2 0>2");
	expect_rel("rf?", "0>0 1>1 2>2 3>3 4>4 5>5 6>6 4>5 0>6");
	expect_rel("rf^-1", "5>4 6>0");
	expect_rel("~po & (M * M) & int", "2>2 4>2 4>4 5>5 6>5 6>6");
	expect_set("~W", "3 5 6");
	expect_rel("[R]", "5>5 6>6");
	expect_rel("[W]; po; [W]", "2>4");
	expect_rel("0", "");
	expect_rel("0 | rf", "4>5 0>6");
	expect_rel("{} | rf", "4>5 0>6");
	expect_rel("rf ; 0", "");
	expect_rel("rf \\ {}", "4>5 0>6");
	expect_rel("rf & _", "4>5 0>6");
	expect_rel("(_ \\ po) & (W * W) & int", "2>2 4>2 4>4");
	expect_rel("[_] & (R * R)", "5>5 6>6");
	expect_set("domain(rf)", "4 0");
	expect_set("range(rf)", "5 6");
	expect_set("domain rf", "4 0");
	expect_set("emptyset", "");
	expect_rel("po-loc | rfe | fre | coe", "4>5 0>6 6>2 0>2 1>4");
	expect_rel("rfi | coi | fri", "");
	expect_rel("fencerel(SYNC)", "2>4");
	expect_rel("fencerel(LWSYNC)", "");
}

static void test_functions(void)
{
	expect_rel("let f(a, b) = a & b in f(po, W * W)", "2>4");
	expect_rel("let g x = x ; x in g (rf | po)", "2>4 2>5 3>5 4>6");
	expect_rel("let h x = fun y -> x | y in h rf fr", "4>5 0>6 6>2");
	expect_rel("let f = fun (a, _) -> a in f(rf, po)", "4>5 0>6");
	expect_rel("let c = rf in let f x = x | c in let c = po in f(fr)", "4>5 0>6 6>2");
	/* Closures capture their environment at creation. */
	expect_rel("let mk(r) = fun s -> r ; s in let k = mk(rf) in k(po)", "4>6");
	/* A tuple binding. */
	expect_rel("let (a, b) = (rf, fr) in a ; b", "0>2");
	expect_rel("let a, b = rf, po in a ; b", "4>6");
	/* Currying through a top-level function. */
	expect_rel("toid(W) ; po ; toid(W)", "2>4");
}

static void test_letrec(void)
{
	/* Least fixpoints from empty. */
	expect_rel("let rec t = rf | fr | co | (t ; t) in t", "4>5 0>6 6>2 0>2 1>4 1>5 0>6");
	expect_rel("let rec a = rf | (b ; fr) and b = rf | (a ; co) in a ; fr", "0>2");
	expect_rel("let rec a = rf | (b ; po) and b = a ; po in b", "4>6");
	/* A self-referential value with no base case stays empty. */
	expect_rel("let rec z = z ; po in z", "");
	/* A recursive function over a set of relations. */
	expect_rel("let rec unions S = match S with || {} -> 0 || r ++ rest -> r | unions(rest) end"
	           " in unions({rf, fr, co})", "4>5 0>6 6>2 0>2 1>4");
	/* Top-level let rec (the ppo shape) and its use by a check. */
	cat_model *m = load_text("rec.cat", "let rec a = rf | (b ; po)\n and b = a ; po\nlet v = a | b\n", NULL);
	if (m) {
		brel got;
		diag d = { .out = stderr };
		if (cat_model_eval_relation(m, &X.x, "v", &got, &d)) {
			brel w = pairs(X.x.n, "4>5 0>6 4>6");
			CHECK(brel_equal(&got, &w), "top-level let rec");
			brel_free(&w);
			brel_free(&got);
		} else {
			CHECK(false, "top-level let rec does not evaluate");
		}
		cat_model_free(m);
	}
}

static void test_sets_of_values(void)
{
	expect_rel("if 'a in ('a ++ {'b}) then rf else po", "4>5 0>6");
	expect_rel("if 'c in {'a, 'b} then rf else po", "2>3 2>4 3>4 5>6");
	expect_rel("if {'a, 'b} = ('b ++ {'a}) then rf else po", "4>5 0>6");
	expect_rel("if {'a} subset ('a | 'b) then rf else po", "4>5 0>6");
	expect_rel("match 'b with 'a -> po || 'b -> rf || _ -> co end", "4>5 0>6");
	expect_rel("match 'z with 'a -> po || _ -> co end", "0>2 1>4");
	/* classes-loc partitions by location; a recursive union puts it back. */
	expect_rel("let rec u S = match S with || {} -> 0 || s ++ r -> [s] | u(r) end in u(classes-loc(M))",
	           "0>0 1>1 2>2 4>4 5>5 6>6");
	expect_rel("let rec n S = match S with || {} -> 0 || s ++ r -> (s * s) | n(r) end in n(classes-loc(W))",
	           "0>0 0>2 2>0 2>2 1>1 1>4 4>1 4>4");
	/* Matching an event set takes events one by one. */
	expect_rel("let rec f S = match S with || {} -> 0 || e ++ r -> (e * e) | f(r) end in f(R)", "5>5 6>6");
	/* linearisations: total orders of W extending co (one per choice of
	 * how the two locations' writes interleave). */
	expect_rel("let rec n S = match S with || {} -> 0 || o ++ r -> o | n(r) end in "
	           "n(linearisations(W \\ IW, 0)) & (W * W)", "2>4 4>2");
	/* Enumerations are sets of tags. */
	cat_model *m = load_text("enum.cat", "enum Col = 'red || 'blue\nlet v = if 'red in Col then rf else po\n", NULL);
	if (m) {
		brel got;
		diag d = { .out = stderr };
		if (cat_model_eval_relation(m, &X.x, "v", &got, &d)) {
			CHECK(brel_count(&got) == 2, "enum membership");
			brel_free(&got);
		} else {
			CHECK(false, "enum model does not evaluate");
		}
		cat_model_free(m);
	}
}

static void test_try_and_variants(void)
{
	expect_rel("try NOSUCH with rf", "4>5 0>6");
	expect_rel("try MFENCE with rf", "4>5 0>6");     /* not a PPC fence: fails */
	expect_rel("try fencerel(SYNC) with rf", "2>4"); /* succeeds */
	expect_rel("try (po | W) with fr", "6>2");       /* a type error is caught too */
	static const char *const on[] = { "opt", NULL };
	expect_rel_v("if \"opt\" then rf else po", "4>5 0>6", on);
	expect_rel_v("if \"opt\" then rf else po", "2>3 2>4 3>4 5>6", NULL);
	expect_rel_v("if not \"opt\" then rf else po", "2>3 2>4 3>4 5>6", on);
	expect_rel_v("if variant \"opt\" && \"other\" then rf else po", "2>3 2>4 3>4 5>6", on);
	/* Instruction-level if, decided at load time. */
	const char *text = "if \"opt\" let v = rf else let v = po end\n";
	for (int k = 0; k < 2; k++) {
		cat_model *m = load_text("ifv.cat", text, k ? on : NULL);
		if (!m)
			continue;
		brel got;
		diag d = { .out = stderr };
		if (cat_model_eval_relation(m, &X.x, "v", &got, &d)) {
			CHECK(brel_count(&got) == (k ? 2 : 4), "instruction-level if, variant %s", k ? "on" : "off");
			brel_free(&got);
		}
		cat_model_free(m);
	}
}

/* Evaluate a model's checks on X: the failing check name (or "-") and the
 * flags, "name1,name2". */
static void expect_verdict(const char *text, bool allowed, const char *failed, const char *flags)
{
	cat_model *m = load_text("checks.cat", text, NULL);
	if (!m)
		return;
	cat_verdict v;
	captured c;
	capture_begin(&c);
	bool ok = cat_model_check(m, &X.x, &v, &c.d);
	const char *msgs = capture_end(&c);
	CHECK(ok, "checks do not evaluate: %s", msgs);
	if (ok) {
		CHECK(v.allowed == allowed, "allowed %d, want %d\n%s", v.allowed, allowed, text);
		const char *got = v.failed ? v.failed : "-";
		CHECK(!strcmp(got, failed), "failed check '%s', want '%s'", got, failed);
		strbuf fl = { 0 };
		for (int i = 0; i < v.n_flags; i++)
			sb_printf(&fl, "%s%s", i ? "," : "", v.flags[i]);
		CHECK(!strcmp(fl.s ? fl.s : "", flags), "flags '%s', want '%s'", fl.s ? fl.s : "", flags);
		sb_free(&fl);
	}
	capture_free(&c);
	cat_model_free(m);
}

static void test_checks(void)
{
	expect_verdict("acyclic po | rf as ok\n", true, "-", "");
	expect_verdict("acyclic po | rf | fr | co as sc\n", false, "sc", "");
	expect_verdict("irreflexive rf ; po ; fr ; co as loop\n", true, "-", "");
	expect_verdict("irreflexive fr ; co^-1 ; po^-1 ; rf^-1 ; po^-1 ; co\n", true, "-", "");
	expect_verdict("irreflexive (po | rf | fr)+\n", false, "(po | rf | fr)+", "");
	expect_verdict("empty rf & int as noint\n", true, "-", "");
	expect_verdict("empty rf & ext\n", false, "rf & ext", "");
	expect_verdict("~empty rf as some\n", true, "-", "");
	expect_verdict("~acyclic po as cyc\n", false, "cyc", "");
	expect_verdict("~irreflexive id as refl\n", true, "-", "");
	expect_verdict("empty W & R\n", true, "-", "");
	/* Flags fire when their test holds and never fail the execution. */
	expect_verdict("flag ~empty fr as has-fr\nflag empty fr as no-fr\nacyclic po\n", true, "-", "has-fr");
	/* Checks run in order and stop at the first failure. */
	expect_verdict("acyclic po as a\nempty rf as b\nflag ~empty rf as f\nempty fr as c\n", false, "b", "");
	/* Procedures: the call is the check, named by `as`. */
	expect_verdict("procedure acy(r) = acyclic r end\ncall acy(po) as c1\ncall acy(po | po^-1) as c2\n",
	               false, "c2", "");
	expect_verdict("procedure inc(a, b) = let d = a \\ b empty d end\ncall inc(rf, rf | po)\n"
	               "call inc(po, rf) as notincluded\n", false, "notincluded", "");
	expect_verdict("procedure p(r) = flag ~empty r as inside end\ncall p(rf)\n", true, "-", "inside");
	/* herd's stdlib-style procedure calling another procedure. */
	expect_verdict("procedure incl(r1, r2) = empty r1 \\ r2 end\n"
	               "procedure total(r, E) = let rt = r | r^-1 call incl((E * E) \\ id, rt) end\n"
	               "call total(co, W & domain(loc ; [range(fr)])) as t\n", true, "-", "");
	expect_verdict("procedure incl(r1, r2) = empty r1 \\ r2 end\n"
	               "procedure total(r, E) = let rt = r | r^-1 call incl((E * E) \\ id, rt) end\n"
	               "call total(po, W) as t\n", false, "t", "");
	/* show, unshow and debug are accepted and change nothing. */
	expect_verdict("show po, rf\nshow po \\ rf as x\nunshow x\ndebug rf\nacyclic begin po | rf end as ok\n",
	               true, "-", "");
	/* undefined_unless reports a flag when its test fails. */
	/* herd's Undef flag, whatever the check's name */
	expect_verdict("undefined_unless empty fr as nofr\nacyclic po\n", true, "-", "*undef*");
	/* Recursions over the elements of a set (cross.cat's) are tail calls
	 * and nest nothing: 5040 orders, where at most 1000 nested calls were
	 * allowed. */
	expect_verdict("let lins = linearisations(M | F, 0)\n"
	               "let rec walk (k, os) = match os with || {} -> k || o ++ rest -> walk(k | o, rest) end\n"
	               "let all = walk(0, lins)\n"
	               "empty ((M | F) * (M | F)) \\ id \\ all as every-pair\n"
	               "empty all & id as no-loop\n"
	               "flag ~empty lins as some\n",
	               true, "-", "some");
	/* `with co from` keeps the execution's co. */
	expect_verdict("with co from 0\nempty co \\ (W * W) as coW\nacyclic co | po as copo\n", true, "-", "");
}

static void test_includes(void)
{
	scratch_file(&S, "lib1.cat", "Lib1\nlet mine = rf | fr\ninclude \"lib2.cat\"\n");
	scratch_file(&S, "lib2.cat", "\"Lib two\"\nlet mine2 = mine ; fr\n");
	expect_verdict("Main\ninclude \"lib1.cat\"\nempty mine2 as m2\nacyclic mine as m1\n", false, "m2", "");
	/* Model names: title, or the file's base name. */
	cat_model *m = load_text("named.cat", "\"Some Model\"\nacyclic po\n", NULL);
	if (m)
		CHECK(!strcmp(cat_model_name(m), "Some Model"), "title '%s'", cat_model_name(m));
	cat_model_free(m);
	m = load_text("untitled.cat", "acyclic po\n", NULL);
	if (m)
		CHECK(!strcmp(cat_model_name(m), "untitled"), "base name '%s'", cat_model_name(m));
	cat_model_free(m);
}

static void test_runtime_errors(void)
{
	const char *cases[][2] = {
		{ "let v = po | W\nacyclic v\n", "checks.cat:1:14: error: union of a relation and an event set" },
		{ "acyclic W\n", "checks.cat:1:9: error: acyclic needs a relation, found an event set" },
		{ "acyclic MFENCE * MFENCE\n", "checks.cat:1:9: error: unbound name 'MFENCE'" },
		{ "let f(a, b) = a\nacyclic f(po)\n", "checks.cat:2:9: error: argument mismatch" },
		{ "acyclic match 'c with 'a -> po end\n", "checks.cat:1:9: error: no clause matches tag 'c" },
		/* a tail call with its own argument never ends */
		{ "let rec f x = f(x)\nacyclic f(po)\n", "checks.cat:1:15: error: this call calls itself with the same argument" },
		/* a recursion that is not a tail call nests until the stack is used up */
		{ "let rec f x = f(x) | x\nacyclic f(po)\n", "calls nested too deeply" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		cat_model *m = load_text("checks.cat", cases[i][0], NULL);
		if (!m)
			continue;
		cat_verdict v;
		captured c;
		capture_begin(&c);
		bool ok = cat_model_check(m, &X.x, &v, &c.d);
		const char *msgs = capture_end(&c);
		CHECK(!ok, "case %zu should fail at run time", i);
		char *want = xasprintf("%s/%s", S.dir, cases[i][1]);
		CHECK(strstr(msgs, strchr(cases[i][1], ':') ? want : cases[i][1]) != NULL,
		      "case %zu: message '%s', want '%s'", i, msgs, want);
		free(want);
		capture_free(&c);
		cat_model_free(m);
	}
}

/* Larger executions: relations and checks beyond one 64-bit word. */
static void test_big(void)
{
	for (int size = 60; size <= 200; size += 70) {
		xb b;
		xb_init(&b, "PPC", ppc_fences);
		int iw = xb_iw(&b, 0);
		int prev = iw;
		int nw = (size - 1) / 2;
		for (int k = 0; k < nw; k++) {
			int w = xb_w(&b, 0, 0, k + 1);
			int r = xb_r(&b, 1, 0, k + 1);
			xb_rf(&b, w, r);
			xb_co(&b, prev, w);
			prev = w;
		}
		execution *x = xb_build(&b);
		cat_model *m = load_text("big.cat", "acyclic po | rf | co | fr as sc\nlet v = fr\n", NULL);
		if (m) {
			cat_verdict v;
			diag d = { .out = stderr };
			CHECK(cat_model_check(m, x, &v, &d) && v.allowed, "big SC-consistent execution, n=%d", x->n);
			brel fr;
			if (cat_model_eval_relation(m, x, "v", &fr, &d)) {
				/* Reader k reads write k and is fr-before writes k+1.. */
				int want = 0;
				for (int k = 0; k < nw; k++)
					want += nw - 1 - k;
				CHECK(brel_count(&fr) == want, "big fr count %d, want %d", brel_count(&fr), want);
				brel_free(&fr);
			}
			cat_model_free(m);
		}
		/* Reverse one read: reading an older write after a newer one in po
		 * breaks SC. */
		xb_free(&b);
	}
}

int main(void)
{
	scratch_init(&S);
	build_mp(&X);
	expect_on = &X.x;
	test_primitives();
	test_operators();
	test_functions();
	test_letrec();
	test_sets_of_values();
	test_try_and_variants();
	test_checks();
	test_includes();
	test_runtime_errors();
	test_big();
	xb_free(&X);
	scratch_done(&S);
	return test_summary("test_cat_eval");
}
