/* The streams a device has queued work on (see queue_log.h). One mutex guards the table: notes
 * come from threads that may not hold the GIL (a staged copy queues with the GIL released); joins
 * and retirements hold the GIL and call the backend under the mutex, which no note waits on
 * anything while holding. */
#include "runtime/queue_log.h"

#include <pthread.h>

#define PG_QUEUE_STREAMS 64

typedef struct {
    int used;
    void *handle;        /* the live stream; NULL once retired (a new stream may get its handle) */
    void *event;         /* retired: recorded on the stream just before it was destroyed */
    uint64_t last;       /* epoch of the stream's last note */
    void *joined_into;   /* the stream it was last joined into, at epoch joined_at */
    uint64_t joined_at;
} QueueEntry;

struct PgQueueLog {
    pthread_mutex_t lock;
    uint64_t epoch;
    uint64_t overflow;   /* last epoch at which a stream found no room in the table */
    void *join_event;    /* recorded on a live stream for each join (created on first need) */
    QueueEntry entries[PG_QUEUE_STREAMS];
};

PgQueueLog *
pg_queue_log_new(void)
{
    PgQueueLog *log = PyMem_RawCalloc(1, sizeof(PgQueueLog));
    if (log == NULL)
        return (PgQueueLog *)PyErr_NoMemory();
    pthread_mutex_init(&log->lock, NULL);
    return log;
}

void
pg_queue_log_delete(PgQueueLog *log)
{
    if (log == NULL)
        return;
    pthread_mutex_destroy(&log->lock);
    PyMem_RawFree(log);
}

static QueueEntry *
live_entry(PgQueueLog *log, void *stream)
{
    for (int i = 0; i < PG_QUEUE_STREAMS; i++) {
        QueueEntry *e = &log->entries[i];
        if (e->used && e->event == NULL && e->handle == stream)
            return e;
    }
    return NULL;
}

void
pg_queue_log_note(PgQueueLog *log, void *stream)
{
    pthread_mutex_lock(&log->lock);
    uint64_t now = __atomic_add_fetch(&log->epoch, 1, __ATOMIC_RELAXED); /* read without the lock */
    QueueEntry *e = live_entry(log, stream);
    for (int i = 0; e == NULL && i < PG_QUEUE_STREAMS; i++)
        if (!log->entries[i].used) {
            e = &log->entries[i];
            *e = (QueueEntry){.used = 1, .handle = stream};
        }
    if (e != NULL)
        e->last = now;
    else
        log->overflow = now;
    pthread_mutex_unlock(&log->lock);
}

uint64_t
pg_queue_log_epoch(PgQueueLog *log)
{
    /* every allocation asks: no lock (a value a note later is only more cautious) */
    return __atomic_load_n(&log->epoch, __ATOMIC_RELAXED);
}

/* Makes `stream` wait for what entry e's stream has queued so far; 0 or -1 (exception set). */
static int
join_one(PgDevice *dev, PgQueueLog *log, QueueEntry *e, void *stream)
{
    const PgBackend *be = dev->backend;
    if (e->event != NULL)
        return be->stream_wait_event(dev, stream, e->event);
    if (log->join_event == NULL && be->event_create(dev, &log->join_event) < 0)
        return -1;
    if (be->event_record(dev, log->join_event, e->handle) < 0)
        return -1;
    return be->stream_wait_event(dev, stream, log->join_event);
}

int
pg_queue_log_join(PgDevice *dev, PgQueueLog *log, uint64_t since, void *stream)
{
    if (pg_queue_log_epoch(log) <= since)
        return 0; /* nothing queued anywhere since the block was handed out (every free on the CPU) */
    PyObject *et, *ev, *tb; /* a free may run while an exception is being raised: keep it */
    PyErr_Fetch(&et, &ev, &tb);
    pthread_mutex_lock(&log->lock);
    int rc = log->overflow > since ? -1 : 0;
    for (int i = 0; rc == 0 && i < PG_QUEUE_STREAMS; i++) {
        QueueEntry *e = &log->entries[i];
        if (!e->used || e->last <= since || (e->event == NULL && e->handle == stream))
            continue;
        if (e->joined_into == stream && e->joined_at >= e->last)
            continue; /* nothing queued on it since it was last joined into this stream */
        if (join_one(dev, log, e, stream) < 0) {
            PyErr_Clear();
            rc = -1;
            break;
        }
        e->joined_into = stream;
        e->joined_at = log->epoch;
    }
    pthread_mutex_unlock(&log->lock);
    PyErr_Restore(et, ev, tb);
    return rc;
}

void
pg_queue_log_retire(PgDevice *dev, PgQueueLog *log, void *stream)
{
    const PgBackend *be = dev->backend;
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    pthread_mutex_lock(&log->lock);
    QueueEntry *e = live_entry(log, stream);
    if (e != NULL) {
        /* room for it: the retired streams whose work is done are of no more concern */
        for (int i = 0; i < PG_QUEUE_STREAMS; i++) {
            QueueEntry *r = &log->entries[i];
            if (r->used && r->event != NULL && be->event_query(dev, r->event) == 1) {
                be->event_destroy(dev, r->event);
                r->used = 0;
            }
            PyErr_Clear();
        }
        void *event = NULL;
        if (be->event_create(dev, &event) == 0 && be->event_record(dev, event, stream) == 0) {
            e->event = event;
            e->handle = NULL;
        } else {
            /* no event to remember its work by: wait for that work now */
            if (event != NULL)
                be->event_destroy(dev, event);
            be->stream_synchronize(dev, stream);
            e->used = 0;
        }
        PyErr_Clear();
    }
    pthread_mutex_unlock(&log->lock);
    PyErr_Restore(et, ev, tb);
}
