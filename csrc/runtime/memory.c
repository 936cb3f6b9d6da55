/* The caching pool. Size classes are four per power of two (waste at most 25%), each with a
 * free list per memory kind; blocks keep their PgBlock header while cached, so an allocation
 * served from the cache costs a list pop. The GIL serialises every call. */
#include "runtime/memory.h"

#define PG_NCLASSES (64 * 4)
#define PG_MIN_BLOCK 256

struct PgPool {
    PgBlock *free_lists[PG_MEM_NKINDS][PG_NCLASSES];
    size_t used_bytes;
    size_t cached_bytes;
    size_t cached_blocks;
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
        PyErr_NoMemory();
    return p;
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
                dev->backend->mem_free(dev, b->ptr, b->kind);
                pool->cached_bytes -= b->size;
                pool->cached_blocks--;
                PyMem_RawFree(b);
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
    PgBlock **link = &pool->free_lists[kind][c];
    for (PgBlock *b = *link; b; link = &b->next, b = b->next) {
        if (b->stream == stream) {
            *link = b->next;
            pool->cached_bytes -= b->size;
            pool->cached_blocks--;
            pool->used_bytes += b->size;
            b->next = NULL;
            return b;
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
    b->ptr = ptr;
    b->size = rounded;
    b->kind = kind;
    b->device = dev;
    b->stream = stream;
    b->next = NULL;
    pool->used_bytes += rounded;
    return b;
}

void
pg_pool_free(PgBlock *b)
{
    PgPool *pool = b->device->pool;
    size_t rounded;
    int c = size_class(b->size, &rounded);
    pool->used_bytes -= b->size;
    pool->cached_bytes += b->size;
    pool->cached_blocks++;
    b->next = pool->free_lists[b->kind][c];
    pool->free_lists[b->kind][c] = b;
}

void
pg_pool_free_all_blocks(PgDevice *dev)
{
    release_cached(dev, -1);
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
