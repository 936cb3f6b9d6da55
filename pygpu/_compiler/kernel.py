"""The front end of kernels (cuda.jit, guvectorize): the vectorize subset (frontend.py) plus arrays
and Numba's CUDA names, typed with Numba's rules into the typed IR and its kernel nodes (kir.py).

Added to the subset:
  - array arguments: a[i, j] (an index per dimension, negative ones counted from the end), stores
    a[i] = v and a[i] += v (v converted to the array's dtype), a.shape, a.strides, a.size, a.ndim,
    len(a), views by slicing or partial indexing assigned to a name (row = a[i], b = a[1:, ::2]);
  - tuples of numbers: cuda.grid(2), a.shape, tuple displays; unpacked (i, j = cuda.grid(2)),
    indexed with constants, or held in a local;
  - Numba's CUDA names (pygpu/_jit/stubs.py, or numba.cuda's own): threadIdx/blockIdx/blockDim/
    gridDim .x .y .z (int32), grid and gridsize (int64), laneid, warpsize, shared.array (constant
    shape, or 0 for the launch's dynamic shared memory), local.array, const.array_like (of a
    global NumPy array), syncthreads(_count/_and/_or), syncwarp, threadfence(_block/_system),
    atomic.*, shfl_*_sync, all/any/eq/ballot_sync, match_any/all_sync, activemask, popc, clz, ffs, brev, fma, selp;
  - statements: `return` without a value, calls for their effect (cuda.syncthreads());
  - device functions (any function of this subset, or @cuda.jit(device=True)), taking arrays and
    numbers, returning a number or nothing.
"""
import ast
import math

import numpy as np

from . import ir, kir, rules
from . import types as T
from .errors import compile_error
from .frontend import FunctionCompiler, NoSource, _strip_docstring
from .source import source_of


class TupleValue:
    """A tuple of typed expressions, known while compiling (never a C value); `names`: a
    namedtuple's field names, or None."""
    type = None

    def __init__(self, items, names=None):
        self.items = list(items)
        self.names = tuple(names) if names is not None else None


def _is_pure(e):
    """Whether evaluating e twice is evaluating it once: reads of locals, array elements and
    attributes, and arithmetic on them (no calls)."""
    if isinstance(e, (ir.Const, ir.Load, kir.ArrayAttr)):
        return True
    if isinstance(e, kir.Intrinsic) and not e.name.startswith(("tuple_item.", "struct_item.")):
        return False
    if not isinstance(e, (ir.Op, ir.Cast, ir.Select, ir.IfExp, ir.BoolOp, ir.MakeComplex, ir.Real, ir.Imag,
                          kir.Element, kir.Intrinsic)):
        return False
    parts = [getattr(e, k) for k in e.__slots__ if k not in ("type", "line")]
    return all(_is_pure(x) for p in parts for x in (p if isinstance(p, (list, tuple)) else [p])
               if isinstance(x, ir.Node))


class RecordRef:
    """A record of an array of records (r[i], or a name bound to one: rec = r[i]), known while
    compiling (never a C value): its fields are read and written in place (r[i].x, rec['y'] = v),
    as Numba's records are references into their array."""
    type = None

    def __init__(self, element):
        self.element = element   # a kir.Element whose type is None: the record's place


def _shape_parameters(fn):
    """The positions of fn's parameters that give a shared or local array's shape: Numba takes a
    literal passed there (f(a, 32) -> cuda.shared.array(n, ...)) as the constant it is, and so
    does user_call (the callee compiled per value)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return ()
    found = _SHAPE_PARAMETERS.get(code)
    if found is None:
        src = source_of(fn)
        used = set()
        for call in ast.walk(src.node) if src is not None else ():
            func = call.func if isinstance(call, ast.Call) else None
            if isinstance(func, ast.Attribute) and func.attr == "array" and \
                    isinstance(func.value, ast.Attribute) and func.value.attr in ("shared", "local"):
                shape = call.args[0] if call.args else next((k.value for k in call.keywords if k.arg == "shape"), None)
                used |= {n.id for n in ast.walk(shape) if isinstance(n, ast.Name)} if shape is not None else set()
        params = code.co_varnames[:code.co_argcount]
        found = _SHAPE_PARAMETERS[code] = tuple(k for k, p in enumerate(params) if p in used)
    return found


_SHAPE_PARAMETERS = {}


def _flag_parameters(fn):
    """The positions of fn's parameters that are an `if`'s test (`if neg_idx:`, `if not flag:`)
    and never assigned: a literal True or False passed there is bound as a constant, as Numba
    types the call with the literal, so that the branch it rules out is pruned (not typed)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return ()
    found = _FLAG_PARAMETERS.get(code)
    if found is None:
        src = source_of(fn)
        tests, assigned = set(), set()
        for n in ast.walk(src.node) if src is not None else ():
            if isinstance(n, ast.If):
                t = n.test.operand if isinstance(n.test, ast.UnaryOp) and isinstance(n.test.op, ast.Not) else n.test
                if isinstance(t, ast.Name):
                    tests.add(t.id)
            elif isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                assigned.add(n.id)
        params = code.co_varnames[:code.co_argcount]
        found = _FLAG_PARAMETERS[code] = tuple(k for k, p in enumerate(params) if p in tests and p not in assigned)
    return found


_FLAG_PARAMETERS = {}


class FunctionArg:
    """A function passed to a device function or a kernel: a device function, a cuda.* intrinsic
    (cuda.atomic.add), an operator, math or NumPy function; or a type (np.float32, a dtype,
    Numba's uint32). Bound while compiling, as Numba binds dispatcher arguments: the callee is
    compiled once per object it is given, and uses it as it would by its global name."""
    type = None

    def __init__(self, obj):
        self.obj = obj

    def key(self):
        try:
            hash(self.obj)
            return self.obj
        except TypeError:
            return ("id", id(self.obj))

    def __eq__(self, other):
        return isinstance(other, FunctionArg) and type(self.key()) is type(other.key()) and self.key() == other.key()

    def __hash__(self):
        return hash(self.key())

    def __str__(self):
        return getattr(self.obj, "__name__", None) or str(self.obj)


_DIM3 = ("threadIdx", "blockIdx", "blockDim", "gridDim")
_SYNC_REDUCE = {"syncthreads_count": T.INT32, "syncthreads_and": T.INT32, "syncthreads_or": T.INT32}
_FENCES = ("threadfence", "threadfence_block", "threadfence_system")
_SHUFFLES = ("shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync")
_VOTES = {"all_sync": T.BOOL, "any_sync": T.BOOL, "eq_sync": T.BOOL, "ballot_sync": T.UINT32}
_ATOMIC_ARGS = {"add": 3, "sub": 3, "max": 3, "min": 3, "nanmax": 3, "nanmin": 3, "and_": 3, "or_": 3, "xor": 3,
                "exch": 3, "inc": 3, "dec": 3, "cas": 4, "compare_and_swap": 3}
_ATOMIC_TYPES = {
    "add": (T.INT32, T.UINT32, T.INT64, T.UINT64, T.FLOAT16, T.FLOAT32, T.FLOAT64),
    "sub": (T.INT32, T.UINT32, T.INT64, T.UINT64, T.FLOAT16, T.FLOAT32, T.FLOAT64),
    "max": (T.INT32, T.UINT32, T.INT64, T.UINT64, T.FLOAT16, T.FLOAT32, T.FLOAT64),
    "min": (T.INT32, T.UINT32, T.INT64, T.UINT64, T.FLOAT16, T.FLOAT32, T.FLOAT64),
    "nanmax": (T.INT32, T.UINT32, T.INT64, T.UINT64, T.FLOAT16, T.FLOAT32, T.FLOAT64),
    "nanmin": (T.INT32, T.UINT32, T.INT64, T.UINT64, T.FLOAT16, T.FLOAT32, T.FLOAT64),
    "and_": (T.INT32, T.UINT32, T.INT64, T.UINT64), "or_": (T.INT32, T.UINT32, T.INT64, T.UINT64),
    "xor": (T.INT32, T.UINT32, T.INT64, T.UINT64),
    "exch": (T.INT32, T.UINT32, T.INT64, T.UINT64, T.FLOAT16, T.FLOAT32, T.FLOAT64),
    "inc": (T.UINT32, T.UINT64), "dec": (T.UINT32, T.UINT64),
    "cas": (T.INT32, T.UINT32, T.INT64, T.UINT64), "compare_and_swap": (T.INT32, T.UINT32, T.INT64, T.UINT64),
}
_SHUFFLE_TYPES = (T.INT32, T.UINT32, T.INT64, T.UINT64, T.FLOAT32, T.FLOAT64)
# math functions of kernels beyond the vectorize subset's op table: CUDA's and the C library's
# functions of the same names (float32 in, float32 out, as Numba types them)
# cuda.fp16: (arguments, operator or op-table op)
_FP16 = {"hadd": (2, "+"), "hsub": (2, "-"), "hmul": (2, "*"), "hdiv": (2, "/"), "hneg": (1, "neg"),
         "habs": (1, "absolute"), "hfma": (3, "fma"), "hmax": (2, "fmax"), "hmin": (2, "fmin"), "hsqrt": (1, "sqrt"),
         "hrsqrt": (1, "rsqrt"), "hrcp": (1, "reciprocal"), "hexp": (1, "exp"), "hexp2": (1, "exp2"),
         "hexp10": (1, "exp10"), "hlog": (1, "log"), "hlog2": (1, "log2"), "hlog10": (1, "log10"), "hsin": (1, "sin"),
         "hcos": (1, "cos"), "hceil": (1, "ceil"), "hfloor": (1, "floor"), "htrunc": (1, "trunc"), "hrint": (1, "rint"),
         "heq": (2, "=="), "hne": (2, "!="), "hge": (2, ">="), "hgt": (2, ">"), "hle": (2, "<="), "hlt": (2, "<")}
_COMPARE_FP16 = ("==", "!=", ">=", ">", "<=", "<")
_KERNEL_MATH1 = {math.erf: "erf", math.erfc: "erfc", math.gamma: "tgamma", math.lgamma: "lgamma"}
_KERNEL_MATH2 = {math.remainder: "remainder"}
_NOT_FOUND = object()


def _is_intrinsic_value(name):
    """A CUDA name that is a number rather than a function: threadIdx.x, warpsize, laneid."""
    parts = name.split(".")
    return (parts[0] in _DIM3 and len(parts) == 2) or name in ("warpsize", "laneid")


def _is_namedtuple_class(obj):
    return isinstance(obj, type) and issubclass(obj, tuple) and isinstance(getattr(obj, "_fields", None), tuple)


def kernel_name_of(obj):
    """The Numba CUDA name an object stands for ('grid', 'threadIdx.x', 'atomic.add'), from
    pygpu's stubs or numba.cuda's own; None for anything else."""
    name = getattr(obj, "_kernel_name", None)
    if isinstance(name, str):
        return name
    mod = getattr(obj, "__module__", "") or ""
    if mod.startswith("numba.cuda.stubs") or mod.startswith("numba_cuda.numba.cuda.stubs"):
        q = getattr(obj, "__qualname__", None) or getattr(type(obj), "__qualname__", "")
        return q
    return None


class KernelCompiler(FunctionCompiler):
    """Types a kernel (kind 'kernel': returns nothing) or a device function ('device': returns a
    number or nothing) for argument types (dtypes and kir.ArrayType)."""

    def __init__(self, fn, arg_types, kind="kernel", context="cuda.jit", cache=None, stack=(), dynamic_shared=None,
                 functions=None, records=None, tuples=None):
        # functions: {position: function} of the arguments that are functions (FunctionArg); the
        # other arguments' types are arg_types. Those parameters become names bound to the
        # functions, as globals are, and are no parameters of the compiled function.
        # records: {position: ndim} of the arguments that are records (f(r[i])): each is given as
        # its array and ndim int64 indices (in arg_types), and its name refers to that record.
        # tuples: {position: cudajit.TupleArg} of the arguments that are tuples holding arrays or
        # tuples: each is given as its leaves (in arg_types), and its name refers to the tuple.
        functions, records, tuples = functions or {}, records or {}, tuples or {}
        nleaves = {k: len(list(t.leaves())) for k, t in tuples.items()}
        rest = iter(arg_types)
        every, record_types = [], {}
        for k in range(len(arg_types) + len(functions) - sum(records.values()) - sum(nleaves.values())
                       + len(tuples)):
            if k in functions:
                every.append(T.INT64)
            elif k in records:
                record_types[k] = [next(rest) for _ in range(1 + records[k])]
                every.append(T.INT64)
            elif k in tuples:
                record_types[k] = [next(rest) for _ in range(nleaves[k])]
                every.append(T.INT64)
            else:
                every.append(next(rest))
        super().__init__(fn, every, None, context, cache, stack)
        self.record_params = {}   # parameter name -> (its array's hidden name, its indices' hidden names)
        self.tuple_params = {}    # parameter name -> (its TupleArg, its leaves' hidden names)
        if record_types:
            names, types = [], []
            for k, (name, t) in enumerate(zip(self.param_names, self.arg_types)):
                if k not in record_types:
                    names.append(name)
                    types.append(t)
                    continue
                what = "a tuple" if k in tuples else "a record"
                if name in self.assigned:
                    raise self.error(f"parameter '{name}' holds {what} and is assigned in {self.context}: assign "
                                     f"{'another name' if k in tuples else 'its fields'}", self.node)
                if k in tuples:
                    hidden = [f"{name}$t{d}" for d in range(nleaves[k])]
                    self.tuple_params[name] = (tuples[k], hidden)
                else:
                    hidden = [f"{name}$records"] + [f"{name}$i{d}" for d in range(records[k])]
                    self.record_params[name] = (hidden[0], hidden[1:])
                self.assigned.add(name)   # a local name (the record, the tuple), not a global
                names += hidden
                types += record_types[k]
            self.param_names, self.arg_types = names, types
        if functions:
            bound = {self.param_names[k]: f for k, f in functions.items() if k < len(self.param_names)}
            for name, f in bound.items():
                if name in self.assigned:
                    raise self.error(f"parameter '{name}' holds a function and is assigned: a function argument "
                                     f"stays what it was given in {self.context}", self.node)
                self.closure[name] = f
            keep = [k for k in range(len(self.param_names)) if k not in functions]
            self.param_names = [self.param_names[k] for k in keep]
            self.arg_types = [self.arg_types[k] for k in keep]
        self.kind = kind
        self.dynamic_shared = dynamic_shared if dynamic_shared is not None else {}
        self._hoisted = None   # the views the statement being compiled makes (stmt, hoist_view)
        self.constants = {}   # const.array_like arrays: name -> values

    # -------------------------------------------------------------- driver

    def compile(self):
        # tuple arguments are tuples of their items (a kernel's PgTup<T, n>.v[k], a device
        # function's struct fields), never locals
        tuple_params = {n: ir.Var(n, t) for n, t in zip(self.param_names, self.arg_types)
                        if kir.is_tuple(t) or kir.is_struct(t)}
        vtypes = {n: t for n, t in zip(self.param_names, self.arg_types) if n not in tuple_params}
        self.ret_type = None
        self.returns_value = False
        self.bare_return = None
        # the function this compile makes, filled at the end: what a recursive call calls
        self.made = ir.Function(self.name, [], None, [], [], self.src.filename, self.src.line(self.node))
        for _ in range(50):
            self.vtypes = vtypes
            self.changed = False
            self.unknown = None
            self.vars = {}
            self.weak = set()
            self.tuples = {n: _param_items(v) for n, v in tuple_params.items()}
            for name, (targ, hidden) in self.tuple_params.items():   # its leaves' parameters, nested
                self.tuples[name] = self._tuple_of_leaves(targ, iter(hidden))
            self.records = {}    # names bound to records (rec = r[i]): RecordRef over hidden index locals
            for name, (arr, idx) in self.record_params.items():   # f(r[i]): the parameter is that record
                self.records[name] = RecordRef(kir.Element(ir.Load(self.var(arr)), [ir.Load(self.var(i)) for i in idx],
                                                           None, self.src.line(self.node)))
            self.decl_count = 0
            body = self.block(_strip_docstring(self.node.body))
            if not self.changed:
                break
        else:  # pragma: no cover
            raise self.error("the types of the locals do not settle", self.node)
        if self.unknown is not None:
            raise compile_error(f"local variable '{self.unknown.name}' may be used before it is assigned",
                                self.src.filename, self.unknown.line)
        if self.returns_value and self.bare_return is not None:
            raise self.error(f"{self.name}() returns a value elsewhere; return one here too", self.bare_return)
        ret = self.ret_type if self.returns_value else kir.VOID
        if self.returns_value and not _always_returns_value(body):
            raise self.error(f"{self.name}() returns a value on some paths only (a device function returns a "
                             f"number on every path, or nothing)", self.node)
        params = []
        for name, t in zip(self.param_names, self.arg_types):
            if name in tuple_params:
                params.append(tuple_params[name])
                continue
            var = self.vars.get(name)
            if var is None or var.type == t:
                params.append(var or ir.Var(name, t))
            else:
                p = ir.Var(name, t)
                params.append(p)
                body.insert(0, ir.Assign(var, ir.Cast(ir.Load(p), var.type), self.src.line(self.node)))
        if ret is not kir.VOID:
            body = self._cast_returns(body)
        body = self.track_assignments(body)
        made = self.made
        made.params, made.return_type, made.body, made.locals = params, ret, body, list(self.vars.values())
        return made

    def _tuple_of_leaves(self, targ, hidden):
        items = [self._tuple_of_leaves(t, hidden) if hasattr(t, "leaves") else ir.Load(self.var(next(hidden)))
                 for t in targ.items]
        return TupleValue(items, targ.names)

    def bind_tuple(self, name, value, node, line):
        """name = a tuple: one local per item (name$0, ...), nested tuples and arrays too. The
        statements and the TupleValue of those locals."""
        out, items = [], []
        for i, v in enumerate(value.items):
            sub = f"{name}${i}"
            if isinstance(v, TupleValue):
                more, v = self.bind_tuple(sub, v, node, line)
                out += more
                items.append(v)
                continue
            if not isinstance(v, RecordRef) and kir.is_array(v.type):   # a view, copied as arrays are
                var = self.assign_type(sub, v.type)
                out.append(ir.Assign(var, v, line))
            else:
                var = self.assign_type(sub, self._scalar(v, node).type)
                out.append(ir.Assign(var, self.cast(v, var.type), line))
            items.append(ir.Load(var))
        return out, TupleValue(items, value.names)

    def binop(self, op, a, b, node):
        """With debug=True (self.cache["$debug"]: (debug, fastmath)), a float `/`, `//` or `%` by
        zero raises ZeroDivisionError, as Numba's Python error model does there; a float32 `/` under
        fastmath does not (Numba's fast division). Without debug: inf or nan, NumPy's model."""
        e = super().binop(op, a, b, node)
        debug, fastmath = self.cache.get("$debug", (False, False))
        if not (debug and isinstance(op, (ast.Div, ast.FloorDiv, ast.Mod)) and T.is_float(e.type)):
            return e
        if isinstance(op, ast.Div) and fastmath and a.type == T.FLOAT32 and b.type == T.FLOAT32:
            return e
        if not _is_pure(b):   # read once, into a hidden local before the statement
            if self._hoisted is None:
                return e
            name = f"$divisor{node.lineno}_{node.col_offset}"
            self.assigned.add(name)
            var = self.assign_type(name, b.type)
            self._hoisted.append(ir.Assign(var, b, self.src.line(node)))
            b = ir.Load(var)
            e = super().binop(op, a, b, node)
        text = "modulo by zero" if isinstance(op, ast.Mod) else "division by zero"
        site, message = self._raise_entry(ZeroDivisionError, text, self.src.line(node))
        zero = rules.compare("==", b, ir.Const(0, b.type))
        return ir.IfExp(zero, kir.Intrinsic("raise_value:%d:%s" % (site, message), [], e.type), e, e.type)

    # -------------------------------------------------------------- types of locals

    def assign_type(self, name, t):
        old = self.vtypes.get(name)
        if kir.is_struct(t) or kir.is_struct(old):   # a device function's tuple, held for unpacking
            if old is not None and old != t:
                t = kir.StructType((T.unify(a, b) for a, b in zip(old.dtypes, t.dtypes)),
                                   old.names if old.names == t.names else None)
            if old != t:
                self.vtypes[name] = t
                self.changed = True
            var = self.var(name)
            var.type = t
            return var
        if kir.is_array(t) or kir.is_array(old):
            if old is not None and old != t:
                raise compile_error(f"'{name}' holds arrays of different types ({old} and {t}); an array variable "
                                    f"keeps one type", self.src.filename, getattr(self, "_line", None))
            if old is None:
                self.vtypes[name] = t
                self.changed = True
            return self.var(name)
        return super().assign_type(name, t)

    def cast(self, e, t):
        if kir.is_struct(t):   # a returned tuple: each item to the struct's type for it
            if isinstance(e, kir.Intrinsic) and e.name == "make_struct":
                return kir.Intrinsic("make_struct", [self.cast(a, d) for a, d in zip(e.args, t.dtypes)], t)
            return e
        return super().cast(e, t)

    def _scalar(self, e, node, what="a number"):
        if isinstance(e, TupleValue):
            raise self.error(f"a tuple is not {what} here in {self.context}", node)
        if isinstance(e, RecordRef):
            raise self.error(f"a record is not {what} here in {self.context} (use its fields: r[i].x)", node)
        if kir.is_array(e.type):
            raise self.error(f"an array is not {what} here in {self.context} (index it: a[i])", node)
        if e.type is kir.VOID:
            raise self.error(f"a call that returns nothing has no value in {self.context}", node)
        return e

    # -------------------------------------------------------------- statements

    def stmt(self, s):
        """A statement's IR, preceded by the views its expressions made (hoist_view)."""
        outer, self._hoisted = self._hoisted, []
        try:
            out = self.statement(s)
        finally:
            hoisted, self._hoisted = self._hoisted, outer
        if hoisted and isinstance(s, ast.While):
            raise self.error("views (slices, .real, .imag, .view()) in a while condition are not supported in "
                             f"{self.context}: assign them to a name before the loop", s)
        return hoisted + out

    def hoist_view(self, node):
        """A view used as a value (cuda.atomic.cas(a[0:], ...), a.real[i]): a hidden local assigned
        just before the statement."""
        # named by where the view starts and ends: a view of a view (b[i:j].view(np.int32)[0])
        # starts where its base does
        name = f"$view{node.lineno}_{node.col_offset}_{getattr(node, 'end_lineno', None)}_" \
               f"{getattr(node, 'end_col_offset', None)}"
        self.assigned.add(name)
        self._hoisted.append(self.view_assign(name, node, node))
        return ir.Load(self.var(name))

    def statement(self, s):
        self._line = self.src.line(s)
        line = self._line
        if isinstance(s, ast.Return):
            if s.value is None or (isinstance(s.value, ast.Constant) and s.value.value is None):
                self.bare_return = self.bare_return or s
                return [ir.Return(None, line)]
            if self.kind == "kernel":
                raise self.error("a kernel cannot return a value (write results into an array argument)", s)
            value = self.expr(s.value)
            self.returns_value = True
            if isinstance(value, TupleValue):   # return a, b: a struct of their types
                items = [self._scalar(v, s.value) for v in value.items]
                t = kir.StructType((v.type for v in items), value.names)
                if self.ret_type is not None and not (kir.is_struct(self.ret_type)
                                                      and len(self.ret_type.dtypes) == len(t.dtypes)):
                    raise self.error(f"{self.name}() returns a {self.ret_type} elsewhere; every return gives the "
                                     f"same kind of value", s)
                new = t if self.ret_type is None else kir.StructType(
                    (T.unify(a, b) for a, b in zip(self.ret_type.dtypes, t.dtypes)),
                    t.names if t.names == self.ret_type.names else None)
                value = kir.Intrinsic("make_struct", items, new)
            else:
                value = self._scalar(value, s.value)
                if kir.is_struct(self.ret_type):
                    raise self.error(f"{self.name}() returns a tuple elsewhere; return one here too", s)
                new = value.type if self.ret_type is None else T.unify(self.ret_type, value.type)
            if self.ret_type is None or new != self.ret_type:
                self.ret_type = new
                self.changed = True
            return [ir.Return(value, line)]
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call):
            value = self.call(s.value, statement=True)
            return [kir.ExprStmt(value, line)]
        if isinstance(s, ast.Expr) and not (isinstance(s.value, ast.Constant) and isinstance(s.value.value, str)):
            # `a[0] ** 2` alone: evaluated for its effects (an index's check), as Numba compiles it
            value = self.expr(s.value)
            items = value.items if isinstance(value, TupleValue) else [value]
            return [kir.ExprStmt(v, line) for v in items
                    if not isinstance(v, (TupleValue, RecordRef, FunctionArg)) and not kir.is_array(v.type)]
        if isinstance(s, ast.AugAssign) and isinstance(s.target, (ast.Subscript, ast.Attribute)):
            target = self.field_target(s.target)
            if target is None and isinstance(s.target, ast.Attribute):
                return super().stmt(s)
            target = target or self.element(s.target)
            if isinstance(target, RecordRef):
                raise self.error(f"a record cannot be assigned as a whole in {self.context}: assign its fields", s)
            value = self.binop(s.op, target, self._scalar(self.expr(s.value), s.value), s)
            return [kir.Store(target, self.cast(value, target.type), line)]
        if isinstance(s, ast.AugAssign) and isinstance(s.target, ast.Name) and s.target.id in self.tuples:
            raise self.unsupported("augmented assignments to tuples", s)
        if isinstance(s, ast.For) and not (isinstance(s.iter, ast.Call) and self.resolve_object(s.iter.func) is range):
            return self.for_each(s)
        if isinstance(s, ast.Raise):
            if s.exc is None:
                raise self.unsupported("bare raise statements (re-raising)", s)
            return [kir.ExprStmt(self.raise_site(s.exc, s), line)]
        if isinstance(s, ast.Assert):
            fail = ir.Op("logical_not", [self.truth(self._scalar(self.expr(s.test), s.test))], T.BOOL)
            exc = ast.copy_location(ast.Call(ast.Name("AssertionError", ast.Load()),
                                             [s.msg] if s.msg is not None else [], []), s)
            return [ir.If(fail, [kir.ExprStmt(self.raise_site(exc, s, AssertionError), line)], [], line)]
        return super().stmt(s)

    def raise_site(self, exc, s, cls=None):
        """raise E / raise E(constants...): the site's number in this kernel's table of raises and
        the intrinsic that ends the thread with it (jit_prelude.h PG_JIT_RAISE)."""
        args = []
        if isinstance(exc, ast.Call):
            if exc.keywords:
                raise self.unsupported("keyword arguments of an exception", s)
            obj = cls if cls is not None else self.resolve_object(exc.func)
            for a in exc.args:
                v = a.value if isinstance(a, ast.Constant) else self.resolve_object(a)
                if v is _NOT_FOUND or not isinstance(v, (str, int, float, complex, bool, np.generic)):
                    raise self.error("an exception raised in a kernel takes constant arguments (a string, a number)", a)
                args.append(v)
        else:
            obj = self.resolve_object(exc)
            if isinstance(obj, BaseException):
                obj, args = type(obj), list(obj.args)
        if not (isinstance(obj, type) and issubclass(obj, BaseException)):
            raise self.error("raise takes an exception class, or one called with constant arguments", s)
        text = str(args[0]) if len(args) == 1 else str(tuple(args)) if args else ""
        site, message = self._raise_entry(obj, text, self.src.line(s))
        return kir.Intrinsic("raise:%d:%s" % (site, message), [], kir.VOID)

    def _raise_entry(self, cls, text, line):
        """A new site in this kernel's table of raises: its number and its message (module, class
        and text, as the CPU backend's trap carries them)."""
        raises = self.cache.setdefault("$raises", [])
        raises.append((cls, text, line))
        return len(raises) - 1, "%s\x1f%s\x1f%s" % (cls.__module__, cls.__qualname__, text)

    def for_each(self, s):
        """for over an array (its items, or rows), a tuple, enumerate(...) or zip(...) of them: a loop
        over range(len) that assigns the items (arrays), or the body once per item (tuples)."""
        it, target, index_target, start = s.iter, s.target, None, None
        if isinstance(it, ast.Call) and self.resolve_object(it.func) is enumerate:
            got = self._args(it, ["iterable", "start"], 1, "enumerate")
            if not (isinstance(target, ast.Tuple) and len(target.elts) == 2):
                raise self.error("for over enumerate(...) unpacks into two names: for i, x in enumerate(a)", s)
            index_target, target = target.elts
            it, start = got["iterable"], got.get("start")
        if isinstance(it, ast.Call) and self.resolve_object(it.func) is zip:
            if it.keywords or not it.args:
                raise self.error("zip() takes one or more sequences", it)
            if not (isinstance(target, ast.Tuple) and len(target.elts) == len(it.args)):
                raise self.error(f"for over zip() of {len(it.args)} sequences unpacks into {len(it.args)} names", s)
            seqs, items = list(it.args), list(target.elts)
        else:
            seqs, items = [it], [target]
        counted = {}   # zip(enumerate(a), b): the k-th sequence's (index target, start)
        for k, seq in enumerate(seqs):
            if isinstance(seq, ast.Call) and self.resolve_object(seq.func) is enumerate and len(seqs) > 1:
                got = self._args(seq, ["iterable", "start"], 1, "enumerate")
                if not (isinstance(items[k], ast.Tuple) and len(items[k].elts) == 2):
                    raise self.error("for over enumerate(...) unpacks into two names: for (i, x), y in "
                                     "zip(enumerate(a), b)", s)
                counted[k] = (items[k].elts[0], got.get("start"))
                items[k], seqs[k] = items[k].elts[1], got["iterable"]
        prologue = []
        counter = f"$i{s.lineno}"
        self.assigned.add(counter)   # hidden locals: not in the source, so not found by its scan
        for k, seq in enumerate(seqs):
            if not isinstance(seq, ast.Name):   # evaluated once, before the loop
                name = ast.copy_location(ast.Name(f"$seq{s.lineno}_{k}", ast.Store()), seq)
                self.assigned.add(name.id)
                prologue += self.stmt(ast.copy_location(ast.Assign([name], seq), s))
                seqs[k] = ast.copy_location(ast.Name(name.id, ast.Load()), seq)
        values = [self.expr(q) for q in seqs]
        arrays = [isinstance(v, TupleValue) or kir.is_array(v.type) for v in values]
        if not all(arrays):
            bad = next(q for q, a in zip(seqs, arrays) if not a)
            raise self.error(f"for loops go over arrays, tuples, range(), enumerate() and zip(), not a "
                             f"{self.expr(bad).type}", s)
        tuples = [isinstance(v, TupleValue) for v in values]

        def at(seq, index):
            return ast.copy_location(ast.Subscript(seq, index, ast.Load()), s)

        def assign(t, value):
            return ast.copy_location(ast.Assign([_store_target(t)], value), s)

        if all(tuples):   # unrolled: each item is a compile-time value
            if any(isinstance(n, (ast.Break, ast.Continue)) for n in _loop_body_nodes(s.body)):
                raise self.unsupported("break and continue in a for loop over a tuple", s)
            n = min(len(v.items) for v in values)
            out = list(prologue)
            for j in range(n):
                head = []
                for target_, start_ in [(index_target, start)] + list(counted.values()):
                    if target_ is not None:
                        idx = ast.Constant(j) if start_ is None else ast.BinOp(ast.Constant(j), ast.Add(), start_)
                        head.append(assign(target_, ast.copy_location(idx, s)))
                head += [assign(t, at(q, ast.Constant(j))) for t, q in zip(items, seqs)]
                for h in head:
                    ast.fix_missing_locations(h)
                    out += self.stmt(h)
                out += self.block(s.body)
            return out + self.block(s.orelse)
        if any(tuples):
            raise self.unsupported("zip() calls over tuples and arrays together", s)
        lengths = [ast.Call(ast.Name("len", ast.Load()), [q], []) for q in seqs]
        length = lengths[0] if len(lengths) == 1 else ast.Call(ast.Name("min", ast.Load()), lengths, [])
        i = ast.Name(counter, ast.Load())
        head = []
        for target_, start_ in [(index_target, start)] + list(counted.values()):
            if target_ is not None:
                head.append(assign(target_, i if start_ is None else ast.BinOp(i, ast.Add(), start_)))
        head += [assign(t, at(q, i)) for t, q in zip(items, seqs)]
        loop = ast.For(ast.Name(counter, ast.Store()), ast.Call(ast.Name("range", ast.Load()), [length], []),
                       head + s.body, s.orelse)
        ast.copy_location(loop, s)
        ast.fix_missing_locations(loop)
        return prologue + [self.for_range(loop)]

    def assign(self, targets, value_node, s):
        line = self.src.line(s)
        if len(targets) != 1:
            return self.chained_assign(targets, value_node, s)
        target = targets[0]
        if isinstance(target, ast.Subscript) and self._is_view(target):
            return self.slice_assign(target, value_node, s)
        if isinstance(target, (ast.Subscript, ast.Attribute)) and (
                isinstance(target, ast.Subscript) or self.field_target(target) is not None):
            dest = self.destination(target, s)
            return [self.store_to(dest, self._scalar(self.expr(value_node), value_node), s)]
        if isinstance(target, ast.Tuple) and (not isinstance(value_node, ast.Tuple) or
                                              not all(isinstance(n, ast.Name) for n in target.elts)):
            if isinstance(value_node, ast.Tuple):   # a[0], a[1] = x, y
                items = [self._scalar(self.expr(v), v) for v in value_node.elts]
            else:                                   # q[i], r[i] = f(...) of a function returning a tuple
                value = self.expr(value_node)
                if not isinstance(value, TupleValue):
                    raise self.unsupported("unpackings of anything but a tuple", s)
                items = value.items
            if len(target.elts) != len(items) or \
                    not all(isinstance(n, (ast.Name, ast.Subscript, ast.Attribute)) or
                            (isinstance(n, ast.Tuple) and isinstance(v, TupleValue))
                            for n, v in zip(target.elts, items)):
                raise self.error(f"cannot unpack {len(items)} values into {len(target.elts)} targets", s)
            out, temps = [], []
            for i, v in enumerate(items):   # all values first: a[0], a[1] = a[1], a[0] swaps
                if isinstance(v, TupleValue) or (not isinstance(v, RecordRef) and kir.is_array(v.type)):
                    # x, y = t of a tuple of tuples or arrays: each bound to its name
                    if not isinstance(target.elts[i], (ast.Name, ast.Tuple)):
                        raise self.error("a tuple or an array unpacks into a name only", s)
                    more, tv = self.bind_tuple(f"${s.lineno}.{i}", TupleValue([v]), s, line)
                    out += more
                    temps.append(tv.items[0])
                    continue
                tv = self.assign_type(f"${s.lineno}.{i}", v.type)
                out.append(ir.Assign(tv, self.cast(v, tv.type), line))
                temps.append(ir.Load(tv))
            for i, (n, tv) in enumerate(zip(target.elts, temps)):
                if isinstance(tv, TupleValue) and isinstance(n, ast.Tuple):   # (p, q), r = t: unpacked in turn
                    hidden = f"$u{s.lineno}.{i}"
                    self.tuples[hidden] = tv
                    out += self.assign([n], ast.copy_location(ast.Name(hidden, ast.Load()), n), s)
                    continue
                if isinstance(tv, TupleValue):
                    self.tuples[n.id] = tv
                    continue
                out.append(self.store(n.id, tv, s) if isinstance(n, ast.Name)
                           else self.store_to(self.destination(n, s), tv, s))
            return out
        if isinstance(target, ast.Name):
            if self._is_view(value_node):
                return [self.view_assign(target.id, value_node, s)]
            value = self.call(value_node) if isinstance(value_node, ast.Call) else self.expr(value_node)
            if isinstance(value, RecordRef):
                return self.bind_record(target.id, value, s)
            if isinstance(value, TupleValue):
                # a tuple in a local: one local per item
                out, self.tuples[target.id] = self.bind_tuple(target.id, value, value_node, line)
                return out
            if isinstance(value, kir.ArrayDecl):  # cuda.shared.array(...) & co.
                var = self.assign_type(target.id, value.var.type)
                value.var = var
                return [value]
            return [self.store(target.id, value, s)]
        return super().assign(targets, value_node, s)

    def slice_assign(self, target, value_node, s):
        """a[i, :] = v, a[i] = v of a 2-d array, a[i, 1:3] = b[j, :], t[x, y] = 1, 2, 3: Numba's
        setslice as loops over the view a[...]. A number is stored into every element, a tuple
        along the last axis, an array elementwise with NumPy's broadcasting (its axes of length 1
        repeat); other sizes raise ValueError, as Numba does. The source is read as the loops go,
        so an array overlapping the destination in another place reads updated elements."""
        tag = f"{s.lineno}_{s.col_offset}"
        line = self.src.line(s)
        out = []
        if self._is_view(value_node):   # the source first, as Python evaluates it
            src_name = f"$src{tag}"
            self.assigned.add(src_name)
            out.append(self.view_assign(src_name, value_node, s))
            value = ir.Load(self.var(src_name))
        else:
            value = self.call(value_node) if isinstance(value_node, ast.Call) else self.expr(value_node)
            src_name = value_node.id if isinstance(value_node, ast.Name) else None
        dst = f"$dst{tag}"
        self.assigned.add(dst)
        out.append(self.view_assign(dst, target, s))
        nd = self.var(dst).type.ndim
        code = []   # the loops, as Python with __pg_ names (renamed to hidden locals below)

        def loops(body, dims):
            text = body
            for d in reversed(range(dims)):
                text = f"for __pg_k{d} in range(__pg_dst.shape[{d}]):\n" + "\n".join(
                    "    " + ln for ln in text.split("\n"))
            return text

        def index(names):
            return ", ".join(names) if names else "()"

        mismatch = "raise ValueError('cannot assign slice from input of different size')"
        if isinstance(value, TupleValue):
            items = [self._scalar(v, value_node) for v in value.items]
            if nd == 0:
                raise self.error("a tuple cannot be assigned to an array element", s)
            for k, v in enumerate(items):
                tv = self.assign_type(f"$val{tag}.{k}", v.type)
                out.append(ir.Assign(tv, self.cast(v, tv.type), line))
            code.append(f"if __pg_dst.shape[{nd - 1}] != {len(items)}:\n    {mismatch}")
            lead = [f"__pg_k{d}" for d in range(nd - 1)]
            code.append(loops("\n".join(f"__pg_dst[{index(lead + [str(k)])}] = __pg_v{k}"
                                        for k in range(len(items))), nd - 1))
        elif isinstance(value, RecordRef):
            raise self.error(f"a record cannot be assigned as a whole in {self.context}: assign its fields", s)
        elif kir.is_array(value.type):
            if src_name is None:
                raise self.error(f"an array assigned to a slice is a name or a view in {self.context}", value_node)
            sd = value.type.ndim
            off = nd - sd
            src_index = []
            for d in range(sd):
                if d + off < 0:   # an extra leading axis of the source: of length 1, as Numba checks
                    code.append(f"if __pg_src.shape[{d}] != 1:\n"
                                f"    raise ValueError('cannot broadcast source array for assignment')")
                    src_index.append("0")
                    continue
                code.append(f"if __pg_src.shape[{d}] != 1 and __pg_src.shape[{d}] != __pg_dst.shape[{d + off}]:\n"
                            f"    {mismatch}")
                src_index.append(f"(__pg_k{d + off} if __pg_src.shape[{d}] != 1 else 0)")
            code.append(loops(f"__pg_dst[{index([f'__pg_k{d}' for d in range(nd)])}] = "
                              f"__pg_src[{index(src_index)}]", nd))
        else:
            v = self._scalar(value, value_node)
            tv = self.assign_type(f"$val{tag}", v.type)
            out.append(ir.Assign(tv, self.cast(v, tv.type), line))
            code.append(loops(f"__pg_dst[{index([f'__pg_k{d}' for d in range(nd)])}] = __pg_val", nd))
        tree = ast.parse("\n".join(code))
        names = {"__pg_dst": dst, "__pg_src": src_name, "__pg_val": f"$val{tag}"}
        for n in ast.walk(tree):
            if isinstance(n, ast.Name) and n.id.startswith("__pg_"):
                if n.id in names:
                    n.id = names[n.id]
                else:   # __pg_k<d>: a loop counter; __pg_v<k>: a tuple's item
                    n.id = f"$k{tag}_{n.id[6:]}" if n.id.startswith("__pg_k") else f"$val{tag}.{n.id[6:]}"
                if n.id.startswith("$"):
                    self.assigned.add(n.id)
            if hasattr(n, "lineno"):
                n.lineno, n.end_lineno, n.col_offset, n.end_col_offset = s.lineno, s.lineno, s.col_offset, s.col_offset
        for st in tree.body:
            out += self.stmt(st)
        return out

    def destination(self, target, s):
        """The array element or record field a store target names (a[i], r.x, a[i].x)."""
        field = self.field_target(target)
        if field is not None:
            return field
        if not isinstance(target, ast.Subscript):
            raise self.unsupported("assignments to attributes", s)
        elem = self.element(target)
        if isinstance(elem, RecordRef):
            raise self.error(f"a record cannot be assigned as a whole in {self.context}: assign its fields", s)
        return elem

    def store_to(self, dest, value, s):
        """The store of scalar value into destination() dest."""
        if T.is_complex(value.type) and not T.is_complex(dest.type):
            what = f"a field of {dest.dtype}" if isinstance(dest, kir.Field) else f"an array of {dest.type}"
            raise self.error(f"a complex value cannot be stored into {what}", s)
        return kir.Store(dest, self.cast(value, dest.type), self.src.line(s))

    def store(self, name, value, s):
        if kir.is_array(value.type):
            var = self.assign_type(name, value.type)
            return ir.Assign(var, value, self.src.line(s))
        if value.type is kir.VOID:
            raise self.error("a call that returns nothing has no value to assign", s)
        return super().store(name, value, s)

    # -------------------------------------------------------------- names and attributes

    def resolve_object(self, node):
        """The Python object a global name or attribute chain refers to, or _NOT_FOUND when it
        starts at a local."""
        if isinstance(node, ast.Name):
            if node.id in self.assigned or node.id in self.param_names:
                return _NOT_FOUND
            return self.resolve_name(node.id, node)
        if isinstance(node, ast.Attribute):
            base = self.resolve_object(node.value)
            if base is _NOT_FOUND:
                return _NOT_FOUND
            if not hasattr(base, node.attr):
                raise self.error(f"'{ast.unparse(node.value)}' has no attribute '{node.attr}'", node)
            return getattr(base, node.attr)
        if isinstance(node, ast.Subscript):   # Color['red']
            member = self.enum_member(node)
            return _NOT_FOUND if member is None else member
        return _NOT_FOUND

    def unassigned_read(self, name, node):
        # Numba compiles a read that some path leaves unassigned (a local set in each branch of an
        # if/elif chain the author knows covers every case): the read checks a hidden flag and
        # raises UnboundLocalError, naming its thread, when such a path ran
        self.__dict__.setdefault("maybe_unset", {})[id(node)] = name
        return None

    def checked_read(self, node):
        """A read of a local that may be unassigned (unassigned_read): its value where its flag says
        it was assigned, else UnboundLocalError."""
        name = node.id
        value = None if name in self.tuples or name in self.records else super().expr(node)
        if value is None or kir.is_array(value.type):
            raise FunctionCompiler.unassigned_read(self, name, node)
        flag = self.assign_type(f"$set_{name}", T.BOOL)
        site, message = self._raise_entry(UnboundLocalError, f"cannot access local variable '{name}' where it is "
                                                             f"not associated with a value", self.src.line(node))
        return ir.IfExp(ir.Load(flag), value, kir.Intrinsic("raise_value:%d:%s" % (site, message), [], value.type),
                        value.type)

    def track_assignments(self, body):
        """The flags of the locals checked_read reads: False on entry, True after each assignment."""
        names = set(getattr(self, "maybe_unset", {}).values())
        flags = {n: self.vars[f"$set_{n}"] for n in names if f"$set_{n}" in self.vars}
        if not flags:
            return body
        line = self.src.line(self.node)

        def set_flag(name, value, at):
            return ir.Assign(flags[name], ir.Const(value, T.BOOL), at)

        def walk(stmts):
            out = []
            for st in stmts:
                if isinstance(st, ir.If):
                    st = ir.If(st.test, walk(st.body), walk(st.orelse), st.line)
                elif isinstance(st, ir.While):
                    st = ir.While(st.test, walk(st.body), walk(st.orelse), st.line)
                elif isinstance(st, ir.ForRange):
                    head = [set_flag(st.var.name, True, st.line)] if st.var.name in flags else []
                    st = ir.ForRange(st.var, st.start, st.stop, st.step, head + walk(st.body), walk(st.orelse),
                                     st.line)
                out.append(st)
                if isinstance(st, ir.Assign) and st.target.name in flags:
                    out.append(set_flag(st.target.name, True, st.line))
            return out

        return [set_flag(n, False, line) for n in sorted(flags)] + walk(body)

    def expr(self, node):
        if isinstance(node, ast.Name):
            if id(node) in getattr(self, "maybe_unset", ()):
                return self.checked_read(node)
            if node.id in self.tuples:
                return self.tuples[node.id]
            if node.id in self.records:
                return self.records[node.id]
            return super().expr(node)
        if isinstance(node, ast.Attribute):
            obj = self.resolve_object(node)
            if obj is not _NOT_FOUND:
                name = kernel_name_of(obj)
                if name is not None:
                    return self.intrinsic_value(name, node)
                return self.value(obj, node, ast.unparse(node))
            base = self.expr(node.value)
            if isinstance(base, RecordRef):
                return self.field(base, node.attr, node)
            if isinstance(base, TupleValue):
                if base.names is not None:
                    if node.attr in base.names:
                        return base.items[base.names.index(node.attr)]
                    raise self.error(f"the namedtuple has no field '{node.attr}' (it has {', '.join(base.names)})",
                                     node)
                if node.attr in ("x", "y", "z", "w") and "xyzw".index(node.attr) < len(base.items):
                    return base.items["xyzw".index(node.attr)]   # a vector type's component
                raise self.error(f"attribute '{node.attr}' of a tuple is not supported in {self.context}", node)
            if kir.is_array(base.type):
                return self.array_attribute(base, node.attr, node)
            return super().attribute(node)
        if isinstance(node, ast.Tuple):
            return TupleValue([self.expr(e) for e in node.elts])
        if isinstance(node, ast.Subscript):
            if (member := self.enum_member(node)) is not None:
                return self.value(member, node, ast.unparse(node))
            base = self.expr(node.value)
            if isinstance(base, RecordRef):
                return self.field(base, self._field_name(node), node)
            if isinstance(base, TupleValue):
                index = self.expr(node.slice)
                if not isinstance(index, ir.Const):
                    return self.tuple_item_at(base, index, node)
                i = self.constant_int(node.slice, "a tuple index")
                if not -len(base.items) <= i < len(base.items):
                    raise self.error("tuple index out of range", node)
                return base.items[i]
            if not kir.is_array(base.type):
                raise self.error(f"a {base.type} cannot be indexed in {self.context}", node)
            indices = self._index_nodes(node)
            if (any(isinstance(i, ast.Slice) for i in indices) or self._index_count(indices) < base.type.ndim) \
                    and self._hoisted is not None:
                return self.hoist_view(node)
            if any(isinstance(i, ast.Slice) for i in indices) or self._index_count(indices) < base.type.ndim:
                raise self.error(f"slices and partial indexing of arrays make views, supported as the value of an "
                                 f"assignment (v = {ast.unparse(node)}) in {self.context}", node)
            return self.element(node, base)
        if isinstance(node, (ast.UnaryOp, ast.BinOp, ast.Compare, ast.BoolOp, ast.IfExp)):
            return self._checked(node)
        if isinstance(node, ast.Call):
            e = self.call(node)
            if isinstance(e, kir.ArrayDecl):
                raise self.error(f"{ast.unparse(node.func)}() makes an array: assign it to a name", node)
            if e.type is kir.VOID:
                raise self.error(f"{ast.unparse(node.func)}() returns nothing: it has no value", node)
            return e
        return super().expr(node)

    def _checked(self, node):
        """Operators over numbers only (an array or tuple operand is a CompileError)."""
        if isinstance(node, ast.BinOp):
            return self.binop(node.op, self._scalar(self.expr(node.left), node.left),
                              self._scalar(self.expr(node.right), node.right), node)
        if isinstance(node, ast.UnaryOp):
            self._scalar(self.expr(node.operand), node.operand)
        elif isinstance(node, ast.Compare):
            for n in [node.left] + node.comparators:
                self._scalar(self.expr(n), n)
        elif isinstance(node, ast.BoolOp):
            for n in node.values:
                self._scalar(self.expr(n), n)
        elif isinstance(node, ast.IfExp):
            for n in (node.test, node.body, node.orelse):
                self._scalar(self.expr(n), n)
        return super().expr(node)

    def tuple_item_at(self, base, index, node):
        """t[i] with i known at run time only (Numba's getitem of a UniTuple): the item i names,
        counted from the end when negative, as the items' common type; IndexError past an end."""
        index = self._scalar(index, node.slice, "an index")
        if not (T.is_int(index.type) or T.is_bool(index.type)):
            raise self.error(f"tuple indices must be integers, not {index.type}", node.slice)
        items = []
        for item in base.items:
            if isinstance(item, (TupleValue, RecordRef)) or kir.is_array(item.type):
                raise self.error(f"a tuple of arrays, tuples or records is indexed by a constant only in "
                                 f"{self.context}", node)
            items.append(self._scalar(item, node))
        t = items[0].type if items else T.INT64
        for item in items[1:]:
            t = T.unify(t, item.type)
        if not _is_pure(index):   # evaluated once, into a hidden local before the statement
            if self._hoisted is None:
                raise self.error(f"assign the index of {ast.unparse(node)} to a name first in {self.context}", node)
            name = f"$index{node.lineno}_{node.col_offset}"
            self.assigned.add(name)
            var = self.assign_type(name, index.type)
            self._hoisted.append(ir.Assign(var, index, self.src.line(node)))
            index = ir.Load(var)
        signed = T.is_int(index.type) and np.dtype(index.type).kind == "i"
        k = self.cast(index, T.INT64 if signed else T.UINT64)
        site, message = self._raise_entry(IndexError, "tuple index out of range", self.src.line(node))
        result = kir.Intrinsic("raise_value:%d:%s" % (site, message), [], t)
        n = len(items)
        for j in reversed(range(n)):
            hit = rules.compare("==", k, ir.Const(j, k.type))
            if signed:
                hit = ir.BoolOp("or", [hit, rules.compare("==", k, ir.Const(j - n, k.type))], [hit], T.BOOL)
            result = ir.IfExp(hit, self.cast(items[j], t), result, t)
        return result

    def constant_int(self, node, what):
        e = self.expr(node)
        if not (isinstance(e, ir.Const) and (T.is_int(e.type) or T.is_bool(e.type))):
            raise self.error(f"{what} must be a constant integer in {self.context}", node)
        return int(e.value)

    def array_attribute(self, a, attr, node):
        nd = a.type.ndim
        if attr in ("shape", "strides"):
            return TupleValue([kir.ArrayAttr(a, attr, d) for d in range(nd)])
        if attr == "ndim":
            return ir.Const(nd, T.INT64)
        if attr == "itemsize":
            return ir.Const(a.type.dtype.itemsize, T.INT64)
        if attr == "size":
            if nd == 0:
                return ir.Const(1, T.INT64)
            size = kir.ArrayAttr(a, "shape", 0)
            for d in range(1, nd):
                size = ir.Op("multiply", [size, kir.ArrayAttr(a, "shape", d)], T.INT64)
            return size
        if attr in ("real", "imag") and self._hoisted is not None:
            return self.hoist_view(node)
        raise self.error(f"attribute '{attr}' of an array is not supported in {self.context}", node)

    # -------------------------------------------------------------- indexing

    def _index_count(self, nodes):
        """How many indices the index nodes give: a tuple (gid = cuda.grid(2)) gives its items."""
        count = 0
        for n in nodes:
            e = self.expr(n)
            count += len(e.items) if isinstance(e, TupleValue) else 1
        return count

    def _index_nodes(self, node):
        s = node.slice
        return list(s.elts) if isinstance(s, ast.Tuple) else [s]

    def element(self, node, base=None):
        """The Element a[i, j, ...] of a subscript node (an index per dimension)."""
        if base is None:
            base = self.expr(node.value)
            if isinstance(base, TupleValue):
                raise self.error("tuples cannot be assigned to", node)
            if not kir.is_array(base.type):
                raise self.error(f"a {base.type} cannot be indexed in {self.context}", node)
        nodes = self._index_nodes(node)
        indices = []
        for n in nodes:
            if isinstance(n, ast.Slice):
                raise self.error(f"slices make views, supported as the value of an assignment in {self.context}", n)
            e = self.expr(n)
            if isinstance(e, TupleValue):
                indices.extend(e.items)
            else:
                indices.append(e)
        if len(indices) != base.type.ndim:
            raise self.error(f"a {base.type.ndim}-d array takes {base.type.ndim} indices, got {len(indices)}", node)
        for e in indices:
            self._scalar(e, node, "an index")
            if not (T.is_int(e.type) or T.is_bool(e.type)):
                raise self.error(f"array indices must be integers, not {e.type}", node)
        if kir.is_record(base.type.dtype):
            return RecordRef(kir.Element(base, indices, None, self.src.line(node)))
        # a float16 element is a float32 value (read widened, stored rounded: cemit.py)
        return kir.Element(base, indices, T.compute_type(base.type.dtype), self.src.line(node))

    # -------------------------------------------------------------- records (structured dtypes)

    def field(self, ref, name, node):
        """The Field `name` of a record."""
        dt = ref.element.array.type.dtype
        if name not in dt.names:
            raise self.error(f"the record has no field '{name}' (it has {', '.join(dt.names)})", node)
        fdt, offset = dt.fields[name][:2]
        if fdt not in T.NUMBER:
            raise self.error(f"field '{name}' is a {fdt}: fields of numbers are supported in {self.context} "
                             f"(not nested records or subarrays)", node)
        return kir.Field(ref.element, name, offset, fdt, self.src.line(node))

    def _field_name(self, node):
        s = node.slice
        if isinstance(s, ast.Constant) and isinstance(s.value, str):
            return s.value
        obj = self.resolve_object(s) if isinstance(s, (ast.Name, ast.Attribute)) else _NOT_FOUND
        if isinstance(obj, str):
            return obj
        raise self.error(f"a record is indexed by a field name (r[i]['x']) in {self.context}", node)

    def field_target(self, target):
        """The Field a store target names (r[i].x, r[i]['x'], rec.x), or None when it is no field."""
        base_node = target.value
        if not isinstance(base_node, (ast.Name, ast.Subscript)):
            return None
        if isinstance(base_node, ast.Name) and base_node.id not in self.records:
            return None
        if isinstance(base_node, ast.Subscript):
            arr = self.expr(base_node.value)
            if isinstance(arr, TupleValue) or not kir.is_array(arr.type) or not kir.is_record(arr.type.dtype):
                return None
        base = self.expr(base_node)
        if not isinstance(base, RecordRef):
            return None
        name = target.attr if isinstance(target, ast.Attribute) else self._field_name(target)
        return self.field(base, name, target)

    def bind_record(self, name, ref, s):
        """rec = r[i]: the name stands for that record from here on (its indices in hidden locals,
        so that a later change of i does not move it)."""
        line = self.src.line(s)
        out, loads = [], []
        for k, e in enumerate(ref.element.indices):
            var = self.assign_type(f"{name}$rec{k}", T.INT64)
            out.append(ir.Assign(var, self.cast(e, T.INT64), line))
            loads.append(ir.Load(var))
        old = self.records.get(name)
        if old is not None and old.element.array.type != ref.element.array.type:
            raise self.error(f"'{name}' holds records of two kinds of array in {self.context}", s)
        self.records[name] = RecordRef(kir.Element(ref.element.array, loads, None, ref.element.line))
        return out

    def _is_dtype_view(self, node):
        """a.view(dtype) of an array a."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "view"):
            return False
        if self.resolve_attribute(node.func) is not None:
            return False
        base = self.expr(node.func.value)
        return not isinstance(base, TupleValue) and kir.is_array(base.type)

    def _is_view(self, value_node):
        """Whether a value makes a view: a slice, fewer indices than dimensions, a.real, a.imag,
        a.view(dtype)."""
        if isinstance(value_node, ast.Attribute) and value_node.attr in ("real", "imag"):
            base = self.expr(value_node.value)
            return not isinstance(base, TupleValue) and kir.is_array(base.type)
        if self._is_dtype_view(value_node):
            return True
        if not isinstance(value_node, ast.Subscript):
            return False
        base = self.expr(value_node.value)
        if isinstance(base, TupleValue) or not kir.is_array(base.type):
            return False
        nodes = self._index_nodes(value_node)
        if any(isinstance(n, ast.Slice) for n in nodes):
            return True
        return self._index_count(nodes) < base.type.ndim

    def view_assign(self, name, node, s):
        if isinstance(node, (ast.Attribute, ast.Call)):
            return self.reinterpret_view(name, node, s)
        base = self.expr(node.value)
        items = []
        for n in self._index_nodes(node):
            if isinstance(n, ast.Slice):
                parts = []
                for p in (n.lower, n.upper, n.step):
                    if p is None:
                        parts.append(None)
                        continue
                    e = self._scalar(self.expr(p), p, "a slice bound")
                    if not (T.is_int(e.type) or T.is_bool(e.type)):
                        raise self.error(f"slice bounds must be integers, not {e.type}", p)
                    parts.append(self.cast(e, T.INT64))
                if isinstance(parts[2], ir.Const) and parts[2].value == 0:
                    raise self.error("slice step cannot be zero", n)
                items.append(("slice",) + tuple(parts))
            else:
                e = self._scalar(self.expr(n), n, "an index")
                if not (T.is_int(e.type) or T.is_bool(e.type)):
                    raise self.error(f"array indices must be integers, not {e.type}", n)
                items.append(("index", self.cast(e, T.INT64)))
        if len(items) > base.type.ndim:
            raise self.error(f"too many indices for a {base.type.ndim}-d array", node)
        items += [("slice", None, None, None)] * (base.type.ndim - len(items))
        ndim = sum(1 for it in items if it[0] == "slice")
        # a C-contiguous base gives a C-contiguous view when leading indices are followed by a
        # slice of step 1 and whole dimensions
        layout = "A"
        if base.type.layout == "C":
            k = 0
            while k < len(items) and items[k][0] == "index":
                k += 1
            rest = items[k:]
            if all(it[0] == "slice" for it in rest) and all(it[1:] == (None, None, None) for it in rest[1:]) \
                    and (not rest or rest[0][3] is None):
                layout = "C"
        t = kir.ArrayType(base.type.dtype, ndim, layout, base.type.space)
        var = self.assign_type(name, t)
        return kir.ViewAssign(var, base, items, self.src.line(s))

    def reinterpret_view(self, name, node, s):
        """var = a.real / a.imag (the parts of complex elements; a real array's .real is itself)
        or a.view(dtype) (the same bytes as another dtype: of the same size, or a smaller one that
        divides it along a C-contiguous last dimension)."""
        value = node.value if isinstance(node, ast.Attribute) else node.func.value
        base = self.expr(value)
        nd = base.type.ndim
        items = [("slice", None, None, None)] * nd
        if isinstance(node, ast.Attribute):
            if not T.is_complex(base.type.dtype):
                if node.attr == "imag":
                    raise self.error(f"the .imag of a {base.type.dtype} array is not supported in {self.context} "
                                     f"(it has none)", node)
                t, part = base.type, None
            else:
                real = T.real_of(base.type.dtype)
                t = kir.ArrayType(real, nd, "A", base.type.space)
                part = (real.itemsize if node.attr == "imag" else 0, None)
        else:
            if len(node.args) != 1 or node.keywords:
                raise self.error("view() takes one dtype", node)
            new = self._dtype(node.args[0], "view")
            old = base.type.dtype
            if new.itemsize == old.itemsize:
                t, part = kir.ArrayType(new, nd, base.type.layout, base.type.space), (0, None)
            elif new.itemsize < old.itemsize and base.type.layout == "C" and nd >= 1:
                t = kir.ArrayType(new, nd, "C", base.type.space)
                part = (0, old.itemsize // new.itemsize)
            elif new.itemsize > old.itemsize and base.type.layout == "C" and nd >= 1:
                # NumPy's rule: the last dimension's bytes hold whole new elements (a remainder
                # that does not fill one is left out of the view rather than read past the end;
                # then the rows are no longer C-contiguous, so a 2-d or more view keeps strides)
                t = kir.ArrayType(new, nd, "C" if nd == 1 else "A", base.type.space)
                part = (0, -(new.itemsize // old.itemsize))
            else:
                raise self.error(f"view({new}) of a {old} array: a dtype of the same size, or another one on a "
                                 f"C-contiguous array (declared float32[:, ::1], or a C-contiguous argument), "
                                 f"in {self.context}", node)
        var = self.assign_type(name, t)
        return kir.ViewAssign(var, base, items, self.src.line(s), part)

    # -------------------------------------------------------------- Numba's CUDA names

    def intrinsic_value(self, name, node):
        """A CUDA name used as a value: threadIdx.x, warpsize, laneid."""
        parts = name.split(".")
        if parts[0] in _DIM3 and len(parts) == 2 and parts[1] in "xyz":
            return kir.Intrinsic(name, [], T.INT32)
        if name == "warpsize":
            return ir.Const(32, T.INT32)
        if name == "laneid":
            return kir.Intrinsic("laneid", [], T.INT32)
        raise self.error(f"cuda.{name} is not a value (call it, or use an attribute of it)", node)

    def call(self, node, statement=False):
        node = self.spread_starred(node)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "bit_count" and self.resolve_attribute(func) is None:
            return self.bit_count(func.value, node)
        if self._is_dtype_view(node) and self._hoisted is not None:
            return self.hoist_view(node)
        obj = self.resolve_object(func) if isinstance(func, (ast.Name, ast.Attribute)) else _NOT_FOUND
        name = kernel_name_of(obj) if obj is not _NOT_FOUND else None
        if name is not None:
            return self.intrinsic_call(name, node, statement)
        if obj is len:
            if len(node.args) != 1 or node.keywords:
                raise self.error("len() takes exactly one argument", node)
            a = self.expr(node.args[0])
            if isinstance(a, TupleValue):
                return ir.Const(len(a.items), T.INT64)
            if not kir.is_array(a.type) or a.type.ndim == 0:
                raise self.error(f"len() of a {a.type} is not supported", node)
            return kir.ArrayAttr(a, "shape", 0)
        if obj is not _NOT_FOUND and not callable(obj):
            raise self.error(f"'{ast.unparse(func)}' is not a function", node)
        if obj is not _NOT_FOUND and T.is_type_object(obj):
            # numba.float32(x), pygpu.cuda.types.float32(x) & co.: a conversion
            if len(node.args) != 1 or node.keywords:
                raise self.error(f"{ast.unparse(func)}() takes one argument", node)
            return self.cast(self._scalar(self.expr(node.args[0]), node), T.compute_type(T.parse_type(obj)))
        if obj is not _NOT_FOUND and _is_namedtuple_class(obj):
            return self.namedtuple_call(obj, node)
        if obj is not _NOT_FOUND and _is_device_function(obj):
            if node.keywords:
                raise self.unsupported("keyword arguments", node)
            args = [self.function_argument(a) or self.expr(a) for a in node.args]
            for k, (a, n) in enumerate(zip(args, node.args)):
                if isinstance(a, TupleValue):   # passed as a struct of its items
                    items = [self._scalar(v, n, "an item of a tuple passed to a function") for v in a.items]
                    args[k] = kir.Intrinsic("make_struct", items, kir.StructType((v.type for v in items), a.names))
            e = self.user_call(obj, args, node, ast.unparse(func))
            if e.type is kir.VOID and not statement:
                raise self.error(f"{ast.unparse(func)}() returns nothing: it has no value", node)
            return e
        if obj is print:
            return self.print_call(node)
        if obj is divmod:   # (a // b, a % b) with Python's signs, as Numba's
            if len(node.args) != 2 or node.keywords:
                raise self.error("divmod() takes two arguments", node)
            a, b = (self._scalar(self.expr(x), x, "an argument of divmod()") for x in node.args)
            return TupleValue([self.binop(ast.FloorDiv(), a, b, node), self.binop(ast.Mod(), a, b, node)])
        if obj is not _NOT_FOUND and _hashable(obj) and (obj in _KERNEL_MATH1 or obj in _KERNEL_MATH2
                                                         or obj in (math.frexp, math.modf, math.ldexp)):
            return self.kernel_math_call(obj, node)
        # the vectorize subset's functions (math, builtins, NumPy): numbers only
        for a in node.args:
            self._scalar(self.expr(a), a, "an argument of a function of numbers")
        return super().call(node)

    def spread_starred(self, node):
        """f(*t) as f(t[0], t[1], ...) for a tuple t of known length (a tuple local or argument,
        a global tuple, a tuple display): what Python passes."""
        if not any(isinstance(a, ast.Starred) for a in node.args):
            return node
        args = []
        for a in node.args:
            if not isinstance(a, ast.Starred):
                args.append(a)
                continue
            if isinstance(a.value, (ast.Tuple, ast.List)):
                args += a.value.elts
                continue
            if not isinstance(a.value, (ast.Name, ast.Attribute)):
                raise self.error(f"*{ast.unparse(a.value)}: a starred argument is a tuple's name in {self.context} "
                                 f"(assign the tuple to a name first)", a)
            value = self.expr(a.value)
            if not isinstance(value, TupleValue):
                raise self.error(f"*{ast.unparse(a.value)}: only tuples can be unpacked into arguments in "
                                 f"{self.context}", a)
            args += [ast.copy_location(ast.Subscript(a.value, ast.Constant(k), ast.Load()), a)
                     for k in range(len(value.items))]
        return ast.copy_location(ast.Call(node.func, args, node.keywords), node)

    def function_argument(self, node):
        """A FunctionArg when an argument names a function rather than a value, else None."""
        if not isinstance(node, (ast.Name, ast.Attribute)):
            return None
        obj = self.resolve_object(node)
        if obj is _NOT_FOUND:
            return None
        if T.is_type_value(obj):
            return FunctionArg(obj)   # a type as a value: fill(a, np.float32) -> cuda.shared.array(4, dt)
        if isinstance(obj, type) or not callable(obj):
            return None
        name = kernel_name_of(obj)
        if name is not None and _is_intrinsic_value(name):
            return None   # cuda.threadIdx.x & co. are numbers
        return FunctionArg(obj)

    def namedtuple_call(self, cls, node):
        """Point(x, y) of a collections.namedtuple / typing.NamedTuple class: a tuple whose
        items have the class's field names (defaults as the class has them)."""
        fields = cls._fields
        given = self._args(node, fields, 0, cls.__name__)
        defaults = getattr(cls, "_field_defaults", {})
        items = []
        for f in fields:
            if f in given:
                items.append(self._scalar(self.expr(given[f]), given[f], f"a field of {cls.__name__}"))
            elif f in defaults:
                items.append(self.value(defaults[f], node, f"{cls.__name__}.{f}"))
            else:
                raise self.error(f"{cls.__name__}() missing argument '{f}'", node)
        return TupleValue(items, fields)

    def bit_count(self, value, node):
        """n.bit_count(): the 1 bits of |n| (Python's int.bit_count), counted by CUDA's popc."""
        if node.args or node.keywords:
            raise self.error("bit_count() takes no arguments", node)
        x = self._scalar(self.expr(value), value)
        if not (T.is_int(x.type) or T.is_bool(x.type)):
            raise self.error(f"method 'bit_count' of a {x.type} is not supported in {self.context}", node)
        if x.type.kind == "i":
            x = ir.Op("absolute", [x], x.type)   # INT64_MIN stays itself: its one bit, as Python counts 2**63
        return self.cast(kir.Intrinsic("popc", [self.cast(x, T.UINT64)], T.INT32), T.INT64)

    def kernel_math_call(self, f, node):
        """math.erf/erfc/gamma/lgamma/remainder/ldexp/frexp/modf, as C's functions of the float
        type (float32 stays float32; integers compute in float64)."""
        text = "math." + f.__name__
        nargs = 2 if f in _KERNEL_MATH2 or f is math.ldexp else 1
        if len(node.args) != nargs or node.keywords:
            raise self.error(f"{text}() takes {nargs} argument{'s' if nargs > 1 else ''}", node)
        args = [self._scalar(self.expr(a), a, f"an argument of {text}()") for a in node.args]
        for a, n in zip(args, node.args):
            if T.is_complex(a.type):
                raise self.error(f"{text}() does not take complex numbers", n)

        def real(t):
            return t if t == T.FLOAT32 else T.FLOAT64

        if f is math.ldexp:
            if not (T.is_int(args[1].type) or T.is_bool(args[1].type)):
                raise self.error("math.ldexp(): the exponent must be an integer", node.args[1])
            t = real(T.compute_type(args[0].type))
            return kir.Intrinsic("math.ldexp", [self.cast(args[0], t), self.cast(args[1], T.INT32)], t)
        if f in _KERNEL_MATH2:
            t = real(T.compute_type(T.promote(args[0].type, args[1].type)))
            return kir.Intrinsic("math." + _KERNEL_MATH2[f], [self.cast(a, t) for a in args], t)
        t = real(T.compute_type(args[0].type))
        x = self.cast(args[0], t)
        if f is math.frexp:   # (mantissa, exponent), as Python's
            return TupleValue([kir.Intrinsic("math.frexp.m", [x], t), kir.Intrinsic("math.frexp.e", [x], T.INT64)])
        if f is math.modf:    # (fractional part, integral part), both floats
            return TupleValue([kir.Intrinsic("math.modf.frac", [x], t), kir.Intrinsic("math.modf.int", [x], t)])
        return kir.Intrinsic("math." + _KERNEL_MATH1[f], [x], t)

    def print_call(self, node):
        """print(...) in a kernel: printf of its constant strings and numbers, separated by `sep`
        (a space) and ended by `end` (a newline), as Numba's CUDA print."""
        sep, end = " ", "\n"
        for kw in node.keywords:
            if kw.arg not in ("sep", "end") or not (isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str)):
                raise self.error("print() in a kernel takes constant strings for sep= and end= only", node)
            if kw.arg == "sep":
                sep = kw.value.value
            else:
                end = kw.value.value
        parts, values = [], []
        for a in node.args:
            if isinstance(a, ast.Constant) and isinstance(a.value, str):
                parts.append(a.value.replace("%", "%%"))
                continue
            e = self.expr(a)
            items = e.items if isinstance(e, TupleValue) else [e]
            shown = []
            for item in items:
                self._scalar(item, a, "something print() can show")
                if T.is_complex(item.type):
                    raise self.error("print() of complex numbers is not supported in kernels (print .real, .imag)", a)
                if T.is_bool(item.type):
                    shown.append("%s")
                    values.append(kir.Intrinsic("print.bool", [item], T.INT64))
                elif T.is_int(item.type):
                    shown.append("%lld" if item.type.kind == "i" else "%llu")
                    values.append(self.cast(item, T.INT64 if item.type.kind == "i" else T.UINT64))
                else:
                    shown.append("%f")
                    values.append(self.cast(item, T.FLOAT64))
            parts.append("(" + ", ".join(shown) + ("," if len(shown) == 1 else "") + ")"
                         if isinstance(e, TupleValue) else shown[0])
        fmt = sep.replace("%", "%%").join(parts) + end.replace("%", "%%")
        return kir.Intrinsic("print:" + fmt, values, kir.VOID)   # the format rides in the name

    def user_call(self, f, args, node, text):
        fn = getattr(f, "py_func", f)
        args = self.with_defaults(fn, args, node, text)
        for k in _flag_parameters(fn):   # f(a, False) of `if flag:`: bound, so the dead branch is pruned
            if k < len(args) and isinstance(args[k], ir.Const) and T.is_bool(args[k].type):
                args[k] = FunctionArg(bool(args[k].value))
        for k in _shape_parameters(fn):   # a constant for an array's shape: bound as one
            if k < len(args) and isinstance(args[k], ir.Const) and T.is_int(args[k].type):
                args[k] = FunctionArg(int(args[k].value))
            elif k < len(args) and _constant_int_tuple(args[k]):   # f(a, (4, 8))
                args[k] = FunctionArg(tuple(int(i.value) for i in args[k].args))
        declared_ret = None
        if getattr(f, "declared", None):   # @cuda.jit('float64(int32)', device=True)
            args, declared_ret = self.bind_signature(f, args, node, text)
        functions = {k: a.obj for k, a in enumerate(args) if isinstance(a, FunctionArg)}
        records = {k: len(a.element.indices) for k, a in enumerate(args) if isinstance(a, RecordRef)}
        passed = []
        for a in args:
            if isinstance(a, RecordRef):   # a record: its array and its indices
                passed += [a.element.array] + [self.cast(i, T.INT64) for i in a.element.indices]
            elif not isinstance(a, FunctionArg):
                passed.append(a)
        args = passed
        key = (fn, tuple(a.type for a in args), tuple((k, FunctionArg(o).key()) for k, o in functions.items()),
               tuple(sorted(records.items())))
        if fn in self.stack:
            callee, param_types, ret = self.recursive_callee(fn, key, node, text)
        else:
            callee = self.cache.get(key)
            if callee is None:
                try:
                    compiler = KernelCompiler(fn, [a.type for a in args], "device", self.context, self.cache,
                                              self.stack, self.dynamic_shared, functions, records)
                except NoSource as e:
                    raise self.error(f"{text}() cannot be compiled: {e}", node) from None
                compiler.key = key
                callee = self.cache[key] = compiler.compile()
            param_types, ret = [p.type for p in callee.params], callee.return_type
        cargs = [a if kir.is_array(t) else self.cast(a, t) for a, t in zip(args, param_types)]
        call = ir.Call(callee, cargs, ret)
        if declared_ret is not None and ret is not kir.VOID and not kir.is_struct(ret) and ret != declared_ret:
            return self.cast(call, declared_ret)
        if kir.is_struct(ret) and self._hoisted is not None:
            # a tuple: the call runs once, into a hidden local, before the statement; its items
            # are the struct's fields
            name = f"$ret{node.lineno}_{node.col_offset}"
            self.assigned.add(name)
            var = self.assign_type(name, ret)
            self._hoisted.append(ir.Assign(var, call, self.src.line(node)))
            return TupleValue([kir.Intrinsic("struct_item.%d" % k, [ir.Load(var)], t)
                               for k, t in enumerate(ret.dtypes)], ret.names)
        return call

    def bind_signature(self, f, args, node, text):
        """The arguments converted to the scalar types of one of f's declared signatures (Numba's
        overload choice, simplified: an exact match, else one every argument converts to safely,
        else the first of the right length, by unsafe conversion as Numba's implicit casts),
        and the declared return type."""
        def scalar(a):
            return not isinstance(a, (TupleValue, RecordRef, FunctionArg)) and isinstance(a.type, np.dtype)
        sigs = [s for s in f.declared if len(s[0]) == len(args)]
        if not sigs:
            raise self.error(f"{text}() takes {len(f.declared[0][0])} arguments by its signature "
                             f"({len(args)} given)", node)
        def fits(sig, rule):
            return all(not scalar(a) or kir.is_array(t) or rule(a.type, t) for a, t in zip(args, sig[0]))
        sig = next((s for s in sigs if fits(s, lambda a, t: a == t)), None) \
            or next((s for s in sigs if fits(s, lambda a, t: np.can_cast(a, t, "safe"))), None) or sigs[0]
        bound = [self.cast(a, t) if scalar(a) and not kir.is_array(t) else a for a, t in zip(args, sig[0])]
        return bound, sig[1]

    def recursive_callee(self, fn, key, node, text):
        """(function, parameter types, return type) of a device function calling itself with the
        arguments it was compiled for: the function this compile is making. Its return type is
        what the returns before the call gave (a base case first, as Numba needs)."""
        if fn is not self.fn or key != getattr(self, "key", None):
            raise self.error(f"recursive calls ({text}) are supported in {self.context} when a device function "
                             f"calls itself with arguments of the types it was called with (not through "
                             f"another function, nor with other types)", node)
        if self.returns_value:
            return self.made, self.arg_types, self.ret_type
        if any(isinstance(n, ast.Return) and n.value is not None and not (isinstance(n.value, ast.Constant)
                                                                         and n.value.value is None)
               for n in ast.walk(self.node)):
            raise self.error(f"{text}() calls itself before it returns a value: write the case that does not "
                             f"recurse first (if n <= 1: return 1), so that its type is known", node)
        return self.made, self.arg_types, kir.VOID

    def _args(self, node, names, required, text):
        """The call's arguments by Numba's parameter names: {name: ast node}."""
        if len(node.args) > len(names):
            raise self.error(f"{text}() takes at most {len(names)} arguments ({len(node.args)} given)", node)
        got = dict(zip(names, node.args))
        for kw in node.keywords:
            if kw.arg not in names or kw.arg in got:
                raise self.error(f"{text}() got an unexpected keyword argument '{kw.arg}'", node)
            got[kw.arg] = kw.value
        missing = [n for n in names[:required] if n not in got]
        if missing:
            raise self.error(f"{text}() missing argument '{missing[0]}'", node)
        return got

    def value(self, v, node, text):
        """A global or closure value: a number, or a tuple of them (SHAPE = (16, 16) as a shape or
        an index; a namedtuple keeps its field names)."""
        if isinstance(v, tuple):
            fields = getattr(type(v), "_fields", None)
            return TupleValue([self.value(x, node, f"{text}[{k}]") for k, x in enumerate(v)],
                              fields if isinstance(fields, tuple) and len(fields) == len(v) else None)
        return super().value(v, node, text)

    def _dtype(self, node, text, records=False):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            t = T.parse_type(node.value)
        else:
            obj = self.resolve_object(node)
            t = T.parse_type(obj) if obj is not _NOT_FOUND else None
            if t is None and records and isinstance(obj, np.dtype) and kir.is_record(obj):
                bad = kir.non_number_field(obj)
                if bad is not None:
                    raise self.error(f"{text}(): field '{bad}' is a {obj.fields[bad][0]}: records of numbers "
                                     f"are supported", node)
                return obj
        if t is None:
            raise self.error(f"{text}(): dtype must be a number type (float32, np.int64, 'f8', ...)", node)
        return t

    def _local_constants(self):
        """{name: value node} of the locals assigned exactly once, from a constant expression
        (N = 100, M = 2 * BLOCK): usable where Numba wants a constant (a shared array's shape)."""
        found = getattr(self, "_constants", None)
        if found is not None:
            return found
        counts, values = {}, {}
        for n in ast.walk(self.src.node):
            targets = []
            if isinstance(n, ast.Assign):
                targets = n.targets
            elif isinstance(n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
                targets = [n.target]
            for t in targets:
                for name, value in _bound_names(t, n.value if isinstance(n, ast.Assign) else None):
                    counts[name] = counts.get(name, 0) + 1
                    values[name] = value
        params = set(self.param_names)
        self._constants = {k: v for k, v in values.items()
                           if counts[k] == 1 and v is not None and k not in params and _constant_expression(v)}
        return self._constants

    def _shape(self, node, text):
        if isinstance(node, ast.Name) and node.id in self._local_constants():
            node = self._local_constants()[node.id]
        elif isinstance(node, ast.Tuple):
            node = ast.copy_location(ast.Tuple([self._local_constants().get(x.id, x) if isinstance(x, ast.Name) else x
                                                for x in node.elts], ast.Load()), node)
        e = self.expr(node)
        items = e.items if isinstance(e, TupleValue) else [e]
        shape = []
        for i in items:
            if not (isinstance(i, ir.Const) and (T.is_int(i.type))):
                raise self.error(f"{text}(): the shape must be a constant integer or a tuple of them (a global or a "
                                 f"literal)", node)
            if int(i.value) < 0:
                raise self.error(f"{text}(): negative dimensions are not allowed", node)
            shape.append(int(i.value))
        return tuple(shape)

    def intrinsic_call(self, name, node, statement):
        text = "cuda." + name
        line = self.src.line(node)
        parts = name.split(".")

        def args(names, required):
            got = self._args(node, names, required, text)
            return [self.expr(got[n]) if n in got else None for n in names]

        def scalars(values):
            return [self._scalar(v, node) if v is not None else None for v in values]

        if name in ("grid", "gridsize"):
            nd = self.constant_int(self._args(node, ["ndim"], 1, text)["ndim"], f"{text}()'s ndim")
            if nd not in (1, 2, 3):
                raise self.error(f"{text}() takes 1, 2 or 3 dimensions", node)
            items = [kir.Intrinsic(f"{name}.{a}", [], T.INT64) for a in "xyz"[:nd]]
            return items[0] if nd == 1 else TupleValue(items)
        if parts[0] in ("shared", "local") and parts[1:] == ["array"]:
            got = self._args(node, ["shape", "dtype", "alignment"], 2, text)
            shape = self._shape(got["shape"], text)
            dtype = self._dtype(got["dtype"], text, records=True)
            alignment = None
            if "alignment" in got and not (isinstance(got["alignment"], ast.Constant)
                                           and got["alignment"].value is None):
                alignment = self.constant_int(got["alignment"], f"{text}()'s alignment")
                if alignment <= 0 or alignment & (alignment - 1) or alignment > 4096:
                    raise self.error(f"{text}(): alignment must be a power of two up to 4096, not {alignment}", node)
            if parts[0] == "shared" and shape in ((0,), ()) and isinstance(got["shape"], ast.Constant):
                t = kir.ArrayType(dtype, 1, "C", "dynamic")
            else:
                if parts[0] == "shared" and 0 in shape and len(shape) == 1:
                    t = kir.ArrayType(dtype, 1, "C", "dynamic")
                else:
                    t = kir.ArrayType(dtype, len(shape), "C", parts[0])
            self.decl_count += 1
            var = ir.Var(f"${parts[0]}{self.decl_count}", t)
            return kir.ArrayDecl(var, t.space, shape, None, line, alignment)
        if name == "const.array_like":
            got = self._args(node, ["ndarray"], 1, text)
            obj = self.resolve_object(got["ndarray"])
            records = isinstance(obj, np.ndarray) and kir.is_record(obj.dtype) and \
                kir.non_number_field(obj.dtype) is None
            if not isinstance(obj, np.ndarray) or not (records or obj.dtype in T.NUMBER) or obj.dtype == T.FLOAT16:
                raise self.error(f"{text}() takes a global NumPy array of numbers or of records of numbers", node)
            t = kir.ArrayType(obj.dtype, obj.ndim, "C", "const")
            self.decl_count += 1
            var = ir.Var(f"$const{self.decl_count}", t)
            return kir.ArrayDecl(var, "const", obj.shape, np.ascontiguousarray(obj), line)
        if name == "syncthreads" or name in _FENCES:
            self._args(node, [], 0, text)
            return kir.Intrinsic(name, [], kir.VOID)
        if name == "syncwarp":
            (mask,) = scalars(args(["mask"], 0))
            return kir.Intrinsic(name, [self.cast(mask, T.UINT32)] if mask is not None else [], kir.VOID)
        if name in _SYNC_REDUCE:
            (pred,) = scalars(args(["predicate"], 1))
            return kir.Intrinsic(name, [self.truth(pred)], T.INT32)
        if name in _SHUFFLES:
            third = {"shfl_sync": "src_lane", "shfl_up_sync": "delta", "shfl_down_sync": "delta",
                     "shfl_xor_sync": "lane_mask"}[name]
            mask, value, k = scalars(args(["mask", "value", third], 3))
            vt = value.type
            if T.is_bool(vt) or vt in (T.INT8, T.INT16, T.UINT8, T.UINT16):
                vt = T.INT32
            if vt not in _SHUFFLE_TYPES:
                raise self.error(f"{text}() moves int32, int64, uint32, uint64, float32 or float64 values, not {vt}",
                                 node)
            return kir.Intrinsic(name, [self.cast(mask, T.UINT32), self.cast(value, vt), self.cast(k, T.INT32)], vt)
        if name in _VOTES:
            mask, pred = scalars(args(["mask", "predicate"], 2))
            return kir.Intrinsic(name, [self.cast(mask, T.UINT32), self.truth(pred)], _VOTES[name])
        if name in ("match_any_sync", "match_all_sync"):
            mask, value = scalars(args(["mask", "value"], 2))
            vt = value.type
            if T.is_bool(vt) or vt in (T.INT8, T.INT16, T.UINT8, T.UINT16):
                vt = T.INT32
            if vt not in _SHUFFLE_TYPES:
                raise self.error(f"{text}() compares int32, int64, uint32, uint64, float32 or float64 values, not "
                                 f"{vt}", node)
            ins = [self.cast(mask, T.UINT32), self.cast(value, vt)]
            if name == "match_any_sync":
                return kir.Intrinsic(name, ins, T.UINT32)
            # (mask, pred): one collective each, every lane running both
            return TupleValue([kir.Intrinsic("match_all_sync.mask", ins, T.UINT32),
                               kir.Intrinsic("match_all_sync.pred", ins, T.BOOL)])
        if name in ("activemask", "lanemask_lt"):
            self._args(node, [], 0, text)
            return kir.Intrinsic(name, [], T.UINT32)
        if name in ("popc", "clz", "ffs", "brev"):
            (x,) = scalars(args(["x"], 1))
            if not T.is_int(x.type):
                raise self.error(f"{text}() takes an integer, not {x.type}", node)
            if x.type.itemsize < 4 and name != "brev":
                # Numba's: the bits of the operand's own width (popc(int8(-1)) is 8, clz(int8(1)) 7)
                bits = 8 * x.type.itemsize
                wide = self.cast(self.cast(x, np.dtype(f"uint{bits}")), T.UINT32)
                r = kir.Intrinsic(name, [wide], T.INT32)
                return ir.Op("subtract", [r, ir.Const(32 - bits, T.INT32)], T.INT32) if name == "clz" else r
            t = x.type if x.type.itemsize >= 4 else T.INT32
            x = self.cast(x, t)
            return kir.Intrinsic(name, [x], x.type if name == "brev" else T.INT32)
        if name == "selp":   # PTX's selp: both sides evaluated, as numpy.where
            test, a, b = scalars(args(["predicate", "a", "b"], 3))
            t = T.unify(a.type, b.type)
            return ir.Select(self.truth(test), self.cast(a, t), self.cast(b, t), t)
        if name == "fma":
            a, b, c = scalars(args(["a", "b", "c"], 3))
            t = a.type
            for v in (b, c):
                t = T.promote(t, v.type)
            if not T.is_float(t):
                t = T.FLOAT64
            return kir.Intrinsic(name, [self.cast(a, t), self.cast(b, t), self.cast(c, t)], t)
        if parts[0] == "vector" and len(parts) == 2 and parts[1] in kir.VECTOR_TYPES:
            base, n = kir.VECTOR_TYPES[parts[1]]
            if node.keywords:
                raise self.error(f"{text}() takes its components by position", node)
            items = []
            for a in node.args:   # numbers, or vectors whose components follow in order
                v = self.expr(a)
                items += [self._scalar(x, a, f"a component of {text}()") for x in
                          (v.items if isinstance(v, TupleValue) else [v])]
            if len(items) == 1 and n > 1:
                items = items * n   # one value for every component
            if len(items) != n:
                raise self.error(f"{text}() takes {n} components, got {len(items)}", node)
            return TupleValue([self.cast(x, np.dtype(base)) for x in items])
        if parts[0] == "fp16" and len(parts) == 2 and parts[1] in _FP16:
            return self.fp16(parts[1], node, text)
        if name == "cbrt":   # the op table's cbrt, as math.cbrt (float32 stays float32)
            (x,) = scalars(args(["a"], 1))
            if T.is_complex(x.type):
                raise self.error(f"{text}() takes a real number, not {x.type}", node)
            t = x.type if x.type == T.FLOAT32 else T.FLOAT64
            return ir.Op("cbrt", [self.cast(x, t)], t)
        if parts[0] == "atomic" and len(parts) == 2 and parts[1] in _ATOMIC_ARGS:
            return self.atomic(parts[1], node, text)
        raise self.error(f"{text} is not supported in {self.context}", node)

    def fp16(self, op, node, text):
        """cuda.fp16.h*: the arguments rounded to float16, the operation in float32, the result
        rounded to float16 (a float32 value that is one: float16 has no scalar type here). Exact
        for + - * / sqrt and fma: float32 holds the exact product, and one rounding to float32
        then to float16 equals one rounding to float16 (24 >= 2 * 11 + 2)."""
        nargs, _ = _FP16[op]
        if len(node.args) != nargs or node.keywords:
            raise self.error(f"{text}() takes {nargs} argument{'s' if nargs > 1 else ''}", node)
        args = []
        for a in node.args:
            v = self._scalar(self.expr(a), a, f"an argument of {text}()")
            if T.is_complex(v.type):
                raise self.error(f"{text}() takes real numbers", a)
            args.append(rules.to_dtype(v, T.FLOAT16))
        _, how = _FP16[op]
        if how in _COMPARE_FP16:
            return rules.compare(how, args[0], args[1])
        if how in ("+", "-", "*", "/"):
            r = rules.binary(how, args[0], args[1])
        elif how == "neg":
            r = rules.unary("-", args[0])
        elif how == "fma":
            r = rules.binary("+", rules.binary("*", args[0], args[1]), args[2])   # the product is exact
        elif how in ("fmax", "fmin"):
            r = ir.Op(how, args, T.FLOAT32)
        elif how == "rsqrt":
            r = rules.binary("/", ir.Const(1.0, T.FLOAT32), ir.Op("sqrt", args, T.FLOAT32))
        elif how == "reciprocal":
            r = rules.binary("/", ir.Const(1.0, T.FLOAT32), args[0])
        elif how == "exp10":
            r = ir.Op("power", [ir.Const(10.0, T.FLOAT32), args[0]], T.FLOAT32)
        else:
            r = ir.Op(how, args, T.FLOAT32)
        return rules.to_dtype(r, T.FLOAT16)

    def atomic(self, op, node, text):
        n = _ATOMIC_ARGS[op]
        names = ["ary", "idx", "old", "val"] if op == "cas" else ["ary", "old", "val"] if op == "compare_and_swap" \
            else ["ary", "idx", "val"]
        got = self._args(node, names, n, text)
        arr = self.expr(got["ary"])
        if isinstance(arr, TupleValue) or not kir.is_array(arr.type):
            raise self.error(f"{text}() works on an array element: its first argument is an array", node)
        if op == "compare_and_swap":
            if arr.type.ndim != 1:
                raise self.error(f"{text}() takes a 1-d array", node)
            indices = [ir.Const(0, T.INT64)]
        else:
            idx = self.expr(got["idx"])
            indices = idx.items if isinstance(idx, TupleValue) else [idx]
            if len(indices) != arr.type.ndim:
                raise self.error(f"{text}(): a {arr.type.ndim}-d array takes {arr.type.ndim} indices, "
                                 f"got {len(indices)}", node)
            for e in indices:
                self._scalar(e, node, "an index")
                if not (T.is_int(e.type) or T.is_bool(e.type)):
                    raise self.error(f"array indices must be integers, not {e.type}", node)
        t = arr.type.dtype
        if t not in _ATOMIC_TYPES[op]:
            names_ = ", ".join(str(x) for x in _ATOMIC_TYPES[op])
            raise self.error(f"{text}() works on arrays of {names_}, not {t}", node)
        elem = kir.Element(arr, indices, t, self.src.line(node))
        values = [self._scalar(self.expr(got[k]), node) for k in names[n - (2 if op in ("cas", "compare_and_swap")
                                                                          else 1):]]
        # a float16 element: the value rounded to float16, the old value returned as its float32
        return kir.Intrinsic("atomic." + op, [elem] + [rules.to_dtype(v, t) for v in values], T.compute_type(t))


def _is_device_function(obj):
    import types as pytypes
    return isinstance(obj, pytypes.FunctionType) or (
        hasattr(obj, "py_func") and isinstance(obj.py_func, pytypes.FunctionType))


def _constant_int_tuple(e):
    """A tuple of integer literals passed to a device function (made into a struct there)."""
    return isinstance(e, kir.Intrinsic) and e.name == "make_struct" and e.type.names is None and \
        all(isinstance(i, ir.Const) and T.is_int(i.type) for i in e.args)


def _always_returns_value(stmts):
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, ir.Return):
        return last.value is not None
    if isinstance(last, ir.If):
        return _always_returns_value(last.body) and _always_returns_value(last.orelse)
    if isinstance(last, ir.While):
        return isinstance(last.test, ir.Const) and bool(last.test.value)
    return False


def compile_kernel(fn, arg_types, kind="kernel", context="cuda.jit"):
    """The typed IR of a kernel (or device function) for these argument types. CompileError when
    it is outside the subset; NoSource when it has no Python source."""
    return KernelCompiler(fn, arg_types, kind, context).compile()


def _hashable(obj):
    try:
        hash(obj)
    except TypeError:
        return False
    return True


def _constant_expression(node):
    """An expression of literals, names (globals) and arithmetic only: constant when its names are."""
    return all(isinstance(n, (ast.Constant, ast.Name, ast.BinOp, ast.UnaryOp, ast.operator, ast.unaryop, ast.Load,
                              ast.Attribute, ast.Tuple))
               for n in ast.walk(node))


def _bound_names(target, value):
    """(name, the expression it is given or None) of each local an assignment target binds:
    N = 4 gives N its 4, ROWS, COLS = 2, 16 each its item; a[i] = v binds nothing."""
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if isinstance(target, ast.Starred):
        return _bound_names(target.value, None)
    if isinstance(target, (ast.Tuple, ast.List)):
        items = value.elts if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) \
            and not any(isinstance(e, ast.Starred) for e in target.elts) else [None] * len(target.elts)
        return [b for t, v in zip(target.elts, items) for b in _bound_names(t, v)]
    return []


def _store_target(t):
    """A copy of an assignment target node in Store context (a loop's target reused)."""
    t = ast.parse(ast.unparse(t), mode="eval").body
    for n in ast.walk(t):
        if hasattr(n, "ctx"):
            n.ctx = ast.Store() if isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Starred)) else ast.Load()
    return t


def _loop_body_nodes(body):
    """The nodes of a loop body outside the loops nested in it (their break/continue are theirs)."""
    todo = list(body)
    while todo:
        n = todo.pop()
        yield n
        if isinstance(n, (ast.For, ast.While)):
            todo += n.orelse
            continue
        if isinstance(n, (ast.FunctionDef, ast.Lambda)):
            continue
        todo += list(ast.iter_child_nodes(n))


def _param_items(v):
    """The items of a tuple parameter: of a kernel's PgTup, or of a device function's struct."""
    if kir.is_tuple(v.type):
        return TupleValue([kir.Intrinsic("tuple_item.%d" % k, [ir.Load(v)], v.type.dtype) for k in range(v.type.n)],
                          v.type.names)
    return TupleValue([kir.Intrinsic("struct_item.%d" % k, [ir.Load(v)], t) for k, t in enumerate(v.type.dtypes)],
                      v.type.names)
