# src/arch/riscv: RISCV (see riscv.h for its files).
libweft_a_SOURCES += src/arch/riscv/riscv.h src/arch/riscv/arch_riscv.c src/arch/riscv/riscv_print.c
