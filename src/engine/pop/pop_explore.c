/* pop_explore.c — POP's exploration (the paper's Algorithm 1): the current
 * interleaving, its happens-before as vector clocks, the parsimonious races
 * of each event as it is appended, each reversed at once into a schedule
 * explored recursively, and one way on in every other state.
 *
 * The sequence ev[0..n) is the interleaving explored now.  Each event has
 * a vector clock vc[p]: for each thread, how many of its steps happen
 * before p, p included; so q happens before p iff vc[p][th(q)] > idx(q).
 * ss[p] is the sleep set after the first p events (pop_sleep.c): one entry
 * per read schedule the sequence went through, each standing for the read
 * schedules reversed against the same write that it sleeps for.
 *
 * Explore (explore()) appends one step at a time: after each, the races
 * whose second event it is are reversed (reverse_races()): the suffix
 * after the first event is set aside, the schedule replayed in its place
 * and explored by a recursive call, and the suffix put back.  Then the
 * first thread whose step the sleep set allows goes on; a choice goes on
 * both ways, its second as a schedule of one event (a head: no event after
 * it that does not happen after it is fresh, so the races the first way
 * reversed are not reversed again).  A state where every thread has ended
 * is an execution, counted as herd counts it.
 *
 * Sleep sets.  The read schedules reversed against one write must not
 * continue into each other: two of them that do not conflict reach the
 * same classes.  The paper orders them (its Sect. 4.3) and has each sleep
 * for those before it, kept as a characterisation of polynomial size.
 * Here the order is that of their classes' keys (trace_key(): a number
 * that every interleaving of a schedule's class gives, the events, what
 * each read reads from and each write follows): a read schedule sleeps
 * for every read schedule against the same write with a smaller key, one
 * entry (base, the write, the location, its key) whatever their number.
 * A read performs a sleeping schedule when its happens-before predecessors
 * from base on, with it, form a read schedule (no other access of its
 * location) against that write, not performed yet, of a smaller key
 * (sleeps()): that class is explored from the schedule of the smallest
 * key it contains, and from no other.  Every such schedule is reversed
 * against the write somewhere below it (the write first, then the
 * schedule's steps, which do not depend on it: a race), so no entry
 * stands for a schedule that is never explored.
 *
 * Memory: the sequence and its clocks, one sleep set per position (at most
 * one entry per schedule on the way), and per recursion level the suffix
 * it set aside; the recursion is at most n(n-1)/2 deep (the paper's Lemma
 * 1) plus the choices: polynomial in the length of the program. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pop.h"
#include "../result.h"

typedef struct pev {
	int th, idx;        /* thread, its step number there                */
	enum pop_kind kind; /* PK_READ, PK_WRITE, PK_RMW or PK_CHOICE       */
	int loc;            /* -1 for a choice                              */
	value rval, wval;
	int alt;
	bool atomic;        /* in herd's rmw pairing (pop_step.atomic)     */
	bool sched, head;   /* in a schedule; its last event               */
} pev;

/* A suffix of the sequence set aside while a schedule is explored. */
typedef struct saved {
	int from, n;
	pev *ev;
	int *vc;
	pop_sleepset *ss;   /* ss[from + 1 .. from + n]                     */
	size_t bytes;
} saved;

/* A thread's next step, valid while the thread has `count` steps and no
 * write changed what it reads. */
typedef struct probe {
	bool valid;
	int count;
	pop_step st;
} probe;

typedef struct pop {
	pop_run_ctx *rc;
	const litmus_test *t;
	const engine_opts *o;
	test_result *r;
	state_table states;
	int T;
	int n;
	size_t cap;
	pev *ev;
	int *vc;            /* cap * T                                      */
	pop_sleepset *ss;   /* cap + 1                                      */
	int *row;           /* scratch: a candidate step's clock (T)        */
	int *lastw;         /* scratch: per location, trace_key's last write */
	value *mem;         /* each location's latest write                 */
	int *count;         /* per thread: its steps in the sequence        */
	probe *pr;
	pop_dec *dec;       /* scratch: one thread's decisions (cap)        */
	value **regs;       /* per thread: its final registers              */
	enum pop_end *how;  /* per thread: how it ended                     */
	value *state_vals;
	int errors;         /* the diag's error count at the start          */
	bool stop;
	int depth;
	size_t saved_bytes, peak;
	/* -stats: a fingerprint of each execution's class */
	uint64_t *seen;
	size_t n_seen, cap_seen;
} pop;

static bool writes(const pev *e)
{
	return e->kind == PK_WRITE || e->kind == PK_RMW;
}

static bool is_access(const pev *e)
{
	return e->kind != PK_CHOICE;
}

static bool conflict(const pev *a, const pev *b)
{
	return a->th != b->th && is_access(a) && is_access(b) && a->loc == b->loc && (writes(a) || writes(b));
}

static bool hb(const pop *P, int q, int p)
{
	return P->vc[(size_t)p * (size_t)P->T + (size_t)P->ev[q].th] > P->ev[q].idx;
}

static void join(int *into, const int *vc, int T)
{
	for (int i = 0; i < T; i++)
		if (vc[i] > into[i])
			into[i] = vc[i];
}

/* ---- accounting ------------------------------------------------------------------ */

static void account(pop *P)
{
	size_t b = P->cap * (sizeof *P->ev + (size_t)P->T * sizeof *P->vc + sizeof *P->ss + sizeof *P->dec);
	for (int p = 0; p <= P->n; p++)
		b += pop_sleepset_bytes(&P->ss[p]);
	b += P->saved_bytes;
	if (b > P->peak)
		P->peak = b;
}

/* ---- the sequence ------------------------------------------------------------------ */

static void reserve(pop *P, size_t n)
{
	if (n + 1 <= P->cap)
		return;
	size_t cap = P->cap ? P->cap : 16;
	while (cap < n + 1)
		cap *= 2;
	P->ev = xrealloc(P->ev, cap * sizeof *P->ev);
	P->vc = xrealloc(P->vc, cap * (size_t)P->T * sizeof *P->vc + 1);
	P->ss = xrealloc(P->ss, (cap + 1) * sizeof *P->ss);
	P->dec = xrealloc(P->dec, cap * sizeof *P->dec);
	for (size_t i = P->cap ? P->cap + 1 : 0; i <= cap; i++)
		memset(&P->ss[i], 0, sizeof P->ss[i]);
	P->cap = cap;
}

static void forget_probes(pop *P)
{
	for (int t = 0; t < P->T; t++)
		P->pr[t].valid = false;
}

/* memory and step counts from the sequence */
static void rebuild(pop *P)
{
	for (int l = 0; l < P->t->n_locs; l++)
		P->mem[l] = P->t->locs[l].init;
	memset(P->count, 0, (size_t)P->T * sizeof *P->count);
	for (int p = 0; p < P->n; p++) {
		P->count[P->ev[p].th]++;
		if (writes(&P->ev[p]))
			P->mem[P->ev[p].loc] = P->ev[p].wval;
	}
	forget_probes(P);
}

/* The clock e would have after the sequence: it joins those of its
 * thread's last step and of every earlier event it conflicts with. */
static void clock_of(const pop *P, const pev *e, int *row)
{
	int T = P->T;
	memset(row, 0, (size_t)T * sizeof *row);
	for (int q = P->n - 1; q >= 0; q--)
		if (P->ev[q].th == e->th || conflict(&P->ev[q], e))
			join(row, &P->vc[(size_t)q * (size_t)T], T);
	row[e->th] = e->idx + 1;
}

/* Append e (its sleep set ss[n + 1] is the caller's to set). */
static void append(pop *P, const pev *e)
{
	reserve(P, (size_t)P->n + 1);
	int p = P->n, T = P->T;
	clock_of(P, e, &P->vc[(size_t)p * (size_t)T]);
	P->ev[p] = *e;
	P->n++;
	P->count[e->th]++;
	P->pr[e->th].valid = false;
	if (writes(e)) {
		P->mem[e->loc] = e->wval;
		for (int t = 0; t < T; t++)
			if (P->pr[t].valid && (P->pr[t].st.kind == PK_READ || P->pr[t].st.kind == PK_RMW) &&
			    P->pr[t].st.loc == e->loc)
				P->pr[t].valid = false;
	}
}

/* Drop the events from position q on. */
static void discard(pop *P, int q)
{
	for (int p = q; p < P->n; p++)
		pop_sleepset_free(&P->ss[p + 1]);
	P->n = q;
	rebuild(P);
}

/* Set the events from position q on aside into sv. */
static void save_suffix(pop *P, int q, saved *sv)
{
	int m = P->n - q, T = P->T;
	sv->from = q;
	sv->n = m;
	sv->ev = xmalloc(((size_t)m + 1) * sizeof *sv->ev);
	sv->vc = xmalloc(((size_t)m * (size_t)T + 1) * sizeof *sv->vc);
	sv->ss = xmalloc(((size_t)m + 1) * sizeof *sv->ss);
	memcpy(sv->ev, &P->ev[q], (size_t)m * sizeof *sv->ev);
	memcpy(sv->vc, &P->vc[(size_t)q * (size_t)T], (size_t)m * (size_t)T * sizeof *sv->vc);
	sv->bytes = (size_t)m * (sizeof *sv->ev + (size_t)T * sizeof *sv->vc + sizeof *sv->ss);
	for (int i = 0; i < m; i++) {
		sv->ss[i] = P->ss[q + 1 + i];
		sv->bytes += pop_sleepset_bytes(&sv->ss[i]);
		memset(&P->ss[q + 1 + i], 0, sizeof P->ss[0]);
	}
	P->saved_bytes += sv->bytes;
	P->n = q;
	rebuild(P);
}

/* Put sv back after position sv->from, dropping what is there now. */
static void restore_suffix(pop *P, saved *sv)
{
	discard(P, sv->from);
	int q = sv->from, m = sv->n, T = P->T;
	reserve(P, (size_t)q + (size_t)m);
	memcpy(&P->ev[q], sv->ev, (size_t)m * sizeof *sv->ev);
	memcpy(&P->vc[(size_t)q * (size_t)T], sv->vc, (size_t)m * (size_t)T * sizeof *sv->vc);
	for (int i = 0; i < m; i++)
		P->ss[q + 1 + i] = sv->ss[i];
	P->n = q + m;
	P->saved_bytes -= sv->bytes;
	free(sv->ev);
	free(sv->vc);
	free(sv->ss);
	rebuild(P);
}

/* ---- threads --------------------------------------------------------------------- */

/* Thread th's next step (way alt if it is a choice). */
static const pop_step *probe_thread(pop *P, int th, int alt)
{
	probe *pr = &P->pr[th];
	if (pr->valid && pr->count == P->count[th] && alt == 0)
		return &pr->st;
	int k = 0;
	for (int p = 0; p < P->n; p++)
		if (P->ev[p].th == th) {
			P->dec[k].rval = P->ev[p].rval;
			P->dec[k].alt = P->ev[p].alt;
			k++;
		}
	pop_thread_step(P->rc, th, P->dec, k, P->mem, alt, &pr->st, P->regs[th], NULL);
	pr->valid = alt == 0;
	pr->count = P->count[th];
	if (pr->st.kind == PK_END) {
		P->how[th] = pr->st.end;
		if (pr->st.end == PE_ERROR)
			P->stop = true;
	}
	if (P->rc->d->errors > P->errors)
		P->stop = true;
	return &pr->st;
}

static pev event_of(const pop *P, int th, const pop_step *st)
{
	pev e = { 0 };
	e.th = th;
	e.idx = P->count[th];
	e.kind = st->kind;
	e.loc = st->kind == PK_CHOICE ? -1 : st->loc;
	e.rval = st->rval;
	e.wval = st->wval;
	e.alt = st->alt;
	e.atomic = st->atomic;
	return e;
}

/* ---- executions ------------------------------------------------------------------ */

static value final_value(void *ctx, lval lv)
{
	const pop *P = ctx;
	if (lv.thread >= 0) {
		if (lv.thread < P->T && lv.reg >= 0 && lv.reg < P->t->threads[lv.thread].n_regs)
			return P->regs[lv.thread][lv.reg];
		return value_no_fault();
	}
	if (lv.loc >= 0 && lv.loc < P->t->n_locs)
		return P->mem[lv.loc];
	return value_int(0);
}

static uint64_t mix(uint64_t h, uint64_t x)
{
	h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	h *= 0xff51afd7ed558ccdull;
	return h ^ (h >> 33);
}

/* Event e, at position p, in a class's number: it with the write before it
 * at its location (what a read reads from, what a write follows in
 * coherence), last[loc] that write's position (-1: none among the events
 * counted), which a write then becomes. */
static uint64_t event_mark(const pop *P, const pev *e, int p, int *last)
{
	uint64_t h = mix(mix(mix(0, (uint64_t)e->th), (uint64_t)e->idx), (uint64_t)e->kind);
	h = mix(h, (uint64_t)e->alt);
	if (is_access(e)) {
		int w = last[e->loc];
		uint64_t src = w < 0 ? 0 : mix((uint64_t)P->ev[w].th + 1, (uint64_t)P->ev[w].idx);
		h = mix(mix(h, (uint64_t)e->loc), src);
		if (writes(e))
			last[e->loc] = p;
	}
	return h;
}

static void forget_writes(pop *P)
{
	for (int l = 0; l < P->t->n_locs; l++)
		P->lastw[l] = -1;
}

/* The class of the sequence: its events' marks summed, so that every
 * interleaving of the class gives the same number. */
static uint64_t class_fingerprint(pop *P)
{
	forget_writes(P);
	uint64_t sum = 0;
	for (int p = 0; p < P->n; p++)
		sum += event_mark(P, &P->ev[p], p, P->lastw);
	return sum;
}

/* The fingerprints kept: enough for any litmus test, bounded so that a
 * benchmark's memory stays the exploration's own. */
#define POP_SEEN_MAX ((size_t)1 << 18)

/* Whether fingerprint f was seen before; keeps it (the first POP_SEEN_MAX
 * only: later ones are looked up, not kept). */
static bool seen_before(pop *P, uint64_t f)
{
	if (f == 0)
		f = 1;
	if (P->n_seen >= POP_SEEN_MAX) {
		size_t j = f & (P->cap_seen - 1);
		for (; P->seen[j]; j = (j + 1) & (P->cap_seen - 1))
			if (P->seen[j] == f)
				return true;
		return false;
	}
	if ((P->n_seen + 1) * 2 > P->cap_seen) {
		size_t cap = P->cap_seen ? P->cap_seen * 2 : 1024;
		uint64_t *s = xcalloc(cap, sizeof *s);
		for (size_t i = 0; i < P->cap_seen; i++)
			if (P->seen[i]) {
				size_t j = P->seen[i] & (cap - 1);
				while (s[j])
					j = (j + 1) & (cap - 1);
				s[j] = P->seen[i];
			}
		free(P->seen);
		P->seen = s;
		P->cap_seen = cap;
	}
	size_t j = f & (P->cap_seen - 1);
	while (P->seen[j]) {
		if (P->seen[j] == f)
			return true;
		j = (j + 1) & (P->cap_seen - 1);
	}
	P->seen[j] = f;
	P->n_seen++;
	return false;
}

/* sc.cat's atomicity (empty rmw & (fre; coe)) on the sequence: herd pairs
 * each atomic read with the next atomic access of its location in its
 * thread when that is a write; a pair that is not one step (a PK_RMW)
 * must have no write of another thread between its read and its write. */
static bool atomicity_holds(const pop *P)
{
	for (int r = 0; r < P->n; r++) {
		const pev *rd = &P->ev[r];
		if (rd->kind != PK_READ || !rd->atomic)
			continue;
		int w = r + 1;
		while (w < P->n && !(P->ev[w].th == rd->th && P->ev[w].atomic && is_access(&P->ev[w]) &&
		                     P->ev[w].loc == rd->loc))
			w++;
		if (w == P->n || P->ev[w].kind != PK_WRITE)
			continue;   /* no pair: the next is a read (a PK_RMW reads first), or none */
		for (int q = r + 1; q < w; q++)
			if (P->ev[q].th != rd->th && writes(&P->ev[q]) && P->ev[q].loc == rd->loc)
				return false;
	}
	return true;
}

/* Every thread has ended: one execution of herd's. */
static void complete(pop *P)
{
	test_result *r = P->r;
	r->stats.own[POP_EXECUTIONS]++;
	account(P);
	if (P->o->stats && seen_before(P, class_fingerprint(P)))
		r->stats.own[POP_REDUNDANT]++;
	bool toofar = false;
	for (int t = 0; t < P->T; t++) {
		if (P->how[t] == PE_DROPPED)
			return;   /* herd has no such candidate */
		toofar |= P->how[t] == PE_CUT;
	}
	if (!atomicity_holds(P)) {
		r->stats.own[POP_INFEASIBLE]++;
		return;
	}
	const litmus_test *t = P->t;
	if (t->filter && !cond_eval_final(t->filter, t, final_value, P)) {
		r->stats.filtered++;
		return;
	}
	cat_verdict v = { .allowed = true, .n_allowed = 1 };
	result_count_execution(r, &P->states, t, &v, toofar, final_value, P, P->state_vals);
	if ((r->stats.own[POP_EXECUTIONS] & 63) == 0 && P->rc->deadline > 0 && paths_clock() > P->rc->deadline) {
		P->rc->timed_out = true;
		P->stop = true;
	}
}

/* ---- sleep sets ------------------------------------------------------------------- */

/* The key of the schedule read e (at position p, clock row) ends: e and the
 * events from base on that happen before it, as class_fingerprint numbers
 * a class (a write before base counts as none: every event of the
 * schedule's class is from base on).  *read_schedule: none of those events
 * accesses e's location, as in a read schedule. */
static uint64_t trace_key(pop *P, int base, int p, const int *row, const pev *e, bool *read_schedule)
{
	forget_writes(P);
	uint64_t sum = 0;
	*read_schedule = false;
	for (int r = base; r < p; r++) {
		const pev *f = &P->ev[r];
		if (row[f->th] <= f->idx)
			continue;   /* not before e */
		if (is_access(f) && f->loc == e->loc)
			return 0;
		sum += event_mark(P, f, r, P->lastw);
	}
	*read_schedule = true;
	return sum + event_mark(P, e, p, P->lastw);
}

/* Whether step e, at position p (appended there, or the next step when p
 * is n), performs a read schedule an entry of ss sleeps for; row is its
 * clock, NULL: computed here when it matters. */
static bool sleeps(pop *P, const pop_sleepset *ss, const pev *e, int p, const int *row)
{
	if (e->kind != PK_READ)
		return false;
	for (int i = 0; i < ss->n; i++) {
		const pop_sleeper *z = &ss->s[i];
		if (z->loc != e->loc || P->count[z->wth] > z->widx)
			continue;   /* another location, or its write is performed */
		if (!row) {
			clock_of(P, e, P->row);
			row = P->row;
		}
		bool read_schedule;
		uint64_t key = trace_key(P, z->base, p, row, e, &read_schedule);
		if (read_schedule && key < z->key)
			return true;
	}
	return false;
}

/* ---- races ---------------------------------------------------------------------- */

static void explore(pop *P);

/* Explore a new schedule, or a choice's way, one level deeper. */
static void explore_nested(pop *P)
{
	P->depth++;
	if (P->depth > P->r->stats.own[POP_DEPTH])
		P->r->stats.own[POP_DEPTH] = P->depth;
	account(P);
	explore(P);
	P->depth--;
}

/* Definition 6: last is fresh after q when every schedule head between
 * them happens before it (last itself, if in a schedule, is its head). */
static bool fresh(const pop *P, int q, int last)
{
	if (P->ev[last].sched && !P->ev[last].head)
		return false;
	for (int r = q + 1; r < last; r++)
		if (P->ev[r].head && !hb(P, r, last))
			return false;
	return true;
}

/* The schedule reversing the race of q and last (both positions of the
 * sequence): what happens before last after q, then last; explored at
 * once unless it performs a schedule the sleep set at q sleeps for.  A
 * read schedule then sleeps for the read schedules against the write at q
 * with smaller keys (pop_sleep.c). */
static void reverse(pop *P, int q, int last)
{
	int m = 0, T = P->T;
	pev *sig = xmalloc(((size_t)(last - q) + 1) * sizeof *sig);
	for (int r = q + 1; r <= last; r++)
		if (r == last || hb(P, r, last))
			sig[m++] = P->ev[r];
	saved sv;
	save_suffix(P, q, &sv);
	bool ok = true;
	for (int i = 0; i < m && ok; i++) {
		const pop_step *st = probe_thread(P, sig[i].th, sig[i].kind == PK_CHOICE ? sig[i].alt : 0);
		if (st->kind == PK_END || P->stop) {
			/* an error or the time limit: the replay stops there */
			WEFT_ASSERT(P->stop);
			ok = false;
			break;
		}
		pev e = event_of(P, sig[i].th, st);
		WEFT_ASSERT(i == m - 1 || (e.kind == sig[i].kind && e.loc == sig[i].loc));
		e.sched = true;
		e.head = i == m - 1;
		append(P, &e);
		int p = P->n - 1;
		ok = !sleeps(P, &P->ss[q], &P->ev[p], p, &P->vc[(size_t)p * (size_t)T]);
	}
	if (ok) {
		pop_sleepset ns;
		pop_sleepset_copy(&ns, &P->ss[q], P->count);
		int h = P->n - 1;
		bool read_schedule;
		if (P->ev[h].kind == PK_READ) {
			uint64_t key = trace_key(P, q, h, &P->vc[(size_t)h * (size_t)T], &P->ev[h], &read_schedule);
			if (read_schedule) {
				pop_sleeper z = { q, sv.ev[0].th, sv.ev[0].idx, P->ev[h].loc, key };
				pop_sleepset_add(&ns, z);
			}
		}
		pop_sleepset_free(&P->ss[P->n]);
		P->ss[P->n] = ns;
		explore_nested(P);
	}
	restore_suffix(P, &sv);
	free(sig);
}

/* Reverse the parsimonious races (Definition 7) whose second event is the
 * last one: q races with it when q happens before it through no other
 * event (cov: the clocks of the later events that happen before it). */
static void reverse_races(pop *P)
{
	int last = P->n - 1, T = P->T;
	if (last < 0 || !is_access(&P->ev[last]) || (P->ev[last].sched && !P->ev[last].head))
		return;
	int *vl = xmalloc((size_t)T * sizeof *vl);
	int *cov = xcalloc((size_t)T, sizeof *cov);
	memcpy(vl, &P->vc[(size_t)last * (size_t)T], (size_t)T * sizeof *vl);
	for (int q = last - 1; q >= 0 && !P->stop; q--) {
		const pev *e1 = &P->ev[q];
		if (vl[e1->th] <= e1->idx)
			continue;   /* not before last in happens-before */
		bool covered = cov[e1->th] > e1->idx;
		join(cov, &P->vc[(size_t)q * (size_t)T], T);
		if (covered || !conflict(e1, &P->ev[last]) || e1->sched || !fresh(P, q, last))
			continue;
		reverse(P, q, last);
	}
	free(vl);
	free(cov);
}

/* ---- exploring ------------------------------------------------------------------ */

/* Go on from the sequence as it is, to the end of every way. */
static void explore(pop *P)
{
	for (;;) {
		if (P->stop)
			return;
		reverse_races(P);
		if (P->stop)
			return;
		int pick = -1, n = P->n;
		bool all_ended = true;
		pev e = { 0 };
		for (int t = 0; t < P->T && pick < 0; t++) {
			const pop_step *st = probe_thread(P, t, 0);
			if (P->stop)
				return;
			if (st->kind == PK_END)
				continue;
			all_ended = false;
			e = event_of(P, t, st);
			if (!sleeps(P, &P->ss[n], &e, n, NULL))
				pick = t;
		}
		if (pick < 0) {
			if (all_ended)
				complete(P);
			else
				P->r->stats.own[POP_BLOCKED]++;
			return;
		}
		if (e.kind != PK_CHOICE) {
			append(P, &e);
			pop_sleepset_copy(&P->ss[P->n], &P->ss[n], P->count);
			continue;
		}
		/* a choice: each way, the second as a schedule of one event */
		for (int a = 0; a < 2 && !P->stop; a++) {
			if (a > 0) {
				const pop_step *st = probe_thread(P, pick, a);
				if (P->stop || st->kind != PK_CHOICE)
					break;
				e = event_of(P, pick, st);
				e.sched = e.head = true;
			}
			/* a choice is no read: no sleeping schedule ends with it */
			append(P, &e);
			pop_sleepset_copy(&P->ss[P->n], &P->ss[n], P->count);
			explore_nested(P);
			discard(P, n);
		}
		return;
	}
}

bool pop_explore(pop_run_ctx *rc, const engine_opts *o, test_result *r)
{
	const litmus_test *t = rc->t;
	pop P = { .rc = rc, .t = t, .o = o, .r = r, .T = t->n_threads, .errors = rc->d->errors };
	reserve(&P, 16);
	P.row = xcalloc((size_t)P.T + 1, sizeof *P.row);
	P.lastw = xcalloc((size_t)t->n_locs + 1, sizeof *P.lastw);
	P.mem = xmalloc(((size_t)t->n_locs + 1) * sizeof *P.mem);
	P.count = xcalloc((size_t)P.T + 1, sizeof *P.count);
	P.pr = xcalloc((size_t)P.T + 1, sizeof *P.pr);
	P.how = xcalloc((size_t)P.T + 1, sizeof *P.how);
	P.regs = xcalloc((size_t)P.T + 1, sizeof *P.regs);
	for (int i = 0; i < P.T; i++)
		P.regs[i] = xcalloc((size_t)t->threads[i].n_regs + 1, sizeof *P.regs[i]);
	P.state_vals = result_state_scratch(r);
	rebuild(&P);
	explore(&P);
	r->stats.own[POP_PEAK_BYTES] = (long)P.peak;
	r->timed_out |= rc->timed_out;
	discard(&P, 0);
	pop_sleepset_free(&P.ss[0]);
	state_table_free(&P.states);
	for (int i = 0; i < P.T; i++)
		free(P.regs[i]);
	free(P.regs);
	free(P.how);
	free(P.pr);
	free(P.count);
	free(P.mem);
	free(P.ev);
	free(P.vc);
	free(P.ss);
	free(P.row);
	free(P.lastw);
	free(P.dec);
	free(P.seen);
	free(P.state_vals);
	return rc->d->errors == P.errors;
}
