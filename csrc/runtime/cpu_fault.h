/* Faults in user kernels on the CPU: a kernel that dereferences a bad pointer, divides an integer
 * by zero, overflows its stack or calls __trap()/assert() must not take the interpreter down.
 * While a thread runs kernel code it holds a guard; the process-wide handlers for SIGSEGV, SIGBUS,
 * SIGFPE, SIGILL and SIGABRT jump back to the guard (on an alternate signal stack, so a fiber's
 * stack overflow is caught too) and hand every other fault to the handler that was there before.
 * No Python here: the launch turns what the guard recorded into an exception. */
#ifndef PG_CPU_FAULT_H
#define PG_CPU_FAULT_H
#include <setjmp.h>

typedef struct {
    sigjmp_buf env;
    volatile int active;  /* the thread is inside the guarded region */
    int signo;            /* the signal that ended it, or 0 for a trap */
    void *addr;           /* the faulting address (SIGSEGV, SIGBUS) */
    int trap_kind;        /* PG_TRAP_* of kernels/cpu_kernel_abi.h for a trap */
    char message[512];    /* the trap's message */
} PgFaultGuard;

/* The calling thread's guard, or NULL. Set it (then `active`) after sigsetjmp(env, 0) returned 0;
 * a fault or trap returns there with 1. */
extern __thread PgFaultGuard *pg_fault_guard;

/* Installs the handlers where another one replaced them since (a few system calls). */
void pg_fault_handlers_ensure(void);
/* Gives the calling thread an alternate signal stack if it has none (once per thread). */
void pg_fault_thread_prepare(void);
/* Ends the guarded region of the calling thread with a trap (does not return). Outside one,
 * aborts the process: a kernel trap can only come from kernel code. */
__attribute__((noreturn)) void pg_fault_trap(int kind, const char *message);
#endif
