# src/session: exploring one test by hand (session.h is the door), and its
# terminal front-end, `weft -i` (src/cli/interactive.c, listed here so that
# the front-end comes and goes with the module it drives).
libweft_a_SOURCES += src/session/session.h src/session/session_int.h \
	src/session/sstate.c src/session/sstate_thread.c src/session/verdict.c \
	src/session/session.c src/session/session_auto.c src/session/session_goto.c \
	src/session/session_dot.c \
	src/cli/interactive.h src/cli/interactive.c

# The API driven without a terminal, as another front-end would drive it.
check_PROGRAMS += tests/unit/test_session
tests_unit_test_session_SOURCES = tests/unit/test_session.c tests/unit/check.h
tests_unit_test_session_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_session
