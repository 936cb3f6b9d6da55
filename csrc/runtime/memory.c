/* The caching pool. Size classes are four per power of two (waste at most 25%), each with a
 * free list per memory kind; blocks keep their PgBlock header while cached, so an allocation
 * served from the cache costs a list pop. The GIL serialises every call. Stream-aware reuse:
 * see memory.h. */
#include "runtime/memory.h"
#include "runtime/queue_log.h"

#define PG_NCLASSES (64 * 4)
#define PG_MIN_BLOCK 256

/* A stream pygpu created, as the pool knows it. */
typedef struct {
    void *handle;
    int non_blocking;
    long refs;        /* blocks tagged with it, in use or cached */
    int removed;      /* its Stream object is gone: destroy it when refs reaches 0 */
} PoolStream;

struct PgPool {
    PgBlock *free_lists[PG_MEM_NKINDS][PG_NCLASSES];
    size_t used_bytes;
    size_t cached_bytes;
    size_t cached_blocks;
    PoolStream *streams;
    int nstreams, cap_streams;
    PgQueueLog *queued; /* the streams work was queued on, for the joins at a free */
    int exact;        /* PYGPU_POOL=off: exact sizes (in whole words), nothing cached (for compute-sanitizer) */
    size_t limit;     /* the most bytes the pool may hold, in use and cached (CuPy's set_limit); 0: none */
};

/* Class index and rounded size of a request: 256 B minimum, then 2^k * {1, 1.25, 1.5, 1.75}. */
static int
size_class(size_t n, size_t *rounded)
{
    if (n <= PG_MIN_BLOCK) {
        *rounded = PG_MIN_BLOCK;
        return 0;
    }
    int k = 63 - __builtin_clzll((unsigned long long)(n - 1)); /* 2^k < n <= 2^(k+1) */
    size_t base = (size_t)1 << k;
    size_t quarter = base / 4;
    size_t steps = (n - base + quarter - 1) / quarter;    /* 1..4 quarters above 2^k */
    *rounded = base + steps * quarter;
    return k * 4 + (int)steps;
}

PgPool *
pg_pool_new(PgDevice *dev)
{
    PG_UNUSED(dev);
    PgPool *p = PyMem_RawCalloc(1, sizeof(PgPool));
    if (p == NULL)
        return (PgPool *)PyErr_NoMemory();
    if ((p->queued = pg_queue_log_new()) == NULL) {
        PyMem_RawFree(p);
        return NULL;
    }
    /* With the cache off every array is its own driver allocation of its own size, so memcheck
     * sees a read past an array's end and initcheck a read of memory nothing wrote. */
    const char *mode = getenv("PYGPU_POOL");
    p->exact = mode != NULL && strcmp(mode, "off") == 0;
    return p;
}

/* ------------------------------------------------------------------ streams */

static PoolStream *
find_stream(PgPool *pool, void *handle)
{
    for (int i = 0; i < pool->nstreams; i++)
        if (pool->streams[i].handle == handle)
            return &pool->streams[i];
    return NULL;
}

int
pg_pool_stream_add(PgDevice *dev, void *stream, int non_blocking)
{
    PgPool *pool = dev->pool;
    if (pool->nstreams == pool->cap_streams) {
        int cap = pool->cap_streams ? 2 * pool->cap_streams : 8;
        PoolStream *grown = PyMem_RawRealloc(pool->streams, (size_t)cap * sizeof(PoolStream));
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        pool->streams = grown;
        pool->cap_streams = cap;
    }
    pool->streams[pool->nstreams++] = (PoolStream){stream, non_blocking, 0, 0};
    return 0;
}

static void
drop_stream(PgDevice *dev, PoolStream *st)
{
    PgPool *pool = dev->pool;
    pg_queue_log_retire(dev, pool->queued, st->handle);
    dev->backend->stream_destroy(dev, st->handle);
    *st = pool->streams[--pool->nstreams];
}

void
pg_pool_stream_remove(PgDevice *dev, void *stream)
{
    PoolStream *st = find_stream(dev->pool, stream);
    if (st == NULL) { /* not ours to keep: destroy it now */
        pg_queue_log_retire(dev, dev->pool->queued, stream);
        dev->backend->stream_destroy(dev, stream);
    } else if (st->refs == 0)
        drop_stream(dev, st);
    else
        st->removed = 1;
}

static void
stream_ref(PgPool *pool, void *handle)
{
    PoolStream *st = handle ? find_stream(pool, handle) : NULL;
    if (st)
        st->refs++;
}

static void
stream_unref(PgDevice *dev, void *handle)
{
    PoolStream *st = handle ? find_stream(dev->pool, handle) : NULL;
    if (st && --st->refs == 0 && st->removed)
        drop_stream(dev, st);
}

void
pg_block_retag(PgBlock *b, void *stream)
{
    PgPool *pool = b->device->pool;
    stream_ref(pool, stream);
    stream_unref(b->device, b->stream);
    b->stream = stream;
}

/* Whether the legacy default stream and `handle` are ordered with each other: pygpu's blocking
 * streams are; non-blocking ones and streams pygpu did not create are not known to be. */
static int
orders_with_default(PgPool *pool, void *handle)
{
    PoolStream *st = find_stream(pool, handle);
    return st != NULL && !st->non_blocking;
}

/* May a cached block tagged with another stream serve an allocation on `stream` now? */
static int
reusable_on(PgPool *pool, PgBlock *b, void *stream)
{
    if (b->stream == NULL ? orders_with_default(pool, stream)
                          : stream == NULL && orders_with_default(pool, b->stream))
        return 1;
    if (!b->event_live)
        return 0;
    int done = b->device->backend->event_query(b->device, b->event);
    if (done < 0) { /* a sticky error: the device is unusable, the block is of no concern */
        PyErr_Clear();
        return 0;
    }
    return done;
}

/* ------------------------------------------------------------------ blocks */

static void
block_destroy(PgBlock *b)
{
    PgDevice *dev = b->device;
    dev->backend->mem_free(dev, b->ptr, b->kind);
    if (b->event)
        dev->backend->event_destroy(dev, b->event);
    stream_unref(dev, b->stream);
    PyMem_RawFree(b);
}

static void
release_cached(PgDevice *dev, int only_kind)
{
    PgPool *pool = dev->pool;
    for (int kind = 0; kind < PG_MEM_NKINDS; kind++) {
        if (only_kind >= 0 && kind != only_kind)
            continue;
        for (int c = 0; c < PG_NCLASSES; c++) {
            PgBlock *b = pool->free_lists[kind][c];
            while (b) {
                PgBlock *next = b->next;
                pool->cached_bytes -= b->size;
                pool->cached_blocks--;
                block_destroy(b);
                b = next;
            }
            pool->free_lists[kind][c] = NULL;
        }
    }
}

static PyObject *
pool_state(PgPool *pool)
{
    return PyUnicode_FromFormat("%zu bytes in use, %zu bytes cached in %zu blocks", pool->used_bytes,
                                pool->cached_bytes, pool->cached_blocks);
}

PgBlock *
pg_pool_alloc(PgDevice *dev, size_t nbytes, PgMemKind kind, void *stream)
{
    PgPool *pool = dev->pool;
    size_t rounded;
    int c = size_class(nbytes, &rounded);
    if (pool->exact) /* whole 4-byte words: ufunc.at updates a 1- or 2-byte element with a
                      * compare-and-swap of its aligned word (the driver's allocations, and the
                      * pool's blocks of 256 bytes and more, always hold whole words) */
        rounded = nbytes ? (nbytes + 3) & ~(size_t)3 : 4;
    PgBlock **link = &pool->free_lists[kind][c];
    for (PgBlock *b = *link; b; link = &b->next, b = b->next) {
        if (b->stream == stream || reusable_on(pool, b, stream)) {
            *link = b->next;
            pool->cached_bytes -= b->size;
            pool->cached_blocks--;
            pool->used_bytes += b->size;
            b->next = NULL;
            b->event_live = 0;
            b->since = pg_queue_log_epoch(pool->queued);
            pg_block_use(b, stream);
            return b;
        }
    }
    if (pool->limit && pool->used_bytes + pool->cached_bytes + rounded > pool->limit) {
        release_cached(dev, -1); /* the cache goes first, as in CuPy's pool */
        if (pool->used_bytes + rounded > pool->limit) {
            PyErr_Format(PgExc_OutOfMemoryError,
                         "out of memory allocating %zu bytes on %R: the memory pool's limit is %zu bytes "
                         "and %zu are in use (MemoryPool.set_limit)",
                         nbytes, (PyObject *)dev, pool->limit, pool->used_bytes);
            return NULL;
        }
    }
    PgBlock *b = PyMem_RawMalloc(sizeof(PgBlock));
    if (b == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    void *ptr = NULL;
    int rc = dev->backend->mem_alloc(dev, rounded, kind, &ptr);
    if (rc == 1) { /* out of memory: give the cache back to the device and try once more */
        release_cached(dev, -1);
        rc = dev->backend->mem_alloc(dev, rounded, kind, &ptr);
    }
    if (rc != 0) {
        PyMem_RawFree(b);
        if (rc == 1) {
            PyObject *state = pool_state(pool);
            PyErr_Format(PgExc_OutOfMemoryError,
                         "out of memory allocating %zu bytes on %R (pool after freeing its cache: %U)",
                         nbytes, (PyObject *)dev, state ? state : Py_None);
            Py_XDECREF(state);
        }
        return NULL;
    }
    if (pool->exact && rounded > nbytes) {
        /* the bytes past the array's end in its last word: zeros, so that initcheck does not take a
         * sub-word ufunc.at's compare-and-swap of that word for a read of memory nothing wrote */
        static const unsigned char zeros[4];
        if (kind == PG_MEM_DEVICE || kind == PG_MEM_MANAGED)
            rc = dev->backend->memcpy(dev, (char *)ptr + nbytes, zeros, rounded - nbytes, PG_COPY_H2D, stream);
        else
            memset((char *)ptr + nbytes, 0, rounded - nbytes);
        if (rc != 0) {
            dev->backend->mem_free(dev, ptr, kind);
            PyMem_RawFree(b);
            return NULL;
        }
    }
    b->ptr = ptr;
    b->size = rounded;
    b->kind = kind;
    b->device = dev;
    b->stream = NULL;
    b->event = NULL;
    b->event_live = 0;
    b->next = NULL;
    b->since = pg_queue_log_epoch(pool->queued);
    pg_block_use(b, stream);
    pool->used_bytes += rounded;
    return b;
}

/* Records the block's event on its stream, so that another stream can tell when the work
 * queued on it so far is done. Frees cannot report: on failure the block is not cached. */
static int
record_free_event(PgBlock *b)
{
    PgDevice *dev = b->device;
    PyObject *et, *ev, *tb; /* a free may run while an exception is being raised: keep it */
    PyErr_Fetch(&et, &ev, &tb);
    int rc = 0;
    if ((b->event == NULL && dev->backend->event_create(dev, &b->event) < 0) ||
        dev->backend->event_record(dev, b->event, b->stream) < 0) {
        PyErr_Clear();
        rc = -1;
    }
    PyErr_Restore(et, ev, tb);
    b->event_live = rc == 0;
    return rc;
}

void
pg_pool_free(PgBlock *b)
{
    PgPool *pool = b->device->pool;
    size_t rounded;
    int c = size_class(b->size, &rounded);
    if (pool->exact) { /* the driver's free waits for the device */
        pool->used_bytes -= b->size;
        block_destroy(b);
        return;
    }
    if (pg_queue_log_join(b->device, pool->queued, b->since, b->stream) < 0 ||
        (b->stream != NULL && record_free_event(b) < 0)) {
        /* without the other streams' work ordered before its stream's, or without an event,
         * the block could be reused too early: give it back instead (the driver's free waits
         * for the device) */
        pool->used_bytes -= b->size;
        block_destroy(b);
        return;
    }
    pool->used_bytes -= b->size;
    pool->cached_bytes += b->size;
    pool->cached_blocks++;
    b->next = pool->free_lists[b->kind][c];
    pool->free_lists[b->kind][c] = b;
}

void
pg_pool_note_queue(PgDevice *dev, void *stream)
{
    pg_queue_log_note(dev->pool->queued, stream);
}

void
pg_pool_free_all_blocks(PgDevice *dev)
{
    release_cached(dev, -1);
}

void
pg_pool_set_limit(PgDevice *dev, size_t limit)
{
    dev->pool->limit = limit;
}

size_t
pg_pool_limit(PgDevice *dev)
{
    return dev->pool->limit;
}

size_t
pg_pool_used_bytes(PgDevice *dev)
{
    return dev->pool->used_bytes;
}

size_t
pg_pool_total_bytes(PgDevice *dev)
{
    return dev->pool->used_bytes + dev->pool->cached_bytes;
}

size_t
pg_pool_cached_blocks(PgDevice *dev)
{
    return dev->pool->cached_blocks;
}
