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
 * Which model gets which order (cb_order_init): a model that binds
 * `commit_before` at top level (in its file or one it includes; RSMC.md)
 * gets that relation, CB_MODEL, whatever its name: cb_model.c evaluates it
 * on each state over the fetched events, and model_order() below adds the
 * structural pairs (addr | data | ctrl | xdep | rf), closes the union and
 * keeps the pairs between accesses, so an event is still enabled only
 * when its address and data are known.  A commit_before that is not a
 * relation, or fails to evaluate, is reported (at the binding) on the
 * first state of each test, and the test ends in an error.  Otherwise the
 * model's name (cat_model_name) decides: "power"/"ppc" -> CB_POWER,
 * "tso"/"x86tso"/"x86 tso mixed" -> CB_TSO, "sc" -> CB_SC, anything else ->
 * CB_GENERIC.  Keeping the built-in orders in C keeps our cat files
 * identical in meaning to herd's and lets herd's own ppc.cat/x86tso.cat/
 * sc.cat get the same orders.  rsmc.c decides SC per location itself
 * (uniproc) only under the named orders of models known to check it, never
 * under CB_GENERIC or CB_MODEL.
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
 *   model of a real architecture does).  It is the default of a model that
 *   names no order of its own.
 *
 * CB_MODEL = (commit_before | addr | data | ctrl | xdep | rf)+ restricted
 *   to accesses, commit_before evaluated on the fetched events (an access
 *   whose address is unknown has a location of its own there: see
 *   cb_model.c for why that is safe).  Validity and blocked runs are the
 *   model's business; `let commit_before = 0` gives cb0. */
#include <stdlib.h>
#include <string.h>

#include "rsmc.h"

/* Declared orders rsmc computes in C: the canonical text
 * (cat_model_canonical_definition) of the commit_before that our own
 * models declare, each equal in meaning to one built-in order.  A copy of
 * the declaration in any model gets the same order; test_commit_before.py
 * checks on our suite that each declaration, evaluated by the model's own
 * evaluator, explores exactly as its built-in order. */
static const struct {
	const char *canonical;
	enum cb_kind kind;
} declared_orders[] = {
	{ "(addr|data|ctrl|rf|(addr;po)|(po&loc)|(try ([M];po;[(SYNC|LWSYNC)];po;[M]) with 0)|amo)",
	  CB_POWER },
	{ "(addr|data|ctrl|rf|(po\\(W*R))|(po&loc)|(try ([M];po;[MFENCE];po;[M]) with 0)|"
	  "(po&((X*M)|(M*X)))|amo)",
	  CB_TSO },
	{ "(po|rf)", CB_SC },
};

/* Models whose order is proved (cb.c's comments, the paper) and whose
 * exploration is tested against herd on the whole corpus: recognised by
 * their fingerprint (cat_model_fingerprint: every file loaded, stdlib.cat
 * included, titles, comments and layout left out), never by title or
 * file name.  herd's files declare no order; ours declare theirs and are
 * listed so that their copies stay proved only while unchanged.  Editing
 * one of our models changes its fingerprint: test_rsmc.py fails until
 * this table is updated (weft -stats prints the fingerprint it sees). */
static const struct {
	const char *fingerprint;
	enum cb_kind kind;
	const char *what;
} proven_models[] = {
	{ "952e676146dc303e882edec7cfce3029", CB_POWER, "weft's power.cat" },
	{ "42d2ba5e7bbe6dba2f9ad9bf8abd57cf", CB_TSO, "weft's tso.cat" },
	{ "2df2869089d253314ca5ec79e4912057", CB_SC, "weft's sc.cat" },
	{ "78a08129bd5d061e1a1d5d3fa2753307", CB_POWER, "herd's ppc.cat" },
	{ "b68a3123bbbc8dfa9a81e8a3e2cecd91", CB_TSO, "herd's x86tso.cat" },
	{ "b6deda1ad197523aec3a09e3037b05fc", CB_TSO, "herd's x86tso-mixed.cat" },
	{ "a37a46bfe02f6a18f644e8eccab20446", CB_SC, "herd's sc.cat" },
	{ "fc662a4e74da3f56e5e3c49ba9279488", CB_SC, "herd's sc.cat (7.58 library)" },
};

bool cb_declared_kind(const char *canonical, enum cb_kind *kind)
{
	for (size_t i = 0; canonical && i < sizeof declared_orders / sizeof declared_orders[0]; i++)
		if (!strcmp(declared_orders[i].canonical, canonical)) {
			*kind = declared_orders[i].kind;
			return true;
		}
	return false;
}

bool cb_proven_kind(const char *fingerprint, enum cb_kind *kind)
{
	for (size_t i = 0; fingerprint && i < sizeof proven_models / sizeof proven_models[0]; i++)
		if (!strcmp(proven_models[i].fingerprint, fingerprint)) {
			*kind = proven_models[i].kind;
			return true;
		}
	return false;
}

const char *cb_kind_name(enum cb_kind k)
{
	switch (k) {
	case CB_POWER: return "power";
	case CB_TSO: return "tso";
	case CB_SC: return "sc";
	case CB_GENERIC: return "generic";
	case CB_MODEL: return "declared";
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

/* The pairs every order has: addr | data | ctrl | xdep between accesses,
 * and rf from a thread's write to each committed load. */
static void structural_edges(const rstate *s, cb_graph *g)
{
	for (int i = 0; i < s->n_threads; i++) {
		const tstate *ts = &s->th[i];
		add_deps(&g->rel, ts, &ts->addr, g->base[i]);
		add_deps(&g->rel, ts, &ts->data, g->base[i]);
		add_deps(&g->rel, ts, &ts->ctrl, g->base[i]);
		add_deps(&g->rel, ts, &ts->xdep, g->base[i]);
		for (int e = 0; e < ts->n_ev; e++) {
			const fev *f = &ts->ev[e];
			if (f->kind == EV_READ && f->committed && f->rf.t >= 0)
				brel_add(&g->rel, g->base[f->rf.t] + f->rf.k, g->base[i] + e);
		}
	}
}

/* The pairs of built-in order k within one thread, beyond the structural
 * ones. */
static void thread_edges(enum cb_kind k, const tstate *ts, int base, brel *r)
{
	int n = ts->n_ev;
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
			case CB_MODEL:   /* not built in: cb_model.c */
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

void cb_thread_pairs(enum cb_kind k, const tstate *ts, brel *r)
{
	thread_edges(k, ts, 0, r);
	add_deps(r, ts, &ts->addr, 0);
	add_deps(r, ts, &ts->data, 0);
	add_deps(r, ts, &ts->ctrl, 0);
	add_deps(r, ts, &ts->xdep, 0);
}

/* An empty relation over the fetched events of s. */
static void graph_alloc(const rstate *s, cb_graph *g)
{
	g->base = xcalloc((size_t)s->n_threads + 1, sizeof *g->base);
	int n = 0;
	for (int i = 0; i < s->n_threads; i++) {
		g->base[i] = n;
		n += s->th[i].n_ev;
	}
	g->n = n;
	g->rel = brel_new(n);
}

void cb_compute(enum cb_kind k, const rstate *s, cb_graph *g)
{
	graph_alloc(s, g);
	for (int i = 0; i < s->n_threads; i++)
		thread_edges(k, &s->th[i], g->base[i], &g->rel);
	structural_edges(s, g);
	brel_transitive_closure(&g->rel);
}

/* ---- the order of a run ------------------------------------------------------ */

void cb_order_init(cb_order *o, const litmus_test *t, cat_model *m, diag *d)
{
	memset(o, 0, sizeof *o);
	o->kind = CB_SC;
	if (!m)
		return;
	enum cb_kind proven_kind = CB_GENERIC;
	o->proven = cb_proven_kind(cat_model_fingerprint(m), &proven_kind);
	if (cat_model_defines(m, CB_MODEL_NAME)) {
		char *canonical = cat_model_canonical_definition(m, CB_MODEL_NAME);
		o->declared = true;
		if (!cb_declared_kind(canonical, &o->kind)) {
			o->kind = CB_MODEL;
			o->m = m;
			o->t = t;
			o->d = d;
		}
		free(canonical);
	} else {
		o->kind = proven_kind;
	}
	/* a proven model's own declaration is its proven order */
	o->proven = o->proven && o->kind == proven_kind;
}

/* The model's pairs and the structural ones, closed (so paths through
 * fences and branches count), then kept between accesses only. */
static void model_order(cb_order *o, const rstate *s, cb_graph *g)
{
	graph_alloc(s, g);
	if (o->failed || !cb_model_edges(o, s, g)) {
		o->failed = true;
		brel_complement(&g->rel);   /* every event before itself */
		return;
	}
	structural_edges(s, g);
	brel_transitive_closure(&g->rel);
	for (int i = 0; i < s->n_threads; i++)
		for (int k = 0; k < s->th[i].n_ev; k++) {
			if (is_access(&s->th[i].ev[k]))
				continue;
			int x = g->base[i] + k;
			memset(brel_row(&g->rel, x), 0, (size_t)g->rel.words * sizeof(uint64_t));
			for (int y = 0; y < g->n; y++)
				brel_del(&g->rel, y, x);
		}
}

void cb_order_compute(cb_order *o, const rstate *s, cb_graph *g)
{
	if (o->kind == CB_MODEL)
		model_order(o, s, g);
	else
		cb_compute(o->kind, s, g);
}

const char *cb_order_label(const cb_order *o)
{
	if (!o->proven)
		return cb_kind_name(o->kind);
	switch (o->kind) {
	case CB_POWER: return "power(proven)";
	case CB_TSO: return "tso(proven)";
	case CB_SC: return "sc(proven)";
	default: return cb_kind_name(o->kind);
	}
}

void cb_order_free(cb_order *o)
{
	memset(o, 0, sizeof *o);
}

void cb_free(cb_graph *g)
{
	brel_free(&g->rel);
	free(g->base);
	memset(g, 0, sizeof *g);
}
