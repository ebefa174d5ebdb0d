/* test_rsmc.c — the RSMC engine: which commit-before order each model gets,
 * the orders themselves on small programs, and the engine against the
 * enumerator (same states, counts and flags) on shapes that exercise
 * fences, dependencies, branches, atomics and store-conditionals. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/rsmc/rsmc.h"
#include "litmus/litmus.h"

static int failures;

#define CHECK(cond, ...)                                                         \
	do {                                                                     \
		if (!(cond)) {                                                   \
			fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
			fprintf(stderr, __VA_ARGS__);                            \
			fputc('\n', stderr);                                     \
			failures++;                                              \
		}                                                                \
	} while (0)

static litmus_test *parse(const char *text)
{
	diag d = { .out = stderr };
	litmus_test *t = litmus_parse_string("test.litmus", text, &d);
	CHECK(t != NULL, "litmus text does not parse:\n%s", text);
	return t;
}

static cat_model *load(const char *name)
{
	const char *dirs[] = { WEFT_SOURCE_CATDIR };
	cat_search_path sp = { 1, dirs };
	diag d = { .out = stderr };
	cat_model *m = cat_model_load(name, &(cat_load_options){ .search = &sp }, &d);
	CHECK(m != NULL, "model %s does not load", name);
	return m;
}

/* ---- which order for which model ---------------------------------------------------- */

static void test_kinds(void)
{
	/* our models declare their orders, which cb.c recognises as built-in
	 * ones, and are proven (their fingerprints are in cb.c's table) */
	static const struct { const char *model; enum cb_kind kind; } ours[] = {
		{ "power", CB_POWER }, { "tso", CB_TSO }, { "sc", CB_SC },
	};
	for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++) {
		cat_model *m = load(ours[i].model);
		if (!m)
			continue;
		diag d = { .out = stderr };
		cb_order o;
		cb_order_init(&o, NULL, m, &d);
		CHECK(o.kind == ours[i].kind, "%s: order %s", ours[i].model, cb_kind_name(o.kind));
		CHECK(o.declared && o.proven,
		      "%s: declared %d proven %d: if you edited cat/%s.cat, put its new fingerprint %s "
		      "in cb.c's proven_models (after checking the corpus)",
		      ours[i].model, o.declared, o.proven, ours[i].model, cat_model_fingerprint(m));
		cb_order_free(&o);
		cat_model_free(m);
	}
	enum cb_kind k = CB_GENERIC;
	CHECK(cb_declared_kind("(po|rf)", &k) && k == CB_SC, "po|rf");
	CHECK(!cb_declared_kind("(rf|po)", &k), "a declaration is recognised by its text only");
	CHECK(!cb_declared_kind(NULL, &k), "no canonical text");
	CHECK(!cb_proven_kind("00000000000000000000000000000000", &k), "an unknown fingerprint");
	cb_order none;
	cb_order_init(&none, NULL, NULL, NULL);
	CHECK(none.kind == CB_SC && !none.proven, "no model");
}

/* cb_static.c: a cycle of the order is possible in a test exactly where
 * dependencies (or po) and rf can close one. */
static void test_static_cycles(void)
{
	static const char lb_datas[] =
		"PPC LB+datas\n"
		"{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }\n"
		" P0           | P1           ;\n"
		" lwz r1,0(r2) | lwz r1,0(r2) ;\n"
		" stw r1,0(r4) | stw r1,0(r4) ;\n"
		"exists (0:r1=1 /\\ 1:r1=1)\n";
	static const char lb[] =
		"PPC LB\n"
		"{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; 0:r3=1; 1:r3=1; }\n"
		" P0           | P1           ;\n"
		" lwz r1,0(r2) | lwz r1,0(r2) ;\n"
		" stw r3,0(r4) | stw r3,0(r4) ;\n"
		"exists (0:r1=1 /\\ 1:r1=1)\n";
	static const char mp_addr[] =
		"PPC MP+addr\n"
		"{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; 0:r1=1; }\n"
		" P0           | P1              ;\n"
		" stw r1,0(r2) | lwz r1,0(r2)    ;\n"
		" stw r1,0(r4) | xor r3,r1,r1    ;\n"
		"              | lwzx r5,r3,r4   ;\n"
		"exists (1:r1=1 /\\ 1:r5=0)\n";
	litmus_test *t = parse(lb_datas);
	if (t) {
		CHECK(cb_may_cycle(CB_GENERIC, t, 2, 0), "LB+datas: data and rf close a cycle");
		CHECK(cb_may_cycle(CB_SC, t, 2, 0), "LB+datas under po | rf");
		litmus_test_free(t);
	}
	t = parse(lb);
	if (t) {
		CHECK(!cb_may_cycle(CB_GENERIC, t, 2, 0), "LB without dependencies: no generic cycle");
		CHECK(cb_may_cycle(CB_SC, t, 2, 0), "LB under po | rf");
		CHECK(cb_may_cycle(CB_TSO, t, 2, 0), "LB under TSO: R->W is in the order");
		litmus_test_free(t);
	}
	t = parse(mp_addr);
	if (t) {
		CHECK(!cb_may_cycle(CB_POWER, t, 2, 0), "MP+addr: rf only goes forward");
		CHECK(!cb_may_cycle(CB_SC, t, 2, 0), "MP+addr under po | rf");
		litmus_test_free(t);
	}
}

/* ---- the orders on the initial state of a program ------------------------------------- */

/* cb over the fetched events of the initial state of t (no commits). */
static bool cb_has(const litmus_test *t, enum cb_kind k, eref a, eref b)
{
	rstate s;
	rsmc_state_init(&s, t);
	rsmc_warned w = { 0 };
	diag d = { .out = stderr };
	for (int i = 0; i < t->n_threads; i++)
		rsmc_thread_eval(t, &s, i, 2, 0, &w, &d);
	interp_warned_free(&w);
	cb_graph g;
	cb_compute(k, &s, &g);
	bool has = a.k < s.th[a.t].n_ev && b.k < s.th[b.t].n_ev && brel_has(&g.rel, cb_index(&g, a), cb_index(&g, b));
	cb_free(&g);
	rsmc_state_free(&s);
	return has;
}

static const char *ppc_orders =
	"PPC orders\n"
	"{ 0:r2=x; 0:r4=y; 0:r6=z; }\n"
	" P0 ;\n"
	" stw r1,0(r2) ;\n"   /* 0: W x */
	" lwz r3,0(r4) ;\n"   /* 1: R y */
	" lwsync ;\n"         /* 2: F   */
	" stw r1,0(r6) ;\n"   /* 3: W z */
	" lwz r5,0(r3) ;\n"   /* 4: R [r3] (address from the load 1) */
	" stw r1,0(r2) ;\n"   /* 5: W x */
	"exists (0:r3=0)\n";

static void test_orders_ppc(void)
{
	litmus_test *t = parse(ppc_orders);
	if (!t)
		return;
	eref w0 = { 0, 0 }, r1 = { 0, 1 }, w3 = { 0, 3 }, r4 = { 0, 4 }, w5 = { 0, 5 };
	/* POWER: W->R not ordered without a fence; lwsync orders across */
	CHECK(!cb_has(t, CB_POWER, w0, r1), "power: W x; R y unordered");
	CHECK(cb_has(t, CB_POWER, w0, w3), "power: lwsync orders W before W");
	CHECK(cb_has(t, CB_POWER, r1, w3), "power: lwsync orders R before W");
	CHECK(cb_has(t, CB_POWER, r1, r4), "power: addr");
	CHECK(cb_has(t, CB_POWER, r1, w5), "power: addr;po (and lwsync)");
	CHECK(cb_has(t, CB_POWER, w0, w5), "power: po-loc");
	CHECK(!cb_has(t, CB_POWER, w3, w5), "power: W z; W x unordered");
	/* SC: all of po */
	CHECK(cb_has(t, CB_SC, w0, r1), "sc: po W->R");
	CHECK(cb_has(t, CB_SC, w3, w5), "sc: po W->W");
	/* generic: no fence pairs */
	CHECK(!cb_has(t, CB_GENERIC, w0, w3), "generic: lwsync ignored");
	CHECK(cb_has(t, CB_GENERIC, r1, w5), "generic: addr;po");
	CHECK(cb_has(t, CB_GENERIC, w0, w5), "generic: po-loc");
	litmus_test_free(t);
}

static const char *x86_orders =
	"X86 orders\n"
	"{ }\n"
	" P0 ;\n"
	" MOV [x],$1 ;\n"     /* 0: W x */
	" MOV EAX,[y] ;\n"    /* 1: R y */
	" MOV [z],$1 ;\n"     /* 2: W z */
	" MFENCE ;\n"         /* 3: F   */
	" MOV EBX,[x] ;\n"    /* 4: R x */
	" MOV [y],$2 ;\n"     /* 5: W y */
	" MOV ECX,[z] ;\n"    /* 6: R z */
	"exists (0:EAX=0)\n";

static void test_orders_tso(void)
{
	litmus_test *t = parse(x86_orders);
	if (!t)
		return;
	eref w0 = { 0, 0 }, r1 = { 0, 1 }, w2 = { 0, 2 }, r4 = { 0, 4 }, w5 = { 0, 5 }, r6 = { 0, 6 };
	CHECK(!cb_has(t, CB_TSO, w0, r1), "tso: W->R relaxed");
	CHECK(cb_has(t, CB_TSO, r1, w2), "tso: R->W kept");
	CHECK(cb_has(t, CB_TSO, w0, w2), "tso: W->W kept");
	CHECK(cb_has(t, CB_TSO, w2, r4), "tso: MFENCE orders W->R");
	CHECK(!cb_has(t, CB_TSO, w5, r6), "tso: W y -> R z relaxed");
	CHECK(cb_has(t, CB_TSO, w0, r4), "tso: po-loc W->R (and fence)");
	CHECK(cb_has(t, CB_SC, w5, r6), "sc: W->R kept");
	litmus_test_free(t);
}

static const char *x86_xchg =
	"X86 xchg\n"
	"{ }\n"
	" P0 ;\n"
	" MOV [x],$1 ;\n"      /* 0: W x */
	" XCHG [y],EAX ;\n"    /* 1: R y, 2: W y (atomic) */
	" MOV EBX,[z] ;\n"     /* 3: R z */
	"exists (0:EAX=0)\n";

static void test_orders_atomic(void)
{
	litmus_test *t = parse(x86_xchg);
	if (!t)
		return;
	eref w0 = { 0, 0 }, r1 = { 0, 1 }, w2 = { 0, 2 }, r3 = { 0, 3 };
	CHECK(cb_has(t, CB_TSO, r1, w2), "tso: the read of an xchg before its write");
	CHECK(cb_has(t, CB_TSO, w0, r1), "tso: W before an atomic R");
	CHECK(cb_has(t, CB_TSO, w2, r3), "tso: an atomic W before a later R");
	CHECK(cb_has(t, CB_POWER, r1, w2), "any order: the read of an xchg before its write");
	litmus_test_free(t);
}

/* ---- the engine against the enumerator --------------------------------------------------- */

static bool same_results(const test_result *a, const test_result *b, char *why, size_t n)
{
	if (a->pos != b->pos || a->neg != b->neg || a->n_states != b->n_states || a->loop != b->loop ||
	    a->stats.complete != b->stats.complete || a->n_flags != b->n_flags) {
		snprintf(why, n, "pos %ld/%ld neg %ld/%ld states %d/%d loop %d/%d complete %ld/%ld flags %d/%d",
		         a->pos, b->pos, a->neg, b->neg, a->n_states, b->n_states, a->loop, b->loop,
		         a->stats.complete, b->stats.complete, a->n_flags, b->n_flags);
		return false;
	}
	for (int i = 0; i < a->n_flags; i++)
		if (strcmp(a->flags[i], b->flags[i]) != 0) {
			snprintf(why, n, "flag %s/%s", a->flags[i], b->flags[i]);
			return false;
		}
	for (int i = 0; i < a->n_states; i++) {
		bool found = false;
		for (int j = 0; j < b->n_states && !found; j++) {
			bool eq = a->states[i].count == b->states[j].count;
			for (int v = 0; v < a->n_lvals && eq; v++)
				eq = value_eq(a->states[i].vals[v], b->states[j].vals[v]);
			found = eq;
		}
		if (!found) {
			snprintf(why, n, "state %d of rsmc not found in enumerate's", i);
			return false;
		}
	}
	return true;
}

/* Run both engines on `text` under `model`; check they agree and return
 * the rsmc result's complete and blocked counts. */
static void compare(const char *text, const char *model, long want_complete, long *blocked)
{
	litmus_test *t = parse(text);
	cat_model *m = load(model);
	if (!t || !m)
		return;
	engine_opts o = { .timeout = 60, .stats = true, .unroll = 2 };
	diag d = { .out = stderr };
	test_result a, b;
	bool oka = engine_run("rsmc", t, m, &o, &a, &d);
	bool okb = engine_run("enumerate", t, m, &o, &b, &d);
	CHECK(oka && okb, "%s/%s: an engine failed", t->name, model);
	if (oka && okb) {
		char why[256];
		CHECK(same_results(&a, &b, why, sizeof why), "%s under %s: rsmc vs enumerate: %s", t->name, model, why);
		if (want_complete >= 0)
			CHECK(a.stats.complete == want_complete, "%s under %s: %ld complete executions, want %ld", t->name,
			      model, a.stats.complete, want_complete);
		if (blocked)
			*blocked = a.stats.blocked;
	}
	if (oka)
		test_result_free(&a);
	if (okb)
		test_result_free(&b);
	cat_model_free(m);
	litmus_test_free(t);
}

static const char *sb_ppc =
	"PPC SB\n"
	"{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }\n"
	" P0 | P1 ;\n"
	" li r1,1 | li r1,1 ;\n"
	" stw r1,0(r2) | stw r1,0(r2) ;\n"
	" lwz r3,0(r4) | lwz r3,0(r4) ;\n"
	"exists (0:r3=0 /\\ 1:r3=0)\n";

static const char *mp_lwsync_addr =
	"PPC MP+lwsync+addr\n"
	"{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }\n"
	" P0 | P1 ;\n"
	" li r1,1 | lwz r1,0(r2) ;\n"
	" stw r1,0(r2) | xor r3,r1,r1 ;\n"
	" lwsync | lwzx r5,r3,r4 ;\n"
	" stw r1,0(r4) | ;\n"
	"exists (1:r1=1 /\\ 1:r5=0)\n";

static const char *lb_ctrl =
	"PPC LB+ctrl+po\n"
	"{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }\n"
	" P0 | P1 ;\n"
	" lwz r1,0(r2) | lwz r1,0(r2) ;\n"
	" cmpwi r1,0 | li r3,1 ;\n"
	" beq L0 | stw r3,0(r4) ;\n"
	" L0: | ;\n"
	" li r3,1 | ;\n"
	" stw r3,0(r4) | ;\n"
	"exists (0:r1=1 /\\ 1:r1=1)\n";

static const char *corr_2w =
	"PPC 2+2W+CoRR\n"
	"{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; 2:r2=x; }\n"
	" P0 | P1 | P2 ;\n"
	" li r1,1 | li r1,1 | lwz r1,0(r2) ;\n"
	" stw r1,0(r2) | stw r1,0(r2) | lwz r3,0(r2) ;\n"
	" li r3,2 | li r3,2 | ;\n"
	" stw r3,0(r4) | stw r3,0(r4) | ;\n"
	"exists (x=2 /\\ y=2 /\\ 2:r1=2 /\\ 2:r3=1)\n";

static const char *lwarx_stwcx =
	"PPC ATOM\n"
	"{ 0:r2=x; 1:r2=x; }\n"
	" P0 | P1 ;\n"
	" lwarx r1,r0,r2 | li r3,5 ;\n"
	" addi r1,r1,1 | stw r3,0(r2) ;\n"
	" stwcx. r1,r0,r2 | ;\n"
	"exists (x=1 /\\ 0:r1=1)\n";

static const char *loop_ppc =
	"PPC LOOP\n"
	"{ 0:r2=x; 1:r2=x; }\n"
	" P0 | P1 ;\n"
	" L0: | li r1,1 ;\n"
	" lwz r1,0(r2) | stw r1,0(r2) ;\n"
	" cmpwi r1,0 | ;\n"
	" beq L0 | ;\n"
	"exists (0:r1=1)\n";

static const char *sb_x86_xchg =
	"X86 SB+xchg\n"
	"{ }\n"
	" P0 | P1 ;\n"
	" MOV EAX,$1 | MOV EAX,$1 ;\n"
	" XCHG [x],EAX | MOV [y],$1 ;\n"
	" MOV EBX,[y] | MOV EBX,[x] ;\n"
	"exists (0:EBX=0 /\\ 1:EBX=0)\n";

static const char *iriw_x86 =
	"X86 IRIW\n"
	"{ }\n"
	" P0 | P1 | P2 | P3 ;\n"
	" MOV [x],$1 | MOV EAX,[x] | MOV [y],$1 | MOV EAX,[y] ;\n"
	" | MOV EBX,[y] | | MOV EBX,[x] ;\n"
	"exists (1:EAX=1 /\\ 1:EBX=0 /\\ 3:EAX=1 /\\ 3:EBX=0)\n";

static void test_against_enumerate(void)
{
	const char *models[] = { "power", "tso", "sc" };
	const char *ppc[] = { sb_ppc, mp_lwsync_addr, lb_ctrl, corr_2w, lwarx_stwcx, loop_ppc };
	const char *x86[] = { sb_x86_xchg, iriw_x86 };
	for (size_t i = 0; i < sizeof ppc / sizeof ppc[0]; i++)
		for (size_t k = 0; k < 3; k++)
			compare(ppc[i], models[k], -1, NULL);
	for (size_t i = 0; i < sizeof x86 / sizeof x86[0]; i++)
		for (size_t k = 1; k < 3; k++)
			compare(x86[i], models[k], -1, NULL);
	/* counts by hand: SB has 4 executions under power and tso, 3 under
	 * sc (SB+xchg: 4 under tso, P1 has no fence); and power's with cbPOWER never block on these */
	long blocked = -1;
	compare(sb_ppc, "power", 4, &blocked);
	CHECK(blocked == 0, "SB under power: %ld blocked runs", blocked);
	compare(sb_ppc, "sc", 3, NULL);
	compare(sb_x86_xchg, "tso", 4, NULL); /* P1 alone may reorder */
	compare(iriw_x86, "tso", 15, NULL);
}

int main(void)
{
	test_kinds();
	test_static_cycles();
	test_orders_ppc();
	test_orders_tso();
	test_orders_atomic();
	test_against_enumerate();
	if (failures) {
		fprintf(stderr, "test_rsmc: %d failures\n", failures);
		return 1;
	}
	printf("test_rsmc: ok\n");
	return 0;
}
