/* serve_json.c — the session as the API's JSON (jansson): plain data the
 * page draws, every string from the session.  The man page's WEFT -SERVE
 * section lists these objects' fields. */
#include <string.h>

#include "serve_int.h"

/* A string, or null. */
static json_t *str_or_null(const char *s)
{
	return s ? json_lossy_string(s) : json_null();
}

static json_t *test_json(const serve_app *a)
{
	const litmus_test *t = a->t;
	json_t *threads = json_array();
	for (int i = 0; i < t->n_threads; i++) {
		const thread *th = &t->threads[i];
		json_t *instrs = json_array();
		for (int k = 0; k < th->n_instrs; k++)
			json_array_append_new(instrs, json_lossy_string(th->instrs[k].text ? th->instrs[k].text : ""));
		json_t *status = str_or_null(session_thread_status(a->s, i));
		json_array_append_new(threads, json_pack("{s:i, s:o, s:o}", "id", th->id, "instrs", instrs, "stops", status));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "name", json_lossy_string(t->name ? t->name : "?"), "file",
			 json_lossy_string(a->names[a->open]), "arch", json_lossy_string(t->arch_name ? t->arch_name : "?"), "model",
			 json_lossy_string(a->model_name), "threads", threads);
}

json_t *serve_json_graph(session *s, const char *event, const char *param, strbuf *why)
{
	session_graph g;
	if (!session_graph_of(s, event, param, &g, why))
		return NULL;
	json_t *nodes = json_array(), *edges = json_array();
	for (int i = 0; i < g.n_nodes; i++) {
		const session_node *n = &g.nodes[i];
		json_array_append_new(nodes, json_pack("{s:o, s:o, s:i, s:i, s:b}", "name", json_lossy_string(n->name), "label", json_lossy_string(n->label),
						       "thread", n->thread, "row", n->row, "pending", n->pending));
	}
	for (int i = 0; i < g.n_edges; i++) {
		const session_edge *e = &g.edges[i];
		json_array_append_new(edges, json_pack("{s:o, s:o, s:o, s:s}", "from", json_lossy_string(e->from), "to", json_lossy_string(e->to),
						       "label", json_lossy_string(e->label), "look", e->look));
	}
	json_t *j = json_pack("{s:o, s:b, s:o, s:o, s:o, s:o}", "title", json_lossy_string(g.title), "allowed", g.allowed, "check",
			      str_or_null(g.check), "cycle", str_or_null(g.cycle), "nodes", nodes, "edges", edges);
	session_graph_free(&g);
	return j;
}

json_t *serve_json_choices(session *s, const char *event, strbuf *why)
{
	session_choices c;
	if (!session_choices_of(s, event, &c, why))
		return NULL;
	json_t *v = json_array();
	for (int i = 0; i < c.n; i++) {
		const session_choice *ch = &c.v[i];
		json_array_append_new(v, json_pack("{s:o, s:b, s:o, s:o}", "param", json_lossy_string(ch->param), "allowed", ch->allowed,
						   "check", str_or_null(ch->check), "cycle", str_or_null(ch->cycle)));
	}
	session_choices_free(&c);
	return v;
}

json_t *serve_json_state(serve_app *a)
{
	session *s = a->s;
	json_t *events = json_array(), *commits = json_array();
	for (int i = 0; i < session_n_events(s); i++) {
		const session_event *e = session_event_at(s, i);
		json_array_append_new(events, json_pack("{s:o, s:o, s:i, s:b, s:b, s:b, s:b}", "name", json_lossy_string(e->name), "desc", json_lossy_string(e->desc),
							"thread", e->thread, "memory", e->memory, "committed",
							e->committed, "enabled", e->enabled, "lock_write", e->lock_write));
	}
	for (int i = 0; i < session_n_commits(s); i++)
		json_array_append_new(commits, json_lossy_string(session_commit_text(s, i)));
	bool complete = session_complete(s);
	json_t *final = json_null();
	if (complete) {
		strbuf st = { 0 };
		session_final_state(s, &st);
		final = json_lossy_string(st.s ? st.s : "");
		sb_free(&st);
	}
	strbuf why = { 0 };
	json_t *graph = serve_json_graph(s, NULL, NULL, &why);
	json_t *j = json_pack("{s:o, s:o, s:o, s:b, s:b, s:o, s:o}", "test", test_json(a), "events", events, "commits",
			      commits, "complete", complete, "filtered", session_filtered(s), "final", final, "graph",
			      graph ? graph : json_null());
	if (!graph)
		json_object_set_new(j, "graph_error", json_lossy_string(why.s ? why.s : ""));
	sb_free(&why);
	return j;
}

json_t *serve_json_tests(const serve_app *a)
{
	json_t *v = json_array();
	for (int i = 0; i < a->tests.n; i++)
		json_array_append_new(v, json_lossy_string(a->names[i]));
	return json_pack("{s:o, s:o}", "tests", v, "open", json_lossy_string(a->names[a->open]));
}
