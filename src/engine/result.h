/* result.h — (private to src/engine) building a test_result: the table of
 * distinct final states, the flags seen, the displayed lvals. */
#ifndef WEFT_ENGINE_RESULT_H
#define WEFT_ENGINE_RESULT_H

#include "engine.h"

/* The lvals a report shows: the condition's, then the `locations` list's,
 * each once.  Sets r->lvals / r->n_lvals. */
void result_collect_lvals(test_result *r, const litmus_test *t);

/* Distinct final states, found by hashing their values. */
typedef struct state_table {
	int *slots;      /* index into r->states, or -1; power-of-two size */
	int n_slots;
	size_t cap_states;
} state_table;

/* Count one execution ending in state `raw` (r->n_lvals values as the
 * engine computed them, copied), shown as `vals` (the same in their
 * lvals' types, copied; engine.h's final_state). */
void result_add_state(test_result *r, state_table *tab, const value *vals, const value *raw, bool holds);
void state_table_free(state_table *tab);

/* Count a candidate execution the model is to judge (stats.candidates,
 * and the live counts when there are). */
void result_count_candidate(test_result *r);

/* Count a complete execution the model judged (verdict v): forbidden, cut
 * by the unroll limit (herd drops it and says "Loop"), or allowed: into
 * Positive or Negative by the condition, its final state (values of
 * r->lvals, through `final`) into `tab` (`vals`: room for 2 * r->n_lvals
 * values, result_state_scratch), and its flags.  The tail the counting
 * engines share. */
void result_count_execution(test_result *r, state_table *tab, const litmus_test *t, const cat_verdict *v,
			    bool toofar, value (*final)(void *ctx, lval lv), void *ctx, value *vals);

/* Scratch room for result_count_execution's `vals` (the caller frees it). */
value *result_state_scratch(const test_result *r);

/* A complete execution of an engine that runs SC itself, with no model
 * to ask: dropped by the test's filter (stats.filtered), else counted as
 * an allowed one by result_count_execution. */
void result_count_sc_execution(test_result *r, state_table *tab, const litmus_test *t, bool toofar,
			       value (*final)(void *ctx, lval lv), void *ctx, value *vals);

/* The counts of a counting engine agree (an invariant, for WEFT_ASSERT):
 * every allowed execution is in one state and, once per choice of the
 * model's under which it passes, in Positive or Negative. */
bool result_counts_agree(const test_result *r);

/* Note that flag `name` fired (kept once, sorted at the end). */
void result_add_flag(test_result *r, const char *name);
void result_sort_flags(test_result *r);

#endif
