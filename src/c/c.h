/* c.h — herd's C litmus dialect (the Linux-kernel tests): the thread
 * functions of a C test, and the macro file (.def) that gives the kernel
 * primitives their meaning.
 *
 *     P0(int *x, spinlock_t *l)      a thread: parameters name the shared
 *     {                              variables (a parameter is a register
 *         int r0 = READ_ONCE(*x);    holding its variable's address)
 *         if (r0) spin_lock(l);
 *     }
 *
 * The litmus reader (src/litmus) reads the header, the init block and the
 * final condition as for any test and hands the text between the init
 * block and the condition here when the architecture is `C`.  Calls are
 * expanded with the macros of the .def file given by -macros (or the
 * `macros` key of -conf; without either, weft's own
 * cat/kernel-primitives.def, found by src/cli), read as herd reads them, down to herd's
 * primitives (__load{T}, __store{T}, __fence{T}, __xchg{T}, __cmpxchg{T},
 * __atomic_op{T}, __atomic_op_return{T}, __atomic_fetch_op{T},
 * __atomic_add_unless{T}, __lock, __unlock, __srcu{T}), whose events are
 * those of herd's C semantics; a brace tag {T} becomes annotation T of the
 * events (litmus_test.annots).  What weft does not run is a located error.
 */
#ifndef WEFT_C_H
#define WEFT_C_H

#include "../prog/prog.h"
#include "../util/util.h"

/* A .def file as read: its macros (owned; free with c_macros_free). */
typedef struct c_macros c_macros;

/* Read macro file `path`; NULL after a located error. */
c_macros *c_macros_read(const char *path, diag *d);
void c_macros_free(c_macros *m);

/* Where the reader is in the test's text: the next byte, the first byte of
 * its line and the line number; updated to where the threads end (the
 * condition, `locations`, `filter`, or the end of the text). */
typedef struct c_text_pos {
	const char *p, *bol;
	int line;
} c_text_pos;

/* Read the thread functions P0, P1, ... of test t (its file name is
 * t->file) into t's threads, locations and registers, with macros m
 * (NULL: none given; a call of an unknown name is then an error that
 * says to give -macros).  False after reporting through d. */
bool c_read_threads(litmus_test *t, c_text_pos *pos, const c_macros *m, diag *d);

#endif
