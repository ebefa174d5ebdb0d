/* cat_vmsa.c — what herd binds for a test of its virtual-memory variant
 * (`Variant=vmsa`, herd's Kvm): the event sets, relations and primitive
 * functions aarch64.cat and its includes read about page tables, TLB
 * invalidations and faults, computed from the events the engines build
 * for such a test (prog.h's vmsa section, exec.h's EV_FAULT, EV_TLBI,
 * EVF_IMP, EVF_COMMIT).
 *
 * On any other test every one of them is empty, as herd leaves them (its
 * machAction binds the sets and relations only under Kvm; the primitives
 * find no page-table value to look at).
 *
 * Sources (herd/herdtools7): machAction.ml's arch_sets and arch_rels
 * (PTE, PA, PTEV, PTEINV, PTEAF0, PTEDB0, inv-domain, alias), its actions
 * (Fault, Inv, Commit), the interpreter's primitives same-oa, oa-changes
 * and at-least-one-writable (check_two), and the event structure herd's
 * AArch64Sem builds for a translated access (iico_data from the read of
 * the entry to the commit, iico_ctrl from the commit to the access or the
 * fault).
 */
#include <string.h>
#include <strings.h>

#include "cat_int.h"

static void set_bit(uint64_t *w, int i) { w[i >> 6] |= (uint64_t)1 << (i & 63); }
static bool has_bit(const uint64_t *w, int i) { return (w[i >> 6] >> (i & 63)) & 1; }
static uint64_t *row(const cat_eval *ev, const cval *r, int i) { return r->u.bits + (size_t)i * ev->words; }

bool cat_vmsa_test(const execution *x)
{
	return x && x->test && x->test->vmsa;
}

static bool is_mem(const event *e) { return e->kind == EV_READ || e->kind == EV_WRITE; }

/* The location record of loc in a vmsa test, or NULL. */
static const location *loc_of(const execution *x, int loc)
{
	if (!cat_vmsa_test(x) || loc < 0 || loc >= x->test->n_locs)
		return NULL;
	return &x->test->locs[loc];
}

/* A memory event at a page-table entry PTE(v) (herd's is_pt). */
static bool at_pte(const execution *x, const event *e)
{
	const location *l = loc_of(x, e->loc);
	return is_mem(e) && l && l->pte_of >= 0;
}

/* herd's NExp: the translation's read of the entry. */
static bool cat_vmsa_implicit(const execution *x, const event *e)
{
	return cat_vmsa_test(x) && is_mem(e) && (e->flags & EVF_IMP);
}

/* herd's BCC: a branch that is a conditional branch instruction, not a
 * translation's commit (which is in B only). */
static bool cat_vmsa_commit(const execution *x, const event *e)
{
	return cat_vmsa_test(x) && e->kind == EV_BRANCH && (e->flags & EVF_COMMIT);
}

/* The page-table value an event reads or writes, if it is one. */
static bool pte_value(const event *e, value *v)
{
	if (!is_mem(e) || !value_is_pte(e->val))
		return false;
	*v = e->val;
	return true;
}

/* ---- event sets ------------------------------------------------------------------------- */

typedef bool (*event_pred)(const execution *x, const event *e);

static cval set_of(cat_eval *ev, event_pred p)
{
	cval s = cv_set(ev);
	for (int i = 0; i < ev->n; i++)
		if (p(ev->x, &ev->x->ev[i]))
			set_bit(s.u.bits, i);
	return s;
}

static bool p_pte(const execution *x, const event *e) { return at_pte(x, e); }
static bool p_pa(const execution *x, const event *e)
{
	const location *l = loc_of(x, e->loc);
	return is_mem(e) && l && l->pte_of < 0;
}
static bool pte_flag_is(const event *e, unsigned flag, bool set)
{
	value v;
	return pte_value(e, &v) && ((pte_flags(v) & flag) != 0) == set;
}
static bool p_ptev(const execution *x, const event *e) { (void)x; return pte_flag_is(e, PTE_VALID, true); }
static bool p_pteinv(const execution *x, const event *e) { (void)x; return pte_flag_is(e, PTE_VALID, false); }
static bool p_pteaf0(const execution *x, const event *e) { (void)x; return pte_flag_is(e, PTE_AF, false); }
static bool p_ptedb0(const execution *x, const event *e) { (void)x; return pte_flag_is(e, PTE_DB, false); }
static bool p_fault(const execution *x, const event *e) { (void)x; return e->kind == EV_FAULT; }
static bool p_fault_is(const event *e, int type) { return e->kind == EV_FAULT && e->val.num == type; }
static bool p_translation(const execution *x, const event *e) { (void)x; return p_fault_is(e, VMSA_TRANSLATION); }
static bool p_access_flag(const execution *x, const event *e) { (void)x; return p_fault_is(e, VMSA_ACCESS_FLAG); }
static bool p_permission(const execution *x, const event *e) { (void)x; return p_fault_is(e, VMSA_PERMISSION); }
static bool p_tlbi(const execution *x, const event *e) { (void)x; return e->kind == EV_TLBI; }

/* The TLBI operation as written ("VAAE1IS", "VAE1ISNXS"), without its
 * nXS suffix when strip_nxs; false when it has none. */
static bool tlbi_has_suffix(const event *e, const char *suffix, bool strip_nxs)
{
	if (e->kind != EV_TLBI || !e->fence)
		return false;
	size_t n = strlen(e->fence), k = strlen(suffix);
	if (strip_nxs && n >= 3 && !strcasecmp(e->fence + n - 3, "NXS"))
		n -= 3;
	return n >= k && !strncasecmp(e->fence + n - k, suffix, k);
}
/* herd's TLBIIS: the operations on the Inner Shareable domain */
static bool p_tlbi_is(const execution *x, const event *e) { (void)x; return tlbi_has_suffix(e, "IS", true); }
/* herd's TLBInXS: the nXS forms */
static bool p_tlbi_nxs(const execution *x, const event *e) { (void)x; return tlbi_has_suffix(e, "NXS", false); }

typedef struct named_set {
	const char *name;
	event_pred pred;
} named_set;

/* herd's fault types: MMU holds the three translation faults. */
static const named_set vmsa_sets[] = {
	{ "PA", p_pa }, { "PTEV", p_ptev }, { "PTEINV", p_pteinv }, { "PTEAF0", p_pteaf0 },
	{ "PTEDB0", p_ptedb0 }, { "FAULT", p_fault }, { "MMU", p_fault }, { "Translation", p_translation },
	{ "AccessFlag", p_access_flag }, { "Permission", p_permission }, { "TLBI", p_tlbi },
	{ "TLBIIS", p_tlbi_is }, { "TLBInXS", p_tlbi_nxs },
};

cval cat_vmsa_pte_set(cat_eval *ev)
{
	if (!cat_vmsa_test(ev->x))
		return cv_set(ev);
	return set_of(ev, p_pte);
}

/* ---- relations ---------------------------------------------------------------------------- */

/* herd's inv-domain: a TLB invalidation and the memory events of the page
 * it invalidates (the data page v, physical or virtual, and the entry
 * PTE(v)); one without an address (the ALL forms) and every memory event;
 * both ways. */
static bool inv_domain_pair(const execution *x, const event *t, const event *e)
{
	if (t->kind != EV_TLBI || !is_mem(e) || e->loc < 0)
		return false;
	if (t->loc < 0)
		return true;
	const location *l = loc_of(x, e->loc);
	return e->loc == t->loc || (l && l->pte_of == t->loc);
}

/* The output addresses of two page-table values are equal (herd's
 * PTEVal.oa_eq; an entry written `(valid:0)` has none, equal to none). */
static bool same_oa_values(const event *a, const event *b)
{
	value va, vb;
	return pte_value(a, &va) && pte_value(b, &vb) && pte_oa(va) == pte_oa(vb);
}

/* herd's alias: two page-table accesses whose values map the same page. */
static bool alias_pair(const execution *x, const event *a, const event *b)
{
	return at_pte(x, a) && at_pte(x, b) && same_oa_values(a, b);
}

/* The byte offset of an event's address within its page (herd's
 * effective addresses are a symbol and an offset; every variable starts
 * a page of its own).  False for an event without an address. */
static bool page_offset(const execution *x, const event *e, int64_t *off)
{
	if (e->loc < 0 || !(is_mem(e) || e->kind == EV_FAULT || e->kind == EV_TLBI))
		return false;
	const location *l = loc_of(x, e->loc);
	*off = 0;
	if (l && l->array >= 0 && e->kind != EV_TLBI && l->pte_of < 0) {
		const location *base = loc_of(x, l->array);
		*off = (int64_t)l->cell * (base ? base->cell_bytes : 0);
	}
	return true;
}

/* herd's same-low-order-bits: both events have an address, at the same
 * offset within their pages. */
static bool same_low_order_bits(const execution *x, const event *a, const event *b)
{
	int64_t oa, ob;
	return page_offset(x, a, &oa) && page_offset(x, b, &ob) && oa == ob;
}

typedef bool (*pair_pred)(const execution *x, const event *a, const event *b);

static cval rel_of(cat_eval *ev, pair_pred p, bool symmetric)
{
	cval r = cv_rel(ev);
	for (int i = 0; i < ev->n; i++)
		for (int j = 0; j < ev->n; j++) {
			const event *a = &ev->x->ev[i], *b = &ev->x->ev[j];
			if (p(ev->x, a, b) || (symmetric && p(ev->x, b, a)))
				set_bit(row(ev, &r, i), j);
		}
	return r;
}

/* The events of one instruction instance, in the order the thread made
 * them: herd's translated access is the read of the entry, the commit,
 * then the access or the fault. */
static bool same_instance(const event *a, const event *b)
{
	return a->thread >= 0 && a->thread == b->thread && a->instr >= 0 && a->instr == b->instr &&
	       a->instance == b->instance;
}

/* herd's iico_data (entry read -> its commit) and iico_ctrl (commit -> the
 * explicit accesses and faults it guards), each commit taking what
 * follows it in its instance up to the next translation. */
cval cat_vmsa_iico(cat_eval *ev, bool ctrl)
{
	cval r = cv_rel(ev);
	if (!cat_vmsa_test(ev->x))
		return r;
	const execution *x = ev->x;
	for (int c = 0; c < ev->n; c++) {
		const event *commit = &x->ev[c];
		if (!cat_vmsa_commit(x, commit))
			continue;
		for (int j = 0; j < ev->n; j++) {
			const event *e = &x->ev[j];
			if (j == c || !same_instance(e, commit))
				continue;
			/* nothing of another translation between them */
			bool between = false;
			for (int k = 0; k < ev->n && !between; k++) {
				const event *m = &x->ev[k];
				if (k == c || k == j || !same_instance(m, commit) ||
				    !(cat_vmsa_commit(x, m) || cat_vmsa_implicit(x, m)))
					continue;
				int lo = e->po_index < commit->po_index ? e->po_index : commit->po_index;
				int hi = e->po_index < commit->po_index ? commit->po_index : e->po_index;
				between = m->po_index > lo && m->po_index < hi;
			}
			if (between)
				continue;
			if (!ctrl && cat_vmsa_implicit(x, e) && e->po_index < commit->po_index)
				set_bit(row(ev, &r, j), c);
			if (ctrl && e->po_index > commit->po_index &&
			    ((is_mem(e) && !cat_vmsa_implicit(x, e)) || e->kind == EV_FAULT))
				set_bit(row(ev, &r, c), j);
		}
	}
	return r;
}

/* herd's loc for a vmsa test: memory events by location; a fault is at
 * its virtual address and a TLBI at its TLB page, neither of which any
 * memory event shares. */
int cat_vmsa_loc_key(const execution *x, const event *e, int n_keys)
{
	if (!cat_vmsa_test(x) || e->loc < 0)
		return e->loc;
	if (e->kind == EV_FAULT)
		return n_keys + e->loc;
	if (e->kind == EV_TLBI)
		return 2 * n_keys + e->loc;
	return e->loc;
}

/* ---- the names ---------------------------------------------------------------------------- */

bool cat_vmsa_value(cat_eval *ev, const char *name, cval *out)
{
	for (size_t i = 0; i < sizeof vmsa_sets / sizeof vmsa_sets[0]; i++)
		if (!strcmp(vmsa_sets[i].name, name)) {
			*out = cat_vmsa_test(ev->x) ? set_of(ev, vmsa_sets[i].pred) : cv_empty();
			return true;
		}
	pair_pred p = !strcmp(name, "inv-domain") ? inv_domain_pair : !strcmp(name, "alias") ? alias_pair :
	              !strcmp(name, "same-low-order-bits") ? same_low_order_bits : NULL;
	if (!p)
		return false;
	*out = cat_vmsa_test(ev->x) ? rel_of(ev, p, p == inv_domain_pair) : cv_empty();
	return true;
}

/* ---- primitives ---------------------------------------------------------------------------- */

/* herd's writable (no hardware management of the access flag or the
 * dirty bit: herd's default): the entry lets a store through. */
static bool writable(const event *e)
{
	value v;
	return pte_value(e, &v) && (pte_flags(v) & PTE_AF) && (pte_flags(v) & PTE_DB);
}

/* herd's check_two(pred)(ws, prec): the writes w of ws at a page-table
 * entry that have exactly one prec-successor p, and pred(w, p). */
static bool check_two(cat_eval *ev, int prim, const cval *arg, srcloc at, cval *out)
{
	const char *name = cat_builtins[prim].name;
	if (arg->kind != V_TUPLE || arg->n != 2)
		return cat_fail(ev, at, "%s expects (event set, relation)", name);
	const cval *ws = &arg->u.elts[0], *prec = &arg->u.elts[1];
	*out = cv_set(ev);
	if (ws->kind == V_EMPTY || prec->kind == V_EMPTY)
		return true;
	if (ws->kind != V_SET)
		return cat_fail(ev, at, "%s: an event set was expected, found %s", name, cval_kind_name(ws->kind));
	if (prec->kind != V_REL)
		return cat_fail(ev, at, "%s: a relation was expected, found %s", name, cval_kind_name(prec->kind));
	const execution *x = ev->x;
	for (int w = 0; w < ev->n; w++) {
		const event *e = &x->ev[w];
		if (!has_bit(ws->u.bits, w) || e->kind != EV_WRITE || !at_pte(x, e))
			continue;
		int succ = -1, count = 0;
		for (int j = 0; j < ev->n && count < 2; j++)
			if (has_bit(row(ev, prec, w), j)) {
				succ = j;
				count++;
			}
		if (count != 1)
			continue;
		const event *p = &x->ev[succ];
		bool keep = prim == B_OA_CHANGES ? !same_oa_values(e, p) : writable(e) || writable(p);
		if (keep)
			set_bit(out->u.bits, w);
	}
	return true;
}

bool cat_vmsa_none_at_pte(cat_eval *ev, const cval *ws)
{
	if (ws->kind == V_EMPTY)
		return true;
	if (ws->kind != V_SET)
		return false;
	for (int w = 0; w < ev->n; w++)
		if (has_bit(ws->u.bits, w) && ev->x->ev[w].kind == EV_WRITE && at_pte(ev->x, &ev->x->ev[w]))
			return false;
	return true;
}

bool cat_vmsa_prim(cat_eval *ev, int prim, const cval *arg, srcloc at, cval *out)
{
	if (prim != B_SAME_OA)
		return check_two(ev, prim, arg, at, out);
	/* same-oa(r): the pairs of r whose page-table values map the same page */
	if (arg->kind == V_EMPTY) {
		*out = cv_rel(ev);
		return true;
	}
	if (arg->kind != V_REL)
		return cat_fail(ev, at, "same-oa expects a relation, found %s", cval_kind_name(arg->kind));
	cval r = cv_copy(ev, arg);
	for (int i = 0; i < ev->n; i++)
		for (int j = 0; j < ev->n; j++)
			if (has_bit(row(ev, &r, i), j) && !same_oa_values(&ev->x->ev[i], &ev->x->ev[j]))
				row(ev, &r, i)[j >> 6] &= ~((uint64_t)1 << (j & 63));
	*out = r;
	return true;
}
