# sources of src/prog
libweft_a_SOURCES += src/prog/prog.h src/prog/prog.c src/prog/op_eval.c src/prog/op_bits.h src/prog/op_bits.c src/prog/value_type.c src/prog/vmsa.c src/prog/mixed.c src/prog/loops.c
