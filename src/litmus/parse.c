/* parse.c — litmus_parse_file / litmus_parse_string: run the sections of
 * the parser (parser.h) in order. */
#include <stdlib.h>
#include <string.h>

#include "litmus.h"
#include "parser.h"

static void parser_free(parser *p)
{
	for (int i = 0; i < p->n_pending; i++) {
		free(p->pending[i].name);
		free(p->pending[i].type);
	}
	free(p->pending);
	free(p->loc_set);
	free(p->label_use_at);
	free(p->label_use_loc);
	free(p->loc_named);
	free(p->pa_use_loc);
}

litmus_test *litmus_parse_string(const char *path, const char *text, diag *d)
{
	return litmus_parse_string_macros(path, text, NULL, d);
}

/* The program part: the instruction table, or a C test's functions. */
static bool parse_program(parser *p)
{
	if (p->arch && p->arch->program == ARCH_PROGRAM_C)
		return parse_c_threads(p);
	return parse_table(p);
}

static litmus_test *parse_string(const char *path, const char *text, const char *macros,
                                 const struct c_macros *read, const char *const *variants, diag *d)
{
	diag fallback = { .out = stderr };
	if (!d)
		d = &fallback;
	litmus_test *t = xcalloc(1, sizeof *t);
	t->file = xstrdup(path ? path : "<string>");
	t->quant = Q_EXISTS;
	parser p;
	memset(&p, 0, sizeof p);
	cursor_init(&p.c, t->file, text ? text : "");
	p.text = p.c.p;
	p.d = d;
	p.t = t;
	p.macros = macros;
	p.macros_read = read;
	if (macros)
		t->macros = xstrdup(macros);
	int errors = d->errors;
	p.el0_meta = -1;
	p.variants = variants;
	srcloc start = cursor_loc(&p.c);
	bool ok = parse_header(&p) && parser_cli_variants(&p, start) && parse_init(&p) && parse_program(&p) &&
		  parse_check_ifetch(&p) && apply_pending_regs(&p) && parse_constraints(&p) && parse_vmsa_finish(&p) &&
		  (!t->mixed || mixed_split(t, d));
	parser_free(&p);
	if (!ok || d->errors != errors) {
		litmus_test_free(t);
		return NULL;
	}
	return t;
}

litmus_test *litmus_parse_string_macros(const char *path, const char *text, const char *macros, diag *d)
{
	return parse_string(path, text, macros, NULL, NULL, d);
}

litmus_test *litmus_parse_file(const char *path, diag *d)
{
	return litmus_parse_file_macros(path, NULL, d);
}

litmus_test *litmus_parse_file_macros(const char *path, const char *macros, diag *d)
{
	return litmus_parse_file_read_macros(path, macros, NULL, d);
}

litmus_test *litmus_parse_file_read_macros(const char *path, const char *macros, const struct c_macros *read,
                                           diag *d)
{
	return litmus_parse_file_variants(path, macros, read, NULL, d);
}

litmus_test *litmus_parse_file_variants(const char *path, const char *macros, const struct c_macros *read,
                                        const char *const *variants, diag *d)
{
	diag fallback = { .out = stderr };
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
	litmus_test *t = parse_string(path, text, macros, read, variants, d);
	free(text);
	return t;
}
