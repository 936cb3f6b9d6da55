/* Run-time loading of NVRTC, the CUDA runtime compiler, for kernels compiled from source (jit/).
 * Like libcuda it is dlopen'ed, from a path the caller found (pygpu/_jit/nvrtc.py looks in the
 * CUDA toolkit and in NVIDIA's pip wheels, preferring the version that matches the driver),
 * through the table of the symbols it takes. nvrtc.h is not included: the few types are here. */
#ifndef PG_NVRTC_LOADER_H
#define PG_NVRTC_LOADER_H
#include <stddef.h>

typedef int nvrtcResult;
typedef struct _nvrtcProgram *nvrtcProgram;
enum { NVRTC_SUCCESS = 0, NVRTC_ERROR_COMPILATION = 6 };

/* X(field, return type, parameters, exported name, fallback: NULL, or PG_DL_OPTIONAL) */
#define PG_NVRTC_SYMBOLS(X)                                                                       \
    X(nvrtcVersion, nvrtcResult, (int *, int *), "nvrtcVersion", NULL)                            \
    X(nvrtcGetErrorString, const char *, (nvrtcResult), "nvrtcGetErrorString", NULL)              \
    X(nvrtcCreateProgram, nvrtcResult,                                                            \
      (nvrtcProgram *, const char *, const char *, int, const char *const *, const char *const *), \
      "nvrtcCreateProgram", NULL)                                                                 \
    X(nvrtcDestroyProgram, nvrtcResult, (nvrtcProgram *), "nvrtcDestroyProgram", NULL)            \
    X(nvrtcCompileProgram, nvrtcResult, (nvrtcProgram, int, const char *const *), "nvrtcCompileProgram", NULL) \
    X(nvrtcGetProgramLogSize, nvrtcResult, (nvrtcProgram, size_t *), "nvrtcGetProgramLogSize", NULL) \
    X(nvrtcGetProgramLog, nvrtcResult, (nvrtcProgram, char *), "nvrtcGetProgramLog", NULL)        \
    X(nvrtcGetPTXSize, nvrtcResult, (nvrtcProgram, size_t *), "nvrtcGetPTXSize", NULL)            \
    X(nvrtcGetPTX, nvrtcResult, (nvrtcProgram, char *), "nvrtcGetPTX", NULL)                      \
    X(nvrtcGetCUBINSize, nvrtcResult, (nvrtcProgram, size_t *), "nvrtcGetCUBINSize", PG_DL_OPTIONAL) \
    X(nvrtcGetCUBIN, nvrtcResult, (nvrtcProgram, char *), "nvrtcGetCUBIN", PG_DL_OPTIONAL)        \
    X(nvrtcAddNameExpression, nvrtcResult, (nvrtcProgram, const char *), "nvrtcAddNameExpression", NULL) \
    X(nvrtcGetLoweredName, nvrtcResult, (nvrtcProgram, const char *, const char **), "nvrtcGetLoweredName", NULL) \
    X(nvrtcGetNumSupportedArchs, nvrtcResult, (int *), "nvrtcGetNumSupportedArchs", PG_DL_OPTIONAL) \
    X(nvrtcGetSupportedArchs, nvrtcResult, (int *), "nvrtcGetSupportedArchs", PG_DL_OPTIONAL)

#define PG_NVRTC_FIELD(name, ret, params, sym, fallback) ret (*name) params;
typedef struct {
    PG_NVRTC_SYMBOLS(PG_NVRTC_FIELD)
} PgNvrtc;
#undef PG_NVRTC_FIELD

/* NVRTC's entry points; valid once pg_nvrtc_load succeeded. */
extern PgNvrtc pg_nvrtc;

/* Loads the first of `paths` (NULL-terminated) that loads and has every symbol, once per
 * process: later calls return the first success. A path in a folder that also holds
 * libnvrtc-builtins.so.* gets that library loaded first (the CUDA 13 wheels do not find their
 * own). Returns the loaded path, or NULL with a message in err. Needs the caller's GIL. */
const char *pg_nvrtc_load(const char *const *paths, char *err, size_t errsize);
#endif
