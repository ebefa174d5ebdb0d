/* await_thread.c — where a thread's await loops are while it runs: pop's
 * steps (pop_thread_step, pop.h) with a watch (pop_watch) that sees each
 * step begin and each tested branch turn.
 *
 * An await loop's iteration begins at the first step the thread makes
 * inside the loop's ops, and ends when the loop's branch is taken: then
 * it went round again, and the run stops before the next op with aw_fail
 * saying where the iteration began.  A loop entered at its test (C's
 * while) takes its branch once to begin: that pass is no iteration.
 * Backward jumps from these branches do not count against -unroll
 * (ti_ctx.uncounted): the exploration drops the iterations that went
 * round, so none is ever run twice. */
#include <stdlib.h>
#include <string.h>

#include "await.h"

void aw_loops_init(aw_loops **out, const litmus_test *t)
{
	aw_loops *loops = xcalloc((size_t)t->n_threads + 1, sizeof *loops);
	for (int i = 0; i < t->n_threads; i++) {
		const thread *th = &t->threads[i];
		aw_loops *a = &loops[i];
		prog_loop *all;
		int n = prog_find_loops(th, &all);
		a->l = xcalloc((size_t)n + 1, sizeof *a->l);
		a->at_branch = xmalloc(((size_t)th->n_ops + 1) * sizeof *a->at_branch);
		a->uncounted = xcalloc((size_t)th->n_ops + 1, sizeof *a->uncounted);
		for (int k = 0; k <= th->n_ops; k++)
			a->at_branch[k] = -1;
		for (int j = 0; j < n; j++) {
			if (all[j].kind == LOOP_OTHER)
				continue;
			a->at_branch[all[j].branch] = a->n;
			a->uncounted[all[j].branch] = true;
			a->l[a->n++] = all[j];
		}
		free(all);
	}
	*out = loops;
}

void aw_loops_free(aw_loops *loops, const litmus_test *t)
{
	for (int i = 0; loops && i < t->n_threads; i++) {
		free(loops[i].l);
		free(loops[i].at_branch);
		free(loops[i].uncounted);
	}
	free(loops);
}

/* Where a run is in an await loop. */
typedef struct aw_iter {
	int start;   /* the step its iteration began with, -1: not begun   */
	int takes;   /* branches taken since the loop was entered          */
} aw_iter;

typedef struct awatch {
	const aw_loops *loops;
	aw_iter *iter;          /* per loop                                  */
	aw_fail *fail;
} awatch;

/* Step k begins at op pc: it begins an iteration of the loops it is in,
 * and leaves those it is not in. */
static void w_begin(void *ctx, int pc, int k)
{
	awatch *w = ctx;
	for (int i = 0; i < w->loops->n; i++) {
		const prog_loop *l = &w->loops->l[i];
		if (pc < l->head || pc > l->branch)
			w->iter[i] = (aw_iter){ -1, 0 };
		else if (w->iter[i].start < 0)
			w->iter[i].start = k;
	}
}

/* An await loop's branch: left, entered, or gone round (the failure the
 * exploration drops). */
static void w_turn(void *ctx, int pc, bool taken, int k)
{
	awatch *w = ctx;
	int i = w->loops->at_branch[pc];
	if (i < 0)
		return;
	aw_iter *it = &w->iter[i];
	if (!taken) {
		*it = (aw_iter){ -1, 0 };
		return;
	}
	if (++it->takes == 1 && w->loops->l[i].mid_entry >= 0) {
		it->start = -1;   /* in at the test: the first iteration begins */
		return;
	}
	w->fail->failed = true;
	w->fail->from = it->start < 0 ? k : it->start;
	w->fail->branch = pc;
}

/* the iteration went round: the run is over */
static bool w_stop(void *ctx)
{
	const awatch *w = ctx;
	return w->fail->failed;
}

void aw_thread_step(pop_run_ctx *rc, const aw_loops *loops, int ti, const pop_dec *dec, int n, const value *mem,
                    int alt, pop_step *out, aw_fail *fail, value *regs)
{
	awatch aw = { loops, xmalloc(((size_t)loops->n + 1) * sizeof *aw.iter), fail };
	for (int i = 0; i < loops->n; i++)
		aw.iter[i] = (aw_iter){ -1, 0 };
	memset(fail, 0, sizeof *fail);
	pop_watch w = { loops->uncounted, w_begin, w_turn, w_stop, &aw };
	pop_thread_step(rc, ti, dec, n, mem, alt, out, regs, &w);
	free(aw.iter);
}
