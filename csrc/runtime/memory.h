/* Caching allocators: one pool per device, holding freed blocks in size classes per memory kind,
 * for reuse by later allocations.
 *
 * Stream-aware reuse: a block is tagged with the stream that last queued work on it (set at
 * allocation, and by pg_block_use at every launch or copy that touches it). A freed block is
 * reused at once by an allocation on that same stream (stream order makes it safe); by another
 * stream only when the stream semantics order the two (the legacy default stream and a blocking
 * stream wait for each other) or when an event recorded at the free on the tag's stream has
 * completed. Streams created by pygpu are registered with the pool, which keeps the handle of a
 * destroyed Stream alive while blocks are still tagged with it.
 *
 * Tags are a fast path, not what correctness rests on: every function that queues work notes its
 * stream (pg_pool_note_queue, called from cuda_queue.c, cuda_handles.c and cuda_fft.c only), and a freed
 * block's stream is first joined to every other stream noted since the block was handed out
 * (queue_log.h), so a launch path that tags nothing cannot get its memory reused early. */
#ifndef PG_MEMORY_H
#define PG_MEMORY_H
#include "runtime/device.h"

typedef struct PgBlock {
    void *ptr;
    size_t size;            /* bytes actually allocated (its size class) */
    PgMemKind kind;
    PgDevice *device;
    void *stream;           /* backend stream the block was last used on (NULL: default stream) */
    void *event;            /* recorded on `stream` when freed from a non-default stream */
    int event_live;         /* the event was recorded at the last free */
    uint64_t since;         /* the pool's queue epoch when the block was handed out */
    struct PgBlock *next;   /* free-list link while cached */
} PgBlock;

PgPool *pg_pool_new(PgDevice *dev);
/* A block of at least nbytes (0 allowed). On failure: OutOfMemoryError naming the bytes, or the
 * backend's error. */
PgBlock *pg_pool_alloc(PgDevice *dev, size_t nbytes, PgMemKind kind, void *stream);
void pg_pool_free(PgBlock *block);
/* Streams: register one pygpu created (non_blocking as created), and hand it back when its
 * Stream object goes: destroyed at once, or when the last block tagged with it moves on. */
int pg_pool_stream_add(PgDevice *dev, void *stream, int non_blocking);
void pg_pool_stream_remove(PgDevice *dev, void *stream);
void pg_block_retag(PgBlock *block, void *stream);
/* Work touching the block is being queued on `stream`: the block now follows that stream. */
static inline void
pg_block_use(PgBlock *block, void *stream)
{
    if (block->stream != stream)
        pg_block_retag(block, stream);
}
/* Work is being queued on `stream` of dev (any thread, GIL or not): see queue_log.h. */
void pg_pool_note_queue(PgDevice *dev, void *stream);
void pg_pool_free_all_blocks(PgDevice *dev);
/* the most bytes the pool may hold, in use and cached, over every memory kind; 0: no limit. An
 * allocation past it first frees the cache, then raises OutOfMemoryError. */
void pg_pool_set_limit(PgDevice *dev, size_t limit);
size_t pg_pool_limit(PgDevice *dev);
size_t pg_pool_used_bytes(PgDevice *dev);
size_t pg_pool_total_bytes(PgDevice *dev);
size_t pg_pool_cached_blocks(PgDevice *dev);
#endif
