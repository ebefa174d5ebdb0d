# sources of src/prog
libweft_a_SOURCES += src/prog/prog.h src/prog/prog.c src/prog/op_eval.c
