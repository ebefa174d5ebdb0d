/* test_serve.c — weft -serve's request handling (src/serve/serve.h)
 * without a socket: the page's files, the state, a refused commit with its
 * cycle on the graph, undo, malformed and oversized bodies, and -serve's
 * address argument. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../src/serve/serve.h"

#define MP_LWSYNC_ADDR WEFT_SOURCE_CATDIR "/../litmus/PPC/MP+lwsync+addr.litmus"

/* The reply to one request, its body parsed (NULL when not JSON). */
static json_t *ask(serve_app *a, const char *method, const char *path, const char *body, int *status)
{
	serve_reply r;
	serve_handle(a, method, path, body, body ? strlen(body) : 0, &r);
	*status = r.status;
	json_t *j = json_loadb(r.body, r.len, 0, NULL);
	serve_reply_free(&r);
	return j;
}

static const char *str_of(json_t *j, const char *key)
{
	return json_string_value(json_object_get(j, key));
}

/* How many edges of the graph have this look. */
static int edges_of(json_t *graph, const char *look)
{
	int n = 0;
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(graph, "edges"), i, e)
		n += !strcmp(str_of(e, "look"), look);
	return n;
}

static void test_page_and_state(serve_app *a)
{
	serve_reply r;
	serve_handle(a, "GET", "/", NULL, 0, &r);
	CHECK(r.status == 200 && strstr(r.type, "text/html") && strstr(r.body, "<script src=\"/page.js\">"),
	      "GET / is the page");
	serve_reply_free(&r);
	serve_handle(a, "GET", "/page.js", NULL, 0, &r);
	CHECK(r.status == 200 && strstr(r.body, "function drawGraph"), "GET /page.js is its script");
	serve_reply_free(&r);

	int st;
	json_t *j = ask(a, "GET", "/api/state", NULL, &st);
	CHECK(st == 200 && j, "GET /api/state");
	json_t *test = json_object_get(j, "test");
	CHECK(!strcmp(str_of(test, "name"), "MP+lwsync+addr") && !strcmp(str_of(test, "model"), "power"),
	      "the test under power");
	CHECK(json_array_size(json_object_get(test, "threads")) == 2, "two threads");
	json_t *graph = json_object_get(j, "graph");
	CHECK(json_array_size(json_object_get(graph, "nodes")) == 6, "i(x), i(y), a, b, c, d drawn: %zu",
	      json_array_size(json_object_get(graph, "nodes")));
	CHECK(edges_of(graph, "pending") == 2, "po a-b-c through events not committed: %d", edges_of(graph, "pending"));
	json_decref(j);
}

static void test_refusal_and_undo(serve_app *a)
{
	int st;
	json_t *j;
	const char *steps[] = { "{\"event\":\"a\",\"param\":\"i(x)\"}", "{\"event\":\"c\",\"param\":\"i(y)\"}",
				"{\"event\":\"d\",\"param\":\"c\"}" };
	for (int i = 0; i < 3; i++) {
		j = ask(a, "POST", "/api/commit", steps[i], &st);
		CHECK(st == 200 && json_is_true(json_object_get(j, "ok")), "commit %s", steps[i]);
		json_decref(j);
	}
	j = ask(a, "POST", "/api/choices", "{\"event\":\"e\"}", &st);
	json_t *c0 = json_array_get(json_object_get(j, "choices"), 0);
	CHECK(st == 200 && c0 && !strcmp(str_of(c0, "param"), "i(x)") && !strcmp(str_of(c0, "check"), "observation"),
	      "e reading i(x) is forbidden by observation");
	json_decref(j);

	j = ask(a, "POST", "/api/commit", "{\"event\":\"e\",\"param\":\"i(x)\"}", &st);
	json_t *graph = json_object_get(j, "graph");
	CHECK(st == 200 && json_is_false(json_object_get(j, "ok")), "commit e i(x) is refused");
	CHECK(graph && !strcmp(str_of(graph, "check"), "observation") && strstr(str_of(graph, "cycle"), "-fre->"),
	      "with the check and its cycle");
	CHECK(edges_of(graph, "witness") == 4, "the cycle's four edges drawn as the witness: %d",
	      edges_of(graph, "witness"));
	CHECK(json_array_size(json_object_get(json_object_get(j, "state"), "commits")) == 3, "the state unchanged");
	json_decref(j);

	j = ask(a, "POST", "/api/undo", "", &st);
	CHECK(st == 200 && json_is_true(json_object_get(j, "ok")) &&
		      json_array_size(json_object_get(json_object_get(j, "state"), "commits")) == 2,
	      "undo takes 'd c' back");
	json_decref(j);
	j = ask(a, "POST", "/api/goto", "{}", &st);
	CHECK(st == 200 && strstr(str_of(j, "message"), "forbidden by") && strstr(str_of(j, "message"), "observation"),
	      "goto the condition: forbidden, by observation");
	json_decref(j);
	j = ask(a, "POST", "/api/auto", "{}", &st);
	json_t *state = json_object_get(j, "state");
	CHECK(st == 200 && json_is_true(json_object_get(state, "complete")) && str_of(state, "final"),
	      "auto completes an allowed execution");
	json_decref(j);
}

static void test_bad_requests(serve_app *a)
{
	static const struct {
		const char *method, *path, *body;
		int status;
		const char *says;
	} bad[] = {
		{ "POST", "/api/commit", "{\"event\":\"a\"", 400, "not JSON" },
		{ "POST", "/api/commit", "[1,2]", 400, "must be a JSON object" },
		{ "POST", "/api/commit", "{\"event\":\"a\"}", 400, "'param' is missing" },
		{ "POST", "/api/commit", "{\"event\":1,\"param\":\"b\"}", 400, "must be a string" },
		{ "POST", "/api/commit", "{\"event\":\"a\",\"param\":\"i(x)\",\"x\":\"y\"}", 400, "unknown field 'x'" },
		{ "POST", "/api/commit", "{\"event\":\"a\",\"event\":\"b\"}", 400, "duplicate" },
		{ "POST", "/api/commit", "{\"event\":\"zz\",\"param\":\"i(x)\"}", 400, "zz" },
		{ "POST", "/api/undo", "{\"event\":\"a\"}", 400, "takes none" },
		{ "POST", "/api/open", "{\"test\":\"../../etc/passwd\"}", 404, "no test" },
		{ "POST", "/api/goto", "{\"state\":\"1:r1=\"}", 400, "goto" },
		{ "GET", "/api/commit", NULL, 405, "takes POST" },
		{ "POST", "/api/state", "{}", 405, "takes GET" },
		{ "GET", "/etc/passwd", NULL, 404, "nothing at" },
		{ "DELETE", "/", NULL, 405, "takes GET" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int st;
		json_t *j = ask(a, bad[i].method, bad[i].path, bad[i].body, &st);
		const char *err = str_of(j, "error");
		CHECK(st == bad[i].status && err && strstr(err, bad[i].says), "%s %s %s: %d %s", bad[i].method,
		      bad[i].path, bad[i].body ? bad[i].body : "", st, err ? err : "(no error)");
		json_decref(j);
	}
	char *big = malloc(SERVE_MAX_BODY + 2);
	memset(big, ' ', SERVE_MAX_BODY + 1);
	big[SERVE_MAX_BODY + 1] = '\0';
	int st;
	json_t *j = ask(a, "POST", "/api/undo", big, &st);
	CHECK(st == 413 && strstr(str_of(j, "error"), "larger than"), "an oversized body is refused: %d", st);
	json_decref(j);
	free(big);
	/* a body that is not UTF-8, and one with a NUL */
	j = ask(a, "POST", "/api/choices", "{\"event\":\"\xff\"}", &st);
	CHECK(st == 400 && str_of(j, "error"), "a body not in UTF-8 is refused: %d", st);
	json_decref(j);
	j = ask(a, "POST", "/api/choices", "{\"event\":\"a\\u0000b\"}", &st);
	CHECK(st == 400 && strstr(str_of(j, "error"), "NUL"), "a NUL in a field is refused: %d", st);
	json_decref(j);
}

static void test_address(void)
{
	char addr[64];
	unsigned port;
	strbuf why = { 0 };
	CHECK(serve_parse_address(NULL, addr, sizeof addr, &port, &why) && !strcmp(addr, "127.0.0.1") && port == 8080,
	      "the default is 127.0.0.1:8080");
	CHECK(serve_parse_address("0", addr, sizeof addr, &port, &why) && port == 0, "0: any free port");
	CHECK(serve_parse_address("10.0.0.2:9000", addr, sizeof addr, &port, &why) && !strcmp(addr, "10.0.0.2") &&
		      port == 9000,
	      "ADDR:PORT");
	CHECK(!serve_parse_address("70000", addr, sizeof addr, &port, &why), "a port above 65535");
	CHECK(!serve_parse_address("foo:80", addr, sizeof addr, &port, &why) && strstr(why.s, "IPv4"), "a host name");
	sb_free(&why);
}

int main(void)
{
	setenv("WEFT_CAT_PATH", WEFT_SOURCE_CATDIR, 0);
	char *argv[] = { "weft", "-serve", MP_LWSYNC_ADDR, NULL };
	weft_options o;
	CHECK(options_parse(&o, 3, argv) == 0 && o.serve && !o.serve_at, "-serve TEST: the default port");
	diag d = { .out = stderr };
	serve_app *a = serve_app_new(&o, &d);
	CHECK(a != NULL, "an app on MP+lwsync+addr");
	if (a) {
		test_page_and_state(a);
		test_refusal_and_undo(a);
		test_bad_requests(a);
	}
	serve_app_free(a);
	options_free(&o);
	test_address();
	return test_summary("test_serve");
}
