/* CUDA C on the CPU: what a kernel's source needs from CUDA, defined for the host C++ compiler.
 *
 * pygpu compiles a user's CUDA C (RawKernel, RawModule, ElementwiseKernel, and the C that
 * cuda.jit emits) for the CPU device as: this header, then the user's source, then a footer that
 * exports the kernels (PG_CPU_EXPORT, one per kernel, and PG_CPU_MODULE), into a shared object
 * the CPU backend loads (kernels/cpu_kernel_abi.h is the interface). The extension embeds this
 * text at build time, so it always matches the backend that runs the module.
 *
 * The model: a block runs on one OS thread, blocks in parallel on all cores. __shared__ memory is
 * thread_local (one copy per OS thread, so per running block); threadIdx & co. are fields of a
 * thread_local record the runner sets. Modules without barriers run a block's threads as a loop
 * with the kernel inlined; with barriers each thread is a fiber and the runtime switches at
 * __syncthreads and the warp collectives. Atomics are real atomics: blocks run concurrently. */
#ifndef PG_CUDA_CPU_H
#define PG_CUDA_CPU_H

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <assert.h>
#include <type_traits>

#include "cpu_kernel_abi.h"
#include "kernel_types.h"

#define PYGPU_CPU 1
#ifndef __CUDA_ARCH__
#define __CUDA_ARCH__ 800
#endif

/* ------------------------------------------------------------------ qualifiers */
/* modules are built with hidden visibility (each one's templates stay its own); device variables
 * are exported so that get_global finds them */
#define __global__
#define __device__ __attribute__((visibility("default")))
#define __host__
#define __constant__ __attribute__((visibility("default")))
#define __managed__ __attribute__((visibility("default")))
#define __grid_constant__
/* at block scope thread_local implies static: one copy per OS thread, i.e. per running block */
#define __shared__ thread_local
#define __forceinline__ inline __attribute__((always_inline))
#define __noinline__ __attribute__((noinline))
#define __restrict__ __restrict
#define __align__(n) alignas(n)
#define __launch_bounds__(...)
#define __maxnreg__(n)
#define __cudart_builtin__

/* ------------------------------------------------------------------ vector types */
#define PG_VEC1(T, N, A) struct alignas(A) N##1 { T x; };
#define PG_VEC2(T, N, A) struct alignas(A) N##2 { T x, y; };
#define PG_VEC3(T, N) struct N##3 { T x, y, z; };
#define PG_VEC4(T, N, A) struct alignas(A) N##4 { T x, y, z, w; };
#define PG_MAKE(T, N)                                                                           \
    static inline N##1 make_##N##1(T x) { return N##1{x}; }                                     \
    static inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }                             \
    static inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }                     \
    static inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
#define PG_VECTOR(T, N, A1, A2, A4) PG_VEC1(T, N, A1) PG_VEC2(T, N, A2) PG_VEC3(T, N) PG_VEC4(T, N, A4) PG_MAKE(T, N)
PG_VECTOR(signed char, char, 1, 2, 4)
PG_VECTOR(unsigned char, uchar, 1, 2, 4)
PG_VECTOR(short, short, 2, 4, 8)
PG_VECTOR(unsigned short, ushort, 2, 4, 8)
PG_VECTOR(int, int, 4, 8, 16)
PG_VECTOR(unsigned int, uint, 4, 8, 16)
PG_VECTOR(long, long, 8, 16, 16)
PG_VECTOR(unsigned long, ulong, 8, 16, 16)
PG_VECTOR(long long, longlong, 8, 16, 16)
PG_VECTOR(unsigned long long, ulonglong, 8, 16, 16)
PG_VECTOR(float, float, 4, 8, 16)
PG_VECTOR(double, double, 8, 16, 16)
#undef PG_VEC1
#undef PG_VEC2
#undef PG_VEC3
#undef PG_VEC4
#undef PG_MAKE
#undef PG_VECTOR

struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(pg_uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};

/* ------------------------------------------------------------------ the thread's indices
 * `__pg_idx` names the indices: the thread_local record below, which the runner keeps current, or,
 * inside a kernel whose definition pygpu rewrote to take them as a first parameter
 * (`const PgCpuThread &__pg_idx`, hostcc.py), that parameter, which shadows the record: a block's
 * loop then keeps them in registers instead of thread-local storage. PG_TLS_INDICES (defined
 * before this header) says whether code outside the rewritten kernels reads them, so that the
 * loop must keep the record current too. */
#ifndef PG_TLS_INDICES
#define PG_TLS_INDICES 1
#endif
static thread_local PgCpuThread __pg_idx;
static const PgCpuRuntime *__pg_runtime;
static const int __pg_never = 0;
static const int *__pg_stop = &__pg_never; /* the launch's stop flag (Ctrl-C) */

static inline uint3 __pg_u3(pg_uint3 v) { return uint3{v.x, v.y, v.z}; }
#define threadIdx (__pg_u3(__pg_idx.thread_idx))
#define blockIdx (__pg_u3(__pg_idx.block_idx))
#define blockDim (__pg_u3(__pg_idx.block_dim))
#define gridDim (__pg_u3(__pg_idx.grid_dim))
#define warpSize 32

/* ------------------------------------------------------------------ traps and assert */
/* A trap site in a kernel notes its thread in the record the runner reads after a failure (in a
 * block's loop the indices are the loop's own, __pg_idx the parameter shadowing the record). */
#define __PG_NOTE_WHERE() (::__pg_idx.block_idx = __pg_idx.block_idx, ::__pg_idx.thread_idx = __pg_idx.thread_idx)
static inline void __trap(void) { __pg_runtime->trap(PG_TRAP_RUNTIME, "__trap() called"); __builtin_unreachable(); }
static inline void __pg_assert_fail(const char *expr, const char *file, int line)
{
    char msg[512];
    snprintf(msg, sizeof msg, "%s:%d: assertion '%s' failed", file, line, expr);
    __pg_runtime->trap(PG_TRAP_ASSERT, msg);
    __builtin_unreachable();
}
#undef assert
#define assert(e) ((e) ? (void)0 : (__PG_NOTE_WHERE(), __pg_assert_fail(#e, __FILE__, __LINE__)))
#define __brkpt() __trap()

/* ------------------------------------------------------------------ barriers and warps */
static inline void __syncthreads(void) { __pg_runtime->block_reduce(__pg_idx.scheduler, PG_REDUCE_NONE, 0); }
static inline int __syncthreads_count(int p) { return __pg_runtime->block_reduce(__pg_idx.scheduler, PG_REDUCE_COUNT, p != 0); }
static inline int __syncthreads_and(int p) { return __pg_runtime->block_reduce(__pg_idx.scheduler, PG_REDUCE_AND, p != 0); }
static inline int __syncthreads_or(int p) { return __pg_runtime->block_reduce(__pg_idx.scheduler, PG_REDUCE_OR, p != 0); }
static inline void __syncwarp(unsigned int mask = 0xffffffffu) { (void)mask; __pg_runtime->warp(__pg_idx.scheduler, PG_WARP_SYNC, 0, 0, 32); }

template <class T>
static inline T __pg_warp_value(int op, T v, int arg, int width)
{
    static_assert(sizeof(T) <= 8, "warp shuffles move values of at most 8 bytes");
    uint64_t bits = 0;
    memcpy(&bits, &v, sizeof v);
    bits = __pg_runtime->warp(__pg_idx.scheduler, op, bits, arg, width);
    T r;
    memcpy(&r, &bits, sizeof r);
    return r;
}
template <class T> static inline T __shfl_sync(unsigned int, T v, int src, int width = 32) { return __pg_warp_value(PG_WARP_SHFL_IDX, v, src, width); }
template <class T> static inline T __shfl_up_sync(unsigned int, T v, unsigned int d, int width = 32) { return __pg_warp_value(PG_WARP_SHFL_UP, v, (int)d, width); }
template <class T> static inline T __shfl_down_sync(unsigned int, T v, unsigned int d, int width = 32) { return __pg_warp_value(PG_WARP_SHFL_DOWN, v, (int)d, width); }
template <class T> static inline T __shfl_xor_sync(unsigned int, T v, int m, int width = 32) { return __pg_warp_value(PG_WARP_SHFL_XOR, v, m, width); }
/* The votes count only the lanes in mask: divergent branches of a warp meet at one fiber barrier
 * (each with its own mask), so the ballot holds every waiting lane and is cut to mask here. A lane
 * named by mask that has returned counts for nothing (its ballot bit is 0). */
static inline unsigned int __ballot_sync(unsigned int mask, int p) { return (unsigned int)__pg_runtime->warp(__pg_idx.scheduler, PG_WARP_BALLOT, p != 0, 0, 32) & mask; }
static inline int __any_sync(unsigned int mask, int p) { return __ballot_sync(mask, p) != 0; }
static inline int __all_sync(unsigned int mask, int p) { return __ballot_sync(mask, !p) == 0; }
static inline int __uni_sync(unsigned int mask, int p) { return __all_sync(mask, p) || !__any_sync(mask, p); }
/* The warp's live lanes (those that have not returned). */
static inline unsigned int __pg_live_lanes(void) { return (unsigned int)__pg_runtime->warp(__pg_idx.scheduler, PG_WARP_BALLOT, 1, 0, 32); }
/* __activemask(): the lanes that reach this call site together (a ballot the runtime cuts to the
 * lanes waiting at the same site, __COUNTER__ + 1), so the branches of a divergent warp see
 * their own lanes; one site in a device function called from two branches counts both. */
static inline unsigned int __pg_activemask(int site) { return (unsigned int)__pg_runtime->warp(__pg_idx.scheduler, PG_WARP_BALLOT, 1, site, 32); }
#define __activemask() __pg_activemask(__COUNTER__ + 1)
/* __match_any_sync and __match_all_sync by shuffles: every lane reads each lane's value (its bits,
 * as the GPU compares them) */
template <class T> static inline unsigned int __match_any_sync(unsigned int mask, T v)
{
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "match_any_sync compares 32- or 64-bit values");
    uint64_t mine = 0, theirs;
    memcpy(&mine, &v, sizeof v);
    unsigned int r = 0;
    for (int lane = 0; lane < 32; lane++) {
        theirs = __pg_warp_value(PG_WARP_SHFL_IDX, mine, lane, 32);
        r |= (unsigned int)(theirs == mine) << lane;
    }
    return r & mask & __pg_live_lanes();
}
template <class T> static inline unsigned int __match_all_sync(unsigned int mask, T v, int *pred)
{
    const unsigned int same = __match_any_sync(mask, v), named = mask & __pg_live_lanes();
    *pred = same == named;
    return *pred ? named : 0u;
}
static inline unsigned int __pg_lane(void)
{
    return (__pg_idx.thread_idx.x + __pg_idx.block_dim.x * (__pg_idx.thread_idx.y + __pg_idx.block_dim.y * __pg_idx.thread_idx.z)) & 31u;
}
static inline unsigned int __lanemask_lt(void) { return (1u << __pg_lane()) - 1u; }
static inline unsigned int __lanemask_le(void) { return (2u << __pg_lane()) - 1u; }
static inline unsigned int __lanemask_gt(void) { return ~__lanemask_le(); }
static inline unsigned int __lanemask_ge(void) { return ~__lanemask_lt(); }

static inline void __threadfence(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_block(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __threadfence_system(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
static inline void __nanosleep(unsigned int) {}
static inline long long clock64(void)
{
#if defined(__x86_64__) || defined(__i386__)
    return (long long)__builtin_ia32_rdtsc();
#else
    return (long long)__builtin_readcyclecounter();
#endif
}

/* ------------------------------------------------------------------ atomics (relaxed, as CUDA's) */
template <class T> static inline T __pg_atomic_add(T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
template <class T, class B>
static inline T __pg_atomic_float(T *p, T v, T (*f)(T, T))
{
    B old = __atomic_load_n((B *)p, __ATOMIC_RELAXED), next;
    T o, n;
    do {
        memcpy(&o, &old, sizeof o);
        n = f(o, v);
        memcpy(&next, &n, sizeof n);
    } while (!__atomic_compare_exchange_n((B *)p, &old, next, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return o;
}
template <class T> static inline T __pg_sum(T a, T b) { return a + b; }
template <class T> static inline T __pg_fmin(T a, T b) { return b < a || a != a ? b : a; }
template <class T> static inline T __pg_fmax(T a, T b) { return b > a || a != a ? b : a; }
template <class T> static inline T __pg_second(T, T b) { return b; }

#define PG_ATOMIC_INT(T)                                                                           \
    static inline T atomicAdd(T *p, T v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }     \
    static inline T atomicSub(T *p, T v) { return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED); }     \
    static inline T atomicExch(T *p, T v) { return __atomic_exchange_n(p, v, __ATOMIC_RELAXED); }   \
    static inline T atomicAnd(T *p, T v) { return __atomic_fetch_and(p, v, __ATOMIC_RELAXED); }     \
    static inline T atomicOr(T *p, T v) { return __atomic_fetch_or(p, v, __ATOMIC_RELAXED); }       \
    static inline T atomicXor(T *p, T v) { return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED); }     \
    static inline T atomicMin(T *p, T v)                                                           \
    {                                                                                              \
        T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                              \
        while (v < old && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
            ;                                                                                      \
        return old;                                                                                \
    }                                                                                              \
    static inline T atomicMax(T *p, T v)                                                           \
    {                                                                                              \
        T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                              \
        while (v > old && !__atomic_compare_exchange_n(p, &old, v, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) \
            ;                                                                                      \
        return old;                                                                                \
    }                                                                                              \
    static inline T atomicCAS(T *p, T compare, T v)                                                \
    {                                                                                              \
        __atomic_compare_exchange_n(p, &compare, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);        \
        return compare;                                                                            \
    }
PG_ATOMIC_INT(int)
PG_ATOMIC_INT(unsigned int)
PG_ATOMIC_INT(long long)
PG_ATOMIC_INT(unsigned long long)
PG_ATOMIC_INT(long)
PG_ATOMIC_INT(unsigned long)
#undef PG_ATOMIC_INT
static inline unsigned short atomicCAS(unsigned short *p, unsigned short c, unsigned short v)
{
    __atomic_compare_exchange_n(p, &c, v, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
    return c;
}
static inline float atomicAdd(float *p, float v) { return __pg_atomic_float<float, uint32_t>(p, v, __pg_sum<float>); }
static inline double atomicAdd(double *p, double v) { return __pg_atomic_float<double, uint64_t>(p, v, __pg_sum<double>); }
static inline float atomicSub(float *p, float v) { return atomicAdd(p, -v); }
static inline double atomicSub(double *p, double v) { return atomicAdd(p, -v); }
static inline float atomicExch(float *p, float v) { return __pg_atomic_float<float, uint32_t>(p, v, __pg_second<float>); }
static inline double atomicExch(double *p, double v) { return __pg_atomic_float<double, uint64_t>(p, v, __pg_second<double>); }
static inline float atomicMin(float *p, float v) { return __pg_atomic_float<float, uint32_t>(p, v, __pg_fmin<float>); }
static inline double atomicMin(double *p, double v) { return __pg_atomic_float<double, uint64_t>(p, v, __pg_fmin<double>); }
static inline float atomicMax(float *p, float v) { return __pg_atomic_float<float, uint32_t>(p, v, __pg_fmax<float>); }
static inline double atomicMax(double *p, double v) { return __pg_atomic_float<double, uint64_t>(p, v, __pg_fmax<double>); }
static inline unsigned int atomicInc(unsigned int *p, unsigned int limit)
{
    unsigned int old = __atomic_load_n(p, __ATOMIC_RELAXED), next;
    do
        next = old >= limit ? 0 : old + 1;
    while (!__atomic_compare_exchange_n(p, &old, next, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}
static inline unsigned int atomicDec(unsigned int *p, unsigned int limit)
{
    unsigned int old = __atomic_load_n(p, __ATOMIC_RELAXED), next;
    do
        next = old == 0 || old > limit ? limit : old - 1;
    while (!__atomic_compare_exchange_n(p, &old, next, 1, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    return old;
}
#define PG_ATOMIC_SCOPES(name)                                                                     \
    template <class... A> static inline auto name##_block(A... a) { return name(a...); }           \
    template <class... A> static inline auto name##_system(A... a) { return name(a...); }
PG_ATOMIC_SCOPES(atomicAdd)
PG_ATOMIC_SCOPES(atomicSub)
PG_ATOMIC_SCOPES(atomicExch)
PG_ATOMIC_SCOPES(atomicMin)
PG_ATOMIC_SCOPES(atomicMax)
PG_ATOMIC_SCOPES(atomicInc)
PG_ATOMIC_SCOPES(atomicDec)
PG_ATOMIC_SCOPES(atomicCAS)
PG_ATOMIC_SCOPES(atomicAnd)
PG_ATOMIC_SCOPES(atomicOr)
PG_ATOMIC_SCOPES(atomicXor)
#undef PG_ATOMIC_SCOPES

/* ------------------------------------------------------------------ math
 * <math.h> (libstdc++'s) brings the float overloads of sin, exp, ... into the global namespace,
 * as CUDA has them. Below: CUDA's extras and intrinsics, with IEEE results (the fast
 * intrinsics are the accurate functions here). */
/* min and max: CUDA's overloads (crt/math_functions.hpp), no more: what is ambiguous there
 * (min(1.0f, 2), max(1LL, 2)) is ambiguous here */
#define PG_MINMAX_INT(R, A, B)                                                                     \
    static inline R min(A a, B b) { return (R)b < (R)a ? (R)b : (R)a; }                            \
    static inline R max(A a, B b) { return (R)b > (R)a ? (R)b : (R)a; }
PG_MINMAX_INT(int, int, int)
PG_MINMAX_INT(unsigned int, unsigned int, unsigned int)
PG_MINMAX_INT(unsigned int, int, unsigned int)
PG_MINMAX_INT(unsigned int, unsigned int, int)
PG_MINMAX_INT(long, long, long)
PG_MINMAX_INT(unsigned long, unsigned long, unsigned long)
PG_MINMAX_INT(unsigned long, long, unsigned long)
PG_MINMAX_INT(unsigned long, unsigned long, long)
PG_MINMAX_INT(long long, long long, long long)
PG_MINMAX_INT(unsigned long long, unsigned long long, unsigned long long)
PG_MINMAX_INT(unsigned long long, long long, unsigned long long)
PG_MINMAX_INT(unsigned long long, unsigned long long, long long)
#undef PG_MINMAX_INT
static inline float min(float a, float b) { return fminf(a, b); }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
static inline double min(float a, double b) { return fmin(a, b); }
static inline double max(float a, double b) { return fmax(a, b); }
static inline double min(double a, float b) { return fmin(a, b); }
static inline double max(double a, float b) { return fmax(a, b); }
/* named __pg_* behind macros: newer C libraries declare some of these (C23's rsqrt, sinpi) */
/* each CUDA function of a real argument takes float (a float result) or double, as CUDA's C++
 * overloads: an integer argument is ambiguous there, so it is here */
static inline float __pg_rsqrtf(float x) { return 1.0f / sqrtf(x); }
static inline double __pg_rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float __pg_rsqrt(float x) { return __pg_rsqrtf(x); }
static inline float __pg_rcbrtf(float x) { return 1.0f / cbrtf(x); }
static inline double __pg_rcbrt(double x) { return 1.0 / cbrt(x); }
static inline float __pg_rcbrt(float x) { return __pg_rcbrtf(x); }
static inline float __pg_exp10f(float x) { return powf(10.0f, x); }
static inline float __pg_sinpif(float x) { return sinf((float)M_PI * x); }
static inline float __pg_cospif(float x) { return cosf((float)M_PI * x); }
static inline double __pg_sinpi(double x) { return sin(M_PI * x); }
static inline double __pg_cospi(double x) { return cos(M_PI * x); }
static inline float __pg_sinpi(float x) { return __pg_sinpif(x); }
static inline float __pg_cospi(float x) { return __pg_cospif(x); }
/* the C library's exp10, Bessel functions of the first and second kind: double only there */
static inline float exp10(float x) { return __pg_exp10f(x); }
static inline float j0(float x) { return j0f(x); }
static inline float j1(float x) { return j1f(x); }
static inline float y0(float x) { return y0f(x); }
static inline float y1(float x) { return y1f(x); }
static inline float jn(int n, float x) { return jnf(n, x); }
static inline float yn(int n, float x) { return ynf(n, x); }
static inline void __pg_sincospif(float x, float *s, float *c) { *s = __pg_sinpif(x); *c = __pg_cospif(x); }
static inline void __pg_sincospi(double x, double *s, double *c) { *s = __pg_sinpi(x); *c = __pg_cospi(x); }
static inline float __pg_normcdff(float x) { return 0.5f * erfcf(-x * (float)M_SQRT1_2); }
static inline double __pg_normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
#define rsqrtf __pg_rsqrtf
#define rsqrt __pg_rsqrt
#define rcbrtf __pg_rcbrtf
#define rcbrt __pg_rcbrt
#define exp10f __pg_exp10f
#define sinpif __pg_sinpif
#define cospif __pg_cospif
#define sinpi __pg_sinpi
#define cospi __pg_cospi
#define sincospif __pg_sincospif
#define sincospi __pg_sincospi
#define normcdff __pg_normcdff
#define normcdf __pg_normcdf
/* The rest of CUDA's math API (erfinv, erfcx, normcdfinv, cyl_bessel_i0, norm3d, ...): computed
 * in double, the float forms rounded from it; each name of one argument takes float (a float
 * result) or double, as CUDA's C++ overloads (an integer is ambiguous); rhypot, norm3d, rnorm3d,
 * norm4d and rnorm4d take doubles only (CUDA has no float overloads of those: the ...f names). */
static const double __pg_2_sqrtpi = 1.1283791670955126; /* 2 / sqrt(pi) */
/* exp(x*x) * erfc(x): x*x split into its rounded value and error (fma) so that exp loses nothing;
 * past x = 25 (where erfc nears underflow) the asymptotic series */
static inline double __pg_erfcx(double x)
{
    if (x != x)
        return x;
    if (x < -26.7)
        return INFINITY; /* 2 exp(x^2) - erfcx(-x) overflows */
    if (x < 25.0) {
        double h = x * x, l = fma(x, x, -h);
        return exp(h) * (1.0 + l) * erfc(x);
    }
    if (x == INFINITY)
        return 0.0;
    double r = 1.0 / (2.0 * x * x), t = 1.0, s = 1.0;
    for (int k = 1; k < 12; k++) {
        t *= -(2.0 * k - 1.0) * r;
        s += t;
    }
    return s / (x * 1.7724538509055160); /* sqrt(pi) */
}
/* x with erfc(x) = z, z in (0, 1]: Giles' single-precision approximation of erfinv(1 - z)
 * ("Approximating the erfinv function", GPU Computing Gems), then Newton steps on
 * log(erfc(x)) - log(z), which stays well-behaved far into the tail */
static inline double __pg_erfcinv_tail(double z)
{
    double w = -log(z * (2.0 - z)), p;
    if (w < 5.0) {
        w -= 2.5;
        p = 2.81022636e-08;
        p = 3.43273939e-07 + p * w; p = -3.5233877e-06 + p * w; p = -4.39150654e-06 + p * w;
        p = 0.00021858087 + p * w; p = -0.00125372503 + p * w; p = -0.00417768164 + p * w;
        p = 0.246640727 + p * w; p = 1.50140941 + p * w;
    } else if (w > 16.0) {
        /* past Giles' range (z < 1e-7): erfc(x) ~ exp(-x^2) / (x sqrt(pi)) */
        p = sqrt(-log(z) - 0.5 * log(-M_PI * log(z)));
    } else {
        w = sqrt(w) - 3.0;
        p = -0.000200214257;
        p = 0.000100950558 + p * w; p = 0.00134934322 + p * w; p = -0.00367342844 + p * w;
        p = 0.00573950773 + p * w; p = -0.0076224613 + p * w; p = 0.00943887047 + p * w;
        p = 1.00167406 + p * w; p = 2.83297682 + p * w;
    }
    double x = p * (1.0 - z), lz = log(z);
    for (int k = 0; k < 8; k++) {
        /* erfc(x) = erfcx(x) exp(-x^2): neither underflows, however small z is */
        double e = __pg_erfcx(x), dx = (log(e) - x * x - lz) * e / __pg_2_sqrtpi;
        x += dx;
        if (fabs(dx) <= 1e-17 * x)
            break;
    }
    return x;
}
static inline double __pg_erfinv(double y)
{
    double a = fabs(y);
    if (!(a <= 1.0))
        return NAN;
    if (a >= 0.5) /* 1 - a is exact here: solve erfc(x) = 1 - a, accurate as a nears 1 */
        return copysign(a == 1.0 ? INFINITY : __pg_erfcinv_tail(1.0 - a), y);
    double x = y * __pg_erfcinv_tail(1.0 - a) / (a == 0.0 ? 1.0 : a);
    for (int k = 0; k < 3; k++) /* Newton on erf(x) - y, which erf computes accurately near 0 */
        x -= (erf(x) - y) / (__pg_2_sqrtpi * exp(-x * x));
    return x;
}
static inline double __pg_erfcinv(double z)
{
    if (!(z >= 0.0 && z <= 2.0))
        return NAN;
    if (z == 0.0)
        return INFINITY;
    if (z == 2.0)
        return -INFINITY;
    if (z > 0.5 && z < 1.5)
        return __pg_erfinv(1.0 - z);   /* exact: 1 - z, and erfinv is accurate near 0 */
    return z <= 1.0 ? __pg_erfcinv_tail(z) : -__pg_erfcinv_tail(2.0 - z);  /* 2 - z exact for z > 1 */
}
/* I0 and I1: the power series (positive terms: no cancellation) to 30, the asymptotic series
 * past it, e^|x| taken in two halves so that the result overflows only when it must */
static inline double __pg_bessel_i(int nu, double x)
{
    double a = fabs(x), r;
    if (a != a)
        return x;
    if (a == INFINITY) /* CUDA: I0(+-inf) = +inf, I1(+-inf) = +-inf (the asymptotic form is inf * 0) */
        return nu ? x : INFINITY;
    if (a <= 30.0) {
        double q = a * a / 4.0, t = nu ? a / 2.0 : 1.0;
        r = t;
        for (int k = 1; k < 200 && t > r * 1e-18; k++) {
            t *= q / ((double)k * (k + nu));
            r += t;
        }
    } else {
        double mu = 4.0 * nu * nu, t = 1.0, s = 1.0;
        for (int k = 1; k < 30; k++) {
            double o = 2.0 * k - 1.0;
            t *= -(mu - o * o) / (8.0 * k * a);
            s += t;
        }
        double h = exp(a / 2.0);
        r = h * (s / sqrt(2.0 * M_PI * a)) * h;
    }
    return nu && x < 0 ? -r : r;
}
static inline double __pg_norm3d(double a, double b, double c)
{
    a = fabs(a), b = fabs(b), c = fabs(c);
    if (a == INFINITY || b == INFINITY || c == INFINITY)
        return INFINITY;
    double m = fmax(a, fmax(b, c));
    if (a != a || b != b || c != c)
        return NAN;
    if (m == 0.0)
        return 0.0;
    a /= m, b /= m, c /= m;
    return m * sqrt(a * a + b * b + c * c);
}
static inline double __pg_norm4d(double a, double b, double c, double d)
{
    a = fabs(a), b = fabs(b), c = fabs(c), d = fabs(d);
    if (a == INFINITY || b == INFINITY || c == INFINITY || d == INFINITY)
        return INFINITY;
    double m = fmax(fmax(a, b), fmax(c, d));
    if (a != a || b != b || c != c || d != d)
        return NAN;
    if (m == 0.0)
        return 0.0;
    a /= m, b /= m, c /= m, d /= m;
    return m * sqrt(a * a + b * b + c * c + d * d);
}
#define PG_MATH1(name, expr)                                                                       \
    static inline double name(double x) { return (expr); }                                         \
    static inline float name##f(float x) { return (float)(expr); }                                 \
    static inline float name(float x) { return name##f(x); }
PG_MATH1(erfinv, __pg_erfinv((double)x))
PG_MATH1(erfcinv, __pg_erfcinv((double)x))
PG_MATH1(erfcx, __pg_erfcx((double)x))
PG_MATH1(normcdfinv, -M_SQRT2 * __pg_erfcinv(2.0 * (double)x))
PG_MATH1(cyl_bessel_i0, __pg_bessel_i(0, (double)x))
PG_MATH1(cyl_bessel_i1, __pg_bessel_i(1, (double)x))
#undef PG_MATH1
static inline double rhypot(double x, double y) { return 1.0 / hypot(x, y); }
static inline float rhypotf(float x, float y) { return (float)(1.0 / hypot((double)x, (double)y)); }
static inline double norm3d(double a, double b, double c) { return __pg_norm3d(a, b, c); }
static inline double rnorm3d(double a, double b, double c) { return 1.0 / __pg_norm3d(a, b, c); }
static inline double norm4d(double a, double b, double c, double d) { return __pg_norm4d(a, b, c, d); }
static inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / __pg_norm4d(a, b, c, d); }
static inline float norm3df(float a, float b, float c) { return (float)__pg_norm3d(a, b, c); }
static inline float rnorm3df(float a, float b, float c) { return (float)(1.0 / __pg_norm3d(a, b, c)); }
static inline float norm4df(float a, float b, float c, float d) { return (float)__pg_norm4d(a, b, c, d); }
static inline float rnorm4df(float a, float b, float c, float d) { return (float)(1.0 / __pg_norm4d(a, b, c, d)); }
/* the float overloads CUDA's C++ has (cupyx's gausspulse calls sincos with T = float) */
static inline void sincos(float x, float *s, float *c) { sincosf(x, s, c); }
static inline void __pg_sincospi(float x, float *s, float *c) { __pg_sincospif(x, s, c); }
static inline float __pg_normcdf(float x) { return __pg_normcdff(x); }
/* the C++ library's <math.h> adds templates for integer arguments (sin(1) is sin(1.0)) and mixed
 * ones (pow(1.0f, 2.0) a double); CUDA has none, and the same source must fail on either device:
 * a deleted template of the same form makes those calls ambiguous, as CUDA's overloads are */
template <class T> struct __pg_is_real { static const bool value = false; };
template <> struct __pg_is_real<float> { static const bool value = true; };
template <> struct __pg_is_real<double> { static const bool value = true; };
template <class A, class B> struct __pg_ambiguous2 {
    static const bool value = (std::is_integral<A>::value && std::is_integral<B>::value) ||
                              (__pg_is_real<A>::value && __pg_is_real<B>::value && !std::is_same<A, B>::value);
};
#define PG_NO_INT1(name)                                                                           \
    template <class A, typename std::enable_if<std::is_integral<A>::value, int>::type = 0> void name(A) = delete;
#define PG_NO_INT2(name)                                                                           \
    template <class A, class B, typename std::enable_if<__pg_ambiguous2<A, B>::value, int>::type = 0> \
    void name(A, B) = delete;
PG_NO_INT1(acos) PG_NO_INT1(acosh) PG_NO_INT1(asin) PG_NO_INT1(asinh) PG_NO_INT1(atan) PG_NO_INT1(atanh)
PG_NO_INT1(cbrt) PG_NO_INT1(ceil) PG_NO_INT1(cos) PG_NO_INT1(cosh) PG_NO_INT1(erf) PG_NO_INT1(erfc)
PG_NO_INT1(exp) PG_NO_INT1(exp2) PG_NO_INT1(expm1) PG_NO_INT1(fabs) PG_NO_INT1(floor) PG_NO_INT1(ilogb)
PG_NO_INT1(isfinite) PG_NO_INT1(isinf) PG_NO_INT1(isnan) PG_NO_INT1(isnormal) PG_NO_INT1(signbit)
PG_NO_INT1(fpclassify) PG_NO_INT1(lgamma) PG_NO_INT1(llrint) PG_NO_INT1(llround) PG_NO_INT1(log)
PG_NO_INT1(log10) PG_NO_INT1(log1p) PG_NO_INT1(log2) PG_NO_INT1(logb) PG_NO_INT1(lrint) PG_NO_INT1(lround)
PG_NO_INT1(nearbyint) PG_NO_INT1(rint) PG_NO_INT1(round) PG_NO_INT1(sin) PG_NO_INT1(sinh) PG_NO_INT1(sqrt)
PG_NO_INT1(tan) PG_NO_INT1(tanh) PG_NO_INT1(tgamma) PG_NO_INT1(trunc)
PG_NO_INT2(atan2) PG_NO_INT2(copysign) PG_NO_INT2(fdim) PG_NO_INT2(fmax) PG_NO_INT2(fmin) PG_NO_INT2(fmod)
PG_NO_INT2(hypot) PG_NO_INT2(nextafter) PG_NO_INT2(pow) PG_NO_INT2(remainder)
/* float with an integer: CUDA's float overload (the C++ library's template would compute in double) */
#define PG_FLOAT_INT2(name)                                                                        \
    template <class B, typename std::enable_if<std::is_integral<B>::value, int>::type = 0>         \
    static inline float name(float a, B b) { return name(a, (float)b); }                           \
    template <class A, typename std::enable_if<std::is_integral<A>::value, int>::type = 0>         \
    static inline float name(A a, float b) { return name((float)a, b); }
PG_FLOAT_INT2(atan2) PG_FLOAT_INT2(fdim) PG_FLOAT_INT2(fmax) PG_FLOAT_INT2(fmin) PG_FLOAT_INT2(fmod)
PG_FLOAT_INT2(hypot) PG_FLOAT_INT2(nextafter) PG_FLOAT_INT2(pow) PG_FLOAT_INT2(remainder)
#undef PG_FLOAT_INT2
/* copysign(1.0f, 2) does not compile with NVRTC */
template <class B, typename std::enable_if<std::is_integral<B>::value, int>::type = 0> void copysign(float, B) = delete;
template <class A, typename std::enable_if<std::is_integral<A>::value, int>::type = 0> void copysign(A, float) = delete;
template <class A, typename std::enable_if<std::is_integral<A>::value, int>::type = 0> void ldexp(A, int) = delete;
template <class A, typename std::enable_if<std::is_integral<A>::value, int>::type = 0> void scalbn(A, int) = delete;
template <class A, typename std::enable_if<std::is_integral<A>::value, int>::type = 0> void scalbln(A, long) = delete;
template <class A, typename std::enable_if<std::is_integral<A>::value, int>::type = 0> void frexp(A, int *) = delete;
template <class A, class B, typename std::enable_if<__pg_ambiguous2<A, B>::value, int>::type = 0>
void remquo(A, B, int *) = delete;
template <class A, class B, class C,
          typename std::enable_if<(std::is_integral<A>::value && std::is_integral<B>::value && std::is_integral<C>::value) ||
                                      ((std::is_same<A, float>::value || std::is_same<B, float>::value || std::is_same<C, float>::value) &&
                                       (std::is_same<A, double>::value || std::is_same<B, double>::value || std::is_same<C, double>::value)),
                                  int>::type = 0>
void fma(A, B, C) = delete;
#undef PG_NO_INT1
#undef PG_NO_INT2
static inline float fdividef(float x, float y) { return x / y; }
static inline long long llmax(long long a, long long b) { return a > b ? a : b; }
static inline long long llmin(long long a, long long b) { return a < b ? a : b; }
static inline unsigned int umax(unsigned int a, unsigned int b) { return a > b ? a : b; }
static inline unsigned int umin(unsigned int a, unsigned int b) { return a < b ? a : b; }
static inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
static inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
/* a hint to the optimizer in CUDA; a no-op here (not GCC's assume attribute: CuPy's upfirdn
 * assumes what thread 0 does not satisfy, which would be undefined behaviour) */
#define __builtin_assume(...) ((void)0)
static inline float __saturatef(float x) { return x != x ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x; }
static inline float __pg__sinf(float x) { return sinf(x); }
static inline float __pg__cosf(float x) { return cosf(x); }
static inline float __pg__tanf(float x) { return tanf(x); }
static inline void __pg__sincosf(float x, float *s, float *c) { *s = sinf(x); *c = cosf(x); }
static inline float __pg__expf(float x) { return expf(x); }
static inline float __pg__exp10f(float x) { return __pg_exp10f(x); }
static inline float __pg__logf(float x) { return logf(x); }
static inline float __pg__log2f(float x) { return log2f(x); }
static inline float __pg__log10f(float x) { return log10f(x); }
static inline float __pg__powf(float x, float y) { return powf(x, y); }
/* glibc declares these internal names itself */
#define __sinf __pg__sinf
#define __cosf __pg__cosf
#define __tanf __pg__tanf
#define __sincosf __pg__sincosf
#define __expf __pg__expf
#define __exp10f __pg__exp10f
#define __logf __pg__logf
#define __log2f __pg__log2f
#define __log10f __pg__log10f
#define __powf __pg__powf
static inline float __fdividef(float x, float y) { return x / y; }
static inline float __frcp_rn(float x) { return 1.0f / x; }
static inline float __fsqrt_rn(float x) { return sqrtf(x); }
static inline float __fadd_rn(float x, float y) { return x + y; }
static inline float __fsub_rn(float x, float y) { return x - y; }
static inline float __fmul_rn(float x, float y) { return x * y; }
static inline float __fdiv_rn(float x, float y) { return x / y; }
static inline float __fmaf_rn(float x, float y, float z) { return fmaf(x, y, z); }
static inline double __dadd_rn(double x, double y) { return x + y; }
static inline double __dsub_rn(double x, double y) { return x - y; }
static inline double __dmul_rn(double x, double y) { return x * y; }
static inline double __ddiv_rn(double x, double y) { return x / y; }
static inline double __fma_rn(double x, double y, double z) { return fma(x, y, z); }
static inline double __drcp_rn(double x) { return 1.0 / x; }
static inline double __dsqrt_rn(double x) { return sqrt(x); }

/* conversions: rn rounds to nearest even, rz toward zero, ru up, rd down */
#define PG_CVT(name, From, To, expr) static inline To name(From x) { return (To)(expr); }
#define PG_CVT_ALL(prefix, From, To)                                                              \
    PG_CVT(prefix##_rn, From, To, rint(x)) PG_CVT(prefix##_rz, From, To, trunc(x))                 \
    PG_CVT(prefix##_ru, From, To, ceil(x)) PG_CVT(prefix##_rd, From, To, floor(x))
PG_CVT_ALL(__float2int, float, int)
PG_CVT_ALL(__float2uint, float, unsigned int)
PG_CVT_ALL(__float2ll, float, long long)
PG_CVT_ALL(__float2ull, float, unsigned long long)
PG_CVT_ALL(__double2int, double, int)
PG_CVT_ALL(__double2uint, double, unsigned int)
PG_CVT_ALL(__double2ll, double, long long)
PG_CVT_ALL(__double2ull, double, unsigned long long)
PG_CVT(__double2float_rn, double, float, x)
PG_CVT(__int2float_rn, int, float, x)
PG_CVT(__uint2float_rn, unsigned int, float, x)
PG_CVT(__ll2float_rn, long long, float, x)
PG_CVT(__ull2float_rn, unsigned long long, float, x)
PG_CVT(__int2double_rn, int, double, x)
PG_CVT(__uint2double_rn, unsigned int, double, x)
PG_CVT(__ll2double_rn, long long, double, x)
PG_CVT(__ull2double_rn, unsigned long long, double, x)
#undef PG_CVT_ALL
#undef PG_CVT
template <class To, class From> static inline To __pg_bits(From x) { To r; memcpy(&r, &x, sizeof r); return r; }
static inline int __float_as_int(float x) { return __pg_bits<int>(x); }
static inline unsigned int __float_as_uint(float x) { return __pg_bits<unsigned int>(x); }
static inline float __int_as_float(int x) { return __pg_bits<float>(x); }
static inline float __uint_as_float(unsigned int x) { return __pg_bits<float>(x); }
static inline long long __double_as_longlong(double x) { return __pg_bits<long long>(x); }
static inline double __longlong_as_double(long long x) { return __pg_bits<double>(x); }
static inline int __double2hiint(double x) { return (int)(__pg_bits<unsigned long long>(x) >> 32); }
static inline int __double2loint(double x) { return (int)__pg_bits<unsigned long long>(x); }
static inline double __hiloint2double(int hi, int lo)
{
    return __pg_bits<double>(((unsigned long long)(unsigned int)hi << 32) | (unsigned int)lo);
}

/* integer intrinsics */
static inline int __popc(unsigned int x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
static inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz((unsigned int)x); }
static inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll((unsigned long long)x); }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline unsigned int __brev(unsigned int x)
{
    unsigned int r = 0;
    for (int i = 0; i < 32; i++, x >>= 1)
        r = (r << 1) | (x & 1u);
    return r;
}
static inline unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned int)x) << 32) | __brev((unsigned int)(x >> 32));
}
static inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s)
{
    unsigned long long v = ((unsigned long long)y << 32) | x;
    unsigned int r = 0;
    for (int i = 0; i < 4; i++)
        r |= (unsigned int)((v >> (8 * ((s >> (4 * i)) & 7u))) & 0xffu) << (8 * i);
    return r;
}
static inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
static inline unsigned int __umulhi(unsigned int x, unsigned int y) { return (unsigned int)(((unsigned long long)x * y) >> 32); }
static inline long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y)
{
    return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
static inline int __mul24(int x, int y) { return (int)(((long long)(x << 8 >> 8) * (y << 8 >> 8))); }
static inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
static inline int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
static inline int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
static inline unsigned int __uhadd(unsigned int x, unsigned int y) { return (unsigned int)(((unsigned long long)x + y) >> 1); }
static inline unsigned int __urhadd(unsigned int x, unsigned int y) { return (unsigned int)(((unsigned long long)x + y + 1) >> 1); }
static inline unsigned int __sad(int x, int y, unsigned int z) { return z + (unsigned int)(x > y ? x - y : y - x); }
static inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return z + (x > y ? x - y : y - x); }
static inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int s)
{
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned int)((v << (s & 31u)) >> 32);
}
static inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int s)
{
    unsigned long long v = ((unsigned long long)hi << 32) | lo;
    return (unsigned int)(v >> (s & 31u));
}

/* loads and stores with cache hints are plain accesses */
template <class T> static inline T __ldg(const T *p) { return *p; }
template <class T> static inline T __ldca(const T *p) { return *p; }
template <class T> static inline T __ldcg(const T *p) { return *p; }
template <class T> static inline T __ldcs(const T *p) { return *p; }
template <class T> static inline T __ldlu(const T *p) { return *p; }
template <class T> static inline T __ldcv(const T *p) { return *p; }
template <class T> static inline void __stwb(T *p, T v) { *p = v; }
template <class T> static inline void __stcg(T *p, T v) { *p = v; }
template <class T> static inline void __stcs(T *p, T v) { *p = v; }
template <class T> static inline void __stwt(T *p, T v) { *p = v; }

/* ------------------------------------------------------------------ exporting kernels
 * PG_CPU_EXPORT(i, expr) describes kernel `expr` (a function or a template instance) as entry i of
 * the module; PG_CPU_MODULE(n, barriers) then exports the table. The parameter descriptions
 * come from the C++ types themselves, so they are exact whatever the source's macros did. */
namespace { /* internal to the module: another module's instances of these are not the same */
template <class T> struct __pg_scalar { enum { kind = PG_CPU_PARAM_OTHER, type = -1 }; };
#define PG_SCALAR(T, K, P) template <> struct __pg_scalar<T> { enum { kind = K, type = P }; };
PG_SCALAR(bool, PG_CPU_PARAM_BOOL, PG_BOOL)
PG_SCALAR(char, CHAR_MIN < 0 ? PG_CPU_PARAM_INT : PG_CPU_PARAM_UINT, CHAR_MIN < 0 ? PG_INT8 : PG_UINT8)
PG_SCALAR(signed char, PG_CPU_PARAM_INT, PG_INT8)
PG_SCALAR(unsigned char, PG_CPU_PARAM_UINT, PG_UINT8)
PG_SCALAR(short, PG_CPU_PARAM_INT, PG_INT16)
PG_SCALAR(unsigned short, PG_CPU_PARAM_UINT, PG_UINT16)
PG_SCALAR(int, PG_CPU_PARAM_INT, PG_INT32)
PG_SCALAR(unsigned int, PG_CPU_PARAM_UINT, PG_UINT32)
PG_SCALAR(long, PG_CPU_PARAM_INT, sizeof(long) == 8 ? PG_INT64 : PG_INT32)
PG_SCALAR(unsigned long, PG_CPU_PARAM_UINT, sizeof(long) == 8 ? PG_UINT64 : PG_UINT32)
PG_SCALAR(long long, PG_CPU_PARAM_INT, PG_INT64)
PG_SCALAR(unsigned long long, PG_CPU_PARAM_UINT, PG_UINT64)
PG_SCALAR(float, PG_CPU_PARAM_FLOAT, PG_FLOAT32)
PG_SCALAR(double, PG_CPU_PARAM_FLOAT, PG_FLOAT64)
#undef PG_SCALAR
template <class T> struct __pg_unqual { typedef T type; };
template <class T> struct __pg_unqual<const T> { typedef T type; };
template <class T> struct __pg_unqual<volatile T> { typedef T type; };
template <class T> struct __pg_unqual<const volatile T> { typedef T type; };
template <class T> struct __pg_param_of {
    static constexpr PgCpuParam value = {sizeof(T), alignof(T), __pg_scalar<T>::kind, __pg_scalar<T>::type};
};
template <class T> struct __pg_param_of<T *> {
    static constexpr PgCpuParam value = {sizeof(T *), alignof(T *), PG_CPU_PARAM_POINTER,
                                         __pg_scalar<typename __pg_unqual<T>::type>::type};
};
template <class T> struct __pg_param_of<T *const> : __pg_param_of<T *> {};
template <class T> struct __pg_param_of<T *__restrict> : __pg_param_of<T *> {};
template <class T> struct __pg_param_of<T *const __restrict> : __pg_param_of<T *> {};

template <unsigned long... I> struct __pg_indices {};
template <unsigned long N, unsigned long... I> struct __pg_make_indices : __pg_make_indices<N - 1, N - 1, I...> {};
template <unsigned long... I> struct __pg_make_indices<0, I...> { typedef __pg_indices<I...> type; };

template <class T> static inline T __pg_arg(void *p) { T v; memcpy((void *)&v, p, sizeof v); return v; }

/* The threads of blocks [begin, end) as a loop, the kernel inlined into it: call(idx) runs one.
 * Without barriers any order of a block's threads (and of the blocks) is one CUDA allows, so the
 * loop walks the dimension INNER (0: x, 1: y) innermost, blocks included: the one whose index
 * selects the fastest-varying memory, as PG_CPU_THREAD_ORDER says (cuda.jit's emitter finds it). */
template <int INNER, class Call>
static inline void __pg_block_loop(const PgCpuGrid *g, uint64_t begin, uint64_t end, PgCpuThread &idx, Call call)
{
    const unsigned int bx = g->block.x, by = g->block.y, bz = g->block.z, gx = g->grid.x, gy = g->grid.y;
    for (uint64_t b = begin; b < end; b++) {
        if (INNER == 1) {
            idx.block_idx.y = (unsigned int)(b % gy);
            idx.block_idx.x = (unsigned int)(b / gy % gx);
        } else {
            idx.block_idx.x = (unsigned int)(b % gx);
            idx.block_idx.y = (unsigned int)(b / gx % gy);
        }
        idx.block_idx.z = (unsigned int)(b / gx / gy);
        for (unsigned int z = 0; z < bz; z++) {
            idx.thread_idx.z = z;
            if (INNER == 1) {
                for (unsigned int x = 0; x < bx; x++)
                    for (unsigned int y = 0; y < by; y++) {
                        idx.thread_idx.x = x;
                        idx.thread_idx.y = y;
                        call(idx);
                    }
            } else {
                for (unsigned int y = 0; y < by; y++)
                    for (unsigned int x = 0; x < bx; x++) {
                        idx.thread_idx.x = x;
                        idx.thread_idx.y = y;
                        call(idx);
                    }
            }
        }
    }
}

/* The dimension a kernel's loop walks innermost: x unless PG_CPU_THREAD_ORDER(kernel, d) said. */
template <class Sig, Sig F> struct __pg_thread_order { enum { inner = 0 }; };

template <class Sig, Sig F> struct __pg_thunk;

/* A kernel as the user wrote it: it reads its indices from the thread-local record. */
template <class... A, void (*F)(A...)> struct __pg_thunk<void (*)(A...), F> {
    static constexpr PgCpuParam params[sizeof...(A) + 1] = {__pg_param_of<A>::value..., {0, 0, 0, -1}};

    template <unsigned long... I> static inline void call(void **args, __pg_indices<I...>) { F(__pg_arg<A>(args[I])...); }
    static void run_thread(void **args) { call(args, typename __pg_make_indices<sizeof...(A)>::type()); }

    static void loop(const PgCpuGrid *g, uint64_t begin, uint64_t end, A... a)
    {
        __pg_block_loop<__pg_thread_order<void (*)(A...), F>::inner>(g, begin, end, __pg_idx,
                                                                 [&](PgCpuThread &) { F(a...); });
    }
    template <unsigned long... I>
    static inline void loop_args(const PgCpuGrid *g, void **args, uint64_t begin, uint64_t end, __pg_indices<I...>)
    {
        loop(g, begin, end, __pg_arg<A>(args[I])...);
    }
    static void run_blocks(const PgCpuGrid *g, void **args, uint64_t begin, uint64_t end)
    {
        loop_args(g, args, begin, end, typename __pg_make_indices<sizeof...(A)>::type());
    }
};

/* A kernel pygpu rewrote to take its indices as its first parameter. */
template <class... A, void (*F)(const PgCpuThread &, A...)> struct __pg_thunk<void (*)(const PgCpuThread &, A...), F> {
    static constexpr PgCpuParam params[sizeof...(A) + 1] = {__pg_param_of<A>::value..., {0, 0, 0, -1}};

    template <unsigned long... I> static inline void call(void **args, __pg_indices<I...>)
    {
        F(__pg_idx, __pg_arg<A>(args[I])...);
    }
    static void run_thread(void **args) { call(args, typename __pg_make_indices<sizeof...(A)>::type()); }

    static void loop(const PgCpuGrid *g, uint64_t begin, uint64_t end, A... a)
    {
        PgCpuThread idx = __pg_idx;
        __pg_block_loop<__pg_thread_order<void (*)(const PgCpuThread &, A...), F>::inner>(
            g, begin, end, idx, [&](PgCpuThread &i) {
            if (PG_TLS_INDICES)
                __pg_idx = i;
            F(i, a...);
        });
    }
    template <unsigned long... I>
    static inline void loop_args(const PgCpuGrid *g, void **args, uint64_t begin, uint64_t end, __pg_indices<I...>)
    {
        loop(g, begin, end, __pg_arg<A>(args[I])...);
    }
    static void run_blocks(const PgCpuGrid *g, void **args, uint64_t begin, uint64_t end)
    {
        loop_args(g, args, begin, end, typename __pg_make_indices<sizeof...(A)>::type());
    }
};

} /* namespace */

/* after kernel fn's definition: its blocks' loop walks dimension d (0: x, 1: y) innermost */
#define PG_CPU_THREAD_ORDER(fn, d)                                                                \
    namespace {                                                                                   \
    template <> struct __pg_thread_order<decltype(&fn), &fn> { enum { inner = d }; };               \
    }
#define PG_CPU_EXPORT(i, ...) typedef __pg_thunk<decltype(&__VA_ARGS__), &__VA_ARGS__> __pg_kernel_##i;
#define PG_CPU_KERNEL(i, text)                                                                    \
    {text, (int32_t)(sizeof __pg_kernel_##i::params / sizeof(PgCpuParam)) - 1, __pg_kernel_##i::params, \
     __pg_kernel_##i::run_blocks, __pg_kernel_##i::run_thread},
static PgCpuThread *__pg_thread_state(void) { return &__pg_idx; }
static void __pg_set_runtime(const PgCpuRuntime *r)
{
    __pg_runtime = r;
    __pg_stop = r->stop;
}
#define PG_CPU_MODULE(barriers, ...)                                                              \
    static const PgCpuKernel __pg_kernels[] = {__VA_ARGS__};                                        \
    extern "C" __attribute__((visibility("default"))) const PgCpuModule pg_cpu_module = {         \
        PG_CPU_ABI_VERSION, barriers, (int32_t)(sizeof __pg_kernels / sizeof __pg_kernels[0]), __pg_kernels, \
        __pg_thread_state, __pg_set_runtime};

/* ------------------------------------------------------------------ Ctrl-C
 * Every loop of the code below (the user's kernels, and what cuda.jit emits) polls the launch's
 * stop flag once per iteration, so that a kernel spinning forever on the CPU ends at Ctrl-C (the
 * launch raises KeyboardInterrupt) instead of holding the interpreter: a load and a branch never
 * taken. `while` and `do ... while` get it in their condition, `for` at the top of its body. */
[[noreturn]] static void __pg_interrupted(void) { __pg_runtime->trap(PG_TRAP_INTERRUPT, "interrupted"); __builtin_unreachable(); }
static inline bool __pg_going(void) { if (__builtin_expect(__atomic_load_n(__pg_stop, __ATOMIC_RELAXED) != 0, 0)) __pg_interrupted(); return true; }
#define while(...) while ((__VA_ARGS__) && __pg_going())
#define for(...) for (__VA_ARGS__) if (!__pg_going()) {} else

#endif
