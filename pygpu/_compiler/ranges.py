"""Value-range facts about a kernel's integer locals, for the C emitter (cemit.py): which array
indices are provably non-negative (no Python wraparound needed) and which provably lie inside
their dimension (no bounds check needed either).

A fact about an integer value is a Range: a constant lower bound `lo`, and exclusive upper bounds
`v < S + k`, where S is a launch-invariant symbol (an array's shape[d], or None for a plain
constant k). The facts come from where values are made (cuda.grid, threadIdx & co. are >= 0,
x.shape[d] is the symbol itself, n = x.shape[0] keeps it) and from the comparisons guarding a
statement (`if 1 <= i < n - 1 and j >= 0:`, or `if i >= n: return` before it). Only what holds
on every path is kept: a variable assigned in a loop loses its facts for the whole loop, one
assigned in one branch of an `if` keeps only what both branches agree on, and an array given a
new value (a view) drops the facts about its shape.

Arithmetic is the kernel's: integers wrap. Only int64 sums and products keep facts, and adding a
constant only where it cannot wrap (magnitudes are tracked in bits: indices < 2^42, shapes <
2^63).

The analysis is sound for every device: an index it calls in range is in range on the GPU too.
"""
from . import ir, kir
from . import types as T

_BITS_INDEX = 42   # cuda.grid, threadIdx, blockIdx, blockDim, gridDim: < 2^31 * 1024
_BITS_SHAPE = 63


class Range:
    """lo <= v; v < S + k for each (S, k) in his; |v| < 2^bits; v == S + k for eq = (S, k)."""
    __slots__ = ("lo", "his", "bits", "eq")

    def __init__(self, lo=None, his=(), bits=64, eq=None):
        self.lo = lo
        self.his = frozenset(his)
        self.bits = bits
        self.eq = eq

    def upper(self):
        """The exclusive upper bounds, with the one eq implies."""
        if self.eq is None:
            return self.his
        return self.his | {(self.eq[0], self.eq[1] + 1)}

    def meet(self, other):
        """Both facts hold."""
        lo = self.lo if other.lo is None else other.lo if self.lo is None else max(self.lo, other.lo)
        return Range(lo, self.his | other.his, min(self.bits, other.bits), self.eq or other.eq)

    def join(self, other):
        """One of them holds."""
        lo = None if self.lo is None or other.lo is None else min(self.lo, other.lo)
        his = set()
        for s, k in self.upper():
            for s2, k2 in other.upper():
                if s == s2:
                    his.add((s, max(k, k2)))
        eq = self.eq if self.eq == other.eq else None
        return Range(lo, his, max(self.bits, other.bits), eq)


UNKNOWN = Range()


def _const_range(v):
    return Range(v, {(None, v + 1)}, max(int(v).bit_length() + 1, 1), (None, v))


def _is_int(t):
    return getattr(t, "kind", None) in ("i", "u")


def _strip(e):
    """e without widening integer casts (they keep the value)."""
    while isinstance(e, ir.Cast) and _is_int(e.type) and _is_int(e.value.type) and \
            (e.type.itemsize > e.value.type.itemsize or
             (e.type.itemsize == e.value.type.itemsize and e.type.kind == e.value.type.kind)) and \
            (e.type.kind == "i" or e.value.type.kind == "u"):
        e = e.value
    return e


class Analysis:
    """Facts for one function. `kinds` maps id(Element) to a tuple, per index: 'in' (provably
    inside its dimension), 'nonneg' (provably >= 0), ('fits', S, k) (>= 0 and < S + k, where S
    is a symbol: (id(Var), dim) of `arrays`, or None for 0) or None (anything: wrap and check).
    `plain_division` holds the id of each integer // and % whose dividend is provably >= 0 and
    divisor >= 1, where C's / and % compute Python's result."""

    def __init__(self, fn):
        self.kinds = {}
        self.plain_division = set()
        self.shapes = {}   # id(Var) of a declared shared/local/const array -> its constant shape
        self.rebound = set()   # id(Var) of arrays given another value somewhere (their shapes vary)
        self.arrays = {}       # id(Var) -> Var of the arrays whose shapes are symbols
        for s in _statements(fn.body):
            if isinstance(s, kir.ViewAssign) or (isinstance(s, ir.Assign) and kir.is_array(s.target.type)):
                self.rebound.add(id(s.var if isinstance(s, kir.ViewAssign) else s.target))
        self.run(fn.body, {})

    # ------------------------------------------------------------ expressions

    def range(self, e, env):
        e = _strip(e)
        if isinstance(e, ir.Const):
            return _const_range(int(e.value)) if _is_int(e.type) else UNKNOWN
        if not _is_int(getattr(e, "type", None)):
            return UNKNOWN
        if isinstance(e, ir.Load):
            return env.get(id(e.var), UNKNOWN)
        if isinstance(e, kir.Intrinsic):
            root = e.name.split(".")[0]
            if root in ("grid", "threadIdx", "blockIdx"):
                return Range(0, (), _BITS_INDEX)
            if root in ("blockDim", "gridDim", "gridsize"):
                return Range(1, (), _BITS_INDEX)
            if e.name == "laneid":
                return Range(0, {(None, 32)}, 6)
            return UNKNOWN
        if isinstance(e, kir.ArrayAttr) and e.attr == "shape":
            sym = self.symbol(e.array, e.dim)
            if sym is None:
                return Range(0, (), _BITS_SHAPE)
            if isinstance(sym, int):
                return _const_range(sym)
            return Range(0, (), _BITS_SHAPE, (sym, 0))
        if isinstance(e, ir.Op) and len(e.args) == 2 and e.op in ("add", "subtract") and e.type == T.INT64:
            a, b = self.range(e.args[0], env), self.range(e.args[1], env)
            if e.op == "add" and b.eq is not None and b.eq[0] is None:
                return self.add_const(a, b.eq[1])
            if e.op == "add" and a.eq is not None and a.eq[0] is None:
                return self.add_const(b, a.eq[1])
            if e.op == "subtract" and b.eq is not None and b.eq[0] is None:
                return self.add_const(a, -b.eq[1])
            if e.op == "add" and a.lo is not None and b.lo is not None and max(a.bits, b.bits) < 62:
                return Range(a.lo + b.lo, (), max(a.bits, b.bits) + 1)
            return UNKNOWN
        if isinstance(e, ir.Op) and len(e.args) == 2 and e.op in ("remainder", "floor_divide", "multiply"):
            a, b = self.range(e.args[0], env), self.range(e.args[1], env)
            if e.op == "remainder" and b.eq is not None and b.eq[0] is None and b.eq[1] > 0:
                return Range(0, {(None, b.eq[1])}, b.bits)   # Python's modulo takes the divisor's sign
            if a.lo is not None and a.lo >= 0 and b.lo is not None and b.lo > 0:
                if e.op in ("floor_divide", "remainder"):   # 0 <= a // b <= a and 0 <= a % b <= a
                    return Range(0, a.upper(), a.bits)
                if e.type == T.INT64 and a.bits + b.bits < 63:   # narrower types wrap sooner
                    return Range(a.lo * b.lo, (), a.bits + b.bits)
            return UNKNOWN
        return UNKNOWN

    def symbol(self, array, dim):
        """The launch-invariant symbol of array.shape[dim]: (id(Var), dim), or the int of a declared
        array's constant shape; None for an array that is not a plain variable."""
        array = _strip(array)
        if not isinstance(array, ir.Load):
            return None
        shape = self.shapes.get(id(array.var))
        if shape is not None:
            return int(shape[dim])
        self.arrays[id(array.var)] = array.var
        return (id(array.var), dim)

    @staticmethod
    def add_const(a, c):
        """a + c, kept only where it cannot wrap."""
        c = int(c)
        bits = max(a.bits, abs(c).bit_length()) + 1
        if bits > 63:
            safe = (c >= 0 and any(k + c <= 1 for s, k in a.upper() if s is not None)) or \
                   (c <= 0 and a.lo is not None and a.lo >= 0 and -c < 2 ** 62)
            if not safe:
                return UNKNOWN
            bits = 64
        lo = None if a.lo is None else a.lo + c
        his = {(s, k + c) for s, k in a.his}
        eq = None if a.eq is None else (a.eq[0], a.eq[1] + c)
        return Range(lo, his, bits, eq)

    # ------------------------------------------------------------ facts from tests

    def facts(self, test, env, truth=True):
        """{id(Var): Range} that hold where `test` is `truth`."""
        test = _strip(test)
        out = {}
        if isinstance(test, ir.BoolOp) and test.type == T.BOOL and test.op == ("and" if truth else "or"):
            for v in test.values:
                for k, r in self.facts(v, env, truth).items():
                    out[k] = out[k].meet(r) if k in out else r
            return out
        if isinstance(test, ir.Op) and test.op == "logical_not" and len(test.args) == 1:
            return self.facts(test.args[0], env, not truth)
        if not (isinstance(test, ir.Op) and len(test.args) == 2 and
                test.op in ("less", "less_equal", "greater", "greater_equal")):
            return out
        if not all(_is_int(a.type) for a in test.args):
            return out
        op = test.op
        if not truth:
            op = {"less": "greater_equal", "less_equal": "greater", "greater": "less_equal",
                  "greater_equal": "less"}[op]
        a, b = _strip(test.args[0]), _strip(test.args[1])
        if op in ("greater", "greater_equal"):   # as a < b / a <= b
            a, b = b, a
            op = "less" if op == "greater" else "less_equal"
        # a < b (or a <= b, i.e. a < b + 1)
        slack = 0 if op == "less" else 1
        ra, rb = self.range(a, env), self.range(b, env)
        if isinstance(a, ir.Load) and _is_int(a.var.type):
            his = {(s, k - 1 + slack) for s, k in rb.upper()}
            if his:
                self._add(out, a.var, Range(None, his))
        if isinstance(b, ir.Load) and _is_int(b.var.type) and ra.lo is not None:
            self._add(out, b.var, Range(ra.lo + 1 - slack))
        return out

    @staticmethod
    def _add(out, var, r):
        out[id(var)] = out[id(var)].meet(r) if id(var) in out else r

    # ------------------------------------------------------------ statements

    def run(self, stmts, env):
        """Walks stmts with the facts of env (updated in place); whether the block always leaves
        (return, break or continue at its end)."""
        for s in stmts:
            if not isinstance(s, ir.While):   # a loop's test: in loop(), with the loop's facts
                self.visit_exprs(s, env)
            if isinstance(s, ir.Assign):
                self.assign(s.target, self.range(s.value, env) if _is_int(s.target.type) else UNKNOWN, env)
            elif isinstance(s, kir.ArrayDecl):
                if s.space != "dynamic" and id(s.var) not in self.rebound:
                    self.shapes[id(s.var)] = tuple(int(d) for d in s.shape) or (1,)
                self.assign(s.var, UNKNOWN, env)
            elif isinstance(s, kir.ViewAssign):
                self.shapes.pop(id(s.var), None)
                self.assign(s.var, UNKNOWN, env)
            elif isinstance(s, ir.If):
                self.branch(s, env)
            elif isinstance(s, (ir.While, ir.ForRange)):
                self.loop(s, env)
            elif isinstance(s, (ir.Return, ir.Break, ir.Continue)):
                return True
        return False

    def assign(self, var, r, env):
        if kir.is_array(var.type):
            for k in [k for k, v in env.items() if any(s is not None and s[0] == id(var) for s, _ in v.upper())]:
                del env[k]
        if r is UNKNOWN:
            env.pop(id(var), None)
        else:
            env[id(var)] = r

    def branch(self, s, env):
        body_env = dict(env)
        for k, r in self.facts(s.test, env).items():
            body_env[k] = body_env[k].meet(r) if k in body_env else r
        else_env = dict(env)
        for k, r in self.facts(s.test, env, False).items():
            else_env[k] = else_env[k].meet(r) if k in else_env else r
        body_leaves = self.run(s.body, body_env)
        else_leaves = self.run(s.orelse, else_env)
        if body_leaves and else_leaves:
            merged = {}
        elif body_leaves:
            merged = else_env
        elif else_leaves:
            merged = body_env
        else:
            merged = {k: body_env[k].join(else_env[k]) for k in body_env.keys() & else_env.keys()}
        env.clear()
        env.update(merged)

    def loop(self, s, env):
        assigned = set()
        _assigned_in(s.body, assigned)
        _assigned_in(s.orelse, assigned)
        if isinstance(s, ir.ForRange):
            assigned.add(id(s.var))
        for k in assigned:
            env.pop(k, None)
        # an array reassigned in the loop: its shape facts go too
        for k in [k for k, v in env.items() if any(s_ is not None and s_[0] in assigned for s_, _ in v.upper())]:
            del env[k]
        body_env = dict(env)
        if isinstance(s, ir.While):
            self.visit_exprs(s, env)
            for k, r in self.facts(s.test, env).items():
                body_env[k] = body_env[k].meet(r) if k in body_env else r
        elif isinstance(s.step, ir.Const) and int(s.step.value) > 0 and s.var.type == T.INT64:
            start, stop = self.range(s.start, env), self.range(s.stop, env)
            bits = max(start.bits, stop.bits) if start.lo is not None and stop.upper() else 64
            body_env[id(s.var)] = Range(start.lo, {(x, k - 1) for x, k in stop.upper()}, bits)
        self.run(s.body, body_env)
        self.run(s.orelse, dict(env))

    # ------------------------------------------------------------ accesses

    def visit_exprs(self, s, env):
        """Classifies the array accesses of statement s's own expressions (not of nested blocks)."""
        roots = []
        if isinstance(s, (ir.Assign, kir.ExprStmt)):
            roots.append(s.value)
        elif isinstance(s, kir.Store):
            roots += [s.target, s.value]
        elif isinstance(s, (ir.If, ir.While)):
            roots.append(s.test)
        elif isinstance(s, ir.ForRange):
            roots += [s.start, s.stop, s.step]
        elif isinstance(s, ir.Return) and s.value is not None:
            roots.append(s.value)
        elif isinstance(s, kir.ViewAssign):
            roots.append(s.base)
            for item in s.items:
                roots += [x for x in item[1:] if x is not None]
        for r in roots:
            self.walk(r, env)

    def walk(self, e, env):
        if isinstance(e, kir.Element):
            self.kinds[id(e)] = tuple(self.index_kind(e.array, d, i, env) for d, i in enumerate(e.indices))
        if isinstance(e, ir.Op) and e.op in ("floor_divide", "remainder") and len(e.args) == 2 and \
                all(_is_int(a.type) for a in e.args):
            a, b = self.range(e.args[0], env), self.range(e.args[1], env)
            if a.lo is not None and a.lo >= 0 and b.lo is not None and b.lo >= 1:
                self.plain_division.add(id(e))
        if isinstance(e, ir.BoolOp):
            # a later value is evaluated only where the earlier ones allowed it
            inner = dict(env)
            for v in e.values:
                self.walk(v, inner)
                for k, r in self.facts(v, inner, e.op == "and").items():
                    inner[k] = inner[k].meet(r) if k in inner else r
            return
        for name in getattr(e, "__slots__", ()):
            if name == "function":
                continue   # a call's callee: analysed on its own, with its own parameters
            child = getattr(e, name, None)
            if isinstance(child, ir.Node):
                self.walk(child, env)
            elif isinstance(child, (list, tuple)):
                for c in child:
                    if isinstance(c, ir.Node):
                        self.walk(c, env)

    def index_kind(self, array, dim, index, env):
        r = self.range(index, env)
        if r.lo is None or r.lo < 0:
            return None
        sym = self.symbol(array, dim)
        if sym is None:
            return "nonneg"
        for s, k in r.upper():
            if (s == sym and k <= 0) or (s is None and isinstance(sym, int) and k <= sym):
                return "in"
        # bounded by another shape or a constant: in range where S + k <= the dimension, a test of
        # the launch's arguments that the emitter makes before the access (the check stays for
        # launches that fail it)
        if isinstance(sym, tuple):
            bounds = sorted(((s, k) for s, k in r.upper() if abs(k) < 2 ** 31),
                            key=lambda b: (b[0] is None, str(b[0]), b[1]))
            if bounds:
                return ("fits",) + bounds[0]
        return "nonneg"


def _statements(stmts):
    for s in stmts:
        yield s
        for name in ("body", "orelse"):
            yield from _statements(getattr(s, name, None) or ())


def _assigned_in(stmts, out):
    for s in stmts:
        if isinstance(s, ir.Assign):
            out.add(id(s.target))
        elif isinstance(s, (kir.ArrayDecl, kir.ViewAssign)):
            out.add(id(s.var))
        elif isinstance(s, ir.ForRange):
            out.add(id(s.var))
        for name in ("body", "orelse"):
            _assigned_in(getattr(s, name, None) or (), out)


def analyse(fn):
    """The facts of function fn that the emitter uses (kinds, plain_division)."""
    return Analysis(fn)
