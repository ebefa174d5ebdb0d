/* test_engine.c — the enumerate engine on hand-built programs: how many
 * candidate executions, which final states, which dependencies, loops. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "engine/paths.h"
#include "engine/value_eqs.h"
#include "litmus/litmus.h"
#include "test_build.h"

static int failures;

#define CHECK(cond)                                                                   \
	do {                                                                          \
		if (!(cond)) {                                                        \
			fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			failures++;                                                   \
		}                                                                     \
	} while (0)

static diag quiet_diag(void)
{
	diag d = { .out = NULL };
	d.out = fopen("/dev/null", "w");
	return d;
}

static void close_diag(diag *d)
{
	if (d->out)
		fclose(d->out);
}

static bool run(const litmus_test *t, test_result *r, double timeout)
{
	engine_opts o = { .timeout = timeout, .stats = true, .unroll = 2 };
	diag d = quiet_diag();
	bool ok = engine_run("enumerate", t, NULL, &o, r, &d);
	close_diag(&d);
	return ok;
}

static long state_count(const test_result *r, const value *want)
{
	for (int s = 0; s < r->n_states; s++) {
		bool same = true;
		for (int i = 0; i < r->n_lvals; i++)
			same &= value_eq(r->states[s].vals[i], want[i]);
		if (same)
			return r->states[s].count;
	}
	return 0;
}

/* SB: x=1; r0=y || y=1; r0=x.  Every model-free candidate: each load reads
 * the initial or the other thread's write, one coherence order each. */
static void test_store_buffering(void)
{
	litmus_test *t = tb_test("PPC", "SB", 2);
	int x = tb_loc(t, "x"), y = tb_loc(t, "y");
	int r0 = tb_reg(&t->threads[0], "r0"), r1 = tb_reg(&t->threads[1], "r0");
	tb_store_imm(&t->threads[0], "stw x", x, 1);
	tb_load(&t->threads[0], "lwz y", r0, y);
	tb_store_imm(&t->threads[1], "stw y", y, 1);
	tb_load(&t->threads[1], "lwz x", r1, x);
	t->quant = Q_EXISTS;
	t->cond = tb_cond(COND_AND, tb_eq_reg(0, r0, 0), tb_eq_reg(1, r1, 0));
	test_result r;
	CHECK(run(t, &r, 0));
	CHECK(r.stats.candidates == 4);
	CHECK(r.n_states == 4);
	CHECK(r.pos == 1 && r.neg == 3);
	CHECK(r.n_lvals == 2);
	CHECK(!r.loop && !r.timed_out);
	value both0[2] = { value_int(0), value_int(0) };
	value both1[2] = { value_int(1), value_int(1) };
	CHECK(state_count(&r, both0) == 1);
	CHECK(state_count(&r, both1) == 1);
	for (int s = 0; s < r.n_states; s++)
		CHECK(r.states[s].holds == (value_eq(r.states[s].vals[0], value_int(0)) &&
		                            value_eq(r.states[s].vals[1], value_int(0))));
	test_result_free(&r);
	tb_free(t);
}

/* Three writes to x (two in P0, one in P1): 3! coherence orders, the
 * final value being the co-last write. */
static void test_coherence_orders(void)
{
	litmus_test *t = tb_test("PPC", "W3", 2);
	int x = tb_loc(t, "x");
	tb_store_imm(&t->threads[0], "stw 1", x, 1);
	tb_store_imm(&t->threads[0], "stw 2", x, 2);
	tb_store_imm(&t->threads[1], "stw 3", x, 3);
	t->quant = Q_FORALL;
	t->cond = tb_eq_mem(x, value_int(3));
	test_result r;
	CHECK(run(t, &r, 0));
	CHECK(r.stats.candidates == 6);
	CHECK(r.n_states == 3);
	CHECK(r.pos == 2 && r.neg == 4);
	for (int s = 0; s < r.n_states; s++)
		CHECK(r.states[s].count == 2);
	test_result_free(&r);
	tb_free(t);
}

/* A load may only read a write of the same value: with x written 1 and 1
 * by two threads, the reader's value 1 has two sources. */
static void test_rf_same_value(void)
{
	litmus_test *t = tb_test("PPC", "RF2", 3);
	int x = tb_loc(t, "x");
	int r = tb_reg(&t->threads[2], "r1");
	tb_store_imm(&t->threads[0], "stw", x, 1);
	tb_store_imm(&t->threads[1], "stw", x, 1);
	tb_load(&t->threads[2], "lwz", r, x);
	t->quant = Q_EXISTS;
	t->cond = tb_eq_reg(2, r, 1);
	test_result res;
	CHECK(run(t, &res, 0));
	/* reads 0 (init) or 1 (two writers); times 2 co orders */
	CHECK(res.stats.candidates == 6);
	CHECK(res.pos == 4 && res.neg == 2);
	test_result_free(&res);
	tb_free(t);
}

/* Dependencies by taint: r1=y; r3=r1 xor r1; r4=[x+r3]; r5=1; [z]=r1;
 * cmp r1; beq L; L: [w]=r5. */
static void test_dependencies(void)
{
	litmus_test *t = tb_test("PPC", "DEPS", 1);
	thread *th = &t->threads[0];
	int x = tb_loc(t, "x"), y = tb_loc(t, "y"), z = tb_loc(t, "z"), w = tb_loc(t, "w");
	int r1 = tb_reg(th, "r1"), r3 = tb_reg(th, "r3"), r4 = tb_reg(th, "r4"), r5 = tb_reg(th, "r5");
	int cr = tb_reg(th, "cr0");
	tb_load(th, "lwz r1,y", r1, y);                  /* ev 0 */
	tb_instr(th, "xor r3,r1,r1");
	op *o = tb_op(th, OP_ALU);
	o->alu = ALU_XOR;
	o->dst = r3;
	o->a = tb_r(r1);
	o->b = tb_r(r1);
	tb_instr(th, "lwzx r4,r3,x");                   /* ev 1: addr from 0 */
	o = tb_op(th, OP_LOAD);
	o->dst = r4;
	o->addr = tb_at(tb_addr_of(x), tb_r(r3));
	tb_instr(th, "li r5,1");
	o = tb_op(th, OP_ALU);
	o->alu = ALU_MOV;
	o->dst = r5;
	o->a = tb_imm(1);
	tb_instr(th, "stw r1,z");                       /* ev 2: data from 0 */
	o = tb_op(th, OP_STORE);
	o->addr = tb_at(tb_addr_of(z), tb_none());
	o->a = tb_r(r1);
	tb_instr(th, "cmpw r1,r1");
	o = tb_op(th, OP_ALU);
	o->alu = ALU_CMP;
	o->dst = cr;
	o->a = tb_r(r1);
	o->b = tb_r(r1);
	tb_instr(th, "beq L");                          /* ev 3: branch */
	o = tb_op(th, OP_BRANCH);
	o->cond = BR_EQ;
	o->a = tb_r(cr);
	o->target = th->n_ops;
	o->label = xstrdup("L");
	tb_label(th, "L");
	tb_instr(th, "stw r5,w");                       /* ev 4: ctrl from 0 */
	o = tb_op(th, OP_STORE);
	o->addr = tb_at(tb_addr_of(w), tb_none());
	o->a = tb_r(r5);
	t->quant = Q_EXISTS;
	t->cond = tb_cond(COND_TRUE, NULL, NULL);

	path_set *ps = NULL;
	long rounds = 0;
	bool timed_out = false;
	diag d = quiet_diag();
	CHECK(paths_build(t, 2, 0, false, &ps, &rounds, &timed_out, NULL, &d));
	close_diag(&d);
	/* y holds only 0, x only 0: one path */
	CHECK(ps[0].n == 1);
	const thread_path *p = &ps[0].p[0];
	CHECK(p->n_ev == 5);
	CHECK(p->ev[0].kind == EV_READ && p->ev[0].loc == y);
	CHECK(p->ev[1].kind == EV_READ && p->ev[1].loc == x);
	CHECK(p->ev[2].kind == EV_WRITE && p->ev[2].loc == z);
	CHECK(p->ev[3].kind == EV_BRANCH);
	CHECK(p->ev[4].kind == EV_WRITE && p->ev[4].loc == w && value_eq(p->ev[4].val, value_int(1)));
	CHECK(p->addr.n == 1 && p->addr.e[0].from == 0 && p->addr.e[0].to == 1);
	CHECK(p->data.n == 1 && p->data.e[0].from == 0 && p->data.e[0].to == 2);
	CHECK(p->ctrl.n == 1 && p->ctrl.e[0].from == 0 && p->ctrl.e[0].to == 4);
	CHECK(value_eq(p->regs[r5], value_int(1)));
	paths_free(t, ps);
	tb_free(t);
}

/* A's retry loop: L: lwarx r4,z; stwcx. r4,z; bne L.  With unroll 2 the
 * store-conditional may fail twice and succeed, the third failure cuts the
 * path (herd's "Loop"). */
static litmus_test *retry_loop_test(void)
{
	litmus_test *t = tb_test("PPC", "RETRY", 1);
	thread *th = &t->threads[0];
	int z = tb_loc(t, "z");
	int r4 = tb_reg(th, "r4"), cr = tb_reg(th, "cr0");
	tb_label(th, "Loop");
	tb_instr(th, "lwarx r4,r0,z");
	op *o = tb_op(th, OP_LOAD);
	o->dst = r4;
	o->addr = tb_at(tb_addr_of(z), tb_none());
	o->flags = ACC_EXCL;
	tb_instr(th, "stwcx. r4,r0,z");
	o = tb_op(th, OP_STCOND);
	o->dst = cr;
	o->a = tb_r(r4);
	o->addr = tb_at(tb_addr_of(z), tb_none());
	o->flags = ACC_EXCL;
	tb_instr(th, "bne Loop");
	o = tb_op(th, OP_BRANCH);
	o->cond = BR_EQ;   /* cr0 = 1 on success: loop while it is 0 */
	o->a = tb_r(cr);
	o->target = 0;
	o->label = xstrdup("Loop");
	t->quant = Q_EXISTS;
	t->cond = tb_eq_mem(z, value_int(0));
	return t;
}

static void test_unroll(void)
{
	litmus_test *t = retry_loop_test();
	path_set *ps = NULL;
	long rounds = 0;
	bool timed_out = false;
	diag d = quiet_diag();
	CHECK(paths_build(t, 2, 0, false, &ps, &rounds, &timed_out, NULL, &d));
	close_diag(&d);
	CHECK(ps[0].n == 4);
	int cut = 0, stores = 0;
	for (int i = 0; i < ps[0].n; i++) {
		cut += ps[0].p[i].toofar;
		for (int k = 0; k < ps[0].p[i].n_ev; k++)
			stores += ps[0].p[i].ev[k].kind == EV_WRITE;
	}
	CHECK(cut == 1);
	CHECK(stores == 3);
	paths_free(t, ps);

	test_result r;
	CHECK(run(t, &r, 0));
	CHECK(r.loop);
	/* No model: each lwarx reads the initial write (never the stwcx. that
	 * comes after it): one execution for 1, 2 and 3 iterations. */
	CHECK(r.pos == 3 && r.neg == 0);
	CHECK(r.stats.toofar == 1);
	test_result_free(&r);

	/* unroll 1: one retry only */
	engine_opts o = { .timeout = 0, .stats = false, .unroll = 1 };
	d = quiet_diag();
	CHECK(engine_run("enumerate", t, NULL, &o, &r, &d));
	close_diag(&d);
	CHECK(r.pos == 2 && r.loop);
	test_result_free(&r);
	tb_free(t);
}

/* xchg: the read and the write of one instruction are one instance (not
 * po-ordered), the read never reads that write, and they form an rmw. */
static void test_atomic_instruction(void)
{
	litmus_test *t = tb_test("X86", "XCHG", 1);
	thread *th = &t->threads[0];
	int x = tb_loc(t, "x");
	int eax = tb_reg(th, "EAX");
	tb_instr(th, "MOV EAX,$1");
	op *o = tb_op(th, OP_ALU);
	o->alu = ALU_MOV;
	o->dst = eax;
	o->a = tb_imm(1);
	tb_instr(th, "XCHG [x],EAX");
	o = tb_op(th, OP_LOAD);
	o->dst = tb_reg(th, "tmp");
	o->addr = tb_at(tb_addr_of(x), tb_none());
	o->flags = ACC_ATOMIC;
	o = tb_op(th, OP_STORE);
	o->a = tb_r(eax);
	o->addr = tb_at(tb_addr_of(x), tb_none());
	o->flags = ACC_ATOMIC;
	o = tb_op(th, OP_ALU);
	o->alu = ALU_MOV;
	o->dst = eax;
	o->a = tb_r(1);
	t->quant = Q_EXISTS;
	t->cond = tb_eq_reg(0, eax, 0);
	path_set *ps = NULL;
	long rounds = 0;
	bool timed_out = false;
	diag d = quiet_diag();
	CHECK(paths_build(t, 2, 0, false, &ps, &rounds, &timed_out, NULL, &d));
	close_diag(&d);
	/* x may hold 0 or 1: two paths, the read and write share an instance */
	CHECK(ps[0].n == 2);
	CHECK(ps[0].p[0].n_ev == 2 && ps[0].p[0].ev[0].instance == ps[0].p[0].ev[1].instance);
	paths_free(t, ps);
	test_result r;
	CHECK(run(t, &r, 0));
	/* only the path reading 0 has a source (the initial write) */
	CHECK(r.stats.candidates == 1 && r.pos == 1);
	test_result_free(&r);
	tb_free(t);
}

/* Two threads increment x: the value sets grow without end (each round
 * adds x+1), the fixpoint stops once no execution can need more values,
 * without a warning. */
static void test_growing_values(void)
{
	litmus_test *t = tb_test("PPC", "COUNTER", 2);
	int x = tb_loc(t, "x");
	for (int i = 0; i < 2; i++) {
		thread *th = &t->threads[i];
		int r1 = tb_reg(th, "r1");
		tb_load(th, "lwz r1,0(r2)", r1, x);
		tb_instr(th, "addi r1,r1,1");
		op *o = tb_op(th, OP_ALU);
		o->alu = ALU_ADD;
		o->dst = r1;
		o->a = tb_r(r1);
		o->b = tb_imm(1);
		tb_instr(th, "stw r1,0(r2)");
		o = tb_op(th, OP_STORE);
		o->addr = tb_at(tb_addr_of(x), tb_none());
		o->a = tb_r(r1);
	}
	t->quant = Q_EXISTS;
	t->cond = tb_eq_mem(x, value_int(1));
	engine_opts eo = { .timeout = 0, .stats = false, .unroll = 2 };
	diag d = quiet_diag();
	test_result r;
	CHECK(engine_run("enumerate", t, NULL, &eo, &r, &d));
	CHECK(d.warnings == 0);
	/* reads (0,0), (0,1), (1,0), each with two coherence orders */
	CHECK(r.stats.candidates == 6);
	CHECK(r.pos == 4 && r.neg == 2);
	CHECK(r.n_states == 2);
	test_result_free(&r);
	close_diag(&d);
	tb_free(t);
}

/* The filter drops executions before anything is counted. */
static void test_filter(void)
{
	litmus_test *t = tb_test("PPC", "FILTER", 2);
	int x = tb_loc(t, "x");
	int r = tb_reg(&t->threads[1], "r1");
	tb_store_imm(&t->threads[0], "stw", x, 1);
	tb_load(&t->threads[1], "lwz", r, x);
	t->quant = Q_EXISTS;
	t->cond = tb_eq_reg(1, r, 1);
	t->filter = tb_eq_reg(1, r, 0);
	test_result res;
	CHECK(run(t, &res, 0));
	CHECK(res.pos == 0 && res.neg == 1);
	/* the filter alone rejects thread 1's path that reads 1: the
	 * enumerator builds no candidate with it */
	CHECK(res.stats.candidates == 1 && res.stats.filtered == 0);
	test_result_free(&res);
	/* on memory it waits for whole candidates: x ends 1 in both */
	cond_free(t->filter);
	t->filter = tb_eq_mem(x, value_int(0));
	CHECK(run(t, &res, 0));
	CHECK(res.pos == 0 && res.neg == 0);
	CHECK(res.stats.candidates == 2 && res.stats.filtered == 2);
	test_result_free(&res);
	tb_free(t);
}

/* Odd programs do not crash: an integer used as an address (an error:
 * herd rejects the test), division by zero (a warning), a branch to the
 * end of the thread. */
static void test_odd_programs(void)
{
	litmus_test *t = tb_test("PPC", "ODD", 2);
	int x = tb_loc(t, "x");
	thread *a = &t->threads[0], *b = &t->threads[1];
	int r1 = tb_reg(a, "r1"), r2 = tb_reg(a, "r2");
	tb_instr(a, "lwz r1,0(r2)");      /* r2 = 0: not an address */
	op *o = tb_op(a, OP_LOAD);
	o->dst = r1;
	o->addr = tb_at(tb_r(r2), tb_none());
	int q = tb_reg(b, "r1");
	tb_instr(b, "divw r1,r1,r1");     /* 0 / 0 */
	o = tb_op(b, OP_ALU);
	o->alu = ALU_DIV;
	o->dst = q;
	o->a = tb_r(q);
	o->b = tb_r(q);
	tb_instr(b, "b end");
	o = tb_op(b, OP_BRANCH);
	o->cond = BR_ALWAYS;
	o->target = b->n_ops;
	t->quant = Q_EXISTS;
	t->cond = tb_eq_mem(x, value_int(0));
	engine_opts eo = { .timeout = 0, .stats = false, .unroll = 2 };
	diag d = quiet_diag();
	test_result r;
	CHECK(engine_run("enumerate", t, NULL, &eo, &r, &d));
	CHECK(d.errors == 1 && d.warnings >= 1);
	CHECK(r.stats.candidates == 0);
	test_result_free(&r);
	close_diag(&d);
	tb_free(t);
	(void)r1;
}

/* A timeout stops the run and says so. */
static void test_timeout(void)
{
	litmus_test *t = tb_test("PPC", "MANY", 6);
	int x = tb_loc(t, "x");
	for (int i = 0; i < 6; i++)
		tb_store_imm(&t->threads[i], "stw", x, i + 1);
	t->quant = Q_EXISTS;
	t->cond = tb_eq_mem(x, value_int(1));
	test_result r;
	CHECK(run(t, &r, 1e-9));
	CHECK(r.timed_out);
	CHECK(r.stats.candidates < 720);
	test_result_free(&r);
	CHECK(run(t, &r, 0));
	CHECK(!r.timed_out && r.stats.candidates == 720 && r.pos == 120);
	test_result_free(&r);
	tb_free(t);

	/* 3^16 paths for the reader: the deadline stops the path builder */
	t = tb_test("PPC", "PATHS", 2);
	x = tb_loc(t, "x");
	tb_store_imm(&t->threads[0], "stw", x, 1);
	tb_store_imm(&t->threads[0], "stw", x, 2);
	int r1 = tb_reg(&t->threads[1], "r1");
	for (int i = 0; i < 16; i++)
		tb_load(&t->threads[1], "lwz", r1, x);
	t->quant = Q_EXISTS;
	t->cond = tb_eq_reg(1, r1, 1);
	CHECK(run(t, &r, 0.05));
	CHECK(r.timed_out);
	test_result_free(&r);
	tb_free(t);
}

/* Over every combination of one path per thread of PPC test `text`, with
 * each load's candidates the writes of its location and value: how many
 * combinations have a write carrying a load's value (*carrying), and how
 * many may leave a value open (returned), as the enumerator decides
 * whether herd's value equations need judging. */
static int open_combinations(const char *text, int *carrying)
{
	diag d = quiet_diag();
	litmus_test *t = litmus_parse_string("veq.litmus", text, &d);
	CHECK(t != NULL);
	*carrying = 0;
	if (!t) {
		close_diag(&d);
		return 0;
	}
	path_set *ps = NULL;
	long rounds = 0;
	bool timed_out = false;
	CHECK(paths_build(t, 2, 0, true, &ps, &rounds, &timed_out, NULL, &d));
	veq_numbers nums;
	veq_numbers_build(t, ps, 2, &nums);
	int nt = t->n_threads, open = 0;
	int *at = calloc((size_t)nt, sizeof *at), *base = calloc((size_t)nt, sizeof *base);
	const thread_path **pick = calloc((size_t)nt, sizeof *pick);
	for (bool more = true; more;) {
		for (int i = 0; i < nt; i++)
			pick[i] = &ps[i].p[at[i]];
		execution x;
		paths_execution(t, pick, base, &x);
		if (veq_paths_carry_loads(t, pick)) {
			++*carrying;
			int n_loads = 0, *load_ev = calloc((size_t)x.n, sizeof *load_ev);
			int **cands = calloc((size_t)x.n, sizeof *cands), *n_cands = calloc((size_t)x.n, sizeof *n_cands);
			for (int e = 0; e < x.n; e++) {
				if (x.ev[e].kind != EV_READ)
					continue;
				cands[n_loads] = calloc((size_t)x.n, sizeof **cands);
				for (int w = 0; w < x.n; w++)
					if (x.ev[w].kind == EV_WRITE && x.ev[w].loc == x.ev[e].loc &&
					    value_eq(x.ev[w].val, x.ev[e].val))
						cands[n_loads][n_cands[n_loads]++] = w;
				load_ev[n_loads++] = e;
			}
			veq_frame f;
			veq_frame_build(&f, t, pick, base, &x, &nums);
			open += veq_may_leave_open(&f, &x, n_loads, load_ev, cands, n_cands);
			veq_frame_free(&f);
			for (int i = 0; i < n_loads; i++)
				free(cands[i]);
			free(cands);
			free(n_cands);
			free(load_ev);
		}
		execution_free(&x);
		int i = nt - 1;
		for (; i >= 0 && ++at[i] == ps[i].n; i--)
			at[i] = 0;
		more = i >= 0;
	}
	free(pick);
	free(base);
	free(at);
	veq_numbers_free(&nums);
	paths_free(t, ps);
	litmus_test_free(t);
	close_diag(&d);
	return open;
}

/* herd's value equations are judged only where a value may go round a
 * po u rf cycle: never when every store is a constant (MP, and LB+datas,
 * whose xor of a register with itself herd solves as 0), nor when a
 * load's value is stored on but cannot come back to a load it depends on
 * (WRC with a data dependency); but on LB with plain copies, whose values
 * may justify themselves. */
static void test_value_cycles(void)
{
	static const struct {
		const char *text;
		bool carries, opens;   /* some combination does */
	} cases[] = {
		{ "PPC MP\n{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }\nP0 | P1 ;\n"
		  "li r1,1 | lwz r1,0(r2) ;\nstw r1,0(r2) | lwz r3,0(r4) ;\nstw r1,0(r4) | ;\n"
		  "exists (1:r1=1 /\\ 1:r3=0)\n", false, false },
		{ "PPC LB+datas\n{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }\nP0 | P1 ;\n"
		  "lwz r1,0(r2) | lwz r1,0(r2) ;\nxor r9,r1,r1 | xor r9,r1,r1 ;\n"
		  "addi r9,r9,1 | addi r9,r9,1 ;\nstw r9,0(r4) | stw r9,0(r4) ;\n"
		  "exists (0:r1=1 /\\ 1:r1=1)\n", false, false },
		{ "PPC WRC+data\n{ 0:r2=x; 1:r2=x; 1:r4=y; 2:r2=y; 2:r4=x; }\nP0 | P1 | P2 ;\n"
		  "li r1,1 | lwz r1,0(r2) | lwz r1,0(r2) ;\nstw r1,0(r2) | addi r3,r1,1 | lwz r3,0(r4) ;\n"
		  " | stw r3,0(r4) | ;\nexists (1:r1=1 /\\ 2:r1=2 /\\ 2:r3=0)\n", true, false },
		{ "PPC LB+copies\n{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; }\nP0 | P1 ;\n"
		  "lwz r1,0(r2) | lwz r1,0(r2) ;\nstw r1,0(r4) | stw r1,0(r4) ;\n"
		  "exists (0:r1=0 /\\ 1:r1=0)\n", true, true },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int carrying;
		int open = open_combinations(cases[i].text, &carrying);
		if ((carrying > 0) != cases[i].carries || (open > 0) != cases[i].opens) {
			fprintf(stderr, "%s:%d: value cycles of case %zu: %d carrying, %d open\n", __FILE__, __LINE__,
				i, carrying, open);
			failures++;
		}
	}
}

static void test_unknown_engine(void)
{
	litmus_test *t = tb_test("PPC", "E", 1);
	test_result r;
	diag d = quiet_diag();
	engine_opts o = { .timeout = 0, .stats = false, .unroll = 2 };
	CHECK(!engine_run("nosuch", t, NULL, &o, &r, &d));
	CHECK(d.errors == 1);
	CHECK(engine_find("enumerate") && !engine_find("nosuch"));
	close_diag(&d);
	tb_free(t);
}

/* The registry: every name finds its own descriptor; one reference engine
 * (which the options need for -show, -skipchecks, -speedcheck) and one
 * default; every reason an engine may give has words. */
static void test_registry(void)
{
	strbuf all = { 0 };
	engine_names(&all, 0, ", ");
	CHECK(all.s && strstr(all.s, "enumerate") && strstr(all.s, "rsmc"));
	int n_ref = 0, n_default = 0, n = 0;
	for (char *name = strtok(all.s, ", "); name; name = strtok(NULL, ", ")) {
		const engine_desc *e = engine_find(name);
		CHECK(e && !strcmp(e->name, name) && e->run && e->title);
		if (!e)
			continue;
		n++;
		n_ref += !!(e->caps & ENGINE_REFERENCE);
		n_default += !!(e->caps & ENGINE_DEFAULT);
		CHECK(e->n_fallbacks <= ENGINE_FALLBACK_MAX);
		for (int why = 1; why < e->n_fallbacks; why++)
			CHECK(engine_fallback_reason(e, why) && *engine_fallback_reason(e, why));
		CHECK((e->caps & ENGINE_SKIPCHECKS) || e->no_skipchecks);
	}
	CHECK(n >= 3 && n_ref == 1 && n_default == 1);
	const engine_desc *ref = engine_with(ENGINE_REFERENCE);
	unsigned needed = ENGINE_EVERY_CANDIDATE | ENGINE_COUNTS | ENGINE_SKIPCHECKS | ENGINE_SPEEDCHECK;
	CHECK(ref && (ref->caps & needed) == needed && ref->n_fallbacks == 0);
	CHECK(engine_with(ENGINE_DEFAULT) != NULL);
	sb_free(&all);
	strbuf two = { 0 };
	engine_names(&two, ENGINE_SPEEDCHECK, " or ");
	CHECK(two.s && strstr(two.s, " or "));
	sb_free(&two);
}

int main(void)
{
	test_registry();
	test_store_buffering();
	test_coherence_orders();
	test_rf_same_value();
	test_dependencies();
	test_unroll();
	test_atomic_instruction();
	test_growing_values();
	test_filter();
	test_odd_programs();
	test_timeout();
	test_value_cycles();
	test_unknown_engine();
	if (failures) {
		fprintf(stderr, "test_engine: %d failure(s)\n", failures);
		return 1;
	}
	printf("test_engine: ok\n");
	return 0;
}
