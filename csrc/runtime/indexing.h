/* Running the gather/scatter and compaction kernels (kernels/index.h) on a device's current
 * stream, with the bounds flag that index checks report through. */
#ifndef PG_RUNTIME_INDEXING_H
#define PG_RUNTIME_INDEXING_H
#include "runtime/memory.h"

/* A flag (int32 in dev's memory) zeroed on the current stream, through which kernels report an
 * error; NULL with an exception. */
PgBlock *pg_flag_new(PgDevice *dev);
/* Its value (waiting for the current stream), then freed: 0 or 1, or -1 with an exception. */
int pg_flag_take(PgDevice *dev, PgBlock *flag);

/* Runs op over a (a->err is set here). Returns 0; 1 when an index was out of bounds (no
 * exception: the caller knows which index to name, and waits for the device only then: the
 * flag is read, which waits for the device, only in raise mode); -1 with an exception. */
int pg_index_launch(PgDevice *dev, PgIndexArgs *a, int op);
/* Compaction (see PgBackend.compact) on the current stream. */
int pg_compact_launch(PgDevice *dev, PgCompactArgs *a, int64_t *count,
                      int (*alloc)(void *ctx, int64_t count, PgCompactArgs *a), void *ctx);
#endif
