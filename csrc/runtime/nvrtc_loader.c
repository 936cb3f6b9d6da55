/* dlopen of NVRTC (see nvrtc_loader.h). */
#include "runtime/nvrtc_loader.h"
#include "runtime/cuda_loader.h"
#include <dlfcn.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>

PgNvrtc pg_nvrtc;

#define PG_NVRTC_ENTRY(name, ret, params, sym, fallback) {sym, fallback, offsetof(PgNvrtc, name)},
static const PgDlSymbol nvrtc_symbols[] = {PG_NVRTC_SYMBOLS(PG_NVRTC_ENTRY)};
#undef PG_NVRTC_ENTRY

/* libnvrtc dlopen()s its builtins library by name at compile time; one beside it in a wheel's
 * folder is not on the loader's path, so load it first (by path: the later load by name finds it). */
static void
preload_builtins(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL)
        return;
    char pattern[4096];
    snprintf(pattern, sizeof pattern, "%.*s/libnvrtc-builtins.so.*", (int)(slash - path), path);
    glob_t g;
    if (glob(pattern, 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            if (strstr(g.gl_pathv[i], ".alt.") == NULL && dlopen(g.gl_pathv[i], RTLD_NOW | RTLD_LOCAL) != NULL)
                break;
    }
    globfree(&g);
}

const char *
pg_nvrtc_load(const char *const *paths, char *err, size_t errsize)
{
    static char loaded[4096];
    if (loaded[0])
        return loaded;
    err[0] = 0;
    for (const char *const *p = paths; *p != NULL; p++) {
        const char *one[] = {*p, NULL};
        char why[512];
        PgNvrtc table;
        preload_builtins(*p);
        void *h = pg_dl_load_table(one, nvrtc_symbols, sizeof nvrtc_symbols / sizeof nvrtc_symbols[0], &table, why,
                                   sizeof why);
        if (h != NULL) {
            pg_nvrtc = table;
            snprintf(loaded, sizeof loaded, "%s", *p);
            return loaded;
        }
        /* a library that loads but lacks a symbol says more than one that is not there */
        if (err[0] == 0 || (strstr(why, " lacks ") != NULL && strstr(err, " lacks ") == NULL))
            snprintf(err, errsize, "%s", why);
    }
    if (err[0] == 0)
        snprintf(err, errsize, "no candidate library");
    return NULL;
}
