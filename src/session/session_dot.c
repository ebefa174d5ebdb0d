/* session_dot.c — the current execution as a picture (the report's
 * dot_picture, src/report/dot.c, which lays it out: initial writes on top,
 * a column per thread in program order, P0 on the left): events not
 * committed yet dashed and grey; when the model forbids the execution, the
 * failing check's witness highlighted.  The title says the test, whether
 * the execution is complete, the verdict, and the final state once
 * complete.  The same picture is written as Graphviz (`dot`) or handed
 * over as nodes and edges (session_graph_of, for a page that draws it). */
#include <stdlib.h>
#include <string.h>

#include "../report/report_extra.h"
#include "session_int.h"

/* A state's picture and what it is made of (all owned here). */
typedef struct spicture {
	dot_picture p;
	dot_event *ev;
	char **labels;
	strbuf title;
	sverdict v;
} spicture;

static bool picture_of(session *s, const sstate *st, spicture *sp, strbuf *why)
{
	memset(sp, 0, sizeof *sp);
	if (!sverdict_of(s->m, st, &sp->v, &s->quiet, why))
		return false;
	bool complete = sstate_complete(st);
	sb_printf(&sp->title, "%s: %s execution, %s%s", s->t->name ? s->t->name : "", complete ? "complete" : "partial",
		  sp->v.allowed ? "allowed" : "forbidden by ", sp->v.allowed ? "" : sp->v.check_name);
	if (complete) {
		sb_putc(&sp->title, '\n');
		sstate_state_line(st, &sp->title);
	}
	/* the view is the initial writes, then each thread in program order:
	 * the picture's order */
	sp->ev = xcalloc((size_t)st->n_view + 1, sizeof *sp->ev);
	sp->labels = xcalloc((size_t)st->n_view + 1, sizeof *sp->labels);
	int n = 0;
	for (int i = 0; i < st->n_view; i++) {
		if (!st->name[i][0])
			continue;
		strbuf desc = { 0 };
		sstate_describe(st, st->view[i], &desc);
		sp->labels[n] = dot_node_label(st->name[i], desc.s);
		sb_free(&desc);
		sp->ev[n] = (dot_event){ st->name[i], sp->labels[n], st->view[i].thread, st->x_of_view[i] };
		n++;
	}
	sp->p = (dot_picture){ s->t->name ? s->t->name : "execution", sp->title.s, s->t->n_threads, n, sp->ev, &st->x,
			       sp->v.steps, sp->v.n_steps, 0, NULL };
	return true;
}

static void picture_free(spicture *sp)
{
	for (int i = 0; i < sp->p.n_events; i++)
		free(sp->labels[i]);
	free(sp->labels);
	free(sp->ev);
	sb_free(&sp->title);
	sverdict_free(&sp->v);
}

/* What is done with a picture (session_dot writes it, session_graph_of
 * copies it out). */
typedef bool (*picture_use)(session *s, spicture *sp, void *ctx, strbuf *why);

/* Use the picture of the current state, or with `event param` of the
 * state after that commit. */
static bool with_picture(session *s, const char *event, const char *param, picture_use use, void *ctx, strbuf *why)
{
	const sstate *st = &s->cur;
	sstate next;
	bool made = event && param;
	if (made) {
		sdecision d;
		if (!session_find_decision(s, event, param, &d, why))
			return false;
		sstate_extend(&next, &s->cur, &d);
		st = &next;
	}
	spicture sp;
	bool ok = picture_of(s, st, &sp, why);
	if (ok) {
		ok = use(s, &sp, ctx, why);
		picture_free(&sp);
	}
	if (made)
		sstate_free(&next);
	return ok;
}

static bool write_dot(session *s, spicture *sp, void *path, strbuf *why)
{
	return dot_write_with_model(path, &sp->p, s->m, why);
}

bool session_dot(session *s, const char *path, const char *event, const char *param, strbuf *why)
{
	return with_picture(s, event, param, write_dot, (void *)path, why);
}

static bool copy_graph(session *s, spicture *sp, void *ctx, strbuf *why)
{
	(void)why;
	session_graph *g = ctx;
	g->title = sb_take(&sp->title);
	g->allowed = sp->v.allowed;
	g->check = sp->v.check_name ? xstrdup(sp->v.check_name) : NULL;
	g->cycle = sp->v.cycle ? xstrdup(sp->v.cycle) : NULL;
	g->n_nodes = sp->p.n_events;
	g->nodes = xcalloc((size_t)g->n_nodes + 1, sizeof *g->nodes);
	/* rows per column: each thread's, then the initial writes' */
	int *rows = xcalloc((size_t)s->t->n_threads + 1, sizeof *rows);
	for (int i = 0; i < g->n_nodes; i++) {
		const dot_event *e = &sp->ev[i];
		int column = e->thread < 0 ? s->t->n_threads : e->thread;
		g->nodes[i] = (session_node){ xstrdup(e->name), xstrdup(e->label), e->thread, rows[column]++, e->x < 0 };
	}
	free(rows);
	dot_edges de;
	dot_picture_edges_with_model(&sp->p, s->m, &de);
	g->n_edges = de.n;
	g->edges = xcalloc((size_t)de.n + 1, sizeof *g->edges);
	for (int i = 0; i < de.n; i++)
		g->edges[i] = (session_edge){ xstrdup(de.v[i].from), xstrdup(de.v[i].to), xstrdup(de.v[i].label),
					      de.v[i].look };
	dot_edges_free(&de);
	return true;
}

bool session_graph_of(session *s, const char *event, const char *param, session_graph *g, strbuf *why)
{
	memset(g, 0, sizeof *g);
	return with_picture(s, event, param, copy_graph, g, why);
}

void session_graph_free(session_graph *g)
{
	for (int i = 0; i < g->n_nodes; i++) {
		free(g->nodes[i].name);
		free(g->nodes[i].label);
	}
	for (int i = 0; i < g->n_edges; i++) {
		free(g->edges[i].from);
		free(g->edges[i].to);
		free(g->edges[i].label);
	}
	free(g->nodes);
	free(g->edges);
	free(g->title);
	free(g->check);
	free(g->cycle);
	memset(g, 0, sizeof *g);
}
