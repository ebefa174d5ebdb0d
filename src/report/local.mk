# src/report: results as text (herd7's block, herd7's hash).
libweft_a_SOURCES += src/report/report.h src/report/herd_text.c \
	src/report/test_hash.c

check_PROGRAMS += tests/unit/test_report
tests_unit_test_report_SOURCES = tests/unit/test_report.c
tests_unit_test_report_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_report
include $(srcdir)/src/report/report_extra.mk
