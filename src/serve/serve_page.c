/* serve_page.c — where the page's embedded files are served. */
#include <string.h>

#include "serve_page.h"

static const serve_page_file files[] = {
	{ "/", "text/html; charset=utf-8", serve_page_html },
	{ "/index.html", "text/html; charset=utf-8", serve_page_html },
	{ "/page.js", "text/javascript; charset=utf-8", serve_page_js },
	{ "/page.css", "text/css; charset=utf-8", serve_page_css },
};

const serve_page_file *serve_page_find(const char *path)
{
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		if (!strcmp(path, files[i].path))
			return &files[i];
	return NULL;
}
