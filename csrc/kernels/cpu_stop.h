/* Ctrl-C in CPU kernels: the flag that loops of user code on the CPU poll (a vectorize program's
 * backward jumps, the loops of a CUDA C kernel compiled for the CPU, a launch between blocks).
 * runtime/cpu_interrupt.c sets it from its SIGINT handler while such work runs; polling it costs a
 * load and a branch that is never taken. */
#ifndef PG_CPU_STOP_H
#define PG_CPU_STOP_H

extern int pg_cpu_stop; /* written by a signal handler, read by every worker: atomic accesses only */
#define PG_CPU_STOPPING() __builtin_expect(__atomic_load_n(&pg_cpu_stop, __ATOMIC_RELAXED) != 0, 0)
#define PG_CPU_SET_STOP(v) __atomic_store_n(&pg_cpu_stop, (v), __ATOMIC_RELAXED)

#endif
