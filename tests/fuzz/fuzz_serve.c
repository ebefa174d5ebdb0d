/* fuzz_serve.c — libFuzzer target: weft -serve's request handling
 * (serve_handle, src/serve/serve.h) on MP+lwsync+addr under power.  An
 * input is a request: "METHOD PATH" on its first line, the body after it
 * (a first line without a space is a POST of that path).  Each input
 * starts from a reset session, so that a kept input replays alone. */
#include "fuzz_run.h"
#include "serve/serve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static serve_app *app_once(void)
{
	static serve_app *app;
	static weft_options o;
	if (app)
		return app;
	setenv("WEFT_CAT_PATH", WEFT_SOURCE_CATDIR, 0);
	static char *argv[] = { "weft", "-serve", WEFT_SOURCE_CATDIR "/../litmus/PPC/MP+lwsync+addr.litmus", NULL };
	if (options_parse(&o, 3, argv) != 0)
		abort();
	diag d = fuzz_diag();
	app = serve_app_new(&o, &d);
	if (!app)
		abort();
	return app;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	serve_app *app = app_once();
	serve_reply r;
	serve_handle(app, "POST", "/api/reset", NULL, 0, &r);
	serve_reply_free(&r);
	char *text = fuzz_text(data, size);
	char *nl = strchr(text, '\n');
	const char *body = nl ? nl + 1 : "";
	if (nl)
		*nl = '\0';
	char *space = strchr(text, ' ');
	const char *method = "POST", *path = text;
	if (space) {
		*space = '\0';
		method = text;
		path = space + 1;
	}
	/* the body's bytes as given, NULs included */
	size_t n = nl ? size - (size_t)(body - text) : 0;
	serve_handle(app, method, path, body, n, &r);
	if (r.status < 200 || r.status >= 600 || !r.body || !r.type)
		abort();
	serve_reply_free(&r);
	free(text);
	return 0;
}
