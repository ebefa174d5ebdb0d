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

/* Instruction `at` of th as a value: herd's instruction in memory, whose
 * label operand (a branch's, ADR's) is its offset from there, ".+8". */
static value instruction_as_value(litmus_test *t, const thread *th, int at)
{
	const char *text = th->instrs[at].text;
	const char *last = strrchr(text, ',');
	if (!last)
		last = strpbrk(text, " \t");
	if (last) {
		const char *name = last + 1;
		while (*name == ' ' || *name == '\t')
			name++;
		for (int k = 0; k < th->n_labels; k++)
			if (!strcmp(th->labels[k].name, name)) {
				char *s = xasprintf("%.*s%s.%+d", (int)(name - text), text, "",
				                    4 * (th->labels[k].instr - at));
				value v = prog_instr_value(t, s);
				free(s);
				return v;
			}
	}
	return prog_instr_value(t, text);
}

/* Without herd's ifetch variant, an AArch64 code location (a label used
 * as a value, ADR's, BL's return place) still holds its instruction:
 * reads of it see that value, as herd's do, and nothing is fetched. */
static void code_holds_its_instruction(litmus_test *t)
{
	for (int l = 0; l < t->n_locs; l++) {
		location *loc = &t->locs[l];
		if (loc->code_thread < 0 || loc->code_thread >= t->n_threads || !loc->code_label)
			continue;
		const thread *th = &t->threads[loc->code_thread];
		int at = -1;
		if (sscanf(loc->code_label, "#instr:%d", &at) != 1)
			for (int k = 0; k < th->n_labels && at < 0; k++)
				if (!strcmp(th->labels[k].name, loc->code_label))
					at = th->labels[k].instr;
		if (at >= 0 && at < th->n_instrs)
			loc->init = instruction_as_value(t, th, at);
	}
}

bool parse_check_ifetch(parser *p)
{
	litmus_test *t = p->t;
	if (!t->ifetch)
		code_holds_its_instruction(t);
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
