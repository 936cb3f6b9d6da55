/* dlopen of the CUDA libraries and their symbol tables (libgpuarray's src/loaders/ is the model).
 * Nothing here touches Python: callers turn a failure into the reason they report. */
#include "runtime/cuda_loader.h"
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

PgCudaDriver pg_cu;

int
pg_dl_resolve(void *handle, const char *libname, const PgDlSymbol *syms, size_t nsyms, void *table, char *err,
              size_t errsize)
{
    for (size_t i = 0; i < nsyms; i++) {
        void *f = dlsym(handle, syms[i].name);
        int optional = syms[i].fallback != NULL && syms[i].fallback[0] == 0;
        if (f == NULL && syms[i].fallback != NULL && !optional)
            f = dlsym(handle, syms[i].fallback);
        if (f == NULL && !optional) {
            snprintf(err, errsize, "%s lacks %s", libname, syms[i].name);
            return -1;
        }
        /* POSIX guarantees that a data pointer from dlsym converts to a function pointer */
        memcpy((char *)table + syms[i].offset, &f, sizeof f);
    }
    return 0;
}

void *
pg_dl_load_table(const char *const *libnames, const PgDlSymbol *syms, size_t nsyms, void *table, char *err,
                 size_t errsize)
{
    void *handle = NULL;
    for (const char *const *n = libnames; *n && handle == NULL; n++)
        handle = dlopen(*n, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        snprintf(err, errsize, "%s not found", libnames[0]);
        return NULL;
    }
    if (pg_dl_resolve(handle, libnames[0], syms, nsyms, table, err, errsize) < 0) {
        dlclose(handle);
        return NULL;
    }
    return handle;
}

#define PG_CU_ENTRY(name, ret, params, sym, oldsym) {sym, oldsym, offsetof(PgCudaDriver, name)},
static const PgDlSymbol driver_symbols[] = {PG_CU_SYMBOLS(PG_CU_ENTRY)};
#undef PG_CU_ENTRY

int
pg_cuda_load(const char **reason)
{
    static int state; /* 0 not tried, 1 loaded, -1 failed */
    static char why[320];
    if (state == 0) {
        static const char *const names[] = {"libcuda.so.1", "libcuda.so", NULL};
        PgCudaDriver table;
        char detail[256];
        void *h = pg_dl_load_table(names, driver_symbols, sizeof driver_symbols / sizeof driver_symbols[0],
                                   &table, detail, sizeof detail);
        if (h != NULL) {
            pg_cu = table;
            state = 1;
        } else {
            /* a library that loads but lacks a symbol is an old driver, not a missing one */
            snprintf(why, sizeof why, "%s: %s",
                     strstr(detail, " lacks ") ? "the CUDA driver is too old" : "no CUDA driver", detail);
            state = -1;
        }
    }
    if (state < 0) {
        *reason = why;
        return -1;
    }
    return 0;
}
