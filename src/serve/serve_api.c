/* serve_api.c — one request in, one reply out: the page's files and the
 * JSON API of serve.h.  Every input is checked before the session sees
 * it: a body must be a JSON object with only the fields its command
 * reads, each a string of bounded length; anything else is a 4xx reply
 * whose "error" says what was wrong. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve_int.h"
#include "serve_page.h"

/* The longest event or parameter name, and condition, accepted. */
enum { MAX_NAME = 64, MAX_STATE = 2048 };

static void reply_text(serve_reply *r, int status, const char *type, const char *text)
{
	r->status = status;
	r->type = type;
	r->body = xstrdup(text);
	r->len = strlen(text);
}

/* A JSON reply; j is consumed. */
static void reply_json(serve_reply *r, int status, json_t *j)
{
	char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
	json_decref(j);
	if (!text) {
		reply_text(r, 500, "application/json", "{\"error\":\"the reply could not be written\"}");
		return;
	}
	reply_text(r, status, "application/json", text);
	free(text);
}

static void reply_error(serve_reply *r, int status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void reply_error(serve_reply *r, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	strbuf sb = { 0 };
	char buf[1024];
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	sb_puts(&sb, buf);
	/* the session's reasons end in a newline; the reply's sentence does not */
	while (sb.len > 0 && sb.s[sb.len - 1] == '\n')
		sb.s[--sb.len] = '\0';
	reply_json(r, status, json_pack("{s:o}", "error", json_lossy_string(sb.s ? sb.s : "")));
	sb_free(&sb);
}

/* ---- the body ---------------------------------------------------------------- */

/* What a command reads from its body: up to three string fields. */
typedef struct fields {
	const char *name[3];
	int max[3];         /* longest accepted value                  */
	bool required[3];
	const char *value[3];  /* borrowed from the parsed body, or NULL */
} fields;

/* Parse body into *root and the fields f names; false after a 4xx reply.
 * An empty body is an empty object. */
static bool read_body(const char *body, size_t n, fields *f, json_t **root, serve_reply *r)
{
	*root = NULL;
	if (n > SERVE_MAX_BODY) {
		reply_error(r, 413, "the request body is larger than %d bytes", SERVE_MAX_BODY);
		return false;
	}
	json_error_t err;
	json_t *j = n == 0 ? json_object() : json_loadb(body, n, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &err);
	if (!j) {
		reply_error(r, 400, "the body is not JSON: %s (at character %d)", err.text, err.position);
		return false;
	}
	if (!json_is_object(j)) {
		json_decref(j);
		reply_error(r, 400, "the body must be a JSON object");
		return false;
	}
	const char *key;
	json_t *v;
	json_object_foreach(j, key, v) {
		int k = -1;
		for (int i = 0; i < 3 && f->name[i]; i++)
			if (!strcmp(key, f->name[i]))
				k = i;
		if (k < 0) {
			reply_error(r, 400, "unknown field '%.64s'%s", key, f->name[0] ? "" : ": this command takes none");
			json_decref(j);
			return false;
		}
		if (!json_is_string(v)) {
			reply_error(r, 400, "field '%s' must be a string", f->name[k]);
			json_decref(j);
			return false;
		}
		if ((int)json_string_length(v) > f->max[k] || strlen(json_string_value(v)) != json_string_length(v)) {
			reply_error(r, 400, "field '%s' is longer than %d characters or holds a NUL", f->name[k],
				    f->max[k]);
			json_decref(j);
			return false;
		}
		f->value[k] = json_string_value(v);
	}
	for (int i = 0; i < 3 && f->name[i]; i++)
		if (f->required[i] && !f->value[i]) {
			reply_error(r, 400, "field '%s' is missing", f->name[i]);
			json_decref(j);
			return false;
		}
	*root = j;
	return true;
}

/* ---- the commands ---------------------------------------------------------------- */

/* {"ok": ok, "message": ..., "state": ...} */
static void reply_moved(serve_app *a, serve_reply *r, bool ok, const char *message)
{
	reply_json(r, 200, json_pack("{s:b, s:o, s:o}", "ok", ok, "message", json_lossy_string(message ? message : ""), "state",
				     serve_json_state(a)));
}

static void cmd_choices(serve_app *a, const fields *f, serve_reply *r)
{
	strbuf why = { 0 };
	json_t *c = serve_json_choices(a->s, f->value[0], &why);
	if (c)
		reply_json(r, 200, json_pack("{s:o, s:o}", "event", json_lossy_string(f->value[0]), "choices", c));
	else
		reply_error(r, 400, "%s", why.s ? why.s : "no choices");
	sb_free(&why);
}

/* commit and why: the graph after the commit first (an unknown event or
 * parameter is the request's fault, 400), then the verdict. */
static void cmd_commit(serve_app *a, const fields *f, bool commit, serve_reply *r)
{
	const char *ev = f->value[0], *param = f->value[1];
	strbuf why = { 0 };
	json_t *graph = serve_json_graph(a->s, ev, param, &why);
	if (!graph) {
		reply_error(r, 400, "%s", why.s ? why.s : "no such choice");
		sb_free(&why);
		return;
	}
	if (!commit) {
		bool ok = session_why(a->s, ev, param, &why);
		reply_json(r, 200, json_pack("{s:b, s:o, s:o}", "ok", ok, "text", json_lossy_string(why.s ? why.s : ""), "graph",
					     graph));
	} else if (session_commit(a->s, ev, param, &why)) {
		json_decref(graph);
		strbuf msg = { 0 };
		sb_printf(&msg, "committed %s %s", ev, param);
		reply_moved(a, r, true, msg.s);
		sb_free(&msg);
	} else {
		/* refused by the model: its words, and the refused execution
		 * with the failing check's cycle */
		reply_json(r, 200, json_pack("{s:b, s:o, s:o, s:o}", "ok", false, "message", json_lossy_string(why.s ? why.s : ""),
					     "graph", graph, "state", serve_json_state(a)));
	}
	sb_free(&why);
}

static void cmd_goto(serve_app *a, const fields *f, serve_reply *r)
{
	strbuf out = { 0 }, errs = { 0 };
	diag d = { .collect = &errs };
	if (session_goto(a->s, f->value[0], &out, &d))
		reply_moved(a, r, true, out.s);
	else
		reply_error(r, 400, "goto: %s", errs.s ? errs.s : "the search failed");
	sb_free(&out);
	sb_free(&errs);
}

static void cmd_open(serve_app *a, const fields *f, serve_reply *r)
{
	int found = -1;
	for (int i = 0; i < a->tests.n && found < 0; i++)
		if (!strcmp(a->names[i], f->value[0]))
			found = i;
	if (found < 0) {
		reply_error(r, 404, "no test '%.200s' here (GET /api/tests lists them)", f->value[0]);
		return;
	}
	strbuf why = { 0 };
	if (serve_app_open(a, found, &why))
		reply_moved(a, r, true, "opened");
	else
		reply_error(r, 422, "%.400s", why.s ? why.s : "cannot open it");
	sb_free(&why);
}

static void cmd_graph(serve_app *a, const fields *f, serve_reply *r)
{
	if (!f->value[0] != !f->value[1]) {
		reply_error(r, 400, "give both 'event' and 'param', or neither");
		return;
	}
	strbuf why = { 0 };
	json_t *g = serve_json_graph(a->s, f->value[0], f->value[1], &why);
	if (g)
		reply_json(r, 200, g);
	else
		reply_error(r, 400, "%s", why.s ? why.s : "cannot draw it");
	sb_free(&why);
}

/* ---- routing ----------------------------------------------------------------------- */

enum cmd { C_CHOICES, C_COMMIT, C_WHY, C_UNDO, C_RESET, C_AUTO, C_GOTO, C_OPEN, C_GRAPH };

typedef struct post_cmd {
	const char *path;
	enum cmd cmd;
	fields f;
} post_cmd;

static const post_cmd posts[] = {
	{ "/api/choices", C_CHOICES, { { "event" }, { MAX_NAME }, { true }, { 0 } } },
	{ "/api/commit", C_COMMIT, { { "event", "param" }, { MAX_NAME, MAX_NAME }, { true, true }, { 0 } } },
	{ "/api/why", C_WHY, { { "event", "param" }, { MAX_NAME, MAX_NAME }, { true, true }, { 0 } } },
	{ "/api/undo", C_UNDO, { { 0 }, { 0 }, { 0 }, { 0 } } },
	{ "/api/reset", C_RESET, { { 0 }, { 0 }, { 0 }, { 0 } } },
	{ "/api/auto", C_AUTO, { { 0 }, { 0 }, { 0 }, { 0 } } },
	{ "/api/goto", C_GOTO, { { "state" }, { MAX_STATE }, { false }, { 0 } } },
	{ "/api/open", C_OPEN, { { "test" }, { 1024 }, { true }, { 0 } } },
	{ "/api/graph", C_GRAPH, { { "event", "param" }, { MAX_NAME, MAX_NAME }, { false, false }, { 0 } } },
};

static void post(serve_app *a, const post_cmd *pc, const char *body, size_t n, serve_reply *r)
{
	fields f = pc->f;
	json_t *root;
	if (!read_body(body, n, &f, &root, r))
		return;
	strbuf sb = { 0 };
	switch (pc->cmd) {
	case C_CHOICES: cmd_choices(a, &f, r); break;
	case C_COMMIT: cmd_commit(a, &f, true, r); break;
	case C_WHY: cmd_commit(a, &f, false, r); break;
	case C_UNDO: {
		bool ok = session_undo(a->s);
		reply_moved(a, r, ok, ok ? "undone" : "nothing to undo");
		break;
	}
	case C_RESET:
		session_reset(a->s);
		reply_moved(a, r, true, "reset: nothing committed");
		break;
	case C_AUTO: {
		bool ok = session_auto(a->s, &sb);
		reply_moved(a, r, ok, sb.s);
		break;
	}
	case C_GOTO: cmd_goto(a, &f, r); break;
	case C_OPEN: cmd_open(a, &f, r); break;
	case C_GRAPH: cmd_graph(a, &f, r); break;
	}
	sb_free(&sb);
	json_decref(root);
}

static bool get(serve_app *a, const char *path, serve_reply *r)
{
	const serve_page_file *pf = serve_page_find(path);
	if (pf) {
		reply_text(r, 200, pf->type, pf->text);
		return true;
	}
	if (!strcmp(path, "/api/state"))
		reply_json(r, 200, serve_json_state(a));
	else if (!strcmp(path, "/api/tests"))
		reply_json(r, 200, serve_json_tests(a));
	else if (!strcmp(path, "/api/checks")) {
		strbuf sb = { 0 };
		bool ok = session_checks(a->s, &sb);
		reply_json(r, 200, json_pack("{s:b, s:o}", "ok", ok, "text", json_lossy_string(sb.s ? sb.s : "")));
		sb_free(&sb);
	} else
		return false;
	return true;
}

void serve_handle(serve_app *a, const char *method, const char *path, const char *body, size_t n, serve_reply *r)
{
	memset(r, 0, sizeof *r);
	bool is_get = !strcmp(method, "GET") || !strcmp(method, "HEAD"), is_post = !strcmp(method, "POST");
	const post_cmd *pc = NULL;
	for (size_t i = 0; i < sizeof posts / sizeof posts[0] && !pc; i++)
		if (!strcmp(path, posts[i].path))
			pc = &posts[i];
	if (pc && is_post) {
		post(a, pc, body, n, r);
		return;
	}
	if (is_get && get(a, path, r))
		return;
	static const char *const gets[] = { "/api/state", "/api/tests", "/api/checks" };
	bool known = pc || serve_page_find(path);
	for (size_t i = 0; i < sizeof gets / sizeof gets[0]; i++)
		known = known || !strcmp(path, gets[i]);
	if (known)
		reply_error(r, 405, "%s takes %s", pc ? pc->path : path, pc ? "POST" : "GET");
	else
		reply_error(r, 404, "nothing at '%.200s'", path);
}

void serve_reply_free(serve_reply *r)
{
	free(r->body);
	r->body = NULL;
}
