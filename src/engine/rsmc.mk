# src/engine/rsmc.mk: the RSMC engine (-engine rsmc) and its commit-before orders.
libweft_a_SOURCES += src/engine/rsmc.h src/engine/rsmc.c src/engine/rsmc_thread.c \
	src/engine/rsmc_exec.c src/engine/cb.c src/engine/cb_model.c \
	src/engine/cb_static.c

check_PROGRAMS += tests/unit/test_rsmc
tests_unit_test_rsmc_SOURCES = tests/unit/test_rsmc.c
tests_unit_test_rsmc_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_rsmc

# cat_partial (src/cat/cat_incr.c), RSMC's evaluators, against cat_model_check
# on the enumerator's candidates for a corpus sample (skipped without it).
check_PROGRAMS += tests/unit/test_rsmc_incr
tests_unit_test_rsmc_incr_SOURCES = tests/unit/test_rsmc_incr.c
tests_unit_test_rsmc_incr_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_rsmc_incr
