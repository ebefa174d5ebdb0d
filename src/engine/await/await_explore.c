/* await_explore.c — the await engine's exploration: a depth-first walk of
 * a test's SC states, each expanded once (await.h says what a state is and
 * why dropping the iterations that go round loses nothing).
 *
 * From a state, every thread that can move makes its next step (both ways
 * of a choice), giving the next states:
 *   - a read takes the latest write of its location; a write becomes it;
 *   - a thread whose await went round again is put back where the
 *     iteration began, blocked on the values the iteration read (its
 *     stale reads, dropped); it can move again once one of those
 *     locations holds another value;
 *   - herd's rmw pairs an atomic read with the next atomic access of its
 *     location in its thread when that is a write (a load-reserve and its
 *     store-conditional): sc.cat's atomicity forbids a write of another
 *     thread between them, so a pair whose reservation another thread's
 *     write broke is not explored.
 * A state no thread can leave is an end: an execution when every thread
 * is done (counted as herd counts it: the filter, the unroll limit of the
 * loops that are no awaits, Positive or Negative), a liveness violation
 * when one is blocked (AW_LIVENESS_FLAG). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "await.h"
#include "../result.h"

/* A value a blocked thread read: it waits for loc to hold another. */
typedef struct aw_read {
	int loc;
	value val;
} aw_read;

typedef struct aw_tstate {
	int n;               /* steps made                                */
	pop_step *dec;       /* owned                                     */
	bool blocked;
	int n_reads;
	aw_read *reads;      /* blocked: what the failed iteration read   */
	int resv_loc;        /* an open atomic read's location, -1        */
	int resv_step;       /* its step                                  */
	bool resv_broken;    /* another thread wrote resv_loc since       */
	bool ended;
	enum pop_end how;
} aw_tstate;

typedef struct aw_state {
	value *mem;          /* each location's latest write (owned)      */
	aw_tstate *th;       /* owned                                     */
} aw_state;

/* The states seen: their exact bytes in an open-addressing table. */
typedef struct seen_set {
	unsigned char **keys;
	size_t *lens;
	uint64_t *hashes;
	size_t n, cap;
} seen_set;

typedef struct aw {
	pop_run_ctx *rc;
	const aw_loops *loops;
	pop_dec *dec;        /* scratch: one thread's decisions           */
	size_t cap_dec;
	const litmus_test *t;
	const engine_opts *o;
	test_result *r;
	state_table states;
	int T, L;
	seen_set seen;
	value **regs;        /* per thread: its final registers (the end)  */
	const value *cur_mem;/* the memory of the end being counted        */
	value *state_vals;
	int errors;
	bool stop;
	bool liveness_flagged;
} aw;

/* ---- states ------------------------------------------------------------------------ */

static void state_copy(const aw *A, aw_state *dst, const aw_state *src)
{
	dst->mem = xmalloc(((size_t)A->L + 1) * sizeof *dst->mem);
	memcpy(dst->mem, src->mem, (size_t)A->L * sizeof *dst->mem);
	dst->th = xmalloc(((size_t)A->T + 1) * sizeof *dst->th);
	for (int i = 0; i < A->T; i++) {
		const aw_tstate *s = &src->th[i];
		aw_tstate *d = &dst->th[i];
		*d = *s;
		/* a thread that has decided or read nothing has NULL lists,
		 * which memcpy may not be given even for no bytes */
		d->dec = xmalloc(((size_t)s->n + 1) * sizeof *d->dec);
		if (s->n > 0)
			memcpy(d->dec, s->dec, (size_t)s->n * sizeof *d->dec);
		d->reads = xmalloc(((size_t)s->n_reads + 1) * sizeof *d->reads);
		if (s->n_reads > 0)
			memcpy(d->reads, s->reads, (size_t)s->n_reads * sizeof *d->reads);
	}
}

static void state_free(const aw *A, aw_state *s)
{
	for (int i = 0; s->th && i < A->T; i++) {
		free(s->th[i].dec);
		free(s->th[i].reads);
	}
	free(s->th);
	free(s->mem);
	memset(s, 0, sizeof *s);
}

static void put(strbuf *b, const void *p, size_t n)
{
	GROW(b->s, b->cap, b->len + n + 1);
	memcpy(b->s + b->len, p, n);
	b->len += n;
}

static void put_int(strbuf *b, int64_t x)
{
	put(b, &x, sizeof x);
}

static void put_value(strbuf *b, value v)
{
	put_int(b, v.loc);
	put_int(b, v.num);
}

/* The state's bytes: what makes two states the same. */
static void state_key(const aw *A, const aw_state *s, strbuf *b)
{
	b->len = 0;
	for (int l = 0; l < A->L; l++)
		put_value(b, s->mem[l]);
	for (int i = 0; i < A->T; i++) {
		const aw_tstate *t = &s->th[i];
		put_int(b, t->n);
		for (int k = 0; k < t->n; k++) {
			put_int(b, t->dec[k].kind);
			put_int(b, t->dec[k].loc);
			put_value(b, t->dec[k].rval);
			put_int(b, t->dec[k].alt);
		}
		put_int(b, t->blocked ? t->n_reads : -1);
		for (int k = 0; t->blocked && k < t->n_reads; k++) {
			put_int(b, t->reads[k].loc);
			put_value(b, t->reads[k].val);
		}
		put_int(b, t->resv_loc);
		put_int(b, t->resv_step);
		put_int(b, t->resv_broken);
		put_int(b, t->ended ? (int)t->how : -1);
	}
}

static uint64_t hash_bytes(const unsigned char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

/* Whether key was seen before; keeps it. */
static bool seen_before(seen_set *S, const unsigned char *key, size_t len)
{
	uint64_t h = hash_bytes(key, len);
	if ((S->n + 1) * 2 > S->cap) {
		size_t cap = S->cap ? S->cap * 2 : 1024;
		unsigned char **k = xcalloc(cap, sizeof *k);
		size_t *l = xcalloc(cap, sizeof *l);
		uint64_t *hs = xcalloc(cap, sizeof *hs);
		for (size_t i = 0; i < S->cap; i++) {
			if (!S->keys[i])
				continue;
			size_t j = S->hashes[i] & (cap - 1);
			while (k[j])
				j = (j + 1) & (cap - 1);
			k[j] = S->keys[i];
			l[j] = S->lens[i];
			hs[j] = S->hashes[i];
		}
		free(S->keys);
		free(S->lens);
		free(S->hashes);
		S->keys = k;
		S->lens = l;
		S->hashes = hs;
		S->cap = cap;
	}
	size_t j = h & (S->cap - 1);
	for (; S->keys[j]; j = (j + 1) & (S->cap - 1))
		if (S->hashes[j] == h && S->lens[j] == len && !memcmp(S->keys[j], key, len))
			return true;
	S->keys[j] = xmalloc(len + 1);
	memcpy(S->keys[j], key, len);
	S->lens[j] = len;
	S->hashes[j] = h;
	S->n++;
	return false;
}

static void seen_free(seen_set *S)
{
	for (size_t i = 0; i < S->cap; i++)
		free(S->keys[i]);
	free(S->keys);
	free(S->lens);
	free(S->hashes);
	memset(S, 0, sizeof *S);
}

/* ---- ends ---------------------------------------------------------------------------- */

static value final_value(void *ctx, lval lv)
{
	const aw *A = ctx;
	if (lv.thread >= 0) {
		if (lv.thread < A->T && lv.reg >= 0 && lv.reg < A->t->threads[lv.thread].n_regs)
			return A->regs[lv.thread][lv.reg];
		return value_no_fault();
	}
	return lv.loc >= 0 && lv.loc < A->L ? A->cur_mem[lv.loc] : value_int(0);
}

/* Thread i's next step from s (a choice's way alt), and whether an await
 * went round (f); regs: NULL, or its final registers at its end. */
static void run_thread(aw *A, const aw_state *s, int i, int alt, pop_step *st, aw_fail *f, value *regs)
{
	const aw_tstate *t = &s->th[i];
	GROW(A->dec, A->cap_dec, (size_t)t->n + 1);
	for (int k = 0; k < t->n; k++)
		A->dec[k] = (pop_dec){ t->dec[k].rval, t->dec[k].alt };
	aw_thread_step(A->rc, &A->loops[i], i, A->dec, t->n, s->mem, alt, st, f, regs);
}

/* Every thread is done: one execution. */
static void complete(aw *A, const aw_state *s)
{
	test_result *r = A->r;
	bool toofar = false;
	for (int i = 0; i < A->T; i++) {
		if (s->th[i].how == PE_DROPPED)
			return;   /* herd has no such candidate */
		toofar |= s->th[i].how == PE_CUT;
	}
	r->stats.own[AW_EXECUTIONS]++;
	for (int i = 0; i < A->T; i++) {
		pop_step st;
		aw_fail f;
		run_thread(A, s, i, 0, &st, &f, A->regs[i]);
	}
	A->cur_mem = s->mem;
	const litmus_test *t = A->t;
	if (t->filter && !cond_eval_final(t->filter, t, final_value, A)) {
		r->stats.filtered++;
		return;
	}
	cat_verdict v = { .allowed = true, .n_allowed = 1 };
	result_count_execution(r, &A->states, t, &v, toofar, final_value, A, A->state_vals);
}

/* No thread can move and one is blocked: its await spins forever. */
static void liveness(aw *A)
{
	A->r->stats.own[AW_LIVENESS]++;
	if (!A->liveness_flagged) {
		result_add_flag(A->r, AW_LIVENESS_FLAG);
		A->liveness_flagged = true;
	}
}

/* ---- steps --------------------------------------------------------------------------- */

static bool can_move(const aw_state *s, int i)
{
	const aw_tstate *t = &s->th[i];
	if (t->ended)
		return false;
	if (!t->blocked)
		return true;
	for (int k = 0; k < t->n_reads; k++)
		if (!value_eq(s->mem[t->reads[k].loc], t->reads[k].val))
			return true;
	return false;
}

static bool writes(const pop_step *st)
{
	return st->kind == PK_WRITE || st->kind == PK_RMW;
}

static void append(aw_tstate *t, const pop_step *st)
{
	t->dec = xrealloc(t->dec, ((size_t)t->n + 1) * sizeof *t->dec);
	t->dec[t->n++] = *st;
}

/* Thread i's await went round again after its steps and st (PK_END: no
 * new step began): back to where the iteration began, blocked on what it read.
 * False when the iteration wrote (a CAS loop that wrote and went round:
 * reported). */
static bool drop_iteration(aw *A, aw_state *s, int i, const pop_step *st, const aw_fail *f)
{
	aw_tstate *t = &s->th[i];
	bool chose = false;
	if (st->kind != PK_END)
		append(t, st);   /* a step began the failed iteration's last part */
	t->n_reads = 0;
	t->reads = xrealloc(t->reads, ((size_t)t->n + 1) * sizeof *t->reads);
	for (int k = f->from; k < t->n; k++) {
		const pop_step *d = &t->dec[k];
		if (writes(d)) {
			const thread *th = &A->t->threads[i];
			diag_error(A->rc->d, th->instrs[th->ops[f->branch].instr].loc,
			           "not supported by await: an iteration of this loop wrote memory and went round "
			           "again (a CAS loop's iterations that go round must not write)");
			A->stop = true;
			return false;
		}
		if (d->kind == PK_READ)
			t->reads[t->n_reads++] = (aw_read){ d->loc, d->rval };
		chose |= d->kind == PK_CHOICE;
	}
	t->n = f->from;
	/* an iteration whose way a choice decided (a store-conditional that
	 * failed, a CAS's variants) may go another way on the same memory:
	 * the thread is not blocked, and what it did is a state seen */
	t->blocked = !chose;
	if (chose)
		t->n_reads = 0;
	if (t->resv_loc >= 0 && t->resv_step >= f->from)
		t->resv_loc = -1;
	A->r->stats.own[AW_DROPPED]++;
	return true;
}

/* Thread i makes step st in s.  False: the step is not explored (a
 * store-conditional whose reservation another thread's write broke). */
static bool make_step(aw *A, aw_state *s, int i, const pop_step *st)
{
	aw_tstate *t = &s->th[i];
	t->blocked = false;
	t->n_reads = 0;
	if (st->kind == PK_END) {
		t->ended = true;
		t->how = st->end;
		return true;
	}
	if (st->kind == PK_READ && st->atomic) {
		t->resv_loc = st->loc;
		t->resv_step = t->n;
		t->resv_broken = false;
	} else if (st->kind == PK_WRITE && st->atomic && t->resv_loc == st->loc) {
		if (t->resv_broken)
			return false;
		t->resv_loc = -1;
	} else if (st->kind != PK_CHOICE && st->atomic && t->resv_loc == st->loc)
		t->resv_loc = -1;   /* the next atomic access is no write: no pair */
	append(t, st);
	if (writes(st)) {
		s->mem[st->loc] = st->wval;
		for (int j = 0; j < A->T; j++)
			if (j != i && s->th[j].resv_loc == st->loc)
				s->th[j].resv_broken = true;
	}
	return true;
}

/* ---- the walk -------------------------------------------------------------------------- */

static void explore(aw *A, const aw_state *s, strbuf *key);

/* After thread i's await went round (s: i back where its iteration began,
 * blocked or not): whether another thread can move and writes next.  Then
 * the state is not explored: its every end is reached from the state
 * where i did not run the iteration (the same but for i's blocked reads,
 * explored by the schedules that leave i where it was), and none is a
 * liveness violation before that write.  So a spinning thread's failed
 * iteration is explored only once no write is next: what makes a
 * liveness violation, whose every thread is done or blocked. */
static bool writer_left(aw *A, const aw_state *s, int i)
{
	for (int j = 0; j < A->T; j++) {
		if (j == i || !can_move(s, j))
			continue;
		pop_step st;
		aw_fail f;
		run_thread(A, s, j, 0, &st, &f, NULL);
		if (!f.failed && (st.kind == PK_WRITE || st.kind == PK_RMW)) {
			A->r->stats.own[AW_PRUNED]++;
			return true;
		}
	}
	return false;
}

/* Thread i's next step from s, the way alt if a choice: the next state,
 * explored.  *choice: the step was a choice (its other way is next). */
static void move(aw *A, const aw_state *s, int i, int alt, bool *choice, strbuf *key)
{
	pop_step st;
	aw_fail f;
	run_thread(A, s, i, alt, &st, &f, NULL);
	*choice = st.kind == PK_CHOICE;
	if (A->rc->timed_out || (st.kind == PK_END && st.end == PE_ERROR && !f.failed) ||
	    A->rc->d->errors > A->errors) {
		A->stop = true;
		return;
	}
	aw_state next;
	state_copy(A, &next, s);
	bool go = f.failed ? drop_iteration(A, &next, i, &st, &f) && !writer_left(A, &next, i)
	                   : make_step(A, &next, i, &st);
	if (go)
		explore(A, &next, key);
	state_free(A, &next);
}

static void explore(aw *A, const aw_state *s, strbuf *key)
{
	if (A->stop)
		return;
	state_key(A, s, key);
	if (seen_before(&A->seen, (const unsigned char *)key->s, key->len))
		return;
	A->r->stats.own[AW_STATES]++;
	if ((A->r->stats.own[AW_STATES] & 255) == 0 && A->rc->deadline > 0 && paths_clock() > A->rc->deadline) {
		A->rc->timed_out = true;
		A->stop = true;
		return;
	}
	bool moved = false, blocked = false, all_done = true;
	for (int i = 0; i < A->T && !A->stop; i++) {
		all_done &= s->th[i].ended;
		blocked |= !s->th[i].ended && s->th[i].blocked;
		if (!can_move(s, i))
			continue;
		moved = true;
		bool choice;
		move(A, s, i, 0, &choice, key);
		if (choice && !A->stop)
			move(A, s, i, 1, &choice, key);
	}
	if (moved || A->stop)
		return;
	if (all_done)
		complete(A, s);
	else if (blocked)
		liveness(A);
	else
		A->r->stats.own[AW_BLOCKED]++;
}

bool aw_explore(pop_run_ctx *rc, const aw_loops *loops, const engine_opts *o, test_result *r)
{
	const litmus_test *t = rc->t;
	aw A = { 0 };
	A.rc = rc;
	A.loops = loops;
	A.t = t;
	A.o = o;
	A.r = r;
	A.T = t->n_threads;
	A.L = t->n_locs;
	A.errors = rc->d->errors;
	A.state_vals = result_state_scratch(r);
	A.regs = xcalloc((size_t)A.T + 1, sizeof *A.regs);
	aw_state s0;
	s0.mem = xcalloc((size_t)A.L + 1, sizeof *s0.mem);
	s0.th = xcalloc((size_t)A.T + 1, sizeof *s0.th);
	for (int l = 0; l < A.L; l++)
		s0.mem[l] = t->locs[l].init;
	for (int i = 0; i < A.T; i++) {
		A.regs[i] = xcalloc((size_t)t->threads[i].n_regs + 1, sizeof **A.regs);
		s0.th[i].resv_loc = -1;
	}
	strbuf key = { 0 };
	explore(&A, &s0, &key);
	free(key.s);
	state_free(&A, &s0);
	for (int i = 0; i < A.T; i++)
		free(A.regs[i]);
	free(A.regs);
	free(A.state_vals);
	free(A.dec);
	seen_free(&A.seen);
	state_table_free(&A.states);
	r->timed_out = rc->timed_out;
	return rc->d->errors == A.errors;
}
