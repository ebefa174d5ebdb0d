/* serve_address.c — -serve's argument: PORT or ADDR:PORT, an IPv4
 * address (or "localhost"); the default is 127.0.0.1:8080. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>

#include "serve.h"

bool serve_parse_address(const char *at, char *addr, size_t addr_size, unsigned *port, strbuf *why)
{
	const char *colon = at ? strrchr(at, ':') : NULL;
	const char *p = colon ? colon + 1 : at;
	size_t alen = colon ? (size_t)(colon - at) : 0;
	snprintf(addr, addr_size, "127.0.0.1");
	*port = 8080;
	if (!at)
		return true;
	char *end;
	unsigned long v = p[0] >= '0' && p[0] <= '9' ? strtoul(p, &end, 10) : 0;
	if (!(p[0] >= '0' && p[0] <= '9') || *end || v > 65535) {
		sb_printf(why, "-serve: '%s' is not PORT or ADDR:PORT (a port is 0 to 65535; 0: any free one)", at);
		return false;
	}
	*port = (unsigned)v;
	if (!colon)
		return true;
	if (alen == 9 && !strncmp(at, "localhost", 9))
		return true;
	struct in_addr ia;
	if (alen == 0 || alen >= addr_size || alen >= INET_ADDRSTRLEN) {
		sb_printf(why, "-serve: '%s' has no IPv4 address before its port", at);
		return false;
	}
	memcpy(addr, at, alen);
	addr[alen] = '\0';
	if (inet_pton(AF_INET, addr, &ia) != 1) {
		sb_printf(why, "-serve: '%s' is not an IPv4 address (as 127.0.0.1)", addr);
		return false;
	}
	return true;
}
