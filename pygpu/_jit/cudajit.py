"""pygpu.cuda.jit: Numba's CUDA Python kernels, compiled to CUDA C (pygpu/_compiler: the kernel
front end and the C emitter) and built and launched through the machinery of RawKernel
(module.SourceModule: NVRTC on a GPU, the host C++ compiler on the CPU, both cached on disk;
the C launch of jit/launch.c).

A kernel is specialised per argument types (dtype, dimensions and C-contiguity of each array, the
type of each number): the C launch keys its cache of compiled functions by them, so a repeated
launch never enters Python. Eager signatures (``'void(float32[:], int64)'``) compile at
decoration time; arguments are then converted to them. On the CPU every array access is
bounds-checked (IndexError); ``debug=True`` checks them on a GPU as well.
"""
import re

import numpy as np

from .. import _core
from .._compiler import cemit, kir, numba_types
from .._compiler import types as T
from .._compiler import ir
from .._compiler.kernel import FunctionArg, KernelCompiler
from .._compiler.errors import compile_error, source_name
from .._compiler.frontend import NoSource
from . import signature as S
from .module import SourceModule

__all__ = ["jit", "Dispatcher", "DeviceFunction", "typeof", "parse_kernel_signature"]

_PARAM_ARRAY = 16                 # jit/kernel.h PG_PARAM_ARRAY
_PARAM_TUPLE = 17                 # jit/kernel.h PG_PARAM_TUPLE
_PARAM_BOUND = 18                 # jit/kernel.h PG_PARAM_BOUND
_PARAM_RECORDS = 19               # jit/kernel.h PG_PARAM_RECORDS
_SCALAR_KIND = {"b": S.PARAM_BOOL, "i": S.PARAM_INT, "u": S.PARAM_UINT, "f": S.PARAM_FLOAT}


# ------------------------------------------------------------------ argument types

def typeof(value, what="argument"):
    """The kernel type of an argument: a kir.ArrayType for arrays, a dtype for numbers."""
    if isinstance(value, _core.ndarray):
        layout = "C" if value.flags["C_CONTIGUOUS"] else "A"
        return kir.ArrayType(value.dtype, value.ndim, layout)
    if isinstance(value, np.ndarray) and kir.is_record(value.dtype):
        return _record_array_type(value.dtype, value.ndim, what)
    if getattr(value, "_pygpu_record_bytes", None) is not None:   # cuda.to_device() of records
        return _record_array_type(value.dtype, value.ndim, what)
    if isinstance(value, np.ndarray):
        if value.dtype not in T.NUMBER:
            raise TypeError("%s: arrays of %s are not supported in kernels" % (what, value.dtype))
        return kir.ArrayType(value.dtype, value.ndim, "C" if value.flags.c_contiguous else "A")
    if isinstance(value, tuple):
        return _tuple_type(value, what)
    t = T.python_type(value)
    if t is None:
        if hasattr(value, "__cuda_array_interface__") or hasattr(value, "__dlpack__"):
            a = _core.asarray(value)
            return typeof(a, what)
        if _bindable(value):
            return FunctionArg(value)
        raise TypeError("%s is a %s: kernels take arrays (pygpu, NumPy, CUDA array interface, DLPack) and numbers"
                        % (what, type(value).__name__))
    return t


def _record_array_type(dtype, ndim, what):
    """An array of records: fields of numbers (read and written as r[i].x in kernels)."""
    bad = kir.non_number_field(dtype)
    if bad is not None:
        raise TypeError("%s: field %r of the records is a %s: kernels take records of numbers"
                        % (what, bad, dtype.fields[bad][0]))
    return kir.ArrayType(dtype, ndim, "A")


def _bindable(value):
    """A function (device function, cuda.atomic.add, math.sin, operator.add, a ufunc) or a type
    (np.float32, a dtype, Numba's uint32) given as a kernel argument: compiled into the kernel
    as a constant, as Numba does, one specialisation per object."""
    if T.is_type_value(value):
        return True
    return callable(value) and not isinstance(value, (type, Dispatcher))


class TupleArg:
    """The type of a tuple argument holding arrays or tuples (or of an empty one), as Numba types
    it: its items' types in order (kir.ArrayType, dtypes, TupleArg), and a namedtuple's fields.
    It is passed as its leaves (arrays and numbers), each one parameter of the kernel."""

    def __init__(self, items, names=None):
        self.items = tuple(items)
        self.names = names

    def leaves(self):
        for t in self.items:
            if isinstance(t, TupleArg):
                yield from t.leaves()
            else:
                yield t

    def __eq__(self, other):
        return isinstance(other, TupleArg) and (self.items, self.names) == (other.items, other.names)

    def __hash__(self):
        return hash((self.items, self.names))

    def __str__(self):
        return "Tuple(%s)" % ", ".join(str(t) for t in self.items)


def _leaf_values(value):
    """The leaves of a tuple argument (its arrays and numbers, depth first), as launched."""
    for item in value:
        if isinstance(item, tuple):
            yield from _leaf_values(item)
        elif isinstance(item, (_core.ndarray, np.ndarray)) or T.python_type(item) is not None:
            yield item
        else:   # an object exporting __cuda_array_interface__ or DLPack, imported as typeof does
            yield _core.asarray(item)


def _tuple_type(value, what, nested=False):
    """A tuple argument: n numbers of the kind they widen to (bool, int64, float64, complex128),
    as the C launch keys it (jit/kernel.c arg_key); a TupleArg when it holds arrays or tuples, or
    is empty."""
    fields = getattr(type(value), "_fields", None) if type(value) is not tuple else None
    fields = fields if isinstance(fields, tuple) and len(fields) == len(value) else None
    if nested or not value or any(isinstance(item, tuple) or T.python_type(item) is None for item in value):
        items = []
        for k, item in enumerate(value):
            # tuples within: TupleArgs too, so that the leaves are arrays and numbers only
            t = _tuple_type(item, "%s[%d]" % (what, k), True) if isinstance(item, tuple) else \
                typeof(item, "%s[%d]" % (what, k))
            if isinstance(t, FunctionArg):
                raise TypeError("%s[%d] is a %s: a tuple argument holds arrays, numbers and tuples"
                                % (what, k, type(item).__name__))
            items.append(t)
        return TupleArg(items, fields)
    rank = 1 if not value else 0
    for item in value:
        if isinstance(item, bool):
            r = 0
        elif isinstance(item, int):
            r = 1
        elif isinstance(item, float):
            r = 2
        elif isinstance(item, complex):
            r = 3
        else:
            raise TypeError("%s is a tuple holding a %s: kernels take tuples of numbers (int, float, complex, bool)"
                            % (what, type(item).__name__))
        rank = max(rank, r)
    if len(value) > 255:
        raise TypeError("%s is a tuple of %d items: kernels take tuples of up to 255 numbers" % (what, len(value)))
    return kir.TupleType((T.BOOL, T.INT64, T.FLOAT64, T.COMPLEX128)[rank], len(value), fields)


def _param(t):
    """(kind, type, size) of a parameter, as the C launch checks arguments."""
    if isinstance(t, FunctionArg):
        return (_PARAM_BOUND, -1, 1)
    if kir.is_tuple(t):
        return (_PARAM_TUPLE, S.TYPE_CODES[t.dtype] | (t.n << 8), t.n * t.dtype.itemsize)
    if kir.is_array(t) and kir.is_record(t.dtype):
        return (_PARAM_RECORDS, t.ndim | (t.dtype.itemsize << 8), 8 + 16 * max(t.ndim, 1))
    if kir.is_array(t):
        code = S.TYPE_CODES[t.dtype] | (t.ndim << 8) | (0x10000 if t.layout == "C" else 0)
        return (_PARAM_ARRAY, code, 8 + 16 * max(t.ndim, 1))
    if T.is_complex(t):
        return (S.PARAM_OTHER, -1, t.itemsize)
    return (_SCALAR_KIND[t.kind], S.TYPE_CODES[t], t.itemsize)


# ------------------------------------------------------------------ signatures

_ARRAY_SPEC = re.compile(r"^\s*([A-Za-z_]\w*)\s*\[(.*)\]\s*$")


def _parse_arg_type(text, sig):
    text = text.strip()
    m = _ARRAY_SPEC.match(text)
    if m:
        dtype = T.parse_type(m.group(1))
        if dtype is None:
            raise TypeError("unknown type %r in signature %r" % (m.group(1), sig))
        dims = [d.replace(" ", "") for d in m.group(2).split(",")]
        if not all(d in (":", "::1") for d in dims):
            raise TypeError("array types are written float32[:], float32[:, ::1] (C-contiguous), not %r" % text)
        layout = "C" if dims[-1] == "::1" and all(d == ":" for d in dims[:-1]) else "A"
        return kir.ArrayType(dtype, len(dims), layout)
    t = T.parse_type(text)
    if t is None:
        raise TypeError("unknown type %r in signature %r" % (text, sig))
    return t


def _numba_type(t, sig):
    """A type object of Numba's or of pygpu.cuda.types: an array type (dtype, ndim, layout) or a
    scalar."""
    if numba_types.is_array_type(t):
        dtype = T.parse_type(str(t.dtype))
        if dtype is None:
            raise TypeError("unsupported type %s in signature %s" % (t, sig))
        return kir.ArrayType(dtype, t.ndim, "C" if t.layout == "C" else "A")
    d = T.parse_type(str(t))
    if d is None:
        raise TypeError("unsupported type %s in signature %s" % (t, sig))
    return d


def parse_kernel_signature(sig):
    """(argument types, return type or None) of 'void(float32[:], int64)', '(float32[:], f8)', a
    tuple of types, or a numba signature."""
    if hasattr(sig, "args") and hasattr(sig, "return_type"):
        ret = str(sig.return_type) if sig.return_type is not None else None
        return [_numba_type(a, sig) for a in sig.args], (None if ret in (None, "none", "void") else T.parse_type(ret))
    if isinstance(sig, tuple):
        return [_numba_type(a, sig) if not isinstance(a, str) else _parse_arg_type(a, sig) for a in sig], None
    if not isinstance(sig, str):
        raise TypeError("a signature is a string such as 'void(float32[:], int64)', not %r" % (sig,))
    m = re.match(r"^\s*([A-Za-z_]\w*)?\s*\((.*)\)\s*$", sig, re.S)
    if not m:
        raise TypeError("a signature is written 'void(float32[:], int64)', not %r" % (sig,))
    ret = m.group(1)
    args = [_parse_arg_type(a, sig) for a in S.split_top(m.group(2))] if m.group(2).strip() else []
    if ret is not None and ret not in ("void", "none"):
        rt = T.parse_type(ret)
        if rt is None:
            raise TypeError("unknown return type %r in signature %r" % (ret, sig))
        return args, rt
    return args, None


# ------------------------------------------------------------------ one specialisation

class Specialization:
    """A kernel typed for one tuple of argument types: its IR, its C, and its modules (checked
    for the CPU and debug, unchecked for a GPU)."""

    def __init__(self, dispatcher, arg_types):
        self.dispatcher = dispatcher
        self.arg_types = tuple(arg_types)
        py = dispatcher.py_func
        bound = {k: t.obj for k, t in enumerate(arg_types) if isinstance(t, FunctionArg)}
        tuples = {k: t for k, t in enumerate(arg_types) if isinstance(t, TupleArg)}
        flat = []   # a tuple of arrays or tuples: its leaves, one parameter each
        for t in arg_types:
            flat += list(t.leaves()) if isinstance(t, TupleArg) else [] if isinstance(t, FunctionArg) else [t]
        compiler = KernelCompiler(py, flat, "kernel", "cuda.jit", functions=bound, tuples=tuples)
        compiler.cache["$debug"] = (dispatcher.debug, "-use_fast_math" in dispatcher.options)
        self.ir = compiler.compile()
        k = 0
        for t in arg_types:   # an unused byte where the launch passes a bound argument
            if isinstance(t, FunctionArg):
                self.ir.params.insert(k, ir.Var("pg_bound%d" % k, T.INT8))
            k += len(list(t.leaves())) if isinstance(t, TupleArg) else 1
        self.raises = compiler.cache.get("$raises", [])   # [(exception class, text, line)] by site
        self.cname = cemit.kernel_cname(py.__name__)
        filename = py.__code__.co_filename
        self.filename = filename
        self.body = cemit.emit_kernel(self.ir, self.cname, _basename(filename))
        self.params = tuple(_param(t) for a in arg_types for t in (a.leaves() if isinstance(a, TupleArg) else [a]))
        self.flattens = bool(tuples)
        self._modules = {}

    def source(self, check):
        """The module's C: the checks switch, the prelude, the kernel."""
        head = "#define PG_JIT_CHECK %d\n#define PG_JIT_FILE \"%s\"\n" % (1 if check else 0,
                                                                        _basename(self.filename).replace('"', ""))
        return head + prelude() + "\n" + self.body

    def module(self, check):
        m = self._modules.get(check)
        if m is None:
            options = tuple(self.dispatcher.options)
            m = self._modules[check] = SourceModule(self.source(check), options, exports=[self.cname],
                                                    filename=self.cname + ".cu")
        return m

    def function(self, device):
        check = device.type == "cpu" or self.dispatcher.debug
        mod = self.module(check)
        loaded, symbols = mod.load(device)
        fn = loaded.get_function(symbols.get(self.cname, self.cname), self.params, self.dispatcher.__name__)
        fn.wrap_ints = True   # an int argument wraps to an eager int32 parameter (Numba: ctypes.c_int32(v))
        return fn


def _basename(path):
    return source_name(path)


_prelude = None


def prelude():
    global _prelude
    if _prelude is None:
        _prelude = _core._jit_prelude()
    return _prelude


# ------------------------------------------------------------------ the kernel object

def _matches(sig_types, arg_types):
    """Whether arguments of arg_types may be launched as sig_types (arrays of the same dtype and
    dimensions, a C-contiguous one for a C parameter; numbers of any kind for numbers)."""
    if len(sig_types) != len(arg_types):
        return False
    for s, a in zip(sig_types, arg_types):
        if kir.is_array(s) != kir.is_array(a):
            return False
        if kir.is_array(s) and (s.dtype != a.dtype or s.ndim != a.ndim or (s.layout == "C" and a.layout != "C")):
            return False
    return True


class Dispatcher(_core._Kernel):
    """A @cuda.jit kernel: ``kernel[grid, block](*args)``, ``kernel[grid, block, stream,
    shared_mem](*args)`` (or CuPy's ``kernel(grid, block, args)``). Compiled per argument types on
    first use (or for the given signatures at decoration), for each device it runs on."""

    def __init__(self, py_func, signatures=None, debug=False, fastmath=False, options=(), name=None):
        self.py_func = py_func
        self.__name__ = name or py_func.__name__
        self.__doc__ = py_func.__doc__
        self.__wrapped__ = py_func
        self.debug = bool(debug)
        self.options = tuple(options) + (("-use_fast_math",) if fastmath else ())
        self._specs = {}
        self._signatures = []
        self._specialized = False
        self._specializations = {}   # argument types -> the Dispatcher specialize() made for them
        self._dispatch_by_type()
        for sig in signatures or ():
            args, ret = parse_kernel_signature(sig)
            if ret is not None:
                raise TypeError("a kernel returns nothing: its signature is 'void(...)', not %r" % (sig,))
            self._signatures.append(tuple(args))
            self.specialization(args)

    def specialization(self, arg_types):
        arg_types = tuple(arg_types)
        spec = self._specs.get(arg_types)
        if spec is None:
            try:
                spec = Specialization(self, arg_types)
            except NoSource as e:
                code = self.py_func.__code__
                raise compile_error("cuda.jit cannot compile %s(): %s" % (self.__name__, e), code.co_filename) from None
            self._specs[arg_types] = spec
        return spec

    def specialize(self, *args):
        """Numba's specialize(): a new kernel compiled for the types of args only (a launch with
        other types is a TypeError), the same one for the same types."""
        if self._specialized:
            raise RuntimeError("Dispatcher already specialized")
        types = tuple(typeof(a, "specialize(): argument %d" % (i + 1)) for i, a in enumerate(args))
        made = self._specializations.get(types)
        if made is None:
            made = Dispatcher(self.py_func, debug=self.debug, options=self.options, name=self.__name__)
            made._signatures.append(types)
            made.specialization(types)
            made._specialized = True
            self._specializations[types] = made
        return made

    @property
    def specialized(self):
        """Whether this kernel was made by specialize()."""
        return self._specialized

    def _specialize(self, device, args):
        """The _Function for these arguments on device (the C launch asks on a miss)."""
        nparams = len(self.py_func.__code__.co_varnames[:self.py_func.__code__.co_argcount])
        if len(args) != nparams:
            raise TypeError("kernel %s() takes %d argument%s but %d were given"
                            % (self.__name__, nparams, "" if nparams == 1 else "s", len(args)))
        types = tuple(typeof(a, "kernel %s(): argument %d" % (self.__name__, i + 1)) for i, a in enumerate(args))
        if self._signatures:
            for sig in self._signatures:
                if _matches(sig, types):
                    types = sig
                    break
            else:
                have = ", ".join(str(t) for t in types)
                raise TypeError("kernel %s() has no signature for arguments (%s); it was compiled for %s"
                                % (self.__name__, have, "; ".join("(%s)" % ", ".join(str(t) for t in s)
                                                                 for s in self._signatures)))
        spec = self.specialization(types)
        if spec.flattens:   # launched with the tuples' leaves in their place (jit/kernel.c typed_launch)
            flat = []
            for a, t in zip(args, types):
                flat += list(_leaf_values(a)) if isinstance(t, TupleArg) else [a]
            return spec.function(device), tuple(flat)
        return spec.function(device)

    def __getitem__(self, config):
        launcher = _core._Kernel.__getitem__(self, config)
        if self.debug:
            return _DebugLauncher(self, launcher)
        return launcher

    def __call__(self, *args, **kwargs):
        if len(args) >= 3 and isinstance(args[2], (tuple, list)):
            return _core._Kernel.__call__(self, *args, **kwargs)
        raise TypeError("kernel %s() is launched with a configuration: %s[blocks, threads](*args)"
                        % (self.__name__, self.__name__))

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A launcher running at least ntasks threads (Numba's forall)."""
        tpb = tpb or 128
        ntasks = int(ntasks)
        if ntasks < 0:
            raise ValueError("forall(%d): the number of tasks cannot be negative" % ntasks)
        return self[max(1, (ntasks + tpb - 1) // tpb), tpb, stream, sharedmem]

    @property
    def signatures(self):
        return list(self._specs)

    def inspect_source(self, signature=None):
        """The CUDA C generated for a signature (a tuple of argument types, or a signature
        string); without one, that of the only specialisation, or {types: source} of all."""
        if signature is not None:
            types = tuple(parse_kernel_signature(signature)[0]) if isinstance(signature, str) else tuple(signature)
            return self.specialization(types).body
        if len(self._specs) == 1:
            return next(iter(self._specs.values())).body
        return {k: v.body for k, v in self._specs.items()}

    def _check_device_errors(self):
        """After a debug launch on a GPU: IndexError for an out-of-range index any thread met."""
        for spec in self._specs.values():
            mod = spec._modules.get(True)
            if mod is None:
                continue
            for device, (loaded, _) in list(mod._loaded.items()):
                if device.type == "cpu":
                    continue
                # the launch may be on any stream (a non-blocking one too), and get() copies on the
                # current stream: wait for the whole device before reading the flag
                device.synchronize()
                flag = loaded.get_global("pg_jit_error", np.uint64)
                record = flag.get()
                if record[0]:
                    flag[...] = np.zeros(4, np.uint64)   # a copy, not a kernel: the next launch starts clean
                    # ... once the copy has landed: a copy from pageable memory returns when its
                    # bytes are staged, and a launch on a non-blocking stream does not wait for the
                    # current stream's work (it could set the flag before the zeros arrive)
                    device.synchronize()
                    axis, line = int(record[3]) % 256, int(record[3]) // 256
                    raise IndexError("index %d is out of bounds for axis %d with size %d (%s, line %d)"
                                     % (np.int64(record[1]), axis, np.int64(record[2]), _basename(spec.filename),
                                        line))
                if spec.raises:
                    flag = loaded.get_global("pg_jit_raised", np.uint64)
                    record = flag.get()
                    if record[0]:
                        flag[...] = np.zeros(2, np.uint64)
                        device.synchronize()   # as above
                        cls, text, line = spec.raises[int(record[1])]
                        raise cls("%s (%s, line %d)" % (text, _basename(spec.filename), line) if text
                                  else "%s, line %d" % (_basename(spec.filename), line))

    def __repr__(self):
        return "<pygpu.cuda.jit kernel %s>" % self.__name__


class _DebugLauncher:
    """kernel[grid, block] of a debug=True kernel: launches, then raises what the GPU recorded."""

    def __init__(self, kernel, launcher):
        self.kernel = kernel
        self.launcher = launcher

    def __call__(self, *args):
        self.launcher(*args)
        self.kernel._check_device_errors()


class DeviceFunction:
    """A @cuda.jit(device=True) function: called from kernels (compiled into them), not from the
    host."""

    def __init__(self, py_func, signatures=None):
        self.py_func = py_func
        # declared signatures bind, as Numba's: a call converts its arguments to one of them and
        # the result to its return type, instead of specialising on the caller's types
        self.declared = [tuple(parse_kernel_signature(s)) for s in signatures or ()]
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        self.__wrapped__ = py_func

    def __call__(self, *args, **kwargs):
        raise TypeError("%s() is a device function: call it from a @cuda.jit kernel" % self.__name__)

    def __repr__(self):
        return "<pygpu.cuda.jit device function %s>" % self.__name__


def jit(func_or_sig=None, device=False, debug=False, opt=True, fastmath=False, lineinfo=False, cache=False,
        inline=False, max_registers=None, link=None, **kwargs):
    """Numba's ``@cuda.jit``: a kernel (``kernel[grid, block](*args)``) from a Python function of
    arrays and numbers, or a device function with ``device=True``. Signatures
    (``'void(float32[:], float32[:, ::1], int64)'``, or a list of them) compile at decoration;
    without, each new combination of argument types compiles on its first launch. ``debug=True``
    checks array indices on a GPU too (they always are on the CPU); ``fastmath=True`` compiles
    with NVRTC's -use_fast_math. ``opt``, ``lineinfo``, ``cache`` (pygpu always caches on disk),
    ``inline`` and ``max_registers`` are accepted for Numba's sake."""
    unknown = set(kwargs) - {"boundscheck", "extensions"}
    if unknown:
        raise TypeError("jit() got an unexpected keyword argument %r" % sorted(unknown)[0])
    options = ("-maxrregcount=%d" % max_registers,) if max_registers else ()

    def make(fn, sigs):
        if device:
            return DeviceFunction(fn, sigs)
        return Dispatcher(fn, sigs, debug=debug, fastmath=fastmath, options=options)

    if callable(func_or_sig) and not isinstance(func_or_sig, str) and hasattr(func_or_sig, "__code__"):
        return make(func_or_sig, None)
    if func_or_sig is None:
        sigs = None
    elif isinstance(func_or_sig, (list, tuple)) and func_or_sig and not _is_type(func_or_sig[0]):
        sigs = list(func_or_sig)
    else:
        sigs = [func_or_sig]
    return lambda fn: make(fn, sigs)


def _is_type(x):
    """A type (a first argument of jit() that starts a tuple of types, not a list of signatures)."""
    if isinstance(x, str):
        return _ARRAY_SPEC.match(x) is not None or T.parse_type(x) is not None
    return T.parse_type(x) is not None or numba_types.is_array_type(x)
