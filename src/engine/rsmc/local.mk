# src/engine/rsmc: the RSMC engine (-engine rsmc) and its commit-before orders.
libweft_a_SOURCES += src/engine/rsmc/rsmc.h src/engine/rsmc/rsmc.c src/engine/rsmc/rsmc_thread.c \
	src/engine/rsmc/rsmc_exec.c src/engine/rsmc/cb.c src/engine/rsmc/cb_model.c \
	src/engine/rsmc/cb_static.c src/engine/rsmc/rsmc_engine.c

check_PROGRAMS += tests/unit/test_rsmc
tests_unit_test_rsmc_SOURCES = tests/unit/test_rsmc.c
tests_unit_test_rsmc_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_rsmc

# cat_partial (src/cat/analysis/cat_incr.c), RSMC's evaluators, against cat_model_check
# on the enumerator's candidates for a corpus sample (skipped without it).
check_PROGRAMS += tests/unit/test_rsmc_incr
tests_unit_test_rsmc_incr_SOURCES = tests/unit/test_rsmc_incr.c
tests_unit_test_rsmc_incr_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_rsmc_incr
