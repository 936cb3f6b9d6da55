"""The products of NumPy's namespace on pygpu arrays: dot, vdot, inner, outer, tensordot, kron,
vecdot, matvec, vecmat, trace, cross. Every contraction is one call of the C matmul
(pygpu._core.matmul: strided batched GEMM on cuBLAS, NumPy's BLAS on the CPU, an exact kernel for
integers), after views and reshapes; nothing loops over elements in Python.

Sums, max, min and any over axes are pygpu's reductions (_sum, _reduce), on the array's device."""
import math as _math
import operator as _operator
import warnings as _warnings

import numpy as _np

from . import _core
from ._out import into

_ndarray = _core.ndarray


# ------------------------------------------------------------------ helpers

def _device_of(*xs):
    for x in xs:
        if isinstance(x, _ndarray):
            return x.device
    return _core.get_device()


def _arrays(*xs):
    """pygpu arrays on one device (the first pygpu array's, else the current device)."""
    dev = _device_of(*xs)
    return tuple(x if isinstance(x, _ndarray) else _core.asarray(x, device=dev) for x in xs)


def _wrap(host, device):
    """A NumPy result as a pygpu array on `device` (zero-copy on the CPU)."""
    host = _np.asarray(host)
    if device.kind == "cpu" and host.dtype.kind != "O":
        if not host.flags.writeable:
            host = host.copy()
        return _core.from_dlpack(host)
    return _core.asarray(host, device=device)


def _host(x):
    """A NumPy array with x's values (zero-copy for CPU arrays)."""
    return _np.asarray(x) if x.device.kind == "cpu" else x.get()


def _sum_dtype(dt):
    """numpy.sum's default result dtype for dt: small integers and bool widen to 64 bits."""
    dt = _np.dtype(dt)
    if dt.kind == "b" or (dt.kind == "i" and dt.itemsize < 8):
        return _np.dtype(_np.int64)
    if dt.kind == "u" and dt.itemsize < 8:
        return _np.dtype(_np.uint64)
    return dt


def _sum_last(x, dtype=None):
    """x summed over its last axis (in x's dtype, or dtype), as x @ ones."""
    if dtype is not None and x.dtype != dtype:
        x = x.astype(dtype)
    ones = _core.ones((x.shape[-1],), dtype=x.dtype, device=x.device)
    return _core.matmul(x, ones)


def _normalize_axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    if not isinstance(axis, tuple):
        axis = (axis,)
    out = []
    for ax in axis:
        ax = _operator.index(ax)
        if not -ndim <= ax < ndim:
            raise _np.exceptions.AxisError(ax, ndim)
        out.append(ax % ndim)
    if len(set(out)) != len(out):
        raise ValueError("duplicate value in 'axis'")
    return tuple(out)


def _sum(x, axis=None, keepdims=False, dtype=None):
    """x summed over the given axes in x's dtype (as a contraction keeps it; bool: any), or
    dtype (pygpu's reduction)."""
    return _core.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype if dtype is None else dtype)


def _reduce(name, x, axis=None, keepdims=False, initial=None):
    """pygpu.<name> (max, min, any) over axes, on x's device; `initial` (max, min) only matters
    for empty x."""
    kwargs = {} if initial is None else {"initial": initial}
    return getattr(_core, name)(x, axis=axis, keepdims=keepdims, **kwargs)


def _check_out(out, res, name):
    """Writes res into out (NumPy's dot/outer `out=`: exact dtype and shape, C-contiguous)."""
    if out is None:
        return res
    if (not isinstance(out, _ndarray) or out.dtype != res.dtype or out.ndim != res.ndim
            or not out.flags["C_CONTIGUOUS"] or not out.flags["WRITEABLE"]):
        raise ValueError("output array is not acceptable (must have the right datatype, number of dimensions, "
                         "and be a C-Array)")
    if out.shape != res.shape:
        raise ValueError("output array has wrong dimensions")
    out[...] = res
    return out


def _into(out, res):
    """res written into out (out= of numpy's gufuncs and trace), or res."""
    if out is None:
        return res
    out[...] = res
    return out


def _shape_str(shape):
    return "(" + ",".join(str(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


# ------------------------------------------------------------------ products

def matmul(x1, x2, /, out=None, *, casting="same_kind", order="K", dtype=None, subok=True, axes=None, axis=None):
    """numpy.matmul (also x1 @ x2); axes=[(i1, j1), (i2, j2), (io, jo)] names the matrix axes of
    the operands and the result (one axis for a 1-d operand), as NumPy's gufunc axes."""
    if axis is not None:
        if axes is not None:
            raise TypeError("cannot specify both 'axis' and 'axes'")
        raise TypeError("matmul: axis can only be used with a single shared core dimension, not with the 3 "
                        "distinct ones implied by signature (n?,k),(k,m?)->(n?,m?).")
    if axes is None:
        return _core.matmul(x1, x2, out=out, casting=casting, order=order, dtype=dtype, subok=subok)
    if not isinstance(axes, list):
        raise TypeError("axes should be a list.")
    if len(axes) != 3:
        raise ValueError("axes should be a list with an entry for all 3 inputs and outputs; entries for outputs "
                         "can only be omitted if none of them has core axes.")
    a, b = _arrays(x1, x2)
    if a.ndim == 0 or b.ndim == 0:   # NumPy's error for scalars, from the plain call
        return _core.matmul(a, b)
    # each operand's matrix axes moved last: the plain matmul, then the result's moved into place
    a = _core.moveaxis(a, _gufunc_core_axes(axes[0], min(a.ndim, 2), a.ndim, 0), (-2, -1)[2 - min(a.ndim, 2):])
    b = _core.moveaxis(b, _gufunc_core_axes(axes[1], min(b.ndim, 2), b.ndim, 1), (-2, -1)[2 - min(b.ndim, 2):])
    nout = (a.ndim > 1) + (b.ndim > 1)
    last = (-2, -1)[2 - nout:]
    if out is not None:
        view = _core.moveaxis(out, _gufunc_core_axes(axes[2], nout, out.ndim, 2), last)
        _core.matmul(a, b, out=view, casting=casting, order=order, dtype=dtype, subok=subok)
        return out
    res = _core.matmul(a, b, casting=casting, order=order, dtype=dtype, subok=subok)
    return _core.moveaxis(res, last, _gufunc_core_axes(axes[2], nout, res.ndim, 2))


def _gufunc_core_axes(entry, ncore, ndim, i):
    """Operand i's core axes from its entry of a gufunc's axes= (an int for one), NumPy's checks."""
    entry = (entry,) if isinstance(entry, (int, _np.integer)) else tuple(entry)
    if len(entry) != ncore:
        raise _np.exceptions.AxisError(f"matmul: operand {i} has {ncore} core dimensions, but {len(entry)} "
                                       "dimensions are specified by axes tuple.")
    core = tuple(_np.lib.array_utils.normalize_axis_index(_operator.index(ax), ndim) for ax in entry)
    if len(set(core)) != len(core):
        raise ValueError(f"axes item {i} has value {entry[1]} repeated")
    return core


def _is_0d(x):
    return not isinstance(x, (_ndarray, _np.ndarray, list, tuple)) or getattr(x, "ndim", 1) == 0


def dot(a, b, out=None):
    """numpy.dot: the product of 1-d and 2-d arrays; for N-d, a sum product over the last axis of
    a and the second-to-last of b."""
    if _is_0d(a) or _is_0d(b):
        a, b = _arrays(a, b)   # NumPy converts Python scalars to arrays: int64/float64, not weak
        return _check_out(out, _core.multiply(a, b), "dot")
    a, b = _arrays(a, b)
    kb = b.shape[-2] if b.ndim >= 2 else b.shape[0]
    if a.shape[-1] != kb:
        raise ValueError(f"shapes {_shape_str(a.shape)} and {_shape_str(b.shape)} not aligned: "
                         f"{a.shape[-1]} (dim {a.ndim - 1}) != {kb} (dim {max(b.ndim - 2, 0)})")
    if b.ndim <= 2 and a.ndim <= 2 or b.ndim == 1:
        res = _core.matmul(a, b)
    else:
        # a (..., k) and b (..., k, m): one 2-d product of a's rows with b's k x (rest) matrix
        # explicit sizes, not -1: a zero-length k makes -1 ambiguous
        rows, cols = _math.prod(a.shape[:-1]), _math.prod(b.shape[:-2] + b.shape[-1:])
        bt = _core.moveaxis(b, -2, 0).reshape(kb, cols)
        res = _core.matmul(a.reshape(rows, kb), bt).reshape(a.shape[:-1] + b.shape[:-2] + b.shape[-1:])
    return _check_out(out, res, "dot")


def vdot(a, b, /):
    """numpy.vdot: the dot product of the flattened arrays, the first conjugated."""
    a, b = _arrays(a, b)
    if a.size != b.size:
        raise ValueError(f"cannot reshape array of size {b.size} into shape ({a.size},)")
    dt = _np.result_type(a.dtype, b.dtype)
    a = a.reshape(-1).astype(dt, copy=False)
    b = b.reshape(-1).astype(dt, copy=False)
    return _core._matmul(a, b, dt.kind == "c")


def inner(a, b, /):
    """numpy.inner: sum products over the last axes."""
    if _is_0d(a) or _is_0d(b):
        a, b = _arrays(a, b)   # NumPy converts Python scalars to arrays: int64/float64, not weak
        return _core.multiply(a, b)
    a, b = _arrays(a, b)
    if a.shape[-1] != b.shape[-1]:
        bshape = b.shape[:-2] + b.shape[-1:] + b.shape[-2:-1] if b.ndim >= 2 else b.shape
        raise ValueError(f"shapes {_shape_str(a.shape)} and {_shape_str(bshape)} not aligned: "
                         f"{a.shape[-1]} (dim {a.ndim - 1}) != {b.shape[-1]} (dim {max(b.ndim - 2, 0)})")
    return tensordot(a, b, axes=([-1], [-1]))


def outer(a, b, out=None):
    """numpy.outer: out[i, j] = a.ravel()[i] * b.ravel()[j]."""
    a, b = _arrays(a, b)
    res = _core.multiply(a.reshape(-1, 1), b.reshape(1, -1))
    return into(out, res, "multiply")   # NumPy's outer is multiply's: out= cast same_kind


def tensordot(a, b, axes=2):
    """numpy.tensordot: sum products over the given axes, as one 2-d matrix product."""
    a, b = _arrays(a, b)
    try:
        iter(axes)
    except Exception:
        axes_a = list(range(-axes, 0))
        axes_b = list(range(0, axes))
    else:
        axes_a, axes_b = axes
    try:
        na = len(axes_a)
        axes_a = list(axes_a)
    except TypeError:
        axes_a = [axes_a]
        na = 1
    try:
        nb = len(axes_b)
        axes_b = list(axes_b)
    except TypeError:
        axes_b = [axes_b]
        nb = 1
    as_, nda = a.shape, a.ndim
    bs, ndb = b.shape, b.ndim
    equal = na == nb
    if equal:
        for k in range(na):
            if as_[axes_a[k]] != bs[axes_b[k]]:
                equal = False
                break
            if axes_a[k] < 0:
                axes_a[k] += nda
            if axes_b[k] < 0:
                axes_b[k] += ndb
    if not equal:
        raise ValueError("shape-mismatch for sum")
    notin_a = [k for k in range(nda) if k not in axes_a]
    notin_b = [k for k in range(ndb) if k not in axes_b]
    n2 = 1
    for ax in axes_a:
        n2 *= as_[ax]
    m1 = 1
    for ax in notin_a:
        m1 *= as_[ax]
    m2 = 1
    for ax in notin_b:
        m2 *= bs[ax]
    at = _core.transpose(a, notin_a + axes_a).reshape(m1, n2)
    bt = _core.transpose(b, axes_b + notin_b).reshape(n2, m2)
    res = _core.matmul(at, bt)
    return res.reshape(tuple(as_[ax] for ax in notin_a) + tuple(bs[ax] for ax in notin_b))


def kron(a, b):
    """numpy.kron: the Kronecker product, as one broadcast multiply of interleaved axes."""
    if _is_0d(a) or _is_0d(b):
        a, b = _arrays(a, b)
        return _core.multiply(a, b)
    a, b = _arrays(a, b)
    nd = max(a.ndim, b.ndim)
    as_ = (1,) * (nd - a.ndim) + a.shape
    bs = (1,) * (nd - b.ndim) + b.shape
    a_i = a.reshape(tuple(x for s in as_ for x in (s, 1)))
    b_i = b.reshape(tuple(x for s in bs for x in (1, s)))
    return _core.multiply(a_i, b_i).reshape(tuple(x * y for x, y in zip(as_, bs)))


def _gufunc_core_error(name, signature, operand, dim, have, want):
    return ValueError(f"{name}: Input operand {operand} has a mismatch in its core dimension {dim}, with gufunc "
                      f"signature {signature} (size {have} is different from {want})")


def vecdot(x1, x2, /, out=None, *, axis=-1, **kwargs):
    """numpy.vecdot: sum(conj(x1) * x2) over `axis`, batch dimensions broadcast."""
    x1, x2 = _arrays(x1, x2)
    for i, x in enumerate((x1, x2)):
        if x.ndim == 0:
            raise ValueError(f"vecdot: Input operand {i} does not have enough dimensions (has 0, gufunc core with "
                             "signature (n),(n)->() requires 1)")
    a = _core.moveaxis(x1, axis, -1)
    b = _core.moveaxis(x2, axis, -1)
    if a.shape[-1] != b.shape[-1]:
        raise _gufunc_core_error("vecdot", "(n),(n)->()", 1, 0, b.shape[-1], a.shape[-1])
    dt = _np.result_type(a.dtype, b.dtype) if kwargs.get("dtype") is None else _np.dtype(kwargs["dtype"])
    a = a.astype(dt, copy=False)[..., None, :]
    b = b.astype(dt, copy=False)[..., :, None]
    return into(out, _core._matmul(a, b, dt.kind == "c")[..., 0, 0], "vecdot")


def matvec(x1, x2, /, out=None, **kwargs):
    """numpy.matvec: x1 (..., m, n) times the vectors x2 (..., n), batch dimensions broadcast."""
    x1, x2 = _arrays(x1, x2)
    if x1.ndim < 2 or x2.ndim < 1:
        i, have, need = (0, x1.ndim, 2) if x1.ndim < 2 else (1, x2.ndim, 1)
        raise ValueError(f"matvec: Input operand {i} does not have enough dimensions (has {have}, gufunc core with "
                         f"signature (m,n),(n)->(m) requires {need})")
    if x1.shape[-1] != x2.shape[-1]:
        raise _gufunc_core_error("matvec", "(m,n),(n)->(m)", 1, 0, x2.shape[-1], x1.shape[-1])
    if isinstance(out, tuple):
        (out,) = out
    res = _core.matmul(x1, x2[..., None], out=None if out is None else out[..., None], **kwargs)[..., 0]
    return res if out is None else out


def vecmat(x1, x2, /, out=None, **kwargs):
    """numpy.vecmat: the conjugated vectors x1 (..., n) times x2 (..., n, m), batch dimensions broadcast."""
    x1, x2 = _arrays(x1, x2)
    if x1.ndim < 1 or x2.ndim < 2:
        i, have, need = (0, x1.ndim, 1) if x1.ndim < 1 else (1, x2.ndim, 2)
        raise ValueError(f"vecmat: Input operand {i} does not have enough dimensions (has {have}, gufunc core with "
                         f"signature (n),(n,m)->(m) requires {need})")
    if x1.shape[-1] != x2.shape[-2]:
        raise _gufunc_core_error("vecmat", "(n),(n,m)->(m)", 1, 0, x2.shape[-2], x1.shape[-1])
    dt = _np.result_type(x1.dtype, x2.dtype) if kwargs.get("dtype") is None else _np.dtype(kwargs["dtype"])
    res = _core._matmul(x1.astype(dt, copy=False)[..., None, :], x2.astype(dt, copy=False), dt.kind == "c")
    return into(out, res[..., 0, :], "vecmat")


# ------------------------------------------------------------------ traces, cross products

def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """numpy.trace: the sum along diagonals."""
    d = _core.diagonal(a, offset, axis1, axis2)
    dt = _sum_dtype(d.dtype) if dtype is None else _np.dtype(dtype)
    # a sum, not _sum_last's product with ones: (inf + 0j) * (1 + 0j) has a NaN imaginary part
    return _into(out, _core.sum(d.astype(dt, copy=False), axis=-1, dtype=dt))


# the NumPy installed decides, as for every other behaviour pygpu mirrors
_CROSS_ONLY_3D = _np.lib.NumpyVersion(_np.__version__) >= "2.5.0"


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """numpy.cross: the cross product of (arrays of) 2- or 3-element vectors."""
    a, b = _arrays(a, b)
    if axis is not None:
        axisa, axisb, axisc = (axis,) * 3
    a = _core.moveaxis(a, _normalize_axes(axisa, a.ndim)[0] if a.ndim else axisa, -1)
    b = _core.moveaxis(b, _normalize_axes(axisb, b.ndim)[0] if b.ndim else axisb, -1)
    if _CROSS_ONLY_3D:  # NumPy 2.5 ended the deprecation of 2-element vectors
        if a.shape[-1] != 3 or b.shape[-1] != 3:
            raise ValueError("Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                             f"{a.shape[-1]} and {b.shape[-1]} dimensional instead.")
    elif a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        _warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                       "instead. (deprecated in NumPy 2.0)", DeprecationWarning, stacklevel=2)
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return _core.subtract(_core.multiply(a0, b1), _core.multiply(a1, b0))
    shape = _np.broadcast_shapes(a.shape[:-1], b.shape[:-1])
    dt = _np.result_type(a.dtype, b.dtype)
    res = _core.empty(shape + (3,), dtype=dt, device=a.device)
    if a.shape[-1] == 3 and b.shape[-1] == 3:
        a2, b2 = a[..., 2], b[..., 2]
        res[..., 0] = a1 * b2 - a2 * b1
        res[..., 1] = a2 * b0 - a0 * b2
        res[..., 2] = a0 * b1 - a1 * b0
    elif a.shape[-1] == 2:
        b2 = b[..., 2]
        res[..., 0] = a1 * b2
        res[..., 1] = -(a0 * b2)
        res[..., 2] = a0 * b1 - a1 * b0
    else:
        a2 = a[..., 2]
        res[..., 0] = -(a2 * b1)
        res[..., 1] = a2 * b0
        res[..., 2] = a0 * b1 - a1 * b0
    return _core.moveaxis(res, -1, axisc)
