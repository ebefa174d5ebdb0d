# src/session: exploring one test by hand (session.h is the door), and its
# terminal front-end, `weft -i` (src/cli/interactive.c, listed here so that
# the front-end comes and goes with the module it drives).
libweft_a_SOURCES += src/session/session.h src/session/session_int.h \
	src/session/sstate.c src/session/sstate_thread.c src/session/verdict.c \
	src/session/session.c src/session/session_auto.c src/session/session_goto.c \
	src/session/session_dot.c \
	src/cli/interactive.h src/cli/interactive.c
