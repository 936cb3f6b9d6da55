"""SciPy's LU factorisation and triangular solves on pygpu arrays (scipy.linalg.lu and
scipy.linalg.solve_triangular: their arguments, results and errors), exported by pygpu.linalg.
Dask's blocked linear algebra (da.linalg.lu, solve, inv, cholesky, lstsq) calls these two on
every block, so pygpu.dask points it here for pygpu chunks.

On the CPU device SciPy's own routines run on the array's memory when SciPy is installed; without
it, the LU is Gaussian elimination with partial pivoting in NumPy and the triangular solve goes
through numpy.linalg.solve. On a CUDA device the LU is cuSOLVER's getrf and the triangular solve
getrf/getrs on the triangle (tested on an H200, 2026-11-28)."""
import numpy as _np
from numpy.linalg import LinAlgError

from . import _core
from . import linalg as _linalg   # which imports this module last: its names are looked up at call time
from ._manipulation import diag, tril, triu
from ._products import _arrays, _host, _wrap

try:
    import scipy.linalg as _scipy_linalg
except ImportError:   # SciPy is optional: the NumPy versions below stand in on the CPU
    _scipy_linalg = None


def _host_lu(a):
    """(perm, L, U) with a[perm] = L @ U, by Gaussian elimination with partial pivoting (LAPACK's
    getf2 order: the largest magnitude in the column, the first of equals)."""
    m, n = a.shape
    k = min(m, n)
    w = a.copy()
    perm = _np.arange(m)
    for j in range(k):
        p = j + int(_np.argmax(_np.abs(w[j:, j])))
        if p != j:
            w[[j, p]] = w[[p, j]]
            perm[[j, p]] = perm[[p, j]]
        if w[j, j] != 0:
            w[j + 1:, j] /= w[j, j]
            w[j + 1:, j + 1:] -= _np.outer(w[j + 1:, j], w[j, j + 1:])
    lower = _np.tril(w, -1)[:, :k] + _np.eye(m, k, dtype=w.dtype)
    return perm, lower, _np.triu(w)[:k]


def _gpu_lu(a, dt):
    """(perm, L, U) of a square or rectangular matrix from cuSOLVER's getrf (pivots to the host: the
    permutation is a sequence of row swaps)."""
    m, n = a.shape
    k = min(m, n)
    w, ipiv, info = _linalg._gpu_lu(a, dt)
    lu_ = _core.matrix_transpose(w)
    perm = _np.arange(m)
    for j, p in enumerate(ipiv.get().reshape(-1)[:k] - 1):
        perm[[j, p]] = perm[[p, j]]
    eye = _core.eye(m, k, dtype=dt, device=a.device)
    return perm, tril(lu_, -1)[:, :k] + eye, triu(lu_)[:k]


def _lu_2d(a, permute_l, p_indices):
    if a.size == 0:   # SciPy's shapes: L (m, 0), U (0, n) and an empty P
        dt = _linalg._linalg_type(a)
        lower = _core.zeros((a.shape[0], 0), dtype=dt, device=a.device)
        upper = _core.zeros((0, a.shape[1]), dtype=dt, device=a.device)
        if permute_l:
            return lower, upper
        p = _core.zeros((0,), dtype=_np.intp, device=a.device) if p_indices else \
            _core.zeros((0, 0), dtype=dt, device=a.device)
        return p, lower, upper
    if _linalg._on_cpu(a):
        perm, lower, upper = _host_lu(_host(a).copy())
        lower, upper = _wrap(lower, a.device), _wrap(upper, a.device)
    else:
        perm, lower, upper = _gpu_lu(a, _linalg._linalg_type(a))
    # a[perm] = L @ U, so a = P @ L @ U with P[perm[i], i] = 1, and (L @ U)[argsort(perm)] = a
    inverse = _np.argsort(perm)
    if permute_l:
        return _core.take(lower, _core.asarray(inverse, device=a.device), axis=0), upper
    if p_indices:
        return _core.asarray(inverse, device=a.device), lower, upper
    p = _np.zeros((a.shape[0], a.shape[0]), dtype=lower.dtype)
    p[perm, _np.arange(a.shape[0])] = 1
    return _core.asarray(p, device=a.device), lower, upper


def lu(a, permute_l=False, overwrite_a=False, check_finite=True, p_indices=False):
    """scipy.linalg.lu: a = P @ L @ U with L unit lower triangular (m, k), U upper triangular
    (k, n), k = min(m, n); (P @ L, U) with permute_l=True; with p_indices=True P as row indices,
    a = L[P] @ U. A stack of matrices (..., m, n) gives stacks."""
    a = _arrays(a)[0]
    if a.ndim < 2:
        raise ValueError("The input array must be at least two-dimensional.")
    if a.dtype.kind not in "fc":
        a = a.astype(_np.float64)
    if check_finite and not bool(_core.all(_core.isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    if _linalg._on_cpu(a) and _scipy_linalg is not None:
        res = _scipy_linalg.lu(_host(a), permute_l=permute_l, check_finite=False, p_indices=p_indices)
        return tuple(_wrap(r, a.device) for r in res)
    if a.ndim == 2:
        return _lu_2d(a, permute_l, p_indices)
    parts = [_lu_2d(a[index], permute_l, p_indices) for index in _np.ndindex(a.shape[:-2])]
    return tuple(_core.stack([part[i] for part in parts]).reshape(a.shape[:-2] + parts[0][i].shape)
                 for i in range(len(parts[0])))


def solve_triangular(a, b, trans=0, lower=False, unit_diagonal=False, overwrite_b=False, check_finite=True):
    """scipy.linalg.solve_triangular: x with a x = b (trans 0 or 'N'), a^T x = b (1, 'T') or
    a^H x = b (2, 'C'), reading only a's lower (lower=True) or upper triangle, its diagonal taken
    as ones with unit_diagonal=True."""
    a, b = _arrays(a, b)
    if a.ndim != 2 or a.shape[0] != a.shape[1]:
        raise ValueError("expected square matrix")
    if b.ndim == 0 or b.shape[0] != a.shape[0]:
        raise ValueError(f"shapes of a {a.shape} and b {b.shape} are incompatible")
    trans = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}.get(trans)
    if trans is None:
        raise ValueError("trans must be 0, 1, 2, 'N', 'T' or 'C'")
    if check_finite and not (bool(_core.all(_core.isfinite(a))) and bool(_core.all(_core.isfinite(b)))):
        raise ValueError("array must not contain infs or NaNs")
    if _linalg._on_cpu(a) and _scipy_linalg is not None:
        x = _scipy_linalg.solve_triangular(_host(a), _host(b), trans=trans, lower=lower,
                                           unit_diagonal=unit_diagonal, check_finite=False)
        return _wrap(x, a.device)
    dt = _linalg._linalg_type(a, b)
    t = tril(a) if lower else triu(a)
    t = t.astype(dt)
    if unit_diagonal:
        t = t - diag(_core.diagonal(t)) + _core.eye(a.shape[0], dtype=dt, device=a.device)
    elif a.shape[0]:
        zero = _np.flatnonzero(_host(_core.diagonal(t)) == 0)
        if zero.size:
            raise LinAlgError(f"singular matrix: resolution failed at diagonal {int(zero[0])}")
    if trans == 1:
        t = _core.matrix_transpose(t)
    elif trans == 2:
        t = _core.conj(_core.matrix_transpose(t))
    if b.size == 0:
        return _core.zeros(b.shape, dtype=dt, device=a.device)
    return _linalg.solve(t, b.astype(dt))
