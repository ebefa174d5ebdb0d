/* fuzz_results.c — libFuzzer target: the readers of saved results (-results:
 * weft's YAML layout line by line, any YAML through libyaml, herd logs),
 * then the join of what they read, strict and forced. */
#include "fuzz_run.h"
#include "suite/suite.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	diag d = fuzz_diag();
	char *text = fuzz_text(data, size);
	for (int force = 0; force < 2; force++) {
		saved_set s = { 0 };
		/* twice: the same results again are repeated shards */
		if (saved_read_text(&s, "fuzz.yaml", text, size, &d) && saved_read_text(&s, "again.log", text, size, &d))
			(void)saved_join(&s, force, &d);
		saved_free(&s);
	}
	free(text);
	return 0;
}
