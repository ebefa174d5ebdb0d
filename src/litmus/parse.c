/* parse.c — litmus_parse_file / litmus_parse_string: run the sections of
 * the parser (parser.h) in order, then apply what had to wait. */
#include <stdlib.h>
#include <string.h>

#include "litmus.h"
#include "parser.h"

/* Give the init block's register entries to their threads. */
bool apply_pending_regs(parser *p)
{
	litmus_test *t = p->t;
	/* per thread: which registers the init block has set */
	unsigned char **set = xcalloc((size_t)t->n_threads, sizeof *set);
	int *set_len = xcalloc((size_t)t->n_threads, sizeof *set_len);
	bool ok = true;
	for (int i = 0; ok && i < p->n_pending; i++) {
		pending_reg *pr = &p->pending[i];
		size_t len = strlen(pr->name);
		int th = pr->thread, reg = -1;
		if (th < 0) {
			/* `%x0=x`: a symbolic register, which belongs to the one
			 * thread whose code uses it. */
			lval_syntax ls = { LV_SYMREG, -1, { T_SYMREG, pr->name, len, pr->loc, 0 },
					   pr->loc };
			lval lv;
			ok = resolve_lval(p, &ls, &lv);
			th = lv.thread;
			reg = lv.reg;
		} else if (th >= t->n_threads) {
			diag_error(p->d, pr->loc, "thread P%d does not exist (the test has %d thread%s)",
				   th, t->n_threads, t->n_threads == 1 ? "" : "s");
			ok = false;
		} else {
			reg = parser_reg(p, &t->threads[th], pr->name, len, pr->name_loc);
			ok = reg >= 0;
		}
		if (!ok)
			break;
		thread *tp = &t->threads[th];
		if (set_len[th] < tp->n_regs) {
			set[th] = xrealloc(set[th], (size_t)tp->n_regs);
			memset(set[th] + set_len[th], 0, (size_t)(tp->n_regs - set_len[th]));
			set_len[th] = tp->n_regs;
		}
		if (set[th][reg]) {
			diag_error(p->d, pr->loc, "register %d:%s is initialised twice", th,
				   tp->regs[reg].name);
			ok = false;
			break;
		}
		set[th][reg] = 1;
		tp->regs[reg].init = pr->init;
		free(tp->regs[reg].type);
		tp->regs[reg].type = pr->type;
		pr->type = NULL;
	}
	for (int i = 0; i < t->n_threads; i++)
		free(set[i]);
	free(set);
	free(set_len);
	return ok;
}

static void parser_free(parser *p)
{
	for (int i = 0; i < p->n_pending; i++) {
		free(p->pending[i].name);
		free(p->pending[i].type);
	}
	free(p->pending);
	free(p->loc_set);
}

litmus_test *litmus_parse_string(const char *path, const char *text, diag *d)
{
	diag fallback = { stderr, 0, 0 };
	if (!d)
		d = &fallback;
	litmus_test *t = xcalloc(1, sizeof *t);
	t->file = xstrdup(path ? path : "<string>");
	t->quant = Q_EXISTS;
	parser p;
	memset(&p, 0, sizeof p);
	cursor_init(&p.c, t->file, text ? text : "");
	p.d = d;
	p.t = t;
	int errors = d->errors;
	bool ok = parse_header(&p) && parse_init(&p) && parse_table(&p) && apply_pending_regs(&p) &&
		  parse_constraints(&p);
	parser_free(&p);
	if (!ok || d->errors != errors) {
		litmus_test_free(t);
		return NULL;
	}
	return t;
}

litmus_test *litmus_parse_file(const char *path, diag *d)
{
	diag fallback = { stderr, 0, 0 };
	if (!d)
		d = &fallback;
	size_t len;
	char *text = read_whole_file(path, &len, d);
	if (!text)
		return NULL;
	size_t n = strlen(text);
	if (n != len) {
		/* A NUL byte would silently end the text: refuse it, located. */
		cursor c;
		cursor_init(&c, path, text);
		while (c.p < text + n)
			cursor_advance(&c);
		diag_error(d, cursor_loc(&c), "NUL byte in the file (not a text file?)");
		free(text);
		return NULL;
	}
	litmus_test *t = litmus_parse_string(path, text, d);
	free(text);
	return t;
}
