/* cat_c11.c — herd's C event sets that are not one fence's or one
 * annotation's, which its C11 models (c11_base.cat, rc11.cat,
 * simple-c11.cat) read.
 *
 * herd's C actions (herd/CAction.ml, arch_sets) carry a memory order or
 * an annotation, and herd names these sets for a model:
 *   RLX ACQ REL ACQ_REL SC CON  the accesses (and fences) of that memory
 *                               order (memory_order_relaxed, ...)
 *   A                           the atomic memory accesses: those with a
 *                               memory order (a fence is not one)
 *   NA                          every other event: plain accesses, the
 *                               initial writes, fences, locks
 *   annot                       the accesses and fences with an
 *                               annotation (a kernel tag such as once)
 *   LK                          the lock events (is_lock): C11's
 *                               successful locks LS and the kernel's
 *                               LKR, LKW (weft's fences of those names)
 * In weft an op of memory order X carries the annotation named X (the
 * C front-end's, arch.h's annots), so RLX ... CON are the events of that
 * annotation; the other C tests (plain accesses, a .def's tags) have them
 * empty, A empty and NA everything, as herd has them.  The names are
 * bound at load time for every test; on another architecture's test they
 * are empty (A is AArch64's acquire annotation there: not this file's).
 */
#include <string.h>

#include "cat_int.h"
#include "../arch/arch.h"

static const char *const c11_orders[] = { "RLX", "ACQ", "REL", "ACQ_REL", "SC", "CON" };
#define N_ORDERS (sizeof c11_orders / sizeof c11_orders[0])

bool cat_c11_set_name(const char *name)
{
	for (size_t i = 0; i < N_ORDERS; i++)
		if (!strcmp(c11_orders[i], name))
			return true;
	return !strcmp(name, "A") || !strcmp(name, "NA") || !strcmp(name, "annot") || !strcmp(name, "LK");
}

static bool is_lock_event(const event *ev)
{
	return ev->kind == EV_FENCE && ev->fence &&
	       (!strcmp(ev->fence, "LS") || !strcmp(ev->fence, "LKR") || !strcmp(ev->fence, "LKW"));
}

static bool is_c_test(const execution *x)
{
	return x->test && x->test->arch && x->test->arch->program == ARCH_PROGRAM_C;
}

/* The annotation bits of the test that name a memory order. */
static unsigned order_bits(const litmus_test *t)
{
	unsigned bits = 0;
	const char *a;
	for (int i = 0; (a = litmus_annot_name(t, i)); i++)
		for (size_t k = 0; k < N_ORDERS; k++)
			if (!strcmp(a, c11_orders[k]))
				bits |= 1u << i;
	return bits;
}

static unsigned op_annot(const execution *x, const event *ev)
{
	if (ev->thread < 0 || ev->op < 0 || ev->thread >= x->test->n_threads ||
	    ev->op >= x->test->threads[ev->thread].n_ops)
		return 0;
	return x->test->threads[ev->thread].ops[ev->op].annot;
}

bool cat_c11_set(const execution *x, const char *name, uint64_t *set)
{
	bool a = !strcmp(name, "A"), na = !strcmp(name, "NA"), annot = !strcmp(name, "annot");
	bool lk = !strcmp(name, "LK");
	if (!(a || na || annot || lk) || !is_c_test(x))
		return false;
	unsigned orders = order_bits(x->test);
	for (int i = 0; i < x->n; i++) {
		const event *ev = &x->ev[i];
		unsigned bits = op_annot(x, ev);
		bool mem = ev->kind == EV_READ || ev->kind == EV_WRITE;
		bool atomic = mem && (bits & orders);
		bool in = lk ? is_lock_event(ev) : a ? atomic : na ? !atomic : (bits & ~orders) != 0;
		if (in)
			set[i >> 6] |= (uint64_t)1 << (i & 63);
	}
	return true;
}
