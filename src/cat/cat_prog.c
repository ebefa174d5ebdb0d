/* cat_prog.c — the compiled check: a model's checks as a flat program over
 * bit matrices, run on each complete execution instead of the evaluator.
 *
 * The engines judge many executions that share their static part (events,
 * po, dependencies, rmw) and differ in rf and co.  For each static part the
 * model is translated once (cat_sym.c, in its compiled-check mode) into
 * terms: everything that does not depend on rf, co, fr or FW is computed
 * then, by the evaluator, and kept as a constant; what does is a DAG of
 * operators over the execution's rf, co, fr, FW, the elements bound to the
 * model's `with X from` choices and different-values.  Each term owns one
 * matrix of the size of the test, allocated with the program; running a
 * check computes the terms it needs that are not computed yet for this
 * execution (and this binding of the choices), in place, with no
 * allocation, name lookup or string compare.  A term computed for one
 * execution stays for the next when what it reads (rf, co, the events'
 * values, the choices' elements, compared bit for bit) did not change:
 * the enumerator tries the co orders of one rf one after the other.  A `let rec` group is its
 * least fixpoint, iterated as the evaluator does (members in order, from
 * empty, until none grows).
 *
 * What the translation cannot express (a match, a procedure or a
 * recursion over values that depend on rf, an assert on them) makes the
 * model's checks run on the evaluator for good; an evaluation error while
 * translating (it may be the test's, in a `try` or not) sends that static
 * part to the evaluator, which says it as it always has.  Either way the
 * verdict is the evaluator's own: the compiled check gives the same
 * verdicts, flags and counts, or none.  cat_model_check_counts says how
 * many executions each one judged (-stats).
 */
#include <stdlib.h>
#include <string.h>

#include "cat_int.h"
#include "analysis/cat_analysis.h"

struct cat_prog {
	cat_model *m;
	bool off;               /* the model has no compiled form */
	unsigned built;         /* ev.static_gen the terms are for (0: none) */
	bool usable;            /* they were built (else: the evaluator) */
	cat_symbolic sym;
	int n, words;
	size_t relw;            /* words of a relation: n * words */
	uint64_t *mem;          /* every term's matrix (owned) */
	size_t cap_mem;
	uint64_t **val;         /* per term: its bits (in mem, a constant's
	                         * own, or the evaluator's for a leaf) */
	unsigned *stamp;        /* per term: == gen when val is current for
	                         * this execution (computed for an earlier
	                         * one that had the same rf, co, values or
	                         * choices as it reads), KEPT for the static
	                         * part, 0 when stale */
	unsigned gen;
	int *dep;               /* per term: leaf_dep, through its operands */
	unsigned char *reads;   /* per term: the READS_* it depends on,
	                         * through its operands */
	int *stale[3];          /* per READS_* bit: the terms a change of it
	                         * makes stale (ended by -1) */
	uint64_t *last;         /* rf, co (relw each), then the events'
	                         * values, of the execution the valid terms
	                         * were computed for */
	bool have_last;
	int *dyn;               /* CT_REC member: where in dynlist the terms
	                         * its group's rounds recompute begin (ended
	                         * by -1) */
	int *dynlist;
	int ndyn;
	size_t cap_dyn;
	cval *bound;            /* per choice: the element last seen bound */
	uint64_t *bound_bits;   /* per choice: a copy of its bits (relw) */
	int *chfirst;           /* per choice c: how many terms of chlist,
	                         * from its start, read choice c or a later
	                         * one (chlist: by dep, highest first) */
	int *chlist;
	size_t cap_chlist;
	uint64_t *dmem;         /* the sets of constant [S] terms (owned) */
	size_t cap_dmem;
	uint64_t **diag;        /* per term: when it is [S], S's bits (a
	                         * sequence with it keeps or drops rows) */
	uint64_t *scratch;      /* words, for the acyclicity test */
	const execution *x;
	bool bail;              /* this execution needs the evaluator */
	long compiled, interpreted;
};

static void prog_release(cat_prog *p)
{
	cat_symbolic_free(&p->sym);
	free(p->val);
	free(p->stamp);
	free(p->dep);
	free(p->dyn);
	free(p->chfirst);
	free(p->diag);
	free(p->reads);
	for (int k = 0; k < 3; k++) {
		free(p->stale[k]);
		p->stale[k] = NULL;
	}
	p->reads = NULL;
	p->have_last = false;
	p->chfirst = NULL;
	p->diag = NULL;
	p->val = NULL;
	p->stamp = NULL;
	p->dep = NULL;
	p->dyn = NULL;
	p->ndyn = 0;
	p->usable = false;
}

void cat_prog_free(cat_prog *p)
{
	if (!p)
		return;
	prog_release(p);
	free(p->mem);
	free(p->dynlist);
	free(p->chlist);
	free(p->dmem);
	free(p->bound);
	free(p->bound_bits);
	free(p->last);
	free(p->scratch);
	free(p);
}

/* A term computed once for the static part: it reads no rf, co, fr, FW,
 * value or choice. */
#define KEPT UINT32_MAX

/* Does term t (transitively) read a member of the rec group of `first`
 * (n members)?  memo: 0 unknown, 1 no, 2 yes. */
static bool reads_group(const cat_symbolic *s, int t, int first, int n, unsigned char *memo)
{
	if (t < 0)
		return false;
	if (t >= first && t < first + n)
		return true;
	if (memo[t])
		return memo[t] == 2;
	memo[t] = 1;
	const cat_term *ct = &s->terms[t];
	bool r = ct->kind != CT_CHOICE &&
	         (reads_group(s, ct->a, first, n, memo) || reads_group(s, ct->b, first, n, memo));
	memo[t] = r ? 2 : 1;
	return r;
}

static void dyn_push(cat_prog *p, int v)
{
	GROW(p->dynlist, p->cap_dyn, (size_t)p->ndyn + 1);
	p->dynlist[p->ndyn++] = v;
}

/* What term t reads: -1 nothing that changes with the execution, 0 rf,
 * co, fr, FW or values, c + 1 the element of choice c. */
static int leaf_dep(const cat_term *ct)
{
	switch (ct->kind) {
	case CT_RF: case CT_CO: case CT_FR: case CT_FW: case CT_DIFFVAL: return 0;
	case CT_CHOICE: return ct->a + 1;
	default: return -1;
	}
}

/* What a leaf term reads of the execution beyond its static part: its
 * rf, its co, the values of its events (which rf gives, and the thread
 * paths, which may differ in values alone). */
enum { READS_RF = 1, READS_CO = 2, READS_VAL = 4 };

static unsigned char leaf_reads(const cat_term *ct)
{
	switch (ct->kind) {
	case CT_RF: return READS_RF;
	case CT_CO: case CT_FW: return READS_CO;
	case CT_FR: return READS_RF | READS_CO;
	case CT_DIFFVAL: return READS_VAL;
	default: return 0;
	}
}

/* Is relation r (the program's size) within the identity? */
static bool sub_identity(const cat_prog *p, const uint64_t *r)
{
	for (int i = 0; i < p->n; i++)
		for (int w = 0; w < p->words; w++) {
			uint64_t bits = r[(size_t)i * p->words + w];
			if (w == i >> 6)
				bits &= ~((uint64_t)1 << (i & 63));
			if (bits)
				return false;
		}
	return true;
}

/* Lay the program out for the terms just translated. */
static void prog_layout(cat_prog *p)
{
	const cat_symbolic *s = &p->sym;
	int nt = s->n_terms;
	size_t need = 0;
	for (int t = 0; t < nt; t++)
		if (s->terms[t].kind != CT_CONST)
			need += s->terms[t].is_set ? (size_t)p->words : p->relw;
	GROW(p->mem, p->cap_mem, need + 1);
	p->val = xcalloc((size_t)nt + 1, sizeof *p->val);
	p->stamp = xcalloc((size_t)nt + 1, sizeof *p->stamp);
	p->dep = xmalloc(((size_t)nt + 1) * sizeof *p->dep);
	p->reads = xcalloc((size_t)nt + 1, 1);
	p->dyn = xmalloc(((size_t)nt + 1) * sizeof *p->dyn);
	size_t off = 0;
	for (int t = 0; t < nt; t++) {
		const cat_term *ct = &s->terms[t];
		p->dyn[t] = -1;
		p->dep[t] = leaf_dep(ct);
		p->reads[t] = leaf_reads(ct);
		if (ct->kind == CT_CONST) {
			p->val[t] = ct->is_set ? ct->set.w : ct->rel.w;
			p->stamp[t] = KEPT;
			continue;
		}
		p->val[t] = p->mem + off;
		off += ct->is_set ? (size_t)p->words : p->relw;
	}
	/* a term depends on what its operands do; a rec's definition comes
	 * after it and its group is computed whole: repeat until stable */
	bool has_rec = false;
	for (int t = 0; t < nt && !has_rec; t++)
		has_rec = s->terms[t].kind == CT_REC;
	for (bool changed = true; changed;) {
		changed = false;
		for (int t = 0; t < nt; t++) {
			const cat_term *ct = &s->terms[t];
			int d = p->dep[t];
			if (ct->kind != CT_CHOICE && ct->a >= 0 && p->dep[ct->a] > d)
				d = p->dep[ct->a];
			if (ct->b >= 0 && p->dep[ct->b] > d)
				d = p->dep[ct->b];
			unsigned char r = p->reads[t];
			if (ct->kind != CT_CHOICE && ct->a >= 0)
				r |= p->reads[ct->a];
			if (ct->b >= 0)
				r |= p->reads[ct->b];
			if (ct->kind == CT_REC)
				for (int k = 0; k < ct->rec_n; k++) {
					if (p->dep[ct->rec_first + k] > d)
						d = p->dep[ct->rec_first + k];
					r |= p->reads[ct->rec_first + k];
				}
			if (d > p->dep[t] || r != p->reads[t]) {
				p->dep[t] = d > p->dep[t] ? d : p->dep[t];
				p->reads[t] = r;
				/* operands come first but for a rec's
				 * definition: without one, one pass is all */
				changed = has_rec;
			}
		}
	}
	/* for each rec group, the terms its rounds recompute: those that
	 * read a member, in order (operands first) */
	unsigned char *memo = xcalloc((size_t)nt + 1, 1);
	p->ndyn = 0;
	for (int t = 0; t < nt; t++) {
		const cat_term *ct = &s->terms[t];
		if (ct->kind != CT_REC || ct->rec_first != t)
			continue;
		memset(memo, 0, (size_t)nt + 1);
		int start = p->ndyn;
		for (int u = t + ct->rec_n; u < nt; u++)
			if (reads_group(s, u, t, ct->rec_n, memo))
				dyn_push(p, u);
		dyn_push(p, -1);
		for (int k = 0; k < ct->rec_n; k++)
			p->dyn[t + k] = start;
	}
	free(memo);
	/* per choice, the terms a new element of it makes stale */
	int nc = p->m->nchoices;
	p->chfirst = xcalloc((size_t)nc + 2, sizeof *p->chfirst);
	if (nc > 0) {
		/* terms by dep, highest first (a counting sort): choice c
		 * makes stale those of dep > c, the first chfirst[c] */
		int *at = xcalloc((size_t)nc + 2, sizeof *at);
		for (int t = 0; t < nt; t++)
			if (p->dep[t] > 0)
				at[p->dep[t]]++;
		int total = 0;
		for (int d = nc; d >= 1; d--) {
			int cnt = at[d];
			at[d] = total;
			total += cnt;
			p->chfirst[d - 1] = total;
		}
		GROW(p->chlist, p->cap_chlist, (size_t)total + 1);
		for (int t = 0; t < nt; t++)
			if (p->dep[t] > 0)
				p->chlist[at[p->dep[t]]++] = t;
		free(at);
	}
	/* per rf, co and values: the terms a change of it makes stale */
	for (int b = 0; b < 3; b++) {
		int cnt = 0;
		for (int t = 0; t < nt; t++)
			cnt += (p->reads[t] >> b) & 1;
		p->stale[b] = xmalloc(((size_t)cnt + 1) * sizeof *p->stale[b]);
		cnt = 0;
		for (int t = 0; t < nt; t++)
			if ((p->reads[t] >> b) & 1)
				p->stale[b][cnt++] = t;
		p->stale[b][cnt] = -1;
	}
	/* [S] terms, computed or constant: S's bits, for sequences (only a
	 * sequence asks, so only a sequence's constant operands are tested) */
	p->diag = xcalloc((size_t)nt + 1, sizeof *p->diag);
	unsigned char *cdiag = xcalloc((size_t)nt + 1, 1);
	int ndiag = 0;
	for (int t = 0; t < nt; t++) {
		const cat_term *ct = &s->terms[t];
		if (ct->kind != CT_SEQ)
			continue;
		for (int k = 0; k < 2; k++) {
			int o = k ? ct->b : ct->a;
			if (o >= 0 && !cdiag[o] && s->terms[o].kind == CT_CONST && !s->terms[o].is_set) {
				cdiag[o] = sub_identity(p, s->terms[o].rel.w) ? 1 : 2;
				ndiag += cdiag[o] == 1;
			}
		}
	}
	GROW(p->dmem, p->cap_dmem, (size_t)ndiag * (size_t)p->words + 1);
	uint64_t *dm = p->dmem;
	for (int t = 0; t < nt; t++) {
		const cat_term *ct = &s->terms[t];
		if (ct->kind == CT_TOID) {
			p->diag[t] = p->val[ct->a];
		} else if (cdiag[t] == 1) {
			memset(dm, 0, (size_t)p->words * sizeof *dm);
			for (int i = 0; i < p->n; i++)
				if ((ct->rel.w[(size_t)i * p->words + (i >> 6)] >> (i & 63)) & 1)
					dm[i >> 6] |= (uint64_t)1 << (i & 63);
			p->diag[t] = dm;
			dm += p->words;
		}
	}
	free(cdiag);
	p->gen = 1;
}

/* ---- running terms ------------------------------------------------------- */

static bool leaf(cat_prog *p, int slot, int t)
{
	cat_eval *ev = &p->m->ev;
	cval v;
	if (!cat_eval_slot(ev, slot, &v)) {
		cat_clear_error(ev);
		p->bail = true;
		return false;
	}
	bool is_set = p->sym.terms[t].is_set;
	size_t nw = is_set ? (size_t)p->words : p->relw;
	uint64_t *dst = p->val[t];
	if (v.kind == V_EMPTY) {
		memset(dst, 0, nw * sizeof *dst);
	} else if ((v.kind == V_SET && is_set) || (v.kind == V_REL && !is_set)) {
		memcpy(dst, v.u.bits, nw * sizeof *dst);
	} else {
		/* a universe, or another shape than translated: the evaluator */
		p->bail = true;
		return false;
	}
	return true;
}

/* different-values(a): a less its pairs of accesses of equal values */
static void diffval(cat_prog *p, uint64_t *dst, const uint64_t *a)
{
	const execution *x = p->x;
	memcpy(dst, a, p->relw * sizeof *dst);
	for (int i = 0; i < p->n; i++) {
		const event *ei = &x->ev[i];
		if (ei->kind != EV_READ && ei->kind != EV_WRITE)
			continue;
		uint64_t *row = dst + (size_t)i * p->words;
		for (int w = 0; w < p->words; w++)
			for (uint64_t b = row[w]; b; b &= b - 1) {
				int j = w * 64 + bits_ctz(b);
				const event *ej = &x->ev[j];
				if ((ej->kind == EV_READ || ej->kind == EV_WRITE) && value_eq(ei->val, ej->val))
					row[w] &= ~((uint64_t)1 << (j & 63));
			}
	}
}

static bool eval_term(cat_prog *p, int t);

/* The least fixpoint of the rec group term t is in, as cat_eval.c's
 * fixpoint: members from empty, re-evaluated in order until none grows. */
static bool rec_fixpoint(cat_prog *p, int t)
{
	const cat_symbolic *s = &p->sym;
	int first = s->terms[t].rec_first, n = s->terms[t].rec_n;
	unsigned mark = p->dep[t] < 0 ? KEPT : p->gen;
	for (int k = 0; k < n; k++) {
		memset(p->val[first + k], 0, p->relw * sizeof(uint64_t));
		p->stamp[first + k] = mark;
	}
	long limit = (long)n * ((long)p->n * p->n + p->n + 1) + 8;
	const int *list = p->dynlist + p->dyn[t];
	for (long iter = 0;; iter++) {
		if (iter > limit) {
			p->bail = true;   /* the evaluator says it does not converge */
			break;
		}
		bool grew = false;
		for (int k = 0; k < n; k++) {
			for (const int *u = list; *u >= 0; u++)
				p->stamp[*u] = 0;
			int d = s->terms[first + k].a;
			if (!eval_term(p, d)) {
				grew = true;
				break;
			}
			uint64_t *cell = p->val[first + k];
			const uint64_t *nv = p->val[d];
			for (size_t w = 0; w < p->relw; w++) {
				if (nv[w] & ~cell[w])
					grew = true;
				cell[w] = nv[w];
			}
		}
		if (p->bail)
			break;
		if (!grew)
			return true;
	}
	/* given up: the group's partial values must not look computed */
	for (int k = 0; k < n; k++)
		p->stamp[first + k] = 0;
	return false;
}

/* a ; b where a is [sa] or b is [sb] (NULL otherwise): rows kept or
 * dropped, columns masked, no composition. */
static void seq_diag(const cat_prog *p, uint64_t *dst, const uint64_t *a, const uint64_t *b, const uint64_t *sa,
                     const uint64_t *sb)
{
	int words = p->words;
	if (words == 1) {
		/* up to 64 events, a row a word: the common case */
		uint64_t mask = sb ? sb[0] : ~(uint64_t)0;
		if (sa)
			for (int i = 0; i < p->n; i++)
				dst[i] = ((sa[0] >> i) & 1) ? b[i] & mask : 0;
		else
			for (int i = 0; i < p->n; i++)
				dst[i] = a[i] & mask;
		return;
	}
	for (int i = 0; i < p->n; i++) {
		uint64_t *d = dst + (size_t)i * words;
		const uint64_t *row = sa ? b + (size_t)i * words : a + (size_t)i * words;
		bool keep = !sa || ((sa[i >> 6] >> (i & 63)) & 1);
		for (int w = 0; w < words; w++)
			d[w] = keep ? (sb ? row[w] & sb[w] : row[w]) : 0;
	}
}

static bool eval_term(cat_prog *p, int t)
{
	if (p->stamp[t] == p->gen || p->stamp[t] == KEPT)
		return true;
	const cat_term *ct = &p->sym.terms[t];
	if (ct->kind == CT_REC)
		return rec_fixpoint(p, t);
	if (ct->a >= 0 && ct->kind != CT_CHOICE && !eval_term(p, ct->a))
		return false;
	if (ct->b >= 0 && !eval_term(p, ct->b))
		return false;
	uint64_t *dst = p->val[t];
	const uint64_t *a = ct->a >= 0 && ct->kind != CT_CHOICE ? p->val[ct->a] : NULL;
	const uint64_t *b = ct->b >= 0 ? p->val[ct->b] : NULL;
	switch (ct->kind) {
	case CT_CONST: case CT_REC:
		break;
	case CT_RF:
		if (!leaf(p, B_RF, t))
			return false;
		break;
	case CT_CO:
		if (!leaf(p, B_CO, t))
			return false;
		break;
	case CT_FR:
		if (!leaf(p, B_FR, t))
			return false;
		break;
	case CT_FW:
		if (!leaf(p, B_FW, t))
			return false;
		break;
	case CT_CHOICE:
		if (!leaf(p, p->m->choices[ct->a].slot, t))
			return false;
		break;
	case CT_SEQ:
		if (p->diag[ct->a] || p->diag[ct->b]) {
			seq_diag(p, dst, a, b, p->diag[ct->a], p->diag[ct->b]);
			break;
		}
		cat_term_op(ct->kind, ct->is_set, dst, a, b, p->n, p->words);
		break;
	case CT_UNION: case CT_INTER: case CT_DIFF: case CT_PROD: case CT_INV: case CT_PLUS: case CT_STAR:
	case CT_OPT: case CT_COMPL: case CT_TOID: case CT_DOMAIN: case CT_RANGE:
		cat_term_op(ct->kind, ct->is_set, dst, a, b, p->n, p->words);
		break;
	case CT_DIFFVAL:
		diffval(p, dst, a);
		break;
	}
	p->stamp[t] = p->dep[t] < 0 ? KEPT : p->gen;
	return true;
}

/* ---- checks -------------------------------------------------------------- */

/* A new binding of a choice: forget what depends on it, or on a later one.
 * Only the choices bound before check i are read: a later one's slot still
 * holds the previous candidate's value, whose bits the arena has freed. */
static void see_choices(cat_prog *p, int i)
{
	cat_model *m = p->m;
	for (int c = 0; c < m->nchoices && m->choices[c].first_check <= i; c++) {
		const cval *v = &m->ev.slot_val[m->choices[c].slot];
		cval *seen = &p->bound[c];
		uint64_t *bits = p->bound_bits + (size_t)c * p->relw;
		size_t nw = v->kind == V_REL ? p->relw : v->kind == V_SET ? (size_t)p->words : 0;
		/* an equal element (the same one, or another candidate's
		 * copy of it; never judged by its address, which the next
		 * candidate's arena may reuse): what depends on it stays.
		 * Any other kind of value is a new one each time. */
		if (v->kind == seen->kind && v->n == seen->n &&
		    (v->kind == V_EMPTY || (nw && !memcmp(v->u.bits, bits, nw * sizeof *bits))))
			continue;
		*seen = *v;
		if (nw)
			memcpy(bits, v->u.bits, nw * sizeof *bits);
		for (int k = 0; k < p->chfirst[c]; k++)
			p->stamp[p->chlist[k]] = 0;
	}
}

static bool all_zero(const uint64_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (w[i])
			return false;
	return true;
}

static bool prog_check(void *ctx, int i, bool *failed, bool *fired)
{
	cat_prog *p = ctx;
	cat_model *m = p->m;
	const cat_sym_check *c = &p->sym.checks[i];
	const cat_ins *in = m->checks[i].ins;
	*failed = false;
	*fired = false;
	bool holds;
	if (c->term < 0) {
		holds = c->const_holds;
		if (in->kind != CI_CHECK || !m->checks[i].flag) {
			*failed = !holds;
			return true;
		}
		/* a flag's const_holds says it fires */
		if (holds)
			cat_note_flag(&m->ev, cat_model_check_flag(m, i));
		*fired = holds;
		return true;
	}
	if (m->nchoices)
		see_choices(p, i);
	if (!eval_term(p, c->term))
		return false;
	const uint64_t *v = p->val[c->term];
	switch (c->test) {
	case 0:
		holds = rel_acyclic_raw(v, p->n, p->words, p->scratch);
		break;
	case 1:
		holds = rel_irreflexive_raw(v, p->n, p->words);
		break;
	default:
		holds = all_zero(v, p->sym.terms[c->term].is_set ? (size_t)p->words : p->relw);
		break;
	}
	holds = holds != c->negated;
	if (c->flag || c->undefined_unless) {
		bool fire = c->flag ? holds : !holds;
		if (fire)
			cat_note_flag(&m->ev, cat_model_check_flag(m, i));
		*fired = fire;
	} else {
		*failed = !holds;
	}
	return true;
}

static void forget(cat_prog *p, int what)
{
	for (const int *t = p->stale[what]; *t >= 0; t++)
		p->stamp[*t] = 0;
}

/* Is r what keep holds (and first false)?  keep holds r afterwards. */
static bool kept_rel(const cat_prog *p, uint64_t *keep, const brel *r, bool first)
{
	size_t bytes = p->relw * sizeof *keep;
	if (!r->w || r->n != p->n) {
		/* no such relation: never taken for the one before */
		memset(keep, 0, bytes);
		return false;
	}
	if (!first && !memcmp(keep, r->w, bytes))
		return true;
	memcpy(keep, r->w, bytes);
	return false;
}

/* A new execution of the static part: forget the terms that read what
 * changed since the last one, its rf, co or values. */
static void see_execution(cat_prog *p, const execution *x)
{
	uint64_t *val = p->last + 2 * p->relw;
	bool first = !p->have_last;
	if (!kept_rel(p, p->last, &x->rf, first))
		forget(p, 0);
	if (!kept_rel(p, p->last + p->relw, &x->co, first))
		forget(p, 1);
	bool vals = first;
	for (int i = 0; i < p->n; i++) {
		uint64_t loc = (uint64_t)(uint32_t)x->ev[i].val.loc, num = (uint64_t)x->ev[i].val.num;
		if (val[2 * i] != loc || val[2 * i + 1] != num) {
			val[2 * i] = loc;
			val[2 * i + 1] = num;
			vals = true;
		}
	}
	if (vals)
		forget(p, 2);
	p->have_last = true;
}

/* Terms for x's static part, made when it changed. */
static bool prog_ready(cat_prog *p, const execution *x)
{
	cat_eval *ev = &p->m->ev;
	if (p->built == ev->static_gen)
		return p->usable;
	prog_release(p);
	p->built = ev->static_gen;
	int st = cat_sym_build_prog(p->m, x, &p->sym);
	if (st == SYM_UNSUPPORTED)
		p->off = true;
	if (st != SYM_OK)
		return false;
	p->n = x->n;
	p->words = (x->n + 63) / 64;
	p->relw = (size_t)p->n * (size_t)p->words;
	free(p->scratch);
	p->scratch = xcalloc((size_t)p->words + 1, sizeof *p->scratch);
	prog_layout(p);
	free(p->bound_bits);
	p->bound_bits = xcalloc((size_t)p->m->nchoices * p->relw + 1, sizeof *p->bound_bits);
	for (int c = 0; c < p->m->nchoices; c++)
		p->bound[c] = (cval){ V_EMPTY, -1, { 0 } };
	free(p->last);
	p->last = xmalloc((2 * p->relw + (size_t)p->n * 2 + 1) * sizeof *p->last);
	p->usable = true;
	return true;
}

cat_prog *cat_prog_new(cat_model *m)
{
	cat_prog *p = xcalloc(1, sizeof *p);
	p->m = m;
	p->bound = xcalloc((size_t)m->nchoices + 1, sizeof *p->bound);
	return p;
}

int cat_prog_run(cat_prog *p, const execution *x, cat_verdict *out, diag *d)
{
	cat_model *m = p->m;
	if (p->off) {
		p->interpreted++;
		return -1;
	}
	cat_eval_begin(&m->ev, x);
	if (!prog_ready(p, x)) {
		/* the evaluator, for this static part or for good */
		p->interpreted++;
		return -1;
	}
	/* the translation began the evaluation again: its values are gone */
	cat_eval_begin(&m->ev, x);
	p->x = x;
	p->bail = false;
	see_execution(p, x);
	bool ok = cat_run_checks(m, false, prog_check, p, &m->ev, out, d);
	if (p->bail) {
		p->interpreted++;
		return -1;
	}
	p->compiled++;
	return ok ? 1 : 0;
}

void cat_prog_counts(const cat_prog *p, long *compiled, long *interpreted)
{
	*compiled = p ? p->compiled : 0;
	*interpreted = p ? p->interpreted : 0;
}
