/* sat.h — (private to src/engine/bmc) the SAT solver as bmc uses it:
 * CaDiCaL through its C API, with constant literals and clause counting.
 *
 * Literals are DIMACS integers; SAT_TRUE and SAT_FALSE are the literals of
 * a variable fixed true when the solver is made, so that formulas can hold
 * constants and gates fold them away (sat_clause drops false literals and
 * skips satisfied clauses).
 *
 * Ownership: sat_new() returns a solver owned by the caller, released with
 * sat_free().
 */
#ifndef WEFT_BMC_SAT_H
#define WEFT_BMC_SAT_H

#include <stdbool.h>

typedef struct sat sat;

enum { SAT_TRUE = 1, SAT_FALSE = -1 };

sat *sat_new(void);
void sat_free(sat *s);
/* A fresh variable's positive literal. */
int sat_var(sat *s);
/* Add the clause of the n literals (constants folded). */
void sat_clause(sat *s, const int *lits, int n);
void sat_clause1(sat *s, int a);
void sat_clause2(sat *s, int a, int b);
void sat_clause3(sat *s, int a, int b, int c);
/* Solve under the n assumptions: true when satisfiable; false when not,
 * or when the deadline stopped the solver (sat_interrupted). */
bool sat_solve(sat *s, const int *assume, int n);
/* Stop any solve once clock() passes deadline (seconds; 0: never). */
void sat_set_deadline(sat *s, double deadline, double (*clock)(void));
/* The last sat_solve was stopped by the deadline: no answer. */
bool sat_interrupted(const sat *s);
/* After a satisfiable sat_solve: the value of lit. */
bool sat_value(sat *s, int lit);
long sat_n_vars(const sat *s);
long sat_n_clauses(const sat *s);
long sat_n_calls(const sat *s);

/* ---- gates (Tseitin, with polarity) ---------------------------------------
 * A gate's literal g is tied to its inputs only in the directions asked:
 * POL_UP makes g true whenever the function is (g may be true more often:
 * an upper bound, enough where g is only ever required false), POL_DOWN
 * makes the function true whenever g is (a lower bound, where g is only
 * ever required true), POL_BOTH both (g is the function). */
enum { POL_UP = 1, POL_DOWN = 2, POL_BOTH = 3 };

static inline int sat_flip(int pol) { return pol == POL_BOTH ? POL_BOTH : pol == POL_UP ? POL_DOWN : POL_UP; }
int sat_or(sat *s, const int *in, int n, int pol);
int sat_and(sat *s, const int *in, int n, int pol);
int sat_or2(sat *s, int a, int b, int pol);
int sat_and2(sat *s, int a, int b, int pol);

#endif
