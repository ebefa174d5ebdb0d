/* bitset.c — sets of events as run-time sized bit vectors.
 *
 * Every operation is a loop over 64-bit words; the bits above `n` in the last
 * word are kept zero (bset_complement masks them) so that counting, emptiness
 * and equality can look at whole words. */
#include <stdlib.h>
#include <string.h>

#include "exec.h"

static int words_for(int n) { return (n + 63) / 64; }

/* Mask of the valid bits of the last word of an n-bit vector. */
uint64_t bits_last_word_mask(int n)
{
	int r = n & 63;
	return r == 0 ? ~(uint64_t)0 : (((uint64_t)1 << r) - 1);
}

bset bset_new(int n)
{
	bset s;
	s.n = n;
	s.words = words_for(n);
	s.w = xcalloc(s.words ? (size_t)s.words : 1, sizeof *s.w);
	return s;
}

bset bset_copy(const bset *src)
{
	bset s = bset_new(src->n);
	memcpy(s.w, src->w, (size_t)s.words * sizeof *s.w);
	return s;
}

void bset_free(bset *s)
{
	free(s->w);
	s->w = NULL;
	s->n = s->words = 0;
}

void bset_clear(bset *s) { memset(s->w, 0, (size_t)s->words * sizeof *s->w); }

void bset_union(bset *dst, const bset *src)
{
	WEFT_ASSERT(dst->n == src->n);
	for (int i = 0; i < dst->words; i++)
		dst->w[i] |= src->w[i];
}

void bset_inter(bset *dst, const bset *src)
{
	WEFT_ASSERT(dst->n == src->n);
	for (int i = 0; i < dst->words; i++)
		dst->w[i] &= src->w[i];
}

void bset_diff(bset *dst, const bset *src)
{
	WEFT_ASSERT(dst->n == src->n);
	for (int i = 0; i < dst->words; i++)
		dst->w[i] &= ~src->w[i];
}

void bset_complement(bset *s)
{
	for (int i = 0; i < s->words; i++)
		s->w[i] = ~s->w[i];
	if (s->words)
		s->w[s->words - 1] &= bits_last_word_mask(s->n);
}

bool bset_empty(const bset *s)
{
	for (int i = 0; i < s->words; i++)
		if (s->w[i])
			return false;
	return true;
}

bool bset_equal(const bset *a, const bset *b)
{
	WEFT_ASSERT(a->n == b->n);
	return a->n == b->n && memcmp(a->w, b->w, (size_t)a->words * sizeof *a->w) == 0;
}

int bset_count(const bset *s)
{
	int c = 0;
	for (int i = 0; i < s->words; i++)
		c += bits_popcount(s->w[i]);
	return c;
}

int bits_next(const uint64_t *w, int n, int from)
{
	if (from < 0)
		from = 0;
	if (from >= n)
		return -1;
	int wi = from >> 6;
	uint64_t cur = w[wi] & (~(uint64_t)0 << (from & 63));
	int words = words_for(n);
	for (;;) {
		if (cur) {
			int i = (wi << 6) + bits_ctz(cur);
			return i < n ? i : -1;
		}
		if (++wi >= words)
			return -1;
		cur = w[wi];
	}
}

int bset_next(const bset *s, int from) { return bits_next(s->w, s->n, from); }
