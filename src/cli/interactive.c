/* interactive.c — the terminal front-end of a session: read a command a
 * line, answer in plain text.  Everything it says of the test and the
 * model comes from the session (src/session/session.h); this file only
 * reads commands and lays answers out.  On a terminal, lines are read
 * with libedit (editing, history) when weft was built with it. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#ifdef HAVE_LIBEDIT
#include <editline/readline.h>
#endif

#include "interactive.h"
#include "models.h"
#include "../arch/arch.h"
#include "../engine/engine.h"
#include "../litmus/litmus.h"
#include "../session/session.h"

static const char *const help_text =
	"Commands (events are named as -explain names them: a, b, ... in program order,\n"
	"thread after thread; i(x) is the initial write of x):\n"
	"  help                 this list\n"
	"  show                 the program, the committed events, and each enabled event\n"
	"                       with its choices and the model's verdict on each\n"
	"  commit EVENT PARAM   commit EVENT: a load reads the store PARAM, a store goes\n"
	"                       right after the store PARAM in coherence (a\n"
	"                       store-conditional may also 'fail', and only fail without\n"
	"                       a reservation for its address; a C choice, herd's\n"
	"                       two alternatives of spin_trylock and spin_is_locked,\n"
	"                       takes 1 or 0; a C spin_lock's lock write takes the\n"
	"                       lock right after the lock write PARAM, or i(LOCK):\n"
	"                       the order the threads take it in); refused, with the\n"
	"                       failing check and its cycle, when the model forbids it\n"
	"  why EVENT PARAM      the model's verdict on that commit, the state unchanged\n"
	"  undo                 undo the last commit, auto, goto or reset\n"
	"  reset                back to nothing committed\n"
	"  auto                 complete the execution with the first allowed choices\n"
	"  goto [STATE]         search an allowed execution ending in STATE (a condition\n"
	"                       in litmus syntax, e.g. 1:r1=1 /\\ 1:r3=0; without STATE the\n"
	"                       test's condition): go there, or say which checks forbid\n"
	"                       it, with a cycle\n"
	"  checks               every check's verdict on the current execution\n"
	"  dot FILE [EVENT PARAM]  draw the current execution as Graphviz (threads in\n"
	"                       columns), or the one after that commit, a failing\n"
	"                       check's witness in bold magenta\n"
	"  quit                 leave (so does the end of input)\n";

static void show_program(const litmus_test *t, FILE *out)
{
	for (int i = 0; i < t->n_threads; i++) {
		const thread *th = &t->threads[i];
		fprintf(out, "  P%d:", th->id);
		for (int k = 0; k < th->n_instrs; k++) {
			const instr *in = &th->instrs[k];
			/* one C statement may be several instructions (spin_lock's
			 * LKR and LKW): it is shown once */
			if (k && in->loc.line && in->loc.line == th->instrs[k - 1].loc.line &&
			    in->loc.col == th->instrs[k - 1].loc.col && !strcmp(in->text, th->instrs[k - 1].text))
				continue;
			/* a C statement ends with its own ';' */
			const char *prev = k ? th->instrs[k - 1].text : "";
			size_t len = strlen(prev);
			fprintf(out, "%s%s", k == 0 ? " " : len && prev[len - 1] == ';' ? " " : " ; ", in->text);
		}
		fputc('\n', out);
	}
}

static void show_choices(session *s, const session_event *e, FILE *out)
{
	session_choices c;
	strbuf why = { 0 };
	if (!session_choices_of(s, e->name, &c, &why)) {
		fprintf(out, "    (%s)\n", why.s ? why.s : "no choices");
		sb_free(&why);
		return;
	}
	bool load = e->desc[0] == 'R', choice = !strncmp(e->desc, "choose", 6);
	for (int i = 0; i < c.n; i++) {
		const session_choice *ch = &c.v[i];
		const char *what = choice                     ? "takes "
		                   : !strcmp(ch->param, "fail") ? ""
		                   : load                       ? "reads "
		                   : e->lock_write              ? "locks after "
		                                                : "co-after ";
		if (ch->allowed)
			fprintf(out, "    %s%s: allowed\n", what, ch->param);
		else
			fprintf(out, "    %s%s: forbidden by %s: %s\n", what, ch->param, ch->check, ch->cycle ? ch->cycle : "");
	}
	session_choices_free(&c);
}

static void show(session *s, const litmus_test *t, const char *model, FILE *out)
{
	fprintf(out, "Test %s (%s) under %s\n", t->name ? t->name : "?", t->arch_name ? t->arch_name : "?", model);
	show_program(t, out);
	fputs("Committed:", out);
	bool any = false;
	for (int i = 0; i < session_n_events(s); i++) {
		const session_event *e = session_event_at(s, i);
		if (e->committed) {
			fprintf(out, "%s%s: %s", any ? "; " : " ", e->name, e->desc);
			any = true;
		}
	}
	fputc('\n', out);
	if (session_n_commits(s) > 0) {
		fputs("Commits:", out);
		for (int i = 0; i < session_n_commits(s); i++)
			fprintf(out, "%s%s", i ? "; " : " ", session_commit_text(s, i));
		fputc('\n', out);
	}
	if (session_complete(s)) {
		strbuf st = { 0 };
		session_final_state(s, &st);
		fprintf(out, "Complete: %s%s\n", st.s ? st.s : "",
			session_filtered(s) ? " (the test's filter drops this execution)" : "");
		sb_free(&st);
		return;
	}
	fputs("Enabled:\n", out);
	for (int i = 0; i < session_n_events(s); i++) {
		const session_event *e = session_event_at(s, i);
		if (!e->enabled)
			continue;
		fprintf(out, "  %s: %s\n", e->name, e->desc);
		show_choices(s, e, out);
	}
	for (int i = 0; i < t->n_threads; i++) {
		const char *why = session_thread_status(s, i);
		if (why)
			fprintf(out, "P%d stops: %s\n", t->threads[i].id, why);
	}
	any = false;
	for (int i = 0; i < session_n_events(s); i++) {
		const session_event *e = session_event_at(s, i);
		if (e->memory && !e->committed && !e->enabled) {
			fprintf(out, "%s%s: %s", any ? "; " : "Waiting (a value they need is not read yet): ", e->name, e->desc);
			any = true;
		}
	}
	if (any)
		fputc('\n', out);
}

/* The words of a line: the command, then the rest (trimmed). */
static char *trim(char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	size_t n = strlen(p);
	while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\n' || p[n - 1] == '\r'))
		p[--n] = '\0';
	return p;
}

/* The next command line into *buf (NULL at the end of input): from libedit
 * on a terminal when there is one (its buffer, replaced at each call),
 * else by getline, after a prompt on a terminal. */
static char *read_command(FILE *in, FILE *out, bool tty, char **buf, size_t *cap)
{
#ifdef HAVE_LIBEDIT
	if (tty && in == stdin) {
		free(*buf);
		*buf = readline("weft> ");
		*cap = 0;
		if (*buf && **buf)
			add_history(*buf);
		return *buf;
	}
#endif
	if (tty) {
		fputs("weft> ", out);
		fflush(out);
	}
	return getline(buf, cap, in) < 0 ? NULL : *buf;
}

/* Split "EVENT PARAM"; false when there are not exactly two words. */
static bool two_words(char *rest, char **a, char **b)
{
	char *save = NULL;
	*a = strtok_r(rest, " \t", &save);
	*b = *a ? strtok_r(NULL, " \t", &save) : NULL;
	return *a && *b && !strtok_r(NULL, " \t", &save);
}

int interactive_run(const weft_options *o, FILE *in, FILE *out)
{
	if (o->inputs.n != 1) {
		fputs("weft: -i explores one test: give one .litmus file\nTry 'weft -help'.\n", stderr);
		return 2;
	}
	diag d = { .out = stderr };
	model_cache models;
	model_cache_init(&models, o);
	litmus_test *t = litmus_parse_file_variants(o->inputs.v[0], model_cache_macros(&models, o), NULL,
	                                            models.variants, &d);
	if (!t) {
		model_cache_free(&models);
		return 1;
	}
	const char *model_name = o->models.n > 0 ? o->models.v[0] : t->arch ? model_cache_default(&models, t->arch, NULL) : "sc";
	cat_model *m = model_cache_get(&models, model_name, &d);
	session *s = m ? session_new(t, m, o->unroll >= 0 ? o->unroll : ENGINE_UNROLL_DEFAULT, &d) : NULL;
	if (!s) {
		model_cache_free(&models);
		litmus_test_free(t);
		return 1;
	}
	bool tty = isatty(fileno(in));
	fprintf(out, "weft -i: %s under %s; 'help' lists the commands.\n", t->name ? t->name : "?", model_name);
	show(s, t, model_name, out);
	char *line = NULL;
	size_t cap = 0;
	for (;;) {
		if (!read_command(in, out, tty, &line, &cap))
			break;
		char *p = trim(line);
		if (!*p || *p == '#')
			continue;
		char *cmd = p;
		char *rest = p + strcspn(p, " \t");
		if (*rest)
			*rest++ = '\0';
		rest = trim(rest);
		strbuf sb = { 0 };
		char *a, *b;
		if (!strcmp(cmd, "quit") || !strcmp(cmd, "exit") || !strcmp(cmd, "q")) {
			break;
		} else if (!strcmp(cmd, "help") || !strcmp(cmd, "?")) {
			fputs(help_text, out);
		} else if (!strcmp(cmd, "show")) {
			show(s, t, model_name, out);
		} else if (!strcmp(cmd, "commit") || !strcmp(cmd, "why")) {
			bool commit = cmd[0] == 'c';
			if (!two_words(rest, &a, &b))
				fprintf(out, "usage: %s EVENT PARAM\n", cmd);
			else if (!commit) {
				if (!session_why(s, a, b, &sb))
					sb_putc(&sb, '\n');
				fputs(sb.s ? sb.s : "", out);
			} else if (session_commit(s, a, b, &sb)) {
				fprintf(out, "committed %s %s\n", a, b);
				if (session_complete(s)) {
					strbuf st = { 0 };
					session_final_state(s, &st);
					fprintf(out, "complete: %s%s\n", st.s ? st.s : "",
						session_filtered(s) ? " (the test's filter drops this execution)" : "");
					sb_free(&st);
				}
			} else {
				fprintf(out, "%s\n", sb.s ? sb.s : "refused");
			}
		} else if (!strcmp(cmd, "undo")) {
			fputs(session_undo(s) ? "undone\n" : "nothing to undo\n", out);
		} else if (!strcmp(cmd, "reset")) {
			session_reset(s);
			fputs("reset: nothing committed\n", out);
		} else if (!strcmp(cmd, "auto")) {
			session_auto(s, &sb);
			fputs(sb.s ? sb.s : "", out);
		} else if (!strcmp(cmd, "goto")) {
			if (!session_goto(s, *rest ? rest : NULL, &sb, &d))
				fputs("goto: failed (see the message above)\n", out);
			else
				fputs(sb.s ? sb.s : "", out);
		} else if (!strcmp(cmd, "checks")) {
			session_checks(s, &sb);
			fputs(sb.s ? sb.s : "", out);
		} else if (!strcmp(cmd, "dot")) {
			char *save = NULL;
			char *file = strtok_r(rest, " \t", &save);
			a = file ? strtok_r(NULL, " \t", &save) : NULL;
			b = a ? strtok_r(NULL, " \t", &save) : NULL;
			if (!file || (a && !b) || (b && strtok_r(NULL, " \t", &save)))
				fputs("usage: dot FILE [EVENT PARAM]\n", out);
			else if (session_dot(s, file, a, b, &sb))
				fprintf(out, "wrote %s\n", file);
			else
				fprintf(out, "dot: %s\n", sb.s ? sb.s : "failed");
		} else {
			fprintf(out, "unknown command '%s' ('help' lists them)\n", cmd);
		}
		sb_free(&sb);
		fflush(out);
	}
	free(line);
	session_free(s);
	model_cache_free(&models);
	litmus_test_free(t);
	return 0;
}
