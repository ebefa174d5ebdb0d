/* serve_http.c — serve_run over libmicrohttpd: one thread, the daemon
 * polled from weft's own loop (no thread of libmicrohttpd's), so requests
 * reach the session one at a time.
 *
 * Limits: a request body beyond SERVE_MAX_BODY is not kept (413); at
 * most RATE_BURST requests at once and RATE_PER_S a second after that
 * (429); few connections, each closed when idle.  On loopback, only a
 * request whose Host is the address listened on (or localhost) is
 * answered, so a page of another site that has its name resolve to
 * 127.0.0.1 cannot drive the session; a POST must say Content-Type application/json and come from
 * no other Origin, which no form of another site can do. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>

#include <microhttpd.h>

#include "serve_int.h"

enum { RATE_PER_S = 50, RATE_BURST = 200, MAX_CONNECTIONS = 16, IDLE_SECONDS = 15 };

typedef struct server {
	serve_app *app;
	char host[96], host_local[32];  /* the Host headers accepted */
	bool any_host;                  /* not on loopback: the user chose
	                                 * to be reached by other names  */
	double tokens;                  /* the rate's bucket          */
	double last;                    /* when it was last filled    */
} server;

/* One request's body as it arrives. */
typedef struct request {
	strbuf body;
	bool too_big;
} request;

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Take a token from the bucket; false when it is empty. */
static bool rate_ok(server *sv)
{
	double t = now_s();
	sv->tokens += (t - sv->last) * RATE_PER_S;
	if (sv->tokens > RATE_BURST)
		sv->tokens = RATE_BURST;
	sv->last = t;
	if (sv->tokens < 1)
		return false;
	sv->tokens -= 1;
	return true;
}

static enum MHD_Result send_reply(struct MHD_Connection *c, const serve_reply *r)
{
	struct MHD_Response *resp = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_COPY);
	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, "Content-Type", r->type);
	MHD_add_response_header(resp, "Cache-Control", "no-store");
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, "Content-Security-Policy",
				"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'");
	if (r->status == 429)
		MHD_add_response_header(resp, "Retry-After", "1");
	enum MHD_Result ok = MHD_queue_response(c, (unsigned)r->status, resp);
	MHD_destroy_response(resp);
	return ok;
}

static enum MHD_Result send_error(struct MHD_Connection *c, int status, const char *message)
{
	json_t *j = json_pack("{s:s}", "error", message);
	char *text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	serve_reply r = { status, "application/json", text, strlen(text) };
	enum MHD_Result ok = send_reply(c, &r);
	free(text);
	return ok;
}

/* The request's refusal by the HTTP rules above, or NULL. */
static const char *refused(server *sv, struct MHD_Connection *c, const char *method, int *status)
{
	const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Host");
	*status = 403;
	if (!host || (!sv->any_host && strcmp(host, sv->host) && strcmp(host, sv->host_local)))
		return "this server answers only requests for its own address (the Host header)";
	const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
	if (origin && (strncmp(origin, "http://", 7) || strcmp(origin + 7, host)))
		return "requests from another site's page are refused";
	if (!strcmp(method, "POST")) {
		const char *type = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Content-Type");
		*status = 415;
		if (!type || strncmp(type, "application/json", 16))
			return "a POST's body must be sent as Content-Type: application/json";
	}
	*status = 429;
	if (!rate_ok(sv))
		return "too many requests: wait a second";
	return NULL;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
				  const char *version, const char *upload, size_t *upload_size, void **con_cls)
{
	(void)version;
	server *sv = cls;
	request *rq = *con_cls;
	if (!rq) {
		rq = xcalloc(1, sizeof *rq);
		*con_cls = rq;
		return MHD_YES;
	}
	if (*upload_size > 0) {
		if (rq->body.len + *upload_size > SERVE_MAX_BODY)
			rq->too_big = true;
		else
			sb_putn(&rq->body, upload, *upload_size);
		*upload_size = 0;
		return MHD_YES;
	}
	int status;
	const char *no = refused(sv, c, method, &status);
	if (no)
		return send_error(c, status, no);
	if (rq->too_big) {
		char msg[96];
		snprintf(msg, sizeof msg, "the request body is larger than %d bytes", SERVE_MAX_BODY);
		return send_error(c, 413, msg);
	}
	serve_reply r;
	serve_handle(sv->app, method, url, rq->body.s, rq->body.len, &r);
	enum MHD_Result ok = send_reply(c, &r);
	serve_reply_free(&r);
	return ok;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode why)
{
	(void)cls;
	(void)c;
	(void)why;
	request *rq = *con_cls;
	if (rq) {
		sb_free(&rq->body);
		free(rq);
		*con_cls = NULL;
	}
}

/* Poll the daemon until a signal asks to stop. */
static bool serve_loop(struct MHD_Daemon *d)
{
	while (!stop_signal) {
		fd_set rs, ws, es;
		FD_ZERO(&rs);
		FD_ZERO(&ws);
		FD_ZERO(&es);
		MHD_socket max = 0;
		if (MHD_get_fdset(d, &rs, &ws, &es, &max) != MHD_YES)
			return false;
		struct timeval tv = { 1, 0 };
		MHD_UNSIGNED_LONG_LONG ms;
		if (MHD_get_timeout(d, &ms) == MHD_YES && ms < 1000)
			tv = (struct timeval){ 0, (long)ms * 1000 };
		if (select(max + 1, &rs, &ws, &es, &tv) < 0 && errno != EINTR)
			return false;
		MHD_run(d);
	}
	return true;
}

int serve_run(const weft_options *o)
{
	char addr[64];
	unsigned port;
	strbuf why = { 0 };
	if (!serve_parse_address(o->serve_at, addr, sizeof addr, &port, &why)) {
		fprintf(stderr, "weft: %s\n", why.s);
		sb_free(&why);
		return 2;
	}
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	inet_pton(AF_INET, addr, &sa.sin_addr);
	if (strncmp(addr, "127.", 4))
		fprintf(stderr,
			"weft -serve: warning: listening on %s, not on the loopback address 127.0.0.1: anyone who "
			"can reach it can drive this session\n",
			addr);
	diag d = { .out = stderr };
	server sv = { .app = serve_app_new(o, &d), .tokens = RATE_BURST, .last = now_s() };
	if (!sv.app)
		return 1;
	struct MHD_Daemon *daemon = MHD_start_daemon(
		MHD_USE_ERROR_LOG, (uint16_t)port, NULL, NULL, on_request, &sv, MHD_OPTION_SOCK_ADDR,
		(struct sockaddr *)&sa, MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL, MHD_OPTION_CONNECTION_LIMIT,
		(unsigned)MAX_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)IDLE_SECONDS,
		MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)65536, MHD_OPTION_END);
	if (!daemon) {
		fprintf(stderr, "weft: -serve cannot listen on %s:%u (%s; -serve 0 takes any free port)\n", addr, port,
			errno ? strerror(errno) : "refused");
		serve_app_free(sv.app);
		return 1;
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
	if (info && info->port)
		port = info->port;
	snprintf(sv.host, sizeof sv.host, "%s:%u", addr, port);
	snprintf(sv.host_local, sizeof sv.host_local, "localhost:%u", port);
	sv.any_host = strncmp(addr, "127.", 4) != 0;
	struct sigaction act = { .sa_handler = on_signal };
	sigemptyset(&act.sa_mask);
	sigaction(SIGINT, &act, NULL);
	sigaction(SIGTERM, &act, NULL);
	signal(SIGPIPE, SIG_IGN);
	printf("weft -serve: %s under %s at http://%s/ (Ctrl-C stops)\n", sv.app->t->name ? sv.app->t->name : "?",
	       sv.app->model_name, sv.host);
	fflush(stdout);
	bool ok = serve_loop(daemon);
	MHD_stop_daemon(daemon);
	serve_app_free(sv.app);
	return ok ? 0 : 1;
}
