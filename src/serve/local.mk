# src/serve: `weft -serve`, a session in a web page (serve.h is the door).
# The request handling is built always (the fuzz target and the unit test
# drive it without a socket); the HTTP server only with libmicrohttpd.
libweft_a_SOURCES += src/serve/serve.h src/serve/serve_int.h src/serve/serve_page.h \
	src/serve/serve_app.c src/serve/serve_json.c src/serve/serve_api.c src/serve/serve_page.c \
	src/serve/serve_address.c
if HAVE_MICROHTTPD
libweft_a_SOURCES += src/serve/serve_http.c
else
libweft_a_SOURCES += src/serve/serve_http_none.c
endif

# The page, embedded in weft when it is built (no file is read to serve it).
SERVE_PAGE = src/serve/page.html src/serve/page.js src/serve/page.css
nodist_libweft_a_SOURCES = src/serve/page_files.c
CLEANFILES = src/serve/page_files.c
EXTRA_DIST += src/serve/embed.sh $(SERVE_PAGE)
src/serve/page_files.c: $(addprefix $(srcdir)/,$(SERVE_PAGE)) $(srcdir)/src/serve/embed.sh
	@$(MKDIR_P) src/serve
	$(AM_V_GEN)$(SHELL) $(srcdir)/src/serve/embed.sh $(addprefix $(srcdir)/,$(SERVE_PAGE)) > $@.tmp && mv $@.tmp $@

check_PROGRAMS += tests/unit/test_serve
tests_unit_test_serve_SOURCES = tests/unit/test_serve.c tests/unit/check.h
tests_unit_test_serve_LDADD = libweft.a $(WEFT_LIBS)
TESTS += tests/unit/test_serve
