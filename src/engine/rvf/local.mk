# src/engine/rvf: the rvf engine (-engine rvf): reads-value-from
# exploration under SC models, with VerifySC.
libweft_a_SOURCES += src/engine/rvf/rvf.h src/engine/rvf/rvf_engine.c src/engine/rvf/rvf_explore.c \
	src/engine/rvf/rvf_verify.c
