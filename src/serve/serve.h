/* serve.h — `weft -serve`: a session (src/session/session.h) in a web
 * page.  A small HTTP server on 127.0.0.1 (another address only when the
 * user names one) serves one page, the page's script and style, all
 * embedded in weft at build time (page.html, page.js, page.css: nothing
 * from another site), and a JSON API over the session:
 *
 *   GET  /api/state    the test, its events, commits, final state, graph
 *   GET  /api/tests    the tests the server was given (a folder: several)
 *   GET  /api/checks   every check's verdict on the current execution
 *   POST /api/open     {"test": NAME}            open another given test
 *   POST /api/choices  {"event": E}              E's choices, each judged
 *   POST /api/commit   {"event": E, "param": P}  commit, or the refusal
 *   POST /api/why      {"event": E, "param": P}  the verdict, and the graph
 *   POST /api/undo, /api/reset, /api/auto        {}
 *   POST /api/goto     {"state": COND} (or {})   search, as -i's goto
 *
 * Every answer is a JSON object; a refused request has "error" (a
 * sentence) and an HTTP status of 4xx.  man weft, WEFT -SERVE, documents
 * each object.
 *
 * The request handling (serve_handle) is apart from HTTP, so the fuzz
 * target and the unit test drive it without a socket; serve_http.c puts
 * it behind libmicrohttpd, with the limits on sizes and rates.
 *
 * Ownership: an app borrows its options, owns its tests, models and
 * session; a reply's body is the caller's (serve_reply_free).
 */
#ifndef WEFT_SERVE_H
#define WEFT_SERVE_H

#include <stdbool.h>
#include <stddef.h>

#include "../cli/options.h"
#include "../util/util.h"

/* The largest request body read (bytes): larger ones are refused (413). */
enum { SERVE_MAX_BODY = 16384 };
/* How long a goto may search (seconds) without -timeout. */
enum { SERVE_SEARCH_SECONDS = 30 };

typedef struct serve_app serve_app;

/* An app over the input of o (one .litmus file, or a folder of them: the
 * first is opened).  NULL after reporting through d when the input holds
 * no test or the first one cannot be opened. */
serve_app *serve_app_new(const weft_options *o, diag *d);
void serve_app_free(serve_app *a);

typedef struct serve_reply {
	int status;           /* HTTP status                          */
	const char *type;     /* its Content-Type (static text)       */
	char *body;           /* owned                                */
	size_t len;
} serve_reply;

/* Answer one request: method ("GET", "POST"), path ("/api/state"; no
 * query), and the body (n bytes, not NUL-terminated; may be NULL when n
 * is 0).  Never fails: a bad request gets a 4xx reply saying why. */
void serve_handle(serve_app *a, const char *method, const char *path, const char *body, size_t n,
		  serve_reply *r);
void serve_reply_free(serve_reply *r);

/* weft -serve: build the app and serve it until SIGINT or SIGTERM.  The
 * exit status: 0, 1 (the test or the server could not start), or 2 (weft
 * was built without libmicrohttpd, which it says). */
int serve_run(const weft_options *o);

/* Where -serve listens: "PORT" or "ADDR:PORT" (NULL: 127.0.0.1:8080).
 * False with the reason in *why when it is neither. */
bool serve_parse_address(const char *at, char *addr, size_t addr_size, unsigned *port, strbuf *why);

#endif
