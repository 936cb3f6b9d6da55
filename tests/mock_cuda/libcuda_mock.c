/* A stand-in for libcuda.so.1 that runs the host side of pygpu's CUDA backend on a machine
 * without a GPU, strict enough to catch what a real driver would punish. Built by
 * tests/conftest.py (with mock_streams.c, and -I csrc/kernels for pygpu's kernel parameter
 * layouts) and put on LD_LIBRARY_PATH of a child interpreter.
 *
 * What it models, as the real driver does it:
 *   - cuInit first (CUDA_ERROR_NOT_INITIALIZED before), n devices each with a primary context;
 *     the current context is per thread (a real stack: set/get/push/pop), and a call that needs
 *     one without it fails with CUDA_ERROR_INVALID_CONTEXT;
 *   - "device" memory is host memory, tracked per context (out of memory past the limit); the
 *     pointer attribute queries; frees wait until queued work is done;
 *   - a fatbin image (magic checked) per module; cuModuleGetFunction knows the real kernel names
 *     when MOCK_CUDA_KERNELS names a list of them (and takes a cubin or PTX whose kernels are
 *     all in one module's list for that module: an NVRTC build's); user modules (a cubin or PTX,
 *     mock_images.c) know the kernels, parameters, shared memory and globals their image
 *     declares, which cuFuncGetParamInfo, cuFuncGetAttribute and cuModuleGetGlobal report;
 *   - streams run their work on a worker thread each, in order, after a delay (mock_streams.c):
 *     copies, kernels (recorded, not run), events; the legacy default stream's implicit ordering
 *     with blocking streams; pageable copies return once the host side is read or written;
 *   - a kernel whose data pointers or strides break their type's alignment faults when it runs
 *     (CUDA_ERROR_MISALIGNED_ADDRESS), as does the n-th launch with MOCK_CUDA_FAULT_AFTER
 *     (CUDA_ERROR_ILLEGAL_ADDRESS): the fault shows at the next synchronisation and sticks;
 *   - after fork, the child's every call fails with CUDA_ERROR_NOT_INITIALIZED.
 * Environment:
 *   MOCK_CUDA_INIT_ERROR=n      cuInit returns n
 *   MOCK_CUDA_DRIVER_VERSION=n  cuDriverGetVersion reports n (default 13000)
 *   MOCK_CUDA_DEVICES=n         devices (default 1, at most 8)
 *   MOCK_CUDA_MEM_LIMIT=n       device memory in bytes, per device (default 256 MiB)
 *   MOCK_CUDA_LAUNCH_ERROR=n    cuLaunchKernel returns n; if sticky, every later call does too
 *   MOCK_CUDA_KERNELS=path      the kernel names, one a line; a line "@MODULE BYTES" starts the
 *                               names of the module whose fatbin image has that size (names before
 *                               any such line belong to every module)
 *   MOCK_CUDA_DELAY_US=n        how long each queued copy or kernel takes (default 300)
 *   MOCK_CUDA_LOAD_DELAY_US=n   how long cuModuleLoadData takes (default 0)
 *   MOCK_CUDA_FAULT_AFTER=n     the n-th launch faults with CUDA_ERROR_ILLEGAL_ADDRESS
 *   MOCK_CUDA_NO_PARAM_INFO=1   cuFuncGetParamInfo answers CUDA_ERROR_NOT_SUPPORTED (a driver < 12.4)
 *   MOCK_CUDA_FUNC_MAX_THREADS=n  the threads per block a user kernel can run with (default 1024)
 * mock_stats() lets the test read what happened; mock_write_after(word, value, us) writes a word
 * from a thread of its own later (to let go of a stream held by cuStreamWaitValue32). */
#include "mock.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

pthread_mutex_t mock_lock = PTHREAD_MUTEX_INITIALIZER;
pthread_cond_t mock_cond = PTHREAD_COND_INITIALIZER;
MockStats mock_stats_data;
MockSettings mock_settings;
Context mock_contexts[MOCK_MAX_DEVICES];

static int initialized;  /* cuInit succeeded */
static int forked_child; /* this process is a fork of one that initialised the driver */
static Alloc *allocs;

/* The calling thread's context stack (cuCtxPushCurrent / cuCtxPopCurrent; cuCtxSetCurrent
 * replaces the top). */
#define CTX_STACK_MAX 32
static __thread Context *ctx_stack[CTX_STACK_MAX];
static __thread int ctx_depth;

MockStats *
mock_stats(void)
{
    return &mock_stats_data;
}

static long
env_long(const char *name, long deflt)
{
    const char *s = getenv(name);
    return s && *s ? strtol(s, NULL, 10) : deflt;
}

void
mock_sleep_us(long us)
{
    if (us <= 0)
        return;
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* ------------------------------------------------------------------ fork */

/* A child of a process that initialised CUDA cannot use it: the real driver fails every call
 * there with CUDA_ERROR_NOT_INITIALIZED. The lock is held across fork so that the child's copy
 * of the state is consistent; the child has none of the parent's worker threads. */
static void
before_fork(void)
{
    pthread_mutex_lock(&mock_lock);
}

static void
after_fork_parent(void)
{
    pthread_mutex_unlock(&mock_lock);
}

static void
after_fork_child(void)
{
    /* the child's one thread is the one that took the lock; the parent's waiters are not here */
    pthread_mutex_unlock(&mock_lock);
    pthread_cond_init(&mock_cond, NULL);
    if (initialized)
        forked_child = 1;
}

__attribute__((constructor)) static void
mock_load(void)
{
    long devices = env_long("MOCK_CUDA_DEVICES", 1);
    mock_settings.devices = devices < 0 ? 0 : devices > MOCK_MAX_DEVICES ? MOCK_MAX_DEVICES : (int)devices;
    mock_settings.delay_us = env_long("MOCK_CUDA_DELAY_US", 300);
    mock_settings.load_delay_us = env_long("MOCK_CUDA_LOAD_DELAY_US", 0);
    mock_settings.fault_after = env_long("MOCK_CUDA_FAULT_AFTER", 0);
    mock_settings.mem_limit = (size_t)env_long("MOCK_CUDA_MEM_LIMIT", 256L << 20);
    for (int d = 0; d < MOCK_MAX_DEVICES; d++)
        mock_contexts[d].device = d;
    pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

/* ------------------------------------------------------------------ state checks */

CUresult
mock_driver_ready(void)
{
    return forked_child || !initialized ? CUDA_ERROR_NOT_INITIALIZED : CUDA_SUCCESS;
}

Context *
mock_thread_context(void)
{
    return ctx_depth > 0 ? ctx_stack[ctx_depth - 1] : NULL;
}

CUresult
mock_current_context(Context **ctx)
{
    CUresult r = mock_driver_ready();
    if (r != CUDA_SUCCESS)
        return r;
    *ctx = mock_thread_context();
    if (*ctx == NULL)
        return CUDA_ERROR_INVALID_CONTEXT;
    return (*ctx)->sticky;
}

/* A call made on behalf of the current context: lock, check, and the result in r. */
#define ENTER(ctx)                          \
    Context *ctx = NULL;                    \
    pthread_mutex_lock(&mock_lock);         \
    CUresult r = mock_current_context(&ctx); \
    if (r != CUDA_SUCCESS)                  \
        goto done

#define LEAVE()                            \
    done:                                  \
    pthread_mutex_unlock(&mock_lock);      \
    return r

/* ------------------------------------------------------------------ errors, init, devices */

CUresult
cuGetErrorName(CUresult e, const char **s)
{
    switch (e) {
    case 0: *s = "CUDA_SUCCESS"; return 0;
    case 1: *s = "CUDA_ERROR_INVALID_VALUE"; return 0;
    case 2: *s = "CUDA_ERROR_OUT_OF_MEMORY"; return 0;
    case 3: *s = "CUDA_ERROR_NOT_INITIALIZED"; return 0;
    case 100: *s = "CUDA_ERROR_NO_DEVICE"; return 0;
    case 101: *s = "CUDA_ERROR_INVALID_DEVICE"; return 0;
    case 200: *s = "CUDA_ERROR_INVALID_IMAGE"; return 0;
    case 201: *s = "CUDA_ERROR_INVALID_CONTEXT"; return 0;
    case 400: *s = "CUDA_ERROR_INVALID_HANDLE"; return 0;
    case 500: *s = "CUDA_ERROR_NOT_FOUND"; return 0;
    case 600: *s = "CUDA_ERROR_NOT_READY"; return 0;
    case 700: *s = "CUDA_ERROR_ILLEGAL_ADDRESS"; return 0;
    case 701: *s = "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"; return 0;
    case 716: *s = "CUDA_ERROR_MISALIGNED_ADDRESS"; return 0;
    case 719: *s = "CUDA_ERROR_LAUNCH_FAILED"; return 0;
    case 801: *s = "CUDA_ERROR_NOT_SUPPORTED"; return 0;
    default: *s = NULL; return 1;
    }
}

CUresult
cuGetErrorString(CUresult e, const char **s)
{
    switch (e) {
    case 3: *s = "initialization error"; return 0;
    case 100: *s = "no CUDA-capable device is detected"; return 0;
    case 201: *s = "invalid device context"; return 0;
    case 500: *s = "named symbol not found"; return 0;
    case 700: *s = "an illegal memory access was encountered"; return 0;
    case 716: *s = "misaligned address"; return 0;
    default: *s = e == 0 ? "no error" : "mock error"; return 0;
    }
}

static int load_kernel_names(void);

CUresult
cuInit(unsigned int flags)
{
    pthread_mutex_lock(&mock_lock);
    CUresult r = CUDA_SUCCESS;
    if (forked_child)
        r = CUDA_ERROR_NOT_INITIALIZED;
    else if (flags != 0)
        r = CUDA_ERROR_INVALID_VALUE;
    else if ((r = (CUresult)env_long("MOCK_CUDA_INIT_ERROR", 0)) == CUDA_SUCCESS) {
        if (load_kernel_names() < 0)
            r = CUDA_ERROR_UNKNOWN;
        else
            initialized = 1;
    }
    pthread_mutex_unlock(&mock_lock);
    return r;
}

CUresult cuDriverGetVersion(int *v) { *v = (int)env_long("MOCK_CUDA_DRIVER_VERSION", 13000); return 0; }

/* With the lock held: 0 when device d exists and the driver is usable. */
static CUresult
check_device(int d)
{
    CUresult r = mock_driver_ready();
    if (r == CUDA_SUCCESS && (d < 0 || d >= mock_settings.devices))
        r = CUDA_ERROR_INVALID_DEVICE;
    return r;
}

#define DEVICE_CALL(d, body)                 \
    pthread_mutex_lock(&mock_lock);          \
    CUresult r = check_device(d);            \
    if (r == CUDA_SUCCESS) {                 \
        body;                                \
    }                                        \
    pthread_mutex_unlock(&mock_lock);        \
    return r

CUresult
cuDeviceGetCount(int *n)
{
    pthread_mutex_lock(&mock_lock);
    CUresult r = mock_driver_ready();
    if (r == CUDA_SUCCESS)
        *n = mock_settings.devices;
    pthread_mutex_unlock(&mock_lock);
    return r;
}

CUresult cuDeviceGet(int *dev, int i) { DEVICE_CALL(i, *dev = i); }
CUresult cuDeviceGetName(char *s, int n, int d) { DEVICE_CALL(d, snprintf(s, (size_t)n, "Mock GPU")); }
CUresult cuDeviceGetPCIBusId(char *s, int n, int d) { DEVICE_CALL(d, snprintf(s, (size_t)n, "0000:%02x:00.0", d)); }
CUresult cuDeviceTotalMem_v2(size_t *t, int d) { DEVICE_CALL(d, *t = mock_settings.mem_limit); }

CUresult
cuDeviceGetAttribute(int *v, int attr, int d)
{
    DEVICE_CALL(d, switch (attr) {
        case 16: *v = 4; break;  /* multiprocessors */
        case 1: *v = MOCK_MAX_THREADS; break;                   /* max threads per block */
        case 2: case 3: *v = 1024; break;                       /* max block dimensions */
        case 4: *v = 64; break;
        case 5: *v = 2147483647; break;                         /* max grid dimensions */
        case 6: case 7: *v = 65535; break;
        case 8: *v = MOCK_SHARED_DEFAULT; break;                /* shared memory per block */
        case 97: *v = MOCK_SHARED_OPTIN; break;                 /* ... when opted in */
        case 10: *v = 32; break;                                /* warp size */
        case 75: *v = 9; break;  /* compute capability */
        case 76: *v = 0; break;
        case 115: r = CUDA_ERROR_INVALID_VALUE; break; /* an attribute this "driver" does not know */
        default: *v = 1; break;
    });
}

/* ------------------------------------------------------------------ contexts */

CUresult
cuDevicePrimaryCtxRetain(Handle *c, int d)
{
    DEVICE_CALL(d, mock_contexts[d].retained++; *c = &mock_contexts[d]);
}

CUresult
cuDevicePrimaryCtxRelease_v2(int d)
{
    DEVICE_CALL(d, if (mock_contexts[d].retained > 0) mock_contexts[d].retained--; else r = CUDA_ERROR_INVALID_CONTEXT);
}

/* The context a handle names, or NULL when it is none of ours. */
static Context *
context_of(Handle c)
{
    for (int d = 0; d < mock_settings.devices; d++)
        if (c == (Handle)&mock_contexts[d])
            return &mock_contexts[d];
    return NULL;
}

/* Replaces the top of the calling thread's stack; NULL pops it. */
CUresult
cuCtxSetCurrent(Handle c)
{
    pthread_mutex_lock(&mock_lock);
    CUresult r = mock_driver_ready();
    Context *ctx = context_of(c);
    if (r != CUDA_SUCCESS)
        ;
    else if (c == NULL) {
        if (ctx_depth > 0)
            ctx_depth--;
    } else if (ctx == NULL)
        r = CUDA_ERROR_INVALID_CONTEXT;
    else if (ctx_depth == 0)
        ctx_stack[ctx_depth++] = ctx;
    else
        ctx_stack[ctx_depth - 1] = ctx;
    pthread_mutex_unlock(&mock_lock);
    return r;
}

CUresult
cuCtxGetCurrent(Handle *c)
{
    pthread_mutex_lock(&mock_lock);
    CUresult r = mock_driver_ready();
    if (r == CUDA_SUCCESS)
        *c = mock_thread_context();
    pthread_mutex_unlock(&mock_lock);
    return r;
}

CUresult
cuCtxPushCurrent_v2(Handle c)
{
    pthread_mutex_lock(&mock_lock);
    CUresult r = mock_driver_ready();
    Context *ctx = context_of(c);
    if (r != CUDA_SUCCESS)
        ;
    else if (ctx == NULL)
        r = c == NULL ? CUDA_ERROR_INVALID_VALUE : CUDA_ERROR_INVALID_CONTEXT;
    else if (ctx_depth == CTX_STACK_MAX)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    else
        ctx_stack[ctx_depth++] = ctx;
    pthread_mutex_unlock(&mock_lock);
    return r;
}

CUresult
cuCtxPopCurrent_v2(Handle *c)
{
    pthread_mutex_lock(&mock_lock);
    CUresult r = mock_driver_ready();
    if (r != CUDA_SUCCESS)
        ;
    else if (ctx_depth == 0)
        r = CUDA_ERROR_INVALID_CONTEXT;
    else {
        ctx_depth--;
        if (c != NULL)
            *c = ctx_stack[ctx_depth];
    }
    pthread_mutex_unlock(&mock_lock);
    return r;
}

/* ------------------------------------------------------------------ memory */

Alloc *
mock_find_alloc(const void *p)
{
    for (Alloc *a = allocs; a; a = a->next)
        if ((const char *)p >= a->ptr && (const char *)p < a->ptr + a->size)
            return a;
    return NULL;
}

static CUresult
track(void *p, size_t n, int kind, Context *ctx)
{
    Alloc *a = malloc(sizeof *a);
    if (a == NULL) {
        free(p);
        return CUDA_ERROR_OUT_OF_MEMORY;
    }
    *a = (Alloc){p, n, kind, ctx, allocs};
    allocs = a;
    if (kind == KIND_DEVICE)
        ctx->device_used += n;
    return CUDA_SUCCESS;
}

/* Frees the allocation that starts at p if it is of one of the kinds in kinds (a bit set): 0, or
 * CUDA_ERROR_INVALID_VALUE. Like the real driver, waits for queued work first: it may use it. */
static CUresult
untrack_and_free(void *p, int kinds)
{
    Alloc *a = mock_find_alloc(p);
    if (a == NULL || a->ptr != p || !(a->kind & kinds))
        return CUDA_ERROR_INVALID_VALUE;
    mock_wait_all_idle(); /* releases the lock meanwhile: look again */
    for (Alloc **l = &allocs; *l; l = &(*l)->next) {
        if ((*l)->ptr != p)
            continue;
        a = *l;
        *l = a->next;
        if (a->kind == KIND_DEVICE)
            a->ctx->device_used -= a->size;
        free(a->ptr);
        free(a);
        return CUDA_SUCCESS;
    }
    return CUDA_ERROR_INVALID_VALUE;
}

CUresult
cuMemGetInfo_v2(size_t *f, size_t *t)
{
    ENTER(ctx);
    *t = mock_settings.mem_limit;
    *f = mock_settings.mem_limit - ctx->device_used;
    LEAVE();
}

CUresult
cuMemAlloc_v2(CUdeviceptr *p, size_t n)
{
    ENTER(ctx);
    void *m;
    if (n == 0)
        r = CUDA_ERROR_INVALID_VALUE;
    else if (ctx->device_used + n > mock_settings.mem_limit || (m = malloc(n)) == NULL)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    else if ((r = track(m, n, KIND_DEVICE, ctx)) == CUDA_SUCCESS)
        *p = (CUdeviceptr)(uintptr_t)m;
    LEAVE();
}

CUresult
cuMemAllocManaged(CUdeviceptr *p, size_t n, unsigned int flags)
{
    ENTER(ctx);
    void *m;
    if (n == 0 || (flags != 1 && flags != 2)) /* CU_MEM_ATTACH_GLOBAL or CU_MEM_ATTACH_HOST */
        r = CUDA_ERROR_INVALID_VALUE;
    else if ((m = malloc(n)) == NULL)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    else if ((r = track(m, n, KIND_MANAGED, ctx)) == CUDA_SUCCESS)
        *p = (CUdeviceptr)(uintptr_t)m;
    LEAVE();
}

CUresult
cuMemHostAlloc(void **p, size_t n, unsigned int flags)
{
    ENTER(ctx);
    void *m;
    if (flags & ~7u) /* portable, devicemap, write-combined */
        r = CUDA_ERROR_INVALID_VALUE;
    else if ((m = malloc(n ? n : 1)) == NULL)
        r = CUDA_ERROR_OUT_OF_MEMORY;
    else if ((r = track(m, n ? n : 1, KIND_HOST, ctx)) == CUDA_SUCCESS)
        *p = m;
    LEAVE();
}

CUresult
cuMemFree_v2(CUdeviceptr p)
{
    Context *ctx = NULL;
    pthread_mutex_lock(&mock_lock);
    CUresult r = mock_current_context(&ctx);
    /* after a fault the memory is still released, and the fault reported */
    if (r == CUDA_SUCCESS || (ctx != NULL && r == ctx->sticky)) {
        CUresult freed = untrack_and_free((void *)(uintptr_t)p, KIND_DEVICE | KIND_MANAGED);
        if (freed != CUDA_SUCCESS)
            r = freed;
    }
    pthread_mutex_unlock(&mock_lock);
    return r;
}

CUresult
cuMemFreeHost(void *p)
{
    Context *ctx = NULL;
    pthread_mutex_lock(&mock_lock);
    CUresult r = mock_current_context(&ctx);
    if (r == CUDA_SUCCESS || (ctx != NULL && r == ctx->sticky)) {
        CUresult freed = untrack_and_free(p, KIND_HOST);
        if (freed != CUDA_SUCCESS)
            r = freed;
    }
    pthread_mutex_unlock(&mock_lock);
    return r;
}

/* The attributes pygpu asks about. Managed memory reports CU_MEMORYTYPE_DEVICE with IS_MANAGED
 * set, as the real driver does; memory it does not know is CUDA_ERROR_INVALID_VALUE. */
CUresult
cuPointerGetAttribute(void *data, int attr, CUdeviceptr p)
{
    ENTER(ctx);
    Alloc *a = mock_find_alloc((void *)(uintptr_t)p);
    if (a == NULL) {
        r = CUDA_ERROR_INVALID_VALUE;
        goto done;
    }
    switch (attr) {
    case 1: /* CU_POINTER_ATTRIBUTE_CONTEXT */
        *(Handle *)data = a->ctx;
        break;
    case 2: /* CU_POINTER_ATTRIBUTE_MEMORY_TYPE */
        *(unsigned int *)data = a->kind == KIND_HOST ? 1u : 2u;
        break;
    case 3: /* CU_POINTER_ATTRIBUTE_DEVICE_POINTER */
        *(CUdeviceptr *)data = p;
        break;
    case 8: /* CU_POINTER_ATTRIBUTE_IS_MANAGED: a bool */
        *(unsigned char *)data = a->kind == KIND_MANAGED;
        break;
    case 9: /* CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL */
        *(int *)data = a->ctx->device;
        break;
    default:
        r = CUDA_ERROR_INVALID_VALUE;
    }
    LEAVE();
}

/* ------------------------------------------------------------------ modules and kernel names */

/* The kernel names of MOCK_CUDA_KERNELS: a section per module (keyed by its fatbin image's
 * size), and one that holds for every module (image_size 0). */
typedef struct {
    size_t image_size;
    size_t count;
    char **names;
} NameSection;

static NameSection *sections;
static size_t nsections;
static int names_loaded; /* 1: names known; 0: no list, every name is accepted */

static int
add_section(size_t image_size)
{
    NameSection *s = realloc(sections, (nsections + 1) * sizeof *s);
    if (s == NULL)
        return -1;
    sections = s;
    sections[nsections++] = (NameSection){image_size, 0, NULL};
    return 0;
}

static int
add_name(const char *name)
{
    NameSection *s = &sections[nsections - 1];
    char **names = realloc(s->names, (s->count + 1) * sizeof *names);
    if (names == NULL)
        return -1;
    s->names = names;
    if ((s->names[s->count] = strdup(name)) == NULL)
        return -1;
    s->count++;
    return 0;
}

/* Reads MOCK_CUDA_KERNELS once: 0, or -1 (said on stderr) when it is set but unreadable. */
static int
load_kernel_names(void)
{
    const char *path = getenv("MOCK_CUDA_KERNELS");
    if (path == NULL || *path == 0 || names_loaded)
        return 0;
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "libcuda mock: cannot read MOCK_CUDA_KERNELS=%s\n", path);
        return -1;
    }
    char line[512];
    int rc = add_section(0);
    while (rc == 0 && fgets(line, sizeof line, f) != NULL) {
        size_t n = strcspn(line, "\r\n");
        line[n] = 0;
        while (n > 0 && (line[n - 1] == ' ' || line[n - 1] == '\t'))
            line[--n] = 0;
        if (n == 0 || line[0] == '#')
            continue;
        if (line[0] == '@') {
            const char *size = strrchr(line, ' ');
            rc = size ? add_section((size_t)strtoull(size + 1, NULL, 10)) : -1;
        } else {
            rc = add_name(line);
        }
    }
    fclose(f);
    if (rc < 0) {
        fprintf(stderr, "libcuda mock: bad MOCK_CUDA_KERNELS file %s\n", path);
        return -1;
    }
    names_loaded = 1;
    return 0;
}

static int
kernel_known(const Module *m, const char *name)
{
    if (!names_loaded)
        return 1;
    for (size_t s = 0; s < nsections; s++) {
        if (sections[s].image_size != 0 && sections[s].image_size != m->image_size)
            continue;
        for (size_t i = 0; i < sections[s].count; i++)
            if (strcmp(sections[s].names[i], name) == 0)
                return 1;
    }
    return 0;
}

/* The section of MOCK_CUDA_KERNELS that names every kernel of a cubin or PTX image, as the image
 * size that keys it, or 0 when none does: pygpu's own modules, when NVRTC built them (a cubin per
 * architecture, build_nvrtc.py) instead of nvcc (a fatbin), load as such images. */
static size_t
builtin_section(const MockImage *img)
{
    if (!names_loaded || img->nkernels == 0)
        return 0;
    for (size_t s = 0; s < nsections; s++) {
        if (sections[s].image_size == 0)
            continue;
        size_t found = 0;
        for (size_t k = 0; k < img->nkernels; k++)
            for (size_t i = 0; i < sections[s].count; i++)
                if (strcmp(sections[s].names[i], img->kernels[k].name) == 0) {
                    found++;
                    break;
                }
        if (found == img->nkernels)
            return sections[s].image_size;
    }
    return 0;
}

CUresult
cuModuleLoadData(Handle *m, const void *image)
{
    ENTER(ctx);
    const unsigned char *b = image;
    Module *mod = calloc(1, sizeof *mod);
    if (mod == NULL) {
        r = CUDA_ERROR_OUT_OF_MEMORY;
        goto done;
    }
    /* a fatbin starts with the magic 0xBA55ED50 (little-endian), a 2-byte version, the 2-byte
     * header size and the 8-byte size of what follows; a cubin is an ELF image, PTX is text */
    if (b != NULL && b[0] == 0x50 && b[1] == 0xED && b[2] == 0x55 && b[3] == 0xBA) {
        uint16_t header;
        uint64_t body;
        memcpy(&header, b + 6, sizeof header);
        memcpy(&body, b + 8, sizeof body);
        *mod = (Module){MODULE_MAGIC, ctx, (size_t)header + (size_t)body, 0, {0}};
    } else if (b != NULL && mock_image_parse(&mod->image, image) == 0) {
        size_t builtin = builtin_section(&mod->image);
        mod->magic = MODULE_MAGIC;
        mod->ctx = ctx;
        mod->image_size = builtin ? builtin : mod->image.size;
        mod->user = builtin == 0;
    } else {
        free(mod);
        r = CUDA_ERROR_INVALID_IMAGE;
        goto done;
    }
    if (mock_settings.load_delay_us > 0) {
        /* loading may JIT PTX: let callers see how they behave meanwhile */
        pthread_mutex_unlock(&mock_lock);
        mock_sleep_us(mock_settings.load_delay_us);
        pthread_mutex_lock(&mock_lock);
    }
    mock_stats_data.modules_loaded++;
    *m = mod;
    LEAVE();
}

CUresult
cuModuleUnload(Handle m)
{
    pthread_mutex_lock(&mock_lock);
    CUresult r = mock_driver_ready();
    Module *mod = m;
    if (r == CUDA_SUCCESS && (mod == NULL || mod->magic != MODULE_MAGIC))
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (r == CUDA_SUCCESS)
        mod->magic = 0; /* kept: functions of it may still be named (and then refused) */
    pthread_mutex_unlock(&mock_lock);
    return r;
}

CUresult
cuModuleGetFunction(Handle *f, Handle m, const char *name)
{
    ENTER(ctx);
    Module *mod = m;
    size_t len = strlen(name);
    if (mod == NULL || mod->magic != MODULE_MAGIC) {
        r = CUDA_ERROR_INVALID_HANDLE;
    } else if (len >= sizeof ((Function *)0)->name ||
               (mod->user ? mock_image_kernel(&mod->image, name) == NULL : !kernel_known(mod, name))) {
        mock_stats_data.unknown_kernels++;
        r = CUDA_ERROR_NOT_FOUND;
    } else {
        /* leaked: the backend caches functions for the life of the process */
        Function *fn = calloc(1, sizeof *fn);
        if (fn == NULL) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
            goto done;
        }
        fn->magic = FUNCTION_MAGIC;
        fn->module = mod;
        memcpy(fn->name, name, len + 1);
        /* pygpu's elementwise kernels: NAME_c(PgContigArgs), NAME_s(PgLoopArgs) */
        if (mod->user) {
            fn->form = 'u';
            fn->kernel = mock_image_kernel(&mod->image, name);
            fn->max_dynamic_shared = MOCK_SHARED_DEFAULT - (int)fn->kernel->static_shared;
        } else if (len > 2 && name[len - 2] == '_' && (name[len - 1] == 'c' || name[len - 1] == 's'))
            fn->form = name[len - 1];
        *f = fn;
    }
    (void)ctx;
    LEAVE();
}

/* ------------------------------------------------------------------ functions of user modules */

/* The function of a handle, or NULL when it is none of ours (or of an unloaded module). */
static Function *
function_of(Handle f)
{
    Function *fn = f;
    return fn != NULL && fn->magic == FUNCTION_MAGIC && fn->module->magic == MODULE_MAGIC ? fn : NULL;
}

/* As a 12.4+ driver: the offset and size of parameter i; MOCK_CUDA_NO_PARAM_INFO=1 makes it
 * answer as a driver that cannot tell. */
CUresult
cuFuncGetParamInfo(Handle f, size_t i, size_t *offset, size_t *size)
{
    ENTER(ctx);
    Function *fn = function_of(f);
    if (fn == NULL)
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (env_long("MOCK_CUDA_NO_PARAM_INFO", 0) || fn->kernel == NULL || !fn->kernel->params_known)
        r = CUDA_ERROR_NOT_SUPPORTED;
    else if (i >= fn->kernel->nparams)
        r = CUDA_ERROR_INVALID_VALUE;
    else {
        *offset = fn->kernel->param_offset[i];
        if (size != NULL)
            *size = fn->kernel->param_size[i];
    }
    (void)ctx;
    LEAVE();
}

CUresult
cuFuncGetAttribute(int *v, int attr, Handle f)
{
    ENTER(ctx);
    Function *fn = function_of(f);
    size_t shared = fn != NULL && fn->kernel != NULL ? fn->kernel->static_shared : 0;
    if (fn == NULL)
        r = CUDA_ERROR_INVALID_HANDLE;
    else
        switch (attr) {
        case 0: *v = (int)env_long("MOCK_CUDA_FUNC_MAX_THREADS", MOCK_MAX_THREADS); break;
        case 1: *v = (int)shared; break;
        case 4: *v = 32; break;               /* registers */
        case 5: case 6: *v = 90; break;       /* PTX and binary versions */
        case 8: *v = fn->max_dynamic_shared; break;
        case 2: case 3: *v = 0; break;
        default: r = CUDA_ERROR_INVALID_VALUE;
        }
    (void)ctx;
    LEAVE();
}

CUresult
cuFuncSetAttribute(Handle f, int attr, int value)
{
    ENTER(ctx);
    Function *fn = function_of(f);
    if (fn == NULL)
        r = CUDA_ERROR_INVALID_HANDLE;
    else if (attr != 8 || value < 0 ||
             (size_t)value + (fn->kernel ? fn->kernel->static_shared : 0) > MOCK_SHARED_OPTIN)
        r = CUDA_ERROR_INVALID_VALUE;
    else
        fn->max_dynamic_shared = value;
    (void)ctx;
    LEAVE();
}

/* A global variable of a user cubin: device memory of its size, zeroed, made on first ask. */
CUresult
cuModuleGetGlobal_v2(CUdeviceptr *p, size_t *size, Handle m, const char *name)
{
    ENTER(ctx);
    Module *mod = m;
    MockGlobal *g = NULL;
    if (mod == NULL || mod->magic != MODULE_MAGIC) {
        r = CUDA_ERROR_INVALID_HANDLE;
        goto done;
    }
    for (size_t i = 0; mod->user && i < mod->image.nglobals && g == NULL; i++)
        if (strcmp(mod->image.globals[i].name, name) == 0)
            g = &mod->image.globals[i];
    if (g == NULL) {
        r = CUDA_ERROR_NOT_FOUND;
        goto done;
    }
    if (g->memory == NULL) {
        char *mem = calloc(1, g->size);
        if (mem == NULL || (r = track(mem, g->size, KIND_DEVICE, ctx)) != CUDA_SUCCESS) {
            r = CUDA_ERROR_OUT_OF_MEMORY;
            goto done;
        }
        g->memory = mem;
    }
    if (p != NULL)
        *p = (CUdeviceptr)(uintptr_t)g->memory;
    if (size != NULL)
        *size = g->size;
    LEAVE();
}

/* NVRTC looks up the driver's private export tables when a libcuda.so.1 is present: this driver
 * has none, as NVRTC without a driver (it compiles all the same). */
CUresult
cuGetExportTable(const void **table, const void *uuid)
{
    (void)uuid;
    if (table != NULL)
        *table = NULL;
    return CUDA_ERROR_NOT_FOUND;
}
