/* report.h — results as text.
 *
 * report_herd() prints herd7's result block, byte for byte as herd7 7.5x
 * does (see ../../docs or /work/shared/docs/HERD-OUTPUT.md):
 *
 *   Test NAME Allowed|Forbidden|Required
 *   States N
 *   <one line per distinct final state, herd's order>
 *   [Loop ]Ok|No
 *   Witnesses
 *   Positive: P Negative: M
 *   Flag NAME                     (one per flag that fired)
 *   Condition <quantifier> (<condition in herd's normal form>)
 *   Observation NAME Always|Sometimes|Never pos neg
 *   Time NAME seconds             (only when print_time)
 *   Hash=<hex>
 *   <blank line>
 *
 * A result that timed out prints nothing, as herd7 does (the caller says
 * so on stderr).  With `stats`, one more line of weft's own follows the Hash
 * line: "Stats NAME complete N blocked B commits C" (allowed executions
 * counted, explorations that ended before completing, store/load commits).
 */
#ifndef WEFT_REPORT_H
#define WEFT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "../engine/engine.h"
#include "../prog/prog.h"
#include "../util/util.h"

void report_herd(FILE *out, const litmus_test *t, const test_result *r, bool print_time, bool stats);

/* The same with every knob: */
typedef struct herd_report_opts {
	bool print_time;  /* the Time line                                    */
	bool stats;       /* weft's Stats line after the Hash                 */
	bool hexa;        /* -hexa: integers of the state lines as 0x... (the
	                   * 64-bit two's complement, as herd's "0x%Lx")      */
} herd_report_opts;
void report_herd_opts(FILE *out, const litmus_test *t, const test_result *r, const herd_report_opts *ro);

/* The test's hash: the file's own Hash= value when it has one, else the
 * digest herd7 computes (test_hash.c explains it).  hex gets 32 lowercase
 * hex digits and a NUL. */
void test_hash(const litmus_test *t, char hex[33]);

/* herd7's digest only, ignoring any Hash= line, from the parsed test
 * alone (the file is not read). */
void test_hash_compute(const litmus_test *t, char hex[33]);

/* herd's normal form of a condition, e.g. "exists (0:r1=1 /\ [x]=2)". */
void report_condition(const litmus_test *t, strbuf *out);
/* The same with -hexa's integers (herd prints the condition's values
 * with the states' printer: "exists (0:r1=0x1)"). */
void report_condition_as(const litmus_test *t, bool hexa, strbuf *out);

/* State `state` of r as herd prints it, e.g. "0:r1=1; [x]=2;" (caller frees). */
char *report_state_line(const litmus_test *t, const test_result *r, int state);

#endif
