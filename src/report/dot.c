/* dot.c — executions as Graphviz pictures a person can read (dot_picture in
 * report_extra.h): -show, -explain and weft -i's `dot` all draw here.
 *
 * Layout: positions are fixed here, not left to Graphviz, so that a thread
 * is always a column in program order, P0 on the left, and the initial
 * writes a row on top (herd's "columns" mode, also drawn by neato with
 * pinned positions).  The file says layout=neato, so `dot -Tpng FILE`
 * draws it the same.
 *
 * Edges: between two events at most one edge, the names of every relation
 * holding between them merged into its label ("po,addr"); it takes the
 * style of the first of them.  po, co, fr and the lock order are drawn between immediate
 * successors only (fr from a read to the first write co-after the one it
 * read), rf and dependencies in full, relations of the model's `show`
 * directives between immediate successors.  Every relation has its own
 * colour and dash; a failing check's witness is bold magenta, a colour no
 * relation uses, its model names added to the label.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "explain_int.h"

/* inches: a column is at least this wide, wider for long labels (a
 * monospace character of the default 14pt font is about 0.12 inch) */
#define COLUMN_WIDTH 2.6
#define CHAR_WIDTH 0.12
#define ROW_HEIGHT 0.9

typedef struct look {
	const char *name;
	const char *attrs;
} look;

/* The base relations, in label order; po first: it is the one that reads
 * a column top-down. */
static const look base_looks[] = {
	{ "po", "color=black, fontcolor=black" },
	{ "rf", "color=red, fontcolor=red" },
	{ "co", "color=blue, fontcolor=blue, style=bold" },
	{ "fr", "color=darkorange, fontcolor=darkorange, style=dashed" },
	{ "addr", "color=darkgreen, fontcolor=darkgreen, style=dashed" },
	{ "data", "color=darkgreen, fontcolor=darkgreen, style=dashed" },
	{ "ctrl", "color=darkgreen, fontcolor=darkgreen, style=dotted" },
	{ "rmw", "color=purple, fontcolor=purple, style=dotted" },
	/* the order C's spin_locks take a lock in, when the session chose it
	 * (execution.lock_co) */
	{ "lock", "color=teal, fontcolor=teal, style=bold" },
};
enum { N_BASE = sizeof base_looks / sizeof base_looks[0] };
const char DOT_LOOK_SHOWN[] = "shown", DOT_LOOK_WITNESS[] = "witness", DOT_LOOK_PENDING[] = "pending";
static const char shown_attrs[] = "color=saddlebrown, fontcolor=saddlebrown, style=dotted";
static const char witness_attrs[] = "color=magenta, fontcolor=magenta, penwidth=3";
static const char pending_attrs[] = "color=grey, fontcolor=grey, style=dashed";

/* A double-quoted DOT string; a '\n' in s becomes Graphviz's line break. */
static void dot_quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
	fputc('"', out);
}

/* (a, b) in r with nothing of r in between (an immediate successor). */
static bool immediate(const brel *r, int a, int b)
{
	if (!brel_has(r, a, b))
		return false;
	for (int c = 0; c < r->n; c++)
		if (brel_has(r, a, c) && brel_has(r, c, b))
			return false;
	return true;
}

static void put_edge(FILE *out, const char *from, const char *to, const char *label, const char *attrs)
{
	fputs("  ", out);
	dot_quoted(out, from);
	fputs(" -> ", out);
	dot_quoted(out, to);
	fputs(" [label=", out);
	dot_quoted(out, label);
	fprintf(out, ", %s];\n", attrs);
}

/* Where each event goes: its column and row. */
static void put_nodes(FILE *out, const dot_picture *p)
{
	int n_init = 0;
	for (int i = 0; i < p->n_events; i++)
		n_init += p->events[i].thread < 0;
	/* columns wide enough for their widest label, so that no two boxes
	 * touch (Graphviz would then draw straight edges through them) */
	size_t widest = 0;
	for (int i = 0; i < p->n_events; i++)
		if (strlen(p->events[i].label) > widest)
			widest = strlen(p->events[i].label);
	double width = COLUMN_WIDTH;
	if (0.8 + CHAR_WIDTH * (double)widest > width)
		width = 0.8 + CHAR_WIDTH * (double)widest;
	double centre = (p->n_threads > 0 ? p->n_threads - 1 : 0) * width / 2;
	int k_init = 0;
	int *row = xcalloc((size_t)p->n_threads + 1, sizeof *row);
	for (int th = 0; th < p->n_threads; th++) {
		/* the column's title */
		fprintf(out, "  \"P%d\" [label=\"P%d\", shape=plaintext, fontname=\"sans-serif\", "
			     "pos=\"%.2f,%.2f!\"];\n",
			th, th, th * width, -1.0 * ROW_HEIGHT);
	}
	for (int i = 0; i < p->n_events; i++) {
		const dot_event *ev = &p->events[i];
		double x, y;
		if (ev->thread < 0) {
			x = centre + (k_init++ - (n_init - 1) / 2.0) * width;
			y = 0;
		} else {
			int th = ev->thread < p->n_threads ? ev->thread : p->n_threads - 1;
			x = th * width;
			y = -(2 + row[th]++) * ROW_HEIGHT;
		}
		fputs("  ", out);
		dot_quoted(out, ev->name);
		fputs(" [label=", out);
		dot_quoted(out, ev->label);
		/* group names the column (the layout is fixed here; a reader
		 * of the file, or dot if layout is changed, can tell) */
		if (ev->thread < 0)
			fputs(", group=\"init\"", out);
		else
			fprintf(out, ", group=\"P%d\"", ev->thread);
		fprintf(out, ", pos=\"%.2f,%.2f!\"%s];\n", x, y,
			ev->x < 0 ? ", style=dashed, color=grey, fontcolor=grey" : "");
	}
	free(row);
}

/* The picture's node of execution event e, or NULL. */
static const char *node_of(const dot_picture *p, int e)
{
	for (int i = 0; i < p->n_events; i++)
		if (p->events[i].x == e)
			return p->events[i].name;
	return NULL;
}

/* Does the label say `via` already?  Labels here name base relations
 * plainly (rf), the model's names may say which part (rfe, fri, coe). */
static bool via_said(const char *labels, const char *via)
{
	if (edge_via_redundant(labels, via))
		return true;
	size_t n = strlen(via);
	if (n < 3 || (via[n - 1] != 'e' && via[n - 1] != 'i'))
		return false;
	char *plain = xstrndup(via, n - 1);
	bool said = false;
	for (int k = 0; k < N_BASE && !said; k++)
		said = !strcmp(plain, base_looks[k].name) && edge_via_redundant(labels, plain);
	free(plain);
	return said;
}

/* One more edge of the list. */
static void add_edge(dot_edges *e, const char *from, const char *to, char *label, const char *look)
{
	e->v = xrealloc(e->v, ((size_t)e->n + 1) * sizeof *e->v);
	e->v[e->n++] = (dot_edge){ from, to, label, look };
}

void dot_picture_edges(const dot_picture *p, dot_edges *out)
{
	*out = (dot_edges){ 0 };
	const execution *x = p->x;
	brel fr = execution_fr(x);
	for (int a = 0; a < x->n; a++)
		for (int b = 0; b < x->n; b++) {
			bool has[N_BASE] = {
				immediate(&x->po, a, b), brel_has(&x->rf, a, b), immediate(&x->co, a, b),
				immediate(&fr, a, b), brel_has(&x->addr, a, b), brel_has(&x->data, a, b),
				brel_has(&x->ctrl, a, b), brel_has(&x->rmw, a, b),
				x->lock_co.w && immediate(&x->lock_co, a, b),
			};
			strbuf lab = { 0 };
			const char *look = NULL;
			for (int k = 0; k < N_BASE; k++)
				if (has[k]) {
					sb_printf(&lab, "%s%s", lab.len ? "," : "", base_looks[k].name);
					look = look ? look : base_looks[k].name;
				}
			for (int k = 0; k < p->n_shown; k++)
				if (immediate(&p->shown[k].rel, a, b)) {
					sb_printf(&lab, "%s%s", lab.len ? "," : "", p->shown[k].name);
					look = look ? look : DOT_LOOK_SHOWN;
				}
			bool witness = false;
			for (int i = 0; i < p->n_hl; i++) {
				if (p->hl[i].from != a || p->hl[i].to != b)
					continue;
				witness = true;
				const char *via = p->hl[i].via;
				if (via && (!lab.len || !via_said(lab.s, via)))
					sb_printf(&lab, "%s%s", lab.len ? ":" : "", via);
			}
			const char *from = node_of(p, a), *to = node_of(p, b);
			if ((look || witness) && from && to)
				add_edge(out, from, to, xstrdup(lab.s ? lab.s : ""), witness ? DOT_LOOK_WITNESS : look);
			sb_free(&lab);
		}
	brel_free(&fr);
	/* program order through the events not in the execution yet */
	for (int i = 0; i + 1 < p->n_events; i++) {
		const dot_event *a = &p->events[i], *b = &p->events[i + 1];
		if (a->thread >= 0 && a->thread == b->thread && (a->x < 0 || b->x < 0))
			add_edge(out, a->name, b->name, xstrdup("po"), DOT_LOOK_PENDING);
	}
}

void dot_edges_free(dot_edges *e)
{
	for (int i = 0; i < e->n; i++)
		free(e->v[i].label);
	free(e->v);
	*e = (dot_edges){ 0 };
}

/* Graphviz attributes of an edge's look. */
static const char *look_attrs(const char *look)
{
	for (int k = 0; k < N_BASE; k++)
		if (look == base_looks[k].name)
			return base_looks[k].attrs;
	if (look == DOT_LOOK_WITNESS)
		return witness_attrs;
	if (look == DOT_LOOK_PENDING)
		return pending_attrs;
	return shown_attrs;
}

static void put_edges(FILE *out, const dot_picture *p)
{
	dot_edges e;
	dot_picture_edges(p, &e);
	for (int i = 0; i < e.n; i++)
		put_edge(out, e.v[i].from, e.v[i].to, e.v[i].label, look_attrs(e.v[i].look));
	dot_edges_free(&e);
}

bool dot_write_picture(const char *path, const dot_picture *p, strbuf *why)
{
	FILE *out = fopen(path, "w");
	if (!out) {
		sb_printf(why, "%s: %s", path, strerror(errno));
		return false;
	}
	fputs("digraph ", out);
	dot_quoted(out, p->graph_name ? p->graph_name : "execution");
	fputs(" {\n  layout=neato;\n  splines=true;\n  overlap=true;\n  label=", out);
	dot_quoted(out, p->title ? p->title : "");
	fputs(";\n  labelloc=t;\n  node [shape=box, fontname=\"monospace\"];\n"
	      "  edge [fontname=\"monospace\", fontsize=10];\n",
	      out);
	put_nodes(out, p);
	put_edges(out, p);
	fputs("}\n", out);
	bool ok = !ferror(out);
	if (fclose(out) != 0)
		ok = false;
	if (!ok)
		sb_printf(why, "%s: write error", path);
	return ok;
}

/* ---- the model's show directives --------------------------------------------------- */

static bool base_name(const char *name)
{
	for (int k = 0; k < N_BASE; k++)
		if (!strcmp(base_looks[k].name, name))
			return true;
	return false;
}

int dot_shown_relations(cat_model *m, const execution *x, dot_relation **out)
{
	*out = NULL;
	int n = 0;
	if (!m)
		return 0;
	/* a shown name that is not a relation of this execution (a set, a
	 * name of another architecture) is simply not drawn */
	diag quiet = { .drop = true };
	for (int i = 0; i < cat_model_n_shown(m); i++) {
		const char *label = cat_model_shown_label(m, i);
		if (base_name(label))
			continue;
		brel r;
		if (!cat_model_eval_shown(m, x, i, &r, &quiet))
			continue;
		if (brel_empty(&r)) {
			brel_free(&r);
			continue;
		}
		*out = xrealloc(*out, ((size_t)n + 1) * sizeof **out);
		(*out)[n++] = (dot_relation){ label, r };
	}
	return n;
}

void dot_relations_free(dot_relation *v, int n)
{
	for (int i = 0; i < n; i++)
		brel_free(&v[i].rel);
	free(v);
}

bool dot_write_with_model(const char *path, dot_picture *p, cat_model *m, strbuf *why)
{
	dot_relation *shown;
	int n_shown = dot_shown_relations(m, p->x, &shown);
	p->shown = shown;
	p->n_shown = n_shown;
	bool ok = dot_write_picture(path, p, why);
	p->shown = NULL;
	p->n_shown = 0;
	dot_relations_free(shown, n_shown);
	return ok;
}

void dot_picture_edges_with_model(dot_picture *p, cat_model *m, dot_edges *out)
{
	dot_relation *shown;
	int n_shown = dot_shown_relations(m, p->x, &shown);
	p->shown = shown;
	p->n_shown = n_shown;
	dot_picture_edges(p, out);
	p->shown = NULL;
	p->n_shown = 0;
	dot_relations_free(shown, n_shown);
}

char *dot_node_label(const char *name, const char *description)
{
	char *label = xasprintf("%s: %s", name, description);
	/* the thread is the column's title already, the top row the initial
	 * writes' */
	char *paren = strrchr(label, '(');
	if (paren && paren > label + 1 && paren[-1] == ' ')
		paren[-1] = '\0';
	return label;
}

/* ---- one execution, its events named as explanations name them ---------------------- */

bool dot_write_file(const char *path, const execution *x, const char *title, const cat_step *hl, int n_hl,
		    cat_model *m, strbuf *why)
{
	event_names nm;
	event_names_init(&nm, x);
	dot_event *ev = xcalloc((size_t)x->n + 1, sizeof *ev);
	char **labels = xcalloc((size_t)x->n + 1, sizeof *labels);
	int n = 0;
	int n_threads = x->test ? x->test->n_threads : 0;
	/* initial writes first, then each thread in program order (events
	 * are numbered so within a thread) */
	for (int th = -1; th < n_threads; th++)
		for (int e = 0; e < x->n; e++) {
			if (x->ev[e].thread != th)
				continue;
			strbuf sb = { 0 };
			event_describe(x, e, &sb);
			labels[n] = dot_node_label(nm.name[e], sb.s);
			sb_free(&sb);
			ev[n] = (dot_event){ nm.name[e], labels[n], th, e };
			n++;
		}
	dot_picture p = { x->test && x->test->name ? x->test->name : "execution", title, n_threads, n, ev, x,
			  hl, n_hl, 0, NULL };
	bool ok = dot_write_with_model(path, &p, m, why);
	for (int i = 0; i < n; i++)
		free(labels[i]);
	free(labels);
	free(ev);
	event_names_free(&nm);
	return ok;
}
