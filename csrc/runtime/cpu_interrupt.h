/* Ctrl-C during long CPU work (issue 16, item 13). Between pg_cpu_interrupt_begin and _end (both
 * with the GIL held, around the GIL-free part of a launch), a SIGINT sets kernels/cpu_stop.h's flag,
 * which the running loops poll to end early, and then goes on to the handler that was there (the
 * interpreter's, which schedules KeyboardInterrupt). Nothing is installed where SIGINT is ignored
 * or left to its default action. Launches on several threads at once share one installation. */
#ifndef PG_CPU_INTERRUPT_H
#define PG_CPU_INTERRUPT_H
#include "core/pg.h"

/* Opens the scope; -1 with KeyboardInterrupt (nothing opened) when a Ctrl-C came before it and
 * is still pending with the interpreter (during a kernel's compile, say): the work must not
 * start, since the handler that would stop it was not there to see that signal. */
int pg_cpu_interrupt_begin(void);
/* Ends the scope; 0, or -1 with KeyboardInterrupt (or what the interpreter's SIGINT handler
 * raised) when the work was stopped. */
int pg_cpu_interrupt_end(void);
#endif
