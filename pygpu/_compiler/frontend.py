"""The front end: a Python function's AST, typed for given argument types, to the typed IR.

Names resolve as Python resolves them: locals (any name the function assigns), then closure
cells, globals and builtins, whose values must be numbers (constants), the modules math, cmath,
numpy and pygpu, their scalar functions, or other Python functions of the same subset (compiled
for the argument types of each call). Types follow Numba's rules (types.py): locals have one
type, the unification of every value assigned to them, found by running the typing pass until
no local's type changes. Anything else raises CompileError naming the construct, file and line."""
import ast
import builtins
import cmath
import enum
import math
import operator
import types as pytypes

import numpy as np

from . import assignment, ir, optable, rules
from . import types as T
from .errors import compile_error
from .source import source_of, why_no_source


class NoSource(Exception):
    """The function has no Python source and no bytecode pygpu can rebuild it from (the tracer
    takes over); str(): why."""

    def __init__(self, fn):
        super().__init__(why_no_source(fn) or "it has no Python source")
        self.fn = fn


class _Unknown(Exception):
    """A local read before any assignment has given it a type (in this typing pass)."""

    def __init__(self, name, line):
        self.name = name
        self.line = line


_MAX_PASSES = 50

# ------------------------------------------------------------------ what names may refer to

# math.<name> of one float argument -> op-table op
_MATH_UNARY = {
    "sin": "sin", "cos": "cos", "tan": "tan", "asin": "arcsin", "acos": "arccos", "atan": "arctan",
    "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh",
    "exp": "exp", "expm1": "expm1", "log2": "log2", "log10": "log10", "log1p": "log1p", "sqrt": "sqrt",
    "fabs": "fabs", "degrees": "rad2deg", "radians": "deg2rad", "exp2": "exp2", "cbrt": "cbrt",
}
_MATH_BINARY = {"atan2": "arctan2", "copysign": "copysign", "fmod": "fmod", "pow": "power", "nextafter": "nextafter"}
_MATH_TO_INT = {"floor": "floor", "ceil": "ceil", "trunc": "trunc"}
_MATH_PREDICATES = {"isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite"}
_CMATH_UNARY = {
    "exp": "exp", "log10": "log10", "sqrt": "sqrt", "sin": "sin", "cos": "cos", "tan": "tan",
    "asin": "arcsin", "acos": "arccos", "atan": "arctan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
    "asinh": "arcsinh", "acosh": "arccosh", "atanh": "arctanh",
}

_OPERATOR_SYMBOLS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%", ast.Pow: "**",
    ast.LShift: "<<", ast.RShift: ">>", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^", ast.MatMult: "@",
}
_COMPARE_SYMBOLS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_UNARY_SYMBOLS = {ast.Not: "not", ast.USub: "-", ast.UAdd: "+", ast.Invert: "~"}
# the operator module's functions (a global OP = operator.add, called as OP(a, b)) as the operators
_OPERATOR_FUNCTIONS = {
    "add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
    "lshift": "<<", "rshift": ">>", "and_": "&", "or_": "|", "xor": "^",
    "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!=",
    "neg": "-", "pos": "+", "invert": "~", "inv": "~", "not_": "not",
}
_OPERATOR_COMPARISONS = {"lt", "le", "gt", "ge", "eq", "ne"}
_OPERATOR_UNARY = {"neg", "pos", "invert", "inv", "not_"}

# binary operators on two int literals that Python computes exactly (checked against 64 bits)
def _exact_power(a, b):
    if b < 0 or abs(a) <= 1:   # negative powers are floats (not checked); 0, 1, -1 stay small
        return 0 if b < 0 else a ** b
    return a ** b if b <= 128 else 2 ** 64   # past 2**128 without computing it


_EXACT_INT_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Pow: _exact_power,
                  ast.LShift: lambda a, b: a << b if 0 <= b <= 128 else (2 ** 64 if b > 128 and a else 0)}

# constructs outside the subset, as the messages name them
_UNSUPPORTED_EXPR = {
    ast.Dict: "dict displays", ast.Set: "set displays", ast.List: "list displays", ast.Tuple: "tuples",
    ast.ListComp: "list comprehensions", ast.SetComp: "set comprehensions", ast.DictComp: "dict comprehensions",
    ast.GeneratorExp: "generator expressions", ast.Subscript: "index expressions", ast.Slice: "slices",
    ast.JoinedStr: "f-strings", ast.FormattedValue: "f-strings", ast.Lambda: "lambda expressions",
    ast.Yield: "yield expressions", ast.YieldFrom: "yield expressions", ast.Await: "await expressions",
    ast.NamedExpr: "assignment expressions (:=)", ast.Starred: "starred expressions",
}
_UNSUPPORTED_STMT = {
    ast.Try: "try statements", ast.With: "with statements", ast.AsyncWith: "with statements",
    ast.Raise: "raise statements", ast.Assert: "assert statements", ast.Delete: "del statements",
    ast.Import: "import statements", ast.ImportFrom: "import statements", ast.Global: "global declarations",
    ast.Nonlocal: "nonlocal declarations", ast.FunctionDef: "nested functions",
    ast.AsyncFunctionDef: "nested functions", ast.ClassDef: "class definitions", ast.AsyncFor: "async for loops",
}
if hasattr(ast, "Match"):
    _UNSUPPORTED_STMT[ast.Match] = "match statements"
if hasattr(ast, "TryStar"):
    _UNSUPPORTED_STMT[ast.TryStar] = "try statements"


def _ufunc_name(value):
    """The op-table op of a NumPy or pygpu ufunc, or None."""
    from .. import _core
    if isinstance(value, (np.ufunc, _core.ufunc)):
        name = value.__name__
        if name in ("true_divide",):
            name = "divide"
        return name if optable.has(name) else None
    return None


def _dtype_constructor(value):
    """The dtype of np.float32 & co. (and Python's bool/int/float/complex are handled apart)."""
    if isinstance(value, type) and issubclass(value, np.generic) and value is not np.generic:
        try:
            t = np.dtype(value)
        except TypeError:
            return None
        return t if t in T.NUMBER else None
    return None


def _is_user_function(value):
    return isinstance(value, pytypes.FunctionType) or (
        hasattr(value, "py_func") and isinstance(value.py_func, pytypes.FunctionType))


_NUMPY_FUNCTIONS = ("where", "round", "around", "real", "imag", "conj", "conjugate", "angle", "clip")


# ------------------------------------------------------------------ the compiler of one function

class FunctionCompiler:
    """Types one Python function for argument types (and a return type, or None to infer it)."""

    def __init__(self, fn, arg_types, return_type=None, context="vectorize", cache=None, stack=()):
        src = source_of(fn)
        if src is None:
            raise NoSource(fn)
        self.fn = fn
        self.src = src
        self.node = src.node
        self.context = context
        self.cache = cache if cache is not None else {}
        self.stack = stack + (fn,)
        self.arg_types = [T.compute_type(t) for t in arg_types]
        self.half_args = [t == T.FLOAT16 for t in arg_types]
        self.declared_return = T.compute_type(return_type) if return_type is not None else None
        code = fn.__code__
        self.closure = dict(zip(code.co_freevars, (c.cell_contents if _cell_full(c) else _EMPTY
                                                   for c in (fn.__closure__ or ()))))
        self.globals = fn.__globals__
        self._check_arguments()
        self.param_names = [a.arg for a in self.node.args.args]
        if len(self.param_names) != len(self.arg_types):
            raise self.error(f"{self.name}() takes {len(self.param_names)} arguments, but the signature gives "
                             f"{len(self.arg_types)}", self.node)
        self.assigned = _assigned_names(self.node)
        walrus = next((n for n in ast.walk(self.node) if isinstance(n, ast.NamedExpr)), None)
        if walrus is not None:   # (before the check of assignments, which would call its target unassigned)
            raise self.unsupported("assignment expressions (:=)", walrus)
        assignment.check(self.node, self.param_names, self.assigned, self.unassigned_read)
        self.weak = set()   # ids of Const nodes from Python literals (weak for NumPy's functions)
        self.half = set()   # ids of Const nodes of NumPy float16 numbers
        # locals whose every value is a float16 (computed as float32): NumPy's functions take them
        # as float16, and their float16 loops round each result
        self.vhalf = {name: h for name, h in zip(self.param_names, self.half_args)}

    def unassigned_read(self, name, node):
        """A read of a local that a path to it leaves unassigned: the CompileError to raise (Python
        raises UnboundLocalError when that path runs), or None where the read is checked at run
        time (cuda.jit)."""
        return self.error(f"local variable '{name}' may be used before it is assigned: a path to here leaves it "
                          f"unassigned (Python raises UnboundLocalError when that path runs); assign it before the "
                          f"branch or loop", node)

    @property
    def name(self):
        return self.fn.__name__

    # -------------------------------------------------------------- errors

    def error(self, message, node):
        return compile_error(message, self.src.filename, self.src.line(node))

    def unsupported(self, what, node):
        return self.error(f"{what} are not supported in {self.context}", node)

    def _check_arguments(self):
        if isinstance(self.node, ast.AsyncFunctionDef):
            raise self.unsupported("async functions (coroutines)", self.node)
        if isinstance(self.node, ast.Lambda) and self.context == "cuda.jit":
            raise self.error("a cuda.jit kernel is a def: a lambda has no statements to run", self.node)
        a = self.node.args
        if a.vararg or a.kwarg or a.kwonlyargs or getattr(a, "posonlyargs", None):
            raise self.unsupported("*args, **kwargs and keyword-only arguments", self.node)

    # -------------------------------------------------------------- driver

    def compile(self):
        vtypes = dict(zip(self.param_names, self.arg_types))
        self.ret_type = self.declared_return
        for _ in range(_MAX_PASSES):
            self.vtypes = vtypes
            self.changed = False
            self.unknown = None
            self.vars = {}
            self.weak = set()
            self.half = set()
            if isinstance(self.node, ast.Lambda):
                body = [self._return(self.node.body, self.node)]
            else:
                body = self.block(_strip_docstring(self.node.body))
            if not self.changed:
                break
        else:  # pragma: no cover - types only widen, so this does not happen
            raise self.error("the types of the locals do not settle", self.node)
        if self.unknown is not None:
            raise compile_error(f"local variable '{self.unknown.name}' may be used before it is assigned",
                                self.src.filename, self.unknown.line)
        if self.ret_type is None:
            raise self.error(f"{self.name}() never returns a value", self.node)
        if not _always_returns(body):
            raise self.error(f"{self.name}() can end without returning a value (every path must return a number "
                             f"in {self.context})", self.node)
        params, prologue = [], []
        for name, t in zip(self.param_names, self.arg_types):
            var = self.vars.get(name)
            if var is None or var.type == t:
                params.append(var or ir.Var(name, t))
            else:  # a parameter reassigned with a wider type: the local takes the argument converted
                p = ir.Var(name, t)
                params.append(p)
                prologue.append(ir.Assign(var, ir.Cast(ir.Load(p), var.type), self.src.line(self.node)))
        body = prologue + self._cast_returns(body)
        return ir.Function(self.name, params, self.ret_type, body, list(self.vars.values()), self.src.filename,
                           self.src.line(self.node))

    def _cast_returns(self, stmts):
        """Every return value converted to the return type (known only once typing is done)."""
        out = []
        for s in stmts:
            if isinstance(s, ir.Return):
                s = ir.Return(self.cast(s.value, self.ret_type), s.line)
            elif isinstance(s, ir.If):
                s = ir.If(s.test, self._cast_returns(s.body), self._cast_returns(s.orelse), s.line)
            elif isinstance(s, ir.While):
                s = ir.While(s.test, self._cast_returns(s.body), self._cast_returns(s.orelse), s.line)
            elif isinstance(s, ir.ForRange):
                s = ir.ForRange(s.var, s.start, s.stop, s.step, self._cast_returns(s.body),
                                self._cast_returns(s.orelse), s.line)
            out.append(s)
        return out

    # -------------------------------------------------------------- locals

    def var(self, name):
        """The Var of a typed local (created on first use in a pass)."""
        v = self.vars.get(name)
        if v is None:
            v = self.vars[name] = ir.Var(name, self.vtypes[name])
        return v

    def assign_type(self, name, t):
        """Widens the local's type to take values of type t."""
        old = self.vtypes.get(name)
        new = t if old is None else T.unify(old, t)
        if old is None or new != old:  # (a dtype equals None: float64)
            self.vtypes[name] = new
            self.changed = True
        var = self.var(name)
        var.type = new  # widened in this pass: the next pass builds every use with it
        return var

    # -------------------------------------------------------------- statements

    def block(self, stmts):
        out = []
        for s in stmts:
            try:
                produced = self.stmt(s)
            except _Unknown as u:
                if self.unknown is None:
                    self.unknown = u
                continue
            out.extend(produced)
            if out and isinstance(out[-1], (ir.Return, ir.Break, ir.Continue)):
                break  # the rest of the block cannot run
        return out

    def stmt(self, s):
        line = self.src.line(s)
        if isinstance(s, ast.Assign):
            return self.assign(s.targets, s.value, s)
        if isinstance(s, ast.AnnAssign):
            if s.value is None:
                return []
            return self.assign([s.target], s.value, s)
        if isinstance(s, ast.AugAssign):
            if not isinstance(s.target, ast.Name):
                raise self.unsupported("assignments to anything but a name", s)
            value = self.binop(s.op, self.load(s.target.id, s.target), self.expr(s.value), s)
            return [self.store(s.target.id, value, s)]
        if isinstance(s, ast.Return):
            if s.value is None:
                raise self.error(f"a return without a value is not supported in {self.context}", s)
            return [self._return(s.value, s)]
        if isinstance(s, ast.If):
            before = self.unknown
            test = self.test(s.test)
            known = bool(test.value) if isinstance(test, ir.Const) else None
            if known is None and isinstance(s.test, ast.UnaryOp) and isinstance(s.test.op, ast.Not):
                inner = self.test(s.test.operand)
                known = (not inner.value) if isinstance(inner, ir.Const) else None
            if known is not None and self.unknown is before:
                # a constant condition (a global flag, a literal argument bound by the caller): the
                # branch that cannot run is not typed, as Numba prunes dead branches
                return self.block(s.body if known else s.orelse)
            return [ir.If(test, self.block(s.body), self.block(s.orelse), line)]
        if isinstance(s, ast.While):
            test = self.test(s.test)
            return [ir.While(test, self.block(s.body), self.block(s.orelse), line)]
        if isinstance(s, ast.For):
            return [self.for_range(s)]
        if isinstance(s, ast.Break):
            return [ir.Break(line)]
        if isinstance(s, ast.Continue):
            return [ir.Continue(line)]
        if isinstance(s, ast.Pass):
            return []
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
                return []  # a string statement: a comment
            if isinstance(s.value, ast.Call):
                raise self.unsupported(f"calls whose value is dropped ({ast.unparse(s.value.func)}(...))", s)
            raise self.unsupported("expression statements", s)
        what = _UNSUPPORTED_STMT.get(type(s), f"{type(s).__name__} statements")
        raise self.unsupported(what, s)

    def _return(self, value_node, s):
        value = self.expr(value_node)
        if self.declared_return is None:
            new = value.type if self.ret_type is None else T.unify(self.ret_type, value.type)
            if self.ret_type is None or new != self.ret_type:
                self.ret_type = new
                self.changed = True
        return ir.Return(value, self.src.line(s))

    def chained_assign(self, targets, value_node, s):
        """a = b = value: the value once, into a hidden local, then each target in turn from left to
        right, as Python assigns them."""
        temp = f"$chain{s.lineno}_{s.col_offset}"
        self.assigned.add(temp)
        out = self.assign([ast.copy_location(ast.Name(temp, ast.Store()), s)], value_node, s)
        for target in targets:
            out += self.assign([target], ast.copy_location(ast.Name(temp, ast.Load()), s), s)
        return out

    def assign(self, targets, value_node, s):
        if len(targets) != 1:
            return self.chained_assign(targets, value_node, s)
        target = targets[0]
        if isinstance(target, ast.Name):
            return [self.store(target.id, self.expr(value_node), s)]
        if isinstance(target, ast.Tuple) and isinstance(value_node, ast.Tuple):
            names = target.elts
            if len(names) != len(value_node.elts) or not all(isinstance(n, ast.Name) for n in names):
                raise self.unsupported("tuple assignments other than a, b = x, y", s)
            # every value first (a, b = b, a swaps), through temporaries
            values = [self.expr(v) for v in value_node.elts]
            temps, out = [], []
            for i, v in enumerate(values):
                tv = self.assign_type(f"${s.lineno}.{i}", v.type)
                out.append(ir.Assign(tv, self.cast(v, tv.type), self.src.line(s)))
                temps.append(tv)
            for n, tv in zip(names, temps):
                out.append(self.store(n.id, ir.Load(tv), s))
            return out
        if isinstance(target, (ast.Subscript, ast.Attribute)):
            raise self.unsupported("assignments to items and attributes", s)
        raise self.unsupported("assignments of this kind", s)

    def store(self, name, value, s):
        half = self.operand(value) == T.FLOAT16
        if self.vhalf.setdefault(name, half) and not half:
            self.vhalf[name] = False
            self.changed = True
        var = self.assign_type(name, value.type)
        return ir.Assign(var, self.cast(value, var.type), self.src.line(s))

    def for_range(self, s):
        it = s.iter
        if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and
                self.resolve_name(it.func.id, it.func) is range):
            raise self.unsupported("for loops over anything but range(...)", s)
        if not isinstance(s.target, ast.Name):
            raise self.unsupported("for loops with a target other than a name", s)
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.error("range() takes 1 to 3 integer arguments", it)
        args = [self.expr(a) for a in it.args]
        for a, node in zip(args, it.args):
            if not (T.is_int(a.type) or T.is_bool(a.type)):
                raise self.error(f"range() arguments must be integers, not {a.type}", node)
        args = [self.cast(a, T.INT64) for a in args]
        if len(args) == 1:
            start, stop, step = ir.Const(0, T.INT64), args[0], ir.Const(1, T.INT64)
        elif len(args) == 2:
            start, stop, step = args[0], args[1], ir.Const(1, T.INT64)
        else:
            start, stop, step = args
        if isinstance(step, ir.Const) and step.value == 0:
            raise self.error("range() arg 3 must not be zero", it)
        name = s.target.id
        var = self.assign_type(name, T.INT64)
        body = self.block(s.body)
        orelse = self.block(s.orelse)
        if var.type != T.INT64:  # the loop variable was also given wider values elsewhere
            cvar = self.assign_type(f"$for{s.lineno}", T.INT64)
            body = [ir.Assign(var, ir.Cast(ir.Load(cvar), var.type), self.src.line(s))] + body
            return ir.ForRange(cvar, start, stop, step, body, orelse, self.src.line(s))
        return ir.ForRange(var, start, stop, step, body, orelse, self.src.line(s))

    # -------------------------------------------------------------- expressions

    def cast(self, e, t):
        return rules.cast(e, t)

    def truth(self, e):
        return rules.truth(e)

    def test(self, node):
        try:
            return self.truth(self.expr(node))
        except _Unknown as u:
            if self.unknown is None:
                self.unknown = u
            return ir.Const(True, T.BOOL)

    def load(self, name, node):
        if name not in self.vtypes:
            raise _Unknown(name, self.src.line(node))
        return ir.Load(self.var(name))

    def const(self, value, node, weak=True):
        t = T.python_type(value)
        if t is None:
            raise self.error(f"the constant {value!r} is out of range", node)
        c = ir.Const(value, T.compute_type(t))
        if weak and not isinstance(value, (np.generic, bool)):
            self.weak.add(id(c))
        if t == T.FLOAT16:
            self.half.add(id(c))
        return c

    def expr(self, node):
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, (bool, int, float, complex)):
                return self.const(v, node)
            what = {str: "strings", bytes: "bytes", type(None): "None", type(...): "Ellipsis"}.get(type(v), "constants")
            raise self.unsupported(what, node)
        if isinstance(node, ast.Name):
            if node.id in self.assigned or node.id in self.param_names:
                return self.load(node.id, node)
            return self.value(self.resolve_name(node.id, node), node, node.id)
        if isinstance(node, ast.Attribute):
            return self.attribute(node)
        if isinstance(node, ast.UnaryOp):
            return self.unaryop(node)
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self.expr(node.left), self.expr(node.right), node)
        if isinstance(node, ast.BoolOp):
            return self.boolop(node)
        if isinstance(node, ast.Compare):
            return self.compare(node)
        if isinstance(node, ast.IfExp):
            cond = self.truth(self.expr(node.test))
            a, b = self.expr(node.body), self.expr(node.orelse)
            t = T.unify(a.type, b.type)
            return ir.IfExp(cond, self.cast(a, t), self.cast(b, t), t)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Subscript) and (member := self.enum_member(node)) is not None:
            return self.value(member, node, ast.unparse(node))
        what = _UNSUPPORTED_EXPR.get(type(node), f"{type(node).__name__} expressions")
        raise self.unsupported(what, node)

    # names and attributes

    def resolve_name(self, name, node):
        if name in self.closure:
            v = self.closure[name]
            if v is _EMPTY:
                raise self.error(f"free variable '{name}' is not bound yet", node)
            return v
        if name in self.globals:
            return self.globals[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise self.error(f"name '{name}' is not defined", node)

    def value(self, v, node, text):
        """A resolved global/closure/attribute value used as a value (an IntEnum member is its int)."""
        if isinstance(v, enum.IntEnum) or isinstance(v, enum.IntFlag):
            return self.const(int(v), node)
        if isinstance(v, enum.Enum):
            raise self.error(f"'{text}' is a member of the enum.Enum '{type(v).__name__}', which is not a number "
                             f"in {self.context}: use an enum.IntEnum, or '{text}.value'", node)
        if isinstance(v, (bool, int, float, complex, np.number, np.bool_)):
            return self.const(v, node, weak=not isinstance(v, (np.generic, bool)))
        if isinstance(v, (np.ndarray,)) and v.ndim == 0 and v.dtype in T.NUMBER:
            return self.const(v[()], node, weak=False)
        what = "modules" if isinstance(v, pytypes.ModuleType) else f"values of type {type(v).__name__}"
        raise self.error(f"'{text}' is not a number: {what} are not supported as values in {self.context}", node)

    def resolve_attribute(self, node):
        """The value an attribute of a module refers to, or None when the base is not a module."""
        base = node.value
        if isinstance(base, ast.Name) and base.id not in self.assigned and base.id not in self.param_names:
            owner = self.resolve_name(base.id, base)
        elif isinstance(base, ast.Attribute):
            owner = self.resolve_attribute(base)
            if owner is None:
                return None
        elif isinstance(base, ast.Subscript):
            owner = self.enum_member(base)
            if owner is None:
                return None
        else:
            return None
        if isinstance(owner, (enum.EnumMeta, enum.Enum)):   # Color.red, Color.red.value
            if not hasattr(owner, node.attr):
                raise self.error(f"'{ast.unparse(base)}' has no attribute '{node.attr}'", node)
            return getattr(owner, node.attr)
        if not isinstance(owner, pytypes.ModuleType):
            return None
        if not hasattr(owner, node.attr):
            raise self.error(f"module '{owner.__name__}' has no attribute '{node.attr}'", node)
        return getattr(owner, node.attr)

    def enum_member(self, node):
        """Color['red']: the member of an enum class a constant name picks, or None when node is
        not an enum class indexed."""
        base = node.value
        if isinstance(base, ast.Name) and (base.id in self.assigned or base.id in self.param_names):
            return None
        if isinstance(base, ast.Name):
            owner = self.resolve_name(base.id, base)
        elif isinstance(base, ast.Attribute):
            owner = self.resolve_attribute(base)
        else:
            return None
        if not isinstance(owner, enum.EnumMeta):
            return None
        key = node.slice
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            raise self.error(f"an enum class is indexed by a member's name as a string constant in {self.context}", node)
        if key.value not in owner.__members__:
            raise self.error(f"KeyError: '{key.value}' is not a member of {owner.__name__}", node)
        return owner[key.value]

    def attribute(self, node):
        target = self.resolve_attribute(node)
        if target is not None:
            return self.value(target, node, ast.unparse(node))
        base = self.expr(node.value)
        if node.attr == "real":
            return self.real(base)
        if node.attr == "imag":
            return self.imag(base)
        raise self.error(f"attribute '{node.attr}' of a {base.type} is not supported in {self.context}", node)

    def real(self, e):
        if T.is_complex(e.type):
            return ir.Real(e, T.real_of(e.type))
        return e

    def imag(self, e):
        if T.is_complex(e.type):
            return ir.Imag(e, T.real_of(e.type))
        return ir.Const(0, e.type)

    # operators

    def unaryop(self, node):
        v = self.expr(node.operand)
        sym = _UNARY_SYMBOLS[type(node.op)]
        if sym == "-" and isinstance(v, ir.Const) and id(v) in self.weak and T.python_type(-v.value) is not None:
            return self.const(-v.value, node)  # a negative literal
        try:
            return rules.unary(sym, v)
        except rules.TypingError as e:
            raise self.error(f"{e} in {self.context}", node) from None

    def binop(self, op, a, b, node):
        if isinstance(a, ir.Const) and isinstance(b, ir.Const) and type(a.value) is int and type(b.value) is int \
                and type(op) in _EXACT_INT_OPS:
            # Python's value of two int literals (what CPython folds into one constant): past 64 bits
            # Numba refuses it, where 64-bit arithmetic would wrap it silently (2**100 to 0)
            value = _EXACT_INT_OPS[type(op)](a.value, b.value)
            if not -2 ** 63 <= value < 2 ** 64:
                raise self.error(f"the integer constant {ast.unparse(node)} does not fit in 64 bits in {self.context}",
                                 node)
        try:
            return rules.binary(_OPERATOR_SYMBOLS[type(op)], a, b)
        except rules.TypingError as e:
            raise self.error(f"{e} in {self.context}", node) from None

    def power(self, a, b, node):
        return self.binop(ast.Pow(), a, b, node)

    def boolop(self, node):
        values = [self.expr(v) for v in node.values]
        t = values[0].type
        for v in values[1:]:
            t = T.unify(t, v.type)
        values = [self.cast(v, t) for v in values]
        tests = [self.truth(v) for v in values[:-1]]
        return ir.BoolOp("and" if isinstance(node.op, ast.And) else "or", values, tests, t)

    def compare(self, node):
        left = self.expr(node.left)
        parts = []
        for op, right_node in zip(node.ops, node.comparators):
            right = self.expr(right_node)
            kind = type(op)
            if kind not in _COMPARE_SYMBOLS:
                what = {ast.Is: "'is'", ast.IsNot: "'is not'", ast.In: "'in'", ast.NotIn: "'not in'"}[kind]
                raise self.unsupported(f"{what} comparisons", node)
            try:
                parts.append(rules.compare(_COMPARE_SYMBOLS[kind], left, right))
            except rules.TypingError as e:
                raise self.error(f"{e} in {self.context}", node) from None
            left = right
        if len(parts) == 1:
            return parts[0]
        return ir.BoolOp("and", parts, parts[:-1], T.BOOL)

    # calls

    def call(self, node):
        if node.keywords:
            names = {k.arg for k in node.keywords}
            if not (names <= {"ndigits", "decimals"} and len(node.keywords) == 1):
                raise self.unsupported("keyword arguments", node)
        func = node.func
        if isinstance(func, ast.Attribute) and self.resolve_attribute(func) is None:
            # a method of a local value: z.conjugate()
            base = self.expr(func.value)
            if func.attr == "conjugate" and not node.args:
                return ir.Op("conjugate", [base], base.type) if T.is_complex(base.type) else base
            raise self.error(f"method '{func.attr}' of a {base.type} is not supported in {self.context}", node)
        if isinstance(func, ast.Name) and (func.id in self.assigned or func.id in self.param_names):
            raise self.error(f"'{func.id}' is a number, not a function", node)
        target = self.resolve_attribute(func) if isinstance(func, ast.Attribute) else \
            self.resolve_name(func.id, func) if isinstance(func, ast.Name) else None
        if target is None:
            raise self.unsupported("calls of computed functions", node)
        args = [self.expr(a) for a in node.args]
        for kw in node.keywords:
            args.append(self.expr(kw.value))
        text = ast.unparse(func)
        return self.call_value(target, args, node, text)

    def call_value(self, f, args, node, text):
        n = len(args)

        def want(k):
            if n not in (k if isinstance(k, tuple) else (k,)):
                raise self.error(f"{text}() takes {k if not isinstance(k, tuple) else ' or '.join(map(str, k))} "
                                 f"argument{'s' if k != 1 else ''} ({n} given)", node)

        # operator.add & co. (a function held in a global or passed around by name)
        name = getattr(f, "__name__", None)
        if name in _OPERATOR_FUNCTIONS and getattr(operator, name, None) is f:
            sym = _OPERATOR_FUNCTIONS[name]
            try:
                if name in _OPERATOR_UNARY:
                    want(1)
                    return rules.unary(sym, args[0])
                want(2)
                if name in _OPERATOR_COMPARISONS:
                    return rules.compare(sym, args[0], args[1])
                return rules.binary(sym, args[0], args[1])
            except rules.TypingError as e:
                raise self.error(f"{e} in {self.context}", node) from None
        if f is operator.abs:
            f = abs
        # math
        if isinstance(f, pytypes.BuiltinFunctionType) and getattr(math, f.__name__, None) is f:
            return self.math_call(f.__name__, args, node, text, want)
        if isinstance(f, pytypes.BuiltinFunctionType) and getattr(cmath, f.__name__, None) is f:
            return self.cmath_call(f.__name__, args, node, text, want)
        from .. import _core
        if isinstance(f, _core.ufunc) and f._programs is not None and hasattr(f, "__wrapped__"):
            return self.user_call(f.__wrapped__, args, node, text)  # another vectorize function
        # builtins
        if f is abs:
            want(1)
            return self.ufunc_call("absolute", [self.cast(args[0], T.INT64) if T.is_bool(args[0].type) else args[0]],
                                   node, text, numpy_rules=False)
        if f is min or f is max:
            if n < 2:
                raise self.error(f"{text}() of one argument (an iterable) is not supported in {self.context}", node)
            t = args[0].type
            for a in args[1:]:
                t = T.unify(t, a.type)
            result = self.cast(args[0], t)
            for a in args[1:]:
                a = self.cast(a, t)
                better = ir.Op("less" if f is min else "greater", [a, result], T.BOOL)
                result = ir.Select(better, a, result, t)
            return result
        if f is round:
            want((1, 2))
            x = args[0]
            if T.is_complex(x.type):
                raise self.error("round() of a complex number", node)
            if n == 1:
                if T.is_int(x.type) or T.is_bool(x.type):
                    return self.cast(x, T.INT64)
                return ir.Cast(ir.Op("rint", [x], x.type), T.INT64)
            return self.round_digits(x, args[1], node)
        if f is int:
            want(1)
            if T.is_complex(args[0].type):
                raise self.error("int() of a complex number", node)
            return args[0] if T.is_int(args[0].type) else self.cast(args[0], T.INT64)   # Numba's: int(int32) is int32
        if f is float:
            want(1)
            if T.is_complex(args[0].type):
                raise self.error("float() of a complex number", node)
            return args[0] if T.is_float(args[0].type) else self.cast(args[0], T.FLOAT64)   # float(float32) is float32
        if f is bool:
            want(1)
            return self.truth(args[0])
        if f is complex:
            want((1, 2))
            if n == 1:
                return self.cast(args[0], T.COMPLEX128)
            re, im = args
            if T.is_complex(re.type) or T.is_complex(im.type):
                raise self.error("complex() of complex parts is not supported", node)
            return ir.MakeComplex(self.cast(re, T.FLOAT64), self.cast(im, T.FLOAT64), T.COMPLEX128)
        if f is pow:
            want(2)
            return self.power(args[0], args[1], node)
        if f is range:
            raise self.error(f"range() is only supported as the iterable of a for loop in {self.context}", node)
        # NumPy and pygpu
        op = _ufunc_name(f)
        if op is not None:
            if n != getattr(f, "nin", n):
                raise self.error(f"{text}() takes {f.nin} arguments ({n} given)", node)
            return self.ufunc_call(op, args, node, text)
        t = _dtype_constructor(f)
        if t is not None:
            want(1)
            return rules.to_dtype(args[0], t)   # np.float16(x) rounds as NumPy does
        fname = getattr(f, "__name__", None)
        mod = getattr(f, "__module__", "") or ""
        if fname in _NUMPY_FUNCTIONS and (mod.startswith("numpy") or mod.startswith("pygpu")):
            return self.numpy_function(fname, args, node, text, want)
        if _is_user_function(f):
            return self.user_call(f, args, node, text)
        if isinstance(f, type):
            raise self.error(f"{text}() (creating a {f.__name__}) is not supported in {self.context}", node)
        raise self.error(f"calls to {text} are not supported in {self.context}", node)

    def operand(self, e):
        """e as NumPy's type resolution sees it: a dtype, or a Python type for a weak literal."""
        if isinstance(e, ir.Const) and id(e) in self.weak:
            return type(e.value) if not isinstance(e.value, np.generic) else e.type
        if id(e) in self.half or (isinstance(e, ir.Op) and e.op == "_round_half") or \
                (isinstance(e, ir.Load) and self.vhalf.get(e.var.name)):
            return T.FLOAT16
        return e.type

    def ufunc_call(self, op, args, node, text, numpy_rules=True):
        if numpy_rules:   # NumPy's loop, float16 results rounded as its float16 loops round them
            try:
                return rules.numpy_ufunc(op, args, [self.operand(a) for a in args])[0]
            except rules.TypingError:
                types = ", ".join(str(a.type) for a in args)
                raise self.error(f"{text}() is not supported for arguments of type {types}", node) from None
            except (OverflowError, ValueError) as e:   # NumPy's errors for a literal (np.add(int8, 300))
                raise self.error(f"{text}(): {e}", node) from None
        ins = tuple(a.type for a in args)
        out = optable.find(op, ins)
        if out is None:
            types = ", ".join(str(a.type) for a in args)
            raise self.error(f"{text}() is not supported for arguments of type {types}", node)
        return ir.Op(op, [self.cast(a, t) for a, t in zip(args, ins)], out)

    def math_call(self, name, args, node, text, want):
        def real_arg(a):
            if T.is_complex(a.type):
                raise self.error(f"{text}() does not take complex numbers (cmath.{name} does)", node)
            return a if T.is_float(a.type) else self.cast(a, T.FLOAT64)

        if name in _MATH_UNARY:
            want(1)
            x = real_arg(args[0])
            return ir.Op(_MATH_UNARY[name], [x], x.type)
        if name == "log":
            want((1, 2))
            x = real_arg(args[0])
            lx = ir.Op("log", [x], x.type)
            if len(args) == 1:
                return lx
            b = real_arg(args[1])
            t = T.promote(x.type, b.type)
            return ir.Op("divide", [self.cast(lx, t), self.cast(ir.Op("log", [b], b.type), t)], t)
        if name in _MATH_BINARY:
            want(2)
            x, y = real_arg(args[0]), real_arg(args[1])
            t = T.promote(x.type, y.type)
            return ir.Op(_MATH_BINARY[name], [self.cast(x, t), self.cast(y, t)], t)
        if name == "hypot":
            if not args:
                raise self.error(f"{text}() takes at least one argument", node)
            xs = [real_arg(a) for a in args]
            t = xs[0].type
            for x in xs[1:]:
                t = T.promote(t, x.type)
            r = ir.Op("absolute", [self.cast(xs[0], t)], t)
            for x in xs[1:]:
                r = ir.Op("hypot", [r, self.cast(x, t)], t)
            return r
        if name in _MATH_TO_INT:
            want(1)
            x = args[0]
            if T.is_int(x.type) or T.is_bool(x.type):
                return self.cast(x, T.INT64)
            x = real_arg(x)
            return ir.Cast(ir.Op(_MATH_TO_INT[name], [x], x.type), T.INT64)
        if name in _MATH_PREDICATES:
            want(1)
            x = args[0]
            if T.is_complex(x.type):
                raise self.error(f"{text}() does not take complex numbers (cmath.{name} does)", node)
            return ir.Op(_MATH_PREDICATES[name], [x], T.BOOL)
        raise self.error(f"{text}() is not supported in {self.context}", node)

    def cmath_call(self, name, args, node, text, want):
        def complex_arg(a):
            return self.cast(a, T.complex_of(a.type) if T.is_complex(a.type) else T.COMPLEX128)

        if name in _CMATH_UNARY:
            want(1)
            z = complex_arg(args[0])
            return ir.Op(_CMATH_UNARY[name], [z], z.type)
        if name == "log":
            want((1, 2))
            z = complex_arg(args[0])
            lz = ir.Op("log", [z], z.type)
            if len(args) == 1:
                return lz
            b = complex_arg(args[1])
            t = T.promote(z.type, b.type)
            return ir.Op("divide", [self.cast(lz, t), self.cast(ir.Op("log", [b], b.type), t)], t)
        if name == "phase":
            want(1)
            z = complex_arg(args[0])
            return ir.Op("_angle", [z], T.real_of(z.type))
        if name in _MATH_PREDICATES:
            want(1)
            z = complex_arg(args[0])
            return ir.Op(_MATH_PREDICATES[name], [z], T.BOOL)
        if name == "rect":
            want(2)
            r, phi = (self.cast(a, T.FLOAT64) for a in args)
            f64 = T.FLOAT64

            def op(name, *xs, t=f64):
                return ir.Op(name, list(xs), t)

            zero, inf = ir.Const(0.0, f64), ir.Const(float("inf"), f64)
            re = op("multiply", r, op("cos", phi))
            im = op("multiply", r, op("sin", phi))
            # CPython's special values (cmath_rect): a phi of 0 keeps the product of the signs of r
            # and phi (inf * 0 would be nan; +0 for a nan r); an infinite or nan phi gives 0j for
            # r == 0 and inf+nanj for an infinite r (finite nonzero r gives nan+nanj, where CPython
            # raises ValueError)
            signed_zero = ir.Select(op("isnan", r, t=T.BOOL), zero, op("multiply", op("copysign", zero, r), phi), f64)
            im = ir.Select(op("equal", phi, zero, t=T.BOOL), signed_zero, im, f64)
            odd_phi = op("logical_not", op("isfinite", phi, t=T.BOOL), t=T.BOOL)
            re = ir.Select(op("logical_and", odd_phi, op("isinf", r, t=T.BOOL), t=T.BOOL), inf, re, f64)
            zero_r = op("logical_and", odd_phi, op("equal", r, zero, t=T.BOOL), t=T.BOOL)
            return ir.MakeComplex(ir.Select(zero_r, zero, re, f64), ir.Select(zero_r, zero, im, f64), T.COMPLEX128)
        raise self.error(f"{text}() is not supported in {self.context}", node)

    def numpy_function(self, name, args, node, text, want):
        if name == "where":
            want(3)
            cond = self.truth(args[0])
            a, b = args[1], args[2]
            t = T.compute_type(np.result_type(*(self.operand(x) if isinstance(self.operand(x), np.dtype)
                                                 else self.operand(x)(0) for x in (a, b))))
            return ir.Select(cond, self.cast(a, t), self.cast(b, t), t)
        if name in ("round", "around"):
            want((1, 2))
            x = args[0]
            if len(args) == 2:
                return self.round_digits(x, args[1], node)
            if T.is_int(x.type) or T.is_bool(x.type):
                return x
            return ir.Op("rint", [x], x.type)
        if name == "real":
            want(1)
            return self.real(args[0])
        if name == "imag":
            want(1)
            return self.imag(args[0])
        if name in ("conj", "conjugate"):
            want(1)
            return ir.Op("conjugate", [args[0]], args[0].type) if T.is_complex(args[0].type) else args[0]
        if name == "angle":
            want(1)
            return self.ufunc_call("_angle", args, node, text)
        if name == "clip":
            want(3)
            return self.ufunc_call("_clip", args, node, text)
        raise self.error(f"{text}() is not supported in {self.context}", node)

    def round_digits(self, x, digits, node):
        t = x.type if T.is_float(x.type) else T.FLOAT64
        if not (isinstance(digits, ir.Const) and isinstance(digits.value, (int, np.integer))):
            if T.is_complex(x.type) or not T.is_int(digits.type):
                raise self.error("round(x, ndigits) takes a real x and an integer ndigits", node)
            from . import composed   # known at run time only: Numba's algorithm, as a function
            callee = compile_function(composed.round_ndigits, [T.FLOAT64, T.INT64], T.FLOAT64)
            call = ir.Call(callee, [self.cast(x, T.FLOAT64), self.cast(digits, T.INT64)], T.FLOAT64)
            return self.cast(call, t)
        scale = ir.Const(10.0 ** int(digits.value), t)
        y = ir.Op("rint", [ir.Op("multiply", [self.cast(x, t), scale], t)], t)
        return ir.Op("divide", [y, scale], t)

    def with_defaults(self, fn, args, node, text):
        """args completed by fn's default values for the parameters not given (numbers, as
        constants, as Numba compiles a call that leaves them out)."""
        missing = fn.__code__.co_argcount - len(args)
        defaults = fn.__defaults__ or ()
        if missing <= 0 or missing > len(defaults):
            return args
        extra = []
        for value in defaults[len(defaults) - missing:]:
            if not isinstance(value, (bool, int, float, complex, np.generic)):
                raise self.error(f"{text}(): the default value {value!r} of a parameter left out is not a number",
                                 node)
            extra.append(self.const(value, node))
        return list(args) + extra

    def user_call(self, f, args, node, text):
        fn = getattr(f, "py_func", f)
        args = self.with_defaults(fn, args, node, text)
        if fn in self.stack:
            raise self.error(f"recursive calls ({text}) are not supported in {self.context}", node)
        key = (fn, tuple(a.type for a in args))
        callee = self.cache.get(key)
        if callee is None:
            try:
                compiler = FunctionCompiler(fn, [a.type for a in args], None, self.context, self.cache, self.stack)
            except NoSource as e:
                raise self.error(f"{text}() cannot be compiled: {e}", node) from None
            callee = self.cache[key] = compiler.compile()
        return ir.Call(callee, [self.cast(a, p.type) for a, p in zip(args, callee.params)], callee.return_type)


# ------------------------------------------------------------------ helpers

class _Empty:
    pass


_EMPTY = _Empty()


def _cell_full(cell):
    try:
        cell.cell_contents
    except ValueError:
        return False
    return True


def _strip_docstring(body):
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[1:]
    return body


def _assigned_names(fn_node):
    """The names a function assigns anywhere (its locals, as Python decides)."""
    names = set()
    body = [fn_node.body] if isinstance(fn_node, ast.Lambda) else fn_node.body
    for stmt in body if isinstance(body, list) else [body]:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
    return names


def _always_returns(stmts):
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ir.Return):
        return True
    if isinstance(last, ir.If):
        return _always_returns(last.body) and _always_returns(last.orelse)
    if isinstance(last, ir.While):
        # `while True` without a break only leaves through a return
        return isinstance(last.test, ir.Const) and bool(last.test.value) and not _breaks(last.body)
    return False


def _breaks(stmts):
    for s in stmts:
        if isinstance(s, ir.Break):
            return True
        if isinstance(s, ir.If) and (_breaks(s.body) or _breaks(s.orelse)):
            return True
    return False


def compile_function(fn, arg_types, return_type=None, context="vectorize"):
    """The typed IR of fn for these argument types (and return type, or None to infer it).
    Raises NoSource when fn has no Python source, CompileError when it is outside the subset."""
    return FunctionCompiler(fn, arg_types, return_type, context).compile()
