/* doc_json.c — a result document in JSON: built as a jansson tree, then
 * written as one line, so that the documents of a run (several workers'
 * included) form a JSON Lines stream, one object per test and model. */
#include <stdlib.h>

#include "doc_writer.h"

void doc_json_begin(doc_writer *w)
{
	(void)w;
}

void doc_json_end(doc_writer *w)
{
	WEFT_ASSERT(w->depth == 0 && !w->key);
	json_t *root = w->open[0];
	w->open[0] = NULL;
	if (!root)
		return;
	/* insertion order kept, as the YAML's; times to six significant digits */
	if (!w->failed && (json_dumpf(root, w->out, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(6)) != 0 ||
			   fputc('\n', w->out) == EOF)) {
		w->failed = true;
		fputs("weft: cannot write JSON: output error\n", stderr);
	}
	json_decref(root);
}

void doc_json_value(doc_writer *w, json_t *v)
{
	if (!v) {
		w->failed = true;
		return;
	}
	if (w->depth == 0) {
		/* the document's root: kept in open[0] until doc_json_end */
		WEFT_ASSERT(!w->open[0]);
		w->open[0] = v;
		return;
	}
	json_t *in = w->open[w->depth - 1];
	if (json_is_array(in)) {
		json_array_append_new(in, v);
		return;
	}
	WEFT_ASSERT(w->key);
	json_object_set_new(in, w->key, v);
	free(w->key);
	w->key = NULL;
}

json_t *json_lossy_string(const char *s)
{
	json_t *v = json_string(s);
	if (v)
		return v;
	char *ascii = xstrdup(s);
	for (char *p = ascii; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	v = json_string(ascii);
	free(ascii);
	return v;
}

void doc_json_str(doc_writer *w, const char *s)
{
	if (w->depth > 0 && json_is_object(w->open[w->depth - 1]) && !w->key) {
		w->key = xstrdup(s);
		return;
	}
	doc_json_value(w, json_lossy_string(s));
}

void doc_json_open(doc_writer *w, json_t *container)
{
	WEFT_ASSERT(w->depth + 1 < DOC_MAX_DEPTH);
	json_incref(container);
	doc_json_value(w, container);
	/* the root sits in open[0] already; the others are pushed */
	if (w->depth == 0 && w->open[0] == container) {
		w->depth = 1;
		json_decref(container);
		return;
	}
	w->open[w->depth++] = container;
	json_decref(container);
}

void doc_json_close(doc_writer *w)
{
	WEFT_ASSERT(w->depth > 0 && !w->key);
	w->depth--;
	if (w->depth > 0)
		w->open[w->depth] = NULL;
}
