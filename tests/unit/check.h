/* check.h — the one assertion macro the C unit tests share.
 *
 * CHECK(cond, fmt, ...) counts a pass, or prints "FAIL file:line: message"
 * and counts a failure; test_summary() prints the closing line
 * "NAME: N passed, N failed" and gives main's exit status.  Each test
 * program includes this once (the counters are per program). */
#ifndef WEFT_TEST_CHECK_H
#define WEFT_TEST_CHECK_H

#include <stdio.h>

static int failures, passes;

#define CHECK(cond, ...)                                            \
	do {                                                        \
		if (cond) {                                         \
			passes++;                                   \
		} else {                                            \
			failures++;                                 \
			printf("FAIL %s:%d: ", __FILE__, __LINE__); \
			printf(__VA_ARGS__);                        \
			printf("\n");                               \
		}                                                   \
	} while (0)

static inline int test_summary(const char *name)
{
	printf("%s: %d passed, %d failed\n", name, passes, failures);
	return failures ? 1 : 0;
}

#endif
