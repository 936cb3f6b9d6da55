/* Finding and loading cuBLAS, cuSOLVER and cuFFT (the search order is in cuda_libs.h). Each version a
 * library may come in names the CUDA major version it needs from the driver, its directory in
 * NVIDIA's pip wheels and the libraries it links to: pip wheels do not find each other by
 * themselves (CUDA 12 wheels put each library in its own directory), so those are loaded first,
 * from the same place, and the dynamic linker then matches them by soname. */
#include "runtime/cuda_libs.h"
#include "runtime/backend.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

PgCublas pg_cublas;
PgCusolver pg_cusolver;
PgCufft pg_cufft;

#define MAX_DEPS 4

typedef struct {
    const char *soname;
    int cuda_major;       /* the driver must support this CUDA version */
    const char *wheel_dir; /* under site-packages */
    struct {
        const char *soname, *wheel_dir;
    } deps[MAX_DEPS];
} LibVersion;

typedef struct {
    const char *name;      /* "cuBLAS" */
    const char *env;       /* the variable naming one file to load */
    const char *pip13, *pip12;
    const LibVersion *versions; /* newest first, ended by a NULL soname */
    const PgDlSymbol *syms;
    size_t nsyms;
    void *table;
    size_t table_size;
} LibSpec;

typedef struct {
    int state;             /* 0 not tried, 1 loaded, -1 failed */
    char path[1024];
    char why[1024];
} LibState;

static const LibVersion cublas_versions[] = {
    {"libcublas.so.13", 13, "nvidia/cu13/lib", {{"libcublasLt.so.13", "nvidia/cu13/lib"}}},
    {"libcublas.so.12", 12, "nvidia/cublas/lib", {{"libcublasLt.so.12", "nvidia/cublas/lib"}}},
    {NULL, 0, NULL, {{NULL, NULL}}},
};

/* cuSOLVER's own version numbers lag CUDA's by one */
static const LibVersion cusolver_versions[] = {
    {"libcusolver.so.12", 13, "nvidia/cu13/lib",
     {{"libnvJitLink.so.13", "nvidia/cu13/lib"},
      {"libcusparse.so.12", "nvidia/cu13/lib"},
      {"libcublasLt.so.13", "nvidia/cu13/lib"},
      {"libcublas.so.13", "nvidia/cu13/lib"}}},
    {"libcusolver.so.11", 12, "nvidia/cusolver/lib",
     {{"libnvJitLink.so.12", "nvidia/nvjitlink/lib"},
      {"libcusparse.so.12", "nvidia/cusparse/lib"},
      {"libcublasLt.so.12", "nvidia/cublas/lib"},
      {"libcublas.so.12", "nvidia/cublas/lib"}}},
    {NULL, 0, NULL, {{NULL, NULL}}},
};

/* cuFFT's own version numbers lag CUDA's by one; it links to nothing of CUDA's */
static const LibVersion cufft_versions[] = {
    {"libcufft.so.12", 13, "nvidia/cu13/lib", {{NULL, NULL}}},
    {"libcufft.so.11", 12, "nvidia/cufft/lib", {{NULL, NULL}}},
    {NULL, 0, NULL, {{NULL, NULL}}},
};

#define CUBLAS_ENTRY(name, params, sym) {sym, NULL, offsetof(PgCublas, name)},
#define CUSOLVER_ENTRY(name, params, sym) {sym, NULL, offsetof(PgCusolver, name)},
#define CUFFT_ENTRY(name, params, sym) {sym, NULL, offsetof(PgCufft, name)},
static const PgDlSymbol cublas_symbols[] = {PG_CUBLAS_SYMBOLS(CUBLAS_ENTRY)};
static const PgDlSymbol cusolver_symbols[] = {PG_CUSOLVER_SYMBOLS(CUSOLVER_ENTRY)};
static const PgDlSymbol cufft_symbols[] = {PG_CUFFT_SYMBOLS(CUFFT_ENTRY)};
#undef CUBLAS_ENTRY
#undef CUSOLVER_ENTRY
#undef CUFFT_ENTRY

static const LibSpec cublas_spec = {
    "cuBLAS", "PYGPU_CUBLAS_LIBRARY", "nvidia-cublas", "nvidia-cublas-cu12", cublas_versions,
    cublas_symbols, sizeof cublas_symbols / sizeof cublas_symbols[0], &pg_cublas, sizeof pg_cublas,
};
static const LibSpec cusolver_spec = {
    "cuSOLVER", "PYGPU_CUSOLVER_LIBRARY", "nvidia-cusolver", "nvidia-cusolver-cu12", cusolver_versions,
    cusolver_symbols, sizeof cusolver_symbols / sizeof cusolver_symbols[0], &pg_cusolver, sizeof pg_cusolver,
};
static const LibSpec cufft_spec = {
    "cuFFT", "PYGPU_CUFFT_LIBRARY", "nvidia-cufft", "nvidia-cufft-cu12", cufft_versions,
    cufft_symbols, sizeof cufft_symbols / sizeof cufft_symbols[0], &pg_cufft, sizeof pg_cufft,
};
static LibState cublas_state, cusolver_state, cufft_state;

static int
file_exists(const char *path)
{
    return access(path, R_OK) == 0;
}

/* dlopen()s `path` and resolves the spec's symbols into a scratch table. 1 loaded (the table is
 * filled, st->path set), 0 not usable (the reason in st->why, kept for the final message). */
static int
try_open(const LibSpec *spec, LibState *st, const char *path)
{
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        const char *e = dlerror();
        snprintf(st->why, sizeof st->why, "%s", e ? e : path);
        return 0;
    }
    union {
        PgCublas cublas;
        PgCusolver cusolver;
        PgCufft cufft;
    } table;
    if (pg_dl_resolve(h, path, spec->syms, spec->nsyms, &table, st->why, sizeof st->why) < 0) {
        /* an older release than pygpu needs: keep looking */
        dlclose(h);
        return 0;
    }
    memcpy(spec->table, &table, spec->table_size);
    snprintf(st->path, sizeof st->path, "%s", path);
    return 1;
}

/* Loads the dependencies of version v found under dir_of(dep) and then the library at `path`. */
static int
try_version(const LibSpec *spec, LibState *st, const LibVersion *v, const char *root, int wheel,
            const char *path)
{
    for (int d = 0; d < MAX_DEPS && v->deps[d].soname; d++) {
        char dep[2048];
        if (wheel)
            snprintf(dep, sizeof dep, "%s/%s/%s", root, v->deps[d].wheel_dir, v->deps[d].soname);
        else
            snprintf(dep, sizeof dep, "%s/%s", root, v->deps[d].soname);
        /* kept loaded for the life of the process, like the library itself */
        if (file_exists(dep))
            dlopen(dep, RTLD_NOW | RTLD_LOCAL);
    }
    return try_open(spec, st, path);
}

/* The CUDA major version the driver supports (0 when unknown). */
static int
driver_major(void)
{
    const char *reason;
    int version = 0;
    if (pg_cuda_load(&reason) < 0 || pg_cu.cuDriverGetVersion(&version) != CUDA_SUCCESS)
        return 0;
    return version / 1000;
}

static int
search_wheels(const LibSpec *spec, LibState *st, int major)
{
    PyObject *path = PySys_GetObject("path"); /* borrowed */
    if (path == NULL || !PyList_Check(path))
        return 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(path); i++) {
        PyObject *entry = PyList_GET_ITEM(path, i);
        const char *root = PyUnicode_Check(entry) ? PyUnicode_AsUTF8(entry) : NULL;
        if (root == NULL) {
            PyErr_Clear();
            continue;
        }
        for (const LibVersion *v = spec->versions; v->soname; v++) {
            char file[2048];
            if (v->cuda_major > major)
                continue;
            snprintf(file, sizeof file, "%s%s%s/%s", root, *root ? "/" : "", v->wheel_dir, v->soname);
            if (file_exists(file) && try_version(spec, st, v, *root ? root : ".", 1, file))
                return 1;
        }
    }
    return 0;
}

static int
search_toolkit(const LibSpec *spec, LibState *st, int major)
{
    const char *home = getenv("CUDA_HOME");
    if (home == NULL || !*home)
        home = getenv("CUDA_PATH");
    if (home == NULL || !*home)
        home = "/usr/local/cuda";
    static const char *const subdirs[] = {"lib64", "lib", "targets/x86_64-linux/lib"};
    for (size_t s = 0; s < sizeof subdirs / sizeof subdirs[0]; s++) {
        char dir[1024];
        snprintf(dir, sizeof dir, "%s/%s", home, subdirs[s]);
        for (const LibVersion *v = spec->versions; v->soname; v++) {
            char file[2048];
            if (v->cuda_major > major)
                continue;
            snprintf(file, sizeof file, "%s/%s", dir, v->soname);
            if (file_exists(file) && try_version(spec, st, v, dir, 0, file))
                return 1;
        }
    }
    return 0;
}

static int
search_system(const LibSpec *spec, LibState *st, int major)
{
    for (const LibVersion *v = spec->versions; v->soname; v++) {
        if (v->cuda_major > major)
            continue;
        void *h = dlopen(v->soname, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
        if (h == NULL)
            h = dlopen(v->soname, RTLD_NOW | RTLD_LOCAL);
        if (h == NULL)
            continue; /* not installed: not worth a message */
        dlclose(h);
        if (try_open(spec, st, v->soname))
            return 1;
    }
    return 0;
}

static int
load(const LibSpec *spec, LibState *st)
{
    if (st->state == 0) {
        const char *file = getenv(spec->env);
        int major = driver_major(), found;
        st->why[0] = 0;
        if (file && *file) {
            found = try_open(spec, st, file);
            if (!found) {
                char detail[sizeof st->why];
                memcpy(detail, st->why, sizeof detail);
                snprintf(st->why, sizeof st->why,
                         "%s is not found: %s=%.300s cannot be loaded (%.500s); unset it to search the Python "
                         "environment and the CUDA toolkit, or install %s with `pip install %s`",
                         spec->name, spec->env, file, detail, spec->name, major >= 13 ? spec->pip13 : spec->pip12);
            }
        } else {
            found = search_wheels(spec, st, major) || search_toolkit(spec, st, major) ||
                    search_system(spec, st, major);
            if (!found) {
                char detail[sizeof st->why];
                snprintf(detail, sizeof detail, "%s", st->why);
                /* the package for the driver's CUDA version first */
                const char *first = major >= 13 ? spec->pip13 : spec->pip12;
                const char *second = major >= 13 ? spec->pip12 : spec->pip13;
                snprintf(st->why, sizeof st->why,
                         "%s is not found: install it with `pip install %s` (CUDA %d; or %s for CUDA %d), or "
                         "install the CUDA toolkit (looked in the Python environment's NVIDIA wheels, the "
                         "CUDA toolkit and the system's library path%s%.500s)",
                         spec->name, first, major >= 13 ? 13 : 12, second, major >= 13 ? 12 : 13,
                         detail[0] ? "; " : "", detail);
            }
        }
        st->state = found ? 1 : -1;
    }
    if (st->state < 0) {
        PyErr_SetString(PgExc_CUDAError, st->why);
        return -1;
    }
    return 0;
}

int
pg_cublas_load(void)
{
    return load(&cublas_spec, &cublas_state);
}

int
pg_cusolver_load(void)
{
    return load(&cusolver_spec, &cusolver_state);
}

int
pg_cufft_load(void)
{
    return load(&cufft_spec, &cufft_state);
}

const char *
pg_cufft_path(void)
{
    return cufft_state.state == 1 ? cufft_state.path : NULL;
}

const char *
pg_cublas_path(void)
{
    return cublas_state.state == 1 ? cublas_state.path : NULL;
}

const char *
pg_cusolver_path(void)
{
    return cusolver_state.state == 1 ? cusolver_state.path : NULL;
}

/* The status names of cublas_api.h, cusolver_common.h and cufft.h. */
static const char *
status_name(const char *library, int status)
{
    static const char *const cublas[] = {
        [1] = "CUBLAS_STATUS_NOT_INITIALIZED", [3] = "CUBLAS_STATUS_ALLOC_FAILED",
        [7] = "CUBLAS_STATUS_INVALID_VALUE", [8] = "CUBLAS_STATUS_ARCH_MISMATCH",
        [11] = "CUBLAS_STATUS_MAPPING_ERROR", [13] = "CUBLAS_STATUS_EXECUTION_FAILED",
        [14] = "CUBLAS_STATUS_INTERNAL_ERROR", [15] = "CUBLAS_STATUS_NOT_SUPPORTED",
    };
    static const char *const cusolver[] = {
        [1] = "CUSOLVER_STATUS_NOT_INITIALIZED", [2] = "CUSOLVER_STATUS_ALLOC_FAILED",
        [3] = "CUSOLVER_STATUS_INVALID_VALUE", [4] = "CUSOLVER_STATUS_ARCH_MISMATCH",
        [5] = "CUSOLVER_STATUS_MAPPING_ERROR", [6] = "CUSOLVER_STATUS_EXECUTION_FAILED",
        [7] = "CUSOLVER_STATUS_INTERNAL_ERROR", [8] = "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
        [9] = "CUSOLVER_STATUS_NOT_SUPPORTED",
    };
    static const char *const cufft[] = {
        [1] = "CUFFT_INVALID_PLAN", [2] = "CUFFT_ALLOC_FAILED", [3] = "CUFFT_INVALID_TYPE",
        [4] = "CUFFT_INVALID_VALUE", [5] = "CUFFT_INTERNAL_ERROR", [6] = "CUFFT_EXEC_FAILED",
        [7] = "CUFFT_SETUP_FAILED", [8] = "CUFFT_INVALID_SIZE", [9] = "CUFFT_UNALIGNED_DATA",
        [11] = "CUFFT_INVALID_DEVICE", [13] = "CUFFT_NO_WORKSPACE", [14] = "CUFFT_NOT_IMPLEMENTED",
        [16] = "CUFFT_NOT_SUPPORTED",
    };
    const char *const *names = cusolver;
    int n = (int)(sizeof cusolver / sizeof cusolver[0]);
    if (strcmp(library, "cuBLAS") == 0) {
        names = cublas;
        n = (int)(sizeof cublas / sizeof cublas[0]);
    } else if (strcmp(library, "cuFFT") == 0) {
        names = cufft;
        n = (int)(sizeof cufft / sizeof cufft[0]);
    }
    return status >= 0 && status < n && names[status] ? names[status] : "unknown status";
}

int
pg_cuda_lib_raise(PgDevice *dev, const char *library, int status, const char *call)
{
    PyErr_Format(PgExc_CUDAError, "%s failed on cuda:%d: %s (%d)", call, dev ? dev->index : 0,
                 status_name(library, status), status);
    return -1;
}
