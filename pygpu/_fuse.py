"""pygpu.fuse (CuPy's name; JAX's jit for this case): a function of arrays made of elementwise
operations, where and scalars, traced once per combination of argument dtypes into one VM program
(pygpu/_compiler/trace.py with NumPy's typing rules), then run as one pass over the data with no
temporaries: a hidden pygpu.ufunc whose one loop is the program."""
import functools

import numpy as np

from . import _core
from ._compiler import ir, vm
from ._compiler import types as T
from ._compiler.trace import TraceContext, Tracer

_REDUCTIONS = ("sum", "prod", "max", "min", "mean", "amax", "amin")


class _Reduced:
    """What a fused function returns when it ends with a reduction: the value reduced, how."""

    def __init__(self, value, name, axis, keepdims):
        self.value = value
        self.name = name
        self.axis = axis
        self.keepdims = keepdims


class _FuseTracer(Tracer):
    """A traced array of fuse: Tracer, plus the final reductions as methods."""

    def _reduce(self, name, axis=None, dtype=None, out=None, keepdims=False):
        if dtype is not None or out is not None:
            raise self.ctx.error(f"{name}(dtype=, out=) of a traced array in fuse")
        return _Reduced(self, name, axis, keepdims)

    def sum(self, axis=None, dtype=None, out=None, keepdims=False):
        return self._reduce("sum", axis, dtype, out, keepdims)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False):
        return self._reduce("prod", axis, dtype, out, keepdims)

    def max(self, axis=None, out=None, keepdims=False):
        return self._reduce("max", axis, None, out, keepdims)

    def min(self, axis=None, out=None, keepdims=False):
        return self._reduce("min", axis, None, out, keepdims)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False):
        return self._reduce("mean", axis, dtype, out, keepdims)

    def __array_function__(self, func, types, args, kwargs):
        name = func.__name__
        if name in _REDUCTIONS and args and args[0] is self:
            name = {"amax": "max", "amin": "min"}.get(name, name)
            return getattr(self, name)(*args[1:], **kwargs)
        return super().__array_function__(func, types, args, kwargs)


def _describe(value):
    """The key part of one argument: a dtype (arrays, NumPy scalars) or a Python scalar type."""
    if isinstance(value, _core.ndarray):
        return value.dtype
    if isinstance(value, (bool, int, float, complex)):
        return bool if isinstance(value, bool) else type(value)
    if isinstance(value, (np.ndarray, np.generic)):
        t = value.dtype
        if t in T.NUMBER:
            return t
    raise TypeError(f"fuse: unsupported argument of type {type(value).__name__} (arrays and numbers only)")


class Fused:
    """A fused function: call it like the original with arrays and numbers."""

    def __init__(self, func, name=None):
        self.func = func
        self.name = name or getattr(func, "__name__", "fused")
        self.cache = {}
        functools.update_wrapper(self, func)

    def __repr__(self):
        return f"<pygpu.fuse {self.name}>"

    def _compile(self, key):
        ctx = TraceContext("numpy", "fuse", self.func, _FuseTracer)
        params, tracers, loop_types = [], [], []
        for i, k in enumerate(key):
            if isinstance(k, np.dtype):
                t, operand = T.compute_type(k), k
                loop_types.append(k)
            else:  # a Python scalar: weak in the expressions, its default dtype in the program
                t = {bool: T.BOOL, int: T.INT64, float: T.FLOAT64, complex: T.COMPLEX128}[k]
                operand = T.BOOL if k is bool else k
                loop_types.append(t)
            p = ir.Var(f"arg{i}", t)
            params.append(p)
            tracers.append(_FuseTracer(ctx, ir.Load(p), operand))
        result = self.func(*tracers)
        reduction = None
        if isinstance(result, _Reduced):
            reduction = (result.name, result.axis, result.keepdims)
            result = result.value
        if not isinstance(result, Tracer):
            raise ctx.error(f"{self.name}() must return an array computed from its arguments, "
                            f"not {type(result).__name__}")
        out_dtype = result.operand if isinstance(result.operand, np.dtype) else result.expr.type
        ret = result.expr.type
        fn = ir.Function(self.name, params, ret, [ir.Return(result.expr, ctx.line)], params, ctx.filename, ctx.line)
        uf = _core._program_ufunc(self.name, len(params))
        uf._add_loop(loop_types + [out_dtype], vm.emit(fn))
        return uf, reduction

    def __call__(self, *args):
        if not args:
            raise TypeError(f"{self.name}() takes arrays and numbers")
        key = tuple(_describe(a) for a in args)
        entry = self.cache.get(key)
        if entry is None:
            entry = self.cache[key] = self._compile(key)
        uf, reduction = entry
        value = uf(*args)
        if reduction is None:
            return value
        name, axis, keepdims = reduction
        if getattr(_core.ndarray, name, None) is None:
            raise NotImplementedError(f"fuse: the final {name}() needs pygpu's reductions, which this build lacks")
        return getattr(value, name)(axis=axis, keepdims=keepdims)


def fuse(*args, **kwargs):
    """Fuses a function of arrays made of elementwise operations (operators, pygpu's and NumPy's
    ufuncs, where, Python and NumPy scalars) and at most one final reduction (sum, prod, max,
    min, mean, with axis) into one kernel: no temporaries, one pass over the data::

        @pygpu.fuse
        def selu(x):
            return 1.0507 * pygpu.where(x > 0, x, 1.6733 * (pygpu.exp(x) - 1))

    Results have the dtypes the same code run on arrays gives (NumPy's rules, NEP 50 scalars).
    The function is traced once per combination of argument dtypes, so Python control flow may
    not depend on array values (use where). CuPy's fuse(kernel_name=...) is accepted."""
    kernel_name = kwargs.pop("kernel_name", None)
    if kwargs:
        raise TypeError(f"fuse() got unexpected keyword argument(s) {', '.join(map(repr, kwargs))}")
    if len(args) == 1 and callable(args[0]):
        return Fused(args[0], kernel_name)
    if args:
        raise TypeError("fuse() takes a function, or keyword arguments only")
    return lambda f: Fused(f, kernel_name)

