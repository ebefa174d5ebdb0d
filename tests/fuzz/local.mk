# tests/fuzz: libFuzzer targets, one per reader (./configure --enable-fuzzing
# CC=clang; scripts/fuzz builds and runs them).  Inputs that ever crashed or
# hung are kept in tests/fuzz/regress/TARGET/ and replayed by
# tests/test_fuzz_regress.py in every build.
if FUZZING
noinst_PROGRAMS = tests/fuzz/fuzz_litmus tests/fuzz/fuzz_cat tests/fuzz/fuzz_expect tests/fuzz/fuzz_hwlog \
	tests/fuzz/fuzz_results tests/fuzz/fuzz_serve
FUZZ_LDADD = libweft.a $(WEFT_LIBS)
tests_fuzz_fuzz_litmus_SOURCES = tests/fuzz/fuzz_litmus.c tests/fuzz/fuzz_run.h
tests_fuzz_fuzz_litmus_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_litmus_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_cat_SOURCES = tests/fuzz/fuzz_cat.c tests/fuzz/fuzz_run.h
tests_fuzz_fuzz_cat_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_cat_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_expect_SOURCES = tests/fuzz/fuzz_expect.c tests/fuzz/fuzz_run.h
tests_fuzz_fuzz_expect_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_expect_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_hwlog_SOURCES = tests/fuzz/fuzz_hwlog.c tests/fuzz/fuzz_run.h
tests_fuzz_fuzz_hwlog_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_hwlog_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_results_SOURCES = tests/fuzz/fuzz_results.c tests/fuzz/fuzz_run.h
tests_fuzz_fuzz_results_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_results_LDFLAGS = -fsanitize=fuzzer
tests_fuzz_fuzz_serve_SOURCES = tests/fuzz/fuzz_serve.c tests/fuzz/fuzz_run.h
tests_fuzz_fuzz_serve_LDADD = $(FUZZ_LDADD)
tests_fuzz_fuzz_serve_LDFLAGS = -fsanitize=fuzzer
endif
