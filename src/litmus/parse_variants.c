/* parse_variants.c — a test's own variants: herd's `Variant=` and
 * `CacheType=` metadata lines.
 *
 * herd looks metadata keys up ignoring case (MiscParser.key_match), so
 * `variant=ifetch` counts as much as `Variant=ifetch`; the value is a list
 * of tags separated by blanks or commas.  ifetch (also spelt self:
 * instructions fetched from memory, which a test may overwrite) is read
 * here; the others (vmsa: page tables) in parse_vmsa.c, which refuses
 * those weft does not run.
 * CacheType's tags (DIC, IDC) are the cache features aarch64.cat tests
 * with `if "DIC"`: they become variants of the models for this test, DIC
 * bringing IDC with it as in herd (lib/cacheType.mll's get). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "parser.h"

static void add_model_variant(litmus_test *t, const char *name)
{
	for (int i = 0; i < t->n_model_variants; i++)
		if (!strcmp(t->model_variants[i], name))
			return;
	t->model_variants = xrealloc(t->model_variants, (size_t)(t->n_model_variants + 1) * sizeof *t->model_variants);
	t->model_variants[t->n_model_variants++] = xstrdup(name);
}

/* The next tag of a metadata value at *s (blanks and commas separate
 * them): its start, *n its length, *s moved past it; NULL at the end. */
static const char *next_tag(const char **s, size_t *n)
{
	*s += strspn(*s, " \t,");
	if (!**s)
		return NULL;
	const char *tag = *s;
	*n = strcspn(tag, " \t,");
	*s += *n;
	return tag;
}

/* The tags of a metadata value, each passed to take(); stops at the first
 * one take() refuses. */
static bool each_tag(parser *p, const char *value, srcloc at,
                     bool (*take)(parser *, const char *, const char *, srcloc))
{
	size_t n;
	for (const char *s = value, *tag; (tag = next_tag(&s, &n));) {
		char *one = xstrndup(tag, n);
		bool ok = take(p, one, value, at);
		free(one);
		if (!ok)
			return false;
	}
	return true;
}

static bool is_ifetch(const char *tag, size_t n)
{
	return (n == 6 && !strncasecmp(tag, "ifetch", n)) || (n == 4 && !strncasecmp(tag, "self", n));
}

static bool has_ifetch(const char *value)
{
	size_t n;
	for (const char *s = value, *tag; (tag = next_tag(&s, &n));)
		if (is_ifetch(tag, n))
			return true;
	return false;
}

/* ifetch here, the others (vmsa) in parse_vmsa.c.  A line with ifetch is
 * judged by its ifetch tag alone, which refuses any company. */
static bool take_variant(parser *p, const char *tag, const char *all, srcloc at)
{
	if (!has_ifetch(all))
		return parser_variant_tag(p, tag, at);
	if (!is_ifetch(tag, strlen(tag)))
		return true;
	if (!p->arch || !p->arch->ifetch) {
		diag_error(p->d, at, "herd variant 'ifetch' (Variant=) is supported for AArch64 tests only");
		return false;
	}
	if (strcspn(all, " \t,") != strlen(all)) {
		/* herd's aarch64.cat flags vmsa and ifetch together as not
		 * supported; weft runs each alone */
		diag_error(p->d, at, "herd variant '%s' (Variant=): ifetch is supported alone only", all);
		return false;
	}
	p->t->ifetch = true;
	add_model_variant(p->t, "ifetch");
	return true;
}

static bool take_cache_type(parser *p, const char *tag, const char *all, srcloc at)
{
	(void)all;
	/* herd's CacheType.get: DIC implies IDC (instruction-cache
	 * invalidation is not needed, so neither is data-cache cleaning), and
	 * aarch64.cat's `if "DIC" && "IDC"` counts on it */
	if (!strcasecmp(tag, "DIC") || !strcasecmp(tag, "IDC")) {
		if (!strcasecmp(tag, "DIC"))
			add_model_variant(p->t, "DIC");
		add_model_variant(p->t, "IDC");
		return true;
	}
	diag_error(p->d, at, "unknown cache type '%s' (CacheType= takes DIC and IDC)", tag);
	return false;
}

bool parse_test_variants(parser *p, const meta *m, srcloc at)
{
	if (!strcasecmp(m->key, "Variant"))
		return each_tag(p, m->value, at, take_variant);
	if (!strcasecmp(m->key, "CacheType"))
		return each_tag(p, m->value, at, take_cache_type);
	return true;
}

bool parse_check_ifetch(parser *p)
{
	const litmus_test *t = p->t;
	for (int i = 0; i < p->n_label_uses; i++) {
		const location *l = &t->locs[p->label_use_loc[i]];
		bool found = false;
		if (l->code_thread < t->n_threads) {
			const thread *th = &t->threads[l->code_thread];
			for (int k = 0; k < th->n_labels && !found; k++)
				found = !strcmp(th->labels[k].name, l->code_label) && th->labels[k].instr < th->n_instrs;
		}
		if (!found) {
			diag_error(p->d, p->label_use_at[i], "'%s' is not the label of an instruction of thread P%d",
			           l->code_label, l->code_thread);
			return false;
		}
	}
	return true;
}
