/* verdict.c — what the model says of a session's execution, and the
 * witness of a failing check written as -explain writes its Cycle line:
 * "e: R x=0 (P1) -fre-> a: W x=1 (P0) -po,lwsync-> ...". */
#include <stdlib.h>
#include <string.h>

#include "../report/report_extra.h"
#include "session_int.h"

static void put_event(const execution *x, char *const *names, int e, strbuf *sb)
{
	sb_printf(sb, "%s: ", names[e]);
	event_describe(x, e, sb);
}

bool witness_line(cat_model *m, const execution *x, char *const *names, int check, strbuf *line,
		  cat_explanation *keep, diag *d, strbuf *why)
{
	cat_explanation ex = { 0 };
	bool ok = cat_model_explain_check(m, x, check, &ex, d);
	if (!ok) {
		sb_printf(why, "the model could not evaluate check %s", cat_model_check_name(m, check));
		cat_explanation_free(&ex);
		return false;
	}
	brel fr = execution_fr(x);
	if (ex.shape == CAT_SHAPE_EVENT) {
		sb_puts(line, "event ");
		put_event(x, names, ex.event, line);
	} else if (ex.shape == CAT_SHAPE_NONE || ex.n_steps == 0) {
		sb_puts(line, "no cycle or pair to show");
	} else {
		sb_puts(line, ex.shape == CAT_SHAPE_PAIR ? "path " : "cycle ");
		for (int i = 0; i < ex.n_steps; i++) {
			const cat_step *s = &ex.steps[i];
			if (i == 0 || s->from != ex.steps[i - 1].to) {
				if (i)
					sb_puts(line, " ... ");
				put_event(x, names, s->from, line);
			}
			strbuf lab = { 0 };
			edge_labels(x, &fr, s->from, s->to, &lab);
			sb_printf(line, " -%s", lab.len ? lab.s : (s->via ? s->via : "?"));
			if (lab.len && s->via && !edge_via_redundant(lab.s, s->via))
				sb_printf(line, ":%s", s->via);
			sb_puts(line, "-> ");
			put_event(x, names, s->to, line);
			sb_free(&lab);
		}
	}
	brel_free(&fr);
	if (keep)
		*keep = ex;
	else
		cat_explanation_free(&ex);
	return true;
}

static int check_index(cat_model *m, const char *name)
{
	for (int i = 0; i < cat_model_n_checks(m); i++)
		if (!cat_model_check_is_flag(m, i) && !strcmp(cat_model_check_name(m, i), name))
			return i;
	return -1;
}

bool sverdict_of(cat_model *m, const sstate *st, sverdict *v, diag *d, strbuf *why)
{
	memset(v, 0, sizeof *v);
	v->check = -1;
	cat_verdict cv = { 0 };
	bool ok = sstate_complete(st) ? cat_model_check(m, &st->x, &cv, d) : cat_model_check_partial(m, &st->x, &cv, d);
	if (!ok) {
		sb_puts(why, "the model could not evaluate the execution");
		return false;
	}
	v->allowed = cv.allowed;
	if (cv.allowed)
		return true;
	v->check_name = xstrdup(cv.failed ? cv.failed : "?");
	v->check = cv.failed ? check_index(m, cv.failed) : -1;
	if (v->check < 0) {
		v->cycle = xstrdup("no cycle to show");
		return true;
	}
	char **names = xcalloc((size_t)st->x.n + 1, sizeof *names);
	for (int j = 0; j < st->x.n; j++)
		names[j] = st->name[st->view_of_x[j]];
	strbuf line = { 0 };
	cat_explanation ex = { 0 };
	ok = witness_line(m, &st->x, names, v->check, &line, &ex, d, why);
	free(names);
	if (!ok) {
		sb_free(&line);
		return false;
	}
	v->cycle = sb_take(&line);
	if (!v->cycle)
		v->cycle = xstrdup("");
	v->n_steps = ex.n_steps;
	if (ex.n_steps) {
		v->steps = xcalloc((size_t)ex.n_steps, sizeof *v->steps);
		for (int i = 0; i < ex.n_steps; i++) {
			v->steps[i] = ex.steps[i];
			v->steps[i].via = ex.steps[i].via ? xstrdup(ex.steps[i].via) : NULL;
		}
	}
	cat_explanation_free(&ex);
	return true;
}

void sverdict_free(sverdict *v)
{
	free(v->check_name);
	free(v->cycle);
	for (int i = 0; i < v->n_steps; i++)
		free(v->steps[i].via);
	free(v->steps);
	memset(v, 0, sizeof *v);
}
