/* table_html.c — an outcome table as a page of its own (-table html).
 *
 * One file, no server and nothing fetched: the style and the few lines of
 * script that sort the table when a column's header is clicked are in the
 * page.  Cells are coloured by kind (allowed, forbidden, no result, not
 * run; observed, unobserved, not in the log), each kind a class of its own;
 * a model cell that disagrees with the hardware column is outlined and
 * marked (!) or (?) as in the Markdown table, with a title saying why, so
 * the disagreements stand out and still read when printed in grey.
 */
#include <string.h>

#include "table_int.h"

static void html_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*s, out);
		}
	}
}

static const char *status_class(enum cell_status st)
{
	switch (st) {
	case CELL_NOT_RUN: return "notrun";
	case CELL_ALLOWED: return "allowed";
	case CELL_FORBIDDEN: return "forbidden";
	case CELL_TIMEOUT: case CELL_ERROR: case CELL_CRASHED: case CELL_OUT_OF_MEMORY: return "failed";
	}
	return "failed";
}

/* The page's head up to its title's text, then its style (page_style). */
static const char page_head[] =
	"<!DOCTYPE html>\n"
	"<html lang=\"en\">\n"
	"<head>\n"
	"<meta charset=\"utf-8\">\n"
	"<title>";

static const char page_style[] =
	"</title>\n"
	"<style>\n"
	"body { font-family: sans-serif; margin: 1.5em; }\n"
	"table { border-collapse: collapse; }\n"
	"th, td { border: 1px solid #bbb; padding: 0.2em 0.6em; text-align: left; }\n"
	"th { background: #eee; cursor: pointer; user-select: none; position: sticky; top: 0; }\n"
	"th[data-dir=\"1\"]::after { content: \" \\25B2\"; }\n"
	"th[data-dir=\"-1\"]::after { content: \" \\25BC\"; }\n"
	"td.test { font-family: monospace; }\n"
	".allowed { background: #d7f0d7; }\n"
	".forbidden { background: #f6d5d3; }\n"
	".failed { background: #fff0b3; }\n"
	".observed { background: #d7e6f6; }\n"
	".unobserved { background: #ececec; }\n"
	".notrun, .absent { color: #777; font-style: italic; }\n"
	".notrun { background: repeating-linear-gradient(45deg, #fff, #fff 4px, #eee 4px, #eee 8px); }\n"
	".absent { background: repeating-linear-gradient(-45deg, #fff, #fff 4px, #e3ecf7 4px, #e3ecf7 8px); }\n"
	"caption { caption-side: top; text-align: left; font-weight: bold; padding: 0.3em 0; }\n"
	"td.FORBIDDEN-OBSERVED { outline: 3px solid #b00; outline-offset: -3px; font-weight: bold; }\n"
	"td.ALLOWED-UNOBSERVED { outline: 3px dashed #d80; outline-offset: -3px; font-style: italic; }\n"
	".legend span { padding: 0 0.5em; margin-right: 0.5em; }\n"
	"</style>\n"
	"</head>\n"
	"<body>\n";

/* Sorts the body's rows by the clicked column's text (numbers within the
 * text compared as numbers); a second click reverses. */
static const char page_script[] =
	"<script>\n"
	"(function () {\n"
	"  var table = document.getElementById('outcomes');\n"
	"  var heads = table.tHead.rows[0].cells;\n"
	"  var cmp = new Intl.Collator(undefined, { numeric: true }).compare;\n"
	"  Array.prototype.forEach.call(heads, function (th, col) {\n"
	"    th.addEventListener('click', function () {\n"
	"      var dir = th.getAttribute('data-dir') === '1' ? -1 : 1;\n"
	"      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('data-dir'); });\n"
	"      th.setAttribute('data-dir', String(dir));\n"
	"      var body = table.tBodies[0];\n"
	"      var rows = Array.prototype.slice.call(body.rows);\n"
	"      rows.sort(function (a, b) {\n"
	"        return dir * cmp(a.cells[col].textContent, b.cells[col].textContent) ||\n"
	"               a.getAttribute('data-row') - b.getAttribute('data-row');\n"
	"      });\n"
	"      rows.forEach(function (r) { body.appendChild(r); });\n"
	"    });\n"
	"  });\n"
	"})();\n"
	"</script>\n";

void table_write_html(FILE *out, const outcome_table *t, enum table_cells what)
{
	fputs(page_head, out);
	html_escape(out, t->caption ? t->caption : "weft: outcome table");
	fputs(page_style, out);
	fputs("<h1>Outcome table</h1>\n", out);
	fprintf(out, "<p>%d test%s, %d model%s%s. Click a column's header to sort by it.</p>\n", t->n_rows,
		t->n_rows == 1 ? "" : "s", t->n_models, t->n_models == 1 ? "" : "s",
		t->hardware ? ", a hardware column" : "");
	fputs("<table id=\"outcomes\">\n", out);
	if (t->caption) {
		fputs("<caption>", out);
		html_escape(out, t->caption);
		fputs("</caption>\n", out);
	}
	fputs("<thead><tr><th>Test</th>", out);
	for (int m = 0; m < t->n_models; m++) {
		fputs("<th>", out);
		html_escape(out, t->models[m]);
		fputs("</th>", out);
	}
	if (t->hardware) {
		fputs("<th>", out);
		html_escape(out, t->hardware);
		fputs("</th>", out);
	}
	fputs("</tr></thead>\n<tbody>\n", out);
	int n_bad = 0, n_weak = 0;
	strbuf sb = { 0 };
	for (int i = 0; i < t->n_rows; i++) {
		const table_row *r = &t->rows[i];
		fprintf(out, "<tr data-row=\"%d\"><td class=\"test\">", i);
		html_escape(out, r->name);
		fputs("</td>", out);
		for (int m = 0; m < t->n_models; m++) {
			const table_cell *c = cell_of(r, m);
			sb_reset(&sb);
			cell_text(c, what, t->stats, &sb);
			enum mismatch mm = t->hardware ? mismatch_of(c, r->hw) : AGREE;
			fprintf(out, "<td class=\"%s", status_class(c->status));
			if (mm == FORBIDDEN_OBSERVED) {
				fputs(" FORBIDDEN-OBSERVED\" title=\"the model forbids states the hardware showed\">", out);
				n_bad++;
			} else if (mm == ALLOWED_UNOBSERVED) {
				fputs(" ALLOWED-UNOBSERVED\" title=\"the model allows states the hardware never showed\">",
				      out);
				n_weak++;
			} else if (c->status == CELL_NOT_RUN) {
				fputs("\" title=\"the test did not run under this model\">", out);
			} else {
				fputs("\">", out);
			}
			html_escape(out, c->status == CELL_NOT_RUN ? "not run" : sb.s);
			fputs(mm == FORBIDDEN_OBSERVED ? " (!)" : mm == ALLOWED_UNOBSERVED ? " (?)" : "", out);
			fputs("</td>", out);
		}
		if (t->hardware)
			fputs(r->hw == HW_OBSERVED ? "<td class=\"observed\">Observed</td>"
			      : r->hw == HW_UNOBSERVED ? "<td class=\"unobserved\">Unobserved</td>"
			      : "<td class=\"absent\" title=\"the log has no result for this test\">not in the log</td>",
			      out);
		fputs("</tr>\n", out);
	}
	sb_free(&sb);
	fputs("</tbody>\n</table>\n", out);
	fputs("<p class=\"legend\"><span class=\"allowed\">Allowed</span>"
	      "<span class=\"forbidden\">Forbidden</span>"
	      "<span class=\"failed\">no result (Timeout, Error, Crashed, OutOfMemory)</span>"
	      "<span class=\"notrun\">not run under the column's model</span>",
	      out);
	if (t->hardware)
		fputs("<span class=\"observed\">Observed</span><span class=\"unobserved\">Unobserved</span>"
		      "<span class=\"absent\">not in the log</span>",
		      out);
	fputs("</p>\n", out);
	if (t->hardware)
		fprintf(out, "<p>(!) the model forbids states the hardware showed (%d cell%s); "
			"(?) the model allows states the hardware never showed (%d cell%s).</p>\n",
			n_bad, n_bad == 1 ? "" : "s", n_weak, n_weak == 1 ? "" : "s");
	fputs(page_script, out);
	fputs("</body>\n</html>\n", out);
}
