/* relation.c — binary relations over events as n rows of bit vectors.
 *
 * Row i holds the successors of event i.  The raw kernels (rel_*_raw) work on
 * caller-managed storage so that the cat evaluator can keep its values in an
 * arena; the brel_* functions wrap them with malloc'd storage.  All loops are
 * word-level: composition ORs whole successor rows, closure is Warshall's
 * algorithm over rows (O(n^2) row operations). */
#include <stdlib.h>
#include <string.h>

#include "exec.h"

static int words_for(int n) { return (n + 63) / 64; }
static size_t rel_size(int n, int words) { return (size_t)n * (size_t)words; }

/* ---- raw kernels ---------------------------------------------------------- */

void rel_seq_raw(uint64_t *dst, const uint64_t *a, const uint64_t *b, int n, int words)
{
	if (words == 1) {
		/* up to 64 events, a row a word: the common case */
		for (int i = 0; i < n; i++) {
			uint64_t bits = a[i], acc = 0;
			while (bits) {
				acc |= b[bits_ctz(bits)];
				bits &= bits - 1;
			}
			dst[i] = acc;
		}
		return;
	}
	memset(dst, 0, rel_size(n, words) * sizeof *dst);
	for (int i = 0; i < n; i++) {
		const uint64_t *ar = a + (size_t)i * words;
		uint64_t *dr = dst + (size_t)i * words;
		for (int wi = 0; wi < words; wi++) {
			uint64_t bits = ar[wi];
			while (bits) {
				int j = (wi << 6) + bits_ctz(bits);
				bits &= bits - 1;
				const uint64_t *br = b + (size_t)j * words;
				for (int k = 0; k < words; k++)
					dr[k] |= br[k];
			}
		}
	}
}

void rel_inverse_raw(uint64_t *dst, const uint64_t *src, int n, int words)
{
	memset(dst, 0, rel_size(n, words) * sizeof *dst);
	for (int i = 0; i < n; i++) {
		const uint64_t *row = src + (size_t)i * words;
		uint64_t bit_i = (uint64_t)1 << (i & 63);
		int wi_i = i >> 6;
		for (int wi = 0; wi < words; wi++) {
			uint64_t bits = row[wi];
			while (bits) {
				int j = (wi << 6) + bits_ctz(bits);
				bits &= bits - 1;
				dst[(size_t)j * words + wi_i] |= bit_i;
			}
		}
	}
}

/* Depth-first search of a relation over at most 64 events (a row a word),
 * stopping at the first edge back to an event on the stack (a cycle):
 * returns whether there is none.  Each step pushes or pops an event (edges
 * to finished events are skipped a word at a time), so it takes at most 2n
 * steps.  With `join` (the same rows as r, written in place) it also
 * closes the relation: in postorder, each event's row becomes the join of
 * its successors' (finished, so complete) rows: r+ in O(n + edges) word
 * operations instead of Warshall's n^2.  On a cycle the rows are left
 * between r and r+, every finished event's complete. */
static bool dfs_one_word(const uint64_t *r, uint64_t *join, int n)
{
	int stack[64];
	uint64_t rest[64];   /* per stack entry: successors not yet followed */
	uint64_t done = 0, open = 0;
	for (int s0 = 0; s0 < n; s0++) {
		if (done >> s0 & 1)
			continue;
		int sp = 1;
		stack[0] = s0;
		rest[0] = r[s0];
		open |= (uint64_t)1 << s0;
		while (sp > 0) {
			int u = stack[sp - 1];
			uint64_t m = rest[sp - 1];
			if (m & open)
				return false;
			if (join)
				for (uint64_t fin = m & done; fin; fin &= fin - 1)
					join[u] |= join[bits_ctz(fin)];
			m &= ~done;
			if (m) {
				int v = bits_ctz(m);
				rest[sp - 1] = m & (m - 1);
				stack[sp] = v;
				rest[sp] = r[v];
				open |= (uint64_t)1 << v;
				sp++;
			} else {
				rest[sp - 1] = 0;
				sp--;
				open &= ~((uint64_t)1 << u);
				done |= (uint64_t)1 << u;
				if (join && sp > 0)
					join[stack[sp - 1]] |= join[u];
			}
		}
	}
	return true;
}

void rel_closure_raw(uint64_t *r, int n, int words)
{
	if (words == 1) {
		/* the relations models close (hb, po-like orders) are mostly
		 * acyclic; Warshall finishes the job on a cycle */
		if (dfs_one_word(r, r, n))
			return;
		for (int k = 0; k < n; k++) {
			uint64_t bit = (uint64_t)1 << k, row = r[k];
			for (int i = 0; i < n; i++)
				if (r[i] & bit)
					r[i] |= row;
		}
		return;
	}
	/* Warshall: after step k, r holds the paths whose inner nodes are < k+1.
	 * Row form: every row that reaches k also reaches what k reaches. */
	for (int k = 0; k < n; k++) {
		const uint64_t *rk = r + (size_t)k * words;
		int wk = k >> 6;
		uint64_t bk = (uint64_t)1 << (k & 63);
		for (int i = 0; i < n; i++) {
			uint64_t *ri = r + (size_t)i * words;
			if (ri[wk] & bk)
				for (int x = 0; x < words; x++)
					ri[x] |= rk[x];
		}
	}
}

void rel_reflexive_raw(uint64_t *r, int n, int words)
{
	for (int i = 0; i < n; i++)
		r[(size_t)i * words + (i >> 6)] |= (uint64_t)1 << (i & 63);
}

bool rel_irreflexive_raw(const uint64_t *r, int n, int words)
{
	for (int i = 0; i < n; i++)
		if ((r[(size_t)i * words + (i >> 6)] >> (i & 63)) & 1)
			return false;
	return true;
}

bool rel_acyclic_raw(const uint64_t *r, int n, int words, uint64_t *scratch)
{
	if (words == 1)
		return dfs_one_word(r, NULL, n);
	/* Peel sinks: an event none of whose successors remain cannot be on a
	 * cycle.  What is left when no sink remains is exactly the set of events
	 * that reach a cycle; the relation is acyclic iff nothing is left.  Each
	 * round is O(n * words) and removes at least one event. `scratch` holds
	 * the `words` words of the remaining-events set. */
	uint64_t *alive = scratch;
	memset(alive, 0, (size_t)words * sizeof *alive);
	for (int i = 0; i < n; i++)
		alive[i >> 6] |= (uint64_t)1 << (i & 63);
	int left = n;
	bool progress = true;
	while (left > 0 && progress) {
		progress = false;
		for (int i = 0; i < n; i++) {
			if (!((alive[i >> 6] >> (i & 63)) & 1))
				continue;
			const uint64_t *row = r + (size_t)i * words;
			bool sink = true;
			for (int x = 0; x < words; x++)
				if (row[x] & alive[x]) {
					sink = false;
					break;
				}
			if (sink) {
				alive[i >> 6] &= ~((uint64_t)1 << (i & 63));
				left--;
				progress = true;
			}
		}
	}
	return left == 0;
}

void rel_product_raw(uint64_t *dst, const uint64_t *a, const uint64_t *b, int n, int words)
{
	for (int i = 0; i < n; i++) {
		uint64_t *row = dst + (size_t)i * words;
		if ((a[i >> 6] >> (i & 63)) & 1)
			memcpy(row, b, (size_t)words * sizeof *row);
		else
			memset(row, 0, (size_t)words * sizeof *row);
	}
}

void rel_id_on_raw(uint64_t *dst, const uint64_t *s, int n, int words)
{
	memset(dst, 0, rel_size(n, words) * sizeof *dst);
	for (int i = 0; i < n; i++)
		if ((s[i >> 6] >> (i & 63)) & 1)
			dst[(size_t)i * words + (i >> 6)] |= (uint64_t)1 << (i & 63);
}

void rel_domain_raw(uint64_t *set, const uint64_t *r, int n, int words)
{
	memset(set, 0, (size_t)words * sizeof *set);
	for (int i = 0; i < n; i++) {
		const uint64_t *row = r + (size_t)i * words;
		for (int x = 0; x < words; x++)
			if (row[x]) {
				set[i >> 6] |= (uint64_t)1 << (i & 63);
				break;
			}
	}
}

void rel_range_raw(uint64_t *set, const uint64_t *r, int n, int words)
{
	memset(set, 0, (size_t)words * sizeof *set);
	for (int i = 0; i < n; i++) {
		const uint64_t *row = r + (size_t)i * words;
		for (int x = 0; x < words; x++)
			set[x] |= row[x];
	}
}

void rel_complement_raw(uint64_t *r, int n, int words)
{
	uint64_t last = bits_last_word_mask(n);
	for (int i = 0; i < n; i++) {
		uint64_t *row = r + (size_t)i * words;
		for (int x = 0; x < words; x++)
			row[x] = ~row[x];
		if (words)
			row[words - 1] &= last;
	}
}

/* ---- brel ----------------------------------------------------------------- */

brel brel_new(int n)
{
	brel r;
	r.n = n;
	r.words = words_for(n);
	size_t sz = rel_size(n, r.words);
	r.w = xcalloc(sz ? sz : 1, sizeof *r.w);
	return r;
}

brel brel_copy(const brel *src)
{
	brel r = brel_new(src->n);
	memcpy(r.w, src->w, rel_size(r.n, r.words) * sizeof *r.w);
	return r;
}

void brel_free(brel *r)
{
	free(r->w);
	r->w = NULL;
	r->n = r->words = 0;
}

void brel_clear(brel *r) { memset(r->w, 0, rel_size(r->n, r->words) * sizeof *r->w); }

void brel_union(brel *dst, const brel *src)
{
	WEFT_ASSERT(dst->n == src->n);
	size_t sz = rel_size(dst->n, dst->words);
	for (size_t i = 0; i < sz; i++)
		dst->w[i] |= src->w[i];
}

void brel_inter(brel *dst, const brel *src)
{
	WEFT_ASSERT(dst->n == src->n);
	size_t sz = rel_size(dst->n, dst->words);
	for (size_t i = 0; i < sz; i++)
		dst->w[i] &= src->w[i];
}

void brel_diff(brel *dst, const brel *src)
{
	WEFT_ASSERT(dst->n == src->n);
	size_t sz = rel_size(dst->n, dst->words);
	for (size_t i = 0; i < sz; i++)
		dst->w[i] &= ~src->w[i];
}

void brel_complement(brel *r) { rel_complement_raw(r->w, r->n, r->words); }

brel brel_seq(const brel *a, const brel *b)
{
	WEFT_ASSERT(a->n == b->n);
	brel r = brel_new(a->n);
	rel_seq_raw(r.w, a->w, b->w, a->n, a->words);
	return r;
}

brel brel_inverse(const brel *src)
{
	brel r = brel_new(src->n);
	rel_inverse_raw(r.w, src->w, src->n, src->words);
	return r;
}

brel brel_identity(int n)
{
	brel r = brel_new(n);
	rel_reflexive_raw(r.w, n, r.words);
	return r;
}

brel brel_id_on(const bset *s)
{
	brel r = brel_new(s->n);
	rel_id_on_raw(r.w, s->w, s->n, r.words);
	return r;
}

brel brel_product(const bset *a, const bset *b)
{
	WEFT_ASSERT(a->n == b->n);
	brel r = brel_new(a->n);
	rel_product_raw(r.w, a->w, b->w, a->n, r.words);
	return r;
}

void brel_transitive_closure(brel *r) { rel_closure_raw(r->w, r->n, r->words); }
void brel_reflexive_closure(brel *r) { rel_reflexive_raw(r->w, r->n, r->words); }

bool brel_empty(const brel *r)
{
	size_t sz = rel_size(r->n, r->words);
	for (size_t i = 0; i < sz; i++)
		if (r->w[i])
			return false;
	return true;
}

bool brel_equal(const brel *a, const brel *b)
{
	WEFT_ASSERT(a->n == b->n);
	return a->n == b->n &&
	       memcmp(a->w, b->w, rel_size(a->n, a->words) * sizeof *a->w) == 0;
}

bool brel_irreflexive(const brel *r) { return rel_irreflexive_raw(r->w, r->n, r->words); }

bool brel_acyclic(const brel *r)
{
	uint64_t *scratch = xcalloc(r->words ? (size_t)r->words : 1, sizeof *scratch);
	bool ok = rel_acyclic_raw(r->w, r->n, r->words, scratch);
	free(scratch);
	return ok;
}

bset brel_domain(const brel *r)
{
	bset s = bset_new(r->n);
	rel_domain_raw(s.w, r->w, r->n, r->words);
	return s;
}

bset brel_range(const brel *r)
{
	bset s = bset_new(r->n);
	rel_range_raw(s.w, r->w, r->n, r->words);
	return s;
}

int brel_count(const brel *r)
{
	int c = 0;
	size_t sz = rel_size(r->n, r->words);
	for (size_t i = 0; i < sz; i++)
		c += bits_popcount(r->w[i]);
	return c;
}

int rel_find_cycle_raw(const uint64_t *r, int n, int words, int *cycle)
{
	/* Breadth-first search from every event s for the shortest way back to
	 * s; the shortest of those is a shortest cycle.  O(n * (n^2 / 64 + n)). */
	int best_len = 0;
	int *parent = xmalloc((size_t)(n ? n : 1) * sizeof *parent);
	int *queue = xmalloc((size_t)(n ? n : 1) * sizeof *queue);
	uint64_t *seen = xmalloc((size_t)(words ? words : 1) * sizeof *seen);
	for (int s = 0; s < n; s++) {
		memset(seen, 0, (size_t)words * sizeof *seen);
		int head = 0, tail = 0, found_last = -1;
		queue[tail++] = s;
		parent[s] = -1;
		seen[s >> 6] |= (uint64_t)1 << (s & 63);
		while (head < tail && found_last < 0) {
			int u = queue[head++];
			const uint64_t *row = r + (size_t)u * words;
			if ((row[s >> 6] >> (s & 63)) & 1) {
				found_last = u;
				break;
			}
			for (int x = 0; x < words; x++) {
				uint64_t bits = row[x] & ~seen[x];
				while (bits) {
					int v = (x << 6) + bits_ctz(bits);
					bits &= bits - 1;
					seen[x] |= (uint64_t)1 << (v & 63);
					parent[v] = u;
					queue[tail++] = v;
				}
			}
		}
		if (found_last < 0)
			continue;
		int len = 0;
		for (int u = found_last; u >= 0; u = parent[u])
			len++;
		if (best_len == 0 || len < best_len) {
			best_len = len;
			/* The path s -> ... -> found_last, written in order. */
			int i = len - 1;
			for (int u = found_last; u >= 0; u = parent[u])
				cycle[i--] = u;
		}
		if (best_len == 1)
			break;
	}
	free(parent);
	free(queue);
	free(seen);
	return best_len;
}

int brel_find_cycle(const brel *r, int *cycle) { return rel_find_cycle_raw(r->w, r->n, r->words, cycle); }
