/* doc_yaml.c — a result document in YAML, written with libyaml's emitter. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "doc_writer.h"

/* libyaml reports failures through its return values; the first one stops
 * further output of the document (and is said once on stderr). */
static void emit(doc_writer *w, yaml_event_t *ev)
{
	if (w->failed) {
		yaml_event_delete(ev);
		return;
	}
	if (!yaml_emitter_emit(&w->yaml, ev)) {
		w->failed = true;
		fprintf(stderr, "weft: cannot write YAML: %s\n", w->yaml.problem ? w->yaml.problem : "unknown error");
	}
}

/* Would a plain scalar `s` be read back (YAML 1.1, as PyYAML does) as
 * something else than a string: a number, a boolean, null?  Then it is
 * quoted.  Erring towards quoting costs nothing. */
static bool looks_typed(const char *s)
{
	static const char *const words[] = { "y", "n", "yes", "no", "on", "off", "true", "false", "null",
					     "~", ".inf", "-.inf", "+.inf", ".nan", NULL };
	if (!*s)
		return true;
	for (int i = 0; words[i]; i++)
		if (!strcasecmp(s, words[i]))
			return true;
	const char *p = s + (*s == '+' || *s == '-');
	const char *digits = "0123456789_:.eE+-";
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
		p += 2, digits = "0123456789abcdefABCDEF_";
	else if (p[0] == '0' && (p[1] == 'b' || p[1] == 'B'))
		p += 2, digits = "01_";
	bool digit = false;
	for (; *p; p++) {
		if (!strchr(digits, *p))
			return false;
		digit |= *p >= '0' && *p <= '9';
	}
	return digit;
}

void doc_yaml_scalar(doc_writer *w, const char *s, bool plain)
{
	yaml_scalar_style_t style = plain ? YAML_PLAIN_SCALAR_STYLE
					  : looks_typed(s) ? YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE;
	yaml_event_t ev;
	yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)s, (int)strlen(s), 1, 1, style);
	emit(w, &ev);
}

void doc_yaml_collection(doc_writer *w, bool mapping, bool start, bool flow)
{
	yaml_event_t ev;
	if (mapping && start)
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
						    flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	else if (mapping)
		yaml_mapping_end_event_initialize(&ev);
	else if (start)
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
						     flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
	else
		yaml_sequence_end_event_initialize(&ev);
	emit(w, &ev);
}

void doc_yaml_begin(doc_writer *w)
{
	yaml_emitter_initialize(&w->yaml);
	yaml_emitter_set_output_file(&w->yaml, w->out);
	yaml_emitter_set_unicode(&w->yaml, 1);
	yaml_emitter_set_width(&w->yaml, -1);
	yaml_event_t ev;
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	emit(w, &ev);
	/* Explicit "---": documents of several workers concatenate into one
	 * valid stream. */
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 0);
	emit(w, &ev);
}

void doc_yaml_end(doc_writer *w)
{
	yaml_event_t ev;
	yaml_document_end_event_initialize(&ev, 1);
	emit(w, &ev);
	yaml_stream_end_event_initialize(&ev);
	emit(w, &ev);
	yaml_emitter_flush(&w->yaml);
	yaml_emitter_delete(&w->yaml);
}
