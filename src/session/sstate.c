/* sstate.c — a session's state: replay the commits, then name the fetched
 * events and build the execution of the committed ones (what the model
 * judges).  See session_int.h. */
#include <stdlib.h>
#include <string.h>

#include "../report/report_extra.h"
#include "session_int.h"

/* ---- names ---------------------------------------------------------------------- */

char **execution_names(const execution *x)
{
	char **nm = xcalloc((size_t)x->n + 1, sizeof *nm);
	int k = 0;
	for (int e = 0; e < x->n; e++) {
		const event *ev = &x->ev[e];
		if (ev->flags & EVF_INIT)
			nm[e] = xasprintf("i(%s)", ev->loc >= 0 && ev->loc < x->test->n_locs ? x->test->locs[ev->loc].name
										 : "?");
		else
			nm[e] = event_letter_name(k++);
	}
	return nm;
}

void names_free(char **names, int n)
{
	if (!names)
		return;
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* ---- looking up --------------------------------------------------------------------- */

const sev *sstate_ev(const sstate *st, sref r)
{
	if (r.thread < 0 || r.thread >= st->t->n_threads || r.index < 0 || r.index >= st->th[r.thread].n)
		return NULL;
	return &st->th[r.thread].ev[r.index];
}

int sstate_view_index(const sstate *st, sref r)
{
	for (int i = 0; i < st->n_view; i++)
		if (sref_eq(st->view[i], r))
			return i;
	return -1;
}

int sstate_find(const sstate *st, const char *name)
{
	for (int i = 0; i < st->n_view; i++)
		if (st->name[i][0] && !strcmp(st->name[i], name))
			return i;
	return -1;
}

bool sstate_enabled(const sstate *st, sref r)
{
	const sev *e = sstate_ev(st, r);
	if (e && (e->choice || e->lock_write))
		return !e->committed;
	if (!e || e->committed || e->failed || (e->kind != EV_READ && e->kind != EV_WRITE))
		return false;
	/* a store-conditional that can only fail needs no value */
	return e->kind == EV_READ || e->val_known || e->unreserved;
}

bool sstate_complete(const sstate *st)
{
	for (int i = 0; i < st->t->n_threads; i++) {
		const sthread *th = &st->th[i];
		if (!th->done || th->error)
			return false;
		for (int k = 0; k < th->n; k++)
			if (!th->ev[k].committed && !th->ev[k].failed)
				return false;
	}
	return true;
}

/* The value a committed store (or an initial write) wrote. */
static value store_value(const sstate *st, sref w)
{
	if (w.thread < 0)
		return w.index >= 0 && w.index < st->t->n_locs ? st->t->locs[w.index].init : value_int(0);
	const sev *e = sstate_ev(st, w);
	return e ? e->val : value_int(0);
}

value sstate_final(const sstate *st, lval lv)
{
	const litmus_test *t = st->t;
	if (lv.thread >= 0) {
		if (lv.thread < t->n_threads && lv.reg >= 0 && lv.reg < t->threads[lv.thread].n_regs)
			return st->th[lv.thread].regs[lv.reg];
		return value_int(0);
	}
	if (lv.loc < 0 || lv.loc >= t->n_locs || st->n_co[lv.loc] == 0)
		return value_int(0);
	return store_value(st, st->co[lv.loc][st->n_co[lv.loc] - 1]);
}

static const char *loc_name(const litmus_test *t, int loc)
{
	return loc >= 0 && loc < t->n_locs ? t->locs[loc].name : "?";
}

void sstate_describe(const sstate *st, sref r, strbuf *sb)
{
	const litmus_test *t = st->t;
	if (r.thread < 0) {
		sb_printf(sb, "W %s=", loc_name(t, r.index));
		value_print(t, store_value(st, r), sb);
		sb_puts(sb, " (init)");
		return;
	}
	const sev *e = sstate_ev(st, r);
	if (!e)
		return;
	bool atomic = (e->flags & (EVF_ATOMIC | EVF_EXCL)) != 0;
	if (e->choice) {
		const thread *th = &t->threads[r.thread];
		const char *text = e->instr >= 0 && e->instr < th->n_instrs ? th->instrs[e->instr].text : NULL;
		if (e->committed)
			sb_printf(sb, "chose %s", e->val.num ? "1" : "0");
		else
			sb_puts(sb, "choose 1|0");
		if (text)
			sb_printf(sb, ": %s", text);
		sb_printf(sb, " (P%d)", r.thread);
		return;
	}
	switch (e->kind) {
	case EV_WRITE:
	case EV_READ:
		sb_printf(sb, "%c%s %s", e->kind == EV_WRITE ? 'W' : 'R', atomic ? "*" : "", loc_name(t, e->loc));
		if (e->val_known) {
			sb_putc(sb, '=');
			value_print(t, e->val, sb);
		}
		break;
	case EV_FENCE:
		sb_puts(sb, "F ");
		for (const char *p = e->fence ? e->fence : "fence"; *p; p++)
			sb_putc(sb, (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p));
		/* C's lock events name their lock */
		if (e->loc >= 0)
			sb_printf(sb, " %s", loc_name(t, e->loc));
		break;
	case EV_BRANCH:
		sb_puts(sb, "B");
		break;
	case EV_FAULT:
	case EV_TLBI:
		/* vmsa tests are refused by the session (session.c) */
		sb_puts(sb, "?");
		break;
	}
	sb_printf(sb, " (P%d)", r.thread);
}

/* ---- parameters -------------------------------------------------------------------- */

int sstate_params(const sstate *st, sref r, sdecision **out)
{
	*out = NULL;
	const sev *e = sstate_ev(st, r);
	if (!sstate_enabled(st, r))
		return 0;
	if (e->choice) {
		/* herd's order: the alternative 1 first */
		sdecision *d = xcalloc(2, sizeof *d);
		d[0] = (sdecision){ r, { -2, -1 }, { -2, -1 }, false, true };
		d[1] = (sdecision){ r, { -2, -1 }, { -2, -1 }, false, false };
		*out = d;
		return 2;
	}
	int loc = e->loc;
	int n = 0;
	sdecision *d = xcalloc((size_t)st->n_co[loc] + 2, sizeof *d);
	for (int k = 0; k < st->n_co[loc] && !e->unreserved; k++) {
		sref w = st->co[loc][k];
		sdecision one = { r, { -2, -1 }, { -2, -1 }, false, false };
		if (e->kind == EV_READ) {
			/* as herd: never a store of its own thread po-after it */
			if (w.thread == r.thread && w.index > r.index)
				continue;
			one.src = w;
		} else {
			one.after = w;
		}
		d[n++] = one;
	}
	if (e->kind == EV_WRITE && e->stcond)
		d[n++] = (sdecision){ r, { -2, -1 }, { -2, -1 }, true, false };
	*out = d;
	return n;
}

static const char *ref_name(const sstate *st, sref r)
{
	int i = sstate_view_index(st, r);
	return i >= 0 ? st->name[i] : "?";
}

void sstate_param_name(const sstate *st, const sdecision *d, strbuf *sb)
{
	const sev *e = sstate_ev(st, d->ev);
	if (e && e->choice)
		sb_puts(sb, d->pick ? "1" : "0");
	else if (d->fail)
		sb_puts(sb, "fail");
	else if (e && e->kind == EV_READ)
		sb_puts(sb, ref_name(st, d->src));
	else
		sb_puts(sb, ref_name(st, d->after));
}

char **sstate_commit_texts(const sstate *st)
{
	char **out = xcalloc((size_t)st->n_dec + 1, sizeof *out);
	sstate at;
	sstate_build(&at, st->t, st->unroll, st->herd_deps, NULL, 0);
	for (int i = 0; i < st->n_dec; i++) {
		strbuf sb = { 0 };
		int v = sstate_view_index(&at, st->dec[i].ev);
		sb_printf(&sb, "%s ", v >= 0 && at.name[v][0] ? at.name[v] : "?");
		sstate_param_name(&at, &st->dec[i], &sb);
		out[i] = sb_take(&sb);
		sstate next;
		sstate_extend(&next, &at, &st->dec[i]);
		sstate_free(&at);
		at = next;
	}
	sstate_free(&at);
	return out;
}

char *sstate_key(const sstate *st)
{
	strbuf sb = { 0 };
	for (int i = 0; i < st->t->n_threads; i++) {
		const sthread *th = &st->th[i];
		sb_printf(&sb, "|%d:", i);
		for (int k = 0; k < th->n; k++) {
			const sev *e = &th->ev[k];
			if (e->failed)
				sb_printf(&sb, "%dF,", k);
			else if (e->choice && e->committed)
				sb_printf(&sb, "%dC%s,", k, e->val.num ? "1" : "0");
			else if (e->committed && e->kind == EV_READ)
				sb_printf(&sb, "%d<%d.%d,", k, e->src.thread, e->src.index);
			else if (e->committed && (e->kind == EV_WRITE || e->lock_write))
				sb_printf(&sb, "%dW,", k);
		}
	}
	for (int l = 0; l < st->t->n_locs; l++) {
		sb_printf(&sb, "|%d:", l);
		for (int k = 0; k < st->n_co[l]; k++)
			sb_printf(&sb, "%d.%d,", st->co[l][k].thread, st->co[l][k].index);
	}
	return sb_take(&sb);
}

/* ---- replaying --------------------------------------------------------------------- */

static void co_insert(sstate *st, int loc, sref w, sref after)
{
	int n = st->n_co[loc];
	st->co[loc] = xrealloc(st->co[loc], ((size_t)n + 1) * sizeof **st->co);
	int at = n;
	for (int k = 0; k < n; k++)
		if (sref_eq(st->co[loc][k], after))
			at = k + 1;
	memmove(&st->co[loc][at + 1], &st->co[loc][at], (size_t)(n - at) * sizeof **st->co);
	st->co[loc][at] = w;
	st->n_co[loc] = n + 1;
}

static void apply(sstate *st, const sdecision *d)
{
	sthread *th = &st->th[d->ev.thread];
	sev *e = &th->ev[d->ev.index];
	if (e->choice) {
		e->committed = e->val_known = true;
		e->val = value_int(d->pick ? 1 : 0);
	} else if (d->fail) {
		e->failed = true;
	} else if (e->kind == EV_READ) {
		e->committed = true;
		e->src = d->src;
		e->val = store_value(st, d->src);
		e->val_known = true;
	} else {
		e->committed = true;
		co_insert(st, e->loc, d->ev, d->after);
	}
	sthread again;
	sthread_fetch(st, d->ev.thread, th, &again);
	sthread_free(th);
	*th = again;
}

/* The edges of a thread's dependency list (over its fetched events, the
 * thread's first at view index base) between events of the execution. */
static void add_thread_deps(const sstate *st, int base, const dep_list *deps, brel *rel)
{
	for (int q = 0; q < deps->n; q++) {
		int a = st->x_of_view[base + deps->e[q].from];
		int b = st->x_of_view[base + deps->e[q].to];
		if (a >= 0 && b >= 0)
			brel_add(rel, a, b);
	}
}

static bool is_atomic(const sev *e)
{
	return (e->flags & (EVF_ATOMIC | EVF_EXCL)) != 0;
}

/* The view, names and the execution of what is committed. */
static void build_view(sstate *st)
{
	const litmus_test *t = st->t;
	int n = t->n_locs;
	for (int i = 0; i < t->n_threads; i++)
		n += st->th[i].n;
	st->view = xcalloc((size_t)n + 1, sizeof *st->view);
	st->name = xcalloc((size_t)n + 1, sizeof *st->name);
	st->x_of_view = xcalloc((size_t)n + 1, sizeof *st->x_of_view);
	st->view_of_x = xcalloc((size_t)n + 1, sizeof *st->view_of_x);
	int nx = 0, letter = 0;
	for (int l = 0; l < t->n_locs; l++) {
		st->view[l] = (sref){ -1, l };
		st->name[l] = xasprintf("i(%s)", t->locs[l].name);
		st->view_of_x[nx] = l;
		st->x_of_view[l] = nx++;
	}
	int v = t->n_locs;
	for (int i = 0; i < t->n_threads; i++)
		for (int k = 0; k < st->th[i].n; k++, v++) {
			const sev *e = &st->th[i].ev[k];
			st->view[v] = (sref){ i, k };
			bool gone = e->failed || (e->choice && e->committed);
			st->name[v] = gone ? xstrdup("") : event_letter_name(letter++);
			st->x_of_view[v] = -1;
			if (e->committed && !e->failed && !e->choice) {
				st->view_of_x[nx] = v;
				st->x_of_view[v] = nx++;
			}
		}
	st->n_view = n;
	execution *x = &st->x;
	execution_init(x, t, nx);
	for (int j = 0; j < nx; j++) {
		sref r = st->view[st->view_of_x[j]];
		event *ev = &x->ev[j];
		memset(ev, 0, sizeof *ev);
		if (r.thread < 0) {
			ev->kind = EV_WRITE;
			ev->thread = -1;
			ev->instr = ev->op = -1;
			ev->loc = r.index;
			ev->val = t->locs[r.index].init;
			ev->flags = EVF_INIT;
			continue;
		}
		const sev *e = sstate_ev(st, r);
		ev->kind = e->kind;
		ev->thread = r.thread;
		ev->instr = e->instr;
		ev->op = e->op;
		/* the cat model's same-instance (herd's amo) tells a loop's
		 * iterations apart by it, as in the enumerator's executions */
		ev->instance = e->instance;
		ev->loc = e->loc;
		ev->val = e->val;
		ev->flags = e->flags;
		ev->fence = e->fence;
	}
	/* po_index counts the thread's events in the execution */
	for (int i = 0, base = t->n_locs; i < t->n_threads; i++) {
		const sthread *th = &st->th[i];
		int po = 0;
		for (int k = 0; k < th->n; k++) {
			int a = st->x_of_view[base + k];
			if (a < 0)
				continue;
			x->ev[a].po_index = po++;
			for (int m = k + 1; m < th->n; m++) {
				int b = st->x_of_view[base + m];
				if (b >= 0 && th->ev[m].instance != th->ev[k].instance)
					brel_add(&x->po, a, b);
			}
		}
		add_thread_deps(st, base, &th->addr, &x->addr);
		add_thread_deps(st, base, &th->data, &x->data);
		add_thread_deps(st, base, &th->ctrl, &x->ctrl);
		if (th->has_hd) {
			if (!x->has_herd_deps)
				execution_init_herd_deps(x);
			for (int k = 0; k < XD_N; k++)
				add_thread_deps(st, base, &th->hd[k], &x->hd[k]);
		}
		/* herd's pairing of atomic accesses (as the enumerator's) */
		for (int k = 0; k < th->n; k++) {
			const sev *rd = &th->ev[k];
			if (rd->kind != EV_READ || !is_atomic(rd) || rd->failed)
				continue;
			for (int m = k + 1; m < th->n; m++) {
				const sev *e = &th->ev[m];
				if (e->failed || !is_atomic(e) || e->loc != rd->loc)
					continue;
				if (e->kind == EV_READ)
					break;
				if (e->kind == EV_WRITE) {
					int a = st->x_of_view[base + k], b = st->x_of_view[base + m];
					if (a >= 0 && b >= 0)
						brel_add(&x->rmw, a, b);
					break;
				}
			}
		}
		base += th->n;
	}
	for (int j = 0; j < nx; j++) {
		sref r = st->view[st->view_of_x[j]];
		const sev *e = r.thread >= 0 ? sstate_ev(st, r) : NULL;
		if (e && e->kind == EV_READ) {
			int w = st->x_of_view[sstate_view_index(st, e->src)];
			brel_add(&x->rf, w, j);
		}
	}
	/* coherence; the lock order (the initial write, then the lock
	 * writes) is the execution's lock_co, which the model's own co then
	 * agrees with */
	for (int l = 0; l < t->n_locs; l++)
		for (int a = 0; a < st->n_co[l]; a++)
			for (int b = a + 1; b < st->n_co[l]; b++) {
				const sev *ea = sstate_ev(st, st->co[l][a]), *eb = sstate_ev(st, st->co[l][b]);
				bool lock = (ea && ea->lock_write) || (eb && eb->lock_write);
				if (lock && !x->lock_co.w)
					execution_init_lock_co(x);
				brel_add(lock ? &x->lock_co : &x->co, st->x_of_view[sstate_view_index(st, st->co[l][a])],
					 st->x_of_view[sstate_view_index(st, st->co[l][b])]);
			}
}

void sstate_build(sstate *st, const litmus_test *t, int unroll, bool herd_deps, const sdecision *dec, int n)
{
	memset(st, 0, sizeof *st);
	st->t = t;
	st->unroll = unroll >= 0 ? unroll : ENGINE_UNROLL_DEFAULT;
	st->herd_deps = herd_deps;
	st->th = xcalloc((size_t)t->n_threads + 1, sizeof *st->th);
	st->n_co = xcalloc((size_t)t->n_locs + 1, sizeof *st->n_co);
	st->co = xcalloc((size_t)t->n_locs + 1, sizeof *st->co);
	for (int l = 0; l < t->n_locs; l++)
		co_insert(st, l, (sref){ -1, l }, (sref){ -2, -1 });
	for (int i = 0; i < t->n_threads; i++)
		sthread_fetch(st, i, NULL, &st->th[i]);
	if (n > 0) {
		GROW(st->dec, st->cap_dec, (size_t)n);
		memcpy(st->dec, dec, (size_t)n * sizeof *dec);
	}
	st->n_dec = n;
	for (int i = 0; i < n; i++)
		apply(st, &dec[i]);
	build_view(st);
}

void sstate_extend(sstate *out, const sstate *st, const sdecision *d)
{
	sdecision *all = xmalloc(((size_t)st->n_dec + 1) * sizeof *all);
	if (st->n_dec)
		memcpy(all, st->dec, (size_t)st->n_dec * sizeof *all);
	all[st->n_dec] = *d;
	sstate_build(out, st->t, st->unroll, st->herd_deps, all, st->n_dec + 1);
	free(all);
}

void sstate_free(sstate *st)
{
	if (!st->t)
		return;
	for (int i = 0; i < st->t->n_threads; i++)
		sthread_free(&st->th[i]);
	free(st->th);
	for (int l = 0; l < st->t->n_locs; l++)
		free(st->co[l]);
	free(st->co);
	free(st->n_co);
	free(st->dec);
	names_free(st->name, st->n_view);
	free(st->view);
	free(st->x_of_view);
	free(st->view_of_x);
	execution_free(&st->x);
	memset(st, 0, sizeof *st);
}
