/* fuzz_litmus.c — libFuzzer target: the litmus reader, then, on a small test
 * it accepts, both engines under weft's sc model and the architecture's
 * default one.  C tests take their primitives from weft's own
 * cat/kernel-primitives.def, as on the command line without -macros, so
 * that a mutated C test gets past its calls into the C reader, the macro
 * expansion and the lowering. */
#include "fuzz_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static cat_model *models[2];
	if (size > FUZZ_MAX_INPUT)
		return 0;
	diag d = fuzz_diag();
	if (!models[0]) {
		cat_search_path sp = fuzz_search_path();
		models[0] = cat_model_load("sc", &(cat_load_options){ .search = &sp }, &d);
		models[1] = cat_model_load("power", &(cat_load_options){ .search = &sp }, &d);
	}
	char *text = fuzz_text(data, size);
	litmus_test *t = litmus_parse_string_macros("fuzz.litmus", text, WEFT_SOURCE_CATDIR "/kernel-primitives.def", &d);
	if (t && fuzz_small(t))
		for (int i = 0; i < 2; i++)
			if (models[i])
				fuzz_engines(t, models[i], &d);
	if (t)
		litmus_test_free(t);
	free(text);
	return 0;
}
