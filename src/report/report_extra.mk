# src/report extras (owned by the tables/explain/dot helper): outcome tables,
# hardware logs, explanations of outcomes, Graphviz drawings of executions.
libweft_a_SOURCES += src/report/report_extra.h src/report/table.c src/report/table_write.c \
	src/report/table_int.h src/report/table_html.c src/report/table_diff.c \
	src/report/table_hw.c src/report/hw_cond.c src/report/explain_int.h src/report/explain.c \
	src/report/explain_events.c src/report/dot.c
