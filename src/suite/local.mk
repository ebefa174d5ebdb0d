# sources of src/suite: YAML and JSON results, -expect files and -judge's rules (owned by the suite runner).
libweft_a_SOURCES += src/suite/suite.h src/suite/states.c src/suite/result_doc.c src/suite/doc_writer.h src/suite/doc_writer.c \
	src/suite/doc_yaml.c src/suite/doc_json.c src/suite/expect.c \
	src/suite/results_int.h src/suite/results_read.c src/suite/results_doc.c src/suite/results_yaml.c src/suite/results_json.c \
	src/suite/results_fast.c src/suite/results_herd.c \
	src/suite/results_join.c src/suite/judge.c
