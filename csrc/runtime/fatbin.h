/* The CUDA modules embedded in the extension: one fatbin per .cu file of csrc/kernels, generated
 * into fatbin.c by build_cuda.py (an empty table in a build without nvcc). */
#ifndef PG_FATBIN_H
#define PG_FATBIN_H
#include <stddef.h>

typedef struct {
    const char *name;             /* the .cu file's name without the suffix: "elementwise" */
    const unsigned char *image;   /* for cuModuleLoadData */
    size_t size;
    const char *const *kernels;   /* the extern "C" kernels it defines (build_cuda.py) */
    int nkernels;
} PgFatbinModule;

extern const PgFatbinModule pg_fatbin_modules[];
extern const int pg_fatbin_nmodules;
extern const size_t pg_fatbin_size;        /* bytes of all the modules together; 0: no kernels */
extern const char pg_fatbin_archs[];       /* "sm_75 sm_80 ... compute_120" */
extern const int pg_cuda_build_version;    /* the toolkit's CUDA_VERSION: 13000 is 13.0 */

#endif
