/* interactive.h — `weft -i TEST.litmus`: a command loop over a session
 * (src/session/session.h), one command a line. */
#ifndef WEFT_INTERACTIVE_H
#define WEFT_INTERACTIVE_H

#include <stdio.h>

#include "options.h"

/* Read commands from `in` until quit or end of input, answering on `out`
 * (a prompt only when `in` is a terminal).  Returns the exit status: 0, 1
 * when the test or model cannot be loaded, 2 on a usage error. */
int interactive_run(const weft_options *o, FILE *in, FILE *out);

#endif
