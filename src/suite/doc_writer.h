/* doc_writer.h — one result document written as YAML (libyaml) or as JSON
 * (jansson), for result_doc.c, which lays the document out once for both.
 * Between src/suite's files only; suite.h is the folder's door. */
#ifndef WEFT_DOC_WRITER_H
#define WEFT_DOC_WRITER_H

#include <stdbool.h>
#include <stdio.h>
#include <yaml.h>
#include <jansson.h>

#include "suite.h"

/* Mappings and sequences nest at most this deep in a result document. */
enum { DOC_MAX_DEPTH = 8 };

typedef struct doc_writer {
	enum doc_syntax syntax;
	bool failed;             /* the first failure stops the document's
	                          * output (and was said on stderr) */
	FILE *out;
	yaml_emitter_t yaml;     /* DOC_YAML */
	/* DOC_JSON: the document is built whole, then written on one line */
	json_t *open[DOC_MAX_DEPTH]; /* the open objects and arrays */
	int depth;
	char *key;               /* in an object: the key waiting for its value */
} doc_writer;

/* The document starts (and, in YAML, its stream with an explicit "---",
 * so that documents of several workers concatenate into one stream); a
 * JSON document is one object on one line (JSON Lines). */
void doc_begin(doc_writer *w, FILE *out, enum doc_syntax syntax);
void doc_end(doc_writer *w);

/* In a mapping, keys and values alternate: a key is a doc_str. */
void doc_map_start(doc_writer *w, bool flow);
void doc_map_end(doc_writer *w);
void doc_seq_start(doc_writer *w, bool flow);
void doc_seq_end(doc_writer *w);
void doc_str(doc_writer *w, const char *s);   /* NULL: "" */
void doc_num(doc_writer *w, long n);
void doc_real(doc_writer *w, double x);
void doc_bool(doc_writer *w, bool b);

/* The backends (doc_yaml.c, doc_json.c). */
void doc_yaml_begin(doc_writer *w);
void doc_yaml_end(doc_writer *w);
/* A mapping's or a sequence's start (block or flow style) or end. */
void doc_yaml_collection(doc_writer *w, bool mapping, bool start, bool flow);
/* A scalar: plain when `plain` (numbers, booleans), else quoted when YAML
 * would read it back as something else than a string. */
void doc_yaml_scalar(doc_writer *w, const char *s, bool plain);

void doc_json_begin(doc_writer *w);
void doc_json_end(doc_writer *w);
void doc_json_open(doc_writer *w, json_t *container);
void doc_json_close(doc_writer *w);
/* The value goes into the open container (its reference is taken); a
 * string in an object with no key waiting becomes the key. */
void doc_json_value(doc_writer *w, json_t *v);
void doc_json_str(doc_writer *w, const char *s);

#endif
