/* Which streams of a device have had work queued on them, and when (issue 16, item 3).
 *
 * A pool block may be read or written by work on any stream, not only the one it is tagged with.
 * Rather than trust every launch path to tag the blocks it touches, the few functions that queue
 * work at all (cuda_queue.c: kernel launches and asynchronous copies; cuda_handles.c: the cuBLAS
 * and cuSOLVER handles) note the stream here, with a counter (the epoch) that rises at every note.
 * A block remembers the epoch at which it was handed out; when it is freed, every other stream
 * noted since then is joined into the block's stream (an event recorded there, waited for on the
 * block's stream), so the block's own stream order, and the free event the pool records on it,
 * come after all the work that could have used it. A path that forgets to tag a block is then
 * slower to reuse it, never wrong; a stream noted only once is joined only once. */
#ifndef PG_QUEUE_LOG_H
#define PG_QUEUE_LOG_H
#include "runtime/device.h"

typedef struct PgQueueLog PgQueueLog;

PgQueueLog *pg_queue_log_new(void);
void pg_queue_log_delete(PgQueueLog *log);
/* Work is being queued on `stream`. Any thread, with or without the GIL. */
void pg_queue_log_note(PgQueueLog *log, void *stream);
/* The epoch now: a block handed out now may be used by notes after it. */
uint64_t pg_queue_log_epoch(PgQueueLog *log);
/* Orders `stream` after the work queued on every other stream noted after `since` (GIL held).
 * 0, or -1 when it could not (an untracked stream, a driver error): the caller must then not reuse
 * the memory before the device is idle. Never raises. */
int pg_queue_log_join(PgDevice *dev, PgQueueLog *log, uint64_t since, void *stream);
/* `stream` is about to be destroyed (GIL held): its queued work is kept as an event to join. */
void pg_queue_log_retire(PgDevice *dev, PgQueueLog *log, void *stream);
#endif
