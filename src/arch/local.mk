# sources of src/arch: the helpers and the registry here, the translators
# (and their unit test) in arch_tests.mk.
libweft_a_SOURCES += src/arch/arch.h src/arch/arch_common.c src/arch/arch_registry.c
include $(srcdir)/src/arch/arch_tests.mk
