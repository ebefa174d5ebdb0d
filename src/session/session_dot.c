/* session_dot.c — the current execution as a picture (the report's
 * dot_picture, src/report/dot.c, which lays it out: initial writes on top,
 * a column per thread in program order, P0 on the left): events not
 * committed yet dashed and grey; when the model forbids the execution, the
 * failing check's witness highlighted.  The title says the test, whether
 * the execution is complete, the verdict, and the final state once
 * complete. */
#include <stdlib.h>
#include <string.h>

#include "../report/report_extra.h"
#include "session_int.h"

static bool write_dot(session *s, const sstate *st, const char *path, strbuf *why)
{
	sverdict v;
	if (!sverdict_of(s->m, st, &v, &s->quiet, why))
		return false;
	bool complete = sstate_complete(st);
	strbuf title = { 0 };
	sb_printf(&title, "%s: %s execution, %s%s", s->t->name ? s->t->name : "", complete ? "complete" : "partial",
		  v.allowed ? "allowed" : "forbidden by ", v.allowed ? "" : v.check_name);
	if (complete) {
		sb_putc(&title, '\n');
		sstate_state_line(st, &title);
	}
	/* the view is the initial writes, then each thread in program order:
	 * the picture's order */
	dot_event *ev = xcalloc((size_t)st->n_view + 1, sizeof *ev);
	char **labels = xcalloc((size_t)st->n_view + 1, sizeof *labels);
	int n = 0;
	for (int i = 0; i < st->n_view; i++) {
		if (!st->name[i][0])
			continue;
		strbuf desc = { 0 };
		sstate_describe(st, st->view[i], &desc);
		labels[n] = dot_node_label(st->name[i], desc.s);
		sb_free(&desc);
		ev[n] = (dot_event){ st->name[i], labels[n], st->view[i].thread, st->x_of_view[i] };
		n++;
	}
	dot_picture p = { s->t->name ? s->t->name : "execution", title.s, s->t->n_threads, n, ev, &st->x,
			  v.steps, v.n_steps, 0, NULL };
	bool ok = dot_write_with_model(path, &p, s->m, why);
	for (int i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(ev);
	sb_free(&title);
	sverdict_free(&v);
	return ok;
}

bool session_dot(session *s, const char *path, const char *event, const char *param, strbuf *why)
{
	if (!event || !param)
		return write_dot(s, &s->cur, path, why);
	sdecision d;
	if (!session_find_decision(s, event, param, &d, why))
		return false;
	sstate next;
	sstate_extend(&next, &s->cur, &d);
	bool ok = write_dot(s, &next, path, why);
	sstate_free(&next);
	return ok;
}
