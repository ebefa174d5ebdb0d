/* results_json.c — weft's -format json output read back as saved results:
 * a stream of JSON objects (one a line as weft writes them, or laid out
 * otherwise), or one array of them.  jansson parses each object; what it
 * says goes through results_doc.c as the YAML readers' does. */
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

#include "results_int.h"

typedef struct reader {
	saved_set *s;
	int file;
	diag *d;
	const char *name;
	int line;          /* where the current object starts */
} reader;

static bool fail(reader *r, const char *fmt, const char *what)
{
	diag_error(r->d, (srcloc){ r->name, r->line, 1 }, fmt, what);
	return false;
}

/* A scalar as the text the YAML reader would have had: strings as they
 * are, whole numbers in decimal, booleans as true/false; NULL for the rest. */
static char *scalar_text(json_t *v)
{
	char buf[64];
	if (json_is_string(v))
		return xstrdup(json_string_value(v));
	if (json_is_integer(v)) {
		snprintf(buf, sizeof buf, "%lld", (long long)json_integer_value(v));
		return xstrdup(buf);
	}
	if (json_is_real(v)) {
		snprintf(buf, sizeof buf, "%.17g", json_real_value(v));
		return xstrdup(buf);
	}
	if (json_is_boolean(v))
		return xstrdup(json_is_true(v) ? "true" : "false");
	return NULL;
}

static bool take_scalar(reader *r, saved_doc *x, enum doc_section sec, const char *key, json_t *v)
{
	char *text = scalar_text(v);
	if (!text) {
		diag_error(r->d, (srcloc){ r->name, r->line, 1 }, "'%s' wants a single value", key);
		return false;
	}
	const char *wrong = saved_doc_scalar(x, sec, key, text);
	free(text);
	if (wrong)
		diag_error(r->d, (srcloc){ r->name, r->line, 1 }, "%s", wrong);
	return !wrong;
}

/* run: and stats: are objects of scalars (run: also its models: list). */
static bool read_section(reader *r, saved_doc *x, enum doc_section sec, const char *what, json_t *obj)
{
	if (!json_is_object(obj))
		return fail(r, "'%s' wants an object", what);
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		if (sec == DOC_RUN && !strcmp(key, "models")) {
			if (!json_is_array(v))
				return fail(r, "'%s' wants a list of model labels", "models");
			size_t i;
			json_t *label;
			json_array_foreach(v, i, label) {
				if (!json_is_string(label))
					return fail(r, "'%s' wants a list of model labels", "models");
				saved_doc_model(x, json_string_value(label));
			}
		} else if (json_is_object(v) || json_is_array(v) || json_is_null(v)) {
			continue;   /* nothing of use to a table */
		} else if (!take_scalar(r, x, sec, key, v)) {
			return false;
		}
	}
	return true;
}

static bool read_object(reader *r, json_t *obj)
{
	if (!json_is_object(obj))
		return fail(r, "not a saved result: expected an object of weft's -format json output%s", "");
	saved_doc x;
	memset(&x, 0, sizeof x);
	x.line = r->line;
	bool ok = true;
	const char *key;
	json_t *v;
	json_object_foreach(obj, key, v) {
		if (!strcmp(key, "states")) {
			if (!json_is_array(v)) {
				ok = fail(r, "'%s' wants a list of states", key);
				break;
			}
			x.n_states = (int)json_array_size(v);
			x.states_kept = true;
			size_t i;
			json_t *item;
			json_array_foreach(v, i, item) {
				const char *line = json_string_value(json_object_get(item, "state"));
				if (line)
					saved_doc_state(&x, line);
			}
		} else if (!strcmp(key, "stats")) {
			x.has_stats = true;
			ok = read_section(r, &x, DOC_STATS, key, v);
		} else if (!strcmp(key, "run")) {
			ok = read_section(r, &x, DOC_RUN, key, v);
		} else if (json_is_array(v) || json_is_object(v) || json_is_null(v)) {
			continue;   /* flags: and the like, of no use to a table */
		} else {
			ok = take_scalar(r, &x, DOC_TOP, key, v);
		}
		if (!ok)
			break;
	}
	ok = ok && saved_doc_add(r->s, r->file, &x, r->d);
	saved_doc_free(&x);
	return ok;
}


bool saved_read_json(saved_set *s, int file, const char *name, const char *text, size_t len, diag *d)
{
	reader r = { s, file, d, name, 1 };
	size_t pos = 0;
	bool ok = true;
	while (ok) {
		/* r.line counts the lines up to pos as it moves on */
		while (pos < len && strchr(" \t\r\n", text[pos]))
			r.line += text[pos++] == '\n';
		if (pos >= len)
			break;
		json_error_t err;
		json_t *v = json_loadb(text + pos, len - pos, JSON_DISABLE_EOF_CHECK | JSON_REJECT_DUPLICATES, &err);
		if (!v) {
			diag_error(d, (srcloc){ name, r.line + err.line - 1, err.column > 0 ? err.column : 1 },
				   "not JSON: %s", err.text);
			return false;
		}
		if (json_is_array(v)) {
			size_t i;
			json_t *obj;
			json_array_foreach(v, i, obj) {
				if (!(ok = read_object(&r, obj)))
					break;
			}
		} else {
			ok = read_object(&r, v);
		}
		json_decref(v);
		for (size_t end = pos + err.position; pos < end; pos++)
			r.line += text[pos] == '\n';
	}
	return ok;
}
