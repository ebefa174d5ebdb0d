# The instruction translators of src/arch (PPC, X86, X86_64) and their unit
# test; included from src/arch/local.mk.
libweft_a_SOURCES += src/arch/arch_operand.h src/arch/arch_operand.c \
	src/arch/arch_x86_sem.h src/arch/arch_x86_sem.c \
	src/arch/arch_ppc.c src/arch/arch_x86.c src/arch/arch_x86_64.c

check_PROGRAMS += tests/unit/test_arch
tests_unit_test_arch_SOURCES = tests/unit/test_arch.c
tests_unit_test_arch_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_arch
