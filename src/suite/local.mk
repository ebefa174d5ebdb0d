# sources of src/suite: YAML results and -expect files (owned by the suite runner).
libweft_a_SOURCES += src/suite/suite.h src/suite/states.c src/suite/yaml_out.c src/suite/expect.c
