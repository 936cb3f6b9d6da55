/* A stand-in for libcuda.so.1 that runs the host side of pygpu's CUDA backend on a machine
 * without a GPU: "device" memory is host memory, copies are memcpy, kernels are not run (a
 * launch is only recorded). Built by tests/test_cuda_backend.py and put on LD_LIBRARY_PATH of a
 * child interpreter. It checks what a real driver would reject (bad fatbin image, unknown
 * pointers, a context not made current) and can inject errors through the environment:
 *   MOCK_CUDA_INIT_ERROR=n      cuInit returns n
 *   MOCK_CUDA_DRIVER_VERSION=n  cuDriverGetVersion reports n (default 13000)
 *   MOCK_CUDA_MEM_LIMIT=n       device memory in bytes (default 256 MiB)
 *   MOCK_CUDA_LAUNCH_ERROR=n    cuLaunchKernel returns n; if sticky, every later call does too
 * mock_stats() lets the test read what happened. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
typedef void *Handle;

enum { KIND_DEVICE = 2, KIND_HOST = 1, KIND_MANAGED = 4 };

typedef struct Alloc {
    char *ptr;
    size_t size;
    int kind;
    struct Alloc *next;
} Alloc;

static Alloc *allocs;
static size_t device_used;
static int sticky;
static int ctx_current;
static char ctx_object;

typedef struct {
    long launches, copies, pageable_copies, event_syncs;
    unsigned int grid, block;
    size_t param_bytes_hint;
    char last_kernel[128];
} MockStats;
static MockStats stats;

MockStats *
mock_stats(void)
{
    return &stats;
}

static long
env_long(const char *name, long deflt)
{
    const char *s = getenv(name);
    return s && *s ? strtol(s, NULL, 10) : deflt;
}

static Alloc *
find(const void *p)
{
    for (Alloc *a = allocs; a; a = a->next)
        if ((const char *)p >= a->ptr && (const char *)p < a->ptr + a->size)
            return a;
    return NULL;
}

static CUresult
track(void *p, size_t n, int kind)
{
    Alloc *a = malloc(sizeof *a);
    if (a == NULL)
        return 2;
    a->ptr = p;
    a->size = n;
    a->kind = kind;
    a->next = allocs;
    allocs = a;
    return 0;
}

static int
untrack(void *p)
{
    for (Alloc **l = &allocs; *l; l = &(*l)->next) {
        if ((*l)->ptr == p) {
            Alloc *a = *l;
            int kind = a->kind;
            *l = a->next;
            if (kind == KIND_DEVICE)
                device_used -= a->size;
            free(a);
            return kind;
        }
    }
    return -1;
}

#define CHECK_STATE()          \
    do {                       \
        if (sticky)            \
            return sticky;     \
        if (!ctx_current)      \
            return 201; /* CUDA_ERROR_INVALID_CONTEXT */ \
    } while (0)

CUresult
cuGetErrorName(CUresult e, const char **s)
{
    switch (e) {
    case 0: *s = "CUDA_SUCCESS"; return 0;
    case 1: *s = "CUDA_ERROR_INVALID_VALUE"; return 0;
    case 2: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return 0;
    case 100: *s = "CUDA_ERROR_NO_DEVICE"; return 0;
    case 200: *s = "CUDA_ERROR_INVALID_IMAGE"; return 0;
    case 201: *s = "CUDA_ERROR_INVALID_CONTEXT"; return 0;
    case 700: *s = "CUDA_ERROR_ILLEGAL_ADDRESS"; return 0;
    case 701: *s = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"; return 0;
    default: *s = NULL; return 1;
    }
}

CUresult
cuGetErrorString(CUresult e, const char **s)
{
    switch (e) {
    case 100: *s = "no CUDA-capable device is detected"; return 0;
    case 700: *s = "an illegal memory access was encountered"; return 0;
    default: *s = e == 0 ? "no error" : "mock error"; return 0;
    }
}

CUresult cuInit(unsigned int f) { (void)f; return (CUresult)env_long("MOCK_CUDA_INIT_ERROR", 0); }
CUresult cuDriverGetVersion(int *v) { *v = (int)env_long("MOCK_CUDA_DRIVER_VERSION", 13000); return 0; }
CUresult cuDeviceGetCount(int *n) { *n = 1; return 0; }
CUresult cuDeviceGet(int *d, int i) { if (i != 0) return 101; *d = 0; return 0; }
CUresult cuDeviceGetName(char *s, int n, int d) { (void)d; snprintf(s, (size_t)n, "Mock GPU"); return 0; }
CUresult cuDeviceGetPCIBusId(char *s, int n, int d) { (void)d; snprintf(s, (size_t)n, "0000:00:00.0"); return 0; }

CUresult
cuDeviceGetAttribute(int *v, int attr, int d)
{
    (void)d;
    switch (attr) {
    case 16: *v = 4; return 0;  /* multiprocessors */
    case 75: *v = 9; return 0;  /* compute capability */
    case 76: *v = 0; return 0;
    case 115: return 1;         /* an attribute this "driver" does not know */
    default: *v = 1; return 0;
    }
}

static size_t limit(void) { return (size_t)env_long("MOCK_CUDA_MEM_LIMIT", 256L << 20); }
CUresult cuDeviceTotalMem_v2(size_t *t, int d) { (void)d; *t = limit(); return 0; }
CUresult cuDevicePrimaryCtxRetain(Handle *c, int d) { (void)d; *c = &ctx_object; return 0; }
CUresult cuDevicePrimaryCtxRelease_v2(int d) { (void)d; return 0; }
CUresult cuCtxSetCurrent(Handle c) { ctx_current = c == &ctx_object; return 0; }
CUresult cuCtxGetCurrent(Handle *c) { *c = ctx_current ? &ctx_object : NULL; return 0; }
CUresult cuCtxPushCurrent_v2(Handle c) { return cuCtxSetCurrent(c); }
CUresult cuCtxPopCurrent_v2(Handle *c) { *c = NULL; ctx_current = 0; return 0; }
CUresult cuCtxSynchronize(void) { CHECK_STATE(); return 0; }
CUresult cuMemGetInfo_v2(size_t *f, size_t *t) { CHECK_STATE(); *t = limit(); *f = limit() - device_used; return 0; }

CUresult
cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
    CHECK_STATE();
    if (n == 0)
        return 1;
    if (device_used + n > limit())
        return 2;
    void *m = malloc(n);
    if (m == NULL)
        return 2;
    device_used += n;
    *p = (CUdeviceptr)(uintptr_t)m;
    return track(m, n, KIND_DEVICE);
}

CUresult
cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned int flags)
{
    CHECK_STATE();
    if (flags != 1)
        return 1;
    void *m = malloc(n);
    if (m == NULL)
        return 2;
    *p = (CUdeviceptr)(uintptr_t)m;
    return track(m, n, KIND_MANAGED);
}

CUresult
cuMemHostAlloc(void **p, size_t n, unsigned int flags)
{
    CHECK_STATE();
    if (flags & ~3u)
        return 1;
    *p = malloc(n);
    if (*p == NULL)
        return 2;
    return track(*p, n, KIND_HOST);
}

CUresult
cuMemFree_v2(CUdeviceptr p)
{
    void *m = (void *)(uintptr_t)p;
    if (untrack(m) < 0)
        return 1;
    free(m);
    return sticky;
}

CUresult
cuMemFreeHost(void *p)
{
    if (untrack(p) != KIND_HOST)
        return 1;
    free(p);
    return sticky;
}

CUresult
cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, Handle stream)
{
    (void)stream;
    CHECK_STATE();
    char *d = (char *)(uintptr_t)dst, *s = (char *)(uintptr_t)src;
    Alloc *ad = find(d), *as = find(s);
    if (ad == NULL && as == NULL)
        return 1; /* host to host through the driver: not something pygpu should ask */
    if ((ad && d + n > ad->ptr + ad->size) || (as && s + n > as->ptr + as->size))
        return 1; /* out of bounds of an allocation */
    stats.copies++;
    if (ad == NULL || as == NULL)
        stats.pageable_copies++;
    memcpy(d, s, n);
    return 0;
}

CUresult
cuPointerGetAttribute(void *data, int attr, CUdeviceptr p)
{
    Alloc *a = find((void *)(uintptr_t)p);
    if (a == NULL || attr != 2)
        return 1;
    *(unsigned int *)data = (unsigned int)a->kind;
    return 0;
}

CUresult
cuModuleLoadData(Handle *m, const void *image)
{
    CHECK_STATE();
    const unsigned char *b = image;
    /* a fatbin file starts with the magic 0xBA55ED50 (little-endian) */
    if (!(b[0] == 0x50 && b[1] == 0xED && b[2] == 0x55 && b[3] == 0xBA))
        return 200;
    *m = malloc(1);
    return 0;
}

CUresult cuModuleUnload(Handle m) { free(m); return 0; }

CUresult
cuModuleGetFunction(Handle *f, Handle m, const char *name)
{
    (void)m;
    CHECK_STATE();
    char *copy = malloc(strlen(name) + 1);
    strcpy(copy, name);
    *f = copy; /* leaked: the backend caches functions for the life of the process */
    return 0;
}

CUresult
cuLaunchKernel(Handle f, unsigned int gx, unsigned int gy, unsigned int gz, unsigned int bx, unsigned int by,
               unsigned int bz, unsigned int shmem, Handle stream, void **params, void **extra)
{
    (void)stream;
    CHECK_STATE();
    if (gy != 1 || gz != 1 || by != 1 || bz != 1 || shmem != 0 || params == NULL || extra != NULL)
        return 1;
    long err = env_long("MOCK_CUDA_LAUNCH_ERROR", 0);
    if (err) {
        if (err == 700 || err == 719)
            sticky = (CUresult)err;
        return (CUresult)err;
    }
    stats.launches++;
    stats.grid = gx;
    stats.block = bx;
    snprintf(stats.last_kernel, sizeof stats.last_kernel, "%s", (const char *)f);
    return 0;
}

CUresult cuStreamCreate(Handle *s, unsigned int flags) { CHECK_STATE(); if (flags > 1) return 1; *s = malloc(1); return 0; }
CUresult cuStreamDestroy_v2(Handle s) { free(s); return 0; }
CUresult cuStreamSynchronize(Handle s) { (void)s; CHECK_STATE(); return 0; }
CUresult cuStreamQuery(Handle s) { (void)s; CHECK_STATE(); return 0; }
CUresult cuStreamWaitEvent(Handle s, Handle e, unsigned int f) { (void)s; (void)e; (void)f; CHECK_STATE(); return 0; }

typedef struct { double t; int recorded; } Event;
CUresult cuEventCreate(Handle *e, unsigned int flags) { (void)flags; CHECK_STATE(); *e = calloc(1, sizeof(Event)); return 0; }
CUresult cuEventDestroy_v2(Handle e) { free(e); return 0; }

CUresult
cuEventRecord(Handle e, Handle s)
{
    (void)s;
    CHECK_STATE();
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    ((Event *)e)->t = ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
    ((Event *)e)->recorded = 1;
    return 0;
}

CUresult cuEventSynchronize(Handle e) { (void)e; CHECK_STATE(); stats.event_syncs++; return 0; }
CUresult cuEventQuery(Handle e) { (void)e; CHECK_STATE(); return 0; }

CUresult
cuEventElapsedTime_v2(float *ms, Handle a, Handle b)
{
    CHECK_STATE();
    if (!((Event *)a)->recorded || !((Event *)b)->recorded)
        return 400; /* CUDA_ERROR_INVALID_HANDLE */
    *ms = (float)(((Event *)b)->t - ((Event *)a)->t);
    return 0;
}
