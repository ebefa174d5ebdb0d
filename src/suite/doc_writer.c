/* doc_writer.c — the calls result_doc.c makes, sent to the document's
 * syntax: YAML (doc_yaml.c) or JSON (doc_json.c). */
#include <string.h>

#include "doc_writer.h"

void doc_begin(doc_writer *w, FILE *out, enum doc_syntax syntax)
{
	memset(w, 0, sizeof *w);
	w->syntax = syntax;
	w->out = out;
	if (syntax == DOC_JSON)
		doc_json_begin(w);
	else
		doc_yaml_begin(w);
}

void doc_end(doc_writer *w)
{
	if (w->syntax == DOC_JSON)
		doc_json_end(w);
	else
		doc_yaml_end(w);
}

void doc_map_start(doc_writer *w, bool flow)
{
	if (w->syntax == DOC_JSON)
		doc_json_open(w, json_object());
	else
		doc_yaml_collection(w, true, true, flow);
}

void doc_map_end(doc_writer *w)
{
	if (w->syntax == DOC_JSON)
		doc_json_close(w);
	else
		doc_yaml_collection(w, true, false, false);
}

void doc_seq_start(doc_writer *w, bool flow)
{
	if (w->syntax == DOC_JSON)
		doc_json_open(w, json_array());
	else
		doc_yaml_collection(w, false, true, flow);
}

void doc_seq_end(doc_writer *w)
{
	if (w->syntax == DOC_JSON)
		doc_json_close(w);
	else
		doc_yaml_collection(w, false, false, false);
}

void doc_str(doc_writer *w, const char *s)
{
	if (!s)
		s = "";
	if (w->syntax == DOC_JSON)
		doc_json_str(w, s);
	else
		doc_yaml_scalar(w, s, false);
}

void doc_num(doc_writer *w, long n)
{
	if (w->syntax == DOC_JSON) {
		doc_json_value(w, json_integer(n));
		return;
	}
	char buf[32];
	snprintf(buf, sizeof buf, "%ld", n);
	doc_yaml_scalar(w, buf, true);
}

void doc_real(doc_writer *w, double x)
{
	/* Whole numbers (a timeout of 60) as such; others with six decimals,
	 * which both syntaxes read back as a float whatever the value. */
	bool whole = x == (double)(long long)x && x > -1e15 && x < 1e15;
	if (w->syntax == DOC_JSON) {
		doc_json_value(w, whole ? json_integer((json_int_t)x) : json_real(x));
		return;
	}
	char buf[64];
	if (whole)
		snprintf(buf, sizeof buf, "%lld", (long long)x);
	else
		snprintf(buf, sizeof buf, "%.6f", x);
	doc_yaml_scalar(w, buf, true);
}

void doc_bool(doc_writer *w, bool b)
{
	if (w->syntax == DOC_JSON)
		doc_json_value(w, json_boolean(b));
	else
		doc_yaml_scalar(w, b ? "true" : "false", true);
}
