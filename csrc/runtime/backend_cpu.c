/* The CPU backend: host memory, synchronous streams, and the elementwise loops of
 * kernels/kernels_cpu.c run inline when small and split over OpenMP threads when large. */
#include "runtime/backend.h"
#include "runtime/kernel_table.h"
#include "core/shape.h"
#include "kernels/elementwise.h"
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

extern const PgCpuLoop pg_cpu_loops[PG_NKERNELS];

/* Below this many elements a loop runs on the calling thread: waking the team costs more. */
#define PG_CPU_PARALLEL_MIN 65536

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

static int
cpu_memcpy(PgDevice *dev, void *dst, const void *src, size_t n, PgCopyKind kind, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(kind);
    PG_UNUSED(stream);
    memcpy(dst, src, n);
    return 0;
}

int
pg_cpu_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

static int
cpu_elementwise(PgDevice *dev, int kernel_id, const PgLoopArgs *args, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    PgCpuLoop loop = pg_cpu_loops[kernel_id];
    int contiguous = pg_loop_is_contiguous(args, pg_kernels[kernel_id].types);
    int64_t n = args->size;
    if (n < PG_CPU_PARALLEL_MIN || pg_cpu_threads() == 1) {
        loop(args, contiguous, 0, n);
        return 0;
    }
    Py_BEGIN_ALLOW_THREADS
#ifdef _OPENMP
#pragma omp parallel
    {
        int nt = omp_get_num_threads(), t = omp_get_thread_num();
        /* chunks aligned to 16 elements keep vector loops and cache lines whole */
        int64_t chunk = ((n + nt - 1) / nt + 15) & ~(int64_t)15;
        int64_t begin = chunk * t, end = begin + chunk;
        if (end > n)
            end = n;
        if (begin < end)
            loop(args, contiguous, begin, end);
    }
#else
    loop(args, contiguous, 0, n);
#endif
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
cpu_stream_create(PgDevice *dev, void **stream)
{
    PG_UNUSED(dev);
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
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return Py_BuildValue("{s:s,s:i,s:i,s:L}", "name", name, "threads", pg_cpu_threads(), "cores",
                         (int)sysconf(_SC_NPROCESSORS_ONLN), "total_memory", (long long)pages * page);
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
};
