/* provenance.c — a run's identity, and where its models came from. */
#define _XOPEN_SOURCE 700   /* realpath */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "provenance.h"

/* The options that change what a test's document says. */
static char *result_options(const weft_options *o)
{
	strbuf b = { 0 };
	sb_printf(&b, "-unroll %d", o->unroll > 0 ? o->unroll : 2);
	if (o->timeout > 0)
		sb_printf(&b, " -timeout %g", o->timeout);
	if (o->maxmem_mb > 0)
		sb_printf(&b, " -maxmem %ld", o->maxmem_mb);
	/* they change the model, or the condition: a -skipchecks run's
	 * "power" column is not power's (the fingerprint is the model file's) */
	for (int i = 0; i < o->skipchecks.n; i++)
		sb_printf(&b, " -skipchecks %s", o->skipchecks.v[i]);
	if (o->through)
		sb_puts(&b, " -through all");
	if (o->strict_skip)
		sb_puts(&b, " -strictskip true");
	for (int i = 0; i < o->conds.n; i++)
		sb_printf(&b, " -conds %s", o->conds.v[i]);
	return sb_take(&b);
}

void provenance_init(run_provenance *p, const weft_options *o, const test_plan *plan, const run_models *labels,
		     model_cache *c)
{
	memset(p, 0, sizeof *p);
	p->options = result_options(o);
	p->n_models = labels->n;
	p->models = xcalloc((size_t)labels->n + 1, sizeof *p->models);
	/* Loaded already: model_cache_get says nothing again.  Only a run
	 * loads its models: -dump and -check of a test name no model, and an
	 * architecture's default missing from the search path (aarch64.cat)
	 * is no error there. */
	diag d = { .out = stderr };
	for (int k = 0; o->action == ACT_RUN && k < labels->n; k++) {
		model_origin *m = &p->models[k];
		m->name = labels->name[k];
		cat_model *cm = model_cache_get(c, m->name, &d);
		if (!cm)
			continue;
		const char *file = cat_model_file(cm);
		char abs[PATH_MAX];
		m->file = xstrdup(realpath(file, abs) ? abs : file);
		memcpy(m->fingerprint, cat_model_fingerprint(cm), 33);
	}
	if (labels->chosen) {
		p->labels = xcalloc((size_t)labels->n + 1, sizeof *p->labels);
		for (int k = 0; k < labels->n; k++)
			p->labels[k] = labels->label[k];
	}
	/* The id: every field but the shard, so that all shards share it.  A
	 * run of the architectures' defaults names no model here: which
	 * defaults a shard meets depends on its slice. */
	strbuf b = { 0 };
	sb_printf(&b, "weft %s\nengine %s\noptions %s\n", PACKAGE_VERSION, o->engine, p->options);
	for (int k = 0; labels->chosen && k < labels->n; k++)
		sb_printf(&b, "model %s %s\n", labels->label[k],
			  p->models[k].file ? p->models[k].fingerprint : "not-loaded");
	sb_printf(&b, "selected %d %s\n", plan->selected, plan->selection_md5);
	md5_hex(b.s, b.len, p->id);
	sb_free(&b);
	p->info = (doc_run_info){ p->id, PACKAGE_VERSION, o->engine, p->options,
				   labels->chosen ? labels->n : 0, p->labels, plan->selected,
				   o->shard_k, o->shard_n };
}

void provenance_free(run_provenance *p)
{
	for (int k = 0; k < p->n_models; k++)
		free(p->models[k].file);
	free(p->models);
	free(p->labels);
	free(p->options);
	memset(p, 0, sizeof *p);
}

const model_origin *provenance_model(const run_provenance *p, const char *name)
{
	if (!name)
		return NULL;
	/* By identity first: two -model arguments may be written alike. */
	for (int k = 0; k < p->n_models; k++)
		if (p->models[k].name == name)
			return &p->models[k];
	for (int k = 0; k < p->n_models; k++)
		if (!strcmp(p->models[k].name, name))
			return &p->models[k];
	return NULL;
}
