/* rvf_verify.c — VerifySC (the paper's Algorithm 1 with its heuristics of
 * 4.2): is there an SC interleaving of the events X where every read reads
 * from one of its good writes?
 *
 * A prefix of the interleaving is described by how far each thread went
 * and, per location, which thread wrote it last (its witness state: the
 * paper shows two prefixes with one state extend alike, so each state is
 * searched from once).  An event can come next when it is its thread's
 * next one and
 *   - a read: the location's last write is one of its good writes;
 *   - a write: no read still to come holds the location (has all its good
 *     writes behind it: writing over the last of them would leave it
 *     nothing to read), and no other thread has a pair of an atomic read
 *     and its write open on it;
 *   - the observer's: every other event is behind.
 * Depth first, from the states reached greedily: a read that can come
 * next is taken at once (it changes no memory; not one that opens a
 * pair), and so is a write that
 * covers a write no read still to come wants, when no such read wants it
 * either.  Otherwise the events that can come next are tried in the order
 * of the auxiliary trace.
 *
 * Counters per call: remaining[r], a read's good writes not yet behind;
 * held[loc], the reads to come with none remaining; wanted[w], the reads
 * to come that w is good for.  Each step is undone exactly in reverse. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "rvf.h"

struct rvf_verifier {
	const rvf_events *X;
	int T, L, n_th;          /* n_th = T + 1: the threads with a position */
	int total, tlen;         /* events to place (no initial ones), placed */
	int *pos;                /* per thread: its events placed             */
	int *active;             /* per location: its last write placed       */
	int *remaining, *wanted; /* per event                                 */
	int *held;               /* per location                              */
	int *open;               /* per location: pairs whose read is placed,
	                          * not their write                          */
	int *own;                /* per thread and location: those of the
	                          * thread (own[th * L + loc])               */
	size_t cap_own;
	int *pair;               /* per event: an atomic read's paired write,
	                          * or -1 (rvf_pair_of)                       */
	int *closes;             /* per event: 1 for a pair's write, else 0   */
	int *rstart, *radj;      /* per write: the reads it is good for (CSR) */
	int *rank;               /* per event: its place in the aux trace     */
	int *trace, *undo;       /* the prefix; each write's previous active  */
	int *cand;               /* the candidates of each branching point   */
	size_t cap_ev, cap_loc, cap_th, cap_adj, cap_cand;
	/* witness states seen: keys of n_th + L ints, open addressing */
	int *keys;
	size_t n_keys, cap_keys;
	int *slots;
	size_t n_slots;
	int *key;                /* scratch: the current state's key          */
};

rvf_verifier *rvf_verifier_new(void)
{
	return xcalloc(1, sizeof(rvf_verifier));
}

void rvf_verifier_free(rvf_verifier *v)
{
	if (!v)
		return;
	free(v->pos);
	free(v->active);
	free(v->remaining);
	free(v->wanted);
	free(v->held);
	free(v->open);
	free(v->own);
	free(v->pair);
	free(v->closes);
	free(v->rstart);
	free(v->radj);
	free(v->rank);
	free(v->trace);
	free(v->undo);
	free(v->keys);
	free(v->slots);
	free(v->key);
	free(v->cand);
	free(v);
}

static bool reads(const rvf_event *e)
{
	return e->kind == PK_READ || e->kind == PK_RMW;
}

static bool writes(const rvf_event *e)
{
	return e->kind == PK_WRITE || e->kind == PK_RMW;
}

static bool placed(const rvf_verifier *v, int id)
{
	const rvf_event *e = &v->X->ev[id];
	return e->th > v->T || v->pos[e->th] > e->idx;
}

static bool is_good(const rvf_events *X, const rvf_event *r, int w)
{
	for (int i = 0; i < r->n_good; i++)
		if (X->good[r->good + i] == w)
			return true;
	return false;
}

/* ---- sizes and counters --------------------------------------------------------------- */

static void fit(int **p, size_t n)
{
	*p = xrealloc(*p, n * sizeof **p);
}

static void setup(rvf_verifier *v, const rvf_events *X, const int *aux, int n_aux)
{
	v->X = X;
	v->T = X->T;
	v->L = X->L;
	v->n_th = X->T + 1;
	size_t n = (size_t)X->n + 2, L = (size_t)X->L + 1, nt = (size_t)v->n_th + 1;
	if (n > v->cap_ev) {
		fit(&v->remaining, n);
		fit(&v->wanted, n);
		fit(&v->rstart, n);
		fit(&v->rank, n);
		fit(&v->trace, n);
		fit(&v->undo, n);
		fit(&v->pair, n);
		fit(&v->closes, n);
		v->cap_ev = n;
	}
	if (L > v->cap_loc) {
		fit(&v->active, L);
		fit(&v->held, L);
		fit(&v->open, L);
		v->cap_loc = L;
	}
	if (nt + L > v->cap_th) {
		fit(&v->pos, nt + L);
		fit(&v->key, nt + L);
		v->cap_th = nt + L;
	}
	/* one branching point per placed event at most, each with a thread's
	 * worth of candidates */
	size_t pool = n * nt;
	if (pool > v->cap_cand) {
		fit(&v->cand, pool);
		v->cap_cand = pool;
	}
	size_t own = nt * L;
	if (own > v->cap_own) {
		fit(&v->own, own);
		v->cap_own = own;
	}
	memset(v->own, 0, own * sizeof *v->own);
	if (v->n_slots > 4096) {
		/* a large search before: do not clear its table for every
		 * small one after it */
		free(v->slots);
		v->slots = NULL;
		v->n_slots = 0;
	}
	memset(v->pos, 0, nt * sizeof *v->pos);
	memset(v->held, 0, L * sizeof *v->held);
	memset(v->open, 0, L * sizeof *v->open);
	memset(v->closes, 0, n * sizeof *v->closes);
	memset(v->wanted, 0, n * sizeof *v->wanted);
	memset(v->rstart, 0, n * sizeof *v->rstart);
	v->total = 0;
	for (int i = 0; i < X->n; i++) {
		const rvf_event *e = &X->ev[i];
		v->rank[i] = X->n;
		if (e->th > v->T) {
			v->active[e->loc] = i;
			continue;
		}
		v->total++;
		v->pair[i] = rvf_pair_of(X, i);
		if (v->pair[i] >= 0)
			v->closes[v->pair[i]] = 1;
		if (!reads(e))
			continue;
		v->remaining[i] = 0;
		for (int k = 0; k < e->n_good; k++) {
			int w = X->good[e->good + k];
			v->wanted[w]++;
			v->rstart[w + 1]++;
			if (X->ev[w].th <= v->T)
				v->remaining[i]++;
		}
		if (v->remaining[i] == 0)
			v->held[e->loc]++;
	}
	for (int i = 0; i < n_aux; i++)
		v->rank[aux[i]] = i;
	/* the reads each write is good for */
	for (int i = 0; i < X->n; i++)
		v->rstart[i + 1] += v->rstart[i];
	size_t adj = (size_t)v->rstart[X->n] + 1;
	if (adj > v->cap_adj) {
		v->radj = xrealloc(v->radj, adj * sizeof *v->radj);
		v->cap_adj = adj;
	}
	int *fill = v->undo;   /* scratch until the search starts */
	memcpy(fill, v->rstart, (size_t)X->n * sizeof *fill);
	for (int i = 0; i < X->n; i++) {
		const rvf_event *e = &X->ev[i];
		if (e->th <= v->T && reads(e))
			for (int k = 0; k < e->n_good; k++)
				v->radj[fill[X->good[e->good + k]]++] = i;
	}
	v->tlen = 0;
	v->n_keys = 0;
	if (v->n_slots)
		memset(v->slots, -1, v->n_slots * sizeof *v->slots);
}

/* ---- steps ------------------------------------------------------------------------------ */

static int next_of(const rvf_verifier *v, int th)
{
	return v->pos[th] < v->X->count[th] ? v->X->by_th[th][v->pos[th]] : -1;
}

static bool others_done(const rvf_verifier *v)
{
	for (int t = 0; t < v->T; t++)
		if (v->pos[t] < v->X->count[t])
			return false;
	return true;
}

static int *own_of(const rvf_verifier *v, const rvf_event *e)
{
	return &v->own[(size_t)e->th * (size_t)v->L + (size_t)e->loc];
}

/* The pairs open on e's location that e's thread opened. */
static int own_open(const rvf_verifier *v, const rvf_event *e)
{
	return *own_of(v, e);
}

/* Can event id come next (it is its thread's next)? */
static bool can_place(const rvf_verifier *v, int id)
{
	const rvf_events *X = v->X;
	const rvf_event *e = &X->ev[id];
	if (e->th == v->T && !others_done(v))
		return false;
	if (reads(e) && !is_good(X, e, v->active[e->loc]))
		return false;
	if (writes(e)) {
		int holders = v->held[e->loc];
		if (reads(e) && v->remaining[id] == 0)
			holders--;   /* its own read comes first */
		/* herd's atomicity (rmw & (fre; coe)) is about the writes of
		 * other threads: the thread's own may come between its pair */
		if (holders > 0 || v->open[e->loc] > own_open(v, e))
			return false;
	}
	return true;
}

static void place(rvf_verifier *v, int id)
{
	const rvf_events *X = v->X;
	const rvf_event *e = &X->ev[id];
	if (reads(e)) {
		if (v->remaining[id] == 0)
			v->held[e->loc]--;
		for (int k = 0; k < e->n_good; k++)
			v->wanted[X->good[e->good + k]]--;
		if (v->pair[id] >= 0) {
			v->open[e->loc]++;
			(*own_of(v, e))++;
		}
	}
	if (writes(e)) {
		v->open[e->loc] -= v->closes[id];
		*own_of(v, e) -= v->closes[id];
		v->undo[v->tlen] = v->active[e->loc];
		v->active[e->loc] = id;
		for (int k = v->rstart[id]; k < v->rstart[id + 1]; k++) {
			int r = v->radj[k];
			if (--v->remaining[r] == 0 && !placed(v, r))
				v->held[X->ev[r].loc]++;
		}
	}
	v->pos[e->th]++;
	v->trace[v->tlen++] = id;
}

static void unplace(rvf_verifier *v)
{
	const rvf_events *X = v->X;
	int id = v->trace[--v->tlen];
	const rvf_event *e = &X->ev[id];
	v->pos[e->th]--;
	if (writes(e)) {
		for (int k = v->rstart[id]; k < v->rstart[id + 1]; k++) {
			int r = v->radj[k];
			if (v->remaining[r]++ == 0 && !placed(v, r))
				v->held[X->ev[r].loc]--;
		}
		v->active[e->loc] = v->undo[v->tlen];
		v->open[e->loc] += v->closes[id];
		*own_of(v, e) += v->closes[id];
	}
	if (reads(e)) {
		if (v->pair[id] >= 0) {
			v->open[e->loc]--;
			(*own_of(v, e))--;
		}
		for (int k = 0; k < e->n_good; k++)
			v->wanted[X->good[e->good + k]]++;
		if (v->remaining[id] == 0)
			v->held[e->loc]++;
	}
}

/* One greedy step (4.2's first heuristic): false when none applies. */
static bool greedy_step(rvf_verifier *v)
{
	const rvf_events *X = v->X;
	for (int t = 0; t < v->n_th; t++) {
		int id = next_of(v, t);
		/* a read that opens a pair is no greedy step: it closes the
		 * location to other writes until its pair's write */
		if (id >= 0 && X->ev[id].kind == PK_READ && v->pair[id] < 0 && can_place(v, id)) {
			place(v, id);
			return true;
		}
	}
	for (int t = 0; t < v->T; t++) {
		int id = next_of(v, t);
		if (id < 0 || X->ev[id].kind != PK_WRITE || v->wanted[id] > 0)
			continue;
		if (v->wanted[v->active[X->ev[id].loc]] == 0 && can_place(v, id)) {
			place(v, id);
			return true;
		}
	}
	return false;
}

/* ---- witness states seen ----------------------------------------------------------------- */

static uint64_t hash_key(const int *k, int n)
{
	uint64_t h = 1469598103934665603u;
	for (int i = 0; i < n; i++) {
		h ^= (uint64_t)(uint32_t)k[i];
		h *= 1099511628211u;
	}
	return h ^ (h >> 31);
}

static void rehash(rvf_verifier *v, int klen)
{
	size_t ns = v->n_slots ? v->n_slots * 2 : 256;
	free(v->slots);
	v->slots = xmalloc(ns * sizeof *v->slots);
	memset(v->slots, -1, ns * sizeof *v->slots);
	v->n_slots = ns;
	for (size_t i = 0; i < v->n_keys; i++) {
		size_t j = hash_key(&v->keys[i * (size_t)klen], klen) & (ns - 1);
		while (v->slots[j] >= 0)
			j = (j + 1) & (ns - 1);
		v->slots[j] = (int)i;
	}
}

/* Was the current witness state seen?  Keeps it when not. */
static bool seen(rvf_verifier *v)
{
	int klen = v->n_th + v->L;
	memcpy(v->key, v->pos, (size_t)v->n_th * sizeof *v->key);
	for (int l = 0; l < v->L; l++)
		v->key[v->n_th + l] = v->X->ev[v->active[l]].th;
	if ((v->n_keys + 1) * 2 > v->n_slots)
		rehash(v, klen);
	size_t mask = v->n_slots - 1, j = hash_key(v->key, klen) & mask;
	for (; v->slots[j] >= 0; j = (j + 1) & mask)
		if (!memcmp(&v->keys[(size_t)v->slots[j] * (size_t)klen], v->key, (size_t)klen * sizeof *v->key))
			return true;
	if ((v->n_keys + 1) * (size_t)klen > v->cap_keys) {
		size_t c = v->cap_keys ? v->cap_keys * 2 : 1024;
		while (c < (v->n_keys + 1) * (size_t)klen)
			c *= 2;
		v->keys = xrealloc(v->keys, c * sizeof *v->keys);
		v->cap_keys = c;
	}
	memcpy(&v->keys[v->n_keys * (size_t)klen], v->key, (size_t)klen * sizeof *v->key);
	v->slots[j] = (int)v->n_keys++;
	return false;
}

/* ---- the search ------------------------------------------------------------------------------ */

static bool search(rvf_verifier *v, int depth)
{
	int mark = v->tlen;
	while (v->tlen < v->total && greedy_step(v))
		;
	if (v->tlen == v->total)
		return true;
	if (!seen(v)) {
		/* the events that can come next, in the aux trace's order */
		int *cand = &v->cand[(size_t)depth * (size_t)(v->n_th + 1)], n = 0;
		for (int t = 0; t < v->n_th; t++) {
			int id = next_of(v, t);
			if (id < 0 || !can_place(v, id))
				continue;
			int k = n++;
			while (k > 0 && v->rank[cand[k - 1]] > v->rank[id]) {
				cand[k] = cand[k - 1];
				k--;
			}
			cand[k] = id;
		}
		for (int i = 0; i < n; i++) {
			place(v, cand[i]);
			if (search(v, depth + 1))
				return true;
			unplace(v);
		}
	}
	while (v->tlen > mark)
		unplace(v);
	return false;
}

bool rvf_verify_sc(rvf_verifier *v, const rvf_events *X, const int *aux, int n_aux, int *out)
{
	setup(v, X, aux, n_aux);
	if (!search(v, 0))
		return false;
	memcpy(out, v->trace, (size_t)v->total * sizeof *out);
	return true;
}

/* ---- atomic pairs ------------------------------------------------------------------------------ */

int rvf_pair_of(const rvf_events *X, int r)
{
	const rvf_event *e = &X->ev[r];
	if (e->kind != PK_READ || !e->atomic || e->th >= X->T)
		return -1;
	for (int k = e->idx + 1; k < X->count[e->th]; k++) {
		int id = X->by_th[e->th][k];
		const rvf_event *n = &X->ev[id];
		if (n->loc == e->loc && n->atomic)
			return n->kind == PK_WRITE ? id : -1;
	}
	return -1;
}

bool rvf_atomic_ok(const rvf_events *X, const int *tr, int n)
{
	for (int i = 0; i < n; i++) {
		int w = rvf_pair_of(X, tr[i]);
		if (w < 0)
			continue;
		for (int k = i + 1; k < n && tr[k] != w; k++) {
			const rvf_event *e = &X->ev[tr[k]];
			if (writes(e) && e->loc == X->ev[w].loc && e->th != X->ev[w].th)
				return false;
		}
	}
	return true;
}
