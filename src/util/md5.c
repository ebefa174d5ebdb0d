/* md5.c — MD5 (RFC 1321), needed only because herd7 names tests by an MD5
 * digest and mcompare7 compares those digests.  Not used for security. */
#include <stdint.h>
#include <string.h>

#include "util.h"

typedef struct md5_state {
	uint32_t a, b, c, d;
} md5_state;

static uint32_t rotl(uint32_t x, int s) { return (x << s) | (x >> (32 - s)); }

/* Per-round shift amounts and the sine-derived constants of the RFC. */
static const int shift[64] = {
	7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
	5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
	4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
	6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
};
static const uint32_t sine[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

static void md5_block(md5_state *st, const unsigned char *p)
{
	uint32_t m[16];
	for (int i = 0; i < 16; i++)
		m[i] = (uint32_t)p[4 * i] | (uint32_t)p[4 * i + 1] << 8 |
		       (uint32_t)p[4 * i + 2] << 16 | (uint32_t)p[4 * i + 3] << 24;
	uint32_t a = st->a, b = st->b, c = st->c, d = st->d;
	for (int i = 0; i < 64; i++) {
		uint32_t f;
		int g;
		if (i < 16) {
			f = (b & c) | (~b & d);
			g = i;
		} else if (i < 32) {
			f = (d & b) | (~d & c);
			g = (5 * i + 1) & 15;
		} else if (i < 48) {
			f = b ^ c ^ d;
			g = (3 * i + 5) & 15;
		} else {
			f = c ^ (b | ~d);
			g = (7 * i) & 15;
		}
		uint32_t t = d;
		d = c;
		c = b;
		b = b + rotl(a + f + sine[i] + m[g], shift[i]);
		a = t;
	}
	st->a += a;
	st->b += b;
	st->c += c;
	st->d += d;
}

void md5_hex(const void *data, size_t n, char hex[33])
{
	md5_state st = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	const unsigned char *p = data;
	size_t left = n;
	while (left >= 64) {
		md5_block(&st, p);
		p += 64;
		left -= 64;
	}
	/* Final block(s): the rest, a 1 bit, zeros, and the bit length. */
	unsigned char tail[128] = { 0 };
	memcpy(tail, p, left);
	tail[left] = 0x80;
	size_t tail_len = left < 56 ? 64 : 128;
	uint64_t bits = (uint64_t)n * 8;
	for (int i = 0; i < 8; i++)
		tail[tail_len - 8 + i] = (unsigned char)(bits >> (8 * i));
	md5_block(&st, tail);
	if (tail_len == 128)
		md5_block(&st, tail + 64);
	uint32_t words[4] = { st.a, st.b, st.c, st.d };
	static const char digits[] = "0123456789abcdef";
	for (int i = 0; i < 16; i++) {
		unsigned byte = (words[i / 4] >> (8 * (i % 4))) & 0xff;
		hex[2 * i] = digits[byte >> 4];
		hex[2 * i + 1] = digits[byte & 15];
	}
	hex[32] = '\0';
}
