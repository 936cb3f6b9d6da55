/* The CPU backend: host memory, synchronous streams, and the elementwise loops of
 * kernels/kernels_cpu.c run inline when small and split over the worker team when large. */
#include "runtime/cpu_backend.h"
#include "runtime/cpu_team.h"
#include "runtime/kernel_table.h"
#include "core/dtype.h"
#include "core/shape.h"
#include "kernels/elementwise.h"
#include "kernels/cpu_features.h"
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

extern const PgCpuLoop pg_cpu_loops[PG_NKERNELS];
#if defined(__x86_64__) && defined(__GNUC__)
extern const PgCpuLoop pg_cpu_loops_avx2[PG_NKERNELS]; /* the bool loops built for x86-64-v3 */
#endif
int pg_cpu_gemm(PgDevice *dev, const PgGemmArgs *g, void *stream); /* gemm_cpu.c */

static int
cpu_mem_alloc(PgDevice *dev, size_t nbytes, PgMemKind kind, void **ptr)
{
    PG_UNUSED(dev);
    PG_UNUSED(kind);
    void *p = NULL;
    if (posix_memalign(&p, 64, nbytes ? nbytes : 1) != 0)
        return 1;
    *ptr = p;
    return 0;
}

static void
cpu_mem_free(PgDevice *dev, void *ptr, PgMemKind kind)
{
    PG_UNUSED(dev);
    PG_UNUSED(kind);
    free(ptr);
}

#define PG_PARALLEL_MEMCPY_MIN ((size_t)1 << 20)

typedef struct {
    char *dst;
    const char *src;
    size_t n;
} HostCopy;

/* Member t of n copies the t-th of n page-aligned pieces. */
static void
copy_piece(void *ctx, int t, int n)
{
    const HostCopy *c = ctx;
    size_t piece = ((c->n + (size_t)n - 1) / (size_t)n + 4095) & ~(size_t)4095;
    size_t begin = (size_t)t * piece;
    if (begin < c->n)
        memcpy(c->dst + begin, c->src + begin, c->n - begin < piece ? c->n - begin : piece);
}

void
pg_host_copy(char *dst, const char *src, size_t n)
{
    /* one thread does not saturate memory bandwidth; eight do on the machines seen so far */
    int nt = pg_cpu_threads();
    if (nt > 8)
        nt = 8;
    if (nt > 1 && n >= PG_PARALLEL_MEMCPY_MIN) {
        HostCopy c = {dst, src, n};
        pg_cpu_team(nt, copy_piece, &c);
        return;
    }
    memcpy(dst, src, n);
}

static int
cpu_memcpy(PgDevice *dev, void *dst, const void *src, size_t n, PgCopyKind kind, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(kind);
    PG_UNUSED(stream);
    if (n < PG_PARALLEL_MEMCPY_MIN) {
        memcpy(dst, src, n);
        return 0;
    }
    Py_BEGIN_ALLOW_THREADS
    pg_host_copy(dst, src, n);
    Py_END_ALLOW_THREADS
    return 0;
}

/* Shortest row worth a call of the contiguous loop of its own. */
#define PG_CPU_MIN_ROW 16

/* Rows [r0, r1) of a loop whose array operands are contiguous along the innermost merged axis
 * (or, for inputs, constant along it: a column broadcast across the rows) and stored as the
 * loop's types: each row runs the loop's contiguous path (typed, vectorised) on arguments
 * pointing at it, a constant input passed as that row's scalar, where the strided path would
 * gather and scatter through buffers. The contiguous path reads only data, types and scalars.
 * `i` restarts at each row, so this is for loops of at most two inputs, whose expressions do not
 * use it (the index fills have three). */
static void
run_rows(PgCpuLoop loop, const PgLoopArgs *args, int64_t r0, int64_t r1)
{
    PgLoopArgs row = *args;
    int nd = args->ndim, na = args->nargs;
    int64_t len = args->shape[nd - 1];
    char *at[PG_MAXARGS];
    for (int64_t r = r0; r < r1; r++) {
        int64_t rest = r;
        for (int k = 0; k < na; k++)
            at[k] = args->data[k];
        for (int d = nd - 2; d >= 0; d--) {
            int64_t idx = rest % args->shape[d];
            rest /= args->shape[d];
            for (int k = 0; k < na; k++)
                if (at[k])
                    at[k] += idx * args->strides[k][d];
        }
        for (int k = 0; k < na; k++) {
            row.data[k] = at[k];
            if (at[k] && args->strides[k][nd - 1] == 0 && k < na - 1) {
                row.data[k] = NULL;
                memcpy(row.scalar[k], at[k], (size_t)pg_type_info[args->types[k]].itemsize);
            }
        }
        loop(&row, 1, 0, len);
    }
}

/* Columns and rows of a tile (see run_tiles): 512 columns measured best for float32 and float64
 * (64: 2x slower, per-row overhead; 1024: 1.3x, the lines no longer stay in L1/L2), rows enough
 * tiles for every thread. */
#define PG_CPU_TILE_COLS 512
#define PG_CPU_TILE_ROWS 256

/* Whether a 2-d loop reads or writes an operand across its rows (a transposed operand: b.T in
 * a + b.T, or a copy of a.T into C order), each element of a row in another cache line while
 * neighbouring rows share them: walked row by row across the whole width, every access misses
 * L1 (3000 lines per row of 3000 float64). Loops of at most two inputs, as for run_rows. */
static int
has_transposed_operand(const PgLoopArgs *args)
{
    if (args->ndim != 2 || args->nargs > 3 || args->shape[0] < 8 || args->shape[1] < 128)
        return 0;
    for (int k = 0; k < args->nargs; k++) {
        int64_t across = args->strides[k][1], down = args->strides[k][0];
        if (args->data[k] && (across >= 64 || across <= -64) && down > -64 && down < 64 && down != 0)
            return 1;
    }
    return 0;
}

static int64_t
tile_count(int64_t n, int64_t per)
{
    return (n + per - 1) / per;
}

/* Tiles [t0, t1) (a column strip's tiles one after another), each walked row by row on the
 * loop's strided path: a transposed operand's lines (one per column of the tile) stay in cache
 * from one row to the next, which reads the next element of each. */
static void
run_tiles(PgCpuLoop loop, const PgLoopArgs *args, int64_t t0, int64_t t1)
{
    PgLoopArgs tile = *args;
    const int64_t per_strip = tile_count(args->shape[0], PG_CPU_TILE_ROWS);
    for (int64_t t = t0; t < t1; t++) {
        int64_t c0 = t / per_strip * PG_CPU_TILE_COLS, r0 = t % per_strip * PG_CPU_TILE_ROWS;
        tile.shape[1] = args->shape[1] - c0 < PG_CPU_TILE_COLS ? args->shape[1] - c0 : PG_CPU_TILE_COLS;
        tile.shape[0] = args->shape[0] - r0 < PG_CPU_TILE_ROWS ? args->shape[0] - r0 : PG_CPU_TILE_ROWS;
        tile.size = tile.shape[0] * tile.shape[1];
        for (int k = 0; k < args->nargs; k++)
            tile.data[k] = args->data[k] ? args->data[k] + c0 * args->strides[k][1] + r0 * args->strides[k][0] : NULL;
        loop(&tile, 0, 0, tile.size);
    }
}

typedef struct {
    PgCpuLoop loop;
    const PgLoopArgs *args;
    int contiguous, rows, tiles;
    int64_t units; /* elements, or rows or tiles when those are set */
} LoopRun;

/* Units [begin, end) of a launch. */
static void
run_units(const LoopRun *r, int64_t begin, int64_t end)
{
    if (r->rows)
        run_rows(r->loop, r->args, begin, end);
    else if (r->tiles)
        run_tiles(r->loop, r->args, begin, end);
    else
        r->loop(r->args, r->contiguous, begin, end);
}

/* A chunk of the team's; chunks of elements aligned to 16 keep vector loops and cache lines whole */
static void
run_chunk(const void *ctx, int t, int64_t begin, int64_t end)
{
    (void)t;
    run_units(ctx, begin, end);
}

static int
cpu_elementwise(PgDevice *dev, int kernel_id, const PgLoopArgs *args, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    const int *types = pg_kernels[kernel_id].types;
    const PgCpuLoop *loops = pg_cpu_loops;
#if defined(__x86_64__) && defined(__GNUC__)
    if (pg_cpu_x86_64_v3())
        loops = pg_cpu_loops_avx2;
#endif
    LoopRun r = {loops[kernel_id], args, pg_loop_is_contiguous(args, types), 0, 0, args->size};
    int64_t n = args->size;
    r.rows = !r.contiguous && args->nargs <= 3 && args->ndim > 0 && args->shape[args->ndim - 1] >= PG_CPU_MIN_ROW &&
             pg_loop_rows_contiguous(args, types);
    r.tiles = !r.contiguous && !r.rows && has_transposed_operand(args);
    if (r.rows)
        r.units = n / args->shape[args->ndim - 1];
    else if (r.tiles)
        r.units = tile_count(args->shape[1], PG_CPU_TILE_COLS) * tile_count(args->shape[0], PG_CPU_TILE_ROWS);
    if (n < PG_CPU_PARALLEL_MIN || pg_cpu_threads() == 1) {
        run_units(&r, 0, r.units);
        return 0;
    }
    Py_BEGIN_ALLOW_THREADS
    pg_cpu_team_for(pg_cpu_threads(), r.units, pg_cpu_team_chunk(r.units, pg_cpu_threads(), r.rows || r.tiles ? 1 : 16), run_chunk,
                    &r);
    Py_END_ALLOW_THREADS
    return 0;
}

static int
cpu_nothing(PgDevice *dev)
{
    PG_UNUSED(dev);
    return 0;
}

/* Streams: a distinct non-NULL handle per stream; work is already done when queued. */
static int
cpu_stream_create(PgDevice *dev, int non_blocking, void **stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(non_blocking);
    *stream = PyMem_RawMalloc(1);
    if (*stream == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static void
cpu_handle_destroy(PgDevice *dev, void *h)
{
    PG_UNUSED(dev);
    PyMem_RawFree(h);
}

static int
cpu_stream_synchronize(PgDevice *dev, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    return 0;
}

static int
cpu_done(PgDevice *dev, void *h)
{
    PG_UNUSED(dev);
    PG_UNUSED(h);
    return 1;
}

static int
cpu_stream_wait_event(PgDevice *dev, void *stream, void *event)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    PG_UNUSED(event);
    return 0;
}

/* Events: the host time at which they were recorded, in milliseconds. */
static int
cpu_event_create(PgDevice *dev, void **event)
{
    PG_UNUSED(dev);
    *event = PyMem_RawCalloc(1, sizeof(double));
    if (*event == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static int
cpu_event_record(PgDevice *dev, void *event, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    *(double *)event = ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
    return 0;
}

static int
cpu_event_elapsed(PgDevice *dev, void *start, void *end, float *ms)
{
    PG_UNUSED(dev);
    *ms = (float)(*(double *)end - *(double *)start);
    return 0;
}

static PyObject *
cpu_properties(PgDevice *dev)
{
    PG_UNUSED(dev);
    char name[256] = "CPU";
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            if (strncmp(line, "model name", 10) == 0) {
                char *colon = strchr(line, ':');
                if (colon) {
                    snprintf(name, sizeof name, "%s", colon + 2);
                    name[strcspn(name, "\n")] = 0;
                }
                break;
            }
        }
        fclose(f);
    }
    long pages = sysconf(_SC_PHYS_PAGES), free_pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    /* the kernel limits are CUDA's (an sm_90 device's: backend_cpu_kernel.c), as kernels tried here
     * run on a GPU; a worker thread is a multiprocessor */
    return Py_BuildValue("{s:s,s:i,s:i,s:L,s:L,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i}", "name", name, "threads",
                         pg_cpu_threads(), "cores", (int)sysconf(_SC_NPROCESSORS_ONLN), "total_memory",
                         (long long)pages * page, "free_memory", (long long)free_pages * page, "multiprocessors", pg_cpu_threads(), "warp_size", 32,
                         "max_threads_per_block", 1024, "max_block_dim_x", 1024, "max_block_dim_y", 1024,
                         "max_block_dim_z", 64, "max_grid_dim_x", 2147483647, "max_grid_dim_y", 65535,
                         "max_grid_dim_z", 65535, "max_shared_memory_per_block", 49152,
                         "max_shared_memory_per_block_optin", 232448);
}

/* There is one CPU device, always usable, with no state of its own. */
static int
cpu_device_count(const char **reason)
{
    *reason = NULL;
    return 1;
}

static int
cpu_device_init(PgDevice *dev)
{
    PG_UNUSED(dev);
    return 0;
}

const PgBackend pg_backend_cpu = {
    .name = "cpu",
    .device_count = cpu_device_count,
    .device_init = cpu_device_init,
    .mem_alloc = cpu_mem_alloc,
    .mem_free = cpu_mem_free,
    .memcpy = cpu_memcpy,
    .elementwise = cpu_elementwise,
    .reduce = pg_cpu_reduce,
    .scan = pg_cpu_scan,
    .reduceat = pg_cpu_reduceat,
    .ufunc_at = pg_cpu_ufunc_at,
    .gemm = pg_cpu_gemm,
    .random = pg_cpu_backend_random,
    .vm_run = pg_cpu_vm_run,
    .vm_reduce = pg_cpu_vm_reduce,
    .synchronize = cpu_nothing,
    .stream_create = cpu_stream_create,
    .stream_destroy = cpu_handle_destroy,
    .stream_synchronize = cpu_stream_synchronize,
    .stream_query = cpu_done,
    .stream_wait_event = cpu_stream_wait_event,
    .event_create = cpu_event_create,
    .event_destroy = cpu_handle_destroy,
    .event_record = cpu_event_record,
    .event_synchronize = cpu_stream_synchronize,
    .event_query = cpu_done,
    .event_elapsed = cpu_event_elapsed,
    .properties = cpu_properties,
    .index = pg_cpu_index,
    .compact = pg_cpu_compact,
    .sort = pg_cpu_sort,
    .search = pg_cpu_search,
    .histogram = pg_cpu_histogram,
    .correlate = pg_cpu_correlate,
    .module_load = pg_cpu_module_load,
    .module_unload = pg_cpu_module_unload,
    .kernel_get = pg_cpu_kernel_get,
    .kernel_launch = pg_cpu_kernel_launch,
    .module_global = pg_cpu_module_global,
};
