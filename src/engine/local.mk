# src/engine: engines that turn a test and a model into results.  The parts
# every engine shares (dispatch, results, the thread interpreter, thread
# paths) live here; each engine has its own folder.
libweft_a_SOURCES += src/engine/engine.h src/engine/engine.c \
	src/engine/result.h src/engine/result.c \
	src/engine/thread_interp.h src/engine/thread_interp.c src/engine/thread_run.c src/engine/herd_deps.c \
	src/engine/paths.h src/engine/thread_paths.c src/engine/paths_exec.c src/engine/fetch_check.c \
	src/engine/value_eqs.h src/engine/value_eqs.c src/engine/value_numbers.c

check_PROGRAMS += tests/unit/test_engine
tests_unit_test_engine_SOURCES = tests/unit/test_engine.c
tests_unit_test_engine_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_engine
include $(srcdir)/src/engine/rsmc/local.mk
include $(srcdir)/src/engine/enumerate/local.mk
include $(srcdir)/src/engine/bmc/local.mk
include $(srcdir)/src/engine/pop/local.mk
include $(srcdir)/src/engine/await/local.mk
include $(srcdir)/src/engine/rvf/local.mk
