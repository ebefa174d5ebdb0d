# sources of src/exec (owned by its module)
libweft_a_SOURCES += src/exec/exec.h src/exec/bitset.c src/exec/relation.c src/exec/mixed_access.c src/exec/execution.c

check_PROGRAMS += tests/unit/test_bitset
tests_unit_test_bitset_SOURCES = tests/unit/test_bitset.c
tests_unit_test_bitset_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_bitset
