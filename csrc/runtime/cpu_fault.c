/* The fault guard of CPU kernels (see cpu_fault.h). */
#include "runtime/cpu_fault.h"
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

__thread PgFaultGuard *pg_fault_guard;

static const int guarded_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define NGUARDED (sizeof guarded_signals / sizeof guarded_signals[0])
static struct sigaction previous[NGUARDED];

static void handler(int signo, siginfo_t *info, void *context);

/* Not ours: do what the handler before ours would have done. */
static void
chain(int slot, int signo, siginfo_t *info, void *context)
{
    struct sigaction *p = &previous[slot];
    if ((p->sa_flags & SA_SIGINFO) && p->sa_sigaction != NULL && p->sa_sigaction != handler) {
        p->sa_sigaction(signo, info, context);
        return;
    }
    if (!(p->sa_flags & SA_SIGINFO) && p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN) {
        p->sa_handler(signo);
        return;
    }
    /* default action: restore it and return, so that the faulting instruction faults again (or
     * abort() raises again) and the process ends as it would have without us */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(signo, &dfl, NULL);
}

static void
handler(int signo, siginfo_t *info, void *context)
{
    PgFaultGuard *g = pg_fault_guard;
    if (g != NULL && g->active) {
        g->active = 0;
        g->signo = signo;
        g->addr = info ? info->si_addr : NULL;
        /* SA_NODEFER: the signal is not blocked in here, so nothing to unblock after the jump */
        siglongjmp(g->env, 1);
    }
    for (size_t i = 0; i < NGUARDED; i++)
        if (guarded_signals[i] == signo) {
            chain((int)i, signo, info, context);
            return;
        }
}

void
pg_fault_handlers_ensure(void)
{
    for (size_t i = 0; i < NGUARDED; i++) {
        struct sigaction cur;
        if (sigaction(guarded_signals[i], NULL, &cur) != 0)
            continue;
        if ((cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == handler)
            continue;
        struct sigaction ours;
        memset(&ours, 0, sizeof ours);
        ours.sa_sigaction = handler;
        ours.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&ours.sa_mask);
        previous[i] = cur;
        sigaction(guarded_signals[i], &ours, NULL);
    }
}

#define ALTSTACK_BYTES (64 * 1024)

static pthread_key_t altstack_key;
static pthread_once_t altstack_once = PTHREAD_ONCE_INIT;

/* A thread that ends takes its alternate stack with it. */
static void
altstack_release(void *mem)
{
    stack_t off;
    memset(&off, 0, sizeof off);
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, NULL);
    munmap(mem, ALTSTACK_BYTES);
}

static void
altstack_key_create(void)
{
    pthread_key_create(&altstack_key, altstack_release);
}

void
pg_fault_thread_prepare(void)
{
    static __thread int prepared;
    if (prepared)
        return;
    prepared = 1;
    stack_t cur;
    if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE))
        return; /* the thread has one (Python's faulthandler sets one on the main thread) */
    void *mem = mmap(NULL, ALTSTACK_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return;
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = mem;
    ss.ss_size = ALTSTACK_BYTES;
    if (sigaltstack(&ss, NULL) != 0) {
        munmap(mem, ALTSTACK_BYTES);
        return;
    }
    pthread_once(&altstack_once, altstack_key_create);
    pthread_setspecific(altstack_key, mem);
}

void
pg_fault_trap(int kind, const char *message)
{
    PgFaultGuard *g = pg_fault_guard;
    if (g == NULL || !g->active) {
        fprintf(stderr, "pygpu: kernel trap outside a kernel: %s\n", message ? message : "");
        abort();
    }
    g->active = 0;
    g->signo = 0;
    g->addr = NULL;
    g->trap_kind = kind;
    snprintf(g->message, sizeof g->message, "%s", message ? message : "");
    siglongjmp(g->env, 1);
}
