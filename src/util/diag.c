/* diag.c — located diagnostics and whole-file reading. */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* Quoted source text longer than this is cut: a generated test's 3000-
 * character line must not bury the message that quotes it. */
enum { QUOTE_MAX = 100, QUOTE_KEEP = 80 };

static bool is_word_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9');
}

/* msg, with each quoted text ('...' or "...", the opening quote not
 * inside a word, so that "herd's" is no quote) longer than QUOTE_MAX cut
 * to its first QUOTE_KEEP characters and "...". */
static void diag_put_cut(strbuf *out, const char *msg)
{
	const char *p = msg;
	while (*p) {
		bool opens = (*p == '\'' || *p == '"') && (p == msg || !is_word_char(p[-1]));
		const char *close = opens ? strchr(p + 1, *p) : NULL;
		if (close && close - p - 1 > QUOTE_MAX) {
			sb_printf(out, "%c%.*s...%c", *p, QUOTE_KEEP, p + 1, *p);
			p = close + 1;
			continue;
		}
		sb_putc(out, *p++);
	}
}

static void diag_emit(diag *d, srcloc at, const char *kind, const char *fmt, va_list ap)
{
	if (d && d->drop)
		return;
	strbuf line = { 0 };
	if (at.file && at.line > 0)
		sb_printf(&line, "%s:%d:%d: ", at.file, at.line, at.col > 0 ? at.col : 1);
	else if (at.file)
		sb_printf(&line, "%s: ", at.file);
	else
		sb_puts(&line, "weft: ");
	sb_printf(&line, "%s: ", kind);
	va_list again;
	va_copy(again, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	char *msg = xmalloc(n > 0 ? (size_t)n + 1 : 1);
	msg[0] = '\0';
	if (n > 0)
		vsnprintf(msg, (size_t)n + 1, fmt, again);
	va_end(again);
	diag_put_cut(&line, msg);
	free(msg);
	sb_putc(&line, '\n');
	if (d && d->collect)
		sb_puts(d->collect, line.s);
	else
		fputs(line.s, d && d->out ? d->out : stderr);
	sb_free(&line);
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

void diag_put_collected(diag *d, const char *messages)
{
	if (!messages || (d && d->drop))
		return;
	if (d && d->collect)
		sb_puts(d->collect, messages);
	else
		fputs(messages, d && d->out ? d->out : stderr);
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
