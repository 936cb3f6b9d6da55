/* CUDA's <cuComplex.h> for kernels compiled for the CPU (the toolkit's compiles under NVCC and
 * NVRTC only): cuFloatComplex and cuDoubleComplex are float2 and double2 (cuda_cpu.h's), and the
 * functions are CUDA's, with pg_math.h's division and absolute value (NumPy's: the ufuncs' own)
 * where CUDA scales its own way (the results agree to rounding). */
#ifndef PG_CPU_CUCOMPLEX_H
#define PG_CPU_CUCOMPLEX_H
#ifndef PYGPU_CPU
#error "pygpu's cuComplex.h is for the CPU backend: NVRTC and NVCC have CUDA's"
#endif

#include "pg_math_unpolled.h"

typedef float2 cuFloatComplex;
typedef double2 cuDoubleComplex;
typedef cuFloatComplex cuComplex;

#define PG_CUCOMPLEX(C, T, S, P, SUFFIX, PS)                                                       \
    static inline T cuCreal##SUFFIX(C x) { return x.x; }                                          \
    static inline T cuCimag##SUFFIX(C x) { return x.y; }                                          \
    static inline C make_cu##S##Complex(T r, T i)                                                 \
    {                                                                                             \
        C z;                                                                                      \
        z.x = r;                                                                                  \
        z.y = i;                                                                                  \
        return z;                                                                                 \
    }                                                                                             \
    static inline C cuConj##SUFFIX(C x) { return make_cu##S##Complex(x.x, -x.y); }                \
    static inline C cuCadd##SUFFIX(C x, C y) { return make_cu##S##Complex(x.x + y.x, x.y + y.y); } \
    static inline C cuCsub##SUFFIX(C x, C y) { return make_cu##S##Complex(x.x - y.x, x.y - y.y); } \
    static inline C cuCmul##SUFFIX(C x, C y)                                                      \
    {                                                                                             \
        return make_cu##S##Complex(x.x * y.x - x.y * y.y, x.x * y.y + x.y * y.x);                 \
    }                                                                                             \
    static inline C cuCdiv##SUFFIX(C x, C y)                                                      \
    {                                                                                             \
        P q = pg_cdiv_##PS(pg_cmake_##PS(x.x, x.y), pg_cmake_##PS(y.x, y.y));           \
        return make_cu##S##Complex(q.re, q.im);                                                   \
    }                                                                                             \
    static inline T cuCabs##SUFFIX(C x) { return pg_cabs_##PS(pg_cmake_##PS(x.x, x.y)); }       \
    /* x * y + d, as CUDA's: the products summed in the order of its cuCfma */                   \
    static inline C cuCfma##SUFFIX(C x, C y, C d)                                                 \
    {                                                                                             \
        T re = (x.x * y.x) + d.x, im = (x.x * y.y) + d.y;                                         \
        return make_cu##S##Complex(-(x.y * y.y) + re, (x.y * y.x) + im);                          \
    }

PG_CUCOMPLEX(cuFloatComplex, float, Float, pg_complex64, f, c64)
PG_CUCOMPLEX(cuDoubleComplex, double, Double, pg_complex128, , c128)
#undef PG_CUCOMPLEX

static inline cuComplex make_cuComplex(float r, float i) { return make_cuFloatComplex(r, i); }
static inline cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex c)
{
    return make_cuDoubleComplex((double)c.x, (double)c.y);
}
static inline cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex c)
{
    return make_cuFloatComplex((float)c.x, (float)c.y);
}

#endif
