/* weft_limits.h — every fixed bound weft puts on its input and on its own
 * work, in one place.
 *
 * Real litmus tests and models are tiny (a handful of threads, locations
 * and instructions; a few hundred lines of cat).  These bounds keep hostile
 * or runaway input from making linear look-ups quadratic, recursion deep
 * or memory unbounded.  Reaching one is never silent: where each is used,
 * it becomes a located error naming what was too large (the man page lists
 * those a user may meet).  Included by util.h, so every module sees them.
 */
#ifndef WEFT_LIMITS_H
#define WEFT_LIMITS_H

/* ---- the litmus reader (src/litmus) ------------------------------------- */
#define LITMUS_MAX_THREADS 1024
#define LITMUS_MAX_LOCS 1000
#define LITMUS_MAX_REGS 1000       /* per thread                         */
#define LITMUS_MAX_INSTRS 10000    /* per test, and labels per test too  */
#define LITMUS_MAX_ITEMS 20000     /* init entries, atoms of a condition,
                                    * items of `locations [...]`          */
#define LITMUS_MAX_DEPTH 5000      /* depth of a condition's tree (a chain
                                    * a /\ b /\ ... is as deep as long)   */
#define LITMUS_MAX_NEST 1000       /* parentheses, ~ and => inside each
                                    * other (the parser recurses on them)  */
#define LITMUS_MAX_TABLE_ERRORS 20 /* instruction errors before giving up */

/* ---- the C front-end (src/c) -------------------------------------------- */
#define C_MAX_NEST 200             /* statements and expressions inside
                                    * each other (the parser recurses)    */
#define C_MAX_THREADS 1024
#define C_MAX_EXPANSION 64         /* macro expansions inside each other
                                    * (a .def macro naming another)       */

/* ---- models (src/cat) --------------------------------------------------- */
/* Every level of nesting of a model's tree (parentheses, and each operator
 * of a chain) counts: deep trees would exhaust the stack of the recursive
 * passes that follow. */
#define CAT_MAX_NESTING 1000
#define CAT_MAX_INCLUDE_DEPTH 64   /* includes inside includes            */
/* What one evaluation's values may take (its arena) before the evaluator
 * stops with an error: a recursion that never ends, or a set of orders too
 * large to hold.  The default: -maxmem MB sets it to MB (the process's
 * address space then gives out first, reported as OutOfMemory). */
#define CAT_EVAL_MEMORY_LIMIT ((size_t)1 << 30)
/* A `with co from` set of more orders than this (a bound: the product of
 * the factorials of each location's writes and lock events) is built for
 * each execution's own co, not whole (cat_eval.c's co_set_pruned). */
#define CAT_CO_ORDERS_KEPT 5040

/* ---- the engines (src/engine) ------------------------------------------- */
/* Rounds of the value-set fixpoint (paths_build): values that keep growing
 * (a counter incremented round after round) stop here. */
#define PATHS_MAX_VALUE_ROUNDS 256
/* Backward jumps to one op on a value computed from constants alone, which
 * herd unrolls without its -unroll limit (mem.ml's check_back): a loop
 * that never ends is cut here, with the unroll warning. */
#define ENGINE_MAX_KNOWN_LOOP 10000

/* ---- the interactive session (src/session) ------------------------------ */
#define SESSION_MAX_STEPS 100000       /* ops one thread runs before its
                                        * path counts as a loop that reads
                                        * no memory                        */
#define SESSION_AUTO_MAX_STATES 200000 /* states the search for a goal
                                        * visits before giving up          */

/* ---- the command line (src/cli) ----------------------------------------- */
#define CONF_MAX_DEPTH 16          /* herd .cfg files naming further ones  */
#define INPUT_LIST_MAX_DEPTH 16    /* @LIST files naming further lists     */
#define SELECT_HEADER_MAX 4096     /* a test's first line, read to select
                                    * it by name                            */

#endif
