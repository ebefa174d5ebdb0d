/* bmc_acyclic.c — acyclicity of a symbolic relation (bmc.h).
 *
 * Required acyclicity uses vertex elimination (Rankooh and Rintanen,
 * "Propositional encodings of acyclicity and reachability by using vertex
 * elimination", AAAI 2022): events are eliminated one at a time; removing
 * v adds, for each u -> v -> w still present, an edge u -> w (a fresh
 * variable implied by the two edges), and u -> v -> u must not both hold.
 * A cycle, looked at when its last event is eliminated, has become a
 * two-edge cycle there, so the clauses rule out exactly the cyclic
 * relations; the edges added stay few on the sparse relations models
 * build, where a transitive closure would cost n^3 gates.  Events are
 * eliminated fewest in*out edges first, which keeps the fill-in small.
 *
 * Only implications from the relation's edges are added, so an upper
 * bound of the relation (gates of polarity POL_UP) is enough, and the
 * guard g lets a flag ask for acyclicity without requiring it.
 */
#include <stdlib.h>

#include "bmc.h"

void bmc_acyclic(sat *s, const int *r, int n, int g)
{
	size_t nn = (size_t)n * (size_t)n;
	int *w = xmalloc((nn + 1) * sizeof *w);
	bool *owned = xcalloc(nn + 1, sizeof *owned);   /* a fresh edge of ours */
	bool *gone = xcalloc((size_t)n + 1, sizeof *gone);
	for (size_t i = 0; i < nn; i++)
		w[i] = r[i];
	for (int i = 0; i < n; i++)
		sat_clause2(s, -g, -w[(size_t)i * n + i]);
	for (int step = 0; step < n; step++) {
		/* the event with the fewest in * out edges left */
		int v = -1;
		long best = -1;
		for (int c = 0; c < n; c++) {
			if (gone[c])
				continue;
			long in = 0, out = 0;
			for (int u = 0; u < n; u++)
				if (!gone[u] && u != c) {
					in += w[(size_t)u * n + c] != SAT_FALSE;
					out += w[(size_t)c * n + u] != SAT_FALSE;
				}
			if (v < 0 || in * out < best) {
				v = c;
				best = in * out;
			}
		}
		gone[v] = true;
		for (int u = 0; u < n; u++) {
			int uv = w[(size_t)u * n + v];
			if (gone[u] || uv == SAT_FALSE)
				continue;
			for (int x = 0; x < n; x++) {
				int vx = w[(size_t)v * n + x];
				if (gone[x] || vx == SAT_FALSE)
					continue;
				if (x == u) {
					sat_clause3(s, -g, -uv, -vx);
					continue;
				}
				size_t ux = (size_t)u * n + x;
				if (w[ux] == SAT_TRUE)
					continue;
				if (!owned[ux]) {
					int d = sat_var(s);
					if (w[ux] != SAT_FALSE)
						sat_clause2(s, -w[ux], d);
					w[ux] = d;
					owned[ux] = true;
				}
				sat_clause3(s, -uv, -vx, w[ux]);
			}
		}
	}
	free(w);
	free(owned);
	free(gone);
}

int *bmc_closure(sat *s, const int *r, int n, int pol)
{
	size_t nn = (size_t)n * (size_t)n;
	int *t = xmalloc((nn + 1) * sizeof *t);
	int *next = xmalloc((nn + 1) * sizeof *next);
	int *buf = xmalloc(((size_t)n + 2) * sizeof *buf);
	for (size_t i = 0; i < nn; i++)
		t[i] = r[i];
	/* after k rounds t holds the paths of up to 2^k edges */
	for (int len = 1; len < n; len *= 2) {
		for (int i = 0; i < n; i++)
			for (int k = 0; k < n; k++) {
				int m = 0;
				buf[m++] = t[(size_t)i * n + k];
				for (int j = 0; j < n; j++) {
					int a = t[(size_t)i * n + j], b = t[(size_t)j * n + k];
					if (a != SAT_FALSE && b != SAT_FALSE)
						buf[m++] = sat_and2(s, a, b, pol);
				}
				next[(size_t)i * n + k] = sat_or(s, buf, m, pol);
			}
		int *tmp = t;
		t = next;
		next = tmp;
	}
	free(next);
	free(buf);
	return t;
}

int bmc_has_cycle(sat *s, const int *r, int n)
{
	int *t = bmc_closure(s, r, n, POL_DOWN);
	int *diag = xmalloc(((size_t)n + 1) * sizeof *diag);
	for (int i = 0; i < n; i++)
		diag[i] = t[(size_t)i * n + i];
	int g = sat_or(s, diag, n, POL_DOWN);
	free(diag);
	free(t);
	return g;
}
