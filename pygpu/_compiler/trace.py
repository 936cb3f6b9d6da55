"""The tracer: a function is called with Tracer objects standing for its arguments, and what it
does with them (operators, NumPy's and pygpu's ufuncs through __array_ufunc__, np.where & co.
through __array_function__) is recorded as typed IR. It serves functions without Python source
(vectorize: straight-line code only) and pygpu.fuse (NumPy's typing rules, as the same code run
on arrays would give)."""
import numpy as np

from .. import _core
from . import ir, rules
from . import types as T
from .errors import compile_error

_UFUNC_ALIASES = {"true_divide": "divide", "where": "_where", "clip": "_clip"}


class TraceContext:
    """How traced operations are typed: rules 'numba' (vectorize) or 'numpy' (fuse)."""

    def __init__(self, rules_name, context, fn, tracer_class=None):
        self.rules = rules_name
        self.tracer_class = tracer_class or Tracer
        self.context = context
        self.fn = fn
        code = getattr(fn, "__code__", None)
        self.filename = code.co_filename if code else None
        self.line = code.co_firstlineno if code else None

    def error(self, message):
        return compile_error(message, self.filename, self.line)

    def lift(self, value):
        """(IR expression, operand for NumPy's type resolution) of a traced value or a number."""
        if isinstance(value, Tracer):
            return value.expr, value.operand
        t = T.python_type(value)
        if t is None and self.rules == "numpy" and type(value) is int:
            return ir.Const(value, T.INT64), int   # past 64 bits: only exact comparisons take it (rules.py)
        if t is None:
            raise self.error(f"a value of type {type(value).__name__} cannot be used in {self.context}")
        if isinstance(value, np.generic):
            return ir.Const(value.item(), T.compute_type(t)), T.compute_type(t)
        return ir.Const(value, T.compute_type(t)), (type(value) if not isinstance(value, bool) else T.BOOL)

    def wrap(self, expr, dtype=None):
        """A Tracer of expr; dtype: the dtype NumPy gives the value (float16 computed as float32).
        Under Numba's rules only a float16 is kept: NumPy's ufuncs take it as float16."""
        keep = dtype is not None and (self.rules == "numpy" or dtype == T.FLOAT16)
        return self.tracer_class(self, expr, dtype if keep else expr.type)

    _WEAK = {int: np.dtype(np.int64), float: np.dtype(np.float64), complex: np.dtype(np.complex128)}

    def numpy_typed(self, compute, operands, python_op):
        """compute(operands) -> (expr, dtype) under NumPy's rules. When every operand is a Python
        scalar (a weak argument of fuse, a literal), Python computes an operator (s + 1, -s, s < t,
        abs(s)) and its result stays a Python scalar, weak for what it meets next (NEP 50); a ufunc
        (np.sin(s), np.less(s, t)) gives a NumPy scalar, of the scalars' default dtypes."""
        if not (operands and all(o in self._WEAK for o in operands)):
            return self.wrap(*compute(operands))
        expr, dtype = compute([self._WEAK[o] for o in operands])
        weak = {"f": float, "i": int, "u": int, "c": complex}.get(np.dtype(dtype).kind) if python_op else None
        return self.tracer_class(self, expr, weak if weak is not None else dtype)

    def binary(self, sym, a, b):
        (ea, oa), (eb, ob) = self.lift(a), self.lift(b)
        try:
            if self.rules == "numpy":
                return self.numpy_typed(lambda ops: rules.numpy_binary(sym, ea, eb, ops), [oa, ob], True)
            if sym in rules.COMPARE_OPS:
                return self.wrap(rules.compare(sym, ea, eb))
            return self.wrap(rules.binary(sym, ea, eb))
        except rules.TypingError as e:
            raise self.error(f"{e} in {self.context}") from None

    def unary(self, sym, a):
        e, o = self.lift(a)
        try:
            if self.rules == "numpy":
                op = {"-": "negative", "+": "positive", "~": "invert"}[sym]
                if sym == "~" and T.is_bool(e.type):
                    op = "logical_not"
                return self.numpy_typed(lambda ops: rules.numpy_ufunc(op, [e], ops), [o], True)
            return self.wrap(rules.unary(sym, e))
        except rules.TypingError as err:
            raise self.error(f"{err} in {self.context}") from None

    def ufunc(self, op, inputs, python_op=False):
        if op == "spacing" and len(inputs) == 1:
            return self.spacing(inputs[0])
        lifted = [self.lift(x) for x in inputs]
        exprs, operands = [e for e, _ in lifted], [o for _, o in lifted]
        if op == "_where":
            cond = rules.truth(exprs[0])
            args = [x if isinstance(x, np.dtype) else x(0) for x in operands[1:]]
            dt = np.result_type(*args)
            t = T.compute_type(dt)
            for e, o in zip(exprs[1:], operands[1:]):   # NEP 50: an int literal must fit (np.where's check)
                if o is int and isinstance(e, ir.Const) and T.is_int(t) and \
                        not np.iinfo(t).min <= e.value <= np.iinfo(t).max:
                    raise OverflowError(f"Python integer {e.value} out of bounds for {dt}")
            return self.wrap(ir.Select(cond, rules.cast(exprs[1], t), rules.cast(exprs[2], t), t), dt)
        try:
            if self.rules != "numpy":
                return self.wrap(*rules.numpy_ufunc(op, exprs, operands))
            return self.numpy_typed(lambda ops: rules.numpy_ufunc(op, exprs, ops), operands, python_op)
        except rules.TypingError as e:
            raise self.error(f"{e} in {self.context}") from None

    def array(self, x):
        """x as a traced array: a weak Python scalar takes its default dtype (np.round(s) and
        np.spacing(s) give NumPy scalars)."""
        e, o = self.lift(x)
        return self.wrap(e, o if isinstance(o, np.dtype) else self._WEAK.get(o, T.BOOL))

    def part(self, a, which):
        e, o = self.lift(a)
        if not T.is_complex(e.type):
            return a if which == "real" else self.wrap(ir.Const(0, e.type), o if isinstance(o, np.dtype) else None)
        node = ir.Real if which == "real" else ir.Imag
        return self.wrap(node(e, T.real_of(e.type)))


    def spacing(self, x):
        """NumPy's spacing, as pygpu.spacing composes it (pygpu/_numeric.py _spacing): the step away
        from zero with x's sign; for float16 the gap's magnitude, the one below for negatives."""
        x = self.array(x)
        dt = np.spacing.resolve_dtypes((x.operand, None))[-1]
        if x.operand != dt:
            x = x.astype(dt)
        negative = x < 0   # not -0.0: its spacing is positive, as NumPy's
        if dt == T.FLOAT16:
            ax = abs(x)
            gap = np.where(negative, ax - np.nextafter(ax, 0), np.nextafter(ax, np.inf) - ax)
            return np.where(np.isinf(x), np.nan, gap)
        away = np.where(negative, dt.type(-np.inf), dt.type(np.inf))
        return np.nextafter(x, away) - x

    def round(self, x, decimals=0):
        """NumPy's round (PyArray_Round): integers unchanged, or for negative decimals divided by
        10**-decimals, rounded and multiplied back in float64, then cast back; floats rint(x * 10**d)
        / 10**d in their own dtype (10**d a weak Python float); complex numbers part by part."""
        if isinstance(decimals, Tracer) or type(decimals) is not int:
            raise self.error(f"np.round(x, decimals) takes a constant int decimals in {self.context}")
        x = self.array(x)
        t = x.operand
        if T.is_complex(t):
            re, im = (self.round(p, decimals).expr for p in (x.real, x.imag))
            return self.wrap(ir.MakeComplex(re, im, x.expr.type), t)
        if T.is_int(t):
            if decimals >= 0:
                return x
            f = 10.0 ** -decimals
            return (np.rint(x.astype(T.FLOAT64) / f) * f).astype(t)
        if decimals == 0:
            return np.rint(x)
        if decimals > 0:
            f = 10.0 ** decimals
            return np.rint(x * f) / f
        f = 10.0 ** -decimals
        return np.rint(x / f) * f

    def angle(self, z):
        """NumPy's angle: arctan2(z.imag, z.real), arctan2(0, z) for a real z (0 a weak Python int)."""
        e, o = self.lift(z)
        if T.is_complex(e.type):
            return self.ufunc("_angle", [z])
        return self.ufunc("arctan2", [0, z])


def _no_control_flow(what):
    def method(self, *args):
        raise self.ctx.error(
            f"{what} of a traced value: {self.ctx.fn.__name__}() has no Python source, so it is traced, and "
            f"traced code cannot branch on its arguments or convert them to Python numbers (math.* functions "
            f"do); define it in a file, or use NumPy's functions (np.sin, np.where)"
            if self.ctx.rules == "numba" else
            f"{what} of a traced array in {self.ctx.context}: the function is traced with its arguments' "
            f"dtypes, so Python control flow and conversions cannot depend on their values; use pygpu.where")
    return method


class Tracer:
    """A traced value: an IR expression, and how NumPy's type resolution sees it (its dtype, or
    a Python type for a weak Python scalar argument of fuse)."""
    __array_priority__ = 1000

    def __init__(self, ctx, expr, operand):
        self.ctx = ctx
        self.expr = expr
        self.operand = operand

    @property
    def dtype(self):
        return self.expr.type

    @property
    def real(self):
        return self.ctx.part(self, "real")

    @property
    def imag(self):
        return self.ctx.part(self, "imag")

    def conjugate(self):
        if not T.is_complex(self.expr.type):
            return self
        return self.ctx.wrap(ir.Op("conjugate", [self.expr], self.expr.type))

    conj = conjugate

    def astype(self, dtype):
        t = T.parse_type(dtype)
        if t is None:
            raise self.ctx.error(f"astype({dtype!r}): unsupported dtype")
        return self.ctx.wrap(rules.to_dtype(self.expr, t), t)

    def __array_ufunc__(self, uf, method, *inputs, **kwargs):
        if method != "__call__":
            return NotImplemented
        if kwargs:
            raise self.ctx.error(f"{uf.__name__}() with {', '.join(kwargs)}= in {self.ctx.context}")
        name = _UFUNC_ALIASES.get(uf.__name__, uf.__name__)
        return self.ctx.ufunc(name, inputs)

    def __array_function__(self, func, types, args, kwargs):
        name = func.__name__
        if name == "where" and len(args) == 3 and not kwargs:
            return self.ctx.ufunc("_where", args)
        if name in ("real", "imag") and len(args) == 1:
            return self.ctx.part(args[0], name)
        if name in ("round", "around") and 1 <= len(args) <= 2 and set(kwargs) <= {"decimals"}:
            return self.ctx.round(*args, **kwargs)
        if name == "fix" and len(args) == 1 and not kwargs:
            return self.ctx.ufunc("trunc", args)   # numpy.fix is numpy.trunc since NumPy 2.4
        if name == "clip" and len(args) == 3:
            return self.ctx.ufunc("_clip", args)
        if name in ("conj", "conjugate") and len(args) == 1:
            return args[0].conjugate() if isinstance(args[0], Tracer) else args[0]
        if name == "angle" and len(args) == 1 and not kwargs:
            return self.ctx.angle(args[0])
        return NotImplemented

    __bool__ = _no_control_flow("bool()")
    __float__ = _no_control_flow("float()")
    __int__ = _no_control_flow("int()")
    __complex__ = _no_control_flow("complex()")
    __index__ = _no_control_flow("int()")

    def __abs__(self):
        return self.ctx.ufunc("absolute", [self], python_op=True)

    def __neg__(self):
        return self.ctx.unary("-", self)

    def __pos__(self):
        return self.ctx.unary("+", self)

    def __invert__(self):
        return self.ctx.unary("~", self)

    def __pow__(self, other):
        return self.ctx.binary("**", self, other)

    def __rpow__(self, other):
        return self.ctx.binary("**", other, self)


def _binary_method(sym, reflected=False):
    if reflected:
        return lambda self, other: self.ctx.binary(sym, other, self)
    return lambda self, other: self.ctx.binary(sym, self, other)


for _sym, _name in (("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "truediv"), ("//", "floordiv"),
                    ("%", "mod"), ("<<", "lshift"), (">>", "rshift"), ("&", "and"), ("|", "or"), ("^", "xor")):
    setattr(Tracer, f"__{_name}__", _binary_method(_sym))
    setattr(Tracer, f"__r{_name}__", _binary_method(_sym, reflected=True))
for _sym, _name in (("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge"), ("==", "eq"), ("!=", "ne")):
    setattr(Tracer, f"__{_name}__", _binary_method(_sym))
Tracer.__hash__ = None


def trace_function(pyfunc, arg_types, return_type=None, context="vectorize"):
    """The IR of a function without source, by calling it with tracers (Numba's typing rules)."""
    ctx = TraceContext("numba", context, pyfunc)
    params = [ir.Var(f"arg{i}", T.compute_type(t)) for i, t in enumerate(arg_types)]
    # a float16 argument stays float16 for NumPy's ufuncs (their float16 loops round each result)
    tracers = [Tracer(ctx, ir.Load(p), T.FLOAT16 if t == T.FLOAT16 else p.type) for p, t in zip(params, arg_types)]
    try:
        result = pyfunc(*tracers)
    except _core.CompileError:
        raise
    except Exception as e:
        raise ctx.error(f"{getattr(pyfunc, '__name__', pyfunc)}() has no Python source, so it was traced, and "
                        f"tracing failed with {type(e).__name__}: {e}") from None
    value, _ = ctx.lift(result)
    ret = T.compute_type(return_type) if return_type is not None else value.type
    body = [ir.Return(rules.cast(value, ret), ctx.line)]
    return ir.Function(getattr(pyfunc, "__name__", "traced"), params, ret, body, params, ctx.filename, ctx.line)
