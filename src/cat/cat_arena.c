/* cat_arena.c — bump allocation for one evaluation (see cat_value.h). */
#include <stdalign.h>
#include <stdlib.h>
#include <string.h>

#include "cat_value.h"

struct arena_chunk {
	arena_chunk *next;
	size_t cap, used;
	alignas(max_align_t) unsigned char data[];
};

enum { CHUNK_MIN = 4 * 1024 };

void *arena_alloc(arena *a, size_t n)
{
	n = (n + 7) & ~(size_t)7;
	if (n == 0)
		n = 8;
	arena_chunk *c = a->head;
	if (!c || c->cap - c->used < n) {
		size_t cap = n > CHUNK_MIN ? n : CHUNK_MIN;
		/* Grow chunk sizes with use so that a long evaluation needs few. */
		if (c && cap < c->cap * 2 && c->cap * 2 <= 64u * 1024 * 1024)
			cap = c->cap * 2;
		c = xmalloc(sizeof *c + cap);
		c->cap = cap;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	void *p = c->data + c->used;
	c->used += n;
	a->total += n;
	memset(p, 0, n);
	return p;
}

void arena_reset(arena *a)
{
	/* Keep the newest (largest) chunk, free the rest. */
	arena_chunk *keep = a->head;
	if (!keep)
		return;
	arena_chunk *c = keep->next;
	while (c) {
		arena_chunk *nx = c->next;
		free(c);
		c = nx;
	}
	keep->next = NULL;
	keep->used = 0;
	a->total = 0;
}

void arena_free(arena *a)
{
	arena_chunk *c = a->head;
	while (c) {
		arena_chunk *nx = c->next;
		free(c);
		c = nx;
	}
	a->head = NULL;
	a->total = 0;
}
