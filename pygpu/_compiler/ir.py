"""The typed IR (see the package docstring): structured statements over typed expressions.

Every expression has `.type`, a NumPy dtype; float16 never appears (it is computed as float32).
Statements keep the source line (`.line`) for error messages. Nodes are plain classes with
__slots__; `dump(function)` prints a function for tests and debugging."""


class Node:
    __slots__ = ()

    def __repr__(self):
        fields = ", ".join(f"{k}={getattr(self, k)!r}" for k in self.__slots__ if k != "line")
        return f"{type(self).__name__}({fields})"


# ------------------------------------------------------------------ functions and variables

class Var(Node):
    """A local variable (parameters too): one type for the whole function."""
    __slots__ = ("name", "type")

    def __init__(self, name, type):
        self.name = name
        self.type = type

    def __repr__(self):
        return f"Var({self.name}: {self.type})"


class Function(Node):
    """A typed function: params (Vars, in order), the return type, the body (statements), every
    local Var, and where it came from."""
    __slots__ = ("name", "params", "return_type", "body", "locals", "filename", "line")

    def __init__(self, name, params, return_type, body, locals, filename, line):
        self.name = name
        self.params = params
        self.return_type = return_type
        self.body = body
        self.locals = locals
        self.filename = filename
        self.line = line


# ------------------------------------------------------------------ statements

class Assign(Node):
    """target = value (value.type == target.type)."""
    __slots__ = ("target", "value", "line")

    def __init__(self, target, value, line):
        self.target = target
        self.value = value
        self.line = line


class If(Node):
    __slots__ = ("test", "body", "orelse", "line")

    def __init__(self, test, body, orelse, line):
        self.test = test
        self.body = body
        self.orelse = orelse
        self.line = line


class While(Node):
    """while test: body, else: orelse (run when the loop ends without break)."""
    __slots__ = ("test", "body", "orelse", "line")

    def __init__(self, test, body, orelse, line):
        self.test = test
        self.body = body
        self.orelse = orelse
        self.line = line


class ForRange(Node):
    """for var in range(start, stop, step): body, else: orelse. start, stop, step are int64 and
    evaluated once; var takes start, start + step, ... while it is before stop (step 0: no
    iteration); after the loop var keeps its last value, as in Python."""
    __slots__ = ("var", "start", "stop", "step", "body", "orelse", "line")

    def __init__(self, var, start, stop, step, body, orelse, line):
        self.var = var
        self.start = start
        self.stop = stop
        self.step = step
        self.body = body
        self.orelse = orelse
        self.line = line


class Break(Node):
    __slots__ = ("line",)

    def __init__(self, line):
        self.line = line


class Continue(Node):
    __slots__ = ("line",)

    def __init__(self, line):
        self.line = line


class Return(Node):
    """return value (value.type == the function's return type)."""
    __slots__ = ("value", "line")

    def __init__(self, value, line):
        self.value = value
        self.line = line


# ------------------------------------------------------------------ expressions

class Const(Node):
    """A constant; value is a Python or NumPy number of `type`."""
    __slots__ = ("value", "type")

    def __init__(self, value, type):
        self.value = value
        self.type = type


class Load(Node):
    __slots__ = ("var", "type")

    def __init__(self, var):
        self.var = var
        self.type = var.type


class Cast(Node):
    """value converted to type as NumPy's unsafe casts convert (C casts; complex to real takes
    the real part; to bool: != 0)."""
    __slots__ = ("value", "type")

    def __init__(self, value, type):
        self.value = value
        self.type = type


class Op(Node):
    """The op-table loop of `op` (a pygpu ufunc's name in ops.def: 'add', 'sin', 'less',
    '_where', ...) whose input types are the args' types; type is that loop's output type.
    Semantics: exactly the ufunc's loop on one element (integer division by zero is 0, ...)."""
    __slots__ = ("op", "args", "type")

    def __init__(self, op, args, type):
        self.op = op
        self.args = args
        self.type = type


class Select(Node):
    """cond ? a : b with both evaluated (numpy.where); cond is bool, a and b of `type`."""
    __slots__ = ("cond", "a", "b", "type")

    def __init__(self, cond, a, b, type):
        self.cond = cond
        self.a = a
        self.b = b
        self.type = type


class IfExp(Node):
    """a if cond else b, evaluating only the branch taken (Python's conditional expression)."""
    __slots__ = ("cond", "a", "b", "type")

    def __init__(self, cond, a, b, type):
        self.cond = cond
        self.a = a
        self.b = b
        self.type = type


class BoolOp(Node):
    """Python's `and` / `or` over values of `type`: evaluates left to right and stops at the first
    false (and) or true (or) value, which is the result; else the last value. `tests` are the
    values' truth (bool expressions over the same values, one fewer than values)."""
    __slots__ = ("op", "values", "tests", "type")

    def __init__(self, op, values, tests, type):
        self.op = op
        self.values = values
        self.tests = tests
        self.type = type


class MakeComplex(Node):
    """re + im * 1j; re and im of the real type of `type` (complex64 or complex128)."""
    __slots__ = ("re", "im", "type")

    def __init__(self, re, im, type):
        self.re = re
        self.im = im
        self.type = type


class Real(Node):
    """The real part of a complex value (type: its real type)."""
    __slots__ = ("value", "type")

    def __init__(self, value, type):
        self.value = value
        self.type = type


class Imag(Node):
    __slots__ = ("value", "type")

    def __init__(self, value, type):
        self.value = value
        self.type = type


class Call(Node):
    """A call of another typed Function (a user function of the same subset); args match its
    params' types; type is its return type. Emitters inline it or call it."""
    __slots__ = ("function", "args", "type")

    def __init__(self, function, args, type):
        self.function = function
        self.args = args
        self.type = type


# ------------------------------------------------------------------ helpers

def children(expr):
    """The sub-expressions of an expression."""
    if isinstance(expr, (Const, Load)):
        return ()
    if isinstance(expr, (Cast, Real, Imag)):
        return (expr.value,)
    if isinstance(expr, (Op, Call)):
        return tuple(expr.args)
    if isinstance(expr, (Select, IfExp)):
        return (expr.cond, expr.a, expr.b)
    if isinstance(expr, BoolOp):
        return tuple(expr.values) + tuple(expr.tests)
    if isinstance(expr, MakeComplex):
        return (expr.re, expr.im)
    raise TypeError(f"not an expression: {expr!r}")


def calls_with_control_flow(expr):
    """True when evaluating expr runs a called Function that has loops or several returns (so an
    emitter must not evaluate it speculatively: it might not end)."""
    if isinstance(expr, Call) and _has_control_flow(expr.function.body):
        return True
    return any(calls_with_control_flow(c) for c in children(expr))


def _has_control_flow(stmts):
    for s in stmts:
        if isinstance(s, (While, ForRange)):
            return True
        if isinstance(s, If) and (_has_control_flow(s.body) or _has_control_flow(s.orelse)):
            return True
        for e in _stmt_exprs(s):
            if calls_with_control_flow(e):
                return True
    return False


def _stmt_exprs(s):
    if isinstance(s, Assign):
        return (s.value,)
    if isinstance(s, (If, While)):
        return (s.test,)
    if isinstance(s, ForRange):
        return (s.start, s.stop, s.step)
    if isinstance(s, Return):
        return (s.value,)
    return ()


def dump(fn, indent="    "):
    """A readable listing of a Function."""
    out = [f"def {fn.name}({', '.join(f'{p.name}: {p.type}' for p in fn.params)}) -> {fn.return_type}:"]

    def expr(e):
        if isinstance(e, Const):
            return f"{e.value!r}:{e.type}"
        if isinstance(e, Load):
            return e.var.name
        if isinstance(e, Cast):
            return f"{e.type}({expr(e.value)})"
        if isinstance(e, Op):
            return f"{e.op}({', '.join(expr(a) for a in e.args)})"
        if isinstance(e, Select):
            return f"select({expr(e.cond)}, {expr(e.a)}, {expr(e.b)})"
        if isinstance(e, IfExp):
            return f"({expr(e.a)} if {expr(e.cond)} else {expr(e.b)})"
        if isinstance(e, BoolOp):
            return "(" + f" {e.op} ".join(expr(v) for v in e.values) + ")"
        if isinstance(e, MakeComplex):
            return f"complex({expr(e.re)}, {expr(e.im)})"
        if isinstance(e, Real):
            return f"{expr(e.value)}.real"
        if isinstance(e, Imag):
            return f"{expr(e.value)}.imag"
        if isinstance(e, Call):
            return f"{e.function.name}({', '.join(expr(a) for a in e.args)})"
        return repr(e)

    def block(stmts, depth):
        pad = indent * depth
        if not stmts:
            out.append(pad + "pass")
        for s in stmts:
            if isinstance(s, Assign):
                out.append(f"{pad}{s.target.name} = {expr(s.value)}")
            elif isinstance(s, If):
                out.append(f"{pad}if {expr(s.test)}:")
                block(s.body, depth + 1)
                if s.orelse:
                    out.append(f"{pad}else:")
                    block(s.orelse, depth + 1)
            elif isinstance(s, While):
                out.append(f"{pad}while {expr(s.test)}:")
                block(s.body, depth + 1)
                if s.orelse:
                    out.append(f"{pad}else:")
                    block(s.orelse, depth + 1)
            elif isinstance(s, ForRange):
                out.append(f"{pad}for {s.var.name} in range({expr(s.start)}, {expr(s.stop)}, {expr(s.step)}):")
                block(s.body, depth + 1)
                if s.orelse:
                    out.append(f"{pad}else:")
                    block(s.orelse, depth + 1)
            elif isinstance(s, Break):
                out.append(pad + "break")
            elif isinstance(s, Continue):
                out.append(pad + "continue")
            elif isinstance(s, Return):
                out.append(f"{pad}return {expr(s.value)}")

    block(fn.body, 1)
    return "\n".join(out)
