/* pop_sleep.c — pop's sleep sets: read schedules that an exploration must
 * not perform before some event dependent with them is performed (the
 * paper's sleep sets of schedules, Sect. 2 and 4.3).
 *
 * Each sleeping schedule is kept as the list of its events not performed
 * yet.  An event performed removes itself from a schedule whose first
 * event dependent with it is that very event (so it is performed as the
 * schedule would), wakes a schedule whose first such event is another (a
 * conflicting event came first: what follows is another class), and
 * leaves the others alone.  The head of a schedule is its last event:
 * performing it with nothing left before it would explore the schedule
 * again. */
#include <stdlib.h>
#include <string.h>

#include "pop.h"

static bool dependent(pop_sref a, pop_sref b)
{
	if (a.th == b.th)
		return true;
	return a.loc >= 0 && a.loc == b.loc && (a.write || b.write);
}

size_t pop_sleepset_bytes(const pop_sleepset *s)
{
	size_t b = s->cap * sizeof *s->s;
	for (int i = 0; i < s->n; i++)
		b += (size_t)s->s[i].n * sizeof *s->s[i].ev;
	return b;
}

void pop_sleepset_add(pop_sleepset *s, const pop_sref *ev, int n)
{
	GROW(s->s, s->cap, (size_t)s->n + 1);
	pop_sleeper *z = &s->s[s->n++];
	z->n = n;
	z->ev = xmalloc(((size_t)n + 1) * sizeof *z->ev);
	memcpy(z->ev, ev, (size_t)n * sizeof *z->ev);
}

void pop_sleepset_copy(pop_sleepset *dst, const pop_sleepset *src)
{
	memset(dst, 0, sizeof *dst);
	for (int i = 0; i < src->n; i++)
		pop_sleepset_add(dst, src->s[i].ev, src->s[i].n);
}

void pop_sleepset_free(pop_sleepset *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->s[i].ev);
	free(s->s);
	memset(s, 0, sizeof *s);
}

bool pop_sleepset_step(pop_sleepset *s, pop_sref e)
{
	int kept = 0;
	bool blocked = false;
	for (int i = 0; i < s->n; i++) {
		pop_sleeper *z = &s->s[i];
		int first = -1;
		for (int k = 0; k < z->n && first < 0; k++)
			if (dependent(z->ev[k], e))
				first = k;
		bool keep = true;
		if (first >= 0) {
			const pop_sref *f = &z->ev[first];
			if (f->th == e.th && f->idx == e.idx && f->loc == e.loc && f->write == e.write && f->way == e.way) {
				if (z->n == 1)
					blocked = true;
				memmove(&z->ev[first], &z->ev[first + 1],
				        (size_t)(z->n - first - 1) * sizeof *z->ev);
				z->n--;
			} else {
				keep = false;
			}
		}
		if (keep)
			s->s[kept++] = *z;
		else
			free(z->ev);
	}
	s->n = kept;
	return !blocked;
}
