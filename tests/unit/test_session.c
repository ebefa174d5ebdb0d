/* test_session.c — the session API (src/session/session.h) driven without
 * a terminal, as another front-end would drive it: events and their
 * flags, the choices of an enabled event with the model's verdicts, a
 * refused commit, undo, goto with and without a state, auto. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../src/cat/cat.h"
#include "../../src/litmus/litmus.h"
#include "../../src/session/session.h"

#define MP_LWSYNC_ADDR WEFT_SOURCE_CATDIR "/../litmus/PPC/MP+lwsync+addr.litmus"

static const session_event *event_named(const session *s, const char *name)
{
	for (int i = 0; i < session_n_events(s); i++)
		if (!strcmp(session_event_at(s, i)->name, name))
			return session_event_at(s, i);
	return NULL;
}

static void test_choices_and_refusal(session *s)
{
	const session_event *a = event_named(s, "a"), *b = event_named(s, "b"), *d = event_named(s, "d");
	CHECK(a && a->enabled && !a->committed && a->memory, "a: W x=1 is enabled");
	CHECK(b && b->committed && !b->memory, "b: the lwsync is part of the execution once fetched");
	CHECK(d && d->enabled && !strcmp(d->desc, "R y (P1)"), "d reads y, no value yet: %s", d ? d->desc : "-");
	CHECK(!event_named(s, "e"), "e waits for d: its address depends on it");
	CHECK(session_thread_status(s, 0) == NULL, "P0 is fetched to its end");
	CHECK(session_thread_status(s, 1) != NULL, "P1 stops at e");

	strbuf why = { 0 };
	CHECK(session_commit(s, "a", "i(x)", &why), "commit a i(x): %s", why.s ? why.s : "");
	CHECK(session_commit(s, "c", "i(y)", &why), "commit c i(y)");
	CHECK(session_commit(s, "d", "c", &why), "commit d c");
	CHECK(session_n_commits(s) == 3 && !strcmp(session_commit_text(s, 2), "d c"), "three commits, the last 'd c'");

	session_choices c;
	CHECK(session_choices_of(s, "e", &c, &why), "e has choices now");
	CHECK(c.n == 2, "e reads i(x) or a: %d choices", c.n);
	if (c.n == 2) {
		CHECK(!strcmp(c.v[0].param, "i(x)") && !c.v[0].allowed && !strcmp(c.v[0].check, "observation"),
		      "reading i(x) is forbidden by observation");
		CHECK(strstr(c.v[0].cycle, "cycle e: R x=0 (P1) -fre-> a: W x=1 (P0)") != NULL, "with its cycle: %s",
		      c.v[0].cycle);
		CHECK(!strcmp(c.v[1].param, "a") && c.v[1].allowed && !c.v[1].check, "reading a is allowed");
	}
	session_choices_free(&c);

	sb_reset(&why);
	CHECK(!session_commit(s, "e", "i(x)", &why), "commit e i(x) is refused");
	CHECK(why.s && strstr(why.s, "forbidden by observation"), "and says why: %s", why.s ? why.s : "");
	CHECK(session_n_commits(s) == 3, "the state is unchanged");
	sb_reset(&why);
	CHECK(session_commit(s, "e", "a", &why), "commit e a");
	CHECK(session_complete(s), "complete");
	strbuf st = { 0 };
	session_final_state(s, &st);
	CHECK(st.s && !strcmp(st.s, "1:r1=1; 1:r3=1;"), "final state %s", st.s ? st.s : "");
	sb_free(&st);
	CHECK(session_undo(s) && !session_complete(s) && session_n_commits(s) == 3, "undo takes e back");
	sb_free(&why);
}

static void test_goto_and_auto(session *s, diag *d)
{
	strbuf out = { 0 };
	session_reset(s);
	CHECK(session_goto(s, NULL, &out, d), "goto the condition");
	CHECK(out.s && !strncmp(out.s, "forbidden:", 10) && strstr(out.s, "Forbidden by: observation (1 of 1)"),
	      "the condition's state is forbidden by observation: %s", out.s ? out.s : "");
	CHECK(session_n_commits(s) == 0, "a forbidden goto does not move");
	sb_reset(&out);
	CHECK(session_goto(s, "1:r1=1 /\\ 1:r3=1", &out, d), "goto an allowed state");
	CHECK(out.s && !strncmp(out.s, "reached:", 8), "reached: %s", out.s ? out.s : "");
	CHECK(session_complete(s) && session_n_commits(s) == 4, "it is there, in four commits");
	CHECK(session_undo(s) && session_n_commits(s) == 0, "undo goes back to before goto");
	sb_reset(&out);
	CHECK(session_auto(s, &out) && session_complete(s), "auto completes: %s", out.s ? out.s : "");
	sb_reset(&out);
	int errors = d->errors;
	CHECK(!session_goto(s, "1:r1=", &out, d) && d->errors > errors, "a state that does not parse is an error");
	sb_free(&out);
}

int main(void)
{
	FILE *sink = fopen("/dev/null", "w");
	diag d = { .out = sink };
	const char *dirs[] = { WEFT_SOURCE_CATDIR };
	cat_search_path sp = { 1, dirs };
	cat_model *m = cat_model_load("power", &(cat_load_options){ .search = &sp }, &d);
	litmus_test *t = litmus_parse_file(MP_LWSYNC_ADDR, &d);
	CHECK(m && t, "power and %s load", MP_LWSYNC_ADDR);
	session *s = m && t ? session_new(t, m, 2, &d) : NULL;
	CHECK(s != NULL, "a session starts");
	if (s) {
		test_choices_and_refusal(s);
		test_goto_and_auto(s, &d);
	}
	session_free(s);
	if (t)
		litmus_test_free(t);
	if (m)
		cat_model_free(m);
	if (sink)
		fclose(sink);
	return test_summary("test_session");
}
