/* Caching allocators: one pool per device, holding freed blocks in power-of-two size classes
 * per memory kind, for reuse by later allocations. A device block is reused only on the stream
 * it was last used on, or after that stream's work is known to be done (stream-aware reuse). */
#ifndef PG_MEMORY_H
#define PG_MEMORY_H
#include "runtime/device.h"

typedef struct PgBlock {
    void *ptr;
    size_t size;            /* bytes actually allocated (its size class) */
    PgMemKind kind;
    PgDevice *device;
    void *stream;           /* backend stream the block was last used on */
    struct PgBlock *next;   /* free-list link while cached */
} PgBlock;

PgPool *pg_pool_new(PgDevice *dev);
/* A block of at least nbytes (0 allowed). On failure: OutOfMemoryError naming the bytes, or the
 * backend's error. */
PgBlock *pg_pool_alloc(PgDevice *dev, size_t nbytes, PgMemKind kind, void *stream);
void pg_pool_free(PgBlock *block);
void pg_pool_free_all_blocks(PgDevice *dev);
size_t pg_pool_used_bytes(PgDevice *dev);
size_t pg_pool_total_bytes(PgDevice *dev);
size_t pg_pool_cached_blocks(PgDevice *dev);
#endif
