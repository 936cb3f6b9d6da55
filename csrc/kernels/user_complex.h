/* <cupy/complex.cuh> for the kernels of pygpu's users (RawKernel, RawModule, ElementwiseKernel,
 * ReductionKernel), on a GPU (NVRTC) and on the CPU (the host C++ compiler): thrust's
 * complex<T> for float and double, as thrust::complex<T> and at global scope, with its operators
 * and functions (real imag abs arg norm conj proj polar exp log log10 sqrt pow sin cos tan sinh
 * cosh tanh asin acos atan asinh acosh atanh, and CuPy's isnan isinf isfinite log1p log2 expm1
 * rint min max), in namespace thrust and at global scope, as CuPy's header has them. The arithmetic and the functions are pg_math.h's, the ufuncs' own, so a kernel computes
 * what pygpu.exp(z) or z1 / z2 computes (NumPy's division, log accurate near |z| = 1, ...).
 *
 * The extension embeds this text (setup.py, with the kernels/ headers it includes pasted in) and
 * writes it to the kernel cache's include folder, which both compilers search (_jit/headers.py).
 * A scalar operand of another real type converts (z * 2.0 with z a complex<float>), as C++'s
 * std::complex does not; a complex<float> converts to a complex<double> and back, as thrust's. */
#ifndef PG_USER_COMPLEX_H
#define PG_USER_COMPLEX_H

#include "pg_math_unpolled.h"

#ifdef PYGPU_CPU
#define PG_CX_FN inline __attribute__((always_inline))
#else
#define PG_CX_FN __host__ __device__ __forceinline__
#endif

/* pg_math.h's functions by overload on its two complex structs */
#define PG_CX_OVERLOAD1(name)                                                                  \
    static PG_CX_FN pg_complex64 pg_cx_##name(pg_complex64 a) { return pg_c##name##_c64(a); } \
    static PG_CX_FN pg_complex128 pg_cx_##name(pg_complex128 a) { return pg_c##name##_c128(a); }
#define PG_CX_OVERLOAD2(name)                                                                  \
    static PG_CX_FN pg_complex64 pg_cx_##name(pg_complex64 a, pg_complex64 b)                  \
    {                                                                                          \
        return pg_c##name##_c64(a, b);                                                         \
    }                                                                                          \
    static PG_CX_FN pg_complex128 pg_cx_##name(pg_complex128 a, pg_complex128 b)               \
    {                                                                                          \
        return pg_c##name##_c128(a, b);                                                        \
    }
PG_CX_OVERLOAD2(mul)
PG_CX_OVERLOAD2(div)
PG_CX_OVERLOAD2(pow)
PG_CX_OVERLOAD1(exp)
PG_CX_OVERLOAD1(log)
PG_CX_OVERLOAD1(log10)
PG_CX_OVERLOAD1(sqrt)
PG_CX_OVERLOAD1(sin)
PG_CX_OVERLOAD1(cos)
PG_CX_OVERLOAD1(tan)
PG_CX_OVERLOAD1(sinh)
PG_CX_OVERLOAD1(cosh)
PG_CX_OVERLOAD1(tanh)
PG_CX_OVERLOAD1(asin)
PG_CX_OVERLOAD1(acos)
PG_CX_OVERLOAD1(atan)
PG_CX_OVERLOAD1(asinh)
PG_CX_OVERLOAD1(acosh)
PG_CX_OVERLOAD1(atanh)
PG_CX_OVERLOAD1(log1p)
PG_CX_OVERLOAD1(log2)
PG_CX_OVERLOAD1(expm1)
#undef PG_CX_OVERLOAD1
#undef PG_CX_OVERLOAD2
static PG_CX_FN float pg_cx_abs(pg_complex64 a) { return pg_cabs_c64(a); }
static PG_CX_FN double pg_cx_abs(pg_complex128 a) { return pg_cabs_c128(a); }

namespace thrust {

template <typename T> struct pg_cx_struct;
template <> struct pg_cx_struct<float> { typedef pg_complex64 type; };
template <> struct pg_cx_struct<double> { typedef pg_complex128 type; };
/* T itself, where deducing it from a scalar operand would clash with the complex one's */
template <typename T> struct pg_cx_same { typedef T type; };

template <typename T> struct alignas(2 * sizeof(T)) complex {
    typedef T value_type;
    T re_, im_;

    PG_CX_FN complex(const T &re = T(), const T &im = T()) : re_(re), im_(im) {}
    template <typename U> PG_CX_FN complex(const complex<U> &z) : re_(T(z.real())), im_(T(z.imag())) {}
    PG_CX_FN T real() const { return re_; }
    PG_CX_FN T imag() const { return im_; }
    PG_CX_FN void real(T re) { re_ = re; }
    PG_CX_FN void imag(T im) { im_ = im; }

    /* the same bytes as pg_math.h's struct of the precision */
    typedef typename pg_cx_struct<T>::type pg_type;
    PG_CX_FN pg_type pg() const
    {
        pg_type z;
        z.re = re_;
        z.im = im_;
        return z;
    }
    static PG_CX_FN complex from(pg_type z) { return complex(z.re, z.im); }

    PG_CX_FN complex &operator=(const T &x)
    {
        re_ = x;
        im_ = T();
        return *this;
    }
    PG_CX_FN complex &operator+=(const complex &z)
    {
        re_ += z.re_;
        im_ += z.im_;
        return *this;
    }
    PG_CX_FN complex &operator-=(const complex &z)
    {
        re_ -= z.re_;
        im_ -= z.im_;
        return *this;
    }
    PG_CX_FN complex &operator*=(const complex &z) { return *this = from(pg_cx_mul(pg(), z.pg())); }
    PG_CX_FN complex &operator/=(const complex &z) { return *this = from(pg_cx_div(pg(), z.pg())); }
    PG_CX_FN complex &operator+=(const T &x)
    {
        re_ += x;
        return *this;
    }
    PG_CX_FN complex &operator-=(const T &x)
    {
        re_ -= x;
        return *this;
    }
    PG_CX_FN complex &operator*=(const T &x)
    {
        re_ *= x;
        im_ *= x;
        return *this;
    }
    PG_CX_FN complex &operator/=(const T &x)
    {
        re_ /= x;
        im_ /= x;
        return *this;
    }
};

#define PG_CX_T template <typename T> static PG_CX_FN
#define PG_CX_S typename pg_cx_same<T>::type
PG_CX_T complex<T> operator+(const complex<T> &a, const complex<T> &b) { return complex<T>(a.re_ + b.re_, a.im_ + b.im_); }
PG_CX_T complex<T> operator+(const complex<T> &a, const PG_CX_S &x) { return complex<T>(a.re_ + x, a.im_); }
PG_CX_T complex<T> operator+(const PG_CX_S &x, const complex<T> &a) { return complex<T>(x + a.re_, a.im_); }
PG_CX_T complex<T> operator-(const complex<T> &a, const complex<T> &b) { return complex<T>(a.re_ - b.re_, a.im_ - b.im_); }
PG_CX_T complex<T> operator-(const complex<T> &a, const PG_CX_S &x) { return complex<T>(a.re_ - x, a.im_); }
PG_CX_T complex<T> operator-(const PG_CX_S &x, const complex<T> &a) { return complex<T>(x - a.re_, -a.im_); }
PG_CX_T complex<T> operator*(const complex<T> &a, const complex<T> &b) { return complex<T>::from(pg_cx_mul(a.pg(), b.pg())); }
PG_CX_T complex<T> operator*(const complex<T> &a, const PG_CX_S &x) { return complex<T>(a.re_ * x, a.im_ * x); }
PG_CX_T complex<T> operator*(const PG_CX_S &x, const complex<T> &a) { return complex<T>(x * a.re_, x * a.im_); }
PG_CX_T complex<T> operator/(const complex<T> &a, const complex<T> &b) { return complex<T>::from(pg_cx_div(a.pg(), b.pg())); }
PG_CX_T complex<T> operator/(const complex<T> &a, const PG_CX_S &x) { return complex<T>(a.re_ / x, a.im_ / x); }
PG_CX_T complex<T> operator/(const PG_CX_S &x, const complex<T> &a) { return complex<T>(x) / a; }
PG_CX_T complex<T> operator+(const complex<T> &a) { return a; }
PG_CX_T complex<T> operator-(const complex<T> &a) { return complex<T>(-a.re_, -a.im_); }
PG_CX_T bool operator==(const complex<T> &a, const complex<T> &b) { return a.re_ == b.re_ && a.im_ == b.im_; }
PG_CX_T bool operator==(const complex<T> &a, const PG_CX_S &x) { return a.re_ == x && a.im_ == T(); }
PG_CX_T bool operator==(const PG_CX_S &x, const complex<T> &a) { return a.re_ == x && a.im_ == T(); }
PG_CX_T bool operator!=(const complex<T> &a, const complex<T> &b) { return !(a == b); }
PG_CX_T bool operator!=(const complex<T> &a, const PG_CX_S &x) { return !(a == x); }
PG_CX_T bool operator!=(const PG_CX_S &x, const complex<T> &a) { return !(a == x); }

PG_CX_T T real(const complex<T> &z) { return z.re_; }
PG_CX_T T imag(const complex<T> &z) { return z.im_; }
PG_CX_T T abs(const complex<T> &z) { return pg_cx_abs(z.pg()); }
PG_CX_T T arg(const complex<T> &z) { return ::atan2(z.im_, z.re_); }
PG_CX_T T norm(const complex<T> &z) { return z.re_ * z.re_ + z.im_ * z.im_; }
PG_CX_T complex<T> conj(const complex<T> &z) { return complex<T>(z.re_, -z.im_); }
/* the Riemann sphere's projection: every infinity is (inf, +-0) */
PG_CX_T complex<T> proj(const complex<T> &z)
{
    if (::isinf(z.re_) || ::isinf(z.im_))
        return complex<T>(T(INFINITY), ::copysign(T(0), z.im_));
    return z;
}
PG_CX_T complex<T> polar(const T &r, const T &theta = T()) { return complex<T>(r * ::cos(theta), r * ::sin(theta)); }
PG_CX_T bool isnan(const complex<T> &z) { return ::isnan(z.re_) || ::isnan(z.im_); }
PG_CX_T bool isinf(const complex<T> &z) { return ::isinf(z.re_) || ::isinf(z.im_); }
PG_CX_T bool isfinite(const complex<T> &z) { return ::isfinite(z.re_) && ::isfinite(z.im_); }
PG_CX_T complex<T> pow(const complex<T> &a, const complex<T> &b) { return complex<T>::from(pg_cx_pow(a.pg(), b.pg())); }
PG_CX_T complex<T> pow(const complex<T> &a, const PG_CX_S &x) { return pow(a, complex<T>(x)); }
PG_CX_T complex<T> pow(const PG_CX_S &x, const complex<T> &a) { return pow(complex<T>(x), a); }
#define PG_CX_FUNC(name) \
    PG_CX_T complex<T> name(const complex<T> &z) { return complex<T>::from(pg_cx_##name(z.pg())); }
PG_CX_FUNC(exp)
PG_CX_FUNC(log)
PG_CX_FUNC(log10)
PG_CX_FUNC(sqrt)
PG_CX_FUNC(sin)
PG_CX_FUNC(cos)
PG_CX_FUNC(tan)
PG_CX_FUNC(sinh)
PG_CX_FUNC(cosh)
PG_CX_FUNC(tanh)
PG_CX_FUNC(asin)
PG_CX_FUNC(acos)
PG_CX_FUNC(atan)
PG_CX_FUNC(asinh)
PG_CX_FUNC(acosh)
PG_CX_FUNC(atanh)
PG_CX_FUNC(log1p)
PG_CX_FUNC(log2)
PG_CX_FUNC(expm1)
#undef PG_CX_FUNC
PG_CX_T complex<T> rint(const complex<T> &z) { return complex<T>(::rint(z.re_), ::rint(z.im_)); }
/* CuPy's: a NaN loses to a number; otherwise by real part, then imaginary part */
PG_CX_T complex<T> min(const complex<T> &x, const complex<T> &y)
{
    if (isnan(x) || isnan(y))
        return isnan(x) ? y : x;
    if (x.re_ != y.re_)
        return x.re_ < y.re_ ? x : y;
    return x.im_ < y.im_ ? x : y;
}
PG_CX_T complex<T> max(const complex<T> &x, const complex<T> &y)
{
    if (isnan(x) || isnan(y))
        return isnan(x) ? y : x;
    if (x.re_ != y.re_)
        return x.re_ > y.re_ ? x : y;
    return x.im_ < y.im_ ? y : x;
}
#undef PG_CX_T
#undef PG_CX_S

} /* namespace thrust */

/* at global scope too, as CuPy's header has them (polar(r, t) has no complex argument to find
 * thrust's by) */
using thrust::complex;
using thrust::real;
using thrust::imag;
using thrust::abs;
using thrust::arg;
using thrust::norm;
using thrust::conj;
using thrust::proj;
using thrust::polar;
using thrust::pow;
using thrust::exp;
using thrust::log;
using thrust::log10;
using thrust::log2;
using thrust::log1p;
using thrust::expm1;
using thrust::sqrt;
using thrust::sin;
using thrust::cos;
using thrust::tan;
using thrust::sinh;
using thrust::cosh;
using thrust::tanh;
using thrust::asin;
using thrust::acos;
using thrust::atan;
using thrust::asinh;
using thrust::acosh;
using thrust::atanh;
using thrust::isnan;
using thrust::isinf;
using thrust::isfinite;
using thrust::rint;
using thrust::min;
using thrust::max;

#endif
