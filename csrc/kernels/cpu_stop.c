/* The flag of cpu_stop.h. */
#include "cpu_stop.h"

/* lock-free on every target pygpu builds for, so a signal handler may store it */
_Static_assert(__atomic_always_lock_free(sizeof(int), 0), "the stop flag must be lock-free");
int pg_cpu_stop;
