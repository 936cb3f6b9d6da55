/* <cupy/cuComplex_bridge.h>: what RawKernel/RawModule(..., translate_cucomplex=True) put in place of
 * <cuComplex.h>, as CuPy does: cuComplex's names for thrust's complex<T> of <cupy/complex.cuh>, so
 * cuComplex code computes with pg_math.h's complex functions. Functions, where CuPy's are macros
 * (arguments group as written); each name takes either precision, as CuPy's macros do (cuCadd of
 * two cuComplex compiles). */
#ifndef PG_USER_CUCOMPLEX_BRIDGE_H
#define PG_USER_CUCOMPLEX_BRIDGE_H
#include "user_complex.h"

typedef complex<float> cuFloatComplex;
typedef complex<double> cuDoubleComplex;
typedef complex<float> cuComplex;

#define PG_CUCX template <typename T> static PG_CX_FN
/* cuComplex's names with and without the f of its float forms */
#define PG_CUCX_BOTH(name, f, RET, PARAMS, EXPR) \
    PG_CUCX RET name PARAMS { return EXPR; }    \
    PG_CUCX RET name##f PARAMS { return EXPR; }
PG_CUCX_BOTH(cuCreal, f, T, (const complex<T> &x), x.real())
PG_CUCX_BOTH(cuCimag, f, T, (const complex<T> &x), x.imag())
PG_CUCX_BOTH(cuConj, f, complex<T>, (const complex<T> &x), conj(x))
PG_CUCX_BOTH(cuCadd, f, complex<T>, (const complex<T> &x, const complex<T> &y), x + y)
PG_CUCX_BOTH(cuCsub, f, complex<T>, (const complex<T> &x, const complex<T> &y), x - y)
PG_CUCX_BOTH(cuCmul, f, complex<T>, (const complex<T> &x, const complex<T> &y), x * y)
PG_CUCX_BOTH(cuCdiv, f, complex<T>, (const complex<T> &x, const complex<T> &y), x / y)
PG_CUCX_BOTH(cuCabs, f, T, (const complex<T> &x), abs(x))
PG_CUCX_BOTH(cuCfma, f, complex<T>, (const complex<T> &x, const complex<T> &y, const complex<T> &d), x * y + d)
#undef PG_CUCX_BOTH
#undef PG_CUCX
static PG_CX_FN cuFloatComplex make_cuFloatComplex(float r, float i) { return cuFloatComplex(r, i); }
static PG_CX_FN cuComplex make_cuComplex(float r, float i) { return cuComplex(r, i); }
static PG_CX_FN cuDoubleComplex make_cuDoubleComplex(double r, double i) { return cuDoubleComplex(r, i); }
static PG_CX_FN cuDoubleComplex cuComplexFloatToDouble(const cuFloatComplex &x) { return cuDoubleComplex(x); }
static PG_CX_FN cuFloatComplex cuComplexDoubleToFloat(const cuDoubleComplex &x) { return cuFloatComplex(x); }

#endif
