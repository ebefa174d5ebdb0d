/* test_cat_mono.c — the classification of checks as monotone (safe to judge
 * on a partial execution), on hand-written checks that exercise each rule,
 * on weft's and herd's models, and empirically: on random executions, a
 * monotone check that fails on a sub-execution (fewer events, fewer rf and
 * co edges) must fail on the whole execution. */
#include "test_cat_util.h"
#include "test_cat_build.h"

static scratch S;

static cat_model *load_text(const char *text)
{
	const char *path = scratch_file(&S, "mono.cat", text);
	cat_search_path sp = weft_path();
	captured c;
	capture_begin(&c);
	cat_model *m = cat_model_load(path, &(cat_load_options){ .search = &sp }, &c.d);
	const char *msgs = capture_end(&c);
	CHECK(m != NULL, "does not load: %s\n%s", msgs, text);
	capture_free(&c);
	return m;
}

/* The last check of `text` is (or is not) monotone. */
static void expect_mono(const char *text, bool want)
{
	cat_model *m = load_text(text);
	if (!m)
		return;
	int k = cat_model_n_checks(m) - 1;
	CHECK(k >= 0 && cat_model_check_is_monotone(m, k) == want, "%s monotone: got %d, want %d",
	      k >= 0 ? cat_model_check_name(m, k) : "?", k >= 0 && cat_model_check_is_monotone(m, k), want);
	cat_model_free(m);
}

static void test_rules(void)
{
	/* Unions, sequences, intersections, closures, inverse of growing
	 * relations and stable ones. */
	expect_mono("acyclic po | rf | co | fr\n", true);
	expect_mono("acyclic (po ; rf)+ & (W * R) | co^-1\n", true);
	expect_mono("irreflexive fr ; rf? ; po*\n", true);
	expect_mono("empty rf & ext & (W * R)\n", true);
	/* Negated tests and flags are never monotone. */
	expect_mono("~empty rf\n", false);
	expect_mono("~acyclic po | rf\n", false);
	expect_mono("flag ~empty rf as f\n", false);
	expect_mono("flag acyclic rf as f\n", false);
	/* Differences: subtracting something stable is fine... */
	expect_mono("acyclic rf \\ (W * R)\n", true);
	expect_mono("acyclic co \\ int\n", true);
	expect_mono("acyclic po \\ ([W]; po; [R])\n", true);  /* [W];po;[R] adds no intermediate event */
	expect_mono("acyclic (fr | co) \\ id\n", true);
	/* ... subtracting something that grows is not ... */
	expect_mono("acyclic po \\ rf\n", false);
	expect_mono("acyclic po \\ (rf ; po)\n", false);
	/* ... unless it only removes a stable part of the same relation. */
	expect_mono("empty rf \\ (rf & int)\n", true);
	expect_mono("let fri = fr & int\nlet fre = fr \\ fri\nempty fre ; co\n", true);
	expect_mono("let coi = co & int\nlet coe = co \\ coi\nacyclic coe | po\n", true);
	expect_mono("acyclic rf \\ ((rf | co) & int)\n", true);
	expect_mono("acyclic rf \\ (co & int)\n", false);
	/* A sequence of stable relations may gain pairs between old events
	 * through a new intermediate one: subtracting it is not monotone. */
	expect_mono("acyclic po \\ (po ; [F] ; po)\n", false);
	expect_mono("acyclic po \\ fencerel(SYNC)\n", false);
	/* Complements. */
	expect_mono("acyclic ~po & loc & (W * W)\n", true);
	expect_mono("acyclic ~rf & (W * R)\n", false);
	/* FW changes as writes are added. */
	expect_mono("acyclic co & (_ * FW)\n", false);
	expect_mono("empty [FW] ; rf\n", false);
	expect_mono("acyclic po \\ (W * FW)\n", false);
	/* domain / range of stable relations grow. */
	expect_mono("empty R \\ range(rf)\n", false);
	expect_mono("empty [domain(rf)] ; po ; [W]\n", true);
	/* Functions are analysed through their bodies. */
	expect_mono("let f(a) = a \\ rf\nacyclic f(po)\n", false);
	expect_mono("let g(a) = a & rf\nacyclic g(po)\n", true);
	expect_mono("let h(a, b) = a \\ b\nacyclic h(rf, W * R)\n", true);
	expect_mono("let h(a, b) = a \\ b\nacyclic h(W * R, rf)\n", false);
	expect_mono("let k x = fun y -> x | y\nacyclic k rf co\n", true);
	expect_mono("acyclic fencerel(LWSYNC) \\ (W * R) | rf\n", true);
	/* let rec: least fixpoints of growing relations grow. */
	expect_mono("let rec t = rf | (t ; t)\nacyclic t\n", true);
	expect_mono("let rec a = rf | b and b = a ; (po \\ rf)\nacyclic a\n", false);
	expect_mono("acyclic let rec t = co | t ; t in t\n", true);
	/* try: both branches count. */
	expect_mono("acyclic try NOPE with rf\n", true);
	expect_mono("acyclic try rf with FW * FW\n", false);
	/* Procedures: monotone if every check of the body is, for the call's
	 * arguments. */
	expect_mono("procedure p(r) = acyclic r end\ncall p(rf | po)\n", true);
	expect_mono("procedure p(r) = acyclic r end\ncall p(po \\ rf)\n", false);
	expect_mono("procedure p(r) = let d = r \\ rf empty d end\ncall p(po)\n", false);
	expect_mono("procedure p(r) = flag ~empty r as f acyclic r end\ncall p(co)\n", true);
	/* Matches are not analysed. */
	expect_mono("acyclic match 'a with 'a -> rf || _ -> po end\n", false);
	/* What is empty in every execution never changes (herd's emptyset =
	 * domain 0, as aarch64.cat's `R \ NoRet` reads it): subtracting it,
	 * or a sequence through it, is stable. */
	expect_mono("acyclic rf | ([R \\ domain(0)] ; po)\n", true);
	expect_mono("acyclic rf | (po \\ (po ; [domain(0) & W] ; po))\n", true);
	expect_mono("acyclic rf | (po \\ (try NOPE with range(0)))\n", true);
	expect_mono("acyclic rf | (po \\ domain(rf))\n", false);
	/* An if on variants alone, however combined, picks a branch before
	 * any execution. */
	expect_mono("acyclic rf | (if not \"V\" || \"W\" && \"X\" then po else 0)\n", true);
	expect_mono("acyclic po \\ (if not \"V\" then rf else 0)\n", false);
	/* same-oa and different-values keep pairs by their events' values,
	 * which never change: the class of their argument. */
	expect_mono("acyclic rf | (po \\ same-oa(po))\n", true);
	expect_mono("acyclic po \\ different-values(po & loc)\n", true);
	expect_mono("acyclic po \\ different-values(rf)\n", false);
	/* A catdep model's dependency relations are the engine's, fixed by
	 * the path of each thread: whatever their definition, stable. */
	expect_mono("catdep\nlet data = [R]; (rf-reg \\ (rf-reg; rf-reg)); [W]\nacyclic rf | (po \\ data)\n", true);
	expect_mono("let data = [R]; (rf-reg \\ (rf-reg; rf-reg)); [W]\nacyclic rf | (po \\ data)\n", false);
}

/* Check `name` of m is (or is not) monotone. */
static void expect_check(cat_model *m, const char *name, bool want)
{
	if (!m)
		return;
	int k = 0;
	while (k < cat_model_n_checks(m) && strcmp(cat_model_check_name(m, k), name))
		k++;
	CHECK(k < cat_model_n_checks(m) && cat_model_check_is_monotone(m, k) == want, "%s: %s monotone: want %d",
	      cat_model_name(m), name, want);
}

static cat_model *load_named(const char *dir, const char *name)
{
	const char *dirs[] = { dir, WEFT_SOURCE_CATDIR };
	cat_search_path sp = { dir ? 2 : 1, dir ? dirs : dirs + 1 };
	diag d = { .out = stderr };
	cat_model *m = cat_model_load(name, &(cat_load_options){ .search = &sp }, &d);
	CHECK(m != NULL, "model %s does not load", name);
	return m;
}

/* "name:1 name:0 ..." for the checks of a model. */
static void expect_model(cat_model *m, const char *want)
{
	if (!m)
		return;
	strbuf b = { 0 };
	for (int i = 0; i < cat_model_n_checks(m); i++)
		sb_printf(&b, "%s%s:%d", i ? " " : "", cat_model_check_name(m, i), cat_model_check_is_monotone(m, i));
	CHECK(!strcmp(b.s ? b.s : "", want), "%s:\n   got  %s\n   want %s", cat_model_name(m), b.s, want);
	sb_free(&b);
}

static void test_models(cat_model **models, const char *herd)
{
	expect_model(models[0], "atomic:1 sc:1");
	expect_model(models[1], "uniproc:1 atomic:1 tso:1");
	expect_model(models[2], "uniproc:1 atomic:1 thinair:1 propagation:1 observation:1 scXX:1");
	if (!herd)
		return;
	/* herd's stdlib defines rmw = amo | lxsx, where lxsx subtracts
	 * po;[M & EX];po: a new exclusive event between two old ones would
	 * remove a pair, so the atomicity checks are judged at the end. */
	expect_model(models[3], "Shareability-argument-for-DMB-is-deprecated:0 "
	                        "Maintenance-scope-for-DSB-LD-is-deprecated:0 "
	                        "Maintenance-scope-for-DSB-ST-is-deprecated:0 atom:0 sc:1");
	expect_model(models[4], "scperlocation:1 atomic:0 thinair:1 propagation:1 observation:1 scXX:1");
	expect_model(models[5], "po-loc | amo | com:1 rmw & (fre;coe):0 tso:1");
	expect_model(models[6], "internal:1 atomic:0 external:1");
	/* herd's aarch64.cat (7.58): the internal visibility checks are
	 * judged early; external (ob) reads lrs, whose `~intervening(W,
	 * po-loc)` may lose a pair when a write comes between, and the TLBI,
	 * IC and DC orders aarch64.cat chooses (with ... from), so it is
	 * judged on complete executions */
	char dir758[1100];
	snprintf(dir758, sizeof dir758, "%s/7.58", herd);
	cat_model *a64 = load_named(dir758, "aarch64.cat");
	for (const char *const *c = (const char *const[]){ "coRW1-Exp", "coRW1-MTE", "coWW-Exp", "coWR-Exp", "coWR-MTE",
							   NULL }; *c; c++)
		expect_check(a64, *c, true);
	expect_check(a64, "external", false);
	expect_check(a64, "atomic", false);
	cat_model_free(a64);
}

/* ---- random executions and their sub-executions ------------------------------------------ */

static unsigned long long rng = 0x9E3779B97F4A7C15ULL;
static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)((rng >> 11) % n);
}

static const char *const fences[] = { "SYNC", "LWSYNC", "ISYNC", "EIEIO", "MFENCE", NULL };

/* A random (not necessarily consistent) candidate execution. */
static void random_exec(xb *b)
{
	xb_init(b, "TEST", fences);
	int nloc = 2;
	for (int l = 0; l < nloc; l++)
		xb_iw(b, l);
	int nthreads = 2 + (int)rnd(2);
	for (int t = 0; t < nthreads; t++) {
		int len = 1 + (int)rnd(4);
		int last_read = -1;
		for (int k = 0; k < len; k++) {
			unsigned kind = rnd(10);
			int e;
			if (kind < 4) {
				e = xb_w(b, t, (int)rnd(nloc), 1);
			} else if (kind < 8) {
				e = xb_r(b, t, (int)rnd(nloc), 0);
			} else if (kind == 8) {
				int w;
				e = xb_xchg(b, t, (int)rnd(nloc), 0, 1, &w);
				e = w;
			} else {
				e = xb_fence(b, t, fences[rnd(5)]);
			}
			if (last_read >= 0 && b->ev[e].kind != EV_FENCE && rnd(3) == 0)
				xb_edge_add(b, rnd(2) ? 'a' : 'd', last_read, e);
			if (b->ev[e].kind == EV_READ)
				last_read = e;
			else if (e > 0 && b->ev[e - 1].kind == EV_READ && b->ev[e - 1].instr == b->ev[e].instr)
				last_read = e - 1;
		}
	}
	/* rf: each read from a random write of its location. */
	for (int r = 0; r < b->n; r++) {
		if (b->ev[r].kind != EV_READ)
			continue;
		int cand[XB_MAX_EVENTS], nc = 0;
		for (int w = 0; w < b->n; w++)
			if (b->ev[w].kind == EV_WRITE && b->ev[w].loc == b->ev[r].loc)
				cand[nc++] = w;
		xb_rf(b, cand[rnd((unsigned)nc)], r);
	}
	/* co: a random order of each location's writes after the initial one. */
	for (int l = 0; l < nloc; l++) {
		int ws[XB_MAX_EVENTS], nw = 0;
		for (int w = 0; w < b->n; w++)
			if (b->ev[w].kind == EV_WRITE && b->ev[w].loc == l && !(b->ev[w].flags & EVF_INIT))
				ws[nw++] = w;
		for (int i = nw - 1; i > 0; i--) {
			int j = (int)rnd((unsigned)i + 1), t = ws[i];
			ws[i] = ws[j];
			ws[j] = t;
		}
		for (int i = 0; i + 1 < nw; i++)
			xb_co(b, ws[i], ws[i + 1]);
	}
	xb_build(b);
}

/* A sub-execution: some events dropped (never initial writes, and an
 * atomic instruction's read and write together), some rf/co edges dropped;
 * relations restricted, events renumbered. */
static void sub_exec(const execution *full, execution *sub, litmus_test *t)
{
	int n = full->n, map[XB_MAX_EVENTS], m = 0;
	bool keep[XB_MAX_EVENTS];
	for (int i = 0; i < n; i++)
		keep[i] = (full->ev[i].flags & EVF_INIT) || rnd(4) != 0;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if (brel_has(&full->rmw, i, j))
				keep[j] = keep[i];
	for (int i = 0; i < n; i++)
		map[i] = keep[i] ? m++ : -1;
	execution_init(sub, t, m);
	for (int i = 0; i < n; i++)
		if (keep[i])
			sub->ev[map[i]] = full->ev[i];
	const brel *from[] = { &full->po, &full->rf, &full->co, &full->addr, &full->data, &full->ctrl, &full->rmw };
	brel *to[] = { &sub->po, &sub->rf, &sub->co, &sub->addr, &sub->data, &sub->ctrl, &sub->rmw };
	for (int k = 0; k < 7; k++)
		for (int i = 0; i < n; i++)
			for (int j = 0; j < n; j++)
				if (keep[i] && keep[j] && brel_has(from[k], i, j) && !((k == 1 || k == 2) && rnd(5) == 0))
					brel_add(to[k], map[i], map[j]);
}

static void test_random(cat_model **models, int nmodels)
{
	int trials = 0, sub_failures = 0;
	for (int iter = 0; iter < 1500; iter++) {
		xb b;
		random_exec(&b);
		execution sub;
		sub_exec(&b.x, &sub, &b.test);
		for (int k = 0; k < nmodels; k++) {
			if (!models[k])
				continue;
			cat_verdict vs, vf;
			diag d = { .out = stderr };
			bool ok1 = cat_model_check_partial(models[k], &sub, &vs, &d);
			const char *sub_failed = vs.failed;
			bool sub_allowed = vs.allowed;
			bool ok2 = cat_model_check_partial(models[k], &b.x, &vf, &d);
			CHECK(ok1 && ok2, "random execution %d: evaluation error under %s", iter, cat_model_name(models[k]));
			trials++;
			if (!sub_allowed) {
				sub_failures++;
				CHECK(!vf.allowed, "random execution %d under %s: monotone check '%s' fails on a "
				      "sub-execution but the whole execution passes", iter, cat_model_name(models[k]),
				      sub_failed);
			}
		}
		execution_free(&sub);
		xb_free(&b);
	}
	printf("test_cat_mono: %d random sub-execution checks, %d failing early\n", trials, sub_failures);
	CHECK(sub_failures > trials / 20, "the random executions exercise failures (%d of %d)", sub_failures, trials);
}

/* cat_model_check_partial skips non-monotone checks. */
static void test_partial(void)
{
	cat_model *m = load_text("empty R \\ range(rf) as every-read-reads\nacyclic po | rf | co | fr as sc\n");
	if (!m)
		return;
	xb b;
	xb_init(&b, NULL, NULL);
	xb_iw(&b, 0);
	int w = xb_w(&b, 0, 0, 1);
	int r = xb_r(&b, 1, 0, 1);
	(void)w;
	(void)r; /* no rf yet: the read is not committed */
	execution *x = xb_build(&b);
	cat_verdict v;
	diag d = { .out = stderr };
	CHECK(cat_model_check_partial(m, x, &v, &d) && v.allowed, "partial: the non-monotone check is skipped");
	CHECK(cat_model_check(m, x, &v, &d) && !v.allowed && !strcmp(v.failed, "every-read-reads"),
	      "complete: the non-monotone check fails");
	CHECK(!cat_model_check_is_monotone(m, 0) && cat_model_check_is_monotone(m, 1), "classification");
	xb_free(&b);
	cat_model_free(m);
}

int main(void)
{
	scratch_init(&S);
	test_rules();
	test_partial();
	const char *herd = herd_cat_dir("test_cat_mono");
	cat_model *models[7] = { load_named(NULL, "sc"), load_named(NULL, "tso"), load_named(NULL, "power") };
	if (herd) {
		models[3] = load_named(herd, "sc.cat");
		models[4] = load_named(herd, "ppc.cat");
		models[5] = load_named(herd, "x86tso.cat");
		models[6] = load_named(herd, "x86tso-mixed.cat");
	}
	test_models(models, herd);
	test_random(models, 7);
	for (int k = 0; k < 7; k++)
		cat_model_free(models[k]);
	scratch_done(&S);
	return test_summary("test_cat_mono");
}
