/* test_util.c — md5 against RFC 1321's test suite, strbuf, diagnostics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/util/util.h"

static int failures, passes;

static void expect_str(const char *what, const char *got, const char *want)
{
	if (strcmp(got, want) != 0) {
		printf("FAIL %s: got '%s', want '%s'\n", what, got, want);
		failures++;
	} else {
		passes++;
	}
}

static void test_md5(void)
{
	static const char *cases[][2] = {
		{ "", "d41d8cd98f00b204e9800998ecf8427e" },
		{ "a", "0cc175b9c0f1b6a831c399e269772661" },
		{ "abc", "900150983cd24fb0d6963f7d28e17f72" },
		{ "message digest", "f96b697d7cb7938d525a2f31aaf161d0" },
		{ "abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b" },
		{ "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
		  "d174ab98d277d9f5a5611c2c9f419d9f" },
		{ "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
		  "57edf4a22be3c955ac49da2e2107b67a" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char hex[33];
		md5_hex(cases[i][0], strlen(cases[i][0]), hex);
		expect_str("md5", hex, cases[i][1]);
	}
	/* Lengths around the 56/64-byte padding boundary. */
	char buf[130];
	memset(buf, 'x', sizeof buf);
	char hex55[33], hex56[33], hex64[33];
	md5_hex(buf, 55, hex55);
	md5_hex(buf, 56, hex56);
	md5_hex(buf, 64, hex64);
	if (!strcmp(hex55, hex56) || !strcmp(hex56, hex64)) {
		printf("FAIL md5 padding: digests collide\n");
		failures++;
	} else {
		passes++;
	}
}

static void test_strbuf(void)
{
	strbuf b = { 0 };
	sb_puts(&b, "a");
	sb_printf(&b, "%d-%s", 42, "x");
	sb_putc(&b, '!');
	expect_str("strbuf", b.s, "a42-x!");
	for (int i = 0; i < 1000; i++)
		sb_putc(&b, 'y');
	if (b.len != 1006) {
		printf("FAIL strbuf length %zu\n", b.len);
		failures++;
	}
	char *s = sb_take(&b);
	if (b.s != NULL || b.len != 0) {
		printf("FAIL sb_take leaves the buffer non-empty\n");
		failures++;
	}
	free(s);
}

static void test_diag(void)
{
	char text[256] = { 0 };
	FILE *f = fmemopen(text, sizeof text - 1, "w");
	diag d = { f, 0, 0 };
	srcloc at = { "t.litmus", 3, 7 };
	diag_error(&d, at, "bad %s", "thing");
	fclose(f);
	expect_str("diag", text, "t.litmus:3:7: error: bad thing\n");
	if (d.errors != 1) {
		printf("FAIL diag count %d\n", d.errors);
		failures++;
	}
}

int main(void)
{
	test_md5();
	test_strbuf();
	test_diag();
	printf("%d passed, %d failed\n", passes, failures);
	return failures ? 1 : 0;
}
