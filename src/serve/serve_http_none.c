/* serve_http_none.c — serve_run in a weft built without libmicrohttpd. */
#include <stdio.h>

#include "serve.h"

int serve_run(const weft_options *o)
{
	(void)o;
	fputs("weft: -serve: this weft was built without libmicrohttpd, so it has no web server "
	      "(on Debian: apt-get install libmicrohttpd-dev, then configure and build again)\n",
	      stderr);
	return 2;
}
