/* dot.c — one execution as a Graphviz digraph (`dot -Tpng FILE.dot`).
 *
 * Events are boxes in one cluster per thread (initial writes in their own
 * cluster); edges are drawn sparsely so that the picture stays readable: po
 * between immediate successors only, co between immediate successors, fr
 * from a read to the first write co-after the one it read; rf and
 * dependencies in full.  Highlighted edges (a failing cycle) are drawn once
 * more on top, bold and red, with their labels.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "explain_int.h"

/* A double-quoted DOT string. */
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

static void edge(FILE *out, const event_names *nm, int a, int b, const char *label, const char *attrs)
{
	fputs("  ", out);
	dot_quoted(out, nm->name[a]);
	fputs(" -> ", out);
	dot_quoted(out, nm->name[b]);
	fputs(" [label=", out);
	dot_quoted(out, label);
	fprintf(out, "%s%s];\n", attrs ? ", " : "", attrs ? attrs : "");
}

static void node(FILE *out, const execution *x, const event_names *nm, int e)
{
	strbuf sb = { 0 };
	sb_printf(&sb, "%s: ", nm->name[e]);
	event_describe(x, e, &sb);
	/* the thread is the cluster's title already */
	char *paren = strrchr(sb.s, '(');
	if (paren && paren > sb.s)
		sb.s[paren - sb.s - 1] = '\0';
	fputs("    ", out);
	dot_quoted(out, nm->name[e]);
	fputs(" [label=", out);
	dot_quoted(out, sb.s);
	fputs("];\n", out);
	sb_free(&sb);
}

static void write_graph(FILE *out, const execution *x, const char *title, const cat_step *hl, int n_hl)
{
	event_names nm;
	event_names_init(&nm, x);
	brel fr = execution_fr(x);
	fputs("digraph ", out);
	dot_quoted(out, x->test && x->test->name ? x->test->name : "execution");
	fputs(" {\n  label=", out);
	dot_quoted(out, title ? title : "");
	fputs(";\n  labelloc=t;\n  node [shape=box, fontname=\"monospace\"];\n"
	      "  edge [fontname=\"monospace\", fontsize=10];\n",
	      out);
	int n_threads = x->test ? x->test->n_threads : 0;
	for (int th = -1; th < n_threads; th++) {
		bool any = false;
		for (int e = 0; e < x->n; e++)
			any |= x->ev[e].thread == th;
		if (!any)
			continue;
		if (th < 0)
			fputs("  subgraph cluster_init {\n    label=\"init\";\n", out);
		else
			fprintf(out, "  subgraph cluster_P%d {\n    label=\"P%d\";\n", th, th);
		for (int e = 0; e < x->n; e++)
			if (x->ev[e].thread == th)
				node(out, x, &nm, e);
		fputs("  }\n", out);
	}
	for (int a = 0; a < x->n; a++)
		for (int b = 0; b < x->n; b++) {
			if (immediate(&x->po, a, b))
				edge(out, &nm, a, b, "po", "color=black");
			if (brel_has(&x->rf, a, b))
				edge(out, &nm, a, b, "rf", "color=red, fontcolor=red, constraint=false");
			if (immediate(&x->co, a, b))
				edge(out, &nm, a, b, "co", "color=blue, fontcolor=blue, constraint=false");
			if (immediate(&fr, a, b))
				edge(out, &nm, a, b, "fr", "color=orange, fontcolor=orange, constraint=false");
			if (brel_has(&x->addr, a, b))
				edge(out, &nm, a, b, "addr", "color=darkgreen, fontcolor=darkgreen, style=dashed");
			if (brel_has(&x->data, a, b))
				edge(out, &nm, a, b, "data", "color=darkgreen, fontcolor=darkgreen, style=dashed");
			if (brel_has(&x->ctrl, a, b))
				edge(out, &nm, a, b, "ctrl", "color=darkgreen, fontcolor=darkgreen, style=dashed");
			if (brel_has(&x->rmw, a, b))
				edge(out, &nm, a, b, "rmw", "color=purple, fontcolor=purple, style=dashed");
		}
	for (int i = 0; i < n_hl; i++) {
		strbuf lab = { 0 };
		edge_labels(x, &fr, hl[i].from, hl[i].to, &lab);
		if (hl[i].via) {
			if (lab.len)
				sb_putc(&lab, ':');
			sb_puts(&lab, hl[i].via);
		}
		edge(out, &nm, hl[i].from, hl[i].to, lab.s ? lab.s : "?",
		     "color=red, fontcolor=red, penwidth=3, constraint=false");
		sb_free(&lab);
	}
	fputs("}\n", out);
	brel_free(&fr);
	event_names_free(&nm);
}

bool dot_write_file(const char *path, const execution *x, const char *title, const cat_step *hl, int n_hl,
		    strbuf *why)
{
	FILE *out = fopen(path, "w");
	if (!out) {
		sb_printf(why, "%s: %s", path, strerror(errno));
		return false;
	}
	write_graph(out, x, title, hl, n_hl);
	bool ok = !ferror(out);
	if (fclose(out) != 0)
		ok = false;
	if (!ok)
		sb_printf(why, "%s: write error", path);
	return ok;
}
