/* execution.c — allocation of candidate executions. */
#include <stdlib.h>
#include <string.h>

#include "exec.h"

void execution_init(execution *x, const litmus_test *t, int n)
{
	memset(x, 0, sizeof *x);
	x->test = t;
	x->n = n;
	x->ev = xcalloc(n ? (size_t)n : 1, sizeof *x->ev);
	for (int i = 0; i < n; i++) {
		x->ev[i].thread = -1;
		x->ev[i].instr = -1;
		x->ev[i].op = -1;
		x->ev[i].loc = -1;
		x->ev[i].val = value_int(0);
	}
	x->po = brel_new(n);
	x->rf = brel_new(n);
	x->co = brel_new(n);
	x->addr = brel_new(n);
	x->data = brel_new(n);
	x->ctrl = brel_new(n);
	x->rmw = brel_new(n);
}

void execution_free(execution *x)
{
	free(x->ev);
	x->ev = NULL;
	brel_free(&x->po);
	brel_free(&x->rf);
	brel_free(&x->co);
	brel_free(&x->addr);
	brel_free(&x->data);
	brel_free(&x->ctrl);
	brel_free(&x->rmw);
	if (x->has_herd_deps)
		for (int k = 0; k < XD_N; k++)
			brel_free(&x->hd[k]);
	x->has_herd_deps = false;
	brel_free(&x->lock_co);
	x->n = 0;
}

void execution_init_herd_deps(execution *x)
{
	for (int k = 0; k < XD_N; k++)
		x->hd[k] = brel_new(x->n);
	x->has_herd_deps = true;
}

void execution_init_lock_co(execution *x)
{
	brel_free(&x->lock_co);
	x->lock_co = brel_new(x->n);
}

const char *herd_dep_name(int k)
{
	static const char *const names[XD_N] = {
		"addr", "data", "ctrl", "pick-addr-dep", "pick-data-dep", "pick-ctrl-dep", "pick-basic-dep",
	};
	return k >= 0 && k < XD_N ? names[k] : NULL;
}
