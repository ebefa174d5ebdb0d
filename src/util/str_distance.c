/* str_distance.c — how far a mistyped word is from a known one, for the
 * "did you mean" of an unknown option: the optimal string alignment
 * distance, so that a swap of two neighbouring letters ('-modle') costs
 * one edit as a user would count it. */
#include <string.h>

#include "util.h"

/* Longer words are never suggested: the rows below stay on the stack. */
enum { MAX_WORD = 64 };

size_t str_distance(const char *a, size_t alen, const char *b, size_t limit)
{
	size_t blen = strlen(b);
	if (alen > MAX_WORD || blen > MAX_WORD)
		return limit + 1;
	if ((alen > blen ? alen - blen : blen - alen) > limit)
		return limit + 1;
	size_t before[MAX_WORD + 1], prev[MAX_WORD + 1], cur[MAX_WORD + 1];
	for (size_t j = 0; j <= blen; j++)
		prev[j] = j;
	for (size_t i = 1; i <= alen; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= blen; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			size_t best = sub < del ? sub : del;
			best = best < ins ? best : ins;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    before[j - 2] + 1 < best)
				best = before[j - 2] + 1;
			cur[j] = best;
		}
		memcpy(before, prev, sizeof prev);
		memcpy(prev, cur, sizeof cur);
	}
	return prev[blen] > limit ? limit + 1 : prev[blen];
}
