/* fuzz_cat.c — libFuzzer target: a cat model read from the input (stdlib.cat
 * and includes from weft's cat/ folder), then both engines under it on two
 * fixed tests (a PPC one with a fence and a dependency, an x86 one with a
 * locked instruction), so evaluation of whatever the reader accepts is
 * exercised too. */
#include "fuzz_run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char ppc_test[] =
	"PPC MP+lwsync+addr\n"
	"{ 0:r2=x; 0:r4=y; 1:r2=y; 1:r4=x; 0:r1=1; }\n"
	" P0           | P1            ;\n"
	" stw r1,0(r2) | lwz r1,0(r2)  ;\n"
	" lwsync       | xor r3,r1,r1  ;\n"
	" stw r1,0(r4) | lwzx r5,r3,r4 ;\n"
	"exists (1:r1=1 /\\ 1:r5=0)\n";

static const char x86_test[] =
	"X86 SB+xchg\n"
	"{ x=0; y=0; }\n"
	" P0             | P1          ;\n"
	" MOV EAX,$1     | MOV [y],$1  ;\n"
	" XCHG [x],EAX   | MOV EBX,[x] ;\n"
	" MOV EBX,[y]    |             ;\n"
	"exists (0:EBX=0 /\\ 1:EBX=0)\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static litmus_test *tests[2];
	if (size > FUZZ_MAX_INPUT)
		return 0;
	diag d = fuzz_diag();
	if (!tests[0]) {
		tests[0] = litmus_parse_string("ppc.litmus", ppc_test, &d);
		tests[1] = litmus_parse_string("x86.litmus", x86_test, &d);
	}
	char *text = fuzz_text(data, size);
	cat_search_path sp = fuzz_search_path();
	cat_model *m = cat_model_load("fuzz.cat", &(cat_load_options){ .search = &sp, .text = text }, &d);
	if (m) {
		for (int i = 0; i < 2; i++)
			if (tests[i])
				fuzz_engines(tests[i], m, &d);
		cat_model_free(m);
	}
	free(text);
	return 0;
}
