/* The C library as far as pygpu's device code uses it, for NVRTC, which has none. The release
 * build compiles the kernel modules with NVRTC (build_cuda.py, PYGPU_CUDA_TOOLCHAIN=nvrtc12) with
 * this folder first on the include path, so that <stdint.h> and the like resolve to the small
 * files here: each takes what CCCL's libcu++ defines for NVRTC (<cuda/std/cstdint>, ...) and
 * this file for the rest. Device math functions, memcpy, memset, printf, assert, size_t and
 * ptrdiff_t are NVRTC built-ins. */
#ifndef PG_RTC_LIBC_H
#define PG_RTC_LIBC_H
#ifndef __CUDACC_RTC__
#error "rtc_libc/ is for NVRTC only: other compilers have their C library"
#endif

/* as libcu++'s <cuda/std/cmath> defines them when a CUB header brought it in */
#ifndef NAN
#define NAN __int_as_float(0x7fc00000)
#endif
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef SIZE_MAX
#define SIZE_MAX 18446744073709551615ULL
#endif
#endif
