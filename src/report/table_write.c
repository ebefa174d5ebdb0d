/* table_write.c — an outcome table as Markdown, LaTeX or CSV.
 *
 * A model cell disagrees with the hardware column in two ways worth seeing:
 * the model forbids states the hardware showed (the model is unsound for
 * that machine), or allows states it never showed (the model may be too
 * weak, or the runs too few).  Markdown marks them with (!) and (?) and a
 * legend; LaTeX wraps them in macros the user can redefine; CSV stays plain
 * data.
 */
#include <stdlib.h>
#include <string.h>

#include "table_int.h"

enum mismatch mismatch_of(const table_cell *c, enum hw_status hw)
{
	if (c->status == CELL_FORBIDDEN && hw == HW_OBSERVED)
		return FORBIDDEN_OBSERVED;
	if (c->status == CELL_ALLOWED && hw == HW_UNOBSERVED)
		return ALLOWED_UNOBSERVED;
	return AGREE;
}

const char *status_text(enum cell_status st)
{
	switch (st) {
	case CELL_NOT_RUN: return "-";
	case CELL_ALLOWED: return "Allowed";
	case CELL_FORBIDDEN: return "Forbidden";
	case CELL_TIMEOUT: return "Timeout";
	case CELL_ERROR: return "Error";
	case CELL_CRASHED: return "Crashed";
	case CELL_OUT_OF_MEMORY: return "OutOfMemory";
	}
	return "?";
}

const char *hw_text(enum hw_status hw)
{
	return hw == HW_OBSERVED ? "Observed" : hw == HW_UNOBSERVED ? "Unobserved" : "-";
}

/* The cell's text without any highlighting, e.g. "Allowed 1/3", or with
 * -stats "Allowed 1/3 (16 candidates, 12 forbidden)". */
void cell_text(const table_cell *c, enum table_cells what, bool stats, strbuf *out)
{
	sb_puts(out, status_text(c->status));
	if (c->status != CELL_ALLOWED && c->status != CELL_FORBIDDEN)
		return;
	if (what == TABLE_CELLS_COUNTS)
		sb_printf(out, " %ld/%ld", c->pos, c->neg);
	else if (what == TABLE_CELLS_STATES)
		sb_printf(out, ", %d state%s", c->n_states, c->n_states == 1 ? "" : "s");
	if (stats && c->candidates < 0)
		sb_puts(out, " (bmc: no candidates counted)");
	else if (stats)
		sb_printf(out, " (%ld candidates, %ld forbidden)", c->candidates, c->forbidden);
}

static const table_cell not_run = { CELL_NOT_RUN, 0, 0, 0, 0, 0, NULL };

const table_cell *cell_of(const table_row *r, int column)
{
	return column < r->n_cells ? &r->cells[column] : &not_run;
}

/* ---- Markdown ------------------------------------------------------------------ */

static void md_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|' || *s == '*' || *s == '_' || *s == '\\' || *s == '`')
			fputc('\\', out);
		fputc(*s, out);
	}
}

static void write_markdown(FILE *out, const outcome_table *t, enum table_cells what)
{
	fputs("| Test |", out);
	for (int m = 0; m < t->n_models; m++) {
		fputc(' ', out);
		md_escape(out, t->models[m]);
		fputs(" |", out);
	}
	if (t->hardware) {
		fputc(' ', out);
		md_escape(out, t->hardware);
		fputs(" |", out);
	}
	fputs("\n|---|", out);
	for (int m = 0; m < t->n_models + (t->hardware != NULL); m++)
		fputs("---|", out);
	fputc('\n', out);
	int n_bad = 0, n_weak = 0;
	strbuf sb = { 0 };
	for (int i = 0; i < t->n_rows; i++) {
		const table_row *r = &t->rows[i];
		fputs("| ", out);
		md_escape(out, r->name);
		fputs(" |", out);
		for (int m = 0; m < t->n_models; m++) {
			const table_cell *c = cell_of(r, m);
			sb_reset(&sb);
			cell_text(c, what, t->stats, &sb);
			enum mismatch mm = t->hardware ? mismatch_of(c, r->hw) : AGREE;
			if (mm == FORBIDDEN_OBSERVED) {
				fprintf(out, " **%s** (!) |", sb.s);
				n_bad++;
			} else if (mm == ALLOWED_UNOBSERVED) {
				fprintf(out, " %s (?) |", sb.s);
				n_weak++;
			} else {
				fprintf(out, " %s |", sb.s);
			}
		}
		if (t->hardware)
			fprintf(out, " %s |", hw_text(r->hw));
		fputc('\n', out);
	}
	sb_free(&sb);
	if (t->hardware)
		fprintf(out, "\n(!) the model forbids states the hardware showed (%d cell%s); "
			"(?) the model allows states the hardware never showed (%d cell%s).\n",
			n_bad, n_bad == 1 ? "" : "s", n_weak, n_weak == 1 ? "" : "s");
}

/* ---- LaTeX --------------------------------------------------------------------- */

static void tex_escape(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '\\': fputs("\\textbackslash{}", out); break;
		case '{': case '}': case '&': case '%': case '$': case '#': case '_':
			fputc('\\', out);
			fputc(*s, out);
			break;
		case '~': fputs("\\textasciitilde{}", out); break;
		case '^': fputs("\\textasciicircum{}", out); break;
		case '<': fputs("\\textless{}", out); break;
		case '>': fputs("\\textgreater{}", out); break;
		case '|': fputs("\\textbar{}", out); break;
		case '-': fputs("-{}", out); break; /* no -- or --- ligatures */
		default: fputc(*s, out);
		}
	}
}

/* -table latex: a fragment to \input into a paper (booktabs rules, a
 * table float when there is a caption or label, a legend for the marks
 * when there is a hardware column); -table latex-doc: the same in a
 * document of its own. */
static void write_latex(FILE *out, const outcome_table *t, enum table_cells what, bool doc)
{
	if (doc)
		fputs("\\documentclass{article}\n"
		      "\\usepackage{booktabs}\n"
		      "\\begin{document}\n",
		      out);
	fputs("% Outcome table written by weft: \\input it into a document that loads\n"
	      "% booktabs.  The two highlighting macros are \\providecommand'ed: define\n"
	      "% them before this file is read to change them, e.g.\n"
	      "% \\newcommand\\weftForbiddenObserved[1]{#1!}\n"
	      "% a cell whose states the model forbids but the hardware showed\n"
	      "\\providecommand{\\weftForbiddenObserved}[1]{\\textbf{#1}$^{!}$}\n"
	      "% a cell whose states the model allows but the hardware never showed\n"
	      "\\providecommand{\\weftAllowedUnobserved}[1]{\\textit{#1}$^{?}$}\n"
	      "% the tabular at the largest of \\normalsize, \\small, \\footnotesize and\n"
	      "% \\scriptsize (the last two with narrower column gaps) that fits the line\n"
	      "\\providecommand{\\weftFit}[1]{\\setbox0\\hbox{#1}%\n"
	      "\\ifdim\\wd0>\\linewidth\\setbox0\\hbox{\\small#1}\\fi\n"
	      "\\ifdim\\wd0>\\linewidth\\setbox0\\hbox{\\footnotesize\\tabcolsep=4pt#1}\\fi\n"
	      "\\ifdim\\wd0>\\linewidth\\setbox0\\hbox{\\scriptsize\\tabcolsep=3pt#1}\\fi\n"
	      "\\leavevmode\\box0}\n",
	      out);
	bool floating = t->caption || t->label;
	if (floating)
		fputs("\\begin{table}[htbp]\n\\centering\n", out);
	fputs("\\weftFit{%\n\\begin{tabular}{l", out);
	for (int m = 0; m < t->n_models; m++)
		fputc('l', out);
	if (t->hardware)
		fputc('l', out);
	fputs("}\n\\toprule\n", out);
	fputs("Test", out);
	for (int m = 0; m < t->n_models; m++) {
		fputs(" & ", out);
		tex_escape(out, t->models[m]);
	}
	if (t->hardware) {
		fputs(" & ", out);
		tex_escape(out, t->hardware);
	}
	fputs(" \\\\\n\\midrule\n", out);
	strbuf sb = { 0 };
	for (int i = 0; i < t->n_rows; i++) {
		const table_row *r = &t->rows[i];
		fputs("\\texttt{", out);
		tex_escape(out, r->name);
		fputc('}', out);
		for (int m = 0; m < t->n_models; m++) {
			const table_cell *c = cell_of(r, m);
			sb_reset(&sb);
			cell_text(c, what, t->stats, &sb);
			enum mismatch mm = t->hardware ? mismatch_of(c, r->hw) : AGREE;
			fputs(" & ", out);
			if (mm == FORBIDDEN_OBSERVED)
				fputs("\\weftForbiddenObserved{", out);
			else if (mm == ALLOWED_UNOBSERVED)
				fputs("\\weftAllowedUnobserved{", out);
			/* a cell not run: LaTeX's dash, not an escaped hyphen */
			if (c->status == CELL_NOT_RUN)
				fputs("--", out);
			else
				tex_escape(out, sb.s);
			if (mm != AGREE)
				fputc('}', out);
		}
		if (t->hardware) {
			fputs(" & ", out);
			fputs(r->hw == HW_UNKNOWN ? "--" : hw_text(r->hw), out);
		}
		fputs(" \\\\\n", out);
	}
	sb_free(&sb);
	fputs("\\bottomrule\n\\end{tabular}}\n", out);
	if (t->hardware)
		fputs("\\par\\smallskip{\\footnotesize \\weftForbiddenObserved{Forbidden}: the model forbids "
		      "states the hardware showed; \\weftAllowedUnobserved{Allowed}: the model allows states "
		      "the hardware never showed.\\par}\n",
		      out);
	if (floating) {
		if (t->caption)
			fprintf(out, "\\caption{%s}\n", t->caption);
		if (t->label)
			fprintf(out, "\\label{%s}\n", t->label);
		fputs("\\end{table}\n", out);
	}
	if (doc)
		fputs("\\end{document}\n", out);
}

/* ---- CSV (RFC 4180) ------------------------------------------------------------------ */

static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void write_csv(FILE *out, const outcome_table *t, enum table_cells what)
{
	fputs("test", out);
	for (int m = 0; m < t->n_models; m++) {
		fputc(',', out);
		csv_field(out, t->models[m]);
	}
	if (t->hardware) {
		fputc(',', out);
		csv_field(out, t->hardware);
	}
	fputs("\r\n", out);
	strbuf sb = { 0 };
	for (int i = 0; i < t->n_rows; i++) {
		const table_row *r = &t->rows[i];
		csv_field(out, r->name);
		for (int m = 0; m < t->n_models; m++) {
			sb_reset(&sb);
			cell_text(cell_of(r, m), what, t->stats, &sb);
			fputc(',', out);
			csv_field(out, sb.s);
		}
		if (t->hardware) {
			fputc(',', out);
			csv_field(out, hw_text(r->hw));
		}
		fputs("\r\n", out);
	}
	sb_free(&sb);
}

void table_write(FILE *out, const outcome_table *t, enum table_format f, enum table_cells c)
{
	switch (f) {
	case TABLE_MARKDOWN: write_markdown(out, t, c); break;
	case TABLE_LATEX: write_latex(out, t, c, false); break;
	case TABLE_LATEX_DOC: write_latex(out, t, c, true); break;
	case TABLE_CSV: write_csv(out, t, c); break;
	case TABLE_HTML: table_write_html(out, t, c); break;
	}
}
