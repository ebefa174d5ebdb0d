# src/arch/ppc: PPC (see ppc.h for its files).
libweft_a_SOURCES += src/arch/ppc/ppc.h src/arch/ppc/arch_ppc.c src/arch/ppc/ppc_alu.c \
	src/arch/ppc/ppc_mem.c src/arch/ppc/ppc_flow.c src/arch/ppc/ppc_print.c
