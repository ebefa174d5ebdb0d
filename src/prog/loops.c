/* loops.c — which of a thread's loops are await loops (prog.h's
 * prog_find_loops): the shapes the await engine runs as one iteration, the
 * one that exits, where every other engine unrolls them.
 *
 * A loop is a conditional backward branch b and the ops [h, b] between its
 * target h and it.  Whatever the front-end (C's while, an assembly retry
 * or spin loop), it is an await loop when an iteration that goes round
 * again changes nothing the next one sees:
 *   - it writes no memory, takes no lock, makes no choice of herd's;
 *   - no register it reads before writing is written in it (no value is
 *     carried from one iteration to the next, as a counter is);
 *   - its test depends on a value read in the iteration (else it spins on
 *     registers: a counted loop);
 *   - it is entered at one place: h, or one op of its own (C's while jumps
 *     to its test first: that first pass is no iteration), and left only
 *     by b falling through, with no other loop inside.
 * A confirmation-CAS loop is one whose writes are all conditional (a
 * store-conditional, or a compare-and-swap's write its way can skip): an
 * iteration that goes round again failed to write, and so wrote nothing.
 * The await engine checks that when it runs (await_thread.c). */
#include <stdlib.h>
#include <string.h>

#include "prog.h"

static bool is_backward_test(const op *o, int k)
{
	return o->kind == OP_BRANCH && o->cond != BR_ALWAYS && o->cond != BR_EITHER && o->cond != BR_INDIRECT &&
	       o->target <= k;
}

static bool writes_memory(const op *o)
{
	return o->kind == OP_STORE || o->kind == OP_STCOND;
}

/* The registers op o reads, into regs (at most 4); returns their number. */
static int regs_read(const op *o, int *regs)
{
	int n = 0;
	const operand *ops[] = { &o->a, &o->b, &o->addr.base, &o->addr.index };
	bool has_addr = o->kind == OP_LOAD || o->kind == OP_STORE || o->kind == OP_STCOND ||
	                (o->kind == OP_FENCE && (o->flags & ACC_LOCATED));
	for (int i = 0; i < 4; i++)
		if (ops[i]->kind == OPND_REG && (i < 2 || has_addr))
			regs[n++] = ops[i]->reg;
	return n;
}

/* A branch of [h, b) that leaves the loop, or an inner loop: why the loop
 * is no await loop, or NULL. */
static const char *leaves(const thread *th, int h, int b)
{
	for (int k = h; k < b; k++) {
		const op *o = &th->ops[k];
		if (o->kind != OP_BRANCH)
			continue;
		if (o->cond == BR_INDIRECT)
			return "a branch to where a register says";
		if (o->target <= k)
			return "a loop inside it";
		if (o->target > b + 1)
			return "a way out other than its test";
	}
	return NULL;
}

/* Where the loop is entered: h, or one op of (h, b] (*mid); NULL, or why
 * not one place. */
static const char *entry(const thread *th, int h, int b, int *mid)
{
	bool at_head = h == 0 || !(th->ops[h - 1].kind == OP_BRANCH && th->ops[h - 1].cond == BR_ALWAYS);
	*mid = -1;
	for (int k = 0; k < th->n_ops; k++) {
		const op *o = &th->ops[k];
		if (o->kind != OP_BRANCH || (k >= h && k <= b) || o->cond == BR_INDIRECT)
			continue;
		if (o->target == h)
			at_head = true;
		else if (o->target > h && o->target <= b) {
			if (*mid >= 0 && *mid != o->target)
				return "entered at two places";
			*mid = o->target;
		}
	}
	if (at_head && *mid >= 0)
		return "entered at two places";
	return NULL;
}

/* What the body writes: NULL when nothing or only conditional writes
 * (*cas set); else why it is no await loop. */
static const char *body_writes(const thread *th, int h, int b, bool *cas)
{
	*cas = false;
	for (int k = h; k < b; k++) {
		const op *o = &th->ops[k];
		if (o->kind == OP_CHOICE)
			return "a choice of herd's in it";
		if (o->kind == OP_TLBI || (o->kind == OP_FENCE && (o->flags & ACC_LOCATED)))
			return "a lock or TLB operation in it";
		if (!writes_memory(o))
			continue;
		bool skipped = o->kind == OP_STCOND;
		for (int j = h; j < k && !skipped; j++)
			skipped = th->ops[j].kind == OP_BRANCH && th->ops[j].target > k && th->ops[j].target <= b + 1;
		if (!skipped)
			return "it writes memory in every iteration";
		*cas = true;
	}
	return NULL;
}

/* Registers carried from one iteration to the next, and whether b's test
 * depends on a value read in the iteration: a walk of [h, b] in order,
 * forward branches merging what is surely written (must) and what may be
 * tainted by a read. */
static const char *dataflow(const thread *th, int h, int b)
{
	int n = th->n_regs, len = b - h + 2;
	bool *must = malloc((size_t)len * (size_t)(n ? n : 1) * sizeof *must);
	bool *taint = calloc((size_t)len * (size_t)(n ? n : 1), sizeof *taint);
	bool *reached = calloc((size_t)len, sizeof *reached);
	bool *written = calloc((size_t)(n ? n : 1), sizeof *written);
	bool *exposed = calloc((size_t)(n ? n : 1), sizeof *exposed);
	for (int i = 0; i < len * n; i++)
		must[i] = true;
	for (int r = 0; r < n; r++)
		must[r] = false;
	reached[0] = true;
	const char *why = NULL;
	for (int k = h; k <= b; k++) {
		int i = k - h;
		if (!reached[i])
			continue;
		bool *m = &must[i * n], *t = &taint[i * n];
		const op *o = &th->ops[k];
		int rd[4], nr = regs_read(o, rd);
		bool tainted = false;
		for (int j = 0; j < nr; j++) {
			if (rd[j] < 0 || rd[j] >= n)
				continue;
			exposed[rd[j]] |= !m[rd[j]];
			tainted |= t[rd[j]];
		}
		if (k == b) {
			if (!tainted)
				why = "its test reads no value read in the loop";
			break;
		}
		if (o->dst >= 0 && o->dst < n) {
			written[o->dst] = true;
			m[o->dst] = true;
			t[o->dst] = o->kind == OP_LOAD || o->kind == OP_STCOND || (o->kind == OP_ALU && tainted);
		}
		/* what flows on: to the next op, and to a forward target */
		int next[2], nn = 0;
		if (!(o->kind == OP_BRANCH && o->cond == BR_ALWAYS))
			next[nn++] = i + 1;
		if (o->kind == OP_BRANCH && o->target > k && o->target <= b + 1 && o->target - h != i + 1)
			next[nn++] = o->target - h;
		for (int j = 0; j < nn; j++) {
			int d = next[j];
			if (d >= len)
				continue;
			bool *dm = &must[d * n], *dt = &taint[d * n];
			for (int r = 0; r < n; r++) {
				dm[r] = reached[d] ? dm[r] && m[r] : m[r];
				dt[r] = reached[d] ? dt[r] || t[r] : t[r];
			}
			reached[d] = true;
		}
	}
	for (int r = 0; r < n && !why; r++)
		if (written[r] && exposed[r])
			why = "a register carries a value from one iteration to the next";
	free(must);
	free(taint);
	free(reached);
	free(written);
	free(exposed);
	return why;
}

static void classify(const thread *th, prog_loop *l)
{
	bool cas = false;
	const char *why = leaves(th, l->head, l->branch);
	if (!why)
		why = entry(th, l->head, l->branch, &l->mid_entry);
	if (!why)
		why = body_writes(th, l->head, l->branch, &cas);
	if (!why)
		why = dataflow(th, l->head, l->branch);
	l->kind = why ? LOOP_OTHER : cas ? LOOP_CAS : LOOP_AWAIT;
	l->why = why;
}

int prog_find_loops(const thread *th, prog_loop **out)
{
	int n = 0;
	*out = NULL;
	for (int k = 0; k < th->n_ops; k++)
		if (is_backward_test(&th->ops[k], k))
			n++;
	if (!n)
		return 0;
	prog_loop *l = calloc((size_t)n, sizeof *l);
	int i = 0;
	for (int k = 0; k < th->n_ops; k++) {
		if (!is_backward_test(&th->ops[k], k))
			continue;
		l[i].head = th->ops[k].target;
		l[i].branch = k;
		classify(th, &l[i]);
		i++;
	}
	*out = l;
	return n;
}

const char *prog_loop_kind_name(enum loop_kind k)
{
	return k == LOOP_AWAIT ? "await" : k == LOOP_CAS ? "cas" : "unrolled";
}
