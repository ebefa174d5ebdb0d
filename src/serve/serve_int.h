/* serve_int.h — (private to src/serve) the app behind the server: the
 * tests it was given, the one open, its model and session; and the JSON
 * the API answers with. */
#ifndef WEFT_SERVE_INT_H
#define WEFT_SERVE_INT_H

#include <jansson.h>

#include "serve.h"
#include "../cli/inputs.h"
#include "../cli/models.h"
#include "../litmus/litmus.h"
#include "../session/session.h"
#include "../suite/suite.h"   /* json_lossy_string: a test may hold any bytes */

struct serve_app {
	const weft_options *o;
	input_list tests;     /* the only files the server reads (and the
	                       * models on the search path)             */
	char **names;         /* each test as the page names it: its path
	                       * below the folder given (owned)         */
	model_cache models;
	int open;             /* index in tests; -1 before the first   */
	litmus_test *t;
	char *model_name;
	session *s;
};

/* ---- serve_app.c ---- */

/* Open test i (a new session on it), closing the open one only when it
 * opens; false with the reason (the parser's or the model's messages) in
 * *why. */
bool serve_app_open(serve_app *a, int i, strbuf *why);

/* ---- serve_json.c: what the API answers ---- */

/* The test, its events, commits, status, final state and the graph. */
json_t *serve_json_state(serve_app *a);
/* The graph of the current execution, or after `event param` (NULL when
 * it cannot be drawn: the reason in *why). */
json_t *serve_json_graph(session *s, const char *event, const char *param, strbuf *why);
/* The choices of an enabled event, or NULL with why. */
json_t *serve_json_choices(session *s, const char *event, strbuf *why);
/* The tests the app was given, and which is open. */
json_t *serve_json_tests(const serve_app *a);

#endif
