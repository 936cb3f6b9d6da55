"""The C emitter: a kernel's typed IR (ir.py and kir.py) as readable CUDA C, compiled by NVRTC for a
GPU and by the host C++ compiler for the CPU, over the prelude kernels/jit_prelude.h.

Numbers are C scalars (int64_t, float, ...; complex as pg_complex64/128), arrays PgArr<T, N, C>
structs passed by value, a[i, j] is pg_at(a, line, i, j). Every operator is the op table's loop
(kernels/ops.def) of its IR Op, defined once per module from the table's own text as a function
op_<loop>(x0, x1) (plain C operators where they are the same: float + - * /, comparisons), so a
kernel computes what the ufuncs compute. Locals are declared at the top of each function; a
Python `for` runs a hidden counter so that its variable keeps Python's last value.
"""
import math

import numpy as np

from .. import _core
from . import ir, kir, optable, ranges, threadorder
from . import types as T

_CTYPES = {T.BOOL: "bool", T.INT8: "int8_t", T.INT16: "int16_t", T.INT32: "int32_t", T.INT64: "int64_t",
           T.UINT8: "uint8_t", T.UINT16: "uint16_t", T.UINT32: "uint32_t", T.UINT64: "uint64_t", T.FLOAT32: "float",
           T.FLOAT64: "double", T.COMPLEX64: "pg_complex64", T.COMPLEX128: "pg_complex128"}
_STORED = {**_CTYPES, T.BOOL: "pg_bool", T.FLOAT16: "pg_half"}   # array elements (float16: its bits)

_DIRECT_BINARY = {"add": "+", "subtract": "-", "multiply": "*", "divide": "/"}
_COMPARE = {"less": "<", "less_equal": "<=", "greater": ">", "greater_equal": ">=", "equal": "==",
            "not_equal": "!="}

_RESERVED = set("""alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t char32_t
class compl const constexpr const_cast continue decltype default delete do double dynamic_cast else enum explicit
export extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr
operator or or_eq private protected public register reinterpret_cast return short signed sizeof static
static_assert static_cast struct switch template this thread_local throw true try typedef typeid typename union
unsigned using virtual void volatile wchar_t while xor xor_eq restrict threadIdx blockIdx blockDim gridDim warpSize
NAN INFINITY assert main min max abs""".split())

# Lower-case macros of the C headers a kernel's source sees
_C_MACROS = set("""errno stdin stdout stderr offsetof signbit fpclassify isfinite isnormal isinf isnan isgreater
isgreaterequal isless islessequal islessgreater isunordered va_start va_arg va_end va_copy setjmp""".split())

# Global names of the C library that a kernel's C name must not take (its extern "C" symbol would
# clash with their declarations: the host C++ compiler sees math.h, stdlib.h, string.h and stdio.h
# with the GNU extensions, NVRTC its built-ins): the C99 math functions with their f and l forms,
# then the other headers' functions and POSIX/GNU names those headers declare
_MATH = """acos acosh asin asinh atan atan2 atanh cbrt ceil copysign cos cosh erf erfc exp exp2 expm1 fabs fdim
floor fma fmax fmin fmod frexp hypot ilogb ldexp lgamma llrint llround log log10 log1p log2 logb lrint lround modf
nan nearbyint nextafter nexttoward pow remainder remquo rint round scalbln scalbn sin sinh sqrt tan tanh tgamma trunc
exp10 pow10 sincos significand drem gamma j0 j1 jn y0 y1 yn finite isinf isnan""".split()
_LIBC = {m + suffix for m in _MATH for suffix in ("", "f", "l")} | set("""abs labs llabs div ldiv lldiv atof atoi
atol atoll strtod strtof strtol strtoll strtoul strtoull rand srand random srandom calloc malloc realloc free
aligned_alloc abort atexit exit quick_exit getenv setenv system bsearch qsort memcpy memmove memset memcmp memchr
strcpy strncpy strcat strncat strcmp strncmp strchr strrchr strlen strstr strtok strdup index rindex bzero bcopy
printf fprintf sprintf snprintf puts putchar getchar fopen fclose fread fwrite remove rename tmpfile scanf sscanf
perror fflush fputs fgets select signal raise time clock sleep read write open close fork kill wait""".split())

_op_sources = None


def op_sources():
    global _op_sources
    if _op_sources is None:
        _op_sources = _core._op_sources()
    return _op_sources


def struct_name(t):
    """The C struct of a device function's returned tuple (struct_definition defines it)."""
    return "pg_ret_" + "_".join(T.SUFFIX[d] for d in t.dtypes)


def struct_definition(t):
    fields = " ".join("%s v%d;" % (_CTYPES[d], k) for k, d in enumerate(t.dtypes))
    return "struct %s { %s };" % (struct_name(t), fields)


def stored(dtype):
    """The C type of an array element of dtype: the number's storage, or a record's bytes
    (pg_rec<itemsize, alignment>, jit_prelude.h)."""
    if dtype.names is not None:
        return "pg_rec<%d, %d>" % (dtype.itemsize, _record_alignment(dtype))
    return _STORED[dtype]


def _record_alignment(dtype):
    """The alignment pygpu gives records of dtype: the largest power of two that divides the
    itemsize, up to 16 (so that an array of them has no gaps)."""
    n = dtype.itemsize
    return min(16, n & -n) if n else 1


def ctype(t):
    if kir.is_struct(t):
        return struct_name(t)
    if kir.is_tuple(t):
        return "PgTup<%s, %d>" % (_CTYPES[t.dtype], t.n)
    if kir.is_array(t):
        return "PgArr<%s, %d, %s>" % (stored(t.dtype), t.ndim, "true" if t.layout == "C" else "false")
    if t is kir.VOID:
        return "void"
    return _CTYPES[t]


def _c_string(text):
    """A C string literal of text (any characters: escaped, hex escapes split from what follows)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif 32 <= ord(ch) < 127:
            out.append(ch)
        else:
            out.extend('\\x%02x""' % b for b in ch.encode("utf-8"))
    return '"%s"' % "".join(out)


def _half(element):
    """Whether an array element is a float16 one (stored as its bits, computed in float32)."""
    return element.array.type.dtype == T.FLOAT16


def kernel_cname(name):
    """The C name (the extern "C" symbol) of a kernel: its Python name unless that is a C library
    function's (a kernel named div or exp) or one CUDA declares for device code (rsqrt, max, clock64)."""
    from .._jit import cuda_c_names
    c = cname(name)
    return c + "_" if c in _LIBC or c in cuda_c_names.NAMES else c


def cname(name):
    """A C identifier for a Python local or function name."""
    if name.startswith("$"):
        return "pg_t" + name[1:].replace(".", "_").replace("$", "_")
    c = name.replace("$", "_")
    if c in _RESERVED or c in _C_MACROS or c.isupper() or c.startswith(("pg_", "PG_", "op_", "dev_", "__")):
        c += "_"   # an upper-case name may be a macro of the C headers (INT_MAX, M_PI, NULL, EOF)
    return c


def const(value, t):
    """A C literal of value as type t."""
    if T.is_bool(t):
        return "true" if value else "false"
    if T.is_int(t):
        v = int(value)
        if t == T.INT64 and v == -2 ** 63:
            return "INT64_MIN"
        if t == T.UINT64 and v >= 2 ** 63:
            return "%dULL" % v
        if -2 ** 31 <= v < 2 ** 31:
            return str(v)
        return "%dLL" % v
    if T.is_float(t):
        v = float(value)
        f = "f" if t == T.FLOAT32 else ""
        if math.isnan(v):
            return "NAN" if f else "(double)NAN"
        if math.isinf(v):
            s = "INFINITY" if f else "(double)INFINITY"
            return s if v > 0 else "(-%s)" % s
        text = repr(v)
        if "e" not in text and "." not in text:
            text += ".0"
        return text + f
    c = complex(value)
    r = T.real_of(t)
    return "%s{%s, %s}" % (_CTYPES[t], const(c.real, r), const(c.imag, r))


class Emitter:
    """The C of one module: a kernel and the device functions it calls."""

    def __init__(self, filename):
        self.filename = filename
        self.ops = {}          # loop name -> its definition
        self.functions = {}    # id(ir.Function) -> (C name, definition)
        self.file_scope = []   # __constant__ arrays
        self.defs = []         # device function definitions, callees first
        self.recursive = set()  # ids of the functions that call themselves
        self.renamed = {}      # id(Var) -> C name, for parameters a local of the same name shadows
        self.index_kinds = {}  # id(Element) -> per index: 'in', 'nonneg' or None (ranges.py)
        self.plain_division = set()  # id(Op) of // and % that C's / and % compute (ranges.py)
        self.index_arrays = {}  # id(Var) -> Var of the arrays whose shapes bound indices (ranges.py)
        self.fits = {}         # the function's tests of array parameters' shapes -> their local's name
        self.stable = set()    # id(Var) of the function's array parameters that keep their value
        self.used_fits = set()  # the names of those tests the statement being emitted uses
        self.fits_mode = None  # None, or 'fast' / 'checked': emit a statement for that outcome
        self.counter = 0
        self.structs = {}      # struct_name -> definition: the tuples device functions return

    def name_of(self, var):
        return self.renamed.get(id(var)) or cname(var.name)

    # -------------------------------------------------------------- expressions

    def expr(self, e):
        if isinstance(e, ir.Const):
            return const(e.value, e.type)
        if isinstance(e, ir.Load):
            return self.name_of(e.var)
        if isinstance(e, ir.Cast):
            return self.cast(e.value, e.type)
        if isinstance(e, ir.Op):
            return self.op(e)
        if isinstance(e, (ir.Select, ir.IfExp)):
            return "(%s ? %s : %s)" % (self.expr(e.cond), self.expr(e.a), self.expr(e.b))
        if isinstance(e, ir.BoolOp):
            return self.boolop(e)
        if isinstance(e, ir.MakeComplex):
            return "%s{%s, %s}" % (_CTYPES[e.type], self.expr(e.re), self.expr(e.im))
        if isinstance(e, ir.Real):
            return "(%s).re" % self.expr(e.value)
        if isinstance(e, ir.Imag):
            return "(%s).im" % self.expr(e.value)
        if isinstance(e, ir.Call):
            name = self.function(e.function)
            return "%s(%s)" % (name, ", ".join(self.expr(a) for a in e.args))
        if isinstance(e, kir.Element):
            return "pg_half_to_float(%s)" % self.element(e) if _half(e) else self.element(e)
        if isinstance(e, kir.Field):
            place, aligned = self.field_place(e)
            value = place if aligned else "pg_field_get<%s>(%s)" % (_STORED[e.dtype], place)
            return "pg_half_to_float(%s)" % value if e.dtype == T.FLOAT16 else value
        if isinstance(e, kir.ArrayAttr):
            return "%s.%s[%d]" % (self.expr(e.array), e.attr, e.dim)
        if isinstance(e, kir.Intrinsic):
            return self.intrinsic(e)
        raise TypeError("cannot emit %r" % (e,))

    def field_place(self, f):
        """(C of a record's field, aligned): the field itself (an lvalue) when its offset and the
        record's alignment allow a load of its type there, else the address of its bytes (read
        and written bytewise: pg_field_get/pg_field_set)."""
        record = f.element.array.type.dtype
        align = f.dtype.alignment
        bytes_at = "((unsigned char *)&%s + %d)" % (self.element(f.element), f.offset)
        if f.offset % align == 0 and _record_alignment(record) % align == 0:
            return "(*(%s *)%s)" % (_STORED[f.dtype], bytes_at), True
        return bytes_at, False

    def element(self, e):
        """a[i, j]: pg_at (Python's wraparound, checked where PG_JIT_CHECK), without the wraparound
        of indices ranges.py proved non-negative and the check of those it proved in range. An
        index bounded by another array's shape (`if i < x.shape[0]: out[i] = ...`) is in range
        when that shape fits this one: the access tests it (per launch in effect: the host
        compiler hoists it) and skips the check when it holds."""
        array = self.expr(e.array)
        args = ", ".join([array, str(e.line)] + [self.expr(i) for i in e.indices])
        kinds = self.index_kinds.get(id(e)) or (None,) * len(e.indices)
        wrap = sum(1 << d for d, k in enumerate(kinds) if k is None)
        check = sum(1 << d for d, k in enumerate(kinds) if k != "in")
        full = (1 << len(kinds)) - 1
        if wrap == full and check == full:
            return "pg_at(%s)" % args
        checked = "pg_at_in(%s)" % args if wrap == 0 and check == 0 else "pg_at_known<%d, %d>(%s)" % (wrap, check, args)
        fits = [(d, k) for d, k in enumerate(kinds) if isinstance(k, tuple)]
        if not fits:
            return checked
        tests = []
        base = e.array.var if isinstance(e.array, ir.Load) else None
        stable = base is not None and id(base) in self.stable
        for d, (_, sym, k) in fits:
            bound = str(k) if sym is None else "%s.shape[%d] + %d" % (self.name_of(self.index_arrays[sym[0]]), sym[1], k)
            tests.append("%s <= %s.shape[%d]" % (bound, array, d))
            stable = stable and (sym is None or sym[0] in self.stable)
        test = " && ".join(tests)
        fast = check & ~sum(1 << d for d, _ in fits)
        unchecked = "pg_at_in(%s)" % args if wrap == 0 and fast == 0 else "pg_at_known<%d, %d>(%s)" % (wrap, fast, args)
        if stable:   # shapes of parameters that keep their value: tested once, at the top
            name = self.fits.setdefault(test, "pg_fits%d" % len(self.fits))
            self.used_fits.add(name)
            if self.fits_mode is not None:   # stmt() emits the statement for each outcome
                return unchecked if self.fits_mode == "fast" else checked
            test = name
        return "(%s ? %s : %s)" % (test, unchecked, checked)

    def cast(self, value, t):
        f = value.type
        x = self.expr(value)
        if f == t:
            return x
        if T.is_bool(t):
            if T.is_complex(f):
                return "((%s).re != 0 || (%s).im != 0)" % (x, x)
            return "(%s != 0)" % x
        if T.is_complex(t):
            r = _CTYPES[T.real_of(t)]
            if T.is_complex(f):
                return "%s{(%s)(%s).re, (%s)(%s).im}" % (_CTYPES[t], r, x, r, x)
            return "%s{(%s)(%s), 0}" % (_CTYPES[t], r, x)
        if T.is_complex(f):
            x = "(%s).re" % x
            f = T.real_of(f)
        if T.is_float(f) and (T.is_int(t)):
            return "PG_FROM_FLOAT_%s((%s))" % (T.SUFFIX[t], x)   # parenthesised: x may hold a template's comma
        return "(%s)(%s)" % (_CTYPES[t], x)

    def op(self, e):
        ins = tuple(a.type for a in e.args)
        args = [self.expr(a) for a in e.args]
        real = all(not T.is_complex(t) for t in ins)
        if e.op in _DIRECT_BINARY and real and all(T.is_float(t) for t in ins):
            return "(%s %s %s)" % (args[0], _DIRECT_BINARY[e.op], args[1])
        if e.op in _COMPARE and real and not optable.mixed_integers(ins):
            return "(%s %s %s)" % (args[0], _COMPARE[e.op], args[1])
        if id(e) in self.plain_division:   # operands >= 0, divisor >= 1: C's / and % are Python's
            return "((%s)(%s %s %s))" % (_CTYPES[e.type], args[0], "/" if e.op == "floor_divide" else "%", args[1])
        if e.op == "logical_not" and ins == (T.BOOL,):
            return "!%s" % args[0]
        if e.op == "negative" and real and T.is_float(ins[0]):
            return "(-%s)" % args[0]
        loop = optable.loop_name(e.op, ins)
        name = "op_" + loop
        if loop not in self.ops:
            src = op_sources().get(loop)
            if src is None:
                raise TypeError("no op-table loop %s" % loop)
            in_suffixes, out, text = src
            params = ", ".join("pg_t_%s x%d" % (s, i) for i, s in enumerate(in_suffixes))
            self.ops[loop] = "PG_JIT_FN pg_t_%s %s(%s) { return (pg_t_%s)(%s); }" % (out, name, params, out, text)
        return "%s(%s)" % (name, ", ".join(args))

    def boolop(self, e):
        sym = "&&" if e.op == "and" else "||"
        if e.type == T.BOOL:
            return "(%s)" % (" %s " % sym).join(self.expr(v) for v in e.values)
        # Python's values: the first false (and) / true (or) value, else the last
        out = self.expr(e.values[-1])
        for v, t in zip(reversed(e.values[:-1]), reversed(e.tests)):
            test = self.expr(t)
            out = "(%s ? %s : %s)" % (test, out, self.expr(v)) if e.op == "and" else \
                "(%s ? %s : %s)" % (test, self.expr(v), out)
        return out

    def intrinsic(self, e):
        n = e.name
        a = [self.expr(x) for x in e.args]
        parts = n.split(".") if not n.startswith(("print:", "raise:", "raise_value:")) else [n.split(":")[0]]
        if parts[0] in ("threadIdx", "blockIdx", "blockDim", "gridDim"):
            return "(int32_t)%s" % n
        if parts[0] == "grid":
            d = parts[1]
            return "((int64_t)blockIdx.%s * blockDim.%s + threadIdx.%s)" % (d, d, d)
        if parts[0] == "gridsize":
            d = parts[1]
            return "((int64_t)blockDim.%s * gridDim.%s)" % (d, d)
        if n in ("laneid", "lanemask_lt"):
            lane = "((threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) & 31u)"
            return "(int32_t)%s" % lane if n == "laneid" else "((1u << %s) - 1u)" % lane
        if n == "syncthreads":
            return "__syncthreads()"
        if n in ("threadfence", "threadfence_block", "threadfence_system"):
            return "__%s()" % n
        if n == "syncwarp":
            return "__syncwarp(%s)" % ", ".join(a)
        if n in ("syncthreads_count", "syncthreads_and", "syncthreads_or"):
            return "__%s(%s)" % (n, a[0])
        if n in ("shfl_sync", "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync"):
            return "__%s(%s, (%s)(%s), %s)" % (n, a[0], _CTYPES[e.type], a[1], a[2])
        if n in ("all_sync", "any_sync"):
            return "(__%s(%s, %s) != 0)" % (n, a[0], a[1])
        if n == "eq_sync":
            return "([](unsigned m, bool p) { return __all_sync(m, p) != 0 || __any_sync(m, p) == 0; }(%s, %s))" \
                % (a[0], a[1])
        if n == "ballot_sync":
            return "(uint32_t)__ballot_sync(%s, %s)" % (a[0], a[1])
        if n == "match_any_sync":
            return "(uint32_t)__match_any_sync(%s, %s)" % (a[0], a[1])
        if n in ("match_all_sync.mask", "match_all_sync.pred"):
            r = "r" if n.endswith("mask") else "p != 0"
            return "([](unsigned m, %s v) { int p; unsigned r = __match_all_sync(m, v, &p); return %s; }(%s, %s))" \
                % (_CTYPES[e.args[1].type], r, a[0], a[1])
        if n == "activemask":
            return "(uint32_t)__activemask()"
        if n in ("popc", "clz", "ffs", "brev"):
            wide = e.args[0].type.itemsize == 8
            cast = "unsigned long long" if wide else "unsigned int"
            if n in ("clz", "ffs"):
                cast = "long long" if wide else "int"
            call = "__%s%s((%s)%s)" % (n, "ll" if wide else "", cast, a[0])
            return "(%s)%s" % (_CTYPES[e.type], call)
        if n == "fma":
            return "%s(%s, %s, %s)" % ("fmaf" if e.type == T.FLOAT32 else "fma", a[0], a[1], a[2])
        if parts[0] == "math":   # C's math functions: the f form for float32
            f = "f" if e.args[0].type == T.FLOAT32 else ""
            c = _CTYPES[e.args[0].type]
            if n == "math.frexp.m":
                return "([](%s v) { int x; return frexp%s(v, &x); }(%s))" % (c, f, a[0])
            if n == "math.frexp.e":
                return "([](%s v) { int x; frexp%s(v, &x); return (int64_t)x; }(%s))" % (c, f, a[0])
            if n == "math.modf.frac":
                return "([](%s v) { %s i; return modf%s(v, &i); }(%s))" % (c, c, f, a[0])
            if n == "math.modf.int":
                return "([](%s v) { %s i; modf%s(v, &i); return i; }(%s))" % (c, c, f, a[0])
            return "%s%s(%s)" % (parts[1], f, ", ".join(a))
        if n == "print.bool":
            return '((%s) ? "True" : "False")' % a[0]
        if parts[0] == "tuple_item":   # an item of a tuple argument
            return "%s.v[%s]" % (a[0], parts[1])
        if n == "make_struct":          # return a, b from a device function
            return "%s{%s}" % (struct_name(e.type), ", ".join(a))
        if parts[0] == "struct_item":   # an item of a tuple a device function returned
            return "%s.v%s" % (a[0], parts[1])
        if n.startswith("raise:"):   # raise: the site's number and the message (kernel.py raise_site)
            site, message = n[6:].split(":", 1)
            return "PG_JIT_RAISE(%sULL, %s)" % (site, _c_string(message))
        if n.startswith("raise_value:"):   # the same where a value of e.type is needed (tuple_item_at)
            site, message = n[12:].split(":", 1)
            return "PG_JIT_RAISE_VALUE(%s, %sULL, %s)" % (ctype(e.type), site, _c_string(message))
        if n.startswith("print:"):   # printf: the CPU backend flushes C's stdout after each launch
            return "printf(%s)" % ", ".join([_c_string(n[6:])] + a)
        if parts[0] == "atomic":
            op = {"and_": "and", "or_": "or", "compare_and_swap": "cas"}.get(
                parts[1], parts[1])
            if e.args[0].type == T.FLOAT16 or e.type == T.FLOAT16:   # computed in float, stored as half bits
                return "pg_atomic_%s_half(&%s)" % (op, ", ".join([self.element(e.args[0])] +
                                                                 ["(float)(%s)" % x for x in a[1:]]))
            values = ["(%s)(%s)" % (_STORED[e.type], x) for x in a[1:]]   # exactly the element's type
            return "pg_atomic_%s(&%s)" % (op, ", ".join([a[0]] + values))
        raise TypeError("cannot emit intrinsic %s" % n)

    # -------------------------------------------------------------- statements

    def block(self, stmts, indent, loops):
        out = []
        for s in stmts:
            out.extend(self.stmt(s, indent, loops))
        return out

    def simple(self, s):
        """The C of an assignment, store or expression statement (without indentation)."""
        if isinstance(s, ir.Assign):
            return "%s = %s;" % (self.name_of(s.target), self.expr(s.value))
        if isinstance(s, kir.Store) and isinstance(s.target, kir.Field):
            place, aligned = self.field_place(s.target)
            value = self.expr(s.value)
            if s.target.dtype == T.FLOAT16:
                value = "pg_float_to_half(%s)" % value
            if aligned:
                return "%s = %s;" % (place, value)
            return "pg_field_set<%s>(%s, %s);" % (_STORED[s.target.dtype], place, value)
        if isinstance(s, kir.Store):
            if _half(s.target):   # float16 elements hold the bits of the value rounded to float16
                return "%s = pg_float_to_half(%s);" % (self.element(s.target), self.expr(s.value))
            return "%s = %s;" % (self.expr(s.target), self.expr(s.value))
        if not isinstance(s.value, (ir.Call, kir.Intrinsic)):   # a value dropped: `a[0] ** 2` alone
            return "(void)(%s);" % self.expr(s.value)
        return "%s;" % self.expr(s.value)

    def stmt(self, s, ind, loops):
        p = "    " * ind
        if isinstance(s, (ir.Assign, kir.Store, kir.ExprStmt)):
            # accesses whose check a shape test at the top can skip: the statement twice, for the
            # host compiler keeps a loop that holds the checked access's cold path slow even where
            # it never runs (the seeds' stencil: 1.4x)
            self.used_fits = set()
            text = self.simple(s)
            if not self.used_fits:
                return [p + text]
            used = " && ".join(sorted(self.used_fits))
            self.fits_mode = "fast"
            fast = self.simple(s)
            self.fits_mode = "checked"
            checked = self.simple(s)
            self.fits_mode = None
            return ["%sif (__builtin_expect(%s, 1)) {" % (p, used), "%s    %s" % (p, fast), "%s} else {" % p,
                    "%s    %s" % (p, checked), "%s}" % p]
        if isinstance(s, ir.If):
            out = ["%sif (%s) {" % (p, self.expr(s.test))] + self.block(s.body, ind + 1, loops)
            if s.orelse:
                out += ["%s} else {" % p] + self.block(s.orelse, ind + 1, loops)
            return out + ["%s}" % p]
        if isinstance(s, ir.While):
            flag = self.loop_flag(s)
            loops = loops + [flag]
            out = []
            if flag:
                out.append("%sbool %s = false;" % (p, flag))
            out.append("%swhile (%s) {" % (p, self.expr(s.test)))
            out += self.block(s.body, ind + 1, loops) + ["%s}" % p]
            return out + self.orelse(s, flag, ind, loops[:-1])
        if isinstance(s, ir.ForRange):
            return self.for_range(s, ind, loops)
        if isinstance(s, ir.Break):
            if loops and loops[-1]:
                return ["%s{ %s = true; break; }" % (p, loops[-1])]
            return ["%sbreak;" % p]
        if isinstance(s, ir.Continue):
            return ["%scontinue;" % p]
        if isinstance(s, ir.Return):
            return ["%sreturn%s;" % (p, "" if s.value is None else " " + self.expr(s.value))]
        if isinstance(s, kir.ArrayDecl):
            return self.array_decl(s, ind)
        if isinstance(s, kir.ViewAssign):
            return self.view(s, ind)
        raise TypeError("cannot emit %r" % (s,))

    def loop_flag(self, s):
        if not s.orelse:
            return None
        self.counter += 1
        return "pg_broke%d" % self.counter

    def orelse(self, s, flag, ind, loops):
        if not s.orelse:
            return []
        p = "    " * ind
        return ["%sif (!%s) {" % (p, flag)] + self.block(s.orelse, ind + 1, loops) + ["%s}" % p]

    def for_range(self, s, ind, loops):
        p = "    " * ind
        self.counter += 1
        k = self.counter
        i, stop, step = "pg_i%d" % k, "pg_stop%d" % k, "pg_step%d" % k
        flag = self.loop_flag(s)
        out = ["%s{" % p]
        q = p + "    "
        if flag:
            out.append("%sbool %s = false;" % (q, flag))
        if isinstance(s.stop, ir.Const):
            stop = self.expr(s.stop)
        else:
            out.append("%sconst int64_t %s = %s;" % (q, stop, self.expr(s.stop)))
        if isinstance(s.step, ir.Const):
            step_value = int(s.step.value)
            step = self.expr(s.step)
            cond = "%s %s %s" % (i, "<" if step_value > 0 else ">", stop)
        else:
            out.append("%sconst int64_t %s = %s;" % (q, step, self.expr(s.step)))
            cond = "(%s > 0 ? %s < %s : %s > %s)" % (step, i, stop, i, stop)
        incr = "%s++" % i if isinstance(s.step, ir.Const) and int(s.step.value) == 1 else "%s += %s" % (i, step)
        out.append("%sfor (int64_t %s = %s; %s; %s) {" % (q, i, self.expr(s.start), cond, incr))
        out.append("%s    %s = %s;" % (q, self.name_of(s.var), i))
        out += self.block(s.body, ind + 2, loops + [flag])
        out.append("%s}" % q)
        out += self.orelse(s, flag, ind + 1, loops)
        return out + ["%s}" % p]

    def array_decl(self, s, ind):
        p = "    " * ind
        t = s.var.type
        el = stored(t.dtype)
        name = self.name_of(s.var)
        self.counter += 1
        storage = "pg_%s%d" % (s.space, self.counter)
        shape = list(s.shape)
        size = int(np.prod(shape)) if shape else 1
        out = []
        align = "__align__(%d) " % s.alignment if s.alignment else ""
        if s.space == "dynamic":
            out.append("%sextern __shared__ __align__(%d) %s %s[];" % (p, max(16, s.alignment or 0), el, storage))
            shape = ["pg_dynamic_shared_bytes() / %d" % t.dtype.itemsize]
        elif s.space == "shared":
            out.append("%s%s__shared__ %s %s[%d];" % (p, align, el, storage, max(size, 1)))   # alignas first
        elif s.space == "local":
            out.append("%s%s%s %s[%d];" % (p, align, el, storage, max(size, 1)))
        else:  # const: values in the module
            flat = s.values.reshape(-1)
            if t.dtype == T.FLOAT16:   # the bits: a float literal would convert to the integer type
                values = ", ".join("0x%04x" % v for v in flat.astype(np.float16).view(np.uint16)) or "0"
            elif kir.is_record(t.dtype):   # each record's bytes
                raw = np.ascontiguousarray(flat).view(np.uint8).reshape(len(flat), t.dtype.itemsize)
                values = ", ".join("{{%s}}" % ", ".join(str(b) for b in row) for row in raw) or "{{0}}"
            else:
                values = ", ".join(const(v, T.compute_type(t.dtype)) for v in flat) or "0"
            self.file_scope.append("__constant__ %s %s[%d] = {%s};" % (el, storage, max(size, 1), values))
        strides, acc = [], t.dtype.itemsize
        for d in reversed(s.shape if s.space != "dynamic" else [0]):
            strides.append(acc)
            acc *= max(int(d), 1)
        strides.reverse()
        if not shape:
            shape, strides = [1], [0]
        out.append("%s%s = %s{%s, {%s}, {%s}};" % (p, name, ctype(t), storage, ", ".join(str(x) for x in shape),
                                                   ", ".join(str(x) for x in strides)))
        return out

    def view(self, s, ind):
        """var = base[items]: the view's data, shape and strides from the base's."""
        p = "    " * ind
        q = p + "    "
        v, b = self.name_of(s.var), self.expr(s.base)
        self.counter += 1
        ptr = "pg_p%d" % self.counter
        out = ["%s{" % p, "%schar *%s = (char *)%s.data;" % (q, ptr, b)]
        d_out = 0
        for d, item in enumerate(s.items):
            if item[0] == "index":
                out.append("%s%s += pg_index(%s, %s.shape[%d], %d, %d) * %s.strides[%d];"
                           % (q, ptr, self.expr(item[1]), b, d, d, s.line, b, d))
                continue
            _, start, stop, step = item
            if start is None and stop is None and step is None:
                out.append("%s%s.shape[%d] = %s.shape[%d];" % (q, v, d_out, b, d))
                out.append("%s%s.strides[%d] = %s.strides[%d];" % (q, v, d_out, b, d))
            else:
                st = "pg_s%d_%d" % (self.counter, d)
                step_text = self.expr(step) if step is not None else "1"
                out.append("%sint64_t %s = %s;" % (q, st, self.expr(start) if start is not None else "0"))
                out.append("%s%s.shape[%d] = pg_slice_len(&%s, %s, %s, %s.shape[%d], %d, %d);"
                           % (q, v, d_out, st, self.expr(stop) if stop is not None else "0", step_text, b, d,
                              start is not None, stop is not None))
                out.append("%s%s += %s * %s.strides[%d];" % (q, ptr, st, b, d))
                out.append("%s%s.strides[%d] = %s * %s.strides[%d];" % (q, v, d_out, step_text, b, d))
            d_out += 1
        if s.part is not None:   # a.real, a.imag, a.view(dtype)
            offset, factor = s.part
            if offset:
                out.append("%s%s += %d;" % (q, ptr, offset))
            if factor:    # a.view(narrower): each element split; a.view(wider): -factor joined
                last = s.var.type.ndim - 1
                out.append("%s%s.shape[%d] %s= %d;" % (q, v, last, "*" if factor > 0 else "/", abs(factor)))
                out.append("%s%s.strides[%d] = %d;" % (q, v, last, s.var.type.dtype.itemsize))
        out.append("%s%s.data = (%s *)%s;" % (q, v, stored(s.var.type.dtype), ptr))
        return out + ["%s}" % p]

    # -------------------------------------------------------------- functions

    def function(self, fn):
        """The C name of a device function (emitted once)."""
        hit = self.functions.get(id(fn))
        if hit is not None:
            if hit[1] is None:   # called from its own body: not inlined
                self.recursive.add(id(fn))
            return hit[0]
        name = "dev_%s_%d" % (cname(fn.name).rstrip("_"), len(self.functions))
        self.functions[id(fn)] = (name, None)
        text = self.definition(fn, "PG_JIT_FN %s" % ctype(fn.return_type), name)
        if id(fn) in self.recursive:
            text = text.replace("PG_JIT_FN ", "PG_JIT_RECURSIVE_FN ", 1)
        self.functions[id(fn)] = (name, text)
        self.defs.append(text)
        return name

    def definition(self, fn, head, name):
        for t in [fn.return_type] + [v.type for v in list(fn.locals) + list(fn.params)]:
            if kir.is_struct(t):
                self.structs.setdefault(struct_name(t), struct_definition(t))
        facts = ranges.analyse(fn)
        self.index_kinds.update(facts.kinds)
        self.plain_division |= facts.plain_division
        self.index_arrays.update(facts.arrays)
        local_names = {v.name for v in fn.locals if not any(v is q for q in fn.params)}
        for v in fn.params:
            if v.name in local_names:  # reassigned with a wider type: the local takes the name
                self.renamed[id(v)] = cname(v.name) + "_arg"
        params = ", ".join("%s %s" % (ctype(v.type), self.name_of(v)) for v in fn.params)
        outer = self.fits, self.stable, self.used_fits, self.fits_mode   # a callee defined mid-statement
        self.fits, self.used_fits, self.fits_mode = {}, set(), None
        self.stable = {id(v) for v in fn.params if kir.is_array(v.type) and id(v) not in facts.rebound}
        body = self.block(fn.body, 1, [])
        decls = []
        for v in fn.locals:
            if any(v is q for q in fn.params):
                continue
            decls.append("    %s %s;" % (ctype(v.type), self.name_of(v)))
        decls += ["    const bool %s = %s;" % (n, t) for t, n in self.fits.items()]
        self.fits, self.stable, self.used_fits, self.fits_mode = outer
        return "\n".join(["%s %s(%s)" % (head, name, params or "void"), "{"] + decls + body + ["}"])


def emit_kernel(fn, name, filename):
    """(C source of the module, without the prelude) of kernel fn exported as `name`."""
    em = Emitter(filename)
    kernel = em.definition(fn, 'extern "C" PG_JIT_KERNEL __global__ void', name)
    out = ["/* %s: generated by pygpu from %s, line %d (cuda.jit) */" % (name, filename, fn.line)]
    out += list(em.structs.values())
    out += em.file_scope
    if em.ops:
        out.append("/* the op table's loops (kernels/ops.def) this kernel uses */")
        out += [em.ops[k] for k in sorted(em.ops)]
    out += em.defs
    out.append(kernel)
    inner = threadorder.inner_dimension(fn)
    if inner:
        out += ["#ifdef PYGPU_CPU /* the CPU's loop over a block's threads walks y innermost */",
                "PG_CPU_THREAD_ORDER(%s, %d)" % (name, inner), "#endif"]
    return "\n".join(out) + "\n"


def emit_device_functions(fns, filename):
    """Definitions of device functions (for wrappers such as guvectorize's): (source, names)."""
    em = Emitter(filename)
    names = [em.function(f) for f in fns]
    out = list(em.structs.values()) + em.file_scope + [em.ops[k] for k in sorted(em.ops)] + em.defs
    return "\n".join(out) + "\n", names, em
