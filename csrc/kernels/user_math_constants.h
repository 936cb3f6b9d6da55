/* <cupy/math_constants.h> for the kernels of pygpu's users, on both compilers: CUDA's
 * math_constants.h names (CUDART_PI, CUDART_INF_F, ...), which CuPy's own kernels include under
 * this name. Each is defined unless already (the toolkit's header may come first). */
#ifndef PG_USER_MATH_CONSTANTS_H
#define PG_USER_MATH_CONSTANTS_H

#ifndef CUDART_INF_F
#define CUDART_INF_F __int_as_float(0x7f800000)
#endif
#ifndef CUDART_NAN_F
#define CUDART_NAN_F __int_as_float(0x7fffffff)
#endif
#ifndef CUDART_MIN_DENORM_F
#define CUDART_MIN_DENORM_F __int_as_float(0x00000001)
#endif
#ifndef CUDART_MAX_NORMAL_F
#define CUDART_MAX_NORMAL_F __int_as_float(0x7f7fffff)
#endif
#ifndef CUDART_NEG_ZERO_F
#define CUDART_NEG_ZERO_F __int_as_float(0x80000000)
#endif
#ifndef CUDART_ZERO_F
#define CUDART_ZERO_F 0.0f
#endif
#ifndef CUDART_ONE_F
#define CUDART_ONE_F 1.0f
#endif
#ifndef CUDART_INF
#define CUDART_INF __longlong_as_double(0x7ff0000000000000LL)
#endif
#ifndef CUDART_NAN
#define CUDART_NAN __longlong_as_double(0xfff8000000000000LL)
#endif
#ifndef CUDART_NEG_ZERO
#define CUDART_NEG_ZERO __longlong_as_double(0x8000000000000000LL)
#endif
#ifndef CUDART_MIN_DENORM
#define CUDART_MIN_DENORM __longlong_as_double(0x0000000000000001LL)
#endif
#ifndef CUDART_ZERO
#define CUDART_ZERO 0.0
#endif
#ifndef CUDART_ONE
#define CUDART_ONE 1.0
#endif
#ifndef CUDART_PI_F
#define CUDART_PI_F 3.141592654e+00f
#endif
#ifndef CUDART_PI
#define CUDART_PI 3.14159265358979312e+00
#endif
#ifndef CUDART_PIO2_F
#define CUDART_PIO2_F 1.570796327e+00f
#endif
#ifndef CUDART_PIO2
#define CUDART_PIO2 1.57079632679489656e+00
#endif
#ifndef CUDART_PIO4_F
#define CUDART_PIO4_F 7.853981634e-01f
#endif
#ifndef CUDART_PIO4
#define CUDART_PIO4 7.85398163397448279e-01
#endif
#ifndef CUDART_3PIO4_F
#define CUDART_3PIO4_F 2.356194490e+00f
#endif
#ifndef CUDART_3PIO4
#define CUDART_3PIO4 2.35619449019234484e+00
#endif
#ifndef CUDART_2PI_F
#define CUDART_2PI_F 6.283185307e+00f
#endif
#ifndef CUDART_2PI
#define CUDART_2PI 6.28318530717958623e+00
#endif
#ifndef CUDART_2_OVER_PI_F
#define CUDART_2_OVER_PI_F 6.366197724e-01f
#endif
#ifndef CUDART_2_OVER_PI
#define CUDART_2_OVER_PI 6.36619772367581382e-01
#endif
#ifndef CUDART_1_OVER_PI_F
#define CUDART_1_OVER_PI_F 3.183098862e-01f
#endif
#ifndef CUDART_1_OVER_PI
#define CUDART_1_OVER_PI 3.18309886183790691e-01
#endif
#ifndef CUDART_SQRT_2_F
#define CUDART_SQRT_2_F 1.414213562e+00f
#endif
#ifndef CUDART_SQRT_2
#define CUDART_SQRT_2 1.41421356237309515e+00
#endif
#ifndef CUDART_SQRT_TWO_F
#define CUDART_SQRT_TWO_F 1.414213562e+00f
#endif
#ifndef CUDART_SQRT_TWO
#define CUDART_SQRT_TWO 1.41421356237309515e+00
#endif
#ifndef CUDART_SQRT_HALF_F
#define CUDART_SQRT_HALF_F 7.071067812e-01f
#endif
#ifndef CUDART_SQRT_HALF
#define CUDART_SQRT_HALF 7.07106781186547573e-01
#endif
#ifndef CUDART_SQRT_PI_F
#define CUDART_SQRT_PI_F 1.772453851e+00f
#endif
#ifndef CUDART_SQRT_PI
#define CUDART_SQRT_PI 1.77245385090551588e+00
#endif
#ifndef CUDART_SQRT_2PI_F
#define CUDART_SQRT_2PI_F 2.506628275e+00f
#endif
#ifndef CUDART_SQRT_2PI
#define CUDART_SQRT_2PI 2.50662827463100024e+00
#endif
#ifndef CUDART_SQRT_2_OVER_PI_F
#define CUDART_SQRT_2_OVER_PI_F 7.978845608e-01f
#endif
#ifndef CUDART_SQRT_2_OVER_PI
#define CUDART_SQRT_2_OVER_PI 7.97884560802865406e-01
#endif
#ifndef CUDART_SQRT_PIO2_F
#define CUDART_SQRT_PIO2_F 1.253314137e+00f
#endif
#ifndef CUDART_SQRT_PIO2
#define CUDART_SQRT_PIO2 1.25331413731550012e+00
#endif
#ifndef CUDART_THIRD_F
#define CUDART_THIRD_F 3.333333333e-01f
#endif
#ifndef CUDART_THIRD
#define CUDART_THIRD 3.33333333333333315e-01
#endif
#ifndef CUDART_TWOTHIRD_F
#define CUDART_TWOTHIRD_F 6.666666667e-01f
#endif
#ifndef CUDART_TWOTHIRD
#define CUDART_TWOTHIRD 6.66666666666666630e-01
#endif
#ifndef CUDART_LN2_F
#define CUDART_LN2_F 6.931471806e-01f
#endif
#ifndef CUDART_LN2
#define CUDART_LN2 6.93147180559945286e-01
#endif
#ifndef CUDART_LNT_F
#define CUDART_LNT_F 2.302585093e+00f
#endif
#ifndef CUDART_LNT
#define CUDART_LNT 2.30258509299404590e+00
#endif
#ifndef CUDART_LNPI_F
#define CUDART_LNPI_F 1.144729886e+00f
#endif
#ifndef CUDART_LNPI
#define CUDART_LNPI 1.14472988584940016e+00
#endif
#ifndef CUDART_L2E_F
#define CUDART_L2E_F 1.442695041e+00f
#endif
#ifndef CUDART_L2E
#define CUDART_L2E 1.44269504088896339e+00
#endif
#ifndef CUDART_L2T_F
#define CUDART_L2T_F 3.321928095e+00f
#endif
#ifndef CUDART_L2T
#define CUDART_L2T 3.32192809488736218e+00
#endif
#ifndef CUDART_LG2_F
#define CUDART_LG2_F 3.010299957e-01f
#endif
#ifndef CUDART_LG2
#define CUDART_LG2 3.01029995663981198e-01
#endif
#ifndef CUDART_LGE_F
#define CUDART_LGE_F 4.342944819e-01f
#endif
#ifndef CUDART_LGE
#define CUDART_LGE 4.34294481903251817e-01
#endif
#endif
