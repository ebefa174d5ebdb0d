# src/arch/x86: X86 (Intel syntax) and X86_64 (AT&T syntax), which share
# their semantics (arch_x86_sem.h).
libweft_a_SOURCES += src/arch/x86/arch_x86_sem.h src/arch/x86/arch_x86_sem.c \
	src/arch/x86/arch_x86.c src/arch/x86/arch_x86_64.c \
	src/arch/x86/x86_print.c src/arch/x86/x86_64_print.c
