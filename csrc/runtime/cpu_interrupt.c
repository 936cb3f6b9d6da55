/* SIGINT during CPU launches (see cpu_interrupt.h). The GIL serialises begin and end, so the
 * count of open scopes and the saved handler need no lock of their own. */
#include "runtime/cpu_interrupt.h"
#include "kernels/cpu_stop.h"

#include <signal.h>

static int scopes;                 /* open scopes, on every thread */
static int installed;              /* our handler is SIGINT's */
static struct sigaction previous;  /* the handler it replaced, called after it */

static void
on_sigint(int signo, siginfo_t *info, void *context)
{
    PG_CPU_SET_STOP(1);
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction != NULL)
            previous.sa_sigaction(signo, info, context);
    } else if (previous.sa_handler != SIG_IGN && previous.sa_handler != SIG_DFL && previous.sa_handler != NULL) {
        previous.sa_handler(signo);
    }
}

/* Installs our handler in front of the interpreter's, unless SIGINT is ignored or left to its
 * default action. */
static void
install(void)
{
    struct sigaction current;
    if (sigaction(SIGINT, NULL, &current) != 0)
        return;
    int handled = (current.sa_flags & SA_SIGINFO) ? current.sa_sigaction != NULL
                                                  : current.sa_handler != SIG_IGN && current.sa_handler != SIG_DFL;
    if (!handled)
        return; /* ignored, or the default (the process ends): not ours to change */
    struct sigaction ours;
    memset(&ours, 0, sizeof ours);
    ours.sa_sigaction = on_sigint;
    ours.sa_flags = SA_SIGINFO | SA_ONSTACK | (current.sa_flags & SA_RESTART);
    sigemptyset(&ours.sa_mask);
    previous = current;
    if (sigaction(SIGINT, &ours, NULL) == 0)
        installed = 1;
}

static void
uninstall(void)
{
    if (installed) {
        sigaction(SIGINT, &previous, NULL);
        installed = 0;
    }
}

int
pg_cpu_interrupt_begin(void)
{
    if (scopes++ == 0)
        install();
    /* after installing: a SIGINT from now on raises the stop flag, and one that came before is
     * pending with the interpreter, which says so here */
    if (PyErr_CheckSignals() < 0) {
        if (--scopes == 0) {
            uninstall();
            PG_CPU_SET_STOP(0);
        }
        return -1;
    }
    return 0;
}

int
pg_cpu_interrupt_end(void)
{
    if (--scopes > 0) { /* the flag stays up until the last scope ends */
        if (!PG_CPU_STOPPING())
            return 0;
        PyErr_SetString(PyExc_KeyboardInterrupt, "CPU kernel interrupted");
        return -1;
    }
    uninstall();
    int stopped = PG_CPU_STOPPING();
    PG_CPU_SET_STOP(0);
    if (!stopped)
        return 0;
    /* the interpreter's handler has run (or will, in the main thread): let it raise */
    if (PyErr_CheckSignals() < 0)
        return -1;
    PyErr_SetString(PyExc_KeyboardInterrupt, "CPU kernel interrupted");
    return -1;
}
