/* explain_events.c — names, descriptions and edge labels of an execution's
 * events (see explain_int.h), and copies of executions. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "explain_int.h"

char *event_letter_name(int k)
{
	char buf[16];
	int len = 0;
	k++;
	while (k > 0 && len < (int)sizeof buf - 1) {
		k--;
		buf[len++] = (char)('a' + k % 26);
		k /= 26;
	}
	char *s = xmalloc((size_t)len + 1);
	for (int i = 0; i < len; i++)
		s[i] = buf[len - 1 - i];
	s[len] = '\0';
	return s;
}

void event_names_init(event_names *nm, const execution *x)
{
	nm->n = x->n;
	nm->name = xcalloc((size_t)(x->n ? x->n : 1), sizeof *nm->name);
	int k = 0;
	for (int e = 0; e < x->n; e++) {
		const event *ev = &x->ev[e];
		if (ev->flags & EVF_INIT)
			nm->name[e] = xasprintf("i(%s)", ev->loc >= 0 && ev->loc < x->test->n_locs
							       ? x->test->locs[ev->loc].name : "?");
		else
			nm->name[e] = event_letter_name(k++);
	}
}

void event_names_free(event_names *nm)
{
	for (int i = 0; i < nm->n; i++)
		free(nm->name[i]);
	free(nm->name);
	nm->name = NULL;
	nm->n = 0;
}

static void fence_name(const char *fence, strbuf *sb)
{
	for (const char *p = fence ? fence : "fence"; *p; p++)
		sb_putc(sb, (char)tolower((unsigned char)*p));
}

void event_describe(const execution *x, int e, strbuf *sb)
{
	const event *ev = &x->ev[e];
	const litmus_test *t = x->test;
	bool atomic = (ev->flags & (EVF_ATOMIC | EVF_EXCL)) != 0;
	switch (ev->kind) {
	case EV_WRITE:
	case EV_READ:
		sb_printf(sb, "%c%s %s=", ev->kind == EV_WRITE ? 'W' : 'R', atomic ? "*" : "",
			  ev->loc >= 0 && ev->loc < t->n_locs ? t->locs[ev->loc].name : "?");
		value_print(t, ev->val, sb);
		break;
	case EV_FENCE:
		sb_puts(sb, "F ");
		fence_name(ev->fence, sb);
		break;
	case EV_BRANCH:
		sb_puts(sb, ev->flags & EVF_COMMIT ? "B commit" : "B");
		break;
	case EV_FAULT:
		sb_printf(sb, "Fault(%s) %s", vmsa_fault_name((int)ev->val.num),
		          ev->loc >= 0 && ev->loc < t->n_locs ? t->locs[ev->loc].name : "?");
		break;
	case EV_TLBI:
		sb_printf(sb, "TLBI %s", ev->fence ? ev->fence : "?");
		if (ev->loc >= 0 && ev->loc < t->n_locs)
			sb_printf(sb, " tlb_%s", t->locs[ev->loc].name);
		break;
	}
	if (ev->flags & EVF_IMP)
		sb_puts(sb, " (implicit)");
	if (ev->flags & EVF_INIT)
		sb_puts(sb, " (init)");
	else
		sb_printf(sb, " (P%d)", ev->thread);
}

brel execution_fr(const execution *x)
{
	brel inv = brel_inverse(&x->rf);
	brel fr = brel_seq(&inv, &x->co);
	brel_free(&inv);
	return fr;
}

void edge_labels(const execution *x, const brel *fr, int a, int b, strbuf *sb)
{
	bool internal = x->ev[a].thread == x->ev[b].thread && x->ev[a].thread >= 0;
	bool any = false;
#define LABEL(s) do { if (any) sb_putc(sb, ','); sb_puts(sb, (s)); any = true; } while (0)
	if (brel_has(&x->rf, a, b))
		LABEL(internal ? "rfi" : "rfe");
	if (brel_has(&x->co, a, b))
		LABEL(internal ? "coi" : "coe");
	if (fr && brel_has(fr, a, b))
		LABEL(internal ? "fri" : "fre");
	/* the lock order, when the session chose it */
	if (x->lock_co.w && brel_has(&x->lock_co, a, b))
		LABEL("lock");
	if (brel_has(&x->po, a, b)) {
		LABEL("po");
		/* the fences between, each name once */
		for (int f = 0; f < x->n; f++) {
			if (x->ev[f].kind != EV_FENCE || !brel_has(&x->po, a, f) || !brel_has(&x->po, f, b))
				continue;
			bool seen = false;
			for (int g = 0; g < f && !seen; g++)
				seen = x->ev[g].kind == EV_FENCE && brel_has(&x->po, a, g) && brel_has(&x->po, g, b) &&
				       x->ev[g].fence && x->ev[f].fence && !strcmp(x->ev[g].fence, x->ev[f].fence);
			if (!seen) {
				strbuf one = { 0 };
				fence_name(x->ev[f].fence, &one);
				LABEL(one.s);
				sb_free(&one);
			}
		}
	}
	if (brel_has(&x->addr, a, b))
		LABEL("addr");
	if (brel_has(&x->data, a, b))
		LABEL("data");
	if (brel_has(&x->ctrl, a, b))
		LABEL("ctrl");
	if (brel_has(&x->rmw, a, b))
		LABEL("rmw");
#undef LABEL
}

bool edge_via_redundant(const char *labels, const char *via)
{
	size_t vlen = strlen(via);
	for (const char *p = labels; *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		if ((len == vlen && !strncmp(p, via, len)) || (vlen == 2 && len == 3 && !strncmp(p, via, 2)))
			return true;
		p += len + (comma != NULL);
	}
	return false;
}

void execution_copy(execution *dst, const execution *src)
{
	execution_init(dst, src->test, src->n);
	memcpy(dst->ev, src->ev, (size_t)src->n * sizeof *src->ev);
	brel *to[] = { &dst->po, &dst->rf, &dst->co, &dst->addr, &dst->data, &dst->ctrl, &dst->rmw };
	const brel *from[] = { &src->po, &src->rf, &src->co, &src->addr, &src->data, &src->ctrl, &src->rmw };
	for (size_t i = 0; i < sizeof to / sizeof *to; i++)
		memcpy(to[i]->w, from[i]->w, (size_t)src->n * (size_t)from[i]->words * sizeof *from[i]->w);
	if (src->lock_co.w) {
		execution_init_lock_co(dst);
		memcpy(dst->lock_co.w, src->lock_co.w, (size_t)src->n * (size_t)src->lock_co.words * sizeof *src->lock_co.w);
	}
	/* a catdep model reads herd's dependency relations from these */
	if (src->has_herd_deps) {
		execution_init_herd_deps(dst);
		for (int k = 0; k < XD_N; k++)
			memcpy(dst->hd[k].w, src->hd[k].w,
			       (size_t)src->n * (size_t)src->hd[k].words * sizeof *src->hd[k].w);
	}
}
