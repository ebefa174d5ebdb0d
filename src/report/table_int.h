/* table_int.h — what the writers of outcome tables share (table_write.c
 * writes Markdown, LaTeX and CSV; table_html.c the HTML page). */
#ifndef WEFT_TABLE_INT_H
#define WEFT_TABLE_INT_H

#include "report_extra.h"

/* How a model's cell disagrees with the hardware column. */
enum mismatch {
	AGREE,
	FORBIDDEN_OBSERVED,   /* the model forbids states the hardware showed */
	ALLOWED_UNOBSERVED,   /* it allows states the hardware never showed   */
};

enum mismatch mismatch_of(const table_cell *c, enum hw_status hw);
/* "Allowed", "Forbidden", "Timeout", ..., "-" for a cell not run. */
const char *status_text(enum cell_status st);
/* "Observed", "Unobserved", "-". */
const char *hw_text(enum hw_status hw);
/* The cell's text without highlighting, e.g. "Allowed 1/3". */
void cell_text(const table_cell *c, enum table_cells what, bool stats, strbuf *out);
/* Row r's cell in `column` (a cell not run past its last one). */
const table_cell *cell_of(const table_row *r, int column);

void table_write_html(FILE *out, const outcome_table *t, enum table_cells what);

#endif
