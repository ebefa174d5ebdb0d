/* serve_page.h — (private to src/serve) the page's files, embedded in weft
 * at build time from src/serve/page.* by embed.sh (page_files.c). */
#ifndef WEFT_SERVE_PAGE_H
#define WEFT_SERVE_PAGE_H

typedef struct serve_page_file {
	const char *path;   /* "/", "/page.js"  */
	const char *type;   /* its Content-Type */
	const char *text;
} serve_page_file;

/* The file served at `path`, or NULL. */
const serve_page_file *serve_page_find(const char *path);

/* made by embed.sh */
extern const char serve_page_html[], serve_page_js[], serve_page_css[];

#endif
