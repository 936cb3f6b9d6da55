/* Blocks of CUDA threads as fibers on one OS thread, so that kernels with barriers run on the
 * CPU: each thread of the block runs on a stack of its own until it reaches a barrier or a warp
 * collective (or returns); when every thread of the block (or of the warp) has arrived, they are
 * released together with the collective's result. Switching is a few instructions of assembly
 * (x86-64, aarch64; ucontext elsewhere); stacks are kept per OS thread and reused, and a thread
 * that returns without waiting hands its stack to the next, so a barrier-free kernel in a module
 * that has barriers costs one switch pair per thread. No Python here. */
#ifndef PG_CPU_FIBER_H
#define PG_CPU_FIBER_H
#include "kernels/cpu_kernel_abi.h"
#include <stddef.h>

/* Bytes of stack per CUDA thread (a guard page below each catches an overflow). */
#define PG_FIBER_STACK_BYTES ((size_t)128 * 1024)

/* Runs every thread of one block of kernel k (st: the module's state of this OS thread, whose
 * block_idx, block_dim and grid_dim are set; its scheduler field is set here). A deadlock
 * (threads waiting at barriers that cannot complete) traps with PG_TRAP_RUNTIME through
 * pg_fault_trap. */
void pg_fiber_run_block(const PgCpuKernel *k, void **args, PgCpuThread *st);
/* After a fault or trap left a block half run: forget its fibers (their stacks are reused). */
void pg_fiber_abandon(void);
/* Whether addr lies in the guard page of a fiber stack of this thread (a stack overflow). */
int pg_fiber_guard_hit(const void *addr);

/* The barrier runtime handed to modules (PgCpuRuntime's block_reduce and warp). */
int pg_fiber_block_reduce(void *scheduler, int op, int predicate);
uint64_t pg_fiber_warp(void *scheduler, int op, uint64_t value, int arg, int width);
#endif
