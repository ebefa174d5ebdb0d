/* herd_compat.h — herd7's options that weft accepts so that scripts written
 * for herd7 keep working: the ones that only shape herd's own output
 * (graphs, viewers, fonts) are ignored with a one-line note, the ones that
 * would change results weft cannot honour are refused by name, and herd's
 * configuration files (`-conf FILE`, herd's .cfg key/value format) are read
 * here and applied through options.c, key by key, as the matching options.
 *
 * The options weft honours (-conf, -variant, -speedcheck, -nshow, -showone,
 * -set-libdir, -hexa, -initwrites, -unroll, -model, -I, ...) are ordinary
 * entries of options.c's table; this module only knows the rest.
 */
#ifndef WEFT_HERD_COMPAT_H
#define WEFT_HERD_COMPAT_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

enum herd_opt_fate {
	HERD_OPT_UNKNOWN,   /* not a herd7 option                            */
	HERD_OPT_IGNORED,   /* shapes herd's own output only: a note         */
	HERD_OPT_REFUSED,   /* would change results: weft cannot honour it   */
};

/* What weft does with herd option `name` (without dashes, `len` bytes);
 * *takes_arg tells whether herd reads an argument after it, *why says
 * (static text) what the option is about. */
enum herd_opt_fate herd_option_fate(const char *name, size_t len, bool *takes_arg, const char **why);
/* Whether `value` of herd option `name` is herd's own default (machsize
 * auto), which a refused option may be given as. */
bool herd_option_is_default(const char *name, const char *value);

/* Apply one option by name and value, as from the command line (options.c
 * implements it; the configuration reader calls it for each key).
 * `origin` names where it came from for messages ("FILE:LINE:COL").  A key
 * weft ignores (it only shapes herd's own output) sets *ignored to why
 * (static text) and prints nothing: the reader sums such keys up in one
 * note.  Returns 0, or 2 after printing a message. */
int options_apply_named(weft_options *o, const char *name, const char *value, const char *origin,
                        const char **ignored);

/* Where herd would find `file`: as written (or with a '/'), else in each
 * -I folder given so far, each -set-libdir folder, each folder of
 * $HERDLIB; as written when nowhere (the caller's open says so).  Owned
 * by the caller. */
char *herd_find_file(const weft_options *o, const char *file);

/* Read herd configuration file `file` (found as written, else in each -I
 * folder given so far, each -set-libdir folder, each folder of $HERDLIB)
 * and apply its keys in order.  Lines: `key value` or `key = value`, `#`
 * comments, blank lines.  Returns 0, or 2 after printing a located error. */
int herd_conf_read(weft_options *o, const char *file);

#endif
