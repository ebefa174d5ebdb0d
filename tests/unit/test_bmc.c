/* test_bmc.c — the bmc engine's subtle encodings against brute force on
 * every small relation: acyclicity by vertex elimination (bmc_acyclic),
 * the cycle lower bound and the closure by squaring (bmc_closure), and
 * polarity gates (sat.h): satisfiable exactly when the relation, fixed by
 * unit clauses, has the property. */
#include <stdlib.h>

#include "check.h"
#include "engine/bmc/bmc.h"

/* A relation over n events whose pairs are fresh variables, fixed to the
 * bits of `graph` (row-major, bit i*n+j) by unit clauses. */
static int *fixed_relation(sat *s, int n, unsigned long graph)
{
	int *r = malloc(((size_t)n * n + 1) * sizeof *r);
	for (int i = 0; i < n * n; i++) {
		r[i] = sat_var(s);
		sat_clause1(s, (graph >> i) & 1 ? r[i] : -r[i]);
	}
	return r;
}

static brel as_brel(int n, unsigned long graph)
{
	brel b = brel_new(n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if ((graph >> (i * n + j)) & 1)
				brel_add(&b, i, j);
	return b;
}

/* Pseudo-random graphs (a fixed LCG: the same ones on every run). */
static unsigned long next_graph(unsigned long *seed, int bits)
{
	*seed = *seed * 6364136223846793005UL + 1442695040888963407UL;
	unsigned long g = *seed >> 17;
	return bits >= 64 ? g : g & ((1UL << bits) - 1);
}

static void test_acyclic(void)
{
	unsigned long seed = 7;
	for (int n = 1; n <= 6; n++)
		for (int round = 0; round < 300; round++) {
			unsigned long g = next_graph(&seed, n * n);
			/* thin it out: most random dense graphs are cyclic */
			g &= next_graph(&seed, n * n);
			brel b = as_brel(n, g);
			bool acyclic = brel_acyclic(&b);
			sat *s = sat_new();
			int *r = fixed_relation(s, n, g);
			bmc_acyclic(s, r, n, SAT_TRUE);
			CHECK(sat_solve(s, NULL, 0) == acyclic, "acyclic: n %d graph %#lx: brute force %d", n, g,
			      acyclic);
			free(r);
			sat_free(s);
			/* guarded: the guard off leaves it satisfiable */
			s = sat_new();
			r = fixed_relation(s, n, g);
			int guard = sat_var(s);
			bmc_acyclic(s, r, n, guard);
			int off = -guard, on = guard;
			CHECK(sat_solve(s, &off, 1), "guarded acyclic, guard off: n %d graph %#lx", n, g);
			CHECK(sat_solve(s, &on, 1) == acyclic, "guarded acyclic, guard on: n %d graph %#lx", n, g);
			free(r);
			sat_free(s);
			/* the cycle lower bound */
			s = sat_new();
			r = fixed_relation(s, n, g);
			int cyc = bmc_has_cycle(s, r, n);
			CHECK(sat_solve(s, &cyc, 1) == !acyclic, "has_cycle: n %d graph %#lx", n, g);
			free(r);
			sat_free(s);
			brel_free(&b);
		}
}

static void test_closure(void)
{
	unsigned long seed = 11;
	for (int n = 1; n <= 5; n++)
		for (int round = 0; round < 100; round++) {
			unsigned long g = next_graph(&seed, n * n) & next_graph(&seed, n * n);
			brel b = as_brel(n, g);
			brel_transitive_closure(&b);
			sat *s = sat_new();
			int *r = fixed_relation(s, n, g);
			int *t = bmc_closure(s, r, n, POL_BOTH);
			CHECK(sat_solve(s, NULL, 0), "closure: satisfiable");
			int wrong = 0;
			for (int i = 0; i < n; i++)
				for (int j = 0; j < n; j++)
					wrong += sat_value(s, t[i * n + j]) != brel_has(&b, i, j);
			CHECK(wrong == 0, "closure: n %d graph %#lx: %d pairs wrong", n, g, wrong);
			free(t);
			free(r);
			sat_free(s);
			brel_free(&b);
		}
}

/* Gates: an UP gate can be made false only when its function is; a DOWN
 * gate true only when its function is; a BOTH gate is the function. */
static void test_gates(void)
{
	for (int pol = POL_UP; pol <= POL_BOTH; pol++)
		for (int bits = 0; bits < 8; bits++) {
			sat *s = sat_new();
			int in[3];
			for (int i = 0; i < 3; i++) {
				in[i] = sat_var(s);
				sat_clause1(s, (bits >> i) & 1 ? in[i] : -in[i]);
			}
			bool f_or = bits != 0, f_and = bits == 7;
			int g_or = sat_or(s, in, 3, pol), g_and = sat_and(s, in, 3, pol);
			int a[2][2] = { { g_or, g_and }, { -g_or, -g_and } };
			bool f[2] = { f_or, f_and };
			for (int k = 0; k < 2; k++) {
				bool can_true = sat_solve(s, &a[0][k], 1), can_false = sat_solve(s, &a[1][k], 1);
				if (pol & POL_UP)
					CHECK(!f[k] || !can_false, "gate %d pol %d bits %d: false though the function holds",
					      k, pol, bits);
				if (pol & POL_DOWN)
					CHECK(f[k] || !can_true, "gate %d pol %d bits %d: true though the function fails", k,
					      pol, bits);
				CHECK(can_true || can_false, "gate %d pol %d bits %d: unsatisfiable", k, pol, bits);
			}
			sat_free(s);
		}
}

int main(void)
{
	test_acyclic();
	test_closure();
	test_gates();
	return test_summary("test_bmc");
}
