/* cat_builtin.c — what an execution provides to a model: the predefined
 * event sets and relations, and the primitive functions.
 *
 * Names and meanings follow herd7 on non-mixed-size tests:
 *   W R M F B IW FW   writes, reads, memory events, fences, branches,
 *                     initial writes, co-last write of each location
 *   X EX              events of atomic instructions (xchg, lock ...), of
 *                     load-reserve / store-conditional (lwarx, stwcx.)
 *   RMW               events of an rmw pair; AMO (single-event atomics,
 *                     none here), Exp (M but the instruction fetches of
 *                     herd's ifetch, NExp: cat_ifetch.c), PTE, ADDR: empty
 *   id loc int ext    int: same thread (initial writes are in no thread);
 *                     ext: different threads, the initial writes counting
 *                     as one thread of their own
 *   po                program order between instructions: events of one
 *                     instruction (the read and write of an xchg) are not
 *                     po-related, as in herd (they are `same-instance`)
 *   rf co fr          fr = (rf^-1 ; co) \ id
 *   addr data ctrl rmw   from the execution; amo = rmw & same-instance
 *   same-instance     events of one instruction instance (and id)
 *   sm si             same memory access / instruction: for non-mixed-size
 *                     tests, the identity on memory events
 *   iico_data iico_ctrl   intra-instruction dependencies: those of a
 *                     fetched instruction (cat_ifetch.c), else empty
 *   iico_order        (a catdep model's, cat_herd_register_projection)
 *                     the fixed order of a pair's accesses (LDIAPP)
 * Primitives: domain, range, classes-loc (partition by location; also
 * bound as partition), linearisations(S, r), tag2events (unsupported).
 */
#include <stdlib.h>
#include <string.h>

#include "cat_int.h"
#include "../arch/arch.h"

#define SET(name) { name, V_SET, MONO_STABLE }
#define REL(name) { name, V_REL, MONO_STABLE }
#define PRIM(name) { name, V_PRIM, MONO_STABLE }

const cat_builtin_info cat_builtins[B_COUNT] = {
	[B_W] = SET("W"), [B_R] = SET("R"), [B_M] = SET("M"), [B_F] = SET("F"),
	[B_B] = SET("B"), [B_IW] = SET("IW"), [B_FW] = { "FW", V_SET, MONO_ANY },
	[B_X] = SET("X"), [B_EX] = SET("EX"), [B_RMW_SET] = SET("RMW"),
	[B_AMO_SET] = SET("AMO"), [B_EXP] = SET("Exp"), [B_NEXP] = SET("NExp"),
	[B_PTE] = SET("PTE"), [B_ADDR_SET] = SET("ADDR"),
	[B_ID] = REL("id"), [B_PO] = REL("po"), [B_RF] = { "rf", V_REL, MONO_GROWS },
	[B_CO] = { "co", V_REL, MONO_GROWS }, [B_FR] = { "fr", V_REL, MONO_GROWS },
	[B_LOC] = REL("loc"), [B_INT] = REL("int"), [B_EXT] = REL("ext"),
	[B_ADDR] = REL("addr"), [B_DATA] = REL("data"), [B_CTRL] = REL("ctrl"),
	[B_RMW] = REL("rmw"), [B_AMO] = REL("amo"),
	[B_SAME_INSTANCE] = REL("same-instance"), [B_SM] = REL("sm"), [B_SI] = REL("si"),
	[B_IICO_DATA] = REL("iico_data"), [B_IICO_CTRL] = REL("iico_ctrl"),
	[B_DOMAIN] = PRIM("domain"), [B_RANGE] = PRIM("range"),
	[B_CLASSES_LOC] = PRIM("classes-loc"), [B_PARTITION] = PRIM("partition"),
	[B_LINEARISATIONS] = PRIM("linearisations"), [B_TAG2EVENTS] = PRIM("tag2events"),
	[B_DIFFERENT_VALUES] = PRIM("different-values"), [B_SAME_OA] = PRIM("same-oa"),
	[B_OA_CHANGES] = PRIM("oa-changes"), [B_AT_LEAST_ONE_WRITABLE] = PRIM("at-least-one-writable"),
};

bool cat_known_fence_name(const char *name)
{
	static const char *const fences[] = {
		/* PPC */
		"SYNC", "LWSYNC", "ISYNC", "EIEIO",
		/* X86, X86_64 */
		"MFENCE", "SFENCE", "LFENCE",
		/* ARM */
		"DMB", "DSB", "ISB", "DMB.ST", "DSB.ST", "DMB.ISH", "DMB.ISHST", "DSB.ISH", "DSB.ISHST",
		/* AArch64 */
		"DMB.SY", "DMB.LD", "DMB.NSH", "DMB.NSHLD", "DMB.NSHST", "DMB.ISHLD", "DMB.OSH",
		"DMB.OSHLD", "DMB.OSHST", "DSB.SY", "DSB.LD", "DSB.NSH", "DSB.NSHLD", "DSB.NSHST",
		"DSB.ISHLD", "DSB.OSH", "DSB.OSHLD", "DSB.OSHST",
		/* RISCV: fences, then the annotations of its accesses */
		"Fence.r.r", "Fence.r.w", "Fence.r.rw", "Fence.w.r", "Fence.w.w", "Fence.w.rw",
		"Fence.rw.r", "Fence.rw.w", "Fence.rw.rw", "Fence.tso", "Fence.i",
		"Acq", "Rel", "AcqRel", "Sc",
		/* AArch64's annotations: acquire, acquire-PC, release, the
		 * read of an atomic whose result is discarded, non-temporal */
		"A", "Q", "L", "NoRet", "NT",
		/* C: herd's lock events (src/c/c_arch.c) */
		"LKR", "LKW", "UL", "LF", "RL", "RU",
	};
	for (size_t i = 0; i < sizeof fences / sizeof fences[0]; i++)
		if (!strcmp(fences[i], name))
			return true;
	return false;
}

/* herd's event sets and relations of AArch64 features: those of its
 * virtual-memory variant come from the events of such a test
 * (cat_vmsa.c), those of its ifetch variant (Instr, DC.CVAU, ...) are not
 * here (cat_ifetch.c); the others (hardware updates of AF and DB, the
 * other cache operations, tags, exceptions) are empty, as in herd on a
 * test without such events. */
static const char *const herd_feature_names[] = {
	"PTEV", "PTEINV", "PTEAF0", "PTEDB0", "PA", "inv-domain", "alias", "AF", "DB", "MMU", "Translation",
	"AccessFlag", "Permission", "IC.IALLUIS", "IC.IALLU",
	"SPURIOUS", "T", "FAULT", "same-low-order-bits", "TLBI", "TagCheck", "EXC-ENTRY",
	"EXC-RET", "TLBInXS", "TLBIIS",
};

/* herd's register-level events and the relations over them: weft's
 * executions have memory, fence and branch events only.  A model that
 * computes dependencies from these (herd's `catdep` models) runs on
 * executions that carry herd's dependency relations (cat_herd_deps.c),
 * where these names are their projection (cat_herd_register_projection). */
static const char *const herd_register_names[] = { "rf-reg", "Rreg", "Wreg", "DATA", "BCC", "iico_order" };

/* herd's C event sets of Linux locks and RCU (its CAction arch_sets), which
 * lock.cat and linux-kernel.bell name: the C front-end's events are in
 * them; a test without such events (any other architecture's) has them
 * empty. */
static const char *const herd_c_set_names[] = {
	"LK", "LKR", "LKW", "LS", "LF", "UL", "RL", "RU", "Sync-rcu", "Rcu-lock", "Rcu-unlock",
};

static bool in_names(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

bool cat_herd_feature_name(const char *name)
{
	return in_names(name, herd_feature_names, sizeof herd_feature_names / sizeof herd_feature_names[0]);
}

bool cat_herd_c_set_name(const char *name)
{
	return in_names(name, herd_c_set_names, sizeof herd_c_set_names / sizeof herd_c_set_names[0]);
}

bool cat_dyn_name_known(const char *name)
{
	return cat_known_fence_name(name) || cat_herd_feature_name(name) || cat_ifetch_name(name) ||
	       cat_herd_register_name(name) || cat_herd_c_set_name(name) || cat_c11_set_name(name);
}

bool cat_herd_register_name(const char *name)
{
	return in_names(name, herd_register_names, sizeof herd_register_names / sizeof herd_register_names[0]);
}

/* ---- helpers ------------------------------------------------------------------------------ */

static void set_bit(uint64_t *w, int i) { w[i >> 6] |= (uint64_t)1 << (i & 63); }
static bool has_bit(const uint64_t *w, int i) { return (w[i >> 6] >> (i & 63)) & 1; }
static uint64_t *row(const cat_eval *ev, const cval *r, int i) { return r->u.bits + (size_t)i * ev->words; }

static bool is_mem(const event *e) { return e->kind == EV_WRITE || e->kind == EV_READ; }

static cval set_where(cat_eval *ev, bool (*pred)(const event *))
{
	cval s = cv_set(ev);
	for (int i = 0; i < ev->n; i++)
		if (pred(&ev->x->ev[i]))
			set_bit(s.u.bits, i);
	return s;
}

/* The relation {(i, j) : key[i] == key[j] >= 0}, plus the identity when
 * `with_id`: loc, int, same-instance and sm are all of this form. */
static cval rel_same_key(cat_eval *ev, const int *key, bool with_id)
{
	cval r = cv_rel(ev);
	for (int i = 0; i < ev->n; i++) {
		uint64_t *ri = row(ev, &r, i);
		if (with_id)
			set_bit(ri, i);
		if (key[i] < 0)
			continue;
		for (int j = 0; j < ev->n; j++)
			if (key[j] == key[i])
				set_bit(ri, j);
	}
	return r;
}

static int *keys(cat_eval *ev) { return arena_alloc(ev->cur, (size_t)(ev->n ? ev->n : 1) * sizeof(int)); }

typedef struct observe_ctx {
	bool *obs;
	int n;
} observe_ctx;

static bool observe_atom(const cond *k, void *vctx)
{
	observe_ctx *oc = vctx;
	if (k->kind == COND_EQ || k->kind == COND_NE) {
		if (k->lhs.thread < 0 && k->lhs.loc >= 0 && k->lhs.loc < oc->n)
			oc->obs[k->lhs.loc] = true;
		if (k->rhs_is_lval && k->rhs_lval.thread < 0 && k->rhs_lval.loc >= 0 && k->rhs_lval.loc < oc->n)
			oc->obs[k->rhs_lval.loc] = true;
	}
	return false;   /* every node */
}

/* C tests: herd's final writes are those of the locations the test
 * observes (its condition and `locations`): the LKMM's lock-final flag
 * ([FW]; loc; [ALL-LOCKS]) never fires on a lock or srcu struct the test
 * does not look at (arch.h's final_writes_observed).  NULL (every
 * location) for the other architectures. */
static void observe_cond_locs(const cond *c, bool *obs, int n)
{
	observe_ctx oc = { obs, n };
	cond_any(c, observe_atom, &oc);
}

void cat_observed_locations(const litmus_test *t, bool *obs)
{
	memset(obs, 0, (size_t)t->n_locs * sizeof *obs);
	observe_cond_locs(t->cond, obs, t->n_locs);
	observe_cond_locs(t->filter, obs, t->n_locs);
	for (int i = 0; i < t->n_observed; i++)
		if (t->observed[i].thread < 0 && t->observed[i].loc >= 0 && t->observed[i].loc < t->n_locs)
			obs[t->observed[i].loc] = true;
}

static bool *observed_final_locs(cat_eval *ev)
{
	const litmus_test *t = ev->x->test;
	if (!t || !t->arch || !t->arch->final_writes_observed || t->n_locs == 0)
		return NULL;
	bool *obs = arena_alloc(ev->cur, (size_t)t->n_locs * sizeof *obs);
	cat_observed_locations(t, obs);
	return obs;
}

static cval rel_loc(cat_eval *ev)
{
	int *k = keys(ev);
	int n_keys = 1;
	for (int i = 0; i < ev->n; i++)
		if (ev->x->ev[i].loc >= n_keys)
			n_keys = ev->x->ev[i].loc + 1;
	for (int i = 0; i < ev->n; i++)
		k[i] = ev->x->ev[i].loc >= 0 ? cat_vmsa_loc_key(ev->x, &ev->x->ev[i], n_keys) : -1;
	return rel_same_key(ev, k, false);
}

static cval rel_int(cat_eval *ev)
{
	int *k = keys(ev);
	for (int i = 0; i < ev->n; i++)
		k[i] = ev->x->ev[i].thread >= 0 ? ev->x->ev[i].thread : -1;
	return rel_same_key(ev, k, false);
}

/* Instances are numbered (thread, instr); distinct pairs get distinct keys. */
static bool q_same_instance(const event *a, const event *b);

static cval rel_same_instance(cat_eval *ev)
{
	int *k = keys(ev);
	/* each event's key: the first event of its instance */
	for (int i = 0; i < ev->n; i++) {
		const event *e = &ev->x->ev[i];
		k[i] = -1;
		if (e->thread < 0 || e->instr < 0)
			continue;
		for (int j = 0; j <= i && k[i] < 0; j++)
			if (q_same_instance(&ev->x->ev[j], e))
				k[i] = j;
	}
	return rel_same_key(ev, k, true);
}

static cval rel_id_mem(cat_eval *ev)
{
	cval r = cv_rel(ev);
	for (int i = 0; i < ev->n; i++)
		if (is_mem(&ev->x->ev[i]))
			set_bit(row(ev, &r, i), i);
	return r;
}

/* herd's sm and si outside mixed-size runs: each memory event with
 * itself, and the accesses of one single-copy-atomic class with each
 * other (EVF_SCA accesses of one instance: LDXP's reads, STXP's
 * writes). */
static cval rel_single_copy(cat_eval *ev)
{
	cval r = rel_id_mem(ev);
	for (int i = 0; i < ev->n; i++) {
		const event *a = &ev->x->ev[i];
		if (!is_mem(a) || !(a->flags & EVF_SCA))
			continue;
		for (int j = 0; j < ev->n; j++)
			if (is_mem(&ev->x->ev[j]) && (ev->x->ev[j].flags & EVF_SCA) && q_same_instance(a, &ev->x->ev[j]))
				set_bit(row(ev, &r, i), j);
	}
	return r;
}

/* herd's sm and si: each memory event with itself, and under -variant
 * mixed with the other granules of its access (op.access_back: the
 * events of one instance of one access's ops). */
static cval rel_same_access(cat_eval *ev)
{
	const litmus_test *t = ev->x->test;
	if (!t || !t->mixed_granule)
		return rel_single_copy(ev);
	int *k = keys(ev);
	for (int i = 0; i < ev->n; i++) {
		const event *e = &ev->x->ev[i];
		k[i] = -1;
		if (!is_mem(e))
			continue;
		k[i] = i;
		if (e->thread < 0 || e->op < 0)
			continue;
		const op *o = &t->threads[e->thread].ops[e->op];
		int first = e->op - o->access_back;
		for (int j = 0; j < i && k[i] == i; j++) {
			const event *f = &ev->x->ev[j];
			if (is_mem(f) && f->thread == e->thread && f->instance == e->instance && f->op >= 0 &&
			    f->op - t->threads[f->thread].ops[f->op].access_back == first)
				k[i] = k[j];
		}
	}
	return rel_same_key(ev, k, false);
}

static cval rel_from(cat_eval *ev, const brel *b);

/* herd's C orders the events of one statement too (its po there is
 * po_iico, CMem's wide_po; arch.h's po_within_instruction): an access whose address or value a read of
 * the same statement gives comes after that read (*x = *x + 1: R -> W),
 * and so on through the statement; and a write after every read of its
 * statement before it, which herd's C semantics chains before the write
 * (a failed compare-exchange writes what it read of x to the expected
 * location after reading that location: R e -> W e, no data between
 * them).  Added to r, a relation of ev. */
static void add_instance_order(cat_eval *ev, cval *r)
{
	const execution *x = ev->x;
	cval dep = cv_rel(ev);
	const brel *deps[] = { &x->addr, &x->data };
	for (size_t d = 0; d < sizeof deps / sizeof *deps; d++)
		for (int i = 0; i < ev->n; i++)
			for (int j = 0; j < ev->n; j++)
				if (deps[d]->w && deps[d]->n == ev->n && brel_has(deps[d], i, j) &&
				    q_same_instance(&x->ev[i], &x->ev[j]))
					set_bit(row(ev, &dep, i), j);
	for (int i = 0; i < ev->n; i++)
		for (int j = 0; j < ev->n; j++)
			if (x->ev[i].kind == EV_READ && x->ev[j].kind == EV_WRITE && x->ev[i].op < x->ev[j].op &&
			    q_same_instance(&x->ev[i], &x->ev[j]))
				set_bit(row(ev, &dep, i), j);
	rel_closure_raw(dep.u.bits, ev->n, ev->words);
	for (int i = 0; i < ev->n; i++)
		for (int k = 0; k < ev->words; k++)
			row(ev, r, i)[k] |= row(ev, &dep, i)[k];
}

cval cat_herd_dep_value(cat_eval *ev, int k) { return rel_from(ev, &ev->x->hd[k]); }

static cval set_where(cat_eval *ev, bool (*pred)(const event *));

/* herd's conditional branches: weft's branch events but the commits of a
 * translation (vmsa) or of a fetched instruction (ifetch), EVF_COMMIT,
 * which herd makes Preds, not Bccs */
static cval set_bcc(cat_eval *ev)
{
	cval s = cv_set(ev);
	for (int i = 0; i < ev->n; i++)
		if (ev->x->ev[i].kind == EV_BRANCH && !(ev->x->ev[i].flags & EVF_COMMIT))
			set_bit(s.u.bits, i);
	return s;
}

/* herd's iico_order on memory events: an access flagged ACC_IICO_ORDER
 * comes after the accesses of its instance made by earlier ops. */
static cval rel_iico_order(cat_eval *ev)
{
	const execution *x = ev->x;
	cval r = cv_rel(ev);
	for (int j = 0; j < ev->n; j++) {
		const event *e = &x->ev[j];
		if (!is_mem(e) || e->thread < 0 || e->op < 0 || !x->test || e->thread >= x->test->n_threads ||
		    !(x->test->threads[e->thread].ops[e->op].flags & ACC_IICO_ORDER))
			continue;
		for (int i = 0; i < ev->n; i++)
			if (i != j && is_mem(&x->ev[i]) && q_same_instance(&x->ev[i], e) && x->ev[i].op < e->op)
				set_bit(row(ev, &r, i), j);
	}
	return r;
}

cval cat_herd_register_projection(cat_eval *ev, const char *name)
{
	if (!strcmp(name, "BCC"))
		return set_bcc(ev);
	if (!strcmp(name, "iico_order"))
		return rel_iico_order(ev);
	return cv_empty();
}

static cval rel_from(cat_eval *ev, const brel *b)
{
	cval r = cv_rel(ev);
	if (b->w && b->n == ev->n)
		memcpy(r.u.bits, b->w, (size_t)ev->n * ev->words * sizeof(uint64_t));
	return r;
}

static bool p_w(const event *e) { return e->kind == EV_WRITE; }
static bool p_r(const event *e) { return e->kind == EV_READ; }
/* herd's F holds fences only: C's lock and srcu events, fences with a
 * location here (prog.h's ACC_LOCATED), are neither F nor M there. */
static bool p_f(const event *e) { return e->kind == EV_FENCE && e->loc < 0; }
static bool p_b(const event *e) { return e->kind == EV_BRANCH; }
static bool p_iw(const event *e) { return e->kind == EV_WRITE && (e->flags & EVF_INIT); }
static bool p_x(const event *e) { return is_mem(e) && (e->flags & EVF_ATOMIC); }
static bool p_ex(const event *e) { return is_mem(e) && (e->flags & EVF_EXCL); }
static bool p_none(const event *e) { (void)e; return false; }

/* One execution of one instruction: a loop's iterations are different
 * instances of the same instruction, po-ordered. */
static bool q_same_instance(const event *a, const event *b)
{
	return a == b || (a->thread >= 0 && a->thread == b->thread && a->instr >= 0 && a->instr == b->instr &&
	                  a->instance == b->instance);
}

/* ---- values of the built-ins ------------------------------------------------------------------ */

/* ---- single-event read-modify-writes --------------------------------------------------------- */

/* herd makes some atomic instructions one event that is both a read and a
 * write (RISC-V's AMOs).  weft's engines build them as a read and a write
 * of one instance (ops flagged ACC_FUSED); the models see the pair as one
 * event: every built-in set holds both halves or neither, and a built-in
 * relation relates both halves as one node.  Sets and relations so made
 * are unions of blocks, and every cat operator keeps them so, which makes
 * acyclic/irreflexive/empty answer as on herd's single event.  Edges
 * between the two halves are dropped (herd's event has no edge to itself:
 * its rmw and fr exclude it), except in the relations that contain the
 * identity.  partner[i]: the other half of event i, -1 if none; returns
 * whether the execution has any pair. */
static bool fused_partners(const cat_eval *ev, int *partner)
{
	const execution *x = ev->x;
	bool any = false;
	for (int i = 0; i < ev->n; i++)
		partner[i] = -1;
	if (!x->test)
		return false;
	for (int i = 0; i < ev->n; i++) {
		const event *e = &x->ev[i];
		if (e->kind != EV_READ || e->thread < 0 || e->op < 0 || e->thread >= x->test->n_threads ||
		    e->op >= x->test->threads[e->thread].n_ops ||
		    !(x->test->threads[e->thread].ops[e->op].flags & ACC_FUSED))
			continue;
		for (int j = 0; j < ev->n; j++) {
			const event *f = &x->ev[j];
			if (f->kind == EV_WRITE && f->thread == e->thread && f->instr == e->instr &&
			    f->instance == e->instance && f->op >= 0 &&
			    (x->test->threads[f->thread].ops[f->op].flags & ACC_FUSED)) {
				partner[i] = j;
				partner[j] = i;
				any = true;
				break;
			}
		}
	}
	return any;
}

static bool reflexive_builtin(int b)
{
	return b == B_ID || b == B_LOC || b == B_INT || b == B_SAME_INSTANCE || b == B_SM || b == B_SI;
}

static void fuse_value(cat_eval *ev, int b, const int *partner, cval *v)
{
	if (v->kind == V_SET) {
		for (int i = 0; i < ev->n; i++)
			if (partner[i] >= 0 && has_bit(v->u.bits, partner[i]))
				set_bit(v->u.bits, i);
		return;
	}
	if (v->kind != V_REL)
		return;
	cval r = cv_copy(ev, v);
	/* rows: i gets its partner's successors */
	for (int i = 0; i < ev->n; i++)
		if (partner[i] >= 0)
			for (int k = 0; k < ev->words; k++)
				row(ev, &r, i)[k] |= row(ev, v, partner[i])[k];
	/* columns: whatever reaches a half reaches the other */
	for (int i = 0; i < ev->n; i++)
		for (int j = 0; j < ev->n; j++)
			if (partner[j] >= 0 && has_bit(row(ev, &r, i), partner[j]))
				set_bit(row(ev, &r, i), j);
	for (int i = 0; i < ev->n; i++) {
		int p = partner[i];
		if (p < 0)
			continue;
		uint64_t *ri = row(ev, &r, i);
		if (reflexive_builtin(b)) {
			set_bit(ri, p);
			set_bit(ri, i);
		} else {
			ri[p >> 6] &= ~((uint64_t)1 << (p & 63));
			ri[i >> 6] &= ~((uint64_t)1 << (i & 63));
		}
	}
	*v = r;
}

static bool builtin_value_split(cat_eval *ev, int b, cval *out);

bool cat_builtin_value(cat_eval *ev, int b, cval *out)
{
	if (!builtin_value_split(ev, b, out))
		return false;
	if (out->kind != V_SET && out->kind != V_REL)
		return true;
	int *partner = keys(ev);
	if (fused_partners(ev, partner))
		fuse_value(ev, b, partner, out);
	return true;
}

static bool builtin_value_split(cat_eval *ev, int b, cval *out)
{
	const execution *x = ev->x;
	switch (b) {
	case B_W: *out = set_where(ev, p_w); return true;
	case B_R: *out = set_where(ev, p_r); return true;
	case B_M: *out = set_where(ev, is_mem); return true;
	case B_EXP: case B_NEXP: {
		/* every access is explicit but a vmsa translation's read and
		 * an ifetch fetch (EVF_IMP), under those variants only */
		bool variant = x->test && (x->test->vmsa || x->test->ifetch);
		cval s = cv_set(ev);
		for (int i = 0; i < ev->n; i++)
			if (is_mem(&x->ev[i]) && (variant && (x->ev[i].flags & EVF_IMP)) == (b == B_NEXP))
				set_bit(s.u.bits, i);
		*out = s;
		return true;
	}
	case B_PTE: *out = cat_vmsa_pte_set(ev); return true;
	case B_F: *out = set_where(ev, p_f); return true;
	case B_B: *out = set_where(ev, p_b); return true;
	case B_IW: *out = set_where(ev, p_iw); return true;
	case B_X: *out = set_where(ev, p_x); return true;
	case B_EX: *out = set_where(ev, p_ex); return true;
	case B_AMO_SET: case B_ADDR_SET:
		*out = set_where(ev, p_none);
		return true;
	case B_FW: {
		/* Writes with no co-successor, but initial writes: herd's FW
		 * holds the stores a location's final value comes from, and a
		 * location no store wrote has its final value from "Init"
		 * (memUtils.ml's make_write_mem_finals), no event. */
		cval s = cv_set(ev);
		bool *observed = observed_final_locs(ev);
		for (int i = 0; i < ev->n; i++) {
			if (x->ev[i].kind != EV_WRITE || (x->ev[i].flags & EVF_INIT))
				continue;
			if (observed && (x->ev[i].loc < 0 || !observed[x->ev[i].loc]))
				continue;
			bool last = true;
			if (x->co.w && x->co.n == ev->n)
				for (int k = 0; k < ev->words; k++)
					if (brel_row(&x->co, i)[k]) {
						last = false;
						break;
					}
			if (last)
				set_bit(s.u.bits, i);
		}
		*out = s;
		return true;
	}
	case B_RMW_SET: {
		cval s = cv_set(ev);
		if (x->test && x->test->arch && x->test->arch->rmw_primitives) {
			/* herd's C: the accesses of an atomic primitive, a failed
			 * cmpxchg's lone read too (the LKMM's FailedRMW is
			 * RMW \ (domain(rmw) | range(rmw))) */
			for (int i = 0; i < ev->n; i++)
				if (is_mem(&x->ev[i]) && (x->ev[i].flags & EVF_ATOMIC))
					set_bit(s.u.bits, i);
			*out = s;
			return true;
		}
		for (int i = 0; i < ev->n; i++)
			for (int j = 0; j < ev->n; j++)
				if (x->rmw.w && brel_has(&x->rmw, i, j)) {
					set_bit(s.u.bits, i);
					set_bit(s.u.bits, j);
				}
		*out = s;
		return true;
	}
	case B_ID: {
		cval r = cv_rel(ev);
		rel_reflexive_raw(r.u.bits, ev->n, ev->words);
		*out = r;
		return true;
	}
	case B_PO: {
		cval r = rel_from(ev, &x->po);
		for (int i = 0; i < ev->n; i++)
			for (int j = 0; j < ev->n; j++)
				if (has_bit(row(ev, &r, i), j) && q_same_instance(&x->ev[i], &x->ev[j]))
					row(ev, &r, i)[j >> 6] &= ~((uint64_t)1 << (j & 63));
		if (x->test && x->test->arch && x->test->arch->po_within_instruction)
			add_instance_order(ev, &r);
		*out = r;
		return true;
	}
	case B_RF: *out = rel_from(ev, &x->rf); return true;
	case B_CO: *out = rel_from(ev, &x->co); return true;
	case B_FR: {
		cval rf = rel_from(ev, &x->rf), co = rel_from(ev, &x->co);
		cval inv = cv_rel(ev), fr = cv_rel(ev);
		rel_inverse_raw(inv.u.bits, rf.u.bits, ev->n, ev->words);
		rel_seq_raw(fr.u.bits, inv.u.bits, co.u.bits, ev->n, ev->words);
		for (int i = 0; i < ev->n; i++)
			row(ev, &fr, i)[i >> 6] &= ~((uint64_t)1 << (i & 63));
		*out = fr;
		return true;
	}
	case B_LOC: *out = rel_loc(ev); return true;
	case B_INT: *out = rel_int(ev); return true;
	case B_EXT: {
		/* Different threads, the initial writes being a thread of their own. */
		cval r = cv_rel(ev);
		for (int i = 0; i < ev->n; i++)
			for (int j = 0; j < ev->n; j++)
				if (x->ev[i].thread != x->ev[j].thread)
					set_bit(row(ev, &r, i), j);
		*out = r;
		return true;
	}
	case B_ADDR: *out = rel_from(ev, &x->addr); return true;
	case B_DATA: *out = rel_from(ev, &x->data); return true;
	case B_CTRL: *out = rel_from(ev, &x->ctrl); return true;
	case B_RMW: *out = rel_from(ev, &x->rmw); return true;
	case B_AMO: {
		cval r = rel_from(ev, &x->rmw);
		for (int i = 0; i < ev->n; i++)
			for (int j = 0; j < ev->n; j++)
				if (has_bit(row(ev, &r, i), j) && !q_same_instance(&x->ev[i], &x->ev[j]))
					row(ev, &r, i)[j >> 6] &= ~((uint64_t)1 << (j & 63));
		*out = r;
		return true;
	}
	case B_SAME_INSTANCE: *out = rel_same_instance(ev); return true;
	case B_SM: case B_SI: *out = rel_same_access(ev); return true;
	case B_IICO_DATA: case B_IICO_CTRL:
		/* vmsa's translations (cat_vmsa.c), ifetch's fetches (cat_ifetch.c) */
		*out = x->test && x->test->ifetch ? cat_ifetch_iico(ev, b == B_IICO_CTRL)
		                                  : cat_vmsa_iico(ev, b == B_IICO_CTRL);
		return true;
	case B_DOMAIN: case B_RANGE: case B_CLASSES_LOC: case B_PARTITION:
	case B_LINEARISATIONS: case B_TAG2EVENTS: case B_DIFFERENT_VALUES:
	case B_SAME_OA: case B_OA_CHANGES: case B_AT_LEAST_ONE_WRITABLE:
		out->kind = V_PRIM;
		out->n = 0;
		out->u.prim = b;
		return true;
	}
	srcloc none = { NULL, 0, 0 };
	return cat_fail(ev, none, "internal error: unknown built-in %d", b);
}

/* ---- primitives ---------------------------------------------------------------------------------- */

/* All strict total orders of the events of `s` that contain r restricted to
 * s, as herd's linearisations: depth-first over the minimal events left. */
typedef struct lin_state {
	cat_eval *ev;
	const uint64_t *r;
	int *order, len, total;
	uint64_t *left;
	cval *out;
	int nout, cap;
	const int *partner;  /* a fused atomic's other half (-1: none), which
	                      * takes its half's place in every order; NULL
	                      * when the execution has none */
	bool first_only;     /* the first order only (CO_PROJECTED) */
} lin_state;

/* a -> b in order o, as the models see them: each with its fused half. */
static void lin_edge(lin_state *st, cval *o, int a, int b)
{
	cat_eval *ev = st->ev;
	int as[2] = { a, st->partner ? st->partner[a] : -1 }, bs[2] = { b, st->partner ? st->partner[b] : -1 };
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			if (as[i] >= 0 && bs[j] >= 0)
				set_bit(o->u.bits + (size_t)as[i] * ev->words, bs[j]);
}

static bool lin_rec(lin_state *st, srcloc at)
{
	cat_eval *ev = st->ev;
	if (st->len == st->total) {
		if (ev->cur->total > cat_memory_limit(ev->m))
			return cat_fail(ev, at, "linearisations: %d orders and more, over the %zu MiB an "
			                "evaluation may use (-maxmem MB sets the bound)", st->nout,
			                cat_memory_limit(ev->m) >> 20);
		if (st->nout == st->cap) {
			int nc = st->cap ? st->cap * 2 : 16;
			cval *n2 = arena_alloc(ev->cur, (size_t)nc * sizeof *n2);
			if (st->nout)
				memcpy(n2, st->out, (size_t)st->nout * sizeof *n2);
			st->out = n2;
			st->cap = nc;
		}
		cval o = cv_rel(ev);
		for (int a = 0; a < st->len; a++)
			for (int b = a + 1; b < st->len; b++)
				lin_edge(st, &o, st->order[a], st->order[b]);
		st->out[st->nout++] = o;
		return true;
	}
	for (int i = 0; i < ev->n; i++) {
		if (!has_bit(st->left, i))
			continue;
		/* i is minimal if no remaining event precedes it. */
		bool minimal = true;
		for (int j = 0; j < ev->n && minimal; j++)
			if (j != i && has_bit(st->left, j) && has_bit(st->r + (size_t)j * ev->words, i))
				minimal = false;
		if (!minimal)
			continue;
		st->left[i >> 6] &= ~((uint64_t)1 << (i & 63));
		st->order[st->len++] = i;
		bool ok = lin_rec(st, at);
		st->len--;
		set_bit(st->left, i);
		if (!ok)
			return false;
		if (st->first_only && st->nout > 0)
			break;
	}
	return true;
}

/* Is a before b in the order the engine (or the session) chose: the
 * execution's co, or its lock order? */
static bool chosen_before(const cat_eval *ev, int a, int b)
{
	const brel *co = &ev->x->co, *lk = &ev->x->lock_co;
	return (co->w && co->n == ev->n && brel_has(co, a, b)) || (lk->w && lk->n == ev->n && brel_has(lk, a, b));
}

/* linearisations(s, r) while a `with co from` set is evaluated for an
 * execution whose co is the engine's (ev->co_prune, cat_eval.c): when the
 * chosen orders (co, the lock order) order every two events of s, every
 * other order of s is dropped, as the choice's filter would drop each
 * element built from it (cross.cat's elements are unions of one order per
 * location, so an element holds the order it was built from).  So the set
 * of orders over W | LKW holds the lock orders only, not their product
 * with every order of the memory writes.  False when it does not apply. */
static bool lin_as_chosen(cat_eval *ev, const cval *s, const cval *rs, cval *out)
{
	for (int a = 0; a < ev->n; a++) {
		if (!has_bit(s->u.bits, a))
			continue;
		for (int b = a + 1; b < ev->n; b++)
			if (has_bit(s->u.bits, b) && chosen_before(ev, a, b) == chosen_before(ev, b, a))
				return false;
	}
	cval o = cv_rel(ev);
	bool extends = true;
	for (int a = 0; a < ev->n; a++) {
		if (!has_bit(s->u.bits, a))
			continue;
		for (int b = 0; b < ev->n; b++)
			if (has_bit(s->u.bits, b) && chosen_before(ev, a, b))
				set_bit(row(ev, &o, a), b);
		for (int k = 0; k < ev->words && extends; k++)
			extends = (row(ev, rs, a)[k] & ~row(ev, &o, a)[k]) == 0;
	}
	out->kind = V_VSET;
	out->n = extends ? 1 : 0;
	out->u.elts = NULL;
	if (extends) {
		out->u.elts = arena_alloc(ev->cur, sizeof(cval));
		out->u.elts[0] = o;
	}
	return true;
}

/* Does s hold events that are no memory writes (lock writes) and one
 * memory write at most (a lock's initial write)?  For the projections of
 * a `with co from` set on the memory writes (CO_PROJECTED), one order of
 * such a set stands for all: its orders order no two memory writes, and
 * only pairs of memory writes are projected. */
static bool beyond_writes(const cat_eval *ev, const cval *s)
{
	int writes = 0, others = 0;
	for (int a = 0; a < ev->n; a++)
		if (has_bit(s->u.bits, a))
			*(ev->x->ev[a].kind == EV_WRITE ? &writes : &others) += 1;
	return others > 0 && writes <= 1;
}

static bool prim_linearisations(cat_eval *ev, const cval *arg, srcloc at, cval *out)
{
	if (arg->kind != V_TUPLE || arg->n != 2)
		return cat_fail(ev, at, "linearisations expects (event set, relation)");
	const cval *sv = &arg->u.elts[0], *rv = &arg->u.elts[1];
	cval s = cv_set(ev), r = cv_rel(ev);
	if (sv->kind == V_SET)
		s = *sv;
	else if (sv->kind != V_EMPTY)
		return cat_fail(ev, at, "linearisations: an event set was expected, found %s", cval_kind_name(sv->kind));
	if (rv->kind == V_REL)
		r = *rv;
	else if (rv->kind != V_EMPTY)
		return cat_fail(ev, at, "linearisations: a relation was expected, found %s", cval_kind_name(rv->kind));
	/* r restricted to s; a cycle there gives herd's single answer: r|s. */
	cval rs = cv_rel(ev);
	int total = 0;
	for (int i = 0; i < ev->n; i++) {
		if (!has_bit(s.u.bits, i))
			continue;
		total++;
		for (int k = 0; k < ev->words; k++)
			row(ev, &rs, i)[k] = row(ev, &r, i)[k] & s.u.bits[k];
	}
	/* herd's single-event read-modify-writes (fused_partners): the pair
	 * is one node of the orders, its lower half standing for both (its
	 * edges are the pair's, none within it) and the other half set in
	 * each order as the first is (lin_edge) */
	int *partner = keys(ev);
	bool fused = fused_partners(ev, partner);
	if (fused) {
		cval one = cv_rel(ev);
		for (int i = 0; i < ev->n; i++) {
			int p = partner[i];
			if (!has_bit(s.u.bits, i) || (p >= 0 && p < i && has_bit(s.u.bits, p)))
				continue;
			for (int j = 0; j < ev->n; j++) {
				int q = partner[j];
				if (j == i || j == p || !has_bit(s.u.bits, j) || (q >= 0 && q < j && has_bit(s.u.bits, q)))
					continue;
				bool edge = has_bit(row(ev, &rs, i), j) || (q >= 0 && has_bit(row(ev, &rs, i), q)) ||
				            (p >= 0 && (has_bit(row(ev, &rs, p), j) || (q >= 0 && has_bit(row(ev, &rs, p), q))));
				if (edge)
					set_bit(row(ev, &one, i), j);
			}
		}
		s = cv_copy(ev, &s);   /* the argument's bits stay as they are */
		for (int i = 0; i < ev->n; i++)
			if (partner[i] >= 0 && partner[i] < i && has_bit(s.u.bits, partner[i]) && has_bit(s.u.bits, i)) {
				s.u.bits[i >> 6] &= ~((uint64_t)1 << (i & 63));
				total--;
			}
		rs = one;
	}
	uint64_t *scratch = arena_alloc(ev->cur, (size_t)(ev->words ? ev->words : 1) * sizeof *scratch);
	if (!rel_acyclic_raw(rs.u.bits, ev->n, ev->words, scratch)) {
		out->kind = V_VSET;
		out->n = 1;
		out->u.elts = arena_alloc(ev->cur, sizeof(cval));
		out->u.elts[0] = rs;
		return true;
	}
	if (ev->co_prune == CO_CHOSEN && !fused && lin_as_chosen(ev, &s, &rs, out))
		return true;
	lin_state st = { ev, rs.u.bits, arena_alloc(ev->cur, (size_t)(total ? total : 1) * sizeof(int)), 0, total,
	                 arena_alloc(ev->cur, (size_t)(ev->words ? ev->words : 1) * sizeof(uint64_t)), NULL, 0, 0,
	                 fused ? partner : NULL, ev->co_prune == CO_PROJECTED && !fused && beyond_writes(ev, &s) };
	memcpy(st.left, s.u.bits, (size_t)ev->words * sizeof(uint64_t));
	if (!lin_rec(&st, at))
		return false;
	out->kind = V_VSET;
	out->n = st.nout;
	out->u.elts = st.out;
	/* Orders are produced in a fixed order but value sets must be sorted. */
	cval tmp = *out;
	*out = cat_make_vset(ev, tmp.u.elts, tmp.n);
	return true;
}

static bool prim_classes_loc(cat_eval *ev, const cval *arg, srcloc at, cval *out)
{
	cval s;
	if (arg->kind == V_SET) {
		s = *arg;
	} else if (arg->kind == V_EMPTY) {
		out->kind = V_VSET;
		out->n = 0;
		out->u.elts = NULL;
		return true;
	} else if (arg->kind == V_UNIV) {
		s = cv_set(ev);
		for (int i = 0; i < ev->n; i++)
			set_bit(s.u.bits, i);
	} else {
		return cat_fail(ev, at, "classes-loc expects an event set, found %s", cval_kind_name(arg->kind));
	}
	int nlocs = 0;
	for (int i = 0; i < ev->n; i++)
		if (ev->x->ev[i].loc + 1 > nlocs)
			nlocs = ev->x->ev[i].loc + 1;
	cval *parts = arena_alloc(ev->cur, (size_t)(nlocs ? nlocs : 1) * sizeof *parts);
	int np = 0;
	for (int l = 0; l < nlocs; l++) {
		cval p = cv_set(ev);
		bool any = false;
		for (int i = 0; i < ev->n; i++)
			if (has_bit(s.u.bits, i) && ev->x->ev[i].loc == l) {
				set_bit(p.u.bits, i);
				any = true;
			}
		if (any)
			parts[np++] = p;
	}
	*out = cat_make_vset(ev, parts, np);
	return true;
}

/* herd's different-values(r): the pairs of r whose events do not both
 * carry a value or carry different ones (a read's or a write's value; a
 * fence has none). */
static bool prim_different_values(cat_eval *ev, const cval *arg, srcloc at, cval *out)
{
	if (arg->kind == V_EMPTY) {
		*out = cv_rel(ev);
		return true;
	}
	if (arg->kind != V_REL)
		return cat_fail(ev, at, "different-values expects a relation, found %s", cval_kind_name(arg->kind));
	const execution *x = ev->x;
	cval r = cv_copy(ev, arg);
	for (int i = 0; i < ev->n; i++)
		for (int j = 0; j < ev->n; j++) {
			if (!has_bit(row(ev, &r, i), j))
				continue;
			const event *a = &x->ev[i], *b = &x->ev[j];
			bool valued = (a->kind == EV_READ || a->kind == EV_WRITE) && (b->kind == EV_READ || b->kind == EV_WRITE);
			if (valued && value_eq(a->val, b->val))
				row(ev, &r, i)[j >> 6] &= ~((uint64_t)1 << (j & 63));
		}
	*out = r;
	return true;
}

bool cat_prim_apply(cat_eval *ev, int prim, const cval *arg, srcloc at, cval *out)
{
	switch (prim) {
	case B_DOMAIN: case B_RANGE:
		if (arg->kind == V_EMPTY || arg->kind == V_UNIV) {
			*out = *arg;
			return true;
		}
		if (arg->kind != V_REL)
			return cat_fail(ev, at, "%s expects a relation, found %s", cat_builtins[prim].name,
			                cval_kind_name(arg->kind));
		*out = cv_set(ev);
		if (prim == B_DOMAIN)
			rel_domain_raw(out->u.bits, arg->u.bits, ev->n, ev->words);
		else
			rel_range_raw(out->u.bits, arg->u.bits, ev->n, ev->words);
		return true;
	case B_CLASSES_LOC: case B_PARTITION:
		return prim_classes_loc(ev, arg, at, out);
	case B_LINEARISATIONS:
		return prim_linearisations(ev, arg, at, out);
	case B_DIFFERENT_VALUES:
		return prim_different_values(ev, arg, at, out);
	case B_SAME_OA: case B_OA_CHANGES: case B_AT_LEAST_ONE_WRITABLE:
		return cat_vmsa_prim(ev, prim, arg, at, out);
	default:
		return cat_fail(ev, at, "unsupported primitive '%s'", cat_builtins[prim].name);
	}
}
