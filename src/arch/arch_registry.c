/* arch_registry.c — the list of architectures.  Adding one is adding its
 * file and one line here. */
#include <string.h>

#include "arch.h"

extern const arch arch_ppc;
extern const arch arch_x86;
extern const arch arch_x86_64;
extern const arch arch_riscv;
extern const arch arch_aarch64;
extern const arch arch_c;

static const arch *const all_archs[] = {
	&arch_ppc,
	&arch_x86,
	&arch_x86_64,
	&arch_riscv,
	&arch_aarch64,
	&arch_c,
	NULL,
};

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
