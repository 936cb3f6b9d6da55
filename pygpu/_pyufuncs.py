"""NumPy's ufunc interface (nin, nout, nargs, identity, types, signature; reduce, accumulate,
outer, at, reduceat) for the NumPy ufuncs pygpu computes in Python rather than with its op table:
divmod, modf, frexp, gcd, lcm, float_power, spacing, and matmul (a C function of its own, with
axes= in _products).

They are not pygpu.ufunc instances (that type is C's and takes no subclasses), but they answer
as NumPy's ufuncs do: np.gcd.reduce, np.divmod.nout and np.float_power.outer work, and what NumPy
refuses (divmod.reduce, matmul.outer) raises NumPy's error. gcd and lcm reduce and accumulate in
one pass with the compiled Euclid loop as the combiner (both are associative and commutative);
float_power, which is neither, folds along the axis in order, one power per step, as NumPy does."""
import functools
import operator

import numpy as _np

from . import _core
from . import _numeric
from . import _products
from ._compiler.composed import gcd_of, lcm_of

__all__ = ["divmod", "modf", "frexp", "gcd", "lcm", "float_power", "spacing", "matmul"]

_PYGPU_TYPECODES = set("?bBhHiIlLqQefdFD")
# the ufuncs whose .at pygpu has (csrc/math/ufunc_reduce.c): the same refusal for the others
_AT_METHODS = ("add, multiply, maximum, minimum, fmax, fmin, logical_and, logical_or, logical_xor, bitwise_and, "
               "bitwise_or and bitwise_xor")


class PythonUfunc:
    """A NumPy ufunc pygpu computes in Python: calls go to `function`; the ufunc's attributes
    are NumPy's (its loops pygpu has dtypes for) and its methods NumPy's where pygpu can do them."""

    def __init__(self, function, numpy_ufunc, reducer=None):
        functools.update_wrapper(self, function)
        self._function = function
        self._numpy = numpy_ufunc
        self._reducer = reducer   # None: reduce/accumulate refused as NumPy refuses them
        self.__name__ = numpy_ufunc.__name__
        self.nin, self.nout, self.nargs = numpy_ufunc.nin, numpy_ufunc.nout, numpy_ufunc.nargs
        self.identity, self.signature = numpy_ufunc.identity, numpy_ufunc.signature
        self.types = [t for t in numpy_ufunc.types if set(t) - {"-", ">"} <= _PYGPU_TYPECODES]
        self.ntypes = len(self.types)

    def __call__(self, *args, **kwargs):
        return self._function(*args, **kwargs)

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def _only_elementwise(self, method):
        if self.signature is not None:   # NumPy's errors for matmul
            if method in ("reduce", "accumulate", "reduceat"):
                raise RuntimeError("Reduction not defined on ufunc with signature")
            if method == "outer":
                raise TypeError("method outer is not allowed in ufunc with non-trivial signature")
            raise TypeError(f"{self.__name__}.{method} does not support ufunc with non-trivial signature: "
                            f"{self.__name__} has signature {self.signature}.")

    def _reducible(self, method):
        self._only_elementwise(method)
        if self.nin != 2:
            raise ValueError(f"{method} only supported for binary functions")
        if self.nout != 1:
            raise ValueError(f"{method} only supported for functions returning a single value")

    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=None, where=True):
        """The reduction of array along axis (NumPy's ufunc.reduce)."""
        self._reducible("reduce")
        return self._reducer.reduce(self, _core.asarray(array), axis, dtype, out, keepdims, initial, where)

    def accumulate(self, array, axis=0, dtype=None, out=None):
        """The running reduction along axis (NumPy's ufunc.accumulate)."""
        self._reducible("accumulate")
        return self._reducer.accumulate(self, _core.asarray(array), axis, dtype, out)

    def outer(self, A, B, /, **kwargs):
        """The function of every pair (a, b), a from A and b from B: shape A.shape + B.shape."""
        self._only_elementwise("outer")
        if self.nin != 2:
            raise ValueError("outer product only supported for binary functions")
        a, b = _core.asarray(A), _core.asarray(B)
        return self(a.reshape(a.shape + (1,) * b.ndim), b, **kwargs)

    def at(self, a, indices, b=None, /):
        self._only_elementwise("at")
        raise TypeError(f"pygpu's {self.__name__}.at is not supported: at is provided for {_AT_METHODS}")

    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        self._reducible("reduceat")
        raise TypeError(f"pygpu's {self.__name__}.reduceat is not supported: reduce each segment instead")


def _one_axis(name, axis, ndim):
    """The one axis a reduction that is not reorderable takes (NumPy's error for more)."""
    if axis is None or isinstance(axis, tuple):
        axes = tuple(range(ndim)) if axis is None else axis
        if len(axes) > 1:
            raise ValueError(f"reduction operation '{name}' is not reorderable, so at most one axis may be specified")
        if not axes:
            return None
        axis = axes[0]
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _finish(r, axis, keepdims, out):
    if keepdims and axis is not None:
        r = _core.expand_dims(r, axis)
    if out is not None:
        out = out[0] if isinstance(out, tuple) else out
        out[...] = r
        return out
    return r


def _no_identity_where(name, where, initial):
    if not (where is True) and initial is None:
        raise ValueError(f"reduction operation '{name}' does not have an identity, so to use a where mask one "
                         "has to specify 'initial'")


class _Euclid:
    """gcd and lcm: associative and commutative, reduced by the compiled function as combiner."""

    def __init__(self, function):
        self.function = function

    def _loop(self, uf, a, dtype):
        # NumPy's loop for the array (its error for bools and floats), or for dtype when given
        if dtype is None:
            dt = uf._numpy.resolve_dtypes((None, a.dtype, None), reduction=True)[-1]
        else:
            dt = uf._numpy.resolve_dtypes((_np.dtype(dtype),) * 2 + (None,))[-1]
        return _numeric._compiled(self.function, dt), dt

    def reduce(self, uf, a, axis, dtype, out, keepdims, initial, where):
        from ._vreduce import combiner, reduce_program
        compiled, dt = self._loop(uf, a, dtype)
        if a.ndim == 0:
            axis = ()
        elif uf.identity is None:   # lcm: one axis, where= only with initial
            axis = _one_axis(uf.__name__, axis, a.ndim)
            _no_identity_where(uf.__name__, where, initial)
        a = a.astype(dt, copy=False)
        if not (where is True):   # masked elements as the neutral element (gcd's 0, lcm's 1)
            a = _core.where(where, a, 0 if uf.identity == 0 else 1)
        if initial is None and uf.identity is not None:
            initial = uf.identity   # NumPy starts from the identity: gcd.reduce([-3]) is 3
        comb, rt = combiner(compiled, dt)
        if isinstance(out, tuple):
            out = out[0]
        return reduce_program((a,), comb, None, axis, keepdims, rt, out, initial, uf.identity, uf.__name__,
                              commutes=True)

    def accumulate(self, uf, a, axis, dtype, out):
        from ._vreduce import vaccumulate
        compiled, dt = self._loop(uf, a, dtype)
        return vaccumulate(compiled, a.astype(dt, copy=False), axis, dt, out)


class _Fold:
    """float_power: neither associative nor commutative, so combined in order along one axis."""

    @staticmethod
    def _wide(uf, a, dtype):
        wide = _np.dtype(_np.complex128 if _np.issubdtype(a.dtype, _np.complexfloating) else _np.float64)
        if dtype is not None:
            if _np.dtype(dtype) not in (_np.dtype(_np.float64), _np.dtype(_np.complex128)):
                raise TypeError(f"No loop matching the specified signature and casting was found for ufunc "
                                f"{uf.__name__}")
            wide = _np.dtype(dtype)
        return a.astype(wide, copy=False)

    def reduce(self, uf, a, axis, dtype, out, keepdims, initial, where):
        a = self._wide(uf, a, dtype)
        if a.ndim == 0:
            return _finish(a.copy() if initial is None else uf(initial, a), None, False, out)
        axis = _one_axis(uf.__name__, axis, a.ndim)
        _no_identity_where(uf.__name__, where, initial)
        if axis is None:
            return _finish(a.copy(), None, False, out)
        moved = _core.moveaxis(a, axis, 0)
        mask = None if where is True else _core.moveaxis(_core.broadcast_to(_core.asarray(where), a.shape), axis, 0)
        if moved.shape[0] == 0 and initial is None:
            raise ValueError(f"zero-size array to reduction operation {uf.__name__} which has no identity")
        if initial is None:
            r, start = moved[0].copy(), 1
        else:
            r, start = _core.full(moved.shape[1:], initial, dtype=a.dtype, device=a.device), 0
        for i in range(start, moved.shape[0]):
            step = uf(r, moved[i])
            r = step if mask is None else _core.where(mask[i], step, r)
        return _finish(r, axis, keepdims, out)

    def accumulate(self, uf, a, axis, dtype, out):
        a = self._wide(uf, a, dtype)
        if a.ndim == 0:
            raise ValueError("accumulate: a 0-d array has no axis to accumulate along")
        axis = _one_axis(uf.__name__, axis, a.ndim)
        moved = _core.moveaxis(a, axis, 0)
        steps = []
        for i in range(moved.shape[0]):
            steps.append(moved[0].copy() if i == 0 else uf(steps[-1], moved[i]))
        r = _core.moveaxis(_core.stack(steps), 0, axis) if steps else a.copy()
        return _finish(r, None, False, out)


divmod = PythonUfunc(_numeric.divmod, _np.divmod)
modf = PythonUfunc(_numeric.modf, _np.modf)
frexp = PythonUfunc(_numeric.frexp, _np.frexp)
gcd = PythonUfunc(_numeric.gcd, _np.gcd, _Euclid(gcd_of))
lcm = PythonUfunc(_numeric.lcm, _np.lcm, _Euclid(lcm_of))
float_power = PythonUfunc(_numeric.float_power, _np.float_power, _Fold())
spacing = PythonUfunc(_numeric.spacing, _np.spacing)
matmul = PythonUfunc(_products.matmul, _np.matmul)

