/* session_auto.c — `auto`: complete the execution from the current state,
 * depth first, each step the first enabled event (stores first, so that
 * loads find their stores committed) with its first allowed parameter,
 * backing up from a state where an event has no allowed parameter.  States
 * are judged whatever order their commits came in, so a state met again by
 * another order is not searched again. */
#include <stdlib.h>
#include <string.h>

#include "session_int.h"

/* States already searched (their keys), in an open-addressing table. */
typedef struct strset {
	size_t n, cap;
	char **slot;
} strset;

static size_t str_hash(const char *k)
{
	size_t h = 5381;
	for (; *k; k++)
		h = h * 33 + (unsigned char)*k;
	return h;
}

/* Adds key (taking it); false when it was there (key freed). */
static bool strset_add(strset *set, char *key)
{
	if (2 * (set->n + 1) > set->cap) {
		size_t cap = set->cap ? 2 * set->cap : 64;
		char **slot = xcalloc(cap, sizeof *slot);
		for (size_t i = 0; i < set->cap; i++)
			if (set->slot[i]) {
				size_t h = str_hash(set->slot[i]) & (cap - 1);
				while (slot[h])
					h = (h + 1) & (cap - 1);
				slot[h] = set->slot[i];
			}
		free(set->slot);
		set->slot = slot;
		set->cap = cap;
	}
	size_t h = str_hash(key) & (set->cap - 1);
	while (set->slot[h]) {
		if (!strcmp(set->slot[h], key)) {
			free(key);
			return false;
		}
		h = (h + 1) & (set->cap - 1);
	}
	set->slot[h] = key;
	set->n++;
	return true;
}

static void strset_free(strset *set)
{
	for (size_t i = 0; i < set->cap; i++)
		free(set->slot[i]);
	free(set->slot);
}


typedef struct search {
	session *s;
	strset seen;
	long states;
	bool gave_up, failed;
	sstate found;
	bool have;
	strbuf why;
} search;

/* Depth first from st: writes before reads, events in view order,
 * parameters in their order; a state searched before is not again. */
static bool dfs(search *sr, const sstate *st)
{
	if (sstate_complete(st)) {
		sstate_build(&sr->found, st->t, st->unroll, st->herd_deps, st->dec, st->n_dec);
		sr->have = true;
		return true;
	}
	if (!strset_add(&sr->seen, sstate_key(st)))
		return false;
	if (++sr->states > SESSION_AUTO_MAX_STATES) {
		sr->gave_up = true;
		return false;
	}
	for (int pass = 0; pass < 2; pass++)
		for (int v = 0; v < st->n_view; v++) {
			sref r = st->view[v];
			const sev *e = sstate_ev(st, r);
			if (!e || (e->kind == EV_WRITE) != (pass == 0) || !sstate_enabled(st, r))
				continue;
			sdecision *p;
			int n = sstate_params(st, r, &p);
			for (int i = 0; i < n && !sr->gave_up && !sr->failed; i++) {
				sstate next;
				sstate_extend(&next, st, &p[i]);
				sverdict vd;
				bool ok = sverdict_of(sr->s->m, &next, &vd, &sr->s->quiet, &sr->why);
				bool allowed = ok && vd.allowed;
				if (ok)
					sverdict_free(&vd);
				else
					sr->failed = true;
				bool done = allowed && dfs(sr, &next);
				sstate_free(&next);
				if (done) {
					free(p);
					return true;
				}
			}
			free(p);
		}
	return false;
}

bool session_auto(session *s, strbuf *out)
{
	if (sstate_complete(&s->cur)) {
		sb_puts(out, "complete already: nothing to do\n");
		return true;
	}
	search sr = { 0 };
	sr.s = s;
	int before = s->cur.n_dec;
	bool ok = dfs(&sr, &s->cur);
	if (ok) {
		session_set_state(s, sr.found.dec, sr.found.n_dec, true);
		sb_printf(out, "completed with %d commit%s:", s->n_commits - before, s->n_commits - before == 1 ? "" : "s");
		for (int i = before; i < s->n_commits; i++)
			sb_printf(out, "%s%s", i > before ? "; " : " ", s->commits[i]);
		sb_puts(out, "\n  State: ");
		session_final_state(s, out);
		sb_putc(out, '\n');
	} else if (sr.failed) {
		sb_printf(out, "error: %s\n", sr.why.s ? sr.why.s : "the model could not evaluate");
	} else if (sr.gave_up) {
		sb_printf(out, "gave up after %d states: the test is too big to search this way\n", SESSION_AUTO_MAX_STATES);
	} else {
		sb_puts(out, "blocked: no allowed execution extends the current state (undo, or reset)\n");
	}
	if (sr.have)
		sstate_free(&sr.found);
	strset_free(&sr.seen);
	sb_free(&sr.why);
	return ok;
}
