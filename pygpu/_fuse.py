"""pygpu.fuse (CuPy's name; JAX's jit for this case): a function of arrays made of elementwise
operations, where and scalars, traced once per combination of argument dtypes into one VM program
(pygpu/_compiler/trace.py with NumPy's typing rules), then run as one pass over the data with no
temporaries: a hidden pygpu.ufunc whose one loop is the program. A final reduction (sum, prod,
max, min, mean) runs in the same pass: the program is the map of the reduction kernels
(csrc/kernels/vm_reduce.h), each element made and combined where it is loaded."""
import functools

import numpy as np

from . import _core
from ._compiler import ir, vm
from ._compiler import types as T
from ._compiler.trace import TraceContext, Tracer
from ._vreduce import op_combiner, reduce_program

_REDUCTIONS = ("sum", "prod", "max", "min", "mean", "amax", "amin")


class _Reduced:
    """What a fused function returns when it ends with a reduction: the value reduced, how."""

    def __init__(self, value, name, axis, keepdims):
        self.value = value
        self.name = name
        self.axis = axis
        self.keepdims = keepdims


class _FuseTracer(Tracer):
    """A traced array of fuse: Tracer, plus the final reductions as methods, and NumPy's in-place
    operators (an argument's raise: the program makes one new array and writes no argument)."""

    argument = False   # True for the tracers of the function's arguments

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


_INPLACE_UFUNCS = {"+": "add", "-": "subtract", "*": "multiply", "/": "divide", "//": "floor_divide",
                   "%": "remainder", "**": "power", "<<": "left_shift", ">>": "right_shift", "&": "bitwise_and",
                   "|": "bitwise_or", "^": "bitwise_xor"}


def _output_casting_error(name, got, own):
    """NumPy's error (a TypeError) for an in-place ufunc whose result does not cast back."""
    try:
        from numpy._core._exceptions import _UFuncOutputCastingError
        return _UFuncOutputCastingError(getattr(np, name), "same_kind", got, own, 0)
    except (ImportError, TypeError):
        return TypeError(f"Cannot cast ufunc {name!r} output from {got!r} to {own!r} with casting rule 'same_kind'")


def _inplace_method(sym):
    def method(self, other):
        if self.argument:
            # rebinding the name would leave the caller's array unchanged: NumPy (and CuPy's
            # fuse) write into it
            raise self.ctx.error(f"in-place {sym}= on an argument of fuse: the fused function cannot write into its "
                                 f"arguments; return the new value (x = x {sym} y ... return x)")
        result = self.ctx.binary(sym, self, other)
        own = self.operand
        if not isinstance(own, np.dtype):
            return result   # a Python scalar is rebound, as Python does
        got = result.operand if isinstance(result.operand, np.dtype) else result.expr.type
        if got != own:
            # NumPy's in-place ufunc keeps the array's dtype: the result casts back, same_kind
            if not np.can_cast(got, own, "same_kind"):
                raise _output_casting_error(_INPLACE_UFUNCS[sym], np.dtype(got), own)
            result = result.astype(own)
        return result
    return method


for _sym, _name in (("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "truediv"), ("//", "floordiv"), ("%", "mod"),
                    ("**", "pow"), ("<<", "lshift"), (">>", "rshift"), ("&", "and"), ("|", "or"), ("^", "xor")):
    setattr(_FuseTracer, f"__i{_name}__", _inplace_method(_sym))


def _describe(value):
    """The key part of one argument: a dtype (arrays, NumPy scalars) or a Python scalar type."""
    if isinstance(value, _core.ndarray):
        return value.dtype
    if isinstance(value, (np.ndarray, np.generic)):   # before float: numpy.float64 is a float too
        t = value.dtype
        if t in T.NUMBER:
            return t
    elif isinstance(value, (bool, int, float, complex)):
        return bool if isinstance(value, bool) else type(value)
    raise TypeError(f"fuse: unsupported argument of type {type(value).__name__} (arrays and numbers only)")


class Fused:
    """A fused function: call it like the original with arrays and numbers."""

    def __init__(self, func, name=None):
        self.func = func
        self.name = name or getattr(func, "__name__", "fused")
        self.cache = {}
        self.checks = {}   # key -> _Checks
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
            tracers[-1].argument = isinstance(k, np.dtype)
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
        if reduction is not None:
            reduction = _Plan(*reduction, np.dtype(out_dtype))
        self.checks[key] = _Checks(params, key)
        self.checks[key].scan(result.expr)
        return uf, reduction

    def __call__(self, *args):
        if not args:
            raise TypeError(f"{self.name}() takes arrays and numbers")
        key = tuple(_describe(a) for a in args)
        entry = self.cache.get(key)
        if entry is None:
            entry = self.cache[key] = self._compile(key)
        uf, plan = entry
        args = self.checks[key].run(args)
        if plan is None:
            return uf(*args)
        return plan.run(uf._programs[0][1], args)


class _Checks:
    """NumPy's errors that depend on the values of the arguments, found in the traced program: a
    Python int argument read as a narrower integer type (NEP 50: OverflowError where it does not
    fit, as NumPy's int8_array + 300), and an integer argument used as an integer power's exponent
    (ValueError for a negative one). An exponent computed in the function is not checked."""

    def __init__(self, params, key):
        self.index = {p: i for i, p in enumerate(params)}
        self.key = key
        self.fits = {}        # argument index -> integer dtypes its Python int must fit
        self.exponents = set()

    def _param(self, e):
        """The index of the argument e loads (through a cast), or None."""
        if isinstance(e, ir.Cast):
            e = e.value
        return self.index.get(e.var) if isinstance(e, ir.Load) else None

    def scan(self, e):
        if isinstance(e, ir.Cast) and T.is_int(e.type) and e.type != T.INT64:
            i = self._param(e)
            if i is not None and self.key[i] is int:
                self.fits.setdefault(i, set()).add(e.type)
        if isinstance(e, ir.Op) and e.op == "power" and T.is_int(e.args[1].type):
            i = self._param(e.args[1])
            if i is not None and (self.key[i] is int or (isinstance(self.key[i], np.dtype) and self.key[i].kind == "i")):
                self.exponents.add(i)
        for c in ir.children(e):
            self.scan(c)

    def run(self, args):
        """args checked, Python ints as NumPy int64 scalars (the program reads each as NumPy would;
        a Python int would meet the ufunc's own check against the arrays' dtypes)."""
        out = list(args)
        for i, a in enumerate(args):
            if type(a) is not int:
                continue
            for t in self.fits.get(i, ()):
                info = np.iinfo(t)
                if not info.min <= a <= info.max:
                    raise OverflowError(f"Python integer {a} out of bounds for {t}")
            if -2 ** 63 <= a < 2 ** 63:
                out[i] = np.int64(a)
        for i in self.exponents:
            a = args[i]
            negative = a < 0 if isinstance(a, (int, np.generic)) else \
                bool((a < 0).any()) if a.size else False
            if negative:
                raise ValueError("Integers to negative integer powers are not allowed.")
        return out


class _Plan:
    """A fused function's final reduction: NumPy's result dtype for the elementwise result's
    dtype, the accumulator's dtype and the op combining two of them."""

    def __init__(self, name, axis, keepdims, elem):
        self.name, self.axis, self.keepdims = name, axis, keepdims
        small_int = elem.kind == "b" or (elem.kind in "iu" and elem.itemsize < 8)
        if name in ("sum", "prod"):
            self.result = (np.dtype(np.uint64) if elem.kind == "u" else np.dtype(np.int64)) if small_int else elem
            self.op, self.identity = ("add", 0) if name == "sum" else ("multiply", 1)
        elif name == "mean":
            self.result = np.dtype(np.float64) if elem.kind in "biu" else elem
            self.op, self.identity = "add", 0
        else:
            self.result = elem
            self.op, self.identity = ("maximum", None) if name == "max" else ("minimum", None)
        self.acc = np.dtype(np.float32) if self.result == np.float16 else self.result

    def run(self, program, args):
        device = next((a.device for a in args if isinstance(a, _core.ndarray)), None)
        inputs = []
        for a in args:
            if isinstance(a, np.ndarray):
                a = _core.asarray(a, device=device)
                device = a.device
            elif isinstance(a, np.generic):
                a = a.item()
            inputs.append(a)
        if device is None:  # numbers only: the elementwise result is 0-d, on the default device
            inputs[0] = _core.asarray(inputs[0])
        # float sums start from +0.0, as NumPy's (a sum of -0.0s is 0.0)
        initial = 0.0 if self.op == "add" and self.acc.kind in "fc" else None
        res = reduce_program(tuple(inputs), op_combiner(self.op, self.acc), program, self.axis, self.keepdims,
                             self.acc, None, initial, self.identity, self.op, True)
        if self.name == "mean":
            shape = np.broadcast_shapes(*(a.shape for a in inputs if isinstance(a, _core.ndarray)))
            axes = range(len(shape)) if self.axis is None else \
                [self.axis] if not isinstance(self.axis, tuple) else self.axis
            count = 1
            for i in axes:
                count *= shape[i]
            res = _core.true_divide(res, count) if count else _core.true_divide(res, 0.0)
        return res if res.dtype == self.result else res.astype(self.result)


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

