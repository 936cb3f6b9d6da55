/* User kernels on the CPU backend: modules of CUDA C compiled by the host compiler (jit/ builds
 * them from kernels/cuda_cpu.h and the user's source) are shared objects, loaded with dlopen; a
 * launch runs the grid's blocks on all cores (the worker team takes chunks of blocks), each block
 * on one thread, its threads as a loop or, in modules with barriers, as fibers (cpu_fiber.c).
 * Faults and traps in kernel code end the launch with a Python exception (cpu_fault.c). */
#include "runtime/backend.h"
#include "runtime/cpu_fault.h"
#include "runtime/cpu_fiber.h"
#include "runtime/cpu_interrupt.h"
#include "runtime/cpu_team.h"
#include "kernels/cpu_stop.h"
#include <dlfcn.h>
#include <limits.h>
#include <link.h>
#include <signal.h>
#include <stdlib.h>

/* Below this many threads in a grid the launch runs on the calling thread. */
#define PG_CPU_KERNEL_PARALLEL_MIN 16384

typedef struct {
    void *dl;
    const PgCpuModule *m;
} CpuModule;

static const PgCpuRuntime cpu_runtime = {
    .block_reduce = pg_fiber_block_reduce,
    .warp = pg_fiber_warp,
    .trap = pg_fault_trap,
    .stop = &pg_cpu_stop,
};

int
pg_cpu_module_load(PgDevice *dev, const void *image, size_t size, void **module)
{
    PG_UNUSED(dev);
    PG_UNUSED(size);
    const char *path = image;
    void *dl = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (dl == NULL) {
        const char *why = dlerror();
        PyErr_Format(PyExc_OSError,
                     "cannot load the compiled kernels %s: %s (a cache directory on a noexec file system "
                     "cannot hold them: set PYGPU_CACHE_DIR)",
                     path, why ? why : "unknown error");
        return -1;
    }
    const PgCpuModule *m = dlsym(dl, "pg_cpu_module");
    if (m == NULL || m->abi_version != PG_CPU_ABI_VERSION) {
        dlclose(dl);
        PyErr_Format(PyExc_ValueError, "%s is not a module of CPU kernels built by this pygpu (%s)", path,
                     m == NULL ? "no pg_cpu_module" : "another ABI version");
        return -1;
    }
    CpuModule *cm = PyMem_RawMalloc(sizeof *cm);
    if (cm == NULL) {
        dlclose(dl);
        PyErr_NoMemory();
        return -1;
    }
    cm->dl = dl;
    cm->m = m;
    m->set_runtime(&cpu_runtime);
    *module = cm;
    return 0;
}

void
pg_cpu_module_unload(PgDevice *dev, void *module)
{
    PG_UNUSED(dev);
    CpuModule *cm = module;
    if (cm == NULL)
        return;
    dlclose(cm->dl);
    PyMem_RawFree(cm);
}

int
pg_cpu_kernel_get(PgDevice *dev, void *module, const char *name, PgFunctionInfo *info)
{
    PG_UNUSED(dev);
    const PgCpuModule *m = ((CpuModule *)module)->m;
    const PgCpuKernel *k = NULL;
    for (int i = 0; i < m->nkernels && k == NULL; i++)
        if (strcmp(m->kernels[i].name, name) == 0)
            k = &m->kernels[i];
    if (k == NULL)
        return 1;
    memset(info, 0, sizeof *info);
    info->handle = (void *)k;
    info->module = module;
    info->nparams = k->nparams;
    info->params = PyMem_Malloc(sizeof(PgParamInfo) * (size_t)(k->nparams > 0 ? k->nparams : 1));
    if (info->params == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (int i = 0; i < k->nparams; i++) {
        info->params[i].size = (int32_t)k->params[i].size;
        info->params[i].kind = k->params[i].kind;
        info->params[i].type = k->params[i].type;
    }
    /* CUDA's limits (an sm_90 device's shared memory), so that code tried on the CPU runs on a GPU */
    info->max_threads = 1024;
    info->max_block[0] = info->max_block[1] = 1024;
    info->max_block[2] = 64;
    info->max_grid[0] = 2147483647;
    info->max_grid[1] = info->max_grid[2] = 65535;
    info->static_shared = -1;
    info->max_shared = 232448;
    info->shared_opted = info->max_shared;
    return 0;
}

int
pg_cpu_module_global(PgDevice *dev, void *module, const char *name, void **ptr, size_t *size)
{
    PG_UNUSED(dev);
    void *p = dlsym(((CpuModule *)module)->dl, name);
    if (p == NULL)
        return 1;
    Dl_info where;
    const ElfW(Sym) *sym = NULL;
    *ptr = p;
    *size = dladdr1(p, &where, (void **)&sym, RTLD_DL_SYMENT) && sym != NULL ? (size_t)sym->st_size : 0;
    return 0;
}

/* ------------------------------------------------------------------ the launch */

typedef struct {
    const PgCpuModule *m;
    const PgCpuKernel *k;
    PgCpuGrid grid;
    void **args;
    size_t shared;
    uint64_t nblocks, chunk, next;
    int failed;
    /* the first failure */
    int signo, trap_kind, overflow;
    void *addr;
    char message[512];
    pg_uint3 where_block, where_thread;
} Launch;

/* The dynamic shared memory of the block this thread runs. */
static __thread char *dynamic_shared;
static __thread size_t dynamic_shared_size;
static __thread PgFaultGuard guard;

static int
reserve_dynamic_shared(size_t n)
{
    if (n <= dynamic_shared_size)
        return 0;
    void *p = NULL;
    if (posix_memalign(&p, 128, n) != 0)
        return -1;
    free(dynamic_shared);
    dynamic_shared = p;
    dynamic_shared_size = n;
    return 0;
}

static void
record_failure(Launch *L, PgCpuThread *st)
{
    if (__atomic_exchange_n(&L->failed, 1, __ATOMIC_ACQ_REL) != 0)
        return;
    L->signo = guard.signo;
    L->addr = guard.addr;
    L->trap_kind = guard.trap_kind;
    L->overflow = guard.signo == SIGSEGV && pg_fiber_guard_hit(guard.addr);
    memcpy(L->message, guard.message, sizeof L->message);
    L->where_block = st->block_idx;
    L->where_thread = st->thread_idx;
}

/* One OS thread's share: chunks of blocks until none is left or a block failed. */
static void
run_share(Launch *L)
{
    pg_fault_thread_prepare();
    PgCpuThread *st = L->m->thread_state();
    st->block_dim = L->grid.block;
    st->grid_dim = L->grid.grid;
    st->block_idx = (pg_uint3){0, 0, 0};
    st->thread_idx = (pg_uint3){0, 0, 0};
    if (L->shared > 0 && reserve_dynamic_shared(L->shared) < 0) {
        guard.signo = 0;
        guard.trap_kind = PG_TRAP_RUNTIME;
        snprintf(guard.message, sizeof guard.message, "out of memory for %zu bytes of dynamic shared memory", L->shared);
        record_failure(L, st);
        return;
    }
    st->dynamic_shared = dynamic_shared;
    st->dynamic_shared_size = L->shared;
    st->scheduler = NULL;
    if (sigsetjmp(guard.env, 0) != 0) {
        pg_fault_guard = NULL;
        pg_fiber_abandon();
        record_failure(L, st);
        return;
    }
    pg_fault_guard = &guard;
    guard.active = 1;
    for (;;) {
        if (__atomic_load_n(&L->failed, __ATOMIC_RELAXED))
            break;
        if (PG_CPU_STOPPING())
            pg_fault_trap(PG_TRAP_INTERRUPT, "interrupted"); /* Ctrl-C: between chunks of blocks */
        uint64_t begin = __atomic_fetch_add(&L->next, L->chunk, __ATOMIC_RELAXED);
        if (begin >= L->nblocks)
            break;
        uint64_t end = begin + L->chunk < L->nblocks ? begin + L->chunk : L->nblocks;
        if (!L->m->uses_barriers) {
            /* a block's loop keeps its indices to itself: only a trap site notes them */
            st->block_idx = st->thread_idx = (pg_uint3){UINT_MAX, UINT_MAX, UINT_MAX};
            L->k->run_blocks(&L->grid, L->args, begin, end);
            continue;
        }
        uint64_t gx = L->grid.grid.x, gy = L->grid.grid.y;
        for (uint64_t b = begin; b < end; b++) {
            st->block_idx = (pg_uint3){(unsigned int)(b % gx), (unsigned int)(b / gx % gy), (unsigned int)(b / gx / gy)};
            pg_fiber_run_block(L->k, L->args, st);
        }
    }
    guard.active = 0;
    pg_fault_guard = NULL;
}

/* A raise statement's exception ("module\x1fqualified class name\x1ftext", PG_TRAP_RAISE): the
 * class found again by name, raised with the text and where it happened; RuntimeError when the
 * class cannot be found (a class defined inside a function). */
static void
raise_statement(const char *message, const char *name, const char *where)
{
    const char *cls = strchr(message, '\x1f'), *text = cls ? strchr(cls + 1, '\x1f') : NULL;
    PyObject *type = NULL;
    if (text != NULL) {
        PyObject *module_name = PyUnicode_FromStringAndSize(message, cls - message);
        PyObject *obj = module_name ? PyImport_Import(module_name) : NULL;
        Py_XDECREF(module_name);
        const char *part = cls + 1;
        while (obj != NULL && part < text) { /* the qualified name, a dotted path */
            const char *dot = memchr(part, '.', (size_t)(text - part));
            const char *stop = dot ? dot : text;
            PyObject *attr = PyUnicode_FromStringAndSize(part, stop - part);
            PyObject *next = attr ? PyObject_GetAttr(obj, attr) : NULL;
            Py_XDECREF(attr);
            Py_SETREF(obj, next);
            part = stop + 1;
        }
        if (obj != NULL && PyExceptionClass_Check(obj))
            type = obj;
        else
            Py_XDECREF(obj);
        PyErr_Clear();
    }
    if (type == NULL) {
        PyErr_Format(PyExc_RuntimeError, "%s (kernel %s, %s)", text ? text + 1 : message, name, where);
        return;
    }
    if (text[1] != 0)
        PyErr_Format(type, "%s (kernel %s, %s)", text + 1, name, where);
    else
        PyErr_Format(type, "kernel %s, %s", name, where);
    Py_DECREF(type);
}

static int
raise_failure(const Launch *L)
{
    char where[160];
    if (L->where_thread.x == UINT_MAX) /* a fault outside a trap site of a block's loop */
        snprintf(where, sizeof where, "block and thread not recorded");
    else
        snprintf(where, sizeof where, "block (%u, %u, %u), thread (%u, %u, %u)", L->where_block.x, L->where_block.y,
                 L->where_block.z, L->where_thread.x, L->where_thread.y, L->where_thread.z);
    const char *name = L->k->name;
    if (L->signo == 0 && L->trap_kind == PG_TRAP_RAISE) {
        raise_statement(L->message, name, where);
    } else if (L->signo == 0) {
        PyObject *type = L->trap_kind == PG_TRAP_ASSERT ? PyExc_AssertionError
                       : L->trap_kind == PG_TRAP_INDEX  ? PyExc_IndexError
                                                        : PyExc_RuntimeError;
        PyErr_Format(type, "%s (kernel %s, %s)", L->message, name, where);
    } else if (L->overflow) {
        PyErr_Format(PyExc_RuntimeError, "kernel %s overflowed its stack of %d KiB per thread in %s", name,
                     (int)(PG_FIBER_STACK_BYTES / 1024), where);
    } else if (L->signo == SIGSEGV || L->signo == SIGBUS) {
        PyErr_Format(PyExc_IndexError,
                     "kernel %s accessed memory outside its arrays (address %p) in %s: an out-of-range index or a bad "
                     "pointer (on a GPU: CUDA_ERROR_ILLEGAL_ADDRESS)",
                     name, L->addr, where);
    } else if (L->signo == SIGFPE) {
        PyErr_Format(PyExc_ZeroDivisionError, "integer division by zero (or overflow) in kernel %s, %s", name, where);
    } else if (L->signo == SIGABRT) {
        PyErr_Format(PyExc_AssertionError, "kernel %s aborted (a failed assert?) in %s", name, where);
    } else {
        PyErr_Format(PyExc_RuntimeError, "kernel %s stopped with signal %d in %s", name, L->signo, where);
    }
    return -1;
}

static void
share_member(void *L, int t, int n)
{
    PG_UNUSED(t);
    PG_UNUSED(n);
    run_share(L);
}

int
pg_cpu_kernel_launch(PgDevice *dev, PgFunctionInfo *info, const PgLaunchConfig *cfg, void **args, void *stream)
{
    PG_UNUSED(dev);
    PG_UNUSED(stream);
    const PgCpuKernel *k = info->handle;
    Launch L;
    memset(&L, 0, sizeof L);
    L.k = k;
    L.grid.grid = (pg_uint3){cfg->grid[0], cfg->grid[1], cfg->grid[2]};
    L.grid.block = (pg_uint3){cfg->block[0], cfg->block[1], cfg->block[2]};
    L.args = args;
    L.shared = cfg->shared_mem;
    L.nblocks = (uint64_t)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
    uint64_t threads = (uint64_t)cfg->block[0] * cfg->block[1] * cfg->block[2];
    L.m = ((CpuModule *)info->module)->m;
    int nt = pg_cpu_threads();
    int parallel = nt > 1 && L.nblocks > 1 && L.nblocks * threads >= PG_CPU_KERNEL_PARALLEL_MIN;
    if (nt > 0 && (uint64_t)nt > L.nblocks)
        nt = (int)L.nblocks;
    /* chunks small enough to balance, large enough that the shared counter is not contended */
    L.chunk = parallel ? L.nblocks / ((uint64_t)nt * 16) : L.nblocks;
    if (L.chunk < 1)
        L.chunk = 1;
    pg_fault_handlers_ensure();
    if (pg_cpu_interrupt_begin() < 0)
        return -1;
    Py_BEGIN_ALLOW_THREADS
    if (parallel)
        pg_cpu_team(nt, share_member, &L);
    else
        run_share(&L);
    fflush(stdout); /* what the kernel printed (print() in cuda.jit, printf) shows before Python's next line */
    Py_END_ALLOW_THREADS
    if (pg_cpu_interrupt_end() < 0)
        return -1; /* KeyboardInterrupt: the blocks not run yet never will; what ran has written */
    return L.failed ? raise_failure(&L) : 0;
}
