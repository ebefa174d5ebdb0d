/* diag.c — located diagnostics and whole-file reading. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void diag_emit(diag *d, srcloc at, const char *kind, const char *fmt, va_list ap)
{
	FILE *out = d && d->out ? d->out : stderr;
	if (at.file && at.line > 0)
		fprintf(out, "%s:%d:%d: ", at.file, at.line, at.col > 0 ? at.col : 1);
	else if (at.file)
		fprintf(out, "%s: ", at.file);
	else
		fputs("weft: ", out);
	fprintf(out, "%s: ", kind);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
}

void diag_verror(diag *d, srcloc at, const char *fmt, va_list ap)
{
	diag_emit(d, at, "error", fmt, ap);
	if (d)
		d->errors++;
}

void diag_error(diag *d, srcloc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_verror(d, at, fmt, ap);
	va_end(ap);
}

void diag_warning(diag *d, srcloc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_emit(d, at, "warning", fmt, ap);
	va_end(ap);
	if (d)
		d->warnings++;
}

void diag_note(diag *d, srcloc at, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_emit(d, at, "note", fmt, ap);
	va_end(ap);
}

char *read_whole_file(const char *path, size_t *len, diag *d)
{
	srcloc at = { path, 0, 0 };
	FILE *f = fopen(path, "rb");
	if (!f) {
		diag_error(d, at, "cannot open: %s", strerror(errno));
		return NULL;
	}
	strbuf b = { 0 };
	char chunk[8192];
	size_t n;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		sb_putn(&b, chunk, n);
	if (ferror(f)) {
		diag_error(d, at, "read error: %s", strerror(errno));
		fclose(f);
		sb_free(&b);
		return NULL;
	}
	fclose(f);
	if (len)
		*len = b.len;
	return sb_take(&b);
}
