# src/engine/bmc: the symbolic engine (-engine bmc): the test and the model
# encoded into SAT (partial-order encoding), solved by CaDiCaL.  Without
# CaDiCaL only bmc_absent.c is built: -engine bmc then says so.
libweft_a_SOURCES += src/engine/bmc/bmc_engine.c
if HAVE_CADICAL
libweft_a_SOURCES += src/engine/bmc/bmc.h src/engine/bmc/bmc.c \
	src/engine/bmc/sat.h src/engine/bmc/sat.c \
	src/engine/bmc/bmc_prog.c src/engine/bmc/bmc_model.c \
	src/engine/bmc/bmc_acyclic.c src/engine/bmc/bmc_states.c \
	src/engine/bmc/bmc_witness.c
else
libweft_a_SOURCES += src/engine/bmc/bmc_absent.c
endif

if HAVE_CADICAL
# The encodings against brute force on small relations.
check_PROGRAMS += tests/unit/test_bmc
tests_unit_test_bmc_SOURCES = tests/unit/test_bmc.c
tests_unit_test_bmc_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_bmc
endif
