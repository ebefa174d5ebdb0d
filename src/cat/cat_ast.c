/* cat_ast.c — releasing syntax trees (see cat_ast.h for who owns what). */
#include <stdlib.h>

#include "cat_ast.h"

void cat_pat_free(cat_pat *pt)
{
	for (int i = 0; i < pt->n; i++)
		free(pt->names[i]);
	free(pt->names);
	pt->names = NULL;
	pt->n = 0;
}

static void binds_free(cat_bind *b, int nb)
{
	for (int i = 0; i < nb; i++) {
		cat_pat_free(&b[i].pat);
		cat_ex_free(b[i].e);
	}
	free(b);
}

void cat_cond_free(cat_cond *c)
{
	if (!c)
		return;
	free(c->variant);
	cat_ex_free(c->a);
	cat_ex_free(c->b);
	cat_cond_free(c->l);
	cat_cond_free(c->r);
	free(c);
}

void cat_ex_free(cat_ex *e)
{
	if (!e)
		return;
	for (int i = 0; i < e->n; i++)
		cat_ex_free(e->kids[i]);
	free(e->kids);
	free(e->name);
	free(e->name2);
	cat_pat_free(&e->pat);
	binds_free(e->binds, e->nb);
	if (e->tags) {
		int ntags = e->n - 1 - (e->has_default ? 1 : 0);
		for (int i = 0; i < ntags; i++)
			free(e->tags[i]);
		free(e->tags);
	}
	cat_cond_free(e->cond);
	free(e);
}

void cat_ins_list_free(cat_ins_list *l);

void cat_ins_free(cat_ins *in)
{
	if (!in)
		return;
	binds_free(in->binds, in->nb);
	cat_ex_free(in->e);
	free(in->name);
	free(in->as_name);
	free(in->text);
	cat_pat_free(&in->pat);
	cat_ins_list_free(&in->body);
	cat_ins_list_free(&in->body2);
	cat_cond_free(in->cond);
	for (int i = 0; i < in->ntags; i++)
		free(in->tags[i]);
	free(in->tags);
	free(in);
}

void cat_ins_list_free(cat_ins_list *l)
{
	for (int i = 0; i < l->n; i++)
		cat_ins_free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void cat_file_free(cat_file *f)
{
	if (!f)
		return;
	cat_ins_list_free(&f->ins);
	free(f->title);
	free(f->path);
	free(f);
}
