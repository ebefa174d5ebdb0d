/* session.c — the session: its current state, the history undo walks back,
 * and the commands that look at a state or move to another one.  See
 * session.h; auto is session_auto.c, goto session_goto.c, dot
 * session_dot.c. */
#include <stdlib.h>
#include <string.h>

#include "../arch/arch.h"
#include "session_int.h"

/* ---- state and history ------------------------------------------------------------- */

/* The current state as session.h shows it, dropped. */
static void forget_view(session *s)
{
	for (int i = 0; i < s->n_events; i++) {
		free(s->events[i].name);
		free(s->events[i].desc);
	}
	free(s->events);
	for (int i = 0; i < s->n_commits; i++)
		free(s->commits[i]);
	free(s->commits);
	s->events = NULL;
	s->commits = NULL;
	s->n_events = s->n_commits = 0;
}

static void refresh(session *s)
{
	forget_view(s);
	const sstate *st = &s->cur;
	s->events = xcalloc((size_t)st->n_view + 1, sizeof *s->events);
	s->n_events = 0;
	for (int v = 0; v < st->n_view; v++) {
		sref r = st->view[v];
		const sev *e = sstate_ev(st, r);
		if (e && (e->failed || (e->choice && e->committed)))
			continue;   /* no event of the execution */
		session_event *out = &s->events[s->n_events++];
		strbuf sb = { 0 };
		sstate_describe(st, r, &sb);
		if (e && e->unreserved)
			sb_puts(&sb, " (no reservation: it can only fail)");
		out->name = xstrdup(st->name[v]);
		out->desc = sb_take(&sb);
		out->thread = r.thread;
		out->memory = !e || e->kind == EV_READ || e->kind == EV_WRITE;
		out->lock_write = e && e->lock_write;
		out->committed = !e || e->committed;
		out->enabled = e && sstate_enabled(st, r);
	}
	s->commits = sstate_commit_texts(st);
	s->n_commits = st->n_dec;
}

void session_set_state(session *s, const sdecision *dec, int n, bool remember)
{
	if (remember) {
		GROW(s->hist, s->cap_hist, (size_t)s->n_hist + 1);
		s->hist[s->n_hist].n = s->cur.n_dec;
		s->hist[s->n_hist].dec = xmalloc(((size_t)s->cur.n_dec + 1) * sizeof *s->cur.dec);
		if (s->cur.n_dec)
			memcpy(s->hist[s->n_hist].dec, s->cur.dec, (size_t)s->cur.n_dec * sizeof *s->cur.dec);
		s->n_hist++;
	}
	sstate next;
	sstate_build(&next, s->t, s->unroll, s->herd_deps, dec, n);
	sstate_free(&s->cur);
	s->cur = next;
	refresh(s);
}

session *session_new(const litmus_test *t, cat_model *m, int unroll, diag *d)
{
	if (t->vmsa) {
		/* a translation's events (PTE read, commit, access or fault)
		 * are built by the enumerator only */
		diag_error(d, t->vmsa_at, "the interactive session cannot run a test under herd's vmsa variant "
		           "(page tables); run it without -i (-engine enumerate)");
		return NULL;
	}
	if (cat_model_computes_deps(m) && !(t->arch && t->arch->herd_deps)) {
		/* its data, addr and ctrl come from herd's register events,
		 * which the engines project on weft's events for the
		 * architectures that ask (AArch64), and only for those */
		diag_error(d, (srcloc){ t->file, 0, 0 },
			   "the interactive session cannot run model '%s': it computes herd's dependencies "
			   "(catdep), which weft tracks on AArch64 tests only, not on this %s test; run it with -i "
			   "and a model that does not say catdep (-model sc), or without -i",
			   cat_model_name(m), t->arch ? t->arch->name : "?");
		return NULL;
	}
	if (t->mixed_granule) {
		/* its final values are a location's granules together, which
		 * the session does not join */
		srcloc at = { t->file, 0, 0 };
		diag_error(d, at, "the interactive session cannot run a test under herd's -variant mixed; run "
			   "it without -i (the enumerator runs it)");
		return NULL;
	}
	if (t->ifetch) {
		/* the session's own thread interpreter runs the code as
		 * written: it has no fetch and commit events */
		diag_error(d, litmus_first_fetch(t), "the interactive session cannot run a test whose "
			   "instructions are fetched from memory (herd's ifetch variant); run it without -i "
			   "(the enumerator runs it)");
		return NULL;
	}
	session *s = xcalloc(1, sizeof *s);
	s->t = t;
	s->m = m;
	s->unroll = unroll >= 0 ? unroll : ENGINE_UNROLL_DEFAULT;
	s->herd_deps = cat_model_computes_deps(m);
	s->quiet = (diag){ .drop = true };
	sstate_build(&s->cur, t, s->unroll, s->herd_deps, NULL, 0);
	refresh(s);
	sverdict v;
	strbuf why = { 0 };
	if (!sverdict_of(m, &s->cur, &v, d, &why)) {
		diag_error(d, (srcloc){ t->file, 0, 0 }, "%s", why.s ? why.s : "the model could not evaluate");
		sb_free(&why);
		session_free(s);
		return NULL;
	}
	sverdict_free(&v);
	return s;
}

void session_free(session *s)
{
	if (!s)
		return;
	forget_view(s);
	for (int i = 0; i < s->n_hist; i++)
		free(s->hist[i].dec);
	free(s->hist);
	sstate_free(&s->cur);
	free(s);
}

int session_n_events(const session *s) { return s->n_events; }
const session_event *session_event_at(const session *s, int i) { return &s->events[i]; }
int session_n_commits(const session *s) { return s->n_commits; }

const char *session_thread_status(const session *s, int thread)
{
	if (thread < 0 || thread >= s->t->n_threads)
		return NULL;
	const sthread *th = &s->cur.th[thread];
	if (th->error)
		return th->error;
	if (th->cut)
		return "cut by the unroll limit";
	return th->done ? NULL : th->waits;
}
const char *session_commit_text(const session *s, int i) { return s->commits[i]; }
bool session_complete(const session *s) { return sstate_complete(&s->cur); }

/* ---- the final state --------------------------------------------------------------- */

static void add_lval(lval *v, int *n, lval lv)
{
	for (int i = 0; i < *n; i++)
		if (v[i].thread == lv.thread && v[i].reg == lv.reg && v[i].loc == lv.loc)
			return;
	v[(*n)++] = lv;
}

static int count_atoms(const cond *c)
{
	if (!c)
		return 0;
	return 2 * (c->kind == COND_EQ || c->kind == COND_NE) + count_atoms(c->l) + count_atoms(c->r);
}

static void collect_lvals(const cond *c, lval *v, int *n)
{
	if (!c)
		return;
	if (c->kind == COND_EQ || c->kind == COND_NE) {
		add_lval(v, n, c->lhs);
		if (c->rhs_is_lval)
			add_lval(v, n, c->rhs_lval);
	}
	collect_lvals(c->l, v, n);
	collect_lvals(c->r, v, n);
}

void sstate_state_line(const sstate *st, strbuf *out)
{
	const litmus_test *t = st->t;
	lval *v = xcalloc((size_t)(count_atoms(t->cond) + t->n_observed + 1), sizeof *v);
	int n = 0;
	collect_lvals(t->cond, v, &n);
	for (int i = 0; i < t->n_observed; i++)
		add_lval(v, &n, t->observed[i]);
	for (int i = 0; i < n; i++) {
		if (i)
			sb_putc(out, ' ');
		lval_print(t, v[i], out);
		sb_putc(out, '=');
		value_print(t, sstate_final(st, v[i]), out);
		sb_putc(out, ';');
	}
	free(v);
}

static value final_of(void *ctx, lval lv)
{
	return sstate_final(ctx, lv);
}

bool session_filtered(const session *s)
{
	return s->t->filter && sstate_complete(&s->cur) && !cond_eval_final(s->t->filter, s->t, final_of, (void *)&s->cur);
}

void session_final_state(const session *s, strbuf *out)
{
	sstate_state_line(&s->cur, out);
}

/* ---- choices ------------------------------------------------------------------------- */

/* The enabled event called `event`: its reference, or false with why. */
static bool find_enabled(const session *s, const char *event, sref *r, strbuf *why)
{
	int v = sstate_find(&s->cur, event);
	if (v < 0) {
		sb_printf(why, "no event called '%s' (show lists them)", event);
		return false;
	}
	*r = s->cur.view[v];
	if (!sstate_enabled(&s->cur, *r)) {
		const sev *e = sstate_ev(&s->cur, *r);
		sb_printf(why, "event %s is %s", event,
			  !e ? "an initial write" : e->committed || e->failed ? "committed already"
				: (e->kind != EV_READ && e->kind != EV_WRITE) ? "not a memory access"
				: "not enabled: its value depends on a load not committed yet");
		return false;
	}
	return true;
}

void session_choices_free(session_choices *c)
{
	for (int i = 0; i < c->n; i++) {
		free(c->v[i].param);
		free(c->v[i].check);
		free(c->v[i].cycle);
	}
	free(c->v);
	memset(c, 0, sizeof *c);
}

bool session_choices_of(session *s, const char *event, session_choices *out, strbuf *why)
{
	memset(out, 0, sizeof *out);
	sref r;
	if (!find_enabled(s, event, &r, why))
		return false;
	sdecision *p;
	int n = sstate_params(&s->cur, r, &p);
	out->v = xcalloc((size_t)n + 1, sizeof *out->v);
	for (int i = 0; i < n; i++) {
		session_choice *c = &out->v[out->n++];
		strbuf sb = { 0 };
		sstate_param_name(&s->cur, &p[i], &sb);
		c->param = sb_take(&sb);
		sstate next;
		sstate_extend(&next, &s->cur, &p[i]);
		sverdict v;
		bool ok = sverdict_of(s->m, &next, &v, &s->quiet, why);
		sstate_free(&next);
		if (!ok) {
			free(p);
			session_choices_free(out);
			return false;
		}
		c->allowed = v.allowed;
		c->check = v.check_name ? xstrdup(v.check_name) : NULL;
		c->cycle = v.cycle ? xstrdup(v.cycle) : NULL;
		sverdict_free(&v);
	}
	free(p);
	return true;
}

bool session_find_decision(session *s, const char *event, const char *param, sdecision *d, strbuf *why)
{
	sref r;
	if (!find_enabled(s, event, &r, why))
		return false;
	sdecision *p;
	int n = sstate_params(&s->cur, r, &p);
	for (int i = 0; i < n; i++) {
		strbuf sb = { 0 };
		sstate_param_name(&s->cur, &p[i], &sb);
		bool same = sb.s && !strcmp(sb.s, param);
		sb_free(&sb);
		if (same) {
			*d = p[i];
			free(p);
			return true;
		}
	}
	const sev *e = sstate_ev(&s->cur, r);
	if (e->unreserved && n == 1) {
		/* a success herd does not have: say why, not just that */
		sb_printf(why, "%s: ", event);
		sstate_describe(&s->cur, r, why);
		sb_printf(why, " has no reservation for %s (no load-reserve of that address since its thread's last "
			       "store-conditional), so herd has it fail only; its one choice:",
			  s->t->locs[e->loc].name);
	} else {
		sb_printf(why, "'%s' is not a choice of %s:", param, event);
	}
	for (int i = 0; i < n; i++) {
		sb_putc(why, ' ');
		sstate_param_name(&s->cur, &p[i], why);
	}
	free(p);
	return false;
}

/* "e: R x (P1) reads i(x)" */
static void say_choice(const session *s, const sdecision *d, strbuf *out)
{
	int v = sstate_view_index(&s->cur, d->ev);
	const sev *e = sstate_ev(&s->cur, d->ev);
	sb_printf(out, "%s: ", s->cur.name[v]);
	sstate_describe(&s->cur, d->ev, out);
	if (d->fail && !e->choice)
		sb_puts(out, " fails");
	else
		sb_puts(out, e->choice ? " takes " : e->kind == EV_READ ? " reads " : e->lock_write ? " locks after "
		                                                                                 : " co-after ");
	if (!d->fail || e->choice)
		sstate_param_name(&s->cur, d, out);
}

/* Judge `event param` from the current state and say it in *out: for why
 * the verdict ("X: allowed (...)" or "X: forbidden by C" and its cycle),
 * for commit only a refusal ("refused: X is forbidden by C" and its
 * cycle), the state moving to the commit when it is allowed.  -1 (the
 * reason in *out) when there is no such choice or the model cannot judge
 * it, else whether it is allowed. */
static int judge(session *s, const char *event, const char *param, bool commit, strbuf *out)
{
	sdecision d;
	strbuf none = { 0 };
	if (!session_find_decision(s, event, param, &d, &none)) {
		/* committing a success herd does not have is a refusal */
		int v = sstate_find(&s->cur, event);
		const sev *e = v >= 0 ? sstate_ev(&s->cur, s->cur.view[v]) : NULL;
		if (commit && e && e->unreserved)
			sb_puts(out, "refused: ");
		sb_puts(out, none.s ? none.s : "");
		sb_free(&none);
		return -1;
	}
	sstate next;
	sstate_extend(&next, &s->cur, &d);
	sverdict v;
	if (!sverdict_of(s->m, &next, &v, &s->quiet, out)) {
		sstate_free(&next);
		return -1;
	}
	if (!v.allowed) {
		if (commit)
			sb_puts(out, "refused: ");
		say_choice(s, &d, out);
		sb_printf(out, "%sforbidden by %s\n  %s%s", commit ? " is " : ": ", v.check_name, v.cycle ? v.cycle : "",
			  commit ? "" : "\n");
	} else if (commit) {
		session_set_state(s, next.dec, next.n_dec, true);
	} else {
		say_choice(s, &d, out);
		sb_printf(out, ": allowed (%s)\n",
			  sstate_complete(&next) ? "every check holds on the complete execution"
						 : "every monotone check holds on the partial execution");
	}
	int allowed = v.allowed;
	sverdict_free(&v);
	sstate_free(&next);
	return allowed;
}

bool session_why(session *s, const char *event, const char *param, strbuf *out)
{
	return judge(s, event, param, false, out) >= 0;
}

bool session_commit(session *s, const char *event, const char *param, strbuf *why)
{
	return judge(s, event, param, true, why) == 1;
}

bool session_undo(session *s)
{
	if (s->n_hist == 0)
		return false;
	s->n_hist--;
	sdecision *dec = s->hist[s->n_hist].dec;
	session_set_state(s, dec, s->hist[s->n_hist].n, false);
	free(dec);
	return true;
}

void session_reset(session *s)
{
	session_set_state(s, NULL, 0, true);
}

/* ---- checks ------------------------------------------------------------------------------ */

bool session_checks(session *s, strbuf *out)
{
	cat_model *m = s->m;
	const sstate *st = &s->cur;
	bool complete = sstate_complete(st);
	int nc = cat_model_n_checks(m);
	int *failing = xcalloc((size_t)nc + 1, sizeof *failing);
	int n = cat_model_failing_checks(m, &st->x, failing, &s->quiet);
	if (n < 0) {
		sb_puts(out, "error: the model could not evaluate the execution\n");
		free(failing);
		return false;
	}
	sb_printf(out, "Checks on the %s execution%s:\n", complete ? "complete" : "partial",
		  complete ? "" : " (a check that is not monotone is judged on complete executions only)");
	char **names = xcalloc((size_t)st->x.n + 1, sizeof *names);
	for (int j = 0; j < st->x.n; j++)
		names[j] = st->name[st->view_of_x[j]];
	cat_verdict cv = { 0 };
	bool flags_ok = complete && cat_model_check(m, &st->x, &cv, &s->quiet);
	for (int i = 0; i < nc; i++) {
		const char *name = cat_model_check_name(m, i);
		if (cat_model_check_is_flag(m, i)) {
			bool fired = false;
			for (int k = 0; flags_ok && k < cv.n_flags; k++)
				fired |= !strcmp(cv.flags[k], name);
			sb_printf(out, "  %s: flag, %s\n", name, !complete ? "judged when complete" : fired ? "fires" : "silent");
			continue;
		}
		bool fails = false;
		for (int k = 0; k < n; k++)
			fails |= failing[k] == i;
		bool final = complete || cat_model_check_is_monotone(m, i);
		sb_printf(out, "  %s: %s", name, fails ? "fails" : "holds");
		if (!final)
			sb_puts(out, " (not monotone: not final yet)");
		if (fails && final) {
			strbuf line = { 0 }, why = { 0 };
			if (witness_line(m, &st->x, names, i, &line, NULL, &s->quiet, &why))
				sb_printf(out, ": %s", line.s ? line.s : "");
			sb_free(&line);
			sb_free(&why);
		}
		sb_putc(out, '\n');
	}
	free(names);
	free(failing);
	return true;
}
