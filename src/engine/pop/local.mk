# src/engine/pop: the pop engine (-engine pop): parsimonious-optimal DPOR
# over the interleavings of a test's threads, under SC models.
libweft_a_SOURCES += src/engine/pop/pop.h src/engine/pop/pop_engine.c src/engine/pop/pop_explore.c \
	src/engine/pop/pop_sleep.c src/engine/pop/pop_thread.c
