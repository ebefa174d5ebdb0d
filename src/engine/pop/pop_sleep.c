/* pop_sleep.c — pop's sleep sets: for each read schedule on the way to a
 * state, the read schedules it sleeps for (the paper's sleep sets of
 * schedules, Sect. 2 and 4.3), characterised by one entry (pop.h's
 * pop_sleeper) instead of listed.  Whether a read performs a sleeping
 * schedule is asked of the sequence (pop_explore.c's sleeps()); here are
 * the sets themselves. */
#include <stdlib.h>
#include <string.h>

#include "pop.h"

size_t pop_sleepset_bytes(const pop_sleepset *s)
{
	return s->cap * sizeof *s->s;
}

void pop_sleepset_add(pop_sleepset *s, pop_sleeper z)
{
	GROW(s->s, s->cap, (size_t)s->n + 1);
	s->s[s->n++] = z;
}

void pop_sleepset_copy(pop_sleepset *dst, const pop_sleepset *src, const int *count)
{
	memset(dst, 0, sizeof *dst);
	for (int i = 0; i < src->n; i++)
		if (!count || count[src->s[i].wth] <= src->s[i].widx)
			pop_sleepset_add(dst, src->s[i]);
}

void pop_sleepset_free(pop_sleepset *s)
{
	free(s->s);
	memset(s, 0, sizeof *s);
}
