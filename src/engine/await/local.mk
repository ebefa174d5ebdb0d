# src/engine/await: the await engine (-engine await): spin loops run as one
# iteration each (await and confirmation-CAS loops), under SC models.
libweft_a_SOURCES += src/engine/await/await.h src/engine/await/await_engine.c \
	src/engine/await/await_explore.c src/engine/await/await_thread.c
