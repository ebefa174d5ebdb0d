/* test_bitset.c — every set and relation operation of exec.h against a naive
 * boolean-matrix reference, on sizes that straddle word boundaries (1, 2, 63,
 * 64, 65, 130, 200), with random and hand-made inputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/exec/exec.h"
#include "check.h"


/* A small deterministic generator so that runs are reproducible. */
static unsigned long long rng_state = 88172645463325252ULL;
static unsigned rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned)(rng_state >> 11);
}

/* ---- reference model: n x n booleans ---------------------------------- */

typedef struct ref {
	int n;
	unsigned char *m; /* m[i*n+j] */
} ref;

static ref ref_new(int n)
{
	ref r = { n, calloc((size_t)n * n + 1, 1) };
	return r;
}
static void ref_free(ref *r) { free(r->m); }
static int R(const ref *r, int i, int j) { return r->m[i * r->n + j]; }

static ref ref_of(const brel *b)
{
	ref r = ref_new(b->n);
	for (int i = 0; i < b->n; i++)
		for (int j = 0; j < b->n; j++)
			r.m[i * b->n + j] = brel_has(b, i, j);
	return r;
}

static bool same(const brel *b, const ref *r)
{
	for (int i = 0; i < r->n; i++)
		for (int j = 0; j < r->n; j++)
			if (brel_has(b, i, j) != (bool)R(r, i, j))
				return false;
	/* Bits beyond n must stay clear. */
	for (int i = 0; i < b->n; i++) {
		const uint64_t *row = brel_row(b, i);
		if (row[b->words - 1] & ~bits_last_word_mask(b->n))
			return false;
	}
	return true;
}

static brel random_rel(int n, int permille)
{
	brel b = brel_new(n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			if ((int)(rnd() % 1000) < permille)
				brel_add(&b, i, j);
	return b;
}

static bset random_set(int n, int permille)
{
	bset s = bset_new(n);
	for (int i = 0; i < n; i++)
		if ((int)(rnd() % 1000) < permille)
			bset_add(&s, i);
	return s;
}

static void ref_closure(ref *r)
{
	int n = r->n;
	for (int k = 0; k < n; k++)
		for (int i = 0; i < n; i++)
			if (R(r, i, k))
				for (int j = 0; j < n; j++)
					if (R(r, k, j))
						r->m[i * n + j] = 1;
}

/* ---- sets ---------------------------------------------------------------- */

static void test_sets(int n)
{
	bset a = random_set(n, 400), b = random_set(n, 500);
	bool ra[256], rb[256];
	for (int i = 0; i < n; i++) {
		ra[i] = bset_has(&a, i);
		rb[i] = bset_has(&b, i);
	}
	int count = 0;
	for (int i = 0; i < n; i++)
		count += ra[i];
	CHECK(bset_count(&a) == count, "n=%d count %d vs %d", n, bset_count(&a), count);

	bset u = bset_copy(&a), in = bset_copy(&a), d = bset_copy(&a), c = bset_copy(&a);
	bset_union(&u, &b);
	bset_inter(&in, &b);
	bset_diff(&d, &b);
	bset_complement(&c);
	bool ok = true;
	for (int i = 0; i < n; i++) {
		ok &= bset_has(&u, i) == (ra[i] || rb[i]);
		ok &= bset_has(&in, i) == (ra[i] && rb[i]);
		ok &= bset_has(&d, i) == (ra[i] && !rb[i]);
		ok &= bset_has(&c, i) == !ra[i];
	}
	CHECK(ok, "n=%d union/inter/diff/complement", n);
	CHECK(bset_count(&c) == n - count, "n=%d complement keeps bits above n clear", n);
	CHECK((c.w[c.words - 1] & ~bits_last_word_mask(n)) == 0, "n=%d complement mask", n);

	/* Iteration visits exactly the members, in order. */
	int seen = 0, last = -1;
	ok = true;
	BSET_FOREACH(i, &a) {
		ok &= ra[i] && i > last;
		last = i;
		seen++;
	}
	CHECK(ok && seen == count, "n=%d BSET_FOREACH", n);
	CHECK(bset_next(&a, n) == -1, "n=%d next past end", n);

	bset e = bset_new(n);
	CHECK(bset_empty(&e), "n=%d new set empty", n);
	bset_add(&e, n - 1);
	CHECK(!bset_empty(&e) && bset_has(&e, n - 1) && bset_next(&e, 0) == n - 1, "n=%d add last", n);
	bset_del(&e, n - 1);
	CHECK(bset_empty(&e), "n=%d del", n);
	bset cp = bset_copy(&a);
	CHECK(bset_equal(&cp, &a), "n=%d copy equal", n);
	bset_complement(&cp);
	CHECK(n == 0 || !bset_equal(&cp, &a), "n=%d complement differs", n);
	bset_clear(&cp);
	CHECK(bset_empty(&cp), "n=%d clear", n);

	bset_free(&a); bset_free(&b); bset_free(&u); bset_free(&in);
	bset_free(&d); bset_free(&c); bset_free(&e); bset_free(&cp);
}

/* ---- relations -------------------------------------------------------------- */

static void test_relations(int n, int permille)
{
	brel a = random_rel(n, permille), b = random_rel(n, permille);
	ref ra = ref_of(&a), rb = ref_of(&b);

	brel u = brel_copy(&a), in = brel_copy(&a), d = brel_copy(&a), c = brel_copy(&a);
	brel_union(&u, &b);
	brel_inter(&in, &b);
	brel_diff(&d, &b);
	brel_complement(&c);
	ref ru = ref_new(n), ri = ref_new(n), rd = ref_new(n), rc = ref_new(n);
	for (int k = 0; k < n * n; k++) {
		ru.m[k] = ra.m[k] || rb.m[k];
		ri.m[k] = ra.m[k] && rb.m[k];
		rd.m[k] = ra.m[k] && !rb.m[k];
		rc.m[k] = !ra.m[k];
	}
	CHECK(same(&u, &ru), "n=%d union", n);
	CHECK(same(&in, &ri), "n=%d inter", n);
	CHECK(same(&d, &rd), "n=%d diff", n);
	CHECK(same(&c, &rc), "n=%d complement", n);

	/* Sequence. */
	brel s = brel_seq(&a, &b);
	ref rs = ref_new(n);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < n; k++)
			if (R(&ra, i, k))
				for (int j = 0; j < n; j++)
					if (R(&rb, k, j))
						rs.m[i * n + j] = 1;
	CHECK(same(&s, &rs), "n=%d seq", n);

	/* Inverse. */
	brel inv = brel_inverse(&a);
	ref rinv = ref_new(n);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++)
			rinv.m[j * n + i] = R(&ra, i, j);
	CHECK(same(&inv, &rinv), "n=%d inverse", n);

	/* Closures. */
	brel tc = brel_copy(&a);
	brel_transitive_closure(&tc);
	ref rtc = ref_of(&a);
	ref_closure(&rtc);
	CHECK(same(&tc, &rtc), "n=%d transitive closure", n);
	brel rc2 = brel_copy(&a);
	brel_reflexive_closure(&rc2);
	ref rrc = ref_of(&a);
	for (int i = 0; i < n; i++)
		rrc.m[i * n + i] = 1;
	CHECK(same(&rc2, &rrc), "n=%d reflexive closure", n);

	/* Acyclicity and irreflexivity agree with the closure's diagonal. */
	bool diag = false, refl = false;
	for (int i = 0; i < n; i++) {
		diag |= R(&rtc, i, i);
		refl |= R(&ra, i, i);
	}
	CHECK(brel_acyclic(&a) == !diag, "n=%d acyclic (%d)", n, !diag);
	CHECK(brel_irreflexive(&a) == !refl, "n=%d irreflexive", n);

	/* Shortest cycle: a real cycle of a, of minimal length. */
	int *cyc = malloc(sizeof(int) * (size_t)n);
	int len = brel_find_cycle(&a, cyc);
	if (!diag) {
		CHECK(len == 0, "n=%d find_cycle on acyclic gives %d", n, len);
	} else {
		bool is_cycle = len > 0;
		for (int k = 0; k < len && is_cycle; k++)
			is_cycle = R(&ra, cyc[k], cyc[(k + 1) % len]);
		CHECK(is_cycle, "n=%d find_cycle returns a cycle (len %d)", n, len);
		/* Minimality: no cycle shorter than len (via powers of a). */
		ref p = ref_of(&a);
		bool shorter = false;
		for (int l = 1; l < len && !shorter; l++) {
			for (int i = 0; i < n; i++)
				shorter |= R(&p, i, i);
			ref q = ref_new(n);
			for (int i = 0; i < n; i++)
				for (int k = 0; k < n; k++)
					if (R(&p, i, k))
						for (int j = 0; j < n; j++)
							if (R(&ra, k, j))
								q.m[i * n + j] = 1;
			ref_free(&p);
			p = q;
		}
		ref_free(&p);
		CHECK(!shorter, "n=%d find_cycle is shortest (len %d)", n, len);
	}
	free(cyc);

	/* Domain, range, count, equality, emptiness. */
	bset dom = brel_domain(&a), ran = brel_range(&a);
	bool ok = true;
	int cnt = 0;
	for (int i = 0; i < n; i++) {
		bool hd = false, hr = false;
		for (int j = 0; j < n; j++) {
			hd |= R(&ra, i, j);
			hr |= R(&ra, j, i);
			cnt += R(&ra, i, j);
		}
		ok &= bset_has(&dom, i) == hd && bset_has(&ran, i) == hr;
	}
	CHECK(ok, "n=%d domain/range", n);
	CHECK(brel_count(&a) == cnt, "n=%d count", n);
	brel cp = brel_copy(&a);
	CHECK(brel_equal(&cp, &a), "n=%d copy equal", n);
	brel_clear(&cp);
	CHECK(brel_empty(&cp) && (cnt == 0) == brel_empty(&a), "n=%d clear/empty", n);

	/* [S], S * T, identity. */
	bset S = random_set(n, 500), T = random_set(n, 500);
	brel ids = brel_id_on(&S), prod = brel_product(&S, &T), id = brel_identity(n);
	ok = true;
	for (int i = 0; i < n; i++)
		for (int j = 0; j < n; j++) {
			ok &= brel_has(&ids, i, j) == (i == j && bset_has(&S, i));
			ok &= brel_has(&prod, i, j) == (bset_has(&S, i) && bset_has(&T, j));
			ok &= brel_has(&id, i, j) == (i == j);
		}
	CHECK(ok, "n=%d id_on/product/identity", n);

	brel_free(&a); brel_free(&b); brel_free(&u); brel_free(&in); brel_free(&d);
	brel_free(&c); brel_free(&s); brel_free(&inv); brel_free(&tc); brel_free(&rc2);
	brel_free(&cp); brel_free(&ids); brel_free(&prod); brel_free(&id);
	bset_free(&dom); bset_free(&ran); bset_free(&S); bset_free(&T);
	ref_free(&ra); ref_free(&rb); ref_free(&ru); ref_free(&ri); ref_free(&rd);
	ref_free(&rc); ref_free(&rs); ref_free(&rinv); ref_free(&rtc); ref_free(&rrc);
}

/* Hand-made cases whose answers are known without a reference. */
static void test_known(void)
{
	/* A chain 0 -> 1 -> ... -> n-1 across word boundaries: acyclic; closing
	 * it gives a cycle of length n. */
	int n = 130;
	brel chain = brel_new(n);
	for (int i = 0; i + 1 < n; i++)
		brel_add(&chain, i, i + 1);
	CHECK(brel_acyclic(&chain), "chain acyclic");
	brel tc = brel_copy(&chain);
	brel_transitive_closure(&tc);
	CHECK(brel_count(&tc) == n * (n - 1) / 2, "chain closure count %d", brel_count(&tc));
	CHECK(brel_has(&tc, 0, n - 1) && !brel_has(&tc, n - 1, 0), "chain closure ends");
	brel_add(&chain, n - 1, 0);
	CHECK(!brel_acyclic(&chain), "ring cyclic");
	int *cyc = malloc(sizeof(int) * (size_t)n);
	CHECK(brel_find_cycle(&chain, cyc) == n, "ring cycle length n");
	/* A shortcut makes the shortest cycle short. */
	brel_add(&chain, 70, 64);
	int len = brel_find_cycle(&chain, cyc);
	CHECK(len == 7 && cyc[0] == 64, "shortcut cycle length %d start %d", len, cyc[0]);
	free(cyc);
	brel_free(&chain);
	brel_free(&tc);

	/* A self loop is a cycle of length 1 and breaks irreflexivity. */
	brel one = brel_new(1);
	CHECK(brel_acyclic(&one) && brel_irreflexive(&one), "size 1 empty");
	brel_add(&one, 0, 0);
	int c1[1];
	CHECK(!brel_acyclic(&one) && !brel_irreflexive(&one) && brel_find_cycle(&one, c1) == 1,
	      "size 1 loop");
	brel_free(&one);

	/* Size 0 does not crash. */
	brel z = brel_new(0);
	CHECK(brel_empty(&z) && brel_acyclic(&z), "size 0");
	brel_free(&z);
	bset zs = bset_new(0);
	CHECK(bset_empty(&zs) && bset_next(&zs, 0) == -1, "size 0 set");
	bset_free(&zs);
}

static void test_execution(void)
{
	execution x;
	execution_init(&x, NULL, 65);
	CHECK(x.n == 65 && x.po.n == 65 && brel_empty(&x.co) && x.ev[64].loc == -1,
	      "execution_init");
	brel_add(&x.po, 0, 64);
	CHECK(brel_has(&x.po, 0, 64), "execution relation usable");
	execution_free(&x);
	CHECK(x.ev == NULL && x.po.w == NULL, "execution_free");
}

int main(void)
{
	static const int sizes[] = { 1, 2, 5, 63, 64, 65, 130, 200 };
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		test_sets(sizes[k]);
		/* Sparse (mostly acyclic for larger n) and denser relations. */
		for (int rep = 0; rep < 4; rep++) {
			int n = sizes[k];
			int sparse = n > 1 ? 1000 / (n * 2) + 1 : 300;
			test_relations(n, sparse);
			test_relations(n, 30);
		}
	}
	/* Small DAGs: upper-triangular random relations are acyclic. */
	for (int rep = 0; rep < 20; rep++) {
		int n = 1 + (int)(rnd() % 90);
		brel d = brel_new(n);
		for (int i = 0; i < n; i++)
			for (int j = i + 1; j < n; j++)
				if (rnd() % 4 == 0)
					brel_add(&d, i, j);
		CHECK(brel_acyclic(&d), "random DAG n=%d acyclic", n);
		brel_free(&d);
	}
	test_known();
	test_execution();
	return test_summary("test_bitset");
}
