/* The prelude of the CUDA C that cuda.jit emits (pygpu/_compiler/cemit.py): compiled by NVRTC for
 * a GPU, and for the CPU by the host C++ compiler after kernels/cuda_cpu.h. The extension embeds
 * its text at build time (with the kernels/ headers it includes), so emitted kernels always
 * match the op table and the helpers the rest of pygpu computes with.
 *
 * It gives the emitted code:
 *   - pg_math.h: the op table's scalar helpers, so every Python operator computes exactly what
 *     the ufunc's loop computes (the emitter defines the loops it uses from ops.def's text);
 *   - PgArr<T, N, C>: an array argument passed by value (jit/kernel.h's PG_PARAM_ARRAY), and
 *     pg_at(a, line, i, j, ...), its element at an index (negative indices wrap as in Python),
 *     with the layout the kernel was specialised for (C: C-contiguous, else byte strides), and
 *     pg_at_known / pg_at_in for indices the emitter proved non-negative or in range;
 *   - bounds checks when PG_JIT_CHECK is 1: on the CPU an out-of-range index ends the launch with
 *     IndexError (the trap of kernels/cpu_kernel_abi.h); on a GPU (debug=True) the first one is
 *     recorded in pg_jit_error, the access goes to a scratch slot, and the host raises IndexError
 *     after the launch;
 *   - Numba's atomics and intrinsics over CUDA's (atomics CUDA lacks for a type as CAS loops). */
#ifndef PG_JIT_PRELUDE_H
#define PG_JIT_PRELUDE_H

#include "rtc_types.h"

#ifdef PG_CUDA_CPU_H
/* cuda_cpu.h makes every loop after it poll the Ctrl-C flag; the prelude's own loops (over an
 * element's index dimensions, a record's bytes, an integer power's bits, an atomic's retries) are
 * short and bounded, and the poll in them (twice per access of a 2-d array) kept gcc from
 * vectorising a block's thread loop: they are compiled without it. The kernel's loops keep it. */
#pragma push_macro("for")
#pragma push_macro("while")
#undef for
#undef while
#endif
#include "pg_math.h"

#ifndef PG_JIT_CHECK
#define PG_JIT_CHECK 0
#endif
#ifndef PG_JIT_FILE
#define PG_JIT_FILE "kernel.py"
#endif
#ifdef PYGPU_CPU
#define PG_JIT_FN static inline __attribute__((always_inline))
#define PG_JIT_RECURSIVE_FN static /* a device function that calls itself cannot be inlined */
/* the kernel itself: inlined into the CPU's loop over a block's threads (the host compiler
 * judges a kernel with a bounds check's cold path not worth it, and then calls it per thread) */
#define PG_JIT_KERNEL inline __attribute__((always_inline))
#else
#define PG_JIT_FN static __device__ __forceinline__
#define PG_JIT_RECURSIVE_FN static __device__ __noinline__
#define PG_JIT_KERNEL
#endif

/* The bytes of dynamic shared memory the launch gave the block: the size of a dynamic shared
 * array (cuda.shared.array(0, ...)), as Numba reads it from %dynamic_smem_size. */
#ifdef PYGPU_CPU
#define pg_dynamic_shared_bytes() ((int64_t)__pg_idx.dynamic_shared_size)
#else
static __device__ __forceinline__ int64_t pg_dynamic_shared_bytes()
{
    unsigned int bytes;
    asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    return (int64_t)bytes;
}
#endif

/* raise in a kernel: on the CPU the launch raises the exception (its module, class and text ride
 * in the message); on a GPU the thread ends, and with debug=True (PG_JIT_CHECK) the first raise
 * of a launch is recorded (set, site) for the host to raise after it, as Numba does. */
#ifdef PYGPU_CPU
#define PG_JIT_RAISE(site, message) (__PG_NOTE_WHERE(), __pg_runtime->trap(PG_TRAP_RAISE, message))
#elif PG_JIT_CHECK
__device__ unsigned long long pg_jit_raised[2];
static __device__ __noinline__ void
pg_jit_raise(unsigned long long site)
{
    if (atomicCAS(&pg_jit_raised[0], 0ULL, 1ULL) == 0ULL)
        pg_jit_raised[1] = site;
    asm volatile("exit;");
}
#define PG_JIT_RAISE(site, message) pg_jit_raise(site)
#else
#define PG_JIT_RAISE(site, message) asm volatile("exit;")
#endif
/* a raise where an expression needs a value (a tuple indexed past its end): T's zero after it */
#ifdef PYGPU_CPU
#define PG_JIT_RAISE_VALUE(T, site, message) (PG_JIT_RAISE(site, message), T())
#else
template <class T> static __device__ __forceinline__ T
pg_jit_raise_value(unsigned long long site)
{
    (void)site;
    PG_JIT_RAISE(site, "");
    return T();
}
#define PG_JIT_RAISE_VALUE(T, site, message) pg_jit_raise_value<T>(site)
#endif

/* A tuple of numbers passed by value (jit/kernel.h's PG_PARAM_TUPLE). */
template <class T, int N> struct PgTup {
    T v[N];
};

/* ------------------------------------------------------------------ arrays */
template <class T, int N, bool C> struct PgArr {
    T *data;
    int64_t shape[N > 0 ? N : 1];
    int64_t strides[N > 0 ? N : 1]; /* bytes */
};

#if PG_JIT_CHECK
#ifdef PYGPU_CPU
__attribute__((noreturn, noinline, cold)) static void
pg_jit_oob(int64_t index, int64_t size, int axis, int line)
{
    char msg[256];
    snprintf(msg, sizeof msg, "index %lld is out of bounds for axis %d with size %lld (%s, line %d)",
             (long long)index, axis, (long long)size, PG_JIT_FILE, line);
    __pg_runtime->trap(PG_TRAP_INDEX, msg);
    __builtin_unreachable();
}
#define PG_JIT_SCRATCH(T) (*(T *)0)
#else
/* {set, index, size, axis + 256 * line} of the first out-of-range index of a launch */
__device__ unsigned long long pg_jit_error[4];
__device__ unsigned long long pg_jit_scratch[2];
static __device__ __noinline__ void
pg_jit_oob(int64_t index, int64_t size, int axis, int line)
{
    if (atomicCAS(&pg_jit_error[0], 0ULL, 1ULL) == 0ULL) {
        pg_jit_error[1] = (unsigned long long)index;
        pg_jit_error[2] = (unsigned long long)size;
        pg_jit_error[3] = (unsigned long long)axis + 256ULL * (unsigned long long)line;
    }
}
#define PG_JIT_SCRATCH(T) (*(T *)pg_jit_scratch)
#endif
#endif

/* index i of a dimension of size n, negative ones counted from the end (checked) */
PG_JIT_FN int64_t pg_index(int64_t i, int64_t n, int axis, int line)
{
    (void)axis;
    (void)line;
    int64_t j = i < 0 ? i + n : i;
#if PG_JIT_CHECK
    if ((uint64_t)j >= (uint64_t)n) {
        pg_jit_oob(i, n, axis, line);
        return 0;
    }
#endif
    return j;
}

/* a[i, j, ...] where the emitter (pygpu/_compiler/ranges.py) proved some indices non-negative or
 * inside their dimension: index d wraps as in Python only if bit d of WRAP is set, and is checked
 * (PG_JIT_CHECK) only if bit d of CHECK is set. */
template <unsigned WRAP, unsigned CHECK, class T, int N, bool C, class... I>
PG_JIT_FN T &pg_at_known(const PgArr<T, N, C> &a, int line, I... index)
{
    static_assert(sizeof...(I) == N, "an index per dimension");
    const int64_t ix[sizeof...(I) + 1] = {(int64_t)index..., 0};
    int64_t off = 0;
    (void)line;
#pragma unroll
    for (int d = 0; d < N; d++) {
        int64_t i = ix[d];
        if (((WRAP >> d) & 1u) && i < 0)
            i += a.shape[d];
#if PG_JIT_CHECK
        if (((CHECK >> d) & 1u) && (uint64_t)i >= (uint64_t)a.shape[d]) {
            pg_jit_oob(ix[d], a.shape[d], d, line);
            return PG_JIT_SCRATCH(T);
        }
#endif
        off = C ? off * a.shape[d] + i : off + i * a.strides[d];
    }
    return C ? a.data[off] : *(T *)((char *)a.data + off);
}

/* a[i, j, ...] with Python's negative indices, checked where PG_JIT_CHECK */
template <class T, int N, bool C, class... I>
PG_JIT_FN T &pg_at(const PgArr<T, N, C> &a, int line, I... index)
{
    return pg_at_known<~0u, ~0u>(a, line, index...);
}

/* a[i, j, ...] with every index proved inside its dimension */
template <class T, int N, bool C, class... I>
PG_JIT_FN T &pg_at_in(const PgArr<T, N, C> &a, int line, I... index)
{
    return pg_at_known<0u, 0u>(a, line, index...);
}

/* Python's slice a[start:stop:step] of a dimension of size n: the number of elements, and the
 * resolved start in *start (has_start/has_stop: whether they were given; step is not 0). */
PG_JIT_FN int64_t pg_slice_len(int64_t *start, int64_t stop, int64_t step, int64_t n, int has_start, int has_stop)
{
    int64_t s = *start, e = stop;
    if (step > 0) {
        s = !has_start ? 0 : s < 0 ? (s + n < 0 ? 0 : s + n) : (s > n ? n : s);
        e = !has_stop ? n : e < 0 ? (e + n < 0 ? 0 : e + n) : (e > n ? n : e);
        *start = s;
        return e > s ? (e - s + step - 1) / step : 0;
    }
    s = !has_start ? n - 1 : s < 0 ? (s + n < 0 ? -1 : s + n) : (s >= n ? n - 1 : s);
    e = !has_stop ? -1 : e < 0 ? (e + n < 0 ? -1 : e + n) : (e >= n ? n - 1 : e);
    *start = s;
    return s > e ? (s - e - step - 1) / (-step) : 0;
}

/* ------------------------------------------------------------------ records (structured dtypes)
 * A record is its bytes, aligned to the largest power of two dividing its size (up to 16); a field
 * whose offset that alignment allows is read and written in place, any other bytewise. */
template <int N, int A> struct pg_rec {
    alignas(A) unsigned char b[N];
};
template <class F> PG_JIT_FN F pg_field_get(const unsigned char *p)
{
    F v;
    for (unsigned k = 0; k < sizeof(F); k++)
        ((unsigned char *)&v)[k] = p[k];
    return v;
}
template <class F> PG_JIT_FN void pg_field_set(unsigned char *p, F v)
{
    for (unsigned k = 0; k < sizeof(F); k++)
        p[k] = ((const unsigned char *)&v)[k];
}

/* ------------------------------------------------------------------ atomics (Numba's) */
template <int S> struct pg_bits_t;
template <> struct pg_bits_t<4> { typedef unsigned int type; };
template <> struct pg_bits_t<8> { typedef unsigned long long type; };

template <class To, class From> PG_JIT_FN To pg_bitcast(From x)
{
    union {
        From f;
        To t;
    } u;
    u.f = x;
    return u.t;
}

/* *p = f(*p) atomically; the old value */
template <class T, class F> PG_JIT_FN T pg_atomic_update(T *p, F f)
{
    typedef typename pg_bits_t<sizeof(T)>::type B;
    B *q = (B *)p;
    B old = *(volatile B *)q, assumed;
    do {
        assumed = old;
        old = atomicCAS(q, assumed, pg_bitcast<B>(f(pg_bitcast<T>(assumed))));
    } while (old != assumed);
    return pg_bitcast<T>(old);
}

/* the 64-bit integers through CUDA's unsigned long long forms (two's complement) */
#define PG_ULL(p) ((unsigned long long *)(p))
PG_JIT_FN int32_t pg_atomic_add(int32_t *p, int32_t v) { return atomicAdd(p, v); }
PG_JIT_FN uint32_t pg_atomic_add(uint32_t *p, uint32_t v) { return atomicAdd(p, v); }
PG_JIT_FN int64_t pg_atomic_add(int64_t *p, int64_t v) { return (int64_t)atomicAdd(PG_ULL(p), (unsigned long long)v); }
PG_JIT_FN uint64_t pg_atomic_add(uint64_t *p, uint64_t v) { return (uint64_t)atomicAdd(PG_ULL(p), (unsigned long long)v); }
PG_JIT_FN float pg_atomic_add(float *p, float v) { return atomicAdd(p, v); }
PG_JIT_FN double pg_atomic_add(double *p, double v) { return atomicAdd(p, v); }
template <class T> PG_JIT_FN T pg_atomic_sub(T *p, T v) { return pg_atomic_add(p, (T)((T)0 - v)); }

#define PG_ATOMIC_INT_OP(name, cuda)                                                               \
    PG_JIT_FN int32_t name(int32_t *p, int32_t v) { return cuda(p, v); }                           \
    PG_JIT_FN uint32_t name(uint32_t *p, uint32_t v) { return cuda(p, v); }                        \
    PG_JIT_FN int64_t name(int64_t *p, int64_t v) { return (int64_t)cuda(PG_ULL(p), (unsigned long long)v); } \
    PG_JIT_FN uint64_t name(uint64_t *p, uint64_t v) { return (uint64_t)cuda(PG_ULL(p), (unsigned long long)v); }
PG_ATOMIC_INT_OP(pg_atomic_and, atomicAnd)
PG_ATOMIC_INT_OP(pg_atomic_or, atomicOr)
PG_ATOMIC_INT_OP(pg_atomic_xor, atomicXor)
#undef PG_ATOMIC_INT_OP

/* max and min: signed 64-bit through CUDA's long long forms; floats as CAS loops, Numba's: max
 * keeps a NaN already stored and ignores a NaN value (a comparison with NaN is false), nanmax
 * treats a NaN on either side as missing. Integers have no NaN: nanmax is max. */
PG_JIT_FN int32_t pg_atomic_max(int32_t *p, int32_t v) { return atomicMax(p, v); }
PG_JIT_FN uint32_t pg_atomic_max(uint32_t *p, uint32_t v) { return atomicMax(p, v); }
PG_JIT_FN int64_t pg_atomic_max(int64_t *p, int64_t v) { return (int64_t)atomicMax((long long *)p, (long long)v); }
PG_JIT_FN uint64_t pg_atomic_max(uint64_t *p, uint64_t v) { return (uint64_t)atomicMax(PG_ULL(p), (unsigned long long)v); }
PG_JIT_FN int32_t pg_atomic_min(int32_t *p, int32_t v) { return atomicMin(p, v); }
PG_JIT_FN uint32_t pg_atomic_min(uint32_t *p, uint32_t v) { return atomicMin(p, v); }
PG_JIT_FN int64_t pg_atomic_min(int64_t *p, int64_t v) { return (int64_t)atomicMin((long long *)p, (long long)v); }
PG_JIT_FN uint64_t pg_atomic_min(uint64_t *p, uint64_t v) { return (uint64_t)atomicMin(PG_ULL(p), (unsigned long long)v); }
PG_JIT_FN float pg_atomic_max(float *p, float v) { return pg_atomic_update(p, [v](float o) { return v > o ? v : o; }); }
PG_JIT_FN double pg_atomic_max(double *p, double v) { return pg_atomic_update(p, [v](double o) { return v > o ? v : o; }); }
PG_JIT_FN float pg_atomic_min(float *p, float v) { return pg_atomic_update(p, [v](float o) { return v < o ? v : o; }); }
PG_JIT_FN double pg_atomic_min(double *p, double v) { return pg_atomic_update(p, [v](double o) { return v < o ? v : o; }); }
template <class T> PG_JIT_FN T pg_atomic_nanmax(T *p, T v) { return pg_atomic_max(p, v); }
template <class T> PG_JIT_FN T pg_atomic_nanmin(T *p, T v) { return pg_atomic_min(p, v); }
template <class T> PG_JIT_FN T pg_atomic_fnanmax(T *p, T v)
{
    return pg_atomic_update(p, [v](T o) { return (v > o || o != o) ? v : o; });
}
template <class T> PG_JIT_FN T pg_atomic_fnanmin(T *p, T v)
{
    return pg_atomic_update(p, [v](T o) { return (v < o || o != o) ? v : o; });
}
PG_JIT_FN float pg_atomic_nanmax(float *p, float v) { return pg_atomic_fnanmax(p, v); }
PG_JIT_FN double pg_atomic_nanmax(double *p, double v) { return pg_atomic_fnanmax(p, v); }
PG_JIT_FN float pg_atomic_nanmin(float *p, float v) { return pg_atomic_fnanmin(p, v); }
PG_JIT_FN double pg_atomic_nanmin(double *p, double v) { return pg_atomic_fnanmin(p, v); }

template <class T> PG_JIT_FN T pg_atomic_exch(T *p, T v)
{
    return pg_atomic_update(p, [v](T) { return v; });
}
/* inc: old >= limit ? 0 : old + 1; dec: old == 0 || old > limit ? limit : old - 1 */
template <class T> PG_JIT_FN T pg_atomic_inc(T *p, T limit)
{
    return pg_atomic_update(p, [limit](T o) { return o >= limit ? (T)0 : (T)(o + 1); });
}
template <class T> PG_JIT_FN T pg_atomic_dec(T *p, T limit)
{
    return pg_atomic_update(p, [limit](T o) { return (o == 0 || o > limit) ? limit : (T)(o - 1); });
}
template <class T> PG_JIT_FN T pg_atomic_cas(T *p, T compare, T v)
{
    typedef typename pg_bits_t<sizeof(T)>::type B;
    return pg_bitcast<T>(atomicCAS((B *)p, pg_bitcast<B>(compare), pg_bitcast<B>(v)));
}

/* float16 elements (pg_half: the bits): a CAS loop on the 16-bit word (CUDA's 16-bit atomicCAS,
 * sm_70 on), the operation done in float and rounded to float16, which rounds as half arithmetic
 * does (float carries more than twice half's digits); the old value, as a float */
template <class F> PG_JIT_FN float pg_atomic_update_half(pg_half *p, F f)
{
    unsigned short *q = (unsigned short *)p;
    unsigned short old = *(volatile unsigned short *)q, assumed;
    do {
        assumed = old;
        old = atomicCAS(q, assumed, (unsigned short)pg_float_to_half(f(pg_half_to_float((pg_half)assumed))));
    } while (old != assumed);
    return pg_half_to_float((pg_half)old);
}
PG_JIT_FN float pg_atomic_add_half(pg_half *p, float v) { return pg_atomic_update_half(p, [v](float o) { return o + v; }); }
PG_JIT_FN float pg_atomic_sub_half(pg_half *p, float v) { return pg_atomic_update_half(p, [v](float o) { return o - v; }); }
PG_JIT_FN float pg_atomic_max_half(pg_half *p, float v) { return pg_atomic_update_half(p, [v](float o) { return v > o ? v : o; }); }
PG_JIT_FN float pg_atomic_min_half(pg_half *p, float v) { return pg_atomic_update_half(p, [v](float o) { return v < o ? v : o; }); }
PG_JIT_FN float pg_atomic_nanmax_half(pg_half *p, float v)
{
    return pg_atomic_update_half(p, [v](float o) { return (v > o || o != o) ? v : o; });
}
PG_JIT_FN float pg_atomic_nanmin_half(pg_half *p, float v)
{
    return pg_atomic_update_half(p, [v](float o) { return (v < o || o != o) ? v : o; });
}
PG_JIT_FN float pg_atomic_exch_half(pg_half *p, float v) { return pg_atomic_update_half(p, [v](float) { return v; }); }
#undef PG_ULL

#ifdef PG_CUDA_CPU_H
#pragma pop_macro("while")
#pragma pop_macro("for")
#endif

#endif
