/* fuzz_hwlog.c — libFuzzer target: the reader of -hardware files (an
 * mcompare table, or herd7/litmus7 logs with their histograms), then a
 * lookup of a test under a condition. */
#include "fuzz_run.h"
#include "report/report_extra.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > FUZZ_MAX_INPUT)
		return 0;
	diag d = fuzz_diag();
	char *text = fuzz_text(data, size);
	hw_log *h = hw_log_parse("fuzz.log", text, &d);
	if (h) {
		(void)hw_log_count(h);
		(void)hw_log_lookup(h, "MP");
		(void)hw_log_lookup_for(h, "MP", "exists (1:r1=1 /\\ 1:r3=0)");
		hw_log_free(h);
	}
	free(text);
	return 0;
}
