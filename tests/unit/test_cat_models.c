/* test_cat_models.c — weft's models (sc, tso, power) and herd7's (sc.cat,
 * ppc.cat, x86tso.cat, x86tso-mixed.cat) on hand-built candidate executions
 * of the classic shapes SB, MP, LB, IRIW, WRC, 2+2W, CoRR and atomicity,
 * with and without fences and dependencies.  Each row gives the execution
 * of the shape's interesting (relaxed) outcome and, per model, which check
 * fails ("-": allowed).  Our models must agree with herd's on every row.
 * herd's models are read from the shared corpus; the rows still run on
 * ours when it is absent. */
#include "test_cat_util.h"
#include "test_cat_build.h"

static const char *const ppc_fences[] = { "SYNC", "LWSYNC", "ISYNC", "EIEIO", NULL };
static const char *const x86_fences[] = { "MFENCE", "LFENCE", "SFENCE", NULL };

enum shape { SB, MP, LB, IRIW, WRC, W22, CORR, ATOM, SBX, SBRFI };

typedef struct row {
	const char *name;
	const char *arch;       /* "PPC" or "X86" */
	enum shape shape;
	const char *sep[4];     /* per thread, between its two events: NULL,
	                         * a fence mnemonic, addr, data, ctrl, ctrlisync */
	/* failing check per model, "-" when allowed */
	const char *sc, *herd_sc, *ours, *herd, *herd_mixed;
} row;

static const row rows[] = {
	/* ---- PPC: our sc and power, herd's sc.cat and ppc.cat ---- */
	{ "SB", "PPC", SB, { 0 }, "sc", "sc", "-", "-", 0 },
	{ "SB+syncs", "PPC", SB, { "SYNC", "SYNC" }, "sc", "sc", "propagation", "propagation", 0 },
	{ "SB+lwsyncs", "PPC", SB, { "LWSYNC", "LWSYNC" }, "sc", "sc", "-", "-", 0 },
	{ "SB+sync+lwsync", "PPC", SB, { "SYNC", "LWSYNC" }, "sc", "sc", "-", "-", 0 },
	{ "MP", "PPC", MP, { 0 }, "sc", "sc", "-", "-", 0 },
	{ "MP+lwsync+addr", "PPC", MP, { "LWSYNC", "addr" }, "sc", "sc", "observation", "observation", 0 },
	{ "MP+sync+addr", "PPC", MP, { "SYNC", "addr" }, "sc", "sc", "propagation", "propagation", 0 },
	{ "MP+eieio+addr", "PPC", MP, { "EIEIO", "addr" }, "sc", "sc", "observation", "observation", 0 },
	{ "MP+lwsync+ctrl", "PPC", MP, { "LWSYNC", "ctrl" }, "sc", "sc", "-", "-", 0 },
	{ "MP+lwsync+ctrlisync", "PPC", MP, { "LWSYNC", "ctrlisync" }, "sc", "sc", "observation", "observation", 0 },
	{ "MP+lwsync+isync", "PPC", MP, { "LWSYNC", "ISYNC" }, "sc", "sc", "-", "-", 0 },
	{ "MP+lwsync+po", "PPC", MP, { "LWSYNC", 0 }, "sc", "sc", "-", "-", 0 },
	{ "MP+po+addr", "PPC", MP, { 0, "addr" }, "sc", "sc", "-", "-", 0 },
	{ "MP+lwsyncs", "PPC", MP, { "LWSYNC", "LWSYNC" }, "sc", "sc", "observation", "observation", 0 },
	{ "LB", "PPC", LB, { 0 }, "sc", "sc", "-", "-", 0 },
	{ "LB+addrs", "PPC", LB, { "addr", "addr" }, "sc", "sc", "thinair", "thinair", 0 },
	{ "LB+datas", "PPC", LB, { "data", "data" }, "sc", "sc", "thinair", "thinair", 0 },
	{ "LB+ctrls", "PPC", LB, { "ctrl", "ctrl" }, "sc", "sc", "thinair", "thinair", 0 },
	{ "LB+lwsyncs", "PPC", LB, { "LWSYNC", "LWSYNC" }, "sc", "sc", "thinair", "thinair", 0 },
	{ "LB+addr+po", "PPC", LB, { "addr", 0 }, "sc", "sc", "-", "-", 0 },
	{ "IRIW", "PPC", IRIW, { 0 }, "sc", "sc", "-", "-", 0 },
	{ "IRIW+addrs", "PPC", IRIW, { 0, 0, "addr", "addr" }, "sc", "sc", "-", "-", 0 },
	{ "IRIW+lwsyncs", "PPC", IRIW, { 0, 0, "LWSYNC", "LWSYNC" }, "sc", "sc", "-", "-", 0 },
	{ "IRIW+syncs", "PPC", IRIW, { 0, 0, "SYNC", "SYNC" }, "sc", "sc", "propagation", "propagation", 0 },
	{ "IRIW+sync+addr", "PPC", IRIW, { 0, 0, "SYNC", "addr" }, "sc", "sc", "-", "-", 0 },
	{ "WRC", "PPC", WRC, { 0 }, "sc", "sc", "-", "-", 0 },
	{ "WRC+addrs", "PPC", WRC, { 0, "addr", "addr" }, "sc", "sc", "-", "-", 0 },
	{ "WRC+lwsync+addr", "PPC", WRC, { 0, "LWSYNC", "addr" }, "sc", "sc", "observation", "observation", 0 },
	{ "WRC+sync+addr", "PPC", WRC, { 0, "SYNC", "addr" }, "sc", "sc", "propagation", "propagation", 0 },
	{ "WRC+data+addr", "PPC", WRC, { 0, "data", "addr" }, "sc", "sc", "-", "-", 0 },
	{ "2+2W", "PPC", W22, { 0 }, "sc", "sc", "-", "-", 0 },
	{ "2+2W+lwsyncs", "PPC", W22, { "LWSYNC", "LWSYNC" }, "sc", "sc", "propagation", "propagation", 0 },
	{ "2+2W+syncs", "PPC", W22, { "SYNC", "SYNC" }, "sc", "sc", "propagation", "propagation", 0 },
	{ "2+2W+eieios", "PPC", W22, { "EIEIO", "EIEIO" }, "sc", "sc", "propagation", "propagation", 0 },
	{ "2+2W+lwsync+po", "PPC", W22, { "LWSYNC", 0 }, "sc", "sc", "-", "-", 0 },
	{ "CoRR", "PPC", CORR, { 0 }, "sc", "sc", "uniproc", "scperlocation", 0 },
	/* ---- X86: our sc and tso, herd's sc.cat, x86tso.cat, x86tso-mixed.cat ---- */
	{ "SB", "X86", SB, { 0 }, "sc", "sc", "-", "-", "-" },
	{ "SB+mfences", "X86", SB, { "MFENCE", "MFENCE" }, "sc", "sc", "tso", "tso", "external" },
	{ "SB+mfence+po", "X86", SB, { "MFENCE", 0 }, "sc", "sc", "-", "-", "-" },
	{ "SB+rfi-pos", "X86", SBRFI, { 0 }, "sc", "sc", "-", "-", "-" },
	{ "SB+xchgs", "X86", SBX, { 0 }, "sc", "sc", "tso", "tso", "external" },
	{ "MP", "X86", MP, { 0 }, "sc", "sc", "tso", "tso", "external" },
	{ "LB", "X86", LB, { 0 }, "sc", "sc", "tso", "tso", "external" },
	{ "IRIW", "X86", IRIW, { 0 }, "sc", "sc", "tso", "tso", "external" },
	{ "WRC", "X86", WRC, { 0 }, "sc", "sc", "tso", "tso", "external" },
	{ "2+2W", "X86", W22, { 0 }, "sc", "sc", "tso", "tso", "external" },
	{ "CoRR", "X86", CORR, { 0 }, "sc", "sc", "uniproc", "po-loc | amo | com", "internal" },
	{ "ATOM", "X86", ATOM, { 0 }, "atomic", "atom", "atomic", "rmw & (fre;coe)", "atomic" },
};

/* ---- building the executions -------------------------------------------------------------- */

/* What a separator leaves to do once the next event of the thread exists. */
typedef struct pending {
	char dep;   /* 'a' addr, 'd' data, 'k' ctrl, 0 none */
	int from;   /* the read the dependency starts from */
	int branch; /* ctrl: the branch event */
	int thread;
} pending;

static pending separator(xb *b, int t, const char *spec, int prev)
{
	pending p = { 0, prev, -1, t };
	if (!spec)
		return p;
	if (!strcmp(spec, "addr") || !strcmp(spec, "data")) {
		p.dep = spec[0];
	} else if (!strcmp(spec, "ctrl") || !strcmp(spec, "ctrlisync")) {
		/* ctrl: from the read to every event after the branch. */
		p.dep = 'k';
		p.branch = xb_branch(b, t);
		if (!strcmp(spec, "ctrlisync"))
			xb_fence(b, t, "ISYNC");
	} else {
		xb_fence(b, t, spec);
	}
	return p;
}

/* Called after the thread's last event is created. */
static void finish(xb *b, pending p)
{
	if (p.dep == 'a' || p.dep == 'd') {
		xb_edge_add(b, p.dep, p.from, b->n - 1);
	} else if (p.dep == 'k') {
		for (int i = p.branch + 1; i < b->n; i++)
			if (b->ev[i].thread == p.thread)
				xb_edge_add(b, 'k', p.from, i);
	}
}

/* Two events on thread t with separator spec between them. */
typedef struct two {
	int first, second;
} two;

static two pair_rw(xb *b, int t, char k1, int loc1, int v1, char k2, int loc2, int v2, const char *spec)
{
	two r;
	r.first = k1 == 'W' ? xb_w(b, t, loc1, v1) : xb_r(b, t, loc1, v1);
	pending p = separator(b, t, spec, r.first);
	r.second = k2 == 'W' ? xb_w(b, t, loc2, v2) : xb_r(b, t, loc2, v2);
	finish(b, p);
	return r;
}

enum { X = 0, Y = 1 };

static execution *build(xb *b, const row *rw)
{
	bool ppc = !strcmp(rw->arch, "PPC");
	xb_init(b, rw->arch, ppc ? ppc_fences : x86_fences);
	int ix = xb_iw(b, X), iy = xb_iw(b, Y);
	switch (rw->shape) {
	case SB: { /* W x; R y=0 || W y; R x=0 */
		two a = pair_rw(b, 0, 'W', X, 1, 'R', Y, 0, rw->sep[0]);
		two c = pair_rw(b, 1, 'W', Y, 1, 'R', X, 0, rw->sep[1]);
		xb_rf(b, iy, a.second);
		xb_rf(b, ix, c.second);
		break;
	}
	case SBRFI: { /* W x; R x=1; R y=0 || W y; R y=1; R x=0 */
		int wx = xb_w(b, 0, X, 1), r0 = xb_r(b, 0, X, 1), r1 = xb_r(b, 0, Y, 0);
		int wy = xb_w(b, 1, Y, 1), r2 = xb_r(b, 1, Y, 1), r3 = xb_r(b, 1, X, 0);
		xb_rf(b, wx, r0);
		xb_rf(b, iy, r1);
		xb_rf(b, wy, r2);
		xb_rf(b, ix, r3);
		break;
	}
	case SBX: { /* xchg x; R y=0 || xchg y; R x=0 */
		int wx, wy;
		int rx = xb_xchg(b, 0, X, 0, 1, &wx);
		int r0 = xb_r(b, 0, Y, 0);
		int ry = xb_xchg(b, 1, Y, 0, 1, &wy);
		int r1 = xb_r(b, 1, X, 0);
		xb_rf(b, ix, rx);
		xb_rf(b, iy, ry);
		xb_rf(b, iy, r0);
		xb_rf(b, ix, r1);
		break;
	}
	case ATOM: { /* xchg x || xchg x, both reading the initial value */
		int w0, w1;
		int r0 = xb_xchg(b, 0, X, 0, 1, &w0);
		int r1 = xb_xchg(b, 1, X, 0, 2, &w1);
		xb_rf(b, ix, r0);
		xb_rf(b, ix, r1);
		xb_co(b, w0, w1);
		break;
	}
	case MP: { /* W x; W y || R y=1; R x=0 */
		two a = pair_rw(b, 0, 'W', X, 1, 'W', Y, 1, rw->sep[0]);
		two c = pair_rw(b, 1, 'R', Y, 1, 'R', X, 0, rw->sep[1]);
		xb_rf(b, a.second, c.first);
		xb_rf(b, ix, c.second);
		break;
	}
	case LB: { /* R x=1; W y || R y=1; W x */
		two a = pair_rw(b, 0, 'R', X, 1, 'W', Y, 1, rw->sep[0]);
		two c = pair_rw(b, 1, 'R', Y, 1, 'W', X, 1, rw->sep[1]);
		xb_rf(b, c.second, a.first);
		xb_rf(b, a.second, c.first);
		break;
	}
	case IRIW: { /* W x || W y || R x=1; R y=0 || R y=1; R x=0 */
		int wx = xb_w(b, 0, X, 1);
		int wy = xb_w(b, 1, Y, 1);
		two c = pair_rw(b, 2, 'R', X, 1, 'R', Y, 0, rw->sep[2]);
		two d = pair_rw(b, 3, 'R', Y, 1, 'R', X, 0, rw->sep[3]);
		xb_rf(b, wx, c.first);
		xb_rf(b, iy, c.second);
		xb_rf(b, wy, d.first);
		xb_rf(b, ix, d.second);
		break;
	}
	case WRC: { /* W x || R x=1; W y || R y=1; R x=0 */
		int wx = xb_w(b, 0, X, 1);
		two c = pair_rw(b, 1, 'R', X, 1, 'W', Y, 1, rw->sep[1]);
		two d = pair_rw(b, 2, 'R', Y, 1, 'R', X, 0, rw->sep[2]);
		xb_rf(b, wx, c.first);
		xb_rf(b, c.second, d.first);
		xb_rf(b, ix, d.second);
		break;
	}
	case W22: { /* W x=1; W y=2 || W y=1; W x=2, final x=1 y=1 */
		two a = pair_rw(b, 0, 'W', X, 1, 'W', Y, 2, rw->sep[0]);
		two c = pair_rw(b, 1, 'W', Y, 1, 'W', X, 2, rw->sep[1]);
		xb_co(b, c.second, a.first);
		xb_co(b, a.second, c.first);
		break;
	}
	case CORR: { /* W x || R x=1; R x=0 */
		int wx = xb_w(b, 0, X, 1);
		int r0 = xb_r(b, 1, X, 1), r1 = xb_r(b, 1, X, 0);
		xb_rf(b, wx, r0);
		xb_rf(b, ix, r1);
		break;
	}
	}
	return xb_build(b);
}

/* ---- running the models ----------------------------------------------------------------------- */

static cat_model *load(const char *dir, const char *name)
{
	const char *dirs[] = { dir, WEFT_SOURCE_CATDIR };
	cat_search_path sp = { dir ? 2 : 1, dir ? dirs : dirs + 1 };
	captured c;
	capture_begin(&c);
	cat_model *m = cat_model_load(name, &(cat_load_options){ .search = &sp }, &c.d);
	const char *msgs = capture_end(&c);
	CHECK(m != NULL, "model %s%s%s does not load: %s", dir ? dir : "", dir ? "/" : "", name, msgs);
	capture_free(&c);
	return m;
}

/* The failing check's name, "-" when allowed, "ERROR" on an evaluation error. */
static const char *judge(cat_model *m, const execution *x, const char *what)
{
	cat_verdict v;
	captured c;
	capture_begin(&c);
	bool ok = cat_model_check(m, x, &v, &c.d);
	const char *msgs = capture_end(&c);
	CHECK(ok, "%s: evaluation error: %s", what, msgs);
	capture_free(&c);
	if (!ok)
		return "ERROR";
	CHECK(v.allowed == (v.failed == NULL), "%s: verdict consistent", what);
	CHECK(v.n_flags == 0, "%s: no flag expected, got %d", what, v.n_flags);
	return v.failed ? v.failed : "-";
}

static void expect(cat_model *m, const execution *x, const row *rw, const char *model, const char *want,
                   const char **got_out)
{
	*got_out = NULL;
	if (!m || !want)
		return;
	char what[128];
	snprintf(what, sizeof what, "%s %s under %s", rw->arch, rw->name, model);
	const char *got = judge(m, x, what);
	CHECK(!strcmp(got, want), "%s: failed check '%s', want '%s'", what, got, want);
	*got_out = got;
}

int main(void)
{
	cat_model *sc = load(NULL, "sc"), *tso = load(NULL, "tso"), *power = load(NULL, "power");
	/* The aliases name the same models. */
	cat_model *ppc_alias = load(NULL, "ppc"), *x86_alias = load(NULL, "x86tso");
	if (ppc_alias && power)
		CHECK(!strcmp(cat_model_name(ppc_alias), cat_model_name(power)), "ppc is an alias of power");
	if (x86_alias && tso)
		CHECK(!strcmp(cat_model_name(x86_alias), cat_model_name(tso)), "x86tso is an alias of tso");
	cat_model_free(ppc_alias);
	cat_model_free(x86_alias);

	const char *herd = herd_cat_dir("test_cat_models");
	cat_model *hsc = NULL, *hppc = NULL, *hx86 = NULL, *hmixed = NULL;
	if (herd) {
		hsc = load(herd, "sc.cat");
		hppc = load(herd, "ppc.cat");
		hx86 = load(herd, "x86tso.cat");
		hmixed = load(herd, "x86tso-mixed.cat");
		/* herd's files are found first when their folder leads the path. */
		if (hppc)
			CHECK(!strcmp(cat_model_name(hppc), "PPC"), "herd's ppc.cat title '%s'", cat_model_name(hppc));
		if (hmixed)
			CHECK(!strcmp(cat_model_name(hmixed), "x86 TSO Mixed"), "herd's x86tso-mixed.cat title");
		/* herd's four models load (with their includes: stdlib, cos,
		 * cross, fences, filters, ppo, ppc-checks, ...) with all their
		 * checks and flags. */
		if (hsc)
			CHECK(cat_model_n_checks(hsc) == 5, "herd sc.cat: %d checks", cat_model_n_checks(hsc));
		if (hppc)
			CHECK(cat_model_n_checks(hppc) == 6, "herd ppc.cat: %d checks", cat_model_n_checks(hppc));
		if (hx86)
			CHECK(cat_model_n_checks(hx86) == 3, "herd x86tso.cat: %d checks", cat_model_n_checks(hx86));
		if (hmixed)
			CHECK(cat_model_n_checks(hmixed) == 3, "herd x86tso-mixed.cat: %d checks", cat_model_n_checks(hmixed));
		/* The included fragments are checkable on their own when they do
		 * not depend on their includer. */
		const char *alone[] = { "stdlib.cat", "cos.cat", "cross.cat", "fences.cat", "filters.cat",
		                        "x86fences.cat", "ppcfences.cat", "armfences.cat", "aarch64fences.cat",
		                        "tso.cat" };
		for (size_t k = 0; k < sizeof alone / sizeof alone[0]; k++) {
			char *path = xasprintf("%s/%s", herd, alone[k]);
			const char *dirs[] = { WEFT_SOURCE_CATDIR };
			cat_search_path sp = { 1, dirs };
			captured c;
			capture_begin(&c);
			bool ok = cat_check_file(path, &(cat_load_options){ .search = &sp }, &c.d);
			const char *msgs = capture_end(&c);
			CHECK(ok, "herd's %s: %s", alone[k], msgs);
			capture_free(&c);
			free(path);
		}
	}

	int agree = 0, compared = 0;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const row *rw = &rows[i];
		xb b;
		execution *x = build(&b, rw);
		bool ppc = !strcmp(rw->arch, "PPC");
		const char *g_sc, *g_hsc, *g_ours, *g_herd, *g_mixed;
		expect(sc, x, rw, "sc", rw->sc, &g_sc);
		expect(hsc, x, rw, "herd sc.cat", rw->herd_sc, &g_hsc);
		expect(ppc ? power : tso, x, rw, ppc ? "power" : "tso", rw->ours, &g_ours);
		expect(ppc ? hppc : hx86, x, rw, ppc ? "herd ppc.cat" : "herd x86tso.cat", rw->herd, &g_herd);
		if (!ppc)
			expect(hmixed, x, rw, "herd x86tso-mixed.cat", rw->herd_mixed, &g_mixed);
		/* Agreement of verdicts, ours against herd's. */
		if (g_sc && g_hsc) {
			compared++;
			agree += (!strcmp(g_sc, "-")) == (!strcmp(g_hsc, "-"));
			CHECK((!strcmp(g_sc, "-")) == (!strcmp(g_hsc, "-")), "%s %s: sc and herd's sc.cat disagree",
			      rw->arch, rw->name);
		}
		if (g_ours && g_herd) {
			compared++;
			agree += (!strcmp(g_ours, "-")) == (!strcmp(g_herd, "-"));
			CHECK((!strcmp(g_ours, "-")) == (!strcmp(g_herd, "-")), "%s %s: %s and herd's model disagree",
			      rw->arch, rw->name, ppc ? "power" : "tso");
		}
		if (!ppc && g_ours && hmixed && g_mixed)
			CHECK((!strcmp(g_ours, "-")) == (!strcmp(g_mixed, "-")), "%s %s: tso and x86tso-mixed disagree",
			      rw->arch, rw->name);
		/* A relaxed outcome allowed by a weaker model may be forbidden by a
		 * stronger one, never the reverse: SC forbids all these shapes. */
		if (g_sc && g_ours)
			CHECK(strcmp(g_sc, "-") != 0 || !strcmp(g_ours, "-"), "%s %s: allowed by sc but not by %s",
			      rw->arch, rw->name, ppc ? "power" : "tso");
		/* The same events with other rf and co (every read from the last
		 * write of its location, co reversed): a model that judged the row
		 * just before keeps its static values (po, fences, dependencies);
		 * it must judge exactly as a freshly loaded one. */
		xb b2 = b;
		b2.built = false;
		b2.nedges = 0;
		for (int k = 0; k < b.nedges; k++)
			if (b.edges[k].rel != 'f' && b.edges[k].rel != 'c')
				b2.edges[b2.nedges++] = b.edges[k];
		for (int r = 0; r < b2.n; r++) {
			if (b2.ev[r].kind != EV_READ)
				continue;
			int last = -1;
			for (int w = 0; w < b2.n; w++)
				if (b2.ev[w].kind == EV_WRITE && b2.ev[w].loc == b2.ev[r].loc)
					last = w;
			xb_rf(&b2, last, r);
		}
		for (int w1 = 0; w1 < b2.n; w1++)
			for (int w2 = w1 + 1; w2 < b2.n; w2++)
				if (b2.ev[w1].kind == EV_WRITE && b2.ev[w2].kind == EV_WRITE && b2.ev[w1].loc == b2.ev[w2].loc &&
				    !(b2.ev[w1].flags & EVF_INIT) && !(b2.ev[w2].flags & EVF_INIT))
					xb_co(&b2, w2, w1);
		execution *x2 = xb_build(&b2);
		x2->test = x->test; /* the same test: the static part is the same */
		cat_model *warm[] = { sc, ppc ? power : tso, hsc, ppc ? hppc : hx86 };
		const char *names[] = { "sc", ppc ? "power" : "tso", "sc.cat", ppc ? "ppc.cat" : "x86tso.cat" };
		for (int k = 0; k < 4; k++) {
			if (!warm[k])
				continue;
			cat_model *fresh = load(k < 2 ? NULL : herd, names[k]);
			if (!fresh)
				continue;
			const char *a = judge(warm[k], x2, "warm model");
			const char *c = judge(fresh, x2, "fresh model");
			CHECK(!strcmp(a, c), "%s %s (other rf/co) under %s: warm model says %s, fresh %s", rw->arch,
			      rw->name, names[k], a, c);
			/* And back to the row's own execution. */
			CHECK(!strcmp(judge(warm[k], x, "warm model"), judge(fresh, x, "fresh model")),
			      "%s %s under %s: warm and fresh disagree on the way back", rw->arch, rw->name, names[k]);
			cat_model_free(fresh);
		}
		xb_free(&b2);
		xb_free(&b);
	}
	if (herd)
		printf("test_cat_models: ours and herd's agree on %d of %d row/model pairs\n", agree, compared);
	cat_model_free(sc);
	cat_model_free(tso);
	cat_model_free(power);
	cat_model_free(hsc);
	cat_model_free(hppc);
	cat_model_free(hx86);
	cat_model_free(hmixed);
	return test_summary("test_cat_models");
}
