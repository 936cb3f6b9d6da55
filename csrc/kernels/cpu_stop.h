/* Ctrl-C in CPU kernels: the flag that loops of user code on the CPU poll (a vectorize program's
 * backward jumps, the loops of a CUDA C kernel compiled for the CPU, a launch between blocks).
 * runtime/cpu_interrupt.c sets it from its SIGINT handler while such work runs; polling it costs a
 * load and a branch that is never taken. */
#ifndef PG_CPU_STOP_H
#define PG_CPU_STOP_H

extern volatile int pg_cpu_stop;
#define PG_CPU_STOPPING() __builtin_expect(pg_cpu_stop != 0, 0)

#endif
