/* The CUDA modules embedded in the extension, one per .cu file of csrc/kernels, generated into
 * fatbin.c by build_cuda.py (an empty table in a build without kernels). A module has one image
 * when nvcc built it (a fatbin: the driver picks the code for the GPU) and one per architecture
 * when NVRTC did (cubins and PTX, xz-compressed: module_image.c picks and inflates). */
#ifndef PG_FATBIN_H
#define PG_FATBIN_H
#include <stddef.h>

typedef struct {
    int arch;                     /* cubin for sm_<arch>, or PTX for compute_<arch>; 0: a fatbin */
    int ptx;
    const unsigned char *data;    /* as stored */
    size_t size;
    size_t raw_size;              /* 0: stored as is; else data is an xz stream of this many bytes */
} PgModuleImage;

typedef struct {
    const char *name;             /* the .cu file's name without the suffix: "elementwise" */
    const PgModuleImage *images;
    int nimages;
    const char *const *kernels;   /* the extern "C" kernels it defines (build_cuda.py) */
    int nkernels;
} PgFatbinModule;

extern const PgFatbinModule pg_fatbin_modules[];
extern const int pg_fatbin_nmodules;
extern const size_t pg_fatbin_size;        /* bytes of all the images as stored; 0: no kernels */
extern const char pg_fatbin_archs[];       /* "sm_75 sm_80 ... compute_120" */
extern const char pg_cuda_toolchain[];     /* "nvcc" or "nvrtc"; "" without kernels */
extern const int pg_cuda_build_version;    /* the toolkit's CUDA_VERSION: 13000 is 13.0 */

#endif
