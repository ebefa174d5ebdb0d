libweft_a_SOURCES += src/util/util.h src/util/weft_limits.h src/util/alloc.c src/util/diag.c src/util/md5.c src/util/files_below.c src/util/str_distance.c

check_PROGRAMS += tests/unit/test_util
tests_unit_test_util_SOURCES = tests/unit/test_util.c
tests_unit_test_util_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_util
