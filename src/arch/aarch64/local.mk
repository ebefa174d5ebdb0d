# src/arch/aarch64: AArch64 (see aarch64.h for its files).
libweft_a_SOURCES += src/arch/aarch64/aarch64.h src/arch/aarch64/arch_aarch64.c \
	src/arch/aarch64/aarch64_mem.c src/arch/aarch64/aarch64_alu.c src/arch/aarch64/aarch64_flow.c \
	src/arch/aarch64/aarch64_fetch.c src/arch/aarch64/aarch64_print.c \
	src/arch/aarch64/aarch64_operand.c src/arch/aarch64/aarch64_bits.c src/arch/aarch64/aarch64_cond.c \
	src/arch/aarch64/aarch64_sysreg.c
