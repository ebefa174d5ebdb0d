/* session_dot.c — the current execution as a Graphviz digraph a person can
 * read: the initial writes on top, then one column per thread, P0 on the
 * left, each in program order; events not committed yet dashed and grey.
 * Between two events one edge, its labels merged ("po,addr"): po and co
 * between immediate successors, rf in full, fr to the first store co-after
 * the one read, dependencies and rmw.  Each relation has its style; when
 * the model forbids the execution, the edges of the failing check's witness
 * are bold magenta (a colour no relation uses) with the check's relation
 * names after theirs.  The title says the test, whether the execution is
 * complete, the verdict, and the final state once complete. */
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

/* One relation's look; the first relation of an edge gives its style. */
typedef struct look {
	const char *name;
	const char *attrs;
} look;

static const look looks[] = {
	{ "po", "color=black" },
	{ "rf", "color=red, fontcolor=red" },
	{ "co", "color=blue, fontcolor=blue" },
	{ "fr", "color=orange, fontcolor=orange" },
	{ "addr", "color=darkgreen, fontcolor=darkgreen, style=dashed" },
	{ "data", "color=darkgreen, fontcolor=darkgreen, style=dashed" },
	{ "ctrl", "color=darkgreen, fontcolor=darkgreen, style=dashed" },
	{ "rmw", "color=purple, fontcolor=purple, style=dashed" },
};
enum { N_LOOKS = sizeof looks / sizeof looks[0] };

/* The first event of each column (view indices), for the layout. */
static void columns(FILE *out, const sstate *st)
{
	int prev = -1;
	fputs("  { rank=same;", out);
	for (int th = 0; th < st->t->n_threads; th++)
		for (int i = 0; i < st->n_view; i++)
			if (st->view[i].thread == th && st->name[i][0]) {
				fputc(' ', out);
				quoted(out, st->name[i]);
				fputc(';', out);
				break;
			}
	fputs(" }\n", out);
	/* invisible edges keep the columns in thread order, and the initial
	 * writes above them */
	for (int th = 0; th < st->t->n_threads; th++)
		for (int i = 0; i < st->n_view; i++)
			if (st->view[i].thread == th && st->name[i][0]) {
				if (prev >= 0) {
					fputs("  ", out);
					quoted(out, st->name[prev]);
					fputs(" -> ", out);
					quoted(out, st->name[i]);
					fputs(" [style=invis];\n", out);
				}
				for (int l = 0; l < st->t->n_locs; l++) {
					fputs("  ", out);
					quoted(out, st->name[l]);
					fputs(" -> ", out);
					quoted(out, st->name[i]);
					fputs(" [style=invis];\n", out);
				}
				prev = i;
				break;
			}
	/* and each column top-down, even between the events of one
	 * instruction, which po does not order */
	for (int i = 0; i < st->n_view; i++) {
		if (st->view[i].thread < 0 || !st->name[i][0])
			continue;
		int j = i + 1;
		while (j < st->n_view && !st->name[j][0])
			j++;
		if (j < st->n_view && st->view[j].thread == st->view[i].thread) {
			fputs("  ", out);
			quoted(out, st->name[i]);
			fputs(" -> ", out);
			quoted(out, st->name[j]);
			fputs(" [style=invis];\n", out);
		}
	}
}

static void nodes(FILE *out, const sstate *st)
{
	for (int th = -1; th < st->t->n_threads; th++) {
		if (th < 0)
			fputs("  subgraph cluster_init {\n    label=\"init\";\n", out);
		else
			fprintf(out, "  subgraph cluster_P%d {\n    label=\"P%d\";\n", th, st->t->threads[th].id);
		for (int i = 0; i < st->n_view; i++) {
			sref r = st->view[i];
			if (r.thread != th || !st->name[i][0])
				continue;
			strbuf lab = { 0 };
			sb_printf(&lab, "%s: ", st->name[i]);
			sstate_describe(st, r, &lab);
			/* the thread is the column's title already */
			char *paren = th >= 0 ? strrchr(lab.s, '(') : NULL;
			if (paren && paren > lab.s)
				paren[-1] = '\0';
			fputs("    ", out);
			quoted(out, st->name[i]);
			fputs(" [label=", out);
			quoted(out, lab.s);
			fputs(st->x_of_view[i] < 0 ? ", style=dashed, color=grey, fontcolor=grey];\n" : "];\n", out);
			sb_free(&lab);
		}
		fputs("  }\n", out);
	}
}

/* The edges of the committed events, one per pair, labels merged. */
static void edges(FILE *out, const sstate *st, const sverdict *v)
{
	const execution *x = &st->x;
	brel inv = brel_inverse(&x->rf);
	brel fr = brel_seq(&inv, &x->co);
	brel_free(&inv);
	for (int a = 0; a < x->n; a++)
		for (int b = 0; b < x->n; b++) {
			bool has[N_LOOKS] = {
				immediate(&x->po, a, b), brel_has(&x->rf, a, b), immediate(&x->co, a, b),
				immediate(&fr, a, b), brel_has(&x->addr, a, b), brel_has(&x->data, a, b),
				brel_has(&x->ctrl, a, b), brel_has(&x->rmw, a, b),
			};
			strbuf lab = { 0 };
			int first = -1;
			for (int k = 0; k < N_LOOKS; k++)
				if (has[k]) {
					sb_printf(&lab, "%s%s", lab.len ? "," : "", looks[k].name);
					if (first < 0)
						first = k;
				}
			const char *via = NULL;
			bool witness = false;
			for (int i = 0; i < v->n_steps; i++)
				if (v->steps[i].from == a && v->steps[i].to == b) {
					witness = true;
					via = v->steps[i].via;
				}
			if (witness && via && (!lab.len || !strstr(lab.s, via)))
				sb_printf(&lab, "%s%s", lab.len ? ":" : "", via);
			if (first >= 0 || witness) {
				fputs("  ", out);
				quoted(out, st->name[st->view_of_x[a]]);
				fputs(" -> ", out);
				quoted(out, st->name[st->view_of_x[b]]);
				fputs(" [label=", out);
				quoted(out, lab.s ? lab.s : "");
				/* po lays a column out top-down; the rest must not */
				fprintf(out, ", %s%s];\n",
					witness ? "color=magenta, fontcolor=magenta, penwidth=3"
						: looks[first].attrs,
					first == 0 ? "" : ", constraint=false");
			}
			sb_free(&lab);
		}
	brel_free(&fr);
	/* program order of the events not committed yet, so that a column
	 * reads top-down */
	for (int i = 0; i + 1 < st->n_view; i++) {
		sref a = st->view[i];
		int j = i + 1;
		while (j < st->n_view && !st->name[j][0])
			j++;
		if (j >= st->n_view || !st->name[i][0])
			continue;
		sref b = st->view[j];
		if (a.thread >= 0 && a.thread == b.thread && (st->x_of_view[i] < 0 || st->x_of_view[j] < 0)) {
			fputs("  ", out);
			quoted(out, st->name[i]);
			fputs(" -> ", out);
			quoted(out, st->name[j]);
			fputs(" [label=\"po\", style=dashed, color=grey, fontcolor=grey];\n", out);
		}
	}
}

static bool write_dot(session *s, const sstate *st, const char *path, strbuf *why)
{
	sverdict v;
	if (!sverdict_of(s->m, st, &v, &s->quiet, why))
		return false;
	FILE *out = fopen(path, "w");
	if (!out) {
		sb_printf(why, "%s: %s", path, strerror(errno));
		sverdict_free(&v);
		return false;
	}
	bool complete = sstate_complete(st);
	strbuf title = { 0 };
	sb_printf(&title, "%s: %s execution, %s%s", s->t->name ? s->t->name : "", complete ? "complete" : "partial",
		  v.allowed ? "allowed" : "forbidden by ", v.allowed ? "" : v.check_name);
	if (complete) {
		sb_puts(&title, "\\n");
		sstate_state_line(st, &title);
	}
	fputs("digraph ", out);
	quoted(out, s->t->name ? s->t->name : "execution");
	fputs(" {\n  label=", out);
	/* the state line's "\n" is Graphviz's line break: written as is */
	fputc('"', out);
	for (const char *p = title.s; *p; p++) {
		if (*p == '"')
			fputc('\\', out);
		fputc(*p, out);
	}
	fputs("\";\n  labelloc=t;\n  node [shape=box, fontname=\"monospace\"];\n"
	      "  edge [fontname=\"monospace\", fontsize=10];\n",
	      out);
	sb_free(&title);
	nodes(out, st);
	columns(out, st);
	edges(out, st, &v);
	fputs("}\n", out);
	sverdict_free(&v);
	bool ok = !ferror(out);
	if (fclose(out) != 0)
		ok = false;
	if (!ok)
		sb_printf(why, "%s: write error", path);
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
