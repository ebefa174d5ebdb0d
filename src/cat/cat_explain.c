/* cat_explain.c — why a check fails on an execution: the failing check's
 * relation, a shortest witness in it (a cycle, a reflexive pair, a pair or
 * an event), and that witness broken down into edges of base relations.
 *
 * Breaking an edge (a, b) of an expression down follows the expression's
 * shape: a union's edge is an edge of the first operand holding it; a
 * sequence's edge is a path through its operands in turn; a closure's edge
 * is a shortest path of its operand's edges; an intersection or difference
 * is followed through one operand; a named relation through its definition.
 * A closure's edge, or an edge of a sequence through an inverse (herd's
 * fr = rf^-1; co), that is already an edge of a base relation is not taken
 * apart.
 * Whatever cannot be taken apart this way (function applications such as
 * fencerel(SYNC), complements, products...) is replaced by a shortest path
 * of base edges between the same events, which the definitions of herd's
 * and weft's models always contain in practice; failing that, the edge is
 * kept as it is and marked as not a base edge.
 */
#include <stdlib.h>
#include <string.h>

#include "cat_int.h"

enum { MAX_DEPTH = 24 };

typedef struct step_list {
	int n;
	size_t cap;
	cat_step *v;
} step_list;

typedef struct xplain {
	cat_model *m;
	cat_eval *ev;
	const execution *x;
	int n;
	brel base;   /* po | rf | co | fr | addr | data | ctrl | rmw */
} xplain;

static void push_step(step_list *l, int from, int to, bool base, const char *via)
{
	GROW(l->v, l->cap, (size_t)l->n + 1);
	l->v[l->n++] = (cat_step){ from, to, base, xstrdup(via) };
}

/* ---- an expression's text, for labels ------------------------------------------ */

static bool is_binary(const cat_ex *e)
{
	switch (e->kind) {
	case CE_UNION: case CE_SEQ: case CE_INTER: case CE_DIFF: case CE_PROD: case CE_ADD:
		return true;
	default:
		return false;
	}
}

static void ex_text(const cat_ex *e, strbuf *sb);

static void ex_text_paren(const cat_ex *e, strbuf *sb)
{
	if (is_binary(e)) {
		sb_putc(sb, '(');
		ex_text(e, sb);
		sb_putc(sb, ')');
	} else {
		ex_text(e, sb);
	}
}

static void ex_text(const cat_ex *e, strbuf *sb)
{
	/* no blanks: the text goes inside edge labels such as -fri,rmw:fre;coe-> */
	static const char *const infix[] = { [CE_UNION] = "|", [CE_SEQ] = ";", [CE_INTER] = "&",
					     [CE_DIFF] = "\\", [CE_PROD] = "*", [CE_ADD] = "++" };
	switch (e->kind) {
	case CE_EMPTY_REL: sb_puts(sb, "0"); break;
	case CE_EMPTY: sb_puts(sb, "{}"); break;
	case CE_UNIV: sb_puts(sb, "_"); break;
	case CE_TAG: sb_printf(sb, "'%s", e->name); break;
	case CE_VAR: sb_puts(sb, e->name); break;
	case CE_UNION: case CE_SEQ: case CE_INTER: case CE_DIFF: case CE_PROD: case CE_ADD:
		for (int i = 0; i < e->n; i++) {
			if (i)
				sb_puts(sb, infix[e->kind]);
			ex_text_paren(e->kids[i], sb);
		}
		break;
	case CE_STAR: ex_text_paren(e->kids[0], sb); sb_putc(sb, '*'); break;
	case CE_PLUS: ex_text_paren(e->kids[0], sb); sb_putc(sb, '+'); break;
	case CE_OPT: ex_text_paren(e->kids[0], sb); sb_putc(sb, '?'); break;
	case CE_INV: ex_text_paren(e->kids[0], sb); sb_puts(sb, "^-1"); break;
	case CE_COMPL: sb_putc(sb, '~'); ex_text_paren(e->kids[0], sb); break;
	case CE_TOID: sb_putc(sb, '['); ex_text(e->kids[0], sb); sb_putc(sb, ']'); break;
	case CE_APP:
		ex_text_paren(e->kids[0], sb);
		if (e->kids[1]->kind == CE_TUPLE) {
			ex_text(e->kids[1], sb);
		} else {
			sb_putc(sb, '(');
			ex_text(e->kids[1], sb);
			sb_putc(sb, ')');
		}
		break;
	case CE_TUPLE:
		sb_putc(sb, '(');
		for (int i = 0; i < e->n; i++) {
			if (i)
				sb_putc(sb, ',');
			ex_text(e->kids[i], sb);
		}
		sb_putc(sb, ')');
		break;
	case CE_TRY: ex_text(e->kids[0], sb); break;
	default: sb_puts(sb, "..."); break;
	}
}

static char *text_of(const cat_ex *e)
{
	strbuf sb = { 0 };
	ex_text(e, &sb);
	return sb_take(&sb);
}

/* ---- relations ------------------------------------------------------------------- */

/* The value of e as a relation (a set as its identity).  False when e is
 * neither, or cannot be evaluated on its own (the error is dropped: the
 * check as a whole evaluated, so the caller falls back to base paths). */
static bool eval_rel(xplain *c, const cat_ex *e, brel *out)
{
	cval v;
	if (!cat_eval_expr(c->ev, e, &v)) {
		cat_clear_error(c->ev);
		return false;
	}
	*out = brel_new(c->n);
	switch (v.kind) {
	case V_EMPTY:
		return true;
	case V_UNIV:
		brel_complement(out);
		return true;
	case V_REL:
		memcpy(out->w, v.u.bits, (size_t)c->n * (size_t)out->words * sizeof *out->w);
		return true;
	case V_SET:
		for (int i = bits_next(v.u.bits, c->n, 0); i >= 0; i = bits_next(v.u.bits, c->n, i + 1))
			brel_add(out, i, i);
		return true;
	default:
		brel_free(out);
		return false;
	}
}

/* A shortest path a -> b of at least one edge of r: path[0] = a ...
 * path[k] = b (path holds r->n + 1 entries).  Returns k, 0 when none. */
static int shortest_path(const brel *r, int a, int b, int *path)
{
	int n = r->n;
	enum { UNSEEN = -1 };
	int *prev = xmalloc((size_t)(n ? n : 1) * sizeof *prev);
	int *queue = xmalloc((size_t)(n ? n : 1) * sizeof *queue);
	for (int i = 0; i < n; i++)
		prev[i] = UNSEEN;
	int head = 0, tail = 0;
	for (int j = bits_next(brel_row(r, a), n, 0); j >= 0; j = bits_next(brel_row(r, a), n, j + 1)) {
		prev[j] = a;
		queue[tail++] = j;
	}
	while (head < tail && prev[b] == UNSEEN) {
		int u = queue[head++];
		for (int j = bits_next(brel_row(r, u), n, 0); j >= 0; j = bits_next(brel_row(r, u), n, j + 1))
			if (prev[j] == UNSEEN) {
				prev[j] = u;
				queue[tail++] = j;
			}
	}
	int k = 0;
	if (prev[b] != UNSEEN) {
		/* walk back from b to a, then reverse */
		int cur = b;
		do {
			path[k++] = cur;
			cur = prev[cur];
		} while (cur != a && k < n);
		path[k] = a;
		for (int lo = 0, hi = k; lo < hi; lo++, hi--) {
			int t = path[lo];
			path[lo] = path[hi];
			path[hi] = t;
		}
	}
	free(prev);
	free(queue);
	return k;
}

/* ---- breaking an edge down ------------------------------------------------------------ */

static bool is_base_builtin(int b)
{
	switch (b) {
	case B_PO: case B_RF: case B_CO: case B_FR: case B_ADDR: case B_DATA: case B_CTRL: case B_RMW: case B_AMO:
		return true;
	default:
		return false;
	}
}

/* If (a, b) is an edge of a base relation, one step for it, labelled `via`
 * (or e's text); returns whether it was. */
static bool base_step(xplain *c, const cat_ex *e, int a, int b, const char *via, step_list *out)
{
	if (a == b || !brel_has(&c->base, a, b))
		return false;
	char *text = via ? NULL : text_of(e);
	push_step(out, a, b, true, via ? via : text);
	free(text);
	return true;
}

/* (a, b) as a shortest path of base edges, labelled `via` (or e's text). */
static void fallback(xplain *c, const cat_ex *e, int a, int b, const char *via, step_list *out)
{
	if (base_step(c, e, a, b, via, out))
		return;
	int *path = xmalloc(((size_t)c->n + 1) * sizeof *path);
	int k = shortest_path(&c->base, a, b, path);
	char *text = via ? NULL : text_of(e);
	const char *label = via ? via : text;
	if (k == 0)
		push_step(out, a, b, false, label);
	for (int i = 0; i < k; i++)
		push_step(out, path[i], path[i + 1], true, label);
	free(text);
	free(path);
}

static void explain_edge(xplain *c, const cat_ex *e, int a, int b, const char *via, int depth, step_list *out);

/* A path a -> b through kids[0]; kids[1]; ... (one edge of each, identity
 * edges allowed), as events x[0] = a ... x[k] = b.  Returns false when
 * there is none (or an operand is not a relation). */
static bool seq_path(xplain *c, cat_ex *const *kids, int k, int a, int b, int *x)
{
	int n = c->n;
	brel *rel = xcalloc((size_t)k, sizeof *rel);
	int *parent = xmalloc(((size_t)k + 1) * (size_t)(n ? n : 1) * sizeof *parent);
	bool ok = true;
	for (int i = 0; i < k && ok; i++)
		if (!eval_rel(c, kids[i], &rel[i])) {
			rel[i] = brel_new(n);
			ok = false;
		}
	/* parent[i * n + y]: a layer-(i-1) event with an edge of kids[i-1] to y,
	 * -1 when y is not reachable at layer i */
	for (int i = 0; ok && i <= k; i++)
		for (int y = 0; y < n; y++)
			parent[i * n + y] = -1;
	if (ok)
		parent[a] = a;
	for (int i = 0; ok && i < k; i++) {
		int *cur = parent + (size_t)i * n, *next = parent + (size_t)(i + 1) * n;
		for (int u = 0; u < n; u++) {
			if (cur[u] < 0)
				continue;
			for (int y = bits_next(brel_row(&rel[i], u), n, 0); y >= 0;
			     y = bits_next(brel_row(&rel[i], u), n, y + 1))
				if (next[y] < 0)
					next[y] = u;
		}
		/* prefer staying put on identity-like edges: shorter stories */
		for (int y = 0; y < n; y++)
			if (next[y] >= 0 && cur[y] >= 0 && brel_has(&rel[i], y, y))
				next[y] = y;
	}
	if (ok && parent[(size_t)k * n + b] >= 0) {
		x[k] = b;
		for (int i = k; i > 0; i--)
			x[i - 1] = parent[(size_t)i * n + x[i]];
	} else {
		ok = false;
	}
	for (int i = 0; i < k; i++)
		brel_free(&rel[i]);
	free(rel);
	free(parent);
	return ok;
}

/* Does the sequence go through an inverse (herd's fr = invrf; co with
 * invrf = rf^-1)?  Its edges are better told whole when they are base
 * edges: a path would run against an edge. */
static bool through_inverse(const xplain *c, const cat_ex *e)
{
	for (int i = 0; i < e->n; i++) {
		const cat_ex *k = e->kids[i];
		if (k->kind == CE_VAR && k->ref == REF_GLOBAL) {
			const cat_slot *sl = &c->m->slots[k->index];
			if (sl->kind == SLOT_LET && sl->def)
				k = sl->def;
		}
		if (k->kind == CE_INV)
			return true;
	}
	return false;
}

static void explain_seq(xplain *c, const cat_ex *e, int a, int b, const char *via, int depth, step_list *out)
{
	if (through_inverse(c, e) && base_step(c, e, a, b, via, out))
		return;
	int *x = xmalloc(((size_t)e->n + 1) * sizeof *x);
	if (seq_path(c, e->kids, e->n, a, b, x)) {
		for (int i = 0; i < e->n; i++)
			if (x[i] != x[i + 1])
				explain_edge(c, e->kids[i], x[i], x[i + 1], via, depth + 1, out);
	} else {
		fallback(c, e, a, b, via, out);
	}
	free(x);
}

static void explain_closure(xplain *c, const cat_ex *e, int a, int b, const char *via, int depth, step_list *out)
{
	if (a == b && e->kind != CE_PLUS)
		return; /* the identity part */
	if (e->kind == CE_OPT) {
		explain_edge(c, e->kids[0], a, b, via, depth + 1, out);
		return;
	}
	if (base_step(c, e, a, b, via, out))
		return;
	brel r;
	if (!eval_rel(c, e->kids[0], &r)) {
		fallback(c, e, a, b, via, out);
		return;
	}
	int *path = xmalloc(((size_t)c->n + 1) * sizeof *path);
	int k = shortest_path(&r, a, b, path);
	brel_free(&r);
	if (k == 0)
		fallback(c, e, a, b, via, out);
	for (int i = 0; i < k; i++)
		explain_edge(c, e->kids[0], path[i], path[i + 1], via, depth + 1, out);
	free(path);
}

/* Which operand of an intersection tells the most: one with structure
 * (a sequence, union, closure, name) rather than a filter such as W * W or
 * [R]; among names, the first. */
static const cat_ex *inter_guide(const cat_ex *e)
{
	for (int i = 0; i < e->n; i++) {
		enum cat_ex_kind k = e->kids[i]->kind;
		if (k == CE_SEQ || k == CE_UNION || k == CE_PLUS || k == CE_STAR)
			return e->kids[i];
	}
	for (int i = 0; i < e->n; i++) {
		enum cat_ex_kind k = e->kids[i]->kind;
		if (k != CE_PROD && k != CE_TOID && k != CE_COMPL && k != CE_UNIV)
			return e->kids[i];
	}
	return e->kids[0];
}

/* Does e mention global slot s itself (not through other slots)? */
static bool mentions_slot(const cat_ex *e, int s)
{
	if (!e)
		return false;
	if (e->kind == CE_VAR && e->ref == REF_GLOBAL && e->index == s)
		return true;
	for (int i = 0; i < e->n; i++)
		if (mentions_slot(e->kids[i], s))
			return true;
	for (int i = 0; i < e->nb; i++)
		if (mentions_slot(e->binds[i].e, s))
			return true;
	return false;
}

/* Is e the sequence X;X;... of slot s alone? */
static bool is_self_seq(const cat_ex *e, int s)
{
	if (e->kind != CE_SEQ)
		return false;
	for (int i = 0; i < e->n; i++)
		if (e->kids[i]->kind != CE_VAR || e->kids[i]->ref != REF_GLOBAL || e->kids[i]->index != s)
			return false;
	return true;
}

/* A `let rec X = U1 | ... | Uk | X;X` of one binding (herd's ob, lob and
 * local-hw-reqs in aarch64.cat): X is (U1 | ... | Uk)+, so an edge of X is
 * told as a shortest path of edges of the Ui, each broken down in turn.
 * Taken through its definition instead, the edge would be one of X;X, a
 * path through X again: on a cycle, the reflexive pair that X, being
 * transitive, always has, told as nothing.  False when the definition has
 * another shape, or (a, b) is no such path. */
static bool explain_transitive_rec(xplain *c, int s, int a, int b, int depth, step_list *out)
{
	const cat_slot *sl = &c->m->slots[s];
	const cat_ex *def = sl->def;
	if (sl->kind != SLOT_REC || sl->group_n != 1 || !def || def->kind != CE_UNION)
		return false;
	bool closes = false;
	for (int i = 0; i < def->n; i++) {
		if (is_self_seq(def->kids[i], s))
			closes = true;
		else if (mentions_slot(def->kids[i], s))
			return false;
	}
	if (!closes)
		return false;
	brel *parts = xcalloc((size_t)def->n, sizeof *parts);
	bool *have = xcalloc((size_t)def->n, sizeof *have);
	brel u = brel_new(c->n);
	for (int i = 0; i < def->n; i++)
		if (!is_self_seq(def->kids[i], s) && eval_rel(c, def->kids[i], &parts[i])) {
			have[i] = true;
			brel_union(&u, &parts[i]);
		}
	int *path = xmalloc(((size_t)c->n + 1) * sizeof *path);
	int k = shortest_path(&u, a, b, path);
	for (int j = 0; j < k; j++) {
		int i = 0;
		while (!have[i] || !brel_has(&parts[i], path[j], path[j + 1]))
			i++;   /* some part holds it: u is their union */
		explain_edge(c, def->kids[i], path[j], path[j + 1], sl->name, depth + 1, out);
	}
	for (int i = 0; i < def->n; i++)
		if (have[i])
			brel_free(&parts[i]);
	free(parts);
	free(have);
	free(path);
	brel_free(&u);
	return k > 0;
}

static void explain_edge(xplain *c, const cat_ex *e, int a, int b, const char *via, int depth, step_list *out)
{
	if (depth > MAX_DEPTH) {
		fallback(c, e, a, b, via, out);
		return;
	}
	switch (e->kind) {
	case CE_VAR:
		if (e->ref == REF_GLOBAL) {
			const cat_slot *sl = &c->m->slots[e->index];
			if (sl->kind == SLOT_BUILTIN && is_base_builtin(sl->builtin) && a != b) {
				push_step(out, a, b, true, via ? via : sl->name);
				return;
			}
			/* a catdep model's dependency relation: the engine's
			 * (cat_herd_deps.c), a base relation of the execution */
			if (sl->kind == SLOT_LET && sl->herd_dep >= 0 && c->x->has_herd_deps && a != b) {
				push_step(out, a, b, true, sl->name);
				return;
			}
			if (explain_transitive_rec(c, e->index, a, b, depth, out))
				return;
			if ((sl->kind == SLOT_LET || sl->kind == SLOT_REC) && sl->def) {
				explain_edge(c, sl->def, a, b, sl->name ? sl->name : via, depth + 1, out);
				return;
			}
		}
		fallback(c, e, a, b, via ? via : e->name, out);
		return;
	case CE_UNION:
		for (int i = 0; i < e->n; i++) {
			brel r;
			if (!eval_rel(c, e->kids[i], &r))
				continue;
			bool has = brel_has(&r, a, b);
			brel_free(&r);
			if (has) {
				explain_edge(c, e->kids[i], a, b, via, depth + 1, out);
				return;
			}
		}
		fallback(c, e, a, b, via, out);
		return;
	case CE_SEQ:
		explain_seq(c, e, a, b, via, depth, out);
		return;
	case CE_PLUS: case CE_STAR: case CE_OPT:
		explain_closure(c, e, a, b, via, depth, out);
		return;
	case CE_INTER:
		explain_edge(c, inter_guide(e), a, b, via, depth + 1, out);
		return;
	case CE_DIFF:
		explain_edge(c, e->kids[0], a, b, via, depth + 1, out);
		return;
	case CE_TOID:
		if (a == b)
			return;
		fallback(c, e, a, b, via, out);
		return;
	default:
		fallback(c, e, a, b, via, out);
		return;
	}
}

/* ---- the check's own operands ----------------------------------------------------------- */

/* The top-level edge (a, b) of the check's expression e, as edges of its
 * operands (`top`), each then broken down into `steps`. */
static void explain_top_edge(xplain *c, const cat_ex *e, int a, int b, step_list *top, step_list *steps)
{
	const cat_ex *op = e;
	if (e->kind == CE_UNION) {
		for (int i = 0; i < e->n; i++) {
			brel r;
			if (!eval_rel(c, e->kids[i], &r))
				continue;
			bool has = brel_has(&r, a, b);
			brel_free(&r);
			if (has) {
				op = e->kids[i];
				break;
			}
		}
	} else if (e->kind == CE_SEQ) {
		int *x = xmalloc(((size_t)e->n + 1) * sizeof *x);
		if (seq_path(c, e->kids, e->n, a, b, x)) {
			for (int i = 0; i < e->n; i++) {
				if (x[i] == x[i + 1])
					continue;
				char *text = text_of(e->kids[i]);
				push_step(top, x[i], x[i + 1], false, text);
				free(text);
				explain_edge(c, e->kids[i], x[i], x[i + 1], NULL, 0, steps);
			}
			free(x);
			return;
		}
		free(x);
	}
	char *text = text_of(op);
	push_step(top, a, b, false, text);
	free(text);
	explain_edge(c, op, a, b, NULL, 0, steps);
}

static void base_relations(xplain *c)
{
	const execution *x = c->x;
	c->base = brel_copy(&x->po);
	const brel *parts[] = { &x->rf, &x->co, &x->addr, &x->data, &x->ctrl, &x->rmw };
	for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
		brel_union(&c->base, parts[i]);
	/* fr = rf^-1; co */
	brel rf_inv = brel_inverse(&x->rf);
	brel fr = brel_seq(&rf_inv, &x->co);
	brel_union(&c->base, &fr);
	brel_free(&fr);
	brel_free(&rf_inv);
	/* a catdep model's dependencies are herd's (exec.h's hd), not weft's */
	if (c->m->catdep && x->has_herd_deps)
		for (int k = 0; k < XD_N; k++)
			brel_union(&c->base, &x->hd[k]);
}

static void mark_base(cat_step *v, int n, const brel *base)
{
	for (int i = 0; i < n; i++)
		v[i].base = v[i].base && brel_has(base, v[i].from, v[i].to);
}

int cat_model_failing_checks(cat_model *m, const execution *x, int *failing, diag *d)
{
	cat_eval_begin(&m->ev, x);
	int n = 0;
	for (int i = 0; i < m->nchecks; i++) {
		if (m->checks[i].flag)
			continue;
		bool failed = false, fired = false;
		m->ev.no_choice = false;
		bool ok = cat_eval_check(&m->ev, i, &failed, &fired);
		if (!ok && m->ev.no_choice) {
			/* the checks after a `with` whose set is empty have no
			 * execution to judge (herd's run of the model ends there) */
			cat_clear_error(&m->ev);
			break;
		}
		if (!ok) {
			cat_eval_report(&m->ev, d);
			return -1;
		}
		if (failed)
			failing[n++] = i;
	}
	return n;
}

bool cat_model_explain_check(cat_model *m, const execution *x, int check, cat_explanation *out, diag *d)
{
	memset(out, 0, sizeof *out);
	out->check = check;
	out->check_name = cat_model_check_name(m, check);
	out->shape = CAT_SHAPE_NONE;
	out->event = -1;
	if (check < 0 || check >= m->nchecks)
		return true;
	const cat_ins *in = m->checks[check].ins;
	if (in->kind != CI_CHECK || in->negated || in->mode != CHECK_REQUIRE)
		return true;
	cat_eval_begin(&m->ev, x);
	cval v;
	if (!cat_eval_expr(&m->ev, in->e, &v)) {
		cat_eval_report(&m->ev, d);
		return false;
	}
	xplain c = { m, &m->ev, x, x->n, { 0 } };
	if (in->test == TEST_EMPTY && v.kind == V_SET) {
		out->shape = CAT_SHAPE_EVENT;
		out->event = bits_next(v.u.bits, x->n, 0);
		if (out->event < 0)
			out->shape = CAT_SHAPE_NONE;
		return true;
	}
	brel r;
	if (!eval_rel(&c, in->e, &r))
		return true;
	base_relations(&c);
	step_list top = { 0 }, steps = { 0 };
	if (in->test == TEST_ACYCLIC) {
		int *cycle = xmalloc(((size_t)x->n + 1) * sizeof *cycle);
		int k = brel_find_cycle(&r, cycle);
		for (int i = 0; i < k; i++)
			explain_top_edge(&c, in->e, cycle[i], cycle[(i + 1) % k], &top, &steps);
		if (k > 0)
			out->shape = CAT_SHAPE_CYCLE;
		free(cycle);
	} else {
		int a = -1, b = -1;
		for (int i = 0; i < x->n && a < 0; i++) {
			if (in->test == TEST_IRREFLEXIVE) {
				if (brel_has(&r, i, i))
					a = b = i;
			} else {
				int j = bits_next(brel_row(&r, i), x->n, 0);
				if (j >= 0) {
					a = i;
					b = j;
				}
			}
		}
		if (a >= 0) {
			explain_top_edge(&c, in->e, a, b, &top, &steps);
			out->shape = in->test == TEST_IRREFLEXIVE ? CAT_SHAPE_LOOP : CAT_SHAPE_PAIR;
		}
	}
	mark_base(steps.v, steps.n, &c.base);
	out->n_top = top.n;
	out->top = top.v;
	out->n_steps = steps.n;
	out->steps = steps.v;
	brel_free(&r);
	brel_free(&c.base);
	return true;
}

void cat_explanation_free(cat_explanation *e)
{
	for (int i = 0; i < e->n_top; i++)
		free(e->top[i].via);
	for (int i = 0; i < e->n_steps; i++)
		free(e->steps[i].via);
	free(e->top);
	free(e->steps);
	memset(e, 0, sizeof *e);
}
