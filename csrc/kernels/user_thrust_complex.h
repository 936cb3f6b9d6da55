/* <thrust/complex.h> for the kernels of pygpu's users, on both compilers: thrust::complex<T> is
 * CuPy's complex.cuh (its complex<T> lives in namespace thrust), so code written for thrust
 * compiles without the CCCL headers (a user's own -I to them comes first). */
#include "user_complex.h"
