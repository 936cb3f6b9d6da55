/* The CPU backend's worker threads (cpu_team.h). Workers are made on first need and live as
 * long as the process. A job is published under `pool.lock` by bumping `generation`; workers
 * spin on it briefly (back-to-back operations are the common case, and a futex wake costs tens
 * of microseconds) and then sleep on `wake`. The caller runs member 0 itself, then waits for
 * `remaining` to reach 0 the same way. One team runs at a time (`team_busy`); any other caller
 * meanwhile runs alone, which keeps nested and concurrent calls correct without oversubscribing. */
#include "runtime/cpu_team.h"
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#define PG_TEAM_MAX 1024
/* How long a waiting thread polls before it sleeps: longer than the host work between two
 * operations of a typical script (allocation, the next call's argument parsing), shorter than
 * what oversubscribed machines notice (libgomp's default spins far longer: on a 2-core machine
 * shared with a build, it made a 1e6-element a + b 6x slower). A futex wake costs tens of
 * microseconds per thread. OMP_WAIT_POLICY=passive: no polling, as in OpenMP. */
#define PG_TEAM_SPIN_NS 200000

typedef void (*PgTeamMember)(void *ctx, int t, int n);

static struct {
    pthread_mutex_t lock; /* guards the job fields, `workers`, and sleeping on the conditions */
    pthread_cond_t wake;  /* a job was published */
    pthread_cond_t done;  /* the last worker of a job finished */
    uint64_t generation;  /* bumped per job; atomic, polled without the lock */
    PgTeamMember member;
    void *ctx;
    int n;         /* members of the current job, the caller included */
    int remaining; /* workers of the current job still running; atomic */
    int workers;   /* threads made so far: members 1 .. workers */
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL, NULL, 0, 0, 0};

static pthread_mutex_t team_busy = PTHREAD_MUTEX_INITIALIZER;
/* the generation at which pg_cpu_team_rest was last called (atomic): workers idle since then sleep */
static uint64_t rest_generation = UINT64_MAX;
static uint64_t start_generation[PG_TEAM_MAX]; /* the generation a new worker was made at */

static int max_threads;
static int64_t spin_ns = PG_TEAM_SPIN_NS;
static pthread_once_t count_once = PTHREAD_ONCE_INIT;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static inline void
cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

static int64_t
now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Whether a thread that began polling may poll on: true until PG_TEAM_SPIN_NS have passed since
 * its first call (deadline 0 then), looking at the clock every 256 polls. */
static int
keep_polling(unsigned poll, int64_t *deadline)
{
    if (poll & 255)
        return 1;
    int64_t t = now_ns();
    if (*deadline == 0)
        *deadline = t + spin_ns;
    return t <= *deadline;
}

/* A positive count from an environment variable ("4", or OpenMP's "4,2" nesting list), or 0. */
static int
env_count(const char *name)
{
    const char *s = getenv(name);
    if (s == NULL)
        return 0;
    char *end;
    long v = strtol(s, &end, 10);
    return end == s || v < 1 ? 0 : v > PG_TEAM_MAX ? PG_TEAM_MAX : (int)v;
}

static void
count_threads(void)
{
    int n = env_count("PYGPU_NUM_THREADS");
    if (n == 0)
        n = env_count("OMP_NUM_THREADS");
    if (n == 0) {
        cpu_set_t set;
        if (sched_getaffinity(0, sizeof set, &set) == 0)
            n = CPU_COUNT(&set);
    }
    if (n == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        n = online > 0 ? (int)online : 1;
    }
    max_threads = n > PG_TEAM_MAX ? PG_TEAM_MAX : n;
    const char *policy = getenv("OMP_WAIT_POLICY");
    if (policy != NULL && strcasecmp(policy, "passive") == 0)
        spin_ns = 0;
}

int
pg_cpu_threads(void)
{
    pthread_once(&count_once, count_threads);
    return max_threads;
}

/* A forked child has only the thread that forked: it starts over with no workers. Taking the
 * lock around fork() keeps the pool's fields whole in the child. The child makes its locks and
 * conditions anew: the parent's workers were waiting on them, and a condition that counts waiters
 * who no longer exist hangs the next wait. A team another thread was running is gone with its
 * threads. */
static void
before_fork(void)
{
    pthread_mutex_lock(&pool.lock);
}

static void
after_fork_parent(void)
{
    pthread_mutex_unlock(&pool.lock);
}

static void
after_fork_child(void)
{
    pool.workers = 0;
    __atomic_store_n(&pool.remaining, 0, __ATOMIC_RELAXED);
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.done, NULL);
    pthread_mutex_init(&team_busy, NULL);
}

static void
register_atfork(void)
{
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

static void *
worker(void *arg)
{
    int t = (int)(intptr_t)arg;
    uint64_t seen = start_generation[t];
    for (;;) {
        int64_t deadline = 0;
        for (unsigned i = 0; __atomic_load_n(&pool.generation, __ATOMIC_ACQUIRE) == seen &&
                             __atomic_load_n(&rest_generation, __ATOMIC_RELAXED) != seen && keep_polling(i, &deadline);
             i++)
            cpu_relax();
        pthread_mutex_lock(&pool.lock);
        while (__atomic_load_n(&pool.generation, __ATOMIC_RELAXED) == seen)
            pthread_cond_wait(&pool.wake, &pool.lock);
        seen = __atomic_load_n(&pool.generation, __ATOMIC_RELAXED);
        PgTeamMember member = pool.member;
        void *ctx = pool.ctx;
        int n = pool.n;
        pthread_mutex_unlock(&pool.lock);
        if (t >= n)
            continue; /* a smaller team than there are workers */
        member(ctx, t, n);
        if (__atomic_sub_fetch(&pool.remaining, 1, __ATOMIC_ACQ_REL) == 0) {
            pthread_mutex_lock(&pool.lock);
            pthread_cond_signal(&pool.done);
            pthread_mutex_unlock(&pool.lock);
        }
    }
    return NULL;
}

/* Makes worker number workers + 1; called with pool.lock held. Workers block the asynchronous
 * signals, so that Ctrl-C and the like reach the threads Python runs on; faults (SIGSEGV in a
 * user's kernel) stay with the thread that caused them. */
static int
start_worker(void)
{
    int t = pool.workers + 1;
    if (t >= PG_TEAM_MAX)
        return -1;
    start_generation[t] = __atomic_load_n(&pool.generation, __ATOMIC_RELAXED);
    sigset_t all, old;
    sigfillset(&all);
    static const int synchronous[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
    for (size_t i = 0; i < sizeof synchronous / sizeof synchronous[0]; i++)
        sigdelset(&all, synchronous[i]);
    pthread_attr_t attr;
    pthread_t id;
    if (pthread_attr_init(&attr) != 0)
        return -1;
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&id, &attr, worker, (void *)(intptr_t)t);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (rc != 0)
        return -1;
    pool.workers = t;
    return 0;
}

static void
wait_for_workers(void)
{
    int64_t deadline = 0;
    for (unsigned i = 0; __atomic_load_n(&pool.remaining, __ATOMIC_ACQUIRE) > 0 && keep_polling(i, &deadline); i++)
        cpu_relax();
    if (__atomic_load_n(&pool.remaining, __ATOMIC_ACQUIRE) == 0)
        return;
    pthread_mutex_lock(&pool.lock);
    while (__atomic_load_n(&pool.remaining, __ATOMIC_ACQUIRE) > 0)
        pthread_cond_wait(&pool.done, &pool.lock);
    pthread_mutex_unlock(&pool.lock);
}

void
pg_cpu_team_rest(void)
{
    __atomic_store_n(&rest_generation, __atomic_load_n(&pool.generation, __ATOMIC_ACQUIRE), __ATOMIC_RELAXED);
}

void
pg_cpu_team(int nt, void (*member)(void *ctx, int t, int n), void *ctx)
{
    if (nt > 1 && pthread_mutex_trylock(&team_busy) == 0) {
        pthread_once(&count_once, count_threads); /* spin_ns */
        pthread_once(&atfork_once, register_atfork);
        pthread_mutex_lock(&pool.lock);
        while (pool.workers < nt - 1 && start_worker() == 0)
            ;
        int n = nt <= pool.workers + 1 ? nt : pool.workers + 1;
        if (n > 1) {
            pool.member = member;
            pool.ctx = ctx;
            pool.n = n;
            __atomic_store_n(&pool.remaining, n - 1, __ATOMIC_RELAXED);
            __atomic_store_n(&pool.generation, pool.generation + 1, __ATOMIC_RELEASE);
            pthread_cond_broadcast(&pool.wake);
        }
        pthread_mutex_unlock(&pool.lock);
        if (n > 1) {
            member(ctx, 0, n);
            wait_for_workers();
        } else {
            member(ctx, 0, 1);
        }
        pthread_mutex_unlock(&team_busy);
        return;
    }
    member(ctx, 0, 1);
}

typedef struct {
    int64_t count, chunk;
    int64_t next; /* the next chunk to take; atomic */
    void (*run)(const void *ctx, int t, int64_t begin, int64_t end);
    const void *ctx;
} TeamFor;

static void
team_for_member(void *ctx, int t, int n)
{
    TeamFor *f = ctx;
    (void)n;
    for (;;) {
        int64_t begin = __atomic_fetch_add(&f->next, 1, __ATOMIC_RELAXED) * f->chunk;
        if (begin >= f->count)
            return;
        f->run(f->ctx, t, begin, begin + f->chunk < f->count ? begin + f->chunk : f->count);
    }
}

void
pg_cpu_team_for(int nt, int64_t count, int64_t chunk, void (*run)(const void *ctx, int t, int64_t begin, int64_t end),
                const void *ctx)
{
    TeamFor f = {count, chunk > 0 ? chunk : 1, 0, run, ctx};
    pg_cpu_team(nt, team_for_member, &f);
}
