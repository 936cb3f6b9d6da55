/* <cupy/atomics.cuh> for the kernels of pygpu's users, on both compilers: CuPy's atomicAdd for its
 * complex (each part atomically, as CuPy's) and float16 types (a compare-and-swap on the 32-bit
 * word that holds it). */
#ifndef PG_USER_ATOMICS_H
#define PG_USER_ATOMICS_H
#include "user_complex.h"
#include "user_float16.h"
__device__ inline complex<float> atomicAdd(complex<float> *address, complex<float> val)
{
    float *p = reinterpret_cast<float *>(address);
    float re = atomicAdd(p, val.real());
    float im = atomicAdd(p + 1, val.imag());
    return complex<float>(re, im);
}
__device__ inline complex<double> atomicAdd(complex<double> *address, complex<double> val)
{
    double *p = reinterpret_cast<double *>(address);
    double re = atomicAdd(p, val.real());
    double im = atomicAdd(p + 1, val.imag());
    return complex<double>(re, im);
}
__device__ inline float16 atomicAdd(float16 *address, float16 val)
{
    unsigned long long at = reinterpret_cast<unsigned long long>(address);
    unsigned int *word = reinterpret_cast<unsigned int *>(at & ~2ull);
    unsigned int shift = (at & 2ull) ? 16u : 0u;
    unsigned int old = *word, assumed;
    do {
        assumed = old;
        float16 sum = float16(float(float16::from_bits((unsigned short)(assumed >> shift))) + float(val));
        unsigned int next = (assumed & ~(0xffffu << shift)) | ((unsigned int)sum.as_bits() << shift);
        old = atomicCAS(word, assumed, next);
    } while (assumed != old);
    return float16::from_bits((unsigned short)(old >> shift));
}
#endif
