/* fuzz_expect.c — libFuzzer target: the reader of -expect files (one YAML
 * mapping of expectations, or a stream of weft's own -format yaml result
 * documents). */
#include "fuzz_run.h"
#include "suite/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	diag d = fuzz_diag();
	expect_set *s = expect_new();
	expect_read_text(s, "fuzz.yaml", (const char *)data, size, &d);
	(void)expect_count(s);
	expect_free(s);
	return 0;
}
