/* arch_registry.c — the list of architectures, and the one place that
 * knows them by name (arch_find: a test's header word).
 *
 * A new architecture is one folder under src/arch/ and one line here
 * (docs/adding-an-architecture.md); the build also needs the folder's
 * local.mk named in src/arch/arch_tests.mk, as automake lists sources. */
#include <string.h>

#include "arch.h"

/* One line an architecture, `X(its table) \`, anywhere in the list: its
 * order is that of the model probes and of the list an unknown
 * architecture's message gives. */
#define EACH_ARCH(X) \
	X(arch_ppc)     \
	X(arch_x86)     \
	X(arch_x86_64)  \
	X(arch_riscv)   \
	X(arch_aarch64) \
	X(arch_c)       \
	/* end of the list */

#define DECLARE(table) extern const arch table;
#define ADDRESS(table) &table,
EACH_ARCH(DECLARE)

static const arch *const all_archs[] = { EACH_ARCH(ADDRESS) NULL };

const arch *arch_find(const char *name)
{
	for (int i = 0; all_archs[i]; i++)
		if (!strcmp(all_archs[i]->name, name))
			return all_archs[i];
	return NULL;
}

const arch *const *arch_all(void)
{
	return all_archs;
}
