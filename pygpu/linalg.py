"""pygpu.linalg: NumPy's numpy.linalg and the array API's linalg extension on pygpu arrays.

Factorisations run where the array lives: on the CPU through NumPy's LAPACK on the array's own
memory (zero-copy both ways), on a CUDA device through cuSOLVER (potrf, getrf/getrs, geqrf and
orgqr, gesvd, syevd; pygpu._core._cusolver_*), batched over leading dimensions. eig and eigvals
of CUDA arrays are computed by NumPy on the host (cuSOLVER's geev is recent and optional). What
is built from those (pinv, lstsq on the GPU, matrix_rank, cond, norms, matrix_power, tensorinv,
tensorsolve, multi_dot) is written once here on pygpu operations, so the CPU tests exercise
the code the GPU runs.

A singular matrix (solve, inv), one that is not positive definite (cholesky) or a failed
convergence raises numpy.linalg.LinAlgError itself, with NumPy's message; on a GPU it is read
from cuSOLVER's info once the result is synchronised, and the process carries on."""
import collections as _collections
import math as _math
import operator as _operator

import numpy as _np
from numpy.linalg import LinAlgError

from . import _core, _dispatch
from ._manipulation import tril, triu
from ._products import (_arrays, _check_out, _host, _into, _reduce, _sum, _sum_last, _wrap, cross as _np_cross, dot,
                        matmul as _np_matmul, matvec, outer as _np_outer, tensordot as _np_tensordot, trace as _np_trace,
                        vecdot as _np_vecdot, vecmat)

__all__ = [
    "LinAlgError", "cholesky", "qr", "svd", "svdvals", "eigh", "eigvalsh", "eig", "eigvals", "solve", "inv", "det",
    "slogdet", "pinv", "lstsq", "matrix_rank", "matrix_power", "norm", "vector_norm", "matrix_norm", "cond",
    "cross", "diagonal", "outer", "matmul", "tensordot", "vecdot", "matrix_transpose", "multi_dot", "tensorinv",
    "tensorsolve", "trace", "lu", "solve_triangular",
]

matmul = _core.matmul
matrix_transpose = _core.matrix_transpose


def _result_class(name, fields):
    """NumPy's named result tuples (QRResult, SVDResult, ...) when it has them."""
    cls = getattr(getattr(_np.linalg, "_linalg", None), name, None)
    return cls if cls is not None else _collections.namedtuple(name, fields)


QRResult = _result_class("QRResult", ["Q", "R"])
SVDResult = _result_class("SVDResult", ["U", "S", "Vh"])
EighResult = _result_class("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = _result_class("EigResult", ["eigenvalues", "eigenvectors"])
SlogdetResult = _result_class("SlogdetResult", ["sign", "logabsdet"])


# ------------------------------------------------------------------ types, checks

def _array(a, device=None):
    """a as a pygpu array: itself, or converted onto `device` (the current device when None)."""
    return a if isinstance(a, _core.ndarray) else _core.asarray(a, device=device)


def _linalg_type(*arrays):
    """NumPy's computation type: float32/complex64 when every input is single precision, else
    float64/complex128; integers and bool compute in float64; float16 is refused."""
    single, cplx = True, False
    for a in arrays:
        dt = a.dtype
        if dt == _np.float16:
            raise TypeError("array type float16 is unsupported in linalg")
        if dt.kind == "c":
            cplx = True
        if not (dt == _np.float32 or dt == _np.complex64):
            single = False
    if cplx:
        return _np.dtype(_np.complex64 if single else _np.complex128)
    return _np.dtype(_np.float32 if single else _np.float64)


def _real(dt):
    return _np.dtype(_np.float32) if dt in (_np.float32, _np.complex64) else _np.dtype(_np.float64)


def _assert_stacked_2d(*arrays):
    for a in arrays:
        if a.ndim < 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least two-dimensional")


def _assert_stacked_square(*arrays):
    for a in arrays:
        if a.shape[-1] != a.shape[-2]:
            raise LinAlgError("Last 2 dimensions of the array must be square")


def _on_cpu(a):
    return a.device.kind == "cpu"


def _numpy(fn, *arrays, **kwargs):
    """numpy.linalg.<fn> on the host values of the arrays; results on the first array's device
    (zero-copy on the CPU)."""
    dev = arrays[0].device
    res = getattr(_np.linalg, fn)(*[_host(a) for a in arrays], **kwargs)
    if isinstance(res, tuple):
        return type(res)(*[_wrap(r, dev) for r in res]) if hasattr(res, "_fields") else \
            tuple(_wrap(r, dev) for r in res)
    return _wrap(res, dev)


# ------------------------------------------------------------------ the GPU's building blocks

def _stack(a, dt):
    """The column-major stack of a's matrices for cuSOLVER: a C-contiguous copy of a.mT."""
    return _core.matrix_transpose(a).astype(dt, order="C")


def _check_info(info, message):
    """Raises LinAlgError(message) when any factorisation reported info > 0 (synchronises)."""
    bad = info.get()
    if (bad < 0).any():
        raise RuntimeError(f"cuSOLVER rejected parameter {-int(bad[bad < 0].flat[0])} (pygpu bug)")
    if (bad > 0).any():
        raise LinAlgError(message)


def _empty_like_numpy(fn, a, *args, **kwargs):
    """A factorisation of an empty stack: NumPy's answer for the shapes, on a's device."""
    res = getattr(_np.linalg, fn)(_np.zeros(a.shape, a.dtype), *args, **kwargs)
    if isinstance(res, tuple):
        return type(res)(*[_core.asarray(r, device=a.device) for r in res]) if hasattr(res, "_fields") else \
            tuple(_core.asarray(r, device=a.device) for r in res)
    return _core.asarray(res, device=a.device)


def _gpu_lu(a, dt):
    """(lu stack, pivots, info) of a's matrices."""
    w = _stack(a, dt)
    ipiv, info = _core._cusolver_getrf(w)
    return w, ipiv, info


def _gpu_solve(a, b, dt, check=True):
    """X with a X = b for matrices b (..., n, k), batch dimensions broadcast."""
    batch = _np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    n, k = b.shape[-2], b.shape[-1]
    if not a.shape[:-2] and b.shape[:-2]:
        # one matrix for the whole stack of right-hand sides: one solve with them side by side
        cols = _core.moveaxis(b, -2, 0).reshape(n, _math.prod(b.shape[:-2]) * k)   # not -1: n may be 0
        x = _gpu_solve(a, cols, dt, check)
        return _core.moveaxis(x.reshape((n,) + b.shape[:-2] + (k,)), 0, -2)
    a = _core.broadcast_to(a, batch + a.shape[-2:])
    b = _core.broadcast_to(b, batch + b.shape[-2:])
    factors, ipiv, info = _gpu_lu(a, dt)
    if check:
        _check_info(info, "Singular matrix")
    x = _stack(b, dt)
    _core._cusolver_getrs(factors, ipiv, x, 0)
    return _core.matrix_transpose(x)


def _gpu_svd(a, dt, full_matrices, compute_uv):
    """(U, S, Vh) or S, through gesvd of a (m >= n) or of a^H (m < n)."""
    m, n = a.shape[-2:]
    if m >= n:
        w = _stack(a, dt)
        s, u, vt, info = _core._cusolver_gesvd(w, compute_uv, full_matrices)
        _check_info(info, "SVD did not converge")
        if not compute_uv:
            return s
        return _core.matrix_transpose(u), s, _core.matrix_transpose(vt)
    # a = (a^H)^H: the stack of a^H is conj(a), C-contiguous; U and V swap roles
    w = _core.conj(a).astype(dt, order="C") if dt.kind == "c" else a.astype(dt, order="C")
    s, u, vt, info = _core._cusolver_gesvd(w, compute_uv, full_matrices)
    _check_info(info, "SVD did not converge")
    if not compute_uv:
        return s
    if dt.kind == "c":
        return _core.conj(vt), s, _core.conj(u)
    return vt, s, u


# ------------------------------------------------------------------ factorisations

def cholesky(a, /, *, upper=False):
    """The Cholesky factor L (a = L L^H), or U (a = U^H U) with upper=True."""
    a = _array(a)
    _assert_stacked_2d(a)
    _assert_stacked_square(a)
    dt = _linalg_type(a)
    if _on_cpu(a):
        return _numpy("cholesky", a, upper=upper)
    if a.size == 0:
        return _core.zeros(a.shape, dtype=dt, device=a.device)
    w = _stack(a, dt)
    info = _core._cusolver_potrf(w, not upper)
    _check_info(info, "Matrix is not positive definite")
    r = _core.matrix_transpose(w)
    return triu(r) if upper else tril(r)


def qr(a, mode="reduced"):
    """The QR decomposition: (Q, R) for 'reduced' and 'complete', R for 'r', (h, tau) for 'raw'."""
    if mode not in ("reduced", "complete", "r", "raw"):
        if mode in ("f", "full", "e", "economic"):
            raise ValueError(f"The '{mode}' mode has been removed; use 'reduced', 'complete', 'r' or 'raw'")
        raise ValueError(f"Unrecognized mode '{mode}'")
    a = _array(a)
    _assert_stacked_2d(a)
    dt = _linalg_type(a)
    if _on_cpu(a):
        return _numpy("qr", a, mode=mode)
    if a.size == 0:
        return _empty_like_numpy("qr", a.astype(dt), mode=mode)
    m, n = a.shape[-2:]
    k = min(m, n)
    w = _stack(a, dt)
    tau, info = _core._cusolver_geqrf(w)
    _check_info(info, "Incorrect argument found while performing LAPACK routine")
    if mode == "raw":
        return w, tau
    full_r = triu(_core.matrix_transpose(w))
    if mode == "r":
        return full_r[..., :k, :].copy()
    if mode == "complete" and m > n:
        q = _core.zeros(a.shape[:-2] + (m, m), dtype=dt, device=a.device)
        q[..., :n, :] = w
        r = full_r
    else:
        q = w[..., :k, :].copy()
        r = full_r[..., :k, :].copy()
    info = _core._cusolver_orgqr(q, tau)
    _check_info(info, "Incorrect argument found while performing LAPACK routine")
    return QRResult(_core.matrix_transpose(q), r)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    """The singular value decomposition (U, S, Vh), or S without compute_uv. On a GPU, hermitian
    matrices take the general algorithm (a valid SVD of them too)."""
    a = _array(a)
    _assert_stacked_2d(a)
    dt = _linalg_type(a)
    if _on_cpu(a):
        return _numpy("svd", a, full_matrices=full_matrices, compute_uv=compute_uv, hermitian=hermitian)
    if a.size == 0:
        return _empty_like_numpy("svd", a.astype(dt), full_matrices=full_matrices, compute_uv=compute_uv)
    res = _gpu_svd(a, dt, full_matrices, compute_uv)
    return SVDResult(*res) if compute_uv else res


def svdvals(x, /):
    """The singular values, in descending order."""
    return svd(x, compute_uv=False)


def _eigh(a, UPLO, vectors):
    if UPLO not in ("L", "U"):
        raise ValueError("UPLO argument must be 'L' or 'U'")
    a = _array(a)
    _assert_stacked_2d(a)
    _assert_stacked_square(a)
    dt = _linalg_type(a)
    name = "eigh" if vectors else "eigvalsh"
    if _on_cpu(a):
        return _numpy(name, a, UPLO=UPLO)
    if a.size == 0:
        return _empty_like_numpy(name, a.astype(dt))
    w = _stack(a, dt)
    ev, info = _core._cusolver_syevd(w, UPLO == "L", vectors)
    _check_info(info, "Eigenvalues did not converge")
    return EighResult(ev, _core.matrix_transpose(w)) if vectors else ev


def eigh(a, UPLO="L"):
    """Eigenvalues (ascending) and eigenvectors of Hermitian matrices, from one triangle."""
    return _eigh(a, UPLO, True)


def eigvalsh(a, UPLO="L"):
    """Eigenvalues of Hermitian matrices, ascending."""
    return _eigh(a, UPLO, False)


def _eig(a, name):
    a = _array(a)
    _assert_stacked_2d(a)
    _assert_stacked_square(a)
    _linalg_type(a)
    return _numpy(name, a)


def eig(a):
    """Eigenvalues and right eigenvectors of general matrices (NumPy's LAPACK; a CUDA array is
    computed on the host and the results copied back)."""
    return _eig(a, "eig")


def eigvals(a):
    """Eigenvalues of general matrices (on the host for CUDA arrays, as eig)."""
    return _eig(a, "eigvals")


def solve(a, b):
    """x with a @ x = b; b is a vector (..., n) only when it is 1-d, else matrices (..., n, k)."""
    a, b = _arrays(a, b)
    _assert_stacked_2d(a)
    _assert_stacked_square(a)
    dt = _linalg_type(a, b)
    n = a.shape[-1]
    if b.ndim == 0:
        raise ValueError("solve: Input operand 1 does not have enough dimensions (has 0, gufunc core with "
                         "signature (m,m),(m,n)->(m,n) requires 2)")
    if b.ndim == 1:
        if b.shape[0] != n:
            raise ValueError(f"solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                             f"signature (m,m),(m)->(m) (size {b.shape[0]} is different from {n})")
    elif b.shape[-2] != n:
        raise ValueError(f"solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"(m,m),(m,n)->(m,n) (size {b.shape[-2]} is different from {n})")
    if _on_cpu(a):
        return _numpy("solve", a, b)
    if b.ndim == 1:
        x = solve(a, b[:, None])
        return x[..., 0]
    batch = _np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    if a.size == 0 or b.size == 0:
        return _core.zeros(batch + b.shape[-2:], dtype=dt, device=a.device)
    return _gpu_solve(a, b, dt)


def inv(a):
    """The inverse of each matrix."""
    a = _array(a)
    _assert_stacked_2d(a)
    _assert_stacked_square(a)
    dt = _linalg_type(a)
    if _on_cpu(a):
        return _numpy("inv", a)
    if a.size == 0:
        return _core.zeros(a.shape, dtype=dt, device=a.device)
    eye = _core.broadcast_to(_core.eye(a.shape[-1], dtype=dt, device=a.device), a.shape)
    return _gpu_solve(a, eye, dt)


def _gpu_slogdet(a, dt):
    n = a.shape[-1]
    factors, ipiv, _ = _gpu_lu(a, dt)  # a singular matrix has a zero on U's diagonal: det 0
    d = _core.diagonal(factors, 0, -2, -1)
    rows = _core.arange(1, n + 1, dtype=_np.int64, device=a.device)
    swaps = _sum_last(_core.not_equal(ipiv, rows).astype(_np.int64))
    parity = 1 - 2 * _core.remainder(swaps, 2)
    absd = _core.absolute(d)
    zero = _core.greater(_sum_last(_core.equal(absd, 0).astype(_np.int64)), 0)
    logdet = _sum_last(_core.log(_core.where(_core.equal(absd, 0), _np.ones((), absd.dtype), absd)))
    if dt.kind == "c":
        unit = _core.divide(d, _core.where(_core.equal(absd, 0), _np.ones((), absd.dtype), absd))
        phase = _sum_last(_core._angle(unit))
        sign = _core.exp(phase * 1j).astype(dt) * parity.astype(dt)
    else:
        negatives = _sum_last(_core.less(d, 0).astype(_np.int64))
        sign = (parity * (1 - 2 * _core.remainder(negatives, 2))).astype(dt)
    sign = _core.where(zero, _np.zeros((), dt), sign)
    logdet = _core.where(zero, _np.array(-_np.inf, _real(dt)), logdet)
    return sign, logdet


def slogdet(a):
    """(sign, log|det|) of each matrix; a singular one gives (0, -inf)."""
    a = _array(a)
    _assert_stacked_2d(a)
    _assert_stacked_square(a)
    dt = _linalg_type(a)
    if _on_cpu(a):
        return _numpy("slogdet", a)
    if a.shape[-1] == 0 or a.size == 0:
        return _empty_like_numpy("slogdet", a.astype(dt))
    return SlogdetResult(*_gpu_slogdet(a, dt))


def det(a):
    """The determinant of each matrix."""
    a = _array(a)
    _assert_stacked_2d(a)
    _assert_stacked_square(a)
    dt = _linalg_type(a)
    if _on_cpu(a):
        return _numpy("det", a)
    if a.shape[-1] == 0 or a.size == 0:
        return _empty_like_numpy("det", a.astype(dt))
    sign, logdet = _gpu_slogdet(a, dt)
    return sign * _core.exp(logdet).astype(dt)


def lstsq(a, b, rcond=None):
    """The least-squares solution x of a @ x = b: (x, residuals, rank (an int), singular values)."""
    a, b = _arrays(a, b)
    if a.ndim != 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be two-dimensional")
    if b.ndim not in (1, 2):
        raise LinAlgError(f"{b.ndim}-dimensional array given. Array must be one or two-dimensional")
    m, n = a.shape
    if b.shape[0] != m:
        raise LinAlgError("Incompatible dimensions")
    dt = _linalg_type(a, b)
    if _on_cpu(a) or a.size == 0 or b.size == 0:
        x, resid, rank, s = _numpy("lstsq", a, b, rcond=rcond)
        return x, resid, int(rank.get()), s
    if rcond is None:
        rcond = _np.finfo(dt).eps * max(m, n)
    bm = b[:, None] if b.ndim == 1 else b
    u, s, vh = _gpu_svd(a, dt, False, True)
    # singular values below rcond * the largest are dropped, as LAPACK's gelsd does
    cutoff = s[..., :1] * rcond
    keep = _core.greater(s, cutoff)
    inv_s = _core.where(keep, _core.divide(_np.ones((), s.dtype), _core.where(keep, s, _np.ones((), s.dtype))),
                        _np.zeros((), s.dtype))
    uhb = _core.matmul(_core.conj(_core.matrix_transpose(u)), bm.astype(dt))
    x = _core.matmul(_core.conj(_core.matrix_transpose(vh)), uhb * inv_s.astype(dt)[:, None])
    rank = int(_sum_last(keep.astype(_np.int64)).get())
    if rank == n and m > n:
        r = bm.astype(dt) - _core.matmul(a.astype(dt), x)
        resid = _sum((r * _core.conj(r)).real if dt.kind == "c" else r * r, axis=0)
    else:
        resid = _core.empty((0,), dtype=_real(dt), device=a.device)
    if b.ndim == 1:
        x = x[:, 0]
    return x, resid, rank, s


# ------------------------------------------------------------------ built from the above

def pinv(a, rcond=None, hermitian=False, *, rtol=_np._NoValue):
    """The Moore-Penrose pseudo-inverse, from the SVD."""
    a = _array(a)
    if rcond is not None and rtol is not _np._NoValue:
        raise ValueError("`rtol` and `rcond` can't be both set.")
    _assert_stacked_2d(a)
    if a.shape[-1] == 0 or a.shape[-2] == 0:   # a's own dtype, as NumPy's (no SVD, no type check)
        m, n = a.shape[-2:]
        return _core.empty(a.shape[:-2] + (n, m), dtype=a.dtype, device=a.device)
    dt = _linalg_type(a)
    if rcond is None:
        rcond = 1e-15 if rtol is _np._NoValue else max(a.shape[-2:]) * _np.finfo(dt).eps if rtol is None else rtol
    # a Python or NumPy scalar is a constant; only an array of cutoffs travels to the device
    rc = float(rcond) if isinstance(rcond, (int, float, _np.generic)) else _array(rcond, device=a.device)
    u, s, vt = svd(_core.conj(a.astype(dt, copy=False)), full_matrices=False, hermitian=hermitian)
    smax = _reduce("max", s, axis=-1, keepdims=True) if hermitian else s[..., :1]
    cutoff = (rc[..., None] if isinstance(rc, _core.ndarray) else rc) * smax
    large = _core.greater(s, cutoff)
    one = _np.ones((), s.dtype)
    s_inv = _core.where(large, _core.divide(one, _core.where(large, s, one)), _np.zeros((), s.dtype))
    return _core.matmul(_core.matrix_transpose(vt), s_inv.astype(dt)[..., None] * _core.matrix_transpose(u))


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """The number of singular values above tol (default: the largest times max(M, N) * eps)."""
    if rtol is not None and tol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    A = _array(A)
    if A.ndim < 2:   # NumPy's int, as a 0-d array like every other rank (and no synchronisation)
        return _reduce("any", _core.not_equal(A, 0)).astype(_np.int64)
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * _np.finfo(S.dtype).eps
        else:
            rtol = _array(rtol, A.device)[..., None] if not isinstance(rtol, (int, float)) else rtol
        smax = _reduce("max", S, axis=-1, keepdims=True, initial=0)
        tol = smax * rtol
    elif not isinstance(tol, (int, float)):
        tol = _array(tol, A.device)[..., None]
    return _sum_last(_core.greater(S, tol).astype(_np.int64))


def cond(x, p=None):
    """The condition number: s_max / s_min for p None, 2, -2; else norm(x, p) * norm(inv(x), p)."""
    x = _array(x)
    _assert_stacked_2d(x)
    if x.shape[-1] == 0 or x.shape[-2] == 0:
        raise LinAlgError("cond is not defined on empty arrays")
    nan_in_x = _reduce("any", _core.isnan(x), axis=(-2, -1))
    inf_in_x = None
    if p is None or p in (2, -2):
        # NumPy's SVD gives NaNs for a matrix with a NaN or an infinity, and cond NaN or inf for
        # them: not given to the SVD
        inf_in_x = _reduce("any", _core.isinf(x), axis=(-2, -1))
        if bool(_core.any(nan_in_x | inf_in_x)):
            x = _core.where(_core.isfinite(x), x, _np.array(0, x.dtype))
        s = svd(x, compute_uv=False)
        with _np.errstate(all="ignore"):
            r = s[..., -1] / s[..., 0] if p == -2 else s[..., 0] / s[..., -1]
    else:
        _assert_stacked_square(x)
        dt = _linalg_type(x)
        if _on_cpu(x):
            with _np.errstate(all="ignore"):
                r = _core.asarray(_np.linalg.cond(_host(x), p), device=x.device)
        else:
            invx = _gpu_solve(x, _core.broadcast_to(_core.eye(x.shape[-1], dtype=dt, device=x.device), x.shape), dt,
                              check=False)
            r = (norm(x, p, axis=(-2, -1)) * norm(invx, p, axis=(-2, -1))).astype(_real(dt))
    # NaN from a singular matrix becomes inf (one with an infinity too); a matrix with NaNs gives NaN
    if inf_in_x is not None:
        r = _core.where(inf_in_x, _np.array(_np.nan, r.dtype), r)
    r = _core.where(_core.isnan(r), _np.array(_np.inf, r.dtype), r)
    return _core.where(nan_in_x, _np.array(_np.nan, r.dtype), r)


def matrix_power(a, n):
    """a raised to the integer power n by repeated squaring (inv for n < 0)."""
    a = _array(a)
    _assert_stacked_2d(a)
    _assert_stacked_square(a)
    try:
        n = _operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        res = _core.empty_like(a)
        res[...] = _core.eye(a.shape[-2], dtype=a.dtype, device=a.device)
        return res
    if n < 0:
        a = inv(a)
        n = -n
    if n == 1:
        return a
    if n == 2:
        return _core.matmul(a, a)
    if n == 3:
        return _core.matmul(_core.matmul(a, a), a)
    z = result = None
    while n > 0:
        z = a if z is None else _core.matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            result = z if result is None else _core.matmul(result, z)
    return result


def _abs_sum(x, axis):
    return _sum(_core.absolute(x), axis=axis)


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm: vector norms over one axis, matrix norms over two."""
    x = _array(x)
    if x.dtype.kind not in "fc":
        x = x.astype(_np.float64)
    if axis is None:
        nd = x.ndim
        if ord is None or (ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            flat = x.reshape(-1)
            if x.dtype.kind == "c":
                re, im = flat.real, flat.imag
                sq = _core._matmul(re, re) + _core._matmul(im, im)
            else:
                sq = _core._matmul(flat, flat)
            ret = _core.sqrt(sq)
            return ret.reshape((1,) * nd) if keepdims else ret
    nd = x.ndim
    if axis is None:
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = int(axis)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
        axis = (axis,)
    if len(axis) == 1:
        if ord == _np.inf:
            return _reduce("max", _core.absolute(x), axis=axis, keepdims=keepdims, initial=0)
        if ord == -_np.inf:
            return _reduce("min", _core.absolute(x), axis=axis, keepdims=keepdims)
        if ord == 0:
            return _sum(_core.not_equal(x, 0).astype(x.real.dtype), axis=axis, keepdims=keepdims)
        if ord == 1:
            return _sum(_core.absolute(x), axis=axis, keepdims=keepdims)
        if ord is None or ord == 2:
            s = (_core.conj(x) * x).real if x.dtype.kind == "c" else x * x
            return _core.sqrt(_sum(s, axis=axis, keepdims=keepdims))
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        absx = _core.absolute(x)
        _core.power(absx, ord, out=absx)   # in place, as NumPy's: x's precision whatever ord's type
        ret = _sum(absx, axis=axis, keepdims=keepdims)
        return ret ** _np.reciprocal(_np.asarray(ord, dtype=ret.dtype))
    if len(axis) == 2:
        row_axis, col_axis = (_normalize_axis(ax, nd) for ax in axis)
        if row_axis == col_axis:
            raise ValueError("Duplicate axes given.")
        if ord == 2:
            ret = _reduce("max", svd(_core.moveaxis(x, (row_axis, col_axis), (-2, -1)), compute_uv=False),
                               axis=-1, initial=0)
        elif ord == -2:
            ret = _reduce("min", svd(_core.moveaxis(x, (row_axis, col_axis), (-2, -1)), compute_uv=False),
                               axis=-1)
        elif ord == 1:
            c = col_axis - 1 if col_axis > row_axis else col_axis
            ret = _reduce("max", _abs_sum(x, row_axis), axis=c, initial=0)
        elif ord == _np.inf:
            r = row_axis - 1 if row_axis > col_axis else row_axis
            ret = _reduce("max", _abs_sum(x, col_axis), axis=r, initial=0)
        elif ord == -1:
            c = col_axis - 1 if col_axis > row_axis else col_axis
            ret = _reduce("min", _abs_sum(x, row_axis), axis=c)
        elif ord == -_np.inf:
            r = row_axis - 1 if row_axis > col_axis else row_axis
            ret = _reduce("min", _abs_sum(x, col_axis), axis=r)
        elif ord in (None, "fro", "f"):
            s = (_core.conj(x) * x).real if x.dtype.kind == "c" else x * x
            ret = _core.sqrt(_sum(s, axis=axis))
        elif ord == "nuc":
            ret = _sum(svd(_core.moveaxis(x, (row_axis, col_axis), (-2, -1)), compute_uv=False), axis=-1)
        else:
            raise ValueError("Invalid norm order for matrices.")
        if keepdims:
            shape = list(x.shape)
            shape[axis[0]] = 1
            shape[axis[1]] = 1
            ret = ret.reshape(shape)
        return ret
    raise ValueError("Improper number of dimensions to norm.")


def _normalize_axis(ax, nd):
    ax = _operator.index(ax)
    if not -nd <= ax < nd:
        raise _np.exceptions.AxisError(ax, nd)
    return ax % nd


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The array API's vector_norm: over all axes (axis=None), one, or a tuple of them."""
    x = _array(x)
    shape = list(x.shape)
    if axis is None:
        y, ax = x.reshape(-1), 0
    elif isinstance(axis, tuple):
        norm_axes = tuple(_normalize_axis(a, x.ndim) for a in axis)
        rest = tuple(i for i in range(x.ndim) if i not in norm_axes)
        size = 1
        for i in norm_axes:
            size *= x.shape[i]
        y = _core.transpose(x, norm_axes + rest).reshape((size,) + tuple(x.shape[i] for i in rest))
        ax = 0
    else:
        y, ax = x, axis
    res = norm(y, axis=ax, ord=ord)
    if keepdims:
        axes = range(len(shape)) if axis is None else (axis if isinstance(axis, tuple) else (axis,))
        for i in axes:
            shape[_normalize_axis(i, len(shape))] = 1
        res = res.reshape(tuple(shape))
    return res


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The array API's matrix_norm over the last two axes."""
    return norm(_array(x), axis=(-2, -1), keepdims=keepdims, ord=ord)


def multi_dot(arrays, *, out=None):
    """The product of several matrices, in the cheapest order (NumPy's dynamic programme)."""
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    if n == 2:
        return dot(arrays[0], arrays[1], out=out)
    arrays = list(_arrays(*arrays))
    first, last = arrays[0].ndim, arrays[-1].ndim
    if first == 1:
        arrays[0] = arrays[0].reshape(1, -1)
    if last == 1:
        arrays[-1] = arrays[-1].reshape(-1, 1)
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be two-dimensional")
    dims = [a.shape[0] for a in arrays] + [arrays[-1].shape[1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = float("inf")
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if q < cost[i][j]:
                    cost[i][j] = q
                    split[i][j] = k

    def chain(i, j):
        if i == j:
            return arrays[i]
        return dot(chain(i, split[i][j]), chain(split[i][j] + 1, j))

    res = chain(0, n - 1)
    if first == 1 and last == 1:
        res = res[0, 0]
    elif first == 1 or last == 1:
        res = res.reshape(-1)
    return _check_out(out, res, "dot")   # NumPy's last dot writes out: its dtype exactly


def tensorinv(a, ind=2):
    """The inverse of a tensor read as a matrix (the first ind axes against the rest)."""
    a = _array(a)
    oldshape = a.shape
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    invshape = oldshape[ind:] + oldshape[:ind]
    prod = 1
    for k in oldshape[ind:]:
        prod *= k
    return inv(a.reshape(prod, -1)).reshape(invshape)


def tensorsolve(a, b, axes=None):
    """x with tensordot(a, x, axes=x.ndim) = b."""
    a, b = _arrays(a, b)
    an = a.ndim
    if axes is not None:
        allaxes = list(range(an))
        for k in axes:
            allaxes.remove(k)
            allaxes.insert(an, k)
        a = _core.transpose(a, allaxes)
    oldshape = a.shape[-(an - b.ndim):]
    prod = 1
    for k in oldshape:
        prod *= k
    if a.size != prod ** 2:
        raise LinAlgError("Input arrays must satisfy the requirement "
                          "prod(a.shape[b.ndim:]) == prod(a.shape[:b.ndim])")
    return solve(a.reshape(prod, prod), b.reshape(-1)).reshape(oldshape)


# ------------------------------------------------------------------ the array API's linalg names

def cross(x1, x2, /, *, axis=-1):
    """The cross product of 3-element vectors along axis."""
    x1, x2 = _arrays(x1, x2)
    if x1.ndim == 0 or x2.ndim == 0:
        raise ValueError("At least one array has zero dimension")
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                         f"{x1.shape[axis]} and {x2.shape[axis]} dimensional instead.")
    return _np_cross(x1, x2, axis=axis)


def diagonal(x, /, *, offset=0):
    """The diagonals of the last two axes."""
    return _core.diagonal(x, offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    """The sums of the diagonals of the last two axes."""
    return _np_trace(x, offset, -2, -1, dtype)


def outer(x1, x2, /):
    """The outer product of two vectors."""
    x1, x2 = _arrays(x1, x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={x1.ndim} and "
                         f"x2.ndim={x2.ndim}.")
    return _np_outer(x1, x2)


def tensordot(x1, x2, /, *, axes=2):
    """The array API's tensordot (axes keyword-only): sums over the last ``axes`` axes of x1 and
    the first of x2, or over the axes given as two sequences."""
    return _np_tensordot(x1, x2, axes=axes)


def vecdot(x1, x2, /, *, axis=-1):
    """The array API's vecdot: the dot product of vectors along axis (the first conjugated),
    the other axes broadcast."""
    return _np_vecdot(x1, x2, axis=axis)


# ------------------------------------------------------------------ NumPy's gufuncs on pygpu arrays

# numpy.linalg.* and numpy.dot, einsum, ... reach these functions by name (pygpu/_dispatch.py);
# the ufuncs among NumPy's products come through __array_ufunc__
for _name, _fn in {"matmul": _np_matmul, "vecdot": _np_vecdot, "matvec": matvec, "vecmat": vecmat}.items():
    _dispatch.register_gufunc(_name, _fn)


from ._linalg_scipy import lu, solve_triangular  # noqa: E402  (SciPy's two that Dask's blocked linalg calls)
