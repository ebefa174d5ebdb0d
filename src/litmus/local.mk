# sources of src/litmus: the litmus-file parser (litmus.h is the door; lex.h
# and parser.h are private to the folder).
libweft_a_SOURCES += src/litmus/litmus.h src/litmus/lex.h src/litmus/parser.h \
	src/litmus/lex.c src/litmus/parse.c src/litmus/parse_header.c \
	src/litmus/parse_init.c src/litmus/parse_state.c src/litmus/parse_table.c \
	src/litmus/parse_cond.c
