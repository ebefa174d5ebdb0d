/* session_dot.c — the current execution as a Graphviz digraph: one
 * cluster per thread, events not committed yet dashed and grey, po and co
 * between immediate successors, rf in full, fr to the first store co-after
 * the one read, dependencies dashed; when the model forbids the execution,
 * the failing check's cycle drawn over it in bold magenta (a colour no
 * base relation uses). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "session_int.h"

static void quoted(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static bool immediate(const brel *r, int a, int b)
{
	if (!brel_has(r, a, b))
		return false;
	for (int c = 0; c < r->n; c++)
		if (brel_has(r, a, c) && brel_has(r, c, b))
			return false;
	return true;
}

static void edge(FILE *out, const char *a, const char *b, const char *label, const char *attrs)
{
	fputs("  ", out);
	quoted(out, a);
	fputs(" -> ", out);
	quoted(out, b);
	fputs(" [label=", out);
	quoted(out, label);
	fprintf(out, ", %s];\n", attrs);
}

bool session_dot(session *s, const char *path, strbuf *why)
{
	const sstate *st = &s->cur;
	sverdict v;
	if (!sverdict_of(s->m, st, &v, &s->quiet, why))
		return false;
	FILE *out = fopen(path, "w");
	if (!out) {
		sb_printf(why, "%s: %s", path, strerror(errno));
		sverdict_free(&v);
		return false;
	}
	const execution *x = &st->x;
	fputs("digraph ", out);
	quoted(out, s->t->name ? s->t->name : "execution");
	fputs(" {\n  label=", out);
	strbuf title = { 0 };
	sb_printf(&title, "%s: %s execution, %s", s->t->name ? s->t->name : "",
		  sstate_complete(st) ? "complete" : "partial",
		  v.allowed ? "allowed" : "forbidden by ");
	if (!v.allowed)
		sb_puts(&title, v.check_name);
	quoted(out, title.s);
	sb_free(&title);
	fputs(";\n  labelloc=t;\n  node [shape=box, fontname=\"monospace\"];\n"
	      "  edge [fontname=\"monospace\", fontsize=10];\n",
	      out);
	for (int th = -1; th < s->t->n_threads; th++) {
		if (th < 0)
			fputs("  subgraph cluster_init {\n    label=\"init\";\n", out);
		else
			fprintf(out, "  subgraph cluster_P%d {\n    label=\"P%d\";\n", th, th);
		for (int i = 0; i < st->n_view; i++) {
			sref r = st->view[i];
			const sev *e = sstate_ev(st, r);
			if (r.thread != th || (e && e->failed))
				continue;
			strbuf lab = { 0 };
			sb_printf(&lab, "%s: ", st->name[i]);
			sstate_describe(st, r, &lab);
			fputs("    ", out);
			quoted(out, st->name[i]);
			fputs(" [label=", out);
			quoted(out, lab.s);
			fputs(st->x_of_view[i] < 0 ? ", style=dashed, color=grey, fontcolor=grey];\n" : "];\n", out);
			sb_free(&lab);
		}
		fputs("  }\n", out);
	}
	/* program order of the uncommitted events too, so a thread reads
	 * top-down */
	for (int i = 0; i + 1 < st->n_view; i++) {
		sref a = st->view[i], b = st->view[i + 1];
		if (a.thread >= 0 && a.thread == b.thread && (st->x_of_view[i] < 0 || st->x_of_view[i + 1] < 0))
			edge(out, st->name[i], st->name[i + 1], "po", "style=dashed, color=grey");
	}
	brel inv = brel_inverse(&x->rf);
	brel fr = brel_seq(&inv, &x->co);
	brel_free(&inv);
	for (int a = 0; a < x->n; a++)
		for (int b = 0; b < x->n; b++) {
			const char *na = st->name[st->view_of_x[a]], *nb = st->name[st->view_of_x[b]];
			if (immediate(&x->po, a, b))
				edge(out, na, nb, "po", "color=black");
			if (brel_has(&x->rf, a, b))
				edge(out, na, nb, "rf", "color=red, fontcolor=red, constraint=false");
			if (immediate(&x->co, a, b))
				edge(out, na, nb, "co", "color=blue, fontcolor=blue, constraint=false");
			if (immediate(&fr, a, b))
				edge(out, na, nb, "fr", "color=orange, fontcolor=orange, constraint=false");
			if (brel_has(&x->addr, a, b))
				edge(out, na, nb, "addr", "color=darkgreen, fontcolor=darkgreen, style=dashed");
			if (brel_has(&x->data, a, b))
				edge(out, na, nb, "data", "color=darkgreen, fontcolor=darkgreen, style=dashed");
			if (brel_has(&x->ctrl, a, b))
				edge(out, na, nb, "ctrl", "color=darkgreen, fontcolor=darkgreen, style=dashed");
			if (brel_has(&x->rmw, a, b))
				edge(out, na, nb, "rmw", "color=purple, fontcolor=purple, style=dashed");
		}
	for (int i = 0; i < v.n_steps; i++)
		edge(out, st->name[st->view_of_x[v.steps[i].from]], st->name[st->view_of_x[v.steps[i].to]],
		     v.steps[i].via ? v.steps[i].via : "", "color=magenta, fontcolor=magenta, penwidth=3, constraint=false");
	fputs("}\n", out);
	brel_free(&fr);
	sverdict_free(&v);
	bool ok = !ferror(out);
	if (fclose(out) != 0)
		ok = false;
	if (!ok)
		sb_printf(why, "%s: write error", path);
	return ok;
}
