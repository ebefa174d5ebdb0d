/* bmc_absent.c — the bmc engine in a build without CaDiCaL (configure
 * found no libcadical-dev): the engine's name is known, and asking for it
 * says why it cannot run. */
#include "bmc.h"

bool bmc_run(const litmus_test *t, cat_model *m, const engine_opts *o, test_result *r, diag *d)
{
	(void)m;
	(void)o;
	(void)r;
	srcloc at = { t->file, 0, 0 };
	diag_error(d, at, "the bmc engine is not in this build: configure did not find CaDiCaL "
	           "(on Debian: apt-get install libcadical-dev, then configure again)");
	return false;
}
