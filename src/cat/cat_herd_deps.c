/* cat_herd_deps.c — herd's dependency relations in a `catdep` model.
 *
 * herd's AArch64 model (aarch64deps.cat) defines data, addr, ctrl and the
 * pick-* relations from herd's register events (rf-reg, Rreg, DATA, BCC)
 * and intra-instruction edges (iico_data, iico_ctrl).  weft builds no
 * register events: building them would make each execution several times
 * larger (two or three register events per instruction, against about
 * one memory event), every relation of the model as many times wider,
 * and rsmc would have to commit them.  Every path of register events
 * those definitions follow starts at a memory read and ends at a memory
 * or branch event, so the relations themselves are over events weft does
 * build: the engines compute them by the same rules (src/engine/herd_deps.c,
 * exec.h's enum herd_dep).
 *
 * So in a catdep model a `let` whose name is one of those relations and
 * whose definition reads herd's register events is marked here; the
 * evaluator takes the execution's relation for it (cat_eval.c) when the
 * engine built them (AArch64), and otherwise evaluates the definition,
 * which then fails naming the register set.  Lets that only those read
 * (dtrm, basic-dep, ADDR, pick-dtrm) are never needed.
 */
#include <stdlib.h>
#include <string.h>

#include "cat_int.h"

static bool slot_reads_registers(const cat_model *m, int s, unsigned char *memo);

static bool ex_reads_registers(const cat_model *m, const cat_ex *e, unsigned char *memo)
{
	if (!e)
		return false;
	if (e->kind == CE_VAR) {
		if (e->ref == REF_DYN && cat_herd_register_name(e->name))
			return true;
		if (e->ref == REF_GLOBAL && slot_reads_registers(m, e->index, memo))
			return true;
	}
	for (int i = 0; i < e->n; i++)
		if (ex_reads_registers(m, e->kids[i], memo))
			return true;
	for (int i = 0; i < e->nb; i++)
		if (ex_reads_registers(m, e->binds[i].e, memo))
			return true;
	return false;
}

/* memo: 0 unknown, 1 being looked at (a rec group: no), 2 no, 3 yes */
static bool slot_reads_registers(const cat_model *m, int s, unsigned char *memo)
{
	if (memo[s] == 1 || memo[s] == 2)
		return false;
	if (memo[s] == 3)
		return true;
	memo[s] = 1;
	const cat_slot *sl = &m->slots[s];
	bool yes = false;
	switch (sl->kind) {
	case SLOT_LET:
	case SLOT_REC:
	case SLOT_CHOICE:
		yes = ex_reads_registers(m, sl->def, memo);
		break;
	case SLOT_PROJ:
		yes = slot_reads_registers(m, sl->of, memo);
		break;
	default:
		break;
	}
	memo[s] = yes ? 3 : 2;
	return yes;
}

void cat_mark_herd_deps(cat_model *m)
{
	for (int s = 0; s < m->nslots; s++)
		m->slots[s].herd_dep = -1;
	if (!m->catdep)
		return;
	unsigned char *memo = xcalloc((size_t)m->nslots + 1, 1);
	for (int s = 0; s < m->nslots; s++) {
		cat_slot *sl = &m->slots[s];
		if (sl->kind != SLOT_LET || !sl->name)
			continue;
		for (int k = 0; k < XD_N; k++)
			if (!strcmp(sl->name, herd_dep_name(k)) && slot_reads_registers(m, s, memo))
				sl->herd_dep = k;
	}
	free(memo);
}
