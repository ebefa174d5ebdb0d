/* parse_c.c — the program part of a C test: its thread functions, read by
 * src/c with the macro file the run names, in place of the table. */
#include "../c/c.h"
#include "parser.h"

bool parse_c_threads(parser *p)
{
	c_macros *m = NULL;
	if (p->macros && !p->macros_read) {
		m = c_macros_read(p->macros, p->d);
		if (!m)
			return false;
	}
	c_text_pos pos = { p->c.p, p->c.bol, p->c.line };
	bool ok = c_read_threads(p->t, &pos, m ? m : p->macros_read, p->d);
	c_macros_free(m);
	if (!ok)
		return false;
	p->c.p = pos.p;
	p->c.bol = pos.bol;
	p->c.line = pos.line;
	return true;
}
