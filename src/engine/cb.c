/* cb.c — commit-before orders of the RSMC engine (RSMC.md).
 *
 * The order is computed afresh on each state, over the fetched loads and
 * stores of every thread (store-conditionals known to have failed are no
 * events and take no part).  Fences and branches are committed as soon as
 * they are fetched, so they need no place in it: their effect is in the
 * pairs they order.  Every order below contains addr | data | ctrl | rf and
 * the "xdep" edges (from a store-conditional whose outcome is not known to
 * the events whose address, data or fetch depend on that outcome): an event
 * is thereby enabled only when its address and data are known.  CB_TSO
 * and CB_POWER also order the read before the write of one atomic
 * instruction (xchg), as those models do (amo in uniproc); CB_SC and
 * CB_GENERIC do not: our sc.cat allows two xchgs of x that each read the
 * other's write, a cycle for such an order.
 *
 * Which model gets which order: by the model's name (cat_model_name), not
 * by a `let commit_before` in the model files: "power"/"ppc" -> CB_POWER,
 * "tso"/"x86tso"/"x86 tso mixed" -> CB_TSO, "sc" -> CB_SC, anything else ->
 * CB_GENERIC.  Keeping the orders in C keeps our cat files identical in
 * meaning to herd's and lets herd's own ppc.cat/x86tso.cat/sc.cat get the
 * same orders.
 *
 * CB_POWER = (addr | data | ctrl | rf | addr;po | po-loc | sync | lwsync)+,
 *   sync/lwsync: every access po-before the fence before every access
 *   po-after it.  The paper proves it valid and deadlock free for POWER.
 *   Unknown addresses: po-loc is only added between accesses whose
 *   locations are known.  An access e whose location is unknown has an
 *   uncommitted addr-predecessor l; l is addr;po-before every later access,
 *   so none of those can commit before e's address is known, and e itself
 *   cannot commit before it; the po-loc pairs that appear later never point
 *   at a committed event from an uncommitted one.
 *
 * CB_SC = (po | rf)+.  Valid: in an SC execution po | rf | co | fr is
 *   acyclic, a linear extension of it commits each thread in program order
 *   with every load after the write it reads.  Deadlock free: committing in
 *   program order, a load may read the co-last write of its location and a
 *   store may go last in co; no cycle of po | rf | co | fr can close through
 *   a write placed last and a read of the latest write (the standard
 *   operational SC argument).  Addresses are always known (all po-earlier
 *   loads are committed).
 *
 * CB_TSO = (po \ (W * R) | po-loc | across-MFENCE | (po & (W*R) with an
 *   atomic (X) side) | addr | data | ctrl | rf)+.  Valid: x86-TSO's ghb =
 *   mfence | implied | ppo | rfe | fr | co is acyclic and contains po \ (W *
 *   R), the fence pairs and implied pairs; po-loc is in uniproc; rfi is
 *   po-loc or goes backwards in po (forbidden by uniproc); deps are in po;
 *   so cb is contained in the acyclic (ghb | po-loc | rf)+ — an order that
 *   every allowed execution respects up to rfi, which is itself in po-loc.
 *   Deadlock freedom is not proved: a blocked run is counted (stats).
 *   Unknown addresses: every access whose address is unknown has an
 *   uncommitted load before it in po, and po orders a load before every
 *   later access, so no later access is enabled before the address is
 *   known.
 *
 * CB_GENERIC = (addr | data | ctrl | rf | po-loc | addr;po)+: cb0 | po-loc
 *   of RSMC.md plus addr;po, which keeps po-loc sound while addresses are
 *   unknown (the argument of CB_POWER).  Valid for models that contain SC
 *   per location and forbid load buffering through addr;po (every herd
 *   model of a real architecture does). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "rsmc.h"

enum cb_kind cb_kind_for_model(const char *model_name)
{
	char key[64];
	size_t n = 0;
	for (const char *p = model_name ? model_name : ""; *p && n + 1 < sizeof key; p++)
		if (isalnum((unsigned char)*p))
			key[n++] = (char)tolower((unsigned char)*p);
	key[n] = '\0';
	if (!strcmp(key, "power") || !strcmp(key, "ppc"))
		return CB_POWER;
	if (!strcmp(key, "tso") || !strcmp(key, "x86tso") || !strcmp(key, "x86tsomixed"))
		return CB_TSO;
	if (!strcmp(key, "sc"))
		return CB_SC;
	return CB_GENERIC;
}

const char *cb_kind_name(enum cb_kind k)
{
	switch (k) {
	case CB_POWER: return "power";
	case CB_TSO: return "tso";
	case CB_SC: return "sc";
	case CB_GENERIC: return "generic";
	}
	return "?";
}

static bool is_access(const fev *f)
{
	return (f->kind == EV_READ || f->kind == EV_WRITE) && !f->failed;
}

static bool po_before(const tstate *ts, int a, int b)
{
	return a < b && ts->ev[a].instance != ts->ev[b].instance;
}

static void add_deps(brel *r, const tstate *ts, const dep_list *l, int base)
{
	for (int i = 0; i < l->n; i++) {
		int a = l->e[i].from, b = l->e[i].to;
		if (is_access(&ts->ev[a]) && is_access(&ts->ev[b]))
			brel_add(r, base + a, base + b);
	}
}

/* Is fence f one that orders all pairs across it under model kind k? */
static bool full_fence(enum cb_kind k, const fev *f)
{
	if (f->kind != EV_FENCE || !f->fence)
		return false;
	if (k == CB_POWER)
		return !strcmp(f->fence, "SYNC") || !strcmp(f->fence, "LWSYNC");
	if (k == CB_TSO)
		return !strcmp(f->fence, "MFENCE");
	return false;
}

static void thread_edges(enum cb_kind k, const tstate *ts, int base, brel *r)
{
	int n = ts->n_ev;
	add_deps(r, ts, &ts->addr, base);
	add_deps(r, ts, &ts->data, base);
	add_deps(r, ts, &ts->ctrl, base);
	add_deps(r, ts, &ts->xdep, base);
	for (int a = 0; a < n; a++) {
		const fev *ea = &ts->ev[a];
		if (!is_access(ea))
			continue;
		for (int b = a + 1; b < n; b++) {
			const fev *eb = &ts->ev[b];
			if (!is_access(eb))
				continue;
			if (!po_before(ts, a, b)) {
				/* one instruction: its read before its write, where the
				 * model orders them (amo in uniproc); weft's sc.cat
				 * does not, and allows two xchgs reading each other */
				if (ea->kind == EV_READ && eb->kind == EV_WRITE && (k == CB_TSO || k == CB_POWER))
					brel_add(r, base + a, base + b);
				continue;
			}
			bool same_loc = ea->loc_known && eb->loc_known && ea->loc == eb->loc;
			bool add = false;
			switch (k) {
			case CB_SC:
				add = true;
				break;
			case CB_TSO:
				add = same_loc || !(ea->kind == EV_WRITE && eb->kind == EV_READ) ||
				      (ea->flags & EVF_ATOMIC) || (eb->flags & EVF_ATOMIC);
				break;
			case CB_POWER:
			case CB_GENERIC:
				add = same_loc;
				break;
			}
			if (add)
				brel_add(r, base + a, base + b);
		}
	}
	/* addr;po */
	if (k == CB_POWER || k == CB_GENERIC)
		for (int i = 0; i < ts->addr.n; i++) {
			int l = ts->addr.e[i].from, e = ts->addr.e[i].to;
			if (!is_access(&ts->ev[l]))
				continue;
			for (int b = e + 1; b < n; b++)
				if (is_access(&ts->ev[b]) && po_before(ts, e, b))
					brel_add(r, base + l, base + b);
		}
	/* fences: every access before before every access after */
	for (int f = 0; f < n; f++) {
		if (!full_fence(k, &ts->ev[f]))
			continue;
		for (int a = 0; a < f; a++)
			if (is_access(&ts->ev[a]) && po_before(ts, a, f))
				for (int b = f + 1; b < n; b++)
					if (is_access(&ts->ev[b]) && po_before(ts, f, b))
						brel_add(r, base + a, base + b);
	}
}

void cb_compute(enum cb_kind k, const rstate *s, cb_graph *g)
{
	g->base = xcalloc((size_t)s->n_threads + 1, sizeof *g->base);
	int n = 0;
	for (int i = 0; i < s->n_threads; i++) {
		g->base[i] = n;
		n += s->th[i].n_ev;
	}
	g->n = n;
	g->rel = brel_new(n);
	for (int i = 0; i < s->n_threads; i++) {
		const tstate *ts = &s->th[i];
		thread_edges(k, ts, g->base[i], &g->rel);
		for (int e = 0; e < ts->n_ev; e++) {
			const fev *f = &ts->ev[e];
			if (f->kind == EV_READ && f->committed && f->rf.t >= 0)
				brel_add(&g->rel, g->base[f->rf.t] + f->rf.k, g->base[i] + e);
		}
	}
	brel_transitive_closure(&g->rel);
}

void cb_free(cb_graph *g)
{
	brel_free(&g->rel);
	free(g->base);
	memset(g, 0, sizeof *g);
}
