# sources of src/cat (owned by its module)
libweft_a_SOURCES += src/cat/cat.h src/cat/cat_ast.h src/cat/cat_lex.h src/cat/cat_value.h \
	src/cat/cat_int.h src/cat/cat_lex.c src/cat/cat_ast.c src/cat/cat_parse.c src/cat/cat_compile.c \
	src/cat/cat_arena.c src/cat/cat_value.c src/cat/cat_eval.c src/cat/cat_builtin.c src/cat/cat_vmsa.c src/cat/cat_mono.c \
	src/cat/cat_static.c src/cat/cat_model.c src/cat/cat_prog.c src/cat/cat_explain.c \
	src/cat/cat_identity.c src/cat/cat_choice.c src/cat/cat_herd_deps.c \
	src/cat/cat_choice_memo.c src/cat/cat_ifetch.c src/cat/cat_c11.c src/cat/cat_reach.c src/cat/cat_co_unread.c \
	src/cat/analysis/cat_analysis.h src/cat/analysis/cat_incr.c src/cat/analysis/cat_sym.c \
	src/cat/analysis/cat_co_orders.c

# C unit tests of the cat language and models.  They find weft's models
# through WEFT_SOURCE_CATDIR, the malformed-model fixtures next to it in
# tests/cat, and herd7's own models under WEFT_SHARED_DIR (skipped, with a
# message, when the shared corpus is absent).
check_PROGRAMS += tests/unit/test_cat_parse
tests_unit_test_cat_parse_SOURCES = tests/unit/test_cat_parse.c tests/unit/test_cat_util.h
tests_unit_test_cat_parse_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_cat_parse
check_PROGRAMS += tests/unit/test_cat_eval
tests_unit_test_cat_eval_SOURCES = tests/unit/test_cat_eval.c tests/unit/test_cat_util.h \
	tests/unit/test_cat_build.h tests/unit/test_cat_expect.h
tests_unit_test_cat_eval_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_cat_eval
check_PROGRAMS += tests/unit/test_cat_vmsa
tests_unit_test_cat_vmsa_SOURCES = tests/unit/test_cat_vmsa.c tests/unit/test_cat_util.h \
	tests/unit/test_cat_build.h tests/unit/test_cat_expect.h
tests_unit_test_cat_vmsa_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_cat_vmsa
check_PROGRAMS += tests/unit/test_cat_models
tests_unit_test_cat_models_SOURCES = tests/unit/test_cat_models.c tests/unit/test_cat_util.h \
	tests/unit/test_cat_build.h
tests_unit_test_cat_models_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_cat_models
check_PROGRAMS += tests/unit/test_cat_mono
tests_unit_test_cat_mono_SOURCES = tests/unit/test_cat_mono.c tests/unit/test_cat_util.h \
	tests/unit/test_cat_build.h
tests_unit_test_cat_mono_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_cat_mono
check_PROGRAMS += tests/unit/test_cat_errors
tests_unit_test_cat_errors_SOURCES = tests/unit/test_cat_errors.c tests/unit/test_cat_util.h
tests_unit_test_cat_errors_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_cat_errors
