/* results_yaml.c — weft's -format yaml documents read back as saved results.
 *
 * Read with libyaml's event parser rather than its document loader: a
 * table needs a handful of fields of each document, not the tree of its
 * states and bindings, and tens of thousands of documents must read in well
 * under a second.  Unknown keys are skipped, so that documents written by a
 * later weft with more to say still read. */
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "results_int.h"

typedef struct reader {
	yaml_parser_t p;
	yaml_event_t ev;
	bool have_event;
	saved_set *s;
	int file;
	diag *d;
} reader;

static srcloc here(const reader *r)
{
	return (srcloc){ r->s->files[r->file], (int)r->ev.start_mark.line + 1, (int)r->ev.start_mark.column + 1 };
}

/* The next event into r->ev; false after reporting a syntax error. */
static bool next(reader *r)
{
	if (r->have_event)
		yaml_event_delete(&r->ev);
	r->have_event = false;
	if (!yaml_parser_parse(&r->p, &r->ev)) {
		diag_error(r->d, (srcloc){ r->s->files[r->file], (int)r->p.problem_mark.line + 1,
					   (int)r->p.problem_mark.column + 1 },
			   "YAML: %s", r->p.problem ? r->p.problem : "malformed");
		return false;
	}
	r->have_event = true;
	return true;
}

static const char *scalar(const reader *r)
{
	return r->ev.type == YAML_SCALAR_EVENT ? (const char *)r->ev.data.scalar.value : NULL;
}

/* Skip the node whose first event is r->ev (a scalar, or a whole mapping
 * or sequence). */
static bool skip(reader *r)
{
	int depth = 0;
	do {
		switch (r->ev.type) {
		case YAML_MAPPING_START_EVENT: case YAML_SEQUENCE_START_EVENT: depth++; break;
		case YAML_MAPPING_END_EVENT: case YAML_SEQUENCE_END_EVENT: depth--; break;
		default: break;
		}
		if (depth == 0)
			return true;
	} while (next(r));
	return false;
}

/* The scalar in r->ev as the value of `key`; false after reporting. */
static bool take_scalar(reader *r, saved_doc *x, enum doc_section sec, const char *key)
{
	if (!scalar(r)) {
		diag_error(r->d, here(r), "'%s' wants a single value", key);
		return false;
	}
	const char *wrong = saved_doc_scalar(x, sec, key, scalar(r));
	if (wrong)
		diag_error(r->d, here(r), "%s", wrong);
	return !wrong;
}

/* One item of states:, the reader at its start: its `state` line is kept
 * when it is a mapping that has one. */
static bool read_state(reader *r, saved_doc *x)
{
	if (r->ev.type != YAML_MAPPING_START_EVENT)
		return skip(r);
	for (;;) {
		if (!next(r))
			return false;
		if (r->ev.type == YAML_MAPPING_END_EVENT)
			return true;
		bool is_state = scalar(r) && !strcmp(scalar(r), "state");
		if (!skip(r) || !next(r))
			return false;
		if (is_state && scalar(r))
			saved_doc_state(x, scalar(r));
		if (!skip(r))
			return false;
	}
}

/* states: a sequence of mappings: their number, and their state lines. */
static bool read_states(reader *r, saved_doc *x)
{
	if (r->ev.type != YAML_SEQUENCE_START_EVENT) {
		diag_error(r->d, here(r), "'states' wants a list of states");
		return false;
	}
	x->states_kept = true;
	for (;;) {
		if (!next(r))
			return false;
		if (r->ev.type == YAML_SEQUENCE_END_EVENT)
			return true;
		x->n_states++;
		if (!read_state(r, x))
			return false;
	}
}

/* A flow or block mapping of scalars (run:, stats:); `on_pair` is given
 * each key with the reader at its value. */
typedef bool (*pair_fn)(reader *r, saved_doc *x, const char *key);

static bool read_mapping(reader *r, saved_doc *x, const char *what, pair_fn on_pair)
{
	if (r->ev.type != YAML_MAPPING_START_EVENT) {
		diag_error(r->d, here(r), "'%s' wants a mapping", what);
		return false;
	}
	for (;;) {
		if (!next(r))
			return false;
		if (r->ev.type == YAML_MAPPING_END_EVENT)
			return true;
		char *key = scalar(r) ? xstrdup(scalar(r)) : NULL;
		if (!key) {
			diag_error(r->d, here(r), "expected a key in '%s'", what);
			return false;
		}
		bool ok = next(r) && on_pair(r, x, key);
		free(key);
		if (!ok)
			return false;
	}
}

static bool stats_pair(reader *r, saved_doc *x, const char *key)
{
	return scalar(r) ? take_scalar(r, x, DOC_STATS, key) : skip(r);
}

static bool read_models(reader *r, saved_doc *x)
{
	if (r->ev.type != YAML_SEQUENCE_START_EVENT) {
		diag_error(r->d, here(r), "'models' wants a list of model labels");
		return false;
	}
	for (;;) {
		if (!next(r))
			return false;
		if (r->ev.type == YAML_SEQUENCE_END_EVENT)
			return true;
		if (!scalar(r)) {
			diag_error(r->d, here(r), "'models' wants a list of model labels");
			return false;
		}
		saved_doc_model(x, scalar(r));
	}
}

static bool run_pair(reader *r, saved_doc *x, const char *key)
{
	if (!strcmp(key, "models"))
		return read_models(r, x);
	return scalar(r) ? take_scalar(r, x, DOC_RUN, key) : skip(r);
}

/* One top-level key of a document, the reader at its value. */
static bool top_pair(reader *r, saved_doc *x, const char *key)
{
	if (!strcmp(key, "states"))
		return read_states(r, x);
	if (!strcmp(key, "stats"))
		return (x->has_stats = true) && read_mapping(r, x, "stats", stats_pair);
	if (!strcmp(key, "run"))
		return read_mapping(r, x, "run", run_pair);
	return scalar(r) ? take_scalar(r, x, DOC_TOP, key) : skip(r);
}

/* One document: its root mapping's start is in r->ev. */
static bool read_doc(reader *r)
{
	saved_doc x;
	memset(&x, 0, sizeof x);
	x.line = (int)r->ev.start_mark.line + 1;
	if (r->ev.type != YAML_MAPPING_START_EVENT) {
		diag_error(r->d, here(r), "not a saved result: expected a document of weft's -format yaml output");
		return false;
	}
	bool ok = true;
	for (;;) {
		if (!(ok = next(r)))
			break;
		if (r->ev.type == YAML_MAPPING_END_EVENT)
			break;
		if (!scalar(r)) {
			diag_error(r->d, here(r), "expected a key");
			ok = false;
			break;
		}
		char *key = xstrdup(scalar(r));
		ok = next(r) && top_pair(r, &x, key);
		free(key);
		if (!ok)
			break;
	}
	ok = ok && saved_doc_add(r->s, r->file, &x, r->d);
	saved_doc_free(&x);
	return ok;
}

bool saved_read_yaml(saved_set *s, int file, const char *text, size_t len, diag *d)
{
	int fast = saved_read_yaml_fast(s, file, text, len, d);
	if (fast >= 0)
		return fast;
	reader r;
	memset(&r, 0, sizeof r);
	r.s = s;
	r.file = file;
	r.d = d;
	yaml_parser_initialize(&r.p);
	yaml_parser_set_input_string(&r.p, (const unsigned char *)text, len);
	bool ok = true;
	while (ok && next(&r) && r.ev.type != YAML_STREAM_END_EVENT) {
		if (r.ev.type != YAML_DOCUMENT_START_EVENT)
			continue;
		if (!next(&r))
			break;
		if (r.ev.type == YAML_SCALAR_EVENT && !*scalar(&r))
			continue;   /* an empty document */
		ok = read_doc(&r);
	}
	ok = ok && r.have_event && r.ev.type == YAML_STREAM_END_EVENT;
	if (r.have_event)
		yaml_event_delete(&r.ev);
	yaml_parser_delete(&r.p);
	return ok;
}
