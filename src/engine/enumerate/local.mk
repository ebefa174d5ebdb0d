# src/engine/enumerate: the enumerator (-engine enumerate): every candidate
# execution built from the threads' paths, then checked against the model.
libweft_a_SOURCES += src/engine/enumerate/enumerate.c
