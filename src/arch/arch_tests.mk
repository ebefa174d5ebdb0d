# The architectures, one folder each with its own local.mk (ppc/: PPC;
# x86/: X86 and X86_64, which share their semantics; riscv/: RISCV;
# aarch64/: AArch64; C's table is src/c's), the translators' shared tools,
# and their unit test; included from src/arch/local.mk.
libweft_a_SOURCES += src/arch/arch_operand.h src/arch/arch_operand.c \
	src/arch/arch_print.h src/arch/arch_print.c
include $(srcdir)/src/arch/ppc/local.mk
include $(srcdir)/src/arch/x86/local.mk
include $(srcdir)/src/arch/riscv/local.mk
include $(srcdir)/src/arch/aarch64/local.mk

check_PROGRAMS += tests/unit/test_arch
tests_unit_test_arch_SOURCES = tests/unit/test_arch.c
tests_unit_test_arch_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_arch
