# sources of src/c: herd's C litmus dialect (c.h is the door; c_int.h is
# private to the folder).
libweft_a_SOURCES += src/c/c.h src/c/c_int.h src/c/c_lex.c src/c/c_parse.c \
	src/c/c_macros.c src/c/c_lower.h src/c/c_lower.c src/c/c_c11.c src/c/c_threads.c src/c/c_arch.c \
	src/c/c_hash_form.c
