/* The fake driver's asynchronous side: streams, events, copies and kernel launches.
 *
 * Each stream has a worker thread that runs its queued operations in order, a copy or a kernel
 * after MOCK_CUDA_DELAY_US, so that a missing synchronisation reads a stale value. The legacy
 * default stream (handle NULL or CU_STREAM_LEGACY) of a context is ordered with its blocking
 * streams (created with flags 0, and the per-thread default stream) both ways: its work waits for
 * theirs queued before, theirs waits for its; CU_STREAM_NON_BLOCKING streams are ordered with
 * nothing. Every dependency points to work queued earlier, so no wait can deadlock.
 *
 * A kernel is not run; its launch checks pygpu's parameter block (NAME_c: PgContigArgs, NAME_s:
 * PgLoopArgs; other names are other families and go unchecked; a user kernel's parameters, read
 * with the sizes its image declares, are recorded for the tests): a data pointer, or a stride of
 * a dimension longer than 1, that is not a multiple of its operand type's alignment makes the
 * kernel fault when it runs, as MOCK_CUDA_FAULT_AFTER makes the n-th launch fault. A fault is
 * sticky: the context runs nothing more and every later call returns it. */
#include "mock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define STREAM_MAGIC 0x7374726du
#define EVENT_MAGIC 0x6576656eu

typedef struct Event Event;

typedef enum { OP_COPY, OP_KERNEL, OP_RECORD, OP_WAIT_EVENT, OP_WAIT_STREAM, OP_WAIT_VALUE, OP_MARKER } OpKind;

typedef struct Op {
    OpKind kind;
    struct Op *next;
    char *dst; /* copy; owned: the snapshot of a pageable source, freed when done */
    const char *src;
    size_t n;
    char *owned;
    CUresult fault;  /* kernel: the fault it raises when it runs, or 0 */
    Event *event;    /* record, wait event: the generation recorded / waited for */
    unsigned long gen;
    Stream *other;   /* wait stream: until other has done `count` operations */
    unsigned long count;
    const volatile uint32_t *addr; /* wait value (cuStreamWaitValue32) */
    uint32_t value;
    unsigned int cond;
} Op;

struct Stream {
    unsigned magic;
    Context *ctx;
    unsigned int flags; /* 0 (blocking) or CU_STREAM_NON_BLOCKING */
    int legacy;         /* the context's legacy default stream */
    int destroyed;
    unsigned long submitted, completed; /* operations queued and done, in order */
    Op *head, *tail;
    int worker_running;
    Stream *next_in_ctx;
};

struct Event {
    unsigned magic;
    Context *ctx;
    unsigned int flags;
    unsigned long recorded, completed; /* generations: the latest record queued, and reached */
    double ms;                         /* when the latest completed record was reached */
};

/* This thread's CU_STREAM_PER_THREAD stream of each device. */
static __thread Stream *per_thread[MOCK_MAX_DEVICES];

static double
now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* ------------------------------------------------------------------ the workers */

static int
op_ready(const Op *op)
{
    switch (op->kind) {
    case OP_WAIT_EVENT:
        return op->event->completed >= op->gen;
    case OP_WAIT_STREAM:
        return op->other->completed >= op->count;
    case OP_WAIT_VALUE: {
        uint32_t v = *op->addr;
        switch (op->cond) {
        case 0: return (int32_t)(v - op->value) >= 0; /* CU_STREAM_WAIT_VALUE_GEQ */
        case 1: return v == op->value;                /* EQ */
        case 2: return (v & op->value) != 0;          /* AND */
        default: return ~(v | op->value) != 0;        /* NOR */
        }
    }
    default:
        return 1;
    }
}

/* Runs op (lock held; released while a copy or kernel "executes"). A faulted context runs
 * nothing more, but its event records still complete so that other contexts do not hang. */
/* The launch count when a wait-value op last let its stream go (mock_launches_at_release()): a
 * test that held an operation's last kernel learns whether it queued another after waiting. */
static long launches_at_release;

long
mock_launches_at_release(void)
{
    pthread_mutex_lock(&mock_lock);
    long n = launches_at_release;
    pthread_mutex_unlock(&mock_lock);
    return n;
}

static void
run_op(Stream *s, Op *op)
{
    Context *ctx = s->ctx;
    switch (op->kind) {
    case OP_COPY:
    case OP_KERNEL:
        if (ctx->sticky)
            return;
        pthread_mutex_unlock(&mock_lock);
        mock_sleep_us(mock_settings.delay_us);
        pthread_mutex_lock(&mock_lock);
        if (ctx->sticky)
            return;
        if (op->kind == OP_COPY) {
            /* no free can release either side meanwhile: frees wait for queued work */
            pthread_mutex_unlock(&mock_lock);
            memcpy(op->dst, op->src, op->n);
            pthread_mutex_lock(&mock_lock);
        } else if (op->fault) {
            ctx->sticky = op->fault;
            mock_stats_data.faults++;
        }
        return;
    case OP_RECORD:
        if (op->gen > op->event->completed) {
            op->event->completed = op->gen;
            op->event->ms = now_ms();
        }
        return;
    case OP_WAIT_VALUE:
        launches_at_release = mock_stats_data.launches;
        return;
    default:
        return;
    }
}

static void
unlink_stream(Stream *s)
{
    for (Stream **l = &s->ctx->streams; *l; l = &(*l)->next_in_ctx) {
        if (*l == s) {
            *l = s->next_in_ctx;
            return;
        }
    }
}

static void *
worker_main(void *arg)
{
    Stream *s = arg;
    pthread_mutex_lock(&mock_lock);
    for (;;) {
        Op *op = s->head;
        if (op == NULL) {
            if (s->destroyed)
                break;
            pthread_cond_wait(&mock_cond, &mock_lock);
            continue;
        }
        if (!s->ctx->sticky && !op_ready(op)) {
            if (op->kind == OP_WAIT_VALUE) { /* the host writes the value without telling us */
                struct timespec t;
                clock_gettime(CLOCK_REALTIME, &t);
                t.tv_nsec += 200000;
                if (t.tv_nsec >= 1000000000) {
                    t.tv_sec++;
                    t.tv_nsec -= 1000000000;
                }
                pthread_cond_timedwait(&mock_cond, &mock_lock, &t);
            } else {
                pthread_cond_wait(&mock_cond, &mock_lock);
            }
            continue;
        }
        run_op(s, op);
        s->head = op->next;
        if (s->head == NULL)
            s->tail = NULL;
        s->completed++;
        free(op->owned);
        free(op);
        pthread_cond_broadcast(&mock_cond);
    }
    /* destroyed and drained: the struct stays (waits of other streams may still name it) */
    s->worker_running = 0;
    unlink_stream(s);
    pthread_mutex_unlock(&mock_lock);
    return NULL;
}

/* ------------------------------------------------------------------ queueing */

static Stream *
stream_new(Context *ctx, unsigned int flags, int legacy)
{
    Stream *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    s->magic = STREAM_MAGIC;
    s->ctx = ctx;
    s->flags = flags;
    s->legacy = legacy;
    s->next_in_ctx = ctx->streams;
    ctx->streams = s;
    return s;
}

/* The stream a handle names (lock held), in *s: NULL or CU_STREAM_LEGACY (0x1) is the current
 * context's legacy stream, CU_STREAM_PER_THREAD (0x2) this thread's; any other handle must be a
 * live stream. Returns 0, the error, or the stream context's sticky fault. */
static CUresult
stream_of(Handle h, Stream **s)
{
    uintptr_t v = (uintptr_t)h;
    *s = NULL;
    if (v <= 2) {
        Context *ctx;
        CUresult r = mock_current_context(&ctx);
        if (r != CUDA_SUCCESS)
            return r;
        Stream **slot = v == 2 ? &per_thread[ctx->device] : &ctx->legacy;
        if (*slot == NULL && (*slot = stream_new(ctx, 0, v != 2)) == NULL)
            return CUDA_ERROR_OUT_OF_MEMORY;
        *s = *slot;
        return CUDA_SUCCESS;
    }
    CUresult r = mock_driver_ready();
    if (r != CUDA_SUCCESS)
        return r;
    for (int d = 0; d < mock_settings.devices; d++)
        for (Stream *t = mock_contexts[d].streams; t; t = t->next_in_ctx)
            if (t == h && !t->destroyed && !t->legacy) {
                *s = t;
                return t->ctx->sticky;
            }
    return CUDA_ERROR_INVALID_HANDLE;
}

static int
stream_busy(const Stream *s)
{
    return s->completed < s->submitted;
}

static void
push(Stream *s, Op *op)
{
    op->next = NULL;
    if (s->tail)
        s->tail->next = op;
    else
        s->head = op;
    s->tail = op;
    s->submitted++;
}

static Op *
op_new(OpKind kind)
{
    Op *op = calloc(1, sizeof *op);
    if (op != NULL)
        op->kind = kind;
    return op;
}

/* Makes s wait for what `other` has queued so far. */
static CUresult
wait_for_stream(Stream *s, Stream *other)
{
    Op *op = op_new(OP_WAIT_STREAM);
    if (op == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    op->other = other;
    op->count = other->submitted;
    push(s, op);
    mock_stats_data.implicit_waits++;
    return CUDA_SUCCESS;
}

/* Queues op on s (lock held) behind what the legacy stream's ordering requires; op is freed on
 * failure. */
static CUresult
submit(Stream *s, Op *op)
{
    CUresult r = CUDA_SUCCESS;
    if (s->legacy) {
        for (Stream *o = s->ctx->streams; o && r == CUDA_SUCCESS; o = o->next_in_ctx)
            if (o != s && !o->legacy && o->flags == 0 && stream_busy(o))
                r = wait_for_stream(s, o);
    } else if (s->flags == 0 && s->ctx->legacy != NULL && stream_busy(s->ctx->legacy)) {
        r = wait_for_stream(s, s->ctx->legacy);
    }
    if (r == CUDA_SUCCESS && !s->worker_running) {
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&t, &attr, worker_main, s) == 0)
            s->worker_running = 1;
        else
            r = CUDA_ERROR_OUT_OF_MEMORY;
        pthread_attr_destroy(&attr);
    }
    if (r != CUDA_SUCCESS) {
        free(op->owned);
        free(op);
        return r;
    }
    push(s, op);
    pthread_cond_broadcast(&mock_cond);
    return CUDA_SUCCESS;
}

/* Waits (lock held) until s has done its first `count` operations or its context faulted. */
static CUresult
wait_done(Stream *s, unsigned long count)
{
    while (!s->ctx->sticky && s->completed < count)
        pthread_cond_wait(&mock_cond, &mock_lock);
    return s->ctx->sticky;
}

/* Queues a marker on s and waits for it: on the legacy stream, that includes the blocking
 * streams' earlier work. */
static CUresult
drain(Stream *s)
{
    Op *op = op_new(OP_MARKER);
    if (op == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    CUresult r = submit(s, op);
    return r != CUDA_SUCCESS ? r : wait_done(s, s->submitted);
}

void
mock_wait_all_idle(void)
{
    for (;;) {
        int busy = 0;
        for (int d = 0; d < mock_settings.devices && !busy; d++)
            for (Stream *s = mock_contexts[d].streams; s && !busy; s = s->next_in_ctx)
                busy = stream_busy(s);
        if (!busy)
            return;
        pthread_cond_wait(&mock_cond, &mock_lock);
    }
}

/* The body of an entry point, under the lock: it sets r, and `break` leaves it. */
#define LOCKED(...)                     \
    pthread_mutex_lock(&mock_lock);     \
    CUresult r = CUDA_SUCCESS;          \
    do                                  \
        __VA_ARGS__                     \
    while (0);                          \
    pthread_mutex_unlock(&mock_lock);   \
    return r

/* ------------------------------------------------------------------ streams */

CUresult
cuStreamCreate(Handle *out, unsigned int flags)
{
    Context *ctx;
    LOCKED({
        if ((r = mock_current_context(&ctx)) != CUDA_SUCCESS)
            break;
        if (flags > 1) { /* 0, or CU_STREAM_NON_BLOCKING */
            r = CUDA_ERROR_INVALID_VALUE;
            break;
        }
        Stream *s = stream_new(ctx, flags, 0);
        if (s == NULL) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
            break;
        }
        if (flags)
            mock_stats_data.non_blocking_streams++;
        else
            mock_stats_data.blocking_streams++;
        *out = s;
    });
}

/* Queued work still completes; the worker then ends. */
CUresult
cuStreamDestroy_v2(Handle h)
{
    Stream *s;
    LOCKED({
        if ((uintptr_t)h <= 2) {
            r = CUDA_ERROR_INVALID_HANDLE;
            break;
        }
        r = stream_of(h, &s);
        if (s == NULL)
            break;
        r = CUDA_SUCCESS; /* destroying a stream of a faulted context is allowed */
        s->destroyed = 1;
        if (!s->worker_running)
            unlink_stream(s);
        pthread_cond_broadcast(&mock_cond);
    });
}

CUresult
cuStreamSynchronize(Handle h)
{
    Stream *s;
    LOCKED({
        if ((r = stream_of(h, &s)) != CUDA_SUCCESS)
            break;
        r = s->legacy ? drain(s) : wait_done(s, s->submitted);
    });
}

CUresult
cuStreamQuery(Handle h)
{
    Stream *s;
    LOCKED({
        if ((r = stream_of(h, &s)) != CUDA_SUCCESS)
            break;
        int busy = stream_busy(s);
        if (s->legacy)
            for (Stream *o = s->ctx->streams; o; o = o->next_in_ctx)
                busy |= !o->legacy && o->flags == 0 && stream_busy(o);
        r = busy ? CUDA_ERROR_NOT_READY : CUDA_SUCCESS;
    });
}

/* A stream waits until a 32-bit word in host-visible memory meets a condition (GEQ, EQ, AND,
 * NOR): the tests hold a stream with it. */
CUresult
cuStreamWaitValue32_v2(Handle h, CUdeviceptr addr, uint32_t value, unsigned int flags)
{
    Stream *s;
    LOCKED({
        if ((r = stream_of(h, &s)) != CUDA_SUCCESS)
            break;
        Alloc *a = mock_find_alloc((void *)(uintptr_t)addr);
        Op *op;
        if (a == NULL || addr % 4 || (flags & 3u) != flags) {
            r = CUDA_ERROR_INVALID_VALUE;
            break;
        }
        if ((op = op_new(OP_WAIT_VALUE)) == NULL) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
            break;
        }
        op->addr = (const volatile uint32_t *)(uintptr_t)addr;
        op->value = value;
        op->cond = flags;
        r = submit(s, op);
    });
}

CUresult
cuStreamWaitValue32(Handle h, CUdeviceptr addr, uint32_t value, unsigned int flags)
{
    return cuStreamWaitValue32_v2(h, addr, value, flags);
}

/* A test hook, not a driver call: writes value to *word after delay_us, from a thread of its
 * own, so that a held stream is let go even while the caller blocks in the driver holding
 * Python's GIL. Returns 0, or -1 when no thread could be started. */
typedef struct {
    volatile uint32_t *word;
    uint32_t value;
    long delay_us;
} LateWrite;

static void *
late_write(void *arg)
{
    LateWrite *w = arg;
    mock_sleep_us(w->delay_us);
    pthread_mutex_lock(&mock_lock);
    *w->word = w->value;
    pthread_cond_broadcast(&mock_cond);
    pthread_mutex_unlock(&mock_lock);
    free(w);
    return NULL;
}

int
mock_write_after(uint32_t *word, uint32_t value, long delay_us)
{
    LateWrite *w = malloc(sizeof *w);
    pthread_t t;
    pthread_attr_t attr;
    if (w == NULL)
        return -1;
    *w = (LateWrite){word, value, delay_us};
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    int rc = pthread_create(&t, &attr, late_write, w);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        free(w);
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------ events */

static Event *
event_of(Handle e)
{
    Event *ev = e;
    return ev != NULL && ev->magic == EVENT_MAGIC ? ev : NULL;
}

CUresult
cuEventCreate(Handle *out, unsigned int flags)
{
    Context *ctx;
    LOCKED({
        if ((r = mock_current_context(&ctx)) != CUDA_SUCCESS)
            break;
        if (flags & ~7u) { /* blocking sync, disable timing, interprocess */
            r = CUDA_ERROR_INVALID_VALUE;
            break;
        }
        Event *ev = calloc(1, sizeof *ev);
        if (ev == NULL) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
            break;
        }
        ev->magic = EVENT_MAGIC;
        ev->ctx = ctx;
        ev->flags = flags;
        *out = ev;
    });
}

/* The struct is kept (a queued record or wait may name it); the handle is dead. */
CUresult
cuEventDestroy_v2(Handle e)
{
    Event *ev;
    LOCKED({
        if ((r = mock_driver_ready()) != CUDA_SUCCESS)
            break;
        if ((ev = event_of(e)) == NULL)
            r = CUDA_ERROR_INVALID_HANDLE;
        else
            ev->magic = 0;
    });
}

CUresult
cuEventRecord(Handle e, Handle h)
{
    Stream *s;
    LOCKED({
        Event *ev = event_of(e);
        Op *op;
        if ((r = stream_of(h, &s)) != CUDA_SUCCESS)
            break;
        if (ev == NULL || ev->ctx != s->ctx) { /* an event is recorded in its own context */
            r = CUDA_ERROR_INVALID_HANDLE;
            break;
        }
        if ((op = op_new(OP_RECORD)) == NULL) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
            break;
        }
        op->event = ev;
        op->gen = ev->recorded + 1;
        if ((r = submit(s, op)) == CUDA_SUCCESS)
            ev->recorded++;
    });
}

CUresult
cuStreamWaitEvent(Handle h, Handle e, unsigned int flags)
{
    Stream *s;
    LOCKED({
        Event *ev = event_of(e);
        Op *op;
        if ((r = stream_of(h, &s)) != CUDA_SUCCESS)
            break;
        if (ev == NULL) {
            r = CUDA_ERROR_INVALID_HANDLE;
            break;
        }
        if (flags != 0) {
            r = CUDA_ERROR_INVALID_VALUE;
            break;
        }
        if (ev->completed >= ev->recorded) /* never recorded, or already reached */
            break;
        if ((op = op_new(OP_WAIT_EVENT)) == NULL) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
            break;
        }
        op->event = ev;
        op->gen = ev->recorded;
        r = submit(s, op);
    });
}

CUresult
cuEventQuery(Handle e)
{
    LOCKED({
        Event *ev = event_of(e);
        if ((r = mock_driver_ready()) != CUDA_SUCCESS)
            break;
        if (ev == NULL)
            r = CUDA_ERROR_INVALID_HANDLE;
        else if ((r = ev->ctx->sticky) == CUDA_SUCCESS && ev->completed < ev->recorded)
            r = CUDA_ERROR_NOT_READY;
    });
}

CUresult
cuEventSynchronize(Handle e)
{
    LOCKED({
        Event *ev = event_of(e);
        if ((r = mock_driver_ready()) != CUDA_SUCCESS)
            break;
        if (ev == NULL) {
            r = CUDA_ERROR_INVALID_HANDLE;
            break;
        }
        mock_stats_data.event_syncs++;
        unsigned long target = ev->recorded;
        while (!ev->ctx->sticky && ev->completed < target)
            pthread_cond_wait(&mock_cond, &mock_lock);
        r = ev->ctx->sticky;
    });
}

CUresult
cuEventElapsedTime_v2(float *ms, Handle a, Handle b)
{
    LOCKED({
        Event *ea = event_of(a), *eb = event_of(b);
        if ((r = mock_driver_ready()) != CUDA_SUCCESS)
            break;
        if (ea == NULL || eb == NULL || !ea->recorded || !eb->recorded || ((ea->flags | eb->flags) & 2u))
            r = CUDA_ERROR_INVALID_HANDLE; /* never recorded, or created with CU_EVENT_DISABLE_TIMING */
        else if ((r = ea->ctx->sticky) != CUDA_SUCCESS)
            ;
        else if (ea->completed < ea->recorded || eb->completed < eb->recorded)
            r = CUDA_ERROR_NOT_READY;
        else
            *ms = (float)(eb->ms - ea->ms);
    });
}

CUresult
cuCtxSynchronize(void)
{
    Context *ctx;
    LOCKED({
        if ((r = mock_current_context(&ctx)) != CUDA_SUCCESS)
            break;
        /* what is queued now, on every stream of the context */
        size_t n = 0, i = 0;
        for (Stream *s = ctx->streams; s; s = s->next_in_ctx)
            n++;
        Stream **streams = malloc((n + 1) * sizeof *streams);
        unsigned long *targets = malloc((n + 1) * sizeof *targets);
        if (streams == NULL || targets == NULL)
            r = CUDA_ERROR_OUT_OF_MEMORY;
        for (Stream *s = ctx->streams; s && r == CUDA_SUCCESS; s = s->next_in_ctx, i++) {
            streams[i] = s;
            targets[i] = s->submitted;
        }
        for (i = 0; i < n && r == CUDA_SUCCESS; i++)
            r = wait_done(streams[i], targets[i]);
        free(streams);
        free(targets);
    });
}

/* ------------------------------------------------------------------ copies */

/* Queues a copy on s (lock held). Pageable host memory (memory the driver does not know) is
 * read before returning (host to device: the caller may reuse it at once) or written before
 * returning (device to host), as the real driver does; other copies return before the data
 * moves. */
static CUresult
copy_on(Stream *s, char *dst, const char *src, size_t n)
{
    Alloc *ad = mock_find_alloc(dst), *as = mock_find_alloc(src);
    if (ad == NULL && as == NULL)
        return CUDA_ERROR_INVALID_VALUE; /* host to host through the driver: not something pygpu should ask */
    if ((ad && dst + n > ad->ptr + ad->size) || (as && src + n > as->ptr + as->size))
        return CUDA_ERROR_INVALID_VALUE; /* out of bounds of an allocation */
    if (n == 0)
        return CUDA_SUCCESS;
    Op *op = op_new(OP_COPY);
    if (op == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    op->dst = dst;
    op->src = src;
    op->n = n;
    int wait = 0;
    if (as == NULL) {
        if ((op->owned = malloc(n)) == NULL) {
            free(op);
            return CUDA_ERROR_OUT_OF_MEMORY;
        }
        memcpy(op->owned, src, n); /* staged now, so the caller may reuse its buffer on return */
        op->src = op->owned;
    } else if (ad == NULL) {
        wait = 1;
    }
    CUresult r = submit(s, op);
    if (r != CUDA_SUCCESS)
        return r;
    mock_stats_data.copies++;
    if (ad == NULL || as == NULL)
        mock_stats_data.pageable_copies++;
    if (wait)
        return wait_done(s, s->submitted);
    mock_stats_data.async_copies++;
    return CUDA_SUCCESS;
}

CUresult
cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, Handle h)
{
    Context *ctx;
    Stream *s;
    LOCKED({
        if ((r = mock_current_context(&ctx)) != CUDA_SUCCESS || (r = stream_of(h, &s)) != CUDA_SUCCESS)
            break;
        r = copy_on(s, (char *)(uintptr_t)dst, (const char *)(uintptr_t)src, n);
    });
}

/* Synchronous: on the legacy stream, then waits for it. */
CUresult
cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t n)
{
    Stream *s;
    LOCKED({
        if ((r = stream_of(NULL, &s)) != CUDA_SUCCESS)
            break;
        if ((r = copy_on(s, (char *)(uintptr_t)dst, (const char *)(uintptr_t)src, n)) == CUDA_SUCCESS)
            r = wait_done(s, s->submitted);
    });
}

/* ------------------------------------------------------------------ kernels */

static const size_t type_alignment[PG_NTYPES] = {
    [PG_BOOL] = 1,
    [PG_INT8] = _Alignof(int8_t),
    [PG_INT16] = _Alignof(int16_t),
    [PG_INT32] = _Alignof(int32_t),
    [PG_INT64] = _Alignof(int64_t),
    [PG_UINT8] = _Alignof(uint8_t),
    [PG_UINT16] = _Alignof(uint16_t),
    [PG_UINT32] = _Alignof(uint32_t),
    [PG_UINT64] = _Alignof(uint64_t),
    [PG_FLOAT16] = _Alignof(pg_half),
    [PG_FLOAT32] = _Alignof(float),
    [PG_FLOAT64] = _Alignof(double),
    [PG_COMPLEX64] = _Alignof(pg_complex64),
    [PG_COMPLEX128] = _Alignof(pg_complex128),
};

static int
off_alignment(const void *p, int64_t stride, int type)
{
    if (type < 0 || type >= PG_NTYPES)
        return 0;
    size_t a = type_alignment[type];
    return (uintptr_t)p % a != 0 || (uint64_t)stride % a != 0;
}

/* Whether a launch of an elementwise kernel (form 'c' or 's') reads or writes through a
 * misaligned typed pointer. */
static int
misaligned(int form, const void *params)
{
    if (form == 'c') {
        const PgContigArgs *a = params;
        for (int k = 0; k < PG_MAXARGS; k++)
            if (a->data[k] != NULL && off_alignment(a->data[k], 0, a->types[k]))
                return 1;
        return 0;
    }
    const PgLoopArgs *a = params;
    int nargs = a->nargs < PG_MAXARGS ? a->nargs : PG_MAXARGS;
    int ndim = a->ndim < PG_MAXDIMS ? a->ndim : PG_MAXDIMS;
    for (int k = 0; k < nargs; k++) {
        if (a->data[k] == NULL)
            continue;
        if (off_alignment(a->data[k], 0, a->types[k]))
            return 1;
        for (int d = 0; d < ndim; d++)
            if (a->shape[d] > 1 && off_alignment(NULL, a->strides[k][d], a->types[k]))
                return 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ test hooks: hold at a kernel, launch log */

/* mock_hold_at(prefix, word): the next kernel launched whose name starts with prefix waits, on its
 * stream, until *word is nonzero (a wait-value queued just before it). For a test that must hold
 * the work an operation queues after it synchronised internally. */
static char hold_prefix[128];
static const volatile uint32_t *hold_word;

int
mock_hold_at(const char *prefix, uint32_t *word)
{
    pthread_mutex_lock(&mock_lock);
    snprintf(hold_prefix, sizeof hold_prefix, "%s", prefix ? prefix : "");
    hold_word = word;
    pthread_mutex_unlock(&mock_lock);
    return 0;
}

/* With mock_lock held: queues the armed hold before a launch of `name` on s, once. */
static CUresult
hold_before(Stream *s, const char *name)
{
    if (hold_word == NULL || strncmp(name, hold_prefix, strlen(hold_prefix)) != 0)
        return CUDA_SUCCESS;
    Op *op = op_new(OP_WAIT_VALUE);
    if (op == NULL)
        return CUDA_ERROR_OUT_OF_MEMORY;
    op->addr = hold_word;
    op->value = 1;
    op->cond = 0; /* GEQ */
    hold_word = NULL;
    return submit(s, op);
}

/* The distinct names of the kernels launched so far, for coverage checks: mock_launched(i) is the
 * i-th (NULL past the end). */
#define LAUNCH_LOG_MAX 8192
static char *launch_log[LAUNCH_LOG_MAX];
static int launch_log_n;

static void
log_launch(const char *name)
{
    for (int i = 0; i < launch_log_n; i++)
        if (strcmp(launch_log[i], name) == 0)
            return;
    if (launch_log_n < LAUNCH_LOG_MAX && (launch_log[launch_log_n] = strdup(name)) != NULL)
        launch_log_n++;
}

const char *
mock_launched(int i)
{
    pthread_mutex_lock(&mock_lock);
    const char *name = i >= 0 && i < launch_log_n ? launch_log[i] : NULL;
    pthread_mutex_unlock(&mock_lock);
    return name;
}

CUresult
cuLaunchKernel(Handle f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by,
               unsigned int bz, unsigned int shmem, Handle h, void **params, void **extra)
{
    Context *ctx;
    Stream *s;
    LOCKED({
        const Function *fn = f;
        if ((r = mock_current_context(&ctx)) != CUDA_SUCCESS || (r = stream_of(h, &s)) != CUDA_SUCCESS)
            break;
        /* a function or a stream of another context is not valid here */
        if (fn == NULL || fn->magic != FUNCTION_MAGIC || fn->module->magic != MODULE_MAGIC ||
            fn->module->ctx != ctx || s->ctx != ctx) {
            r = CUDA_ERROR_INVALID_HANDLE;
            break;
        }
        /* pygpu's own kernels launch 1-d grids without shared memory; a user kernel may use all
         * that the device allows, and the parameters its image declares */
        int user = fn->form == 'u';
        if (gx == 0 || gy == 0 || gz == 0 || bx == 0 || by == 0 || bz == 0 || extra != NULL ||
            (!user && (gy != 1 || gz != 1 || by != 1 || bz != 1 || shmem != 0)) ||
            (user && ((unsigned long long)bx * by * bz > MOCK_MAX_THREADS || bx > 1024 || by > 1024 || bz > 64 ||
                      gy > 65535 || gz > 65535 || shmem > (unsigned int)fn->max_dynamic_shared)) ||
            (params == NULL && !(user && fn->kernel->nparams == 0)) || (fn->form && !user && params[0] == NULL)) {
            r = CUDA_ERROR_INVALID_VALUE;
            break;
        }
        const char *e = getenv("MOCK_CUDA_LAUNCH_ERROR");
        long err = e && *e ? strtol(e, NULL, 10) : 0;
        if (err) {
            if (err == CUDA_ERROR_ILLEGAL_ADDRESS || err == CUDA_ERROR_LAUNCH_FAILED)
                ctx->sticky = (CUresult)err;
            r = (CUresult)err;
            break;
        }
        Op *op = op_new(OP_KERNEL);
        if (op == NULL) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
            break;
        }
        if ((fn->form == 'c' || fn->form == 's') && misaligned(fn->form, params[0])) {
            op->fault = CUDA_ERROR_MISALIGNED_ADDRESS;
            mock_stats_data.misaligned_launches++;
        }
        MockStats *st = &mock_stats_data;
        if (op->fault == 0 && mock_settings.fault_after == st->launches + 1)
            op->fault = CUDA_ERROR_ILLEGAL_ADDRESS;
        if ((r = hold_before(s, fn->name)) != CUDA_SUCCESS || (r = submit(s, op)) != CUDA_SUCCESS)
            break;
        log_launch(fn->name);
        st->launches++;
        st->grid = gx;
        st->block = bx;
        st->param_bytes_hint = fn->form == 'c' ? sizeof(PgContigArgs) : fn->form == 's' ? sizeof(PgLoopArgs) : 0;
        snprintf(st->last_kernel, sizeof st->last_kernel, "%s", fn->name);
        st->grid_yz[0] = gy;
        st->grid_yz[1] = gz;
        st->block_yz[0] = by;
        st->block_yz[1] = bz;
        st->shared_mem = shmem;
        if (user) {
            /* what the kernel would find in its parameter space */
            const MockKernel *k = fn->kernel;
            memset(st->last_params, 0, sizeof st->last_params);
            st->last_nparams = k->nparams;
            for (uint32_t i = 0; i < k->nparams; i++)
                if (k->param_offset[i] + k->param_size[i] <= sizeof st->last_params)
                    memcpy(st->last_params + k->param_offset[i], params[i], k->param_size[i]);
        }
    });
}

/* A cooperative launch: the same checks and record as cuLaunchKernel (the mock runs no kernel,
 * so residency only matters to the occupancy below, which pygpu checks the grid against). */
CUresult
cuLaunchCooperativeKernel(Handle f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx,
                          unsigned int by, unsigned int bz, unsigned int shmem, Handle h, void **params)
{
    return cuLaunchKernel(f, gx, gy, gz, bx, by, bz, shmem, h, params, NULL);
}

/* 2048 resident threads a multiprocessor, at most 32 blocks (as an sm_90 has). */
CUresult
cuOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, Handle f, int threads, size_t shmem)
{
    (void)shmem;
    if (blocks == NULL || f == NULL || threads <= 0)
        return CUDA_ERROR_INVALID_VALUE;
    *blocks = 2048 / threads < 32 ? 2048 / threads : 32;
    return CUDA_SUCCESS;
}
