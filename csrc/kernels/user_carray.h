/* <cupy/carray.cuh> for the kernels of pygpu's users, on both compilers: what CuPy's header gives
 * a RawKernel that includes it out of habit (CuPy's complex and float16 types, the math constants,
 * M_PI, the grid-stride loop CUPY_FOR). CuPy's CArray and CIndexer are not here: they are what
 * CuPy's own launcher passes for its ndarrays, and pygpu passes arrays as plain pointers. */
#ifndef PG_USER_CARRAY_H
#define PG_USER_CARRAY_H
#include "user_complex.h"
#include "user_float16.h"
#include "user_math_constants.h"
#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif
#define CUPY_FOR(i, n)                                                                             \
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (long long)(n);         \
         i += (long long)blockDim.x * gridDim.x)
#endif
