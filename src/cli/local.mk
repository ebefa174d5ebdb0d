# sources of src/cli: the command line's pieces (owned by the suite runner).
# They go into libweft.a like every other folder, so unit tests can link them.
libweft_a_SOURCES += src/cli/options.h src/cli/options.c src/cli/inputs.h src/cli/inputs.c \
	src/cli/select.h src/cli/select.c src/cli/runner.h src/cli/runner.c \
	src/cli/progress.h src/cli/progress.c src/cli/models.h src/cli/models.c \
	src/cli/job.h src/cli/job.c src/cli/labels.h src/cli/labels.c src/cli/model_probe.c \
	src/cli/model_arch.c src/cli/conds.h src/cli/conds.c src/cli/provenance.h src/cli/provenance.c \
	src/cli/tabulate.h src/cli/tabulate.c \
	src/cli/herd_compat.h src/cli/herd_compat.c \
	src/cli/handovers.h src/cli/handovers.c src/cli/judging.h src/cli/judging.c

check_PROGRAMS += tests/unit/test_runner
tests_unit_test_runner_SOURCES = tests/unit/test_runner.c
tests_unit_test_runner_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_runner
