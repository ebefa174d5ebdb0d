/* aarch64_sysreg.c — herd 7.58's AArch64 system registers (its
 * AArch64Base.sysreg): the names MRS and MSR take, which init blocks and
 * conditions name as registers of a thread, their order in a state, and
 * where herd's NV2 variant keeps some of them in memory.  NZCV, which MRS
 * and MSR also name, is PSTATE's flags (aarch64_bits.c), not one of these.
 */
#include <string.h>
#include <strings.h>

#include "aarch64.h"

/* herd's spelling and order (the constructors' order, which its states
 * follow); the byte offset from VNCR_EL2 of those NV2 keeps in memory
 * (herd's sysregs_map), -1 for the others */
static const struct { const char *name; int nv2_offset; } sysregs[] = {
	{ "CTR_EL0", -1 },      { "DCIZ_EL0", -1 },     { "MDCCSR_EL0", -1 },
	{ "DBGDTR_EL0", -1 },   { "DBGDTRRX_EL0", -1 }, { "DBGDTRTX_EL0", -1 },
	{ "ELR_EL1", 0x230 },   { "ESR_EL1", 0x138 },   { "TFSR_ELx", -1 },
	{ "VNCR_EL2", 0xB0 },
};

int a64_sysreg(const char *name)
{
	for (size_t k = 0; k < sizeof sysregs / sizeof sysregs[0]; k++)
		if (!strcasecmp(name, sysregs[k].name))
			return (int)k;
	return -1;
}

const char *a64_sysreg_name(int k)
{
	return sysregs[k].name;
}

int a64_sysreg_nv2_offset(int k)
{
	return sysregs[k].nv2_offset;
}

int a64_sysreg_count(void)
{
	return (int)(sizeof sysregs / sizeof sysregs[0]);
}
