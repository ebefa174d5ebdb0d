/* explain.c — -explain and -show: watch the candidates an engine judges,
 * keep one that reaches the condition's states, and afterwards say why the
 * model forbids those states (the checks, and a cycle of base edges) or
 * show an allowed execution reaching them.
 *
 * The outcome spoken of is the condition's proposition: "allowed" when some
 * allowed execution ends in a state where it holds (whatever the
 * quantifier), "forbidden" otherwise.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "explain_int.h"

typedef struct check_count {
	const char *name;   /* the model's string */
	long count;
} check_count;

struct explainer {
	const litmus_test *t;
	explain_opts o;
	char *model_key;
	/* witnesses: the first allowed and the first forbidden candidate
	 * reaching the proposition's states */
	bool have_allowed, have_forbidden;
	execution allowed, forbidden;
	/* the skipped check that fails on the allowed witness (-skipchecks,
	 * -through: let through), NULL when the whole model allows it; a
	 * witness the whole model allows replaces one let through */
	const char *allowed_ignored;
	value *allowed_state, *forbidden_state;
	int n_lvals;
	/* first failing check of every forbidden candidate reaching them */
	int n_checks;
	size_t cap_checks;
	check_count *checks;
	long reaching_forbidden;
	/* -show: the executions to draw, drawn by explainer_finish, which may
	 * use the model (for its show directives) */
	long n_shown;
	size_t cap_shown;
	execution *shown;
	char **shown_titles;
	value **shown_states;
	const char **shown_ignored; /* the skipped check that fails on each
	                             * (the model's string), or NULL */
};

explainer *explainer_new(const litmus_test *t, const explain_opts *o)
{
	explainer *e = xcalloc(1, sizeof *e);
	e->t = t;
	e->o = *o;
	e->model_key = xstrdup(o->model_key ? o->model_key : "model");
	e->o.model_key = e->model_key;
	return e;
}

void explainer_free(explainer *e)
{
	if (!e)
		return;
	if (e->have_allowed)
		execution_free(&e->allowed);
	if (e->have_forbidden)
		execution_free(&e->forbidden);
	free(e->allowed_state);
	free(e->forbidden_state);
	free(e->checks);
	free(e->model_key);
	for (long i = 0; i < e->n_shown; i++) {
		execution_free(&e->shown[i]);
		free(e->shown_titles[i]);
		free(e->shown_states[i]);
	}
	free(e->shown);
	free(e->shown_titles);
	free(e->shown_states);
	free(e->shown_ignored);
	free(e);
}

/* A test name or model key as a file-name part: [A-Za-z0-9+._-] kept, the
 * rest '_' (the corpus's rule for file names). */
static void file_part(const char *s, strbuf *sb)
{
	for (; *s; s++) {
		char ch = *s;
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
			  ch == '+' || ch == '.' || ch == '_' || ch == '-';
		sb_putc(sb, ok ? ch : '_');
	}
}

/* DIR/NAME.MODEL.SUFFIX.dot */
static char *dot_path(const explainer *e, const char *suffix)
{
	strbuf sb = { 0 };
	sb_printf(&sb, "%s/", e->o.dot_dir);
	file_part(e->t->name ? e->t->name : "test", &sb);
	sb_putc(&sb, '.');
	file_part(e->model_key, &sb);
	sb_printf(&sb, ".%s.dot", suffix);
	return sb_take(&sb);
}

static void state_line(const litmus_test *t, const test_result *r, const value *vals, strbuf *sb)
{
	for (int i = 0; i < r->n_lvals; i++) {
		if (i)
			sb_putc(sb, ' ');
		lval_print(t, r->lvals[i], sb);
		sb_putc(sb, '=');
		value_print(t, vals[i], sb);
		sb_putc(sb, ';');
	}
}

static void show_candidate(explainer *e, const engine_candidate *c)
{
	bool want = e->o.show == SHOW_WHICH_ALL || (e->o.show == SHOW_WHICH_PROP && c->holds) ||
		    (e->o.show == SHOW_WHICH_NEG && !c->holds);
	if (!want || (e->o.max_shown > 0 && e->n_shown >= e->o.max_shown))
		return;
	/* an execution -through or -skipchecks let through says what would
	 * have forbidden it */
	const char *ignored = c->verdict ? c->verdict->ignored : NULL;
	GROW(e->shown, e->cap_shown, (size_t)e->n_shown + 1);
	e->shown_titles = xrealloc(e->shown_titles, ((size_t)e->n_shown + 1) * sizeof *e->shown_titles);
	e->shown_states = xrealloc(e->shown_states, ((size_t)e->n_shown + 1) * sizeof *e->shown_states);
	e->shown_ignored = xrealloc(e->shown_ignored, ((size_t)e->n_shown + 1) * sizeof *e->shown_ignored);
	e->shown_ignored[e->n_shown] = ignored;
	execution_copy(&e->shown[e->n_shown], c->x);
	e->shown_titles[e->n_shown] =
		xasprintf("%s (%s) execution %ld%s%s%s%s", e->t->name ? e->t->name : "", e->model_key, e->n_shown + 1,
			  c->holds ? ", the proposition holds" : "", ignored ? ", forbidden by " : "",
			  ignored ? ignored : "", ignored ? " (its witness in bold magenta)" : "");
	/* the final state goes under the title, written once the lvals are
	 * known (test_result) */
	value *st = xcalloc((size_t)(c->n_state > 0 ? c->n_state : 1), sizeof *st);
	if (c->state && c->n_state > 0)
		memcpy(st, c->state, (size_t)c->n_state * sizeof *st);
	e->shown_states[e->n_shown] = st;
	e->n_shown++;
}

static void keep(explainer *e, execution *dst, value **state, const engine_candidate *c)
{
	execution_copy(dst, c->x);
	e->n_lvals = c->n_state;
	*state = xcalloc((size_t)(c->n_state > 0 ? c->n_state : 1), sizeof **state);
	if (c->state && c->n_state > 0)
		memcpy(*state, c->state, (size_t)c->n_state * sizeof **state);
}

/* The states explained: where the proposition holds, or for forall (whose
 * interesting outcome is a counterexample) where it fails. */
static bool targets(const litmus_test *t, bool holds)
{
	return t->quant == Q_FORALL ? !holds : holds;
}

static long target_count(const litmus_test *t, const test_result *r)
{
	return t->quant == Q_FORALL ? r->neg : r->pos;
}

void explainer_on_candidate(void *ctx, const engine_candidate *c)
{
	explainer *e = ctx;
	bool allowed = !c->verdict || c->verdict->allowed;
	if (allowed && e->o.show != SHOW_WHICH_NONE && e->o.dot_dir)
		show_candidate(e, c);
	if (!e->o.explain || !targets(e->t, c->holds))
		return;
	if (allowed) {
		const char *ignored = c->verdict ? c->verdict->ignored : NULL;
		if (e->have_allowed && e->allowed_ignored && !ignored) {
			execution_free(&e->allowed);
			free(e->allowed_state);
			e->have_allowed = false;
		}
		if (!e->have_allowed) {
			keep(e, &e->allowed, &e->allowed_state, c);
			e->have_allowed = true;
			e->allowed_ignored = ignored;
		}
		return;
	}
	e->reaching_forbidden++;
	const char *name = c->verdict->failed ? c->verdict->failed : "?";
	int i = 0;
	while (i < e->n_checks && strcmp(e->checks[i].name, name) != 0)
		i++;
	if (i == e->n_checks) {
		GROW(e->checks, e->cap_checks, (size_t)e->n_checks + 1);
		e->checks[e->n_checks++] = (check_count){ name, 0 };
	}
	e->checks[i].count++;
	if (!e->have_forbidden) {
		keep(e, &e->forbidden, &e->forbidden_state, c);
		e->have_forbidden = true;
	}
}

/* ---- printing ------------------------------------------------------------------------- */

static void put_event(FILE *out, const execution *x, const event_names *nm, int e)
{
	strbuf sb = { 0 };
	event_describe(x, e, &sb);
	fprintf(out, "%s: %s", nm->name[e], sb.s);
	sb_free(&sb);
}

/* "a: W x=1 (P0) -po:sync-> b: R y=0 (P0) -fre-> ..." */
static void put_path(FILE *out, const execution *x, const event_names *nm, const brel *fr, const cat_step *s,
		     int n)
{
	for (int i = 0; i < n; i++) {
		if (i == 0 || s[i].from != s[i - 1].to) {
			if (i)
				fputs(" ... ", out);
			put_event(out, x, nm, s[i].from);
		}
		strbuf lab = { 0 };
		edge_labels(x, fr, s[i].from, s[i].to, &lab);
		/* an edge of the model's own (lock.cat's rf from an unlock to
		 * the next lock) is named by the model's relation alone */
		fprintf(out, " -%s", lab.len ? lab.s : s[i].via ? s[i].via : "?");
		if (lab.len && s[i].via && !edge_via_redundant(lab.s, s[i].via))
			fprintf(out, ":%s", s[i].via);
		fputs("-> ", out);
		put_event(out, x, nm, s[i].to);
		sb_free(&lab);
	}
	fputc('\n', out);
}

/* Events, rf and co of a witness. */
static void put_execution(FILE *out, const explainer *e, const execution *x, const event_names *nm,
			  const value *state, const test_result *r)
{
	strbuf sb = { 0 };
	state_line(e->t, r, state, &sb);
	fprintf(out, "  State: %s\n", sb.len ? sb.s : "(nothing displayed)");
	sb_free(&sb);
	/* initial writes too: their values are part of the story */
	fputs("  Events:", out);
	bool first = true;
	for (int i = 0; i < x->n; i++) {
		fputs(first ? " " : "; ", out);
		put_event(out, x, nm, i);
		first = false;
	}
	fputs("\n  rf:", out);
	first = true;
	for (int w = 0; w < x->n; w++)
		for (int rd = 0; rd < x->n; rd++)
			if (brel_has(&x->rf, w, rd)) {
				fprintf(out, "%s%s -> %s", first ? " " : "; ", nm->name[w], nm->name[rd]);
				first = false;
			}
	fputs("\n  co:", out);
	first = true;
	/* per location, its writes in coherence order (position = number of
	 * co-predecessors) */
	for (int l = 0; l < e->t->n_locs; l++) {
		int n_w = 0;
		for (int w = 0; w < x->n; w++)
			n_w += x->ev[w].kind == EV_WRITE && x->ev[w].loc == l;
		if (n_w < 2)
			continue;
		fputs(first ? " " : "; ", out);
		first = false;
		for (int pos = 0; pos < n_w; pos++)
			for (int w = 0; w < x->n; w++) {
				if (x->ev[w].kind != EV_WRITE || x->ev[w].loc != l)
					continue;
				int before = 0;
				for (int v = 0; v < x->n; v++)
					before += brel_has(&x->co, v, w);
				if (before == pos)
					fprintf(out, "%s%s", pos ? " -> " : "", nm->name[w]);
			}
	}
	fputc('\n', out);
}

static bool write_explained_dot(explainer *e, cat_model *m, const test_result *r, const execution *x,
				const value *state, const cat_step *hl, int n_hl, diag *d)
{
	if (!e->o.dot_dir)
		return true;
	char *path = dot_path(e, "explain");
	strbuf title = { 0 };
	sb_printf(&title, "%s (%s): %s", e->t->name ? e->t->name : "", e->model_key,
		  n_hl ? "a forbidden execution, the failing cycle in bold magenta" : "an allowed witness");
	if (state && r->n_lvals > 0) {
		sb_putc(&title, '\n');
		state_line(e->t, r, state, &title);
	}
	strbuf why = { 0 };
	bool ok = dot_write_file(path, x, title.s, hl, n_hl, m, &why);
	if (!ok)
		diag_error(d, (srcloc){ path, 0, 0 }, "cannot write the execution graph: %s", why.s ? why.s : "");
	sb_free(&why);
	sb_free(&title);
	free(path);
	return ok;
}

static bool explain_forbidden(explainer *e, cat_model *m, const test_result *r, FILE *out, diag *d)
{
	fputs("  Forbidden by", out);
	for (int i = 0; i < e->n_checks; i++)
		fprintf(out, "%s%s (%ld of %ld candidate execution%s reaching them)", i ? ", " : ": ",
			e->checks[i].name, e->checks[i].count, e->reaching_forbidden,
			e->reaching_forbidden == 1 ? "" : "s");
	fputc('\n', out);
	const execution *x = &e->forbidden;
	event_names nm;
	event_names_init(&nm, x);
	put_execution(out, e, x, &nm, e->forbidden_state, r);
	bool ok = true;
	int *failing = xcalloc((size_t)cat_model_n_checks(m) + 1, sizeof *failing);
	int n_failing = cat_model_failing_checks(m, x, failing, d);
	if (n_failing < 0) {
		ok = false;
	} else {
		fputs("  Failing checks:", out);
		for (int i = 0; i < n_failing; i++)
			fprintf(out, "%s%s", i ? ", " : " ", cat_model_check_name(m, failing[i]));
		fputc('\n', out);
	}
	cat_explanation ex = { 0 };
	if (n_failing > 0 && (ok = cat_model_explain_check(m, x, failing[0], &ex, d))) {
		brel fr = execution_fr(x);
		if (ex.shape == CAT_SHAPE_EVENT) {
			fprintf(out, "  In check %s: ", ex.check_name);
			put_event(out, x, &nm, ex.event);
			fputc('\n', out);
		} else if (ex.shape == CAT_SHAPE_NONE) {
			fprintf(out, "  In check %s: no cycle or pair to show\n", ex.check_name);
		} else {
			fprintf(out, "  In check %s:", ex.check_name);
			for (int i = 0; i < ex.n_top; i++) {
				if (i == 0 || ex.top[i].from != ex.top[i - 1].to)
					fprintf(out, "%s%s", i ? " ... " : " ", nm.name[ex.top[i].from]);
				fprintf(out, " -%s-> %s", ex.top[i].via, nm.name[ex.top[i].to]);
			}
			fputc('\n', out);
			fputs(ex.shape == CAT_SHAPE_PAIR ? "  Path: " : "  Cycle: ", out);
			put_path(out, x, &nm, &fr, ex.steps, ex.n_steps);
		}
		brel_free(&fr);
		if (!write_explained_dot(e, m, r, x, e->forbidden_state, ex.steps, ex.n_steps, d))
			ok = false;
	}
	cat_explanation_free(&ex);
	free(failing);
	event_names_free(&nm);
	return ok;
}

bool explainer_finish(explainer *e, cat_model *m, const test_result *r, FILE *out, diag *d)
{
	bool ok = true;
	for (long i = 0; ok && i < e->n_shown; i++) {
		char num[32];
		snprintf(num, sizeof num, "%ld", i + 1);
		char *path = dot_path(e, num);
		strbuf why = { 0 }, title = { 0 };
		sb_puts(&title, e->shown_titles[i]);
		if (r->n_lvals > 0) {
			sb_putc(&title, '\n');
			state_line(e->t, r, e->shown_states[i], &title);
		}
		/* an execution let through shows why the model forbids it: the
		 * witness of the check it fails, as -explain draws one */
		cat_explanation ex = { 0 };
		int check = -1;
		for (int k = 0; m && e->shown_ignored[i] && k < cat_model_n_checks(m); k++)
			if (check < 0 && cat_model_check_name(m, k) == e->shown_ignored[i])
				check = k;
		if (check >= 0 && !cat_model_explain_check(m, &e->shown[i], check, &ex, d))
			ok = false;
		bool drawn = dot_write_file(path, &e->shown[i], title.s, ex.steps, ex.n_steps, m, &why);
		cat_explanation_free(&ex);
		sb_free(&title);
		if (!drawn) {
			diag_error(d, (srcloc){ e->o.dot_dir ? e->o.dot_dir : "-o", 0, 0 },
				   "cannot write an execution graph: %s", why.s ? why.s : "");
			ok = false;
		}
		sb_free(&why);
		free(path);
	}
	if (!e->o.explain)
		return ok;
	bool allowed = target_count(e->t, r) > 0;
	fprintf(out, "Explain %s %s: %s\n", e->t->name ? e->t->name : "?", e->model_key,
		allowed ? "allowed" : "forbidden");
	fprintf(out, "  Target: the final states where the condition's proposition %s\n",
		e->t->quant == Q_FORALL ? "fails (a counterexample to forall)" : "holds");
	if (allowed) {
		if (e->have_allowed) {
			event_names nm;
			event_names_init(&nm, &e->allowed);
			fputs("  Witness: an allowed execution reaching the condition's states\n", out);
			/* none the whole model allows: say what lets this one through */
			if (e->allowed_ignored)
				fprintf(out, "  Let through: it fails %s, a check skipped (-skipchecks, -through); "
					"no execution reaching them passes every check\n", e->allowed_ignored);
			put_execution(out, e, &e->allowed, &nm, e->allowed_state, r);
			event_names_free(&nm);
			if (!write_explained_dot(e, m, r, &e->allowed, e->allowed_state, NULL, 0, d))
				ok = false;
		}
	} else if (!e->have_forbidden) {
		fputs("  No candidate execution reaches the condition's states.\n", out);
	} else if (!m) {
		fputs("  No model to ask.\n", out);
	} else if (!explain_forbidden(e, m, r, out, d)) {
		ok = false;
	}
	fputc('\n', out);
	return ok;
}
