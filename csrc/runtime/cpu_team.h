/* The CPU backend's worker threads: a team that runs one function on every member at once.
 * pygpu's own pool in place of OpenMP: libgomp is not on the manylinux allow-list (and the
 * build machine's needs glibc 2.34), and it hangs a forked child that uses it, which Dask and
 * multiprocessing do. Nothing outside runtime/ includes this. */
#ifndef PG_CPU_TEAM_H
#define PG_CPU_TEAM_H
#include "runtime/backend.h" /* pg_cpu_threads */
#include <stdint.h>

/* Runs member(ctx, t, n) for t = 0 .. n-1, each on its own thread (t = 0 on the caller), and
 * returns when all have. n is at most nt (fewer when threads cannot be made, or 1 when another
 * team is running: a call from a member, or from a second Python thread at the same time), so
 * member must split its work by the n it is given. The caller must have released the GIL if
 * member can take long; member must touch no Python state. */
void pg_cpu_team(int nt, void (*member)(void *ctx, int t, int n), void *ctx);

/* Sends the idle workers to sleep now rather than at the end of their polling: called before
 * another library's threads take the CPU (a BLAS call), which the polling would slow. The next
 * job wakes them as usual. */
void pg_cpu_team_rest(void);

/* Runs run(ctx, t, begin, end) over [0, count) in chunks of `chunk` (the last shorter) that the
 * members take in turn, t the member taking it: a member whose thread the system has
 * descheduled (another library's threads spinning after its call, a busy machine) leaves its
 * chunks to the others instead of holding everyone up, as an even split would. */
void pg_cpu_team_for(int nt, int64_t count, int64_t chunk, void (*run)(const void *ctx, int t, int64_t begin, int64_t end),
                     const void *ctx);

/* The chunk for pg_cpu_team_for that gives each of nt members a few (PG_TEAM_CHUNKS_PER_MEMBER),
 * a multiple of `align`: enough that the others absorb a late member's share, few enough that
 * each is a long run of memory. */
#define PG_TEAM_CHUNKS_PER_MEMBER 4
static inline int64_t
pg_cpu_team_chunk(int64_t count, int nt, int64_t align)
{
    int64_t pieces = (int64_t)(nt > 1 ? nt : 1) * PG_TEAM_CHUNKS_PER_MEMBER;
    int64_t chunk = (count + pieces - 1) / pieces;
    chunk = (chunk + align - 1) / align * align;
    return chunk > 0 ? chunk : 1;
}

#endif
