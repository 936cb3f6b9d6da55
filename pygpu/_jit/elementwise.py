"""pygpu.ElementwiseKernel: CuPy's elementwise kernels from a line of CUDA C.

    add = pygpu.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add")
    z = add(x, y)                      # broadcasting; z allocated with the broadcast shape

Parameters follow CuPy's syntax: ``[raw] type name``, comma-separated; ``type`` is a NumPy dtype
name (float32, int64, bool, ...) or a placeholder (``T``, ``U``, ...) bound by the dtypes of the
arguments. Non-raw arguments are broadcast together and seen element by element, converted to
the parameter's type as they are loaded (and back as outputs are stored); ``raw`` arguments are
whole arrays indexed with ``x[j]`` (C order), ``i`` is the element's index and ``_ind.size()``
the element count. The operation is compiled once per combination of types and merged
dimensions, as CUDA C for the device (RawKernel's machinery: NVRTC on a GPU, the host C++
compiler on the CPU).
"""
import operator
import re

import numpy as np

from .. import _core
from .raw import RawKernel

__all__ = ["ElementwiseKernel"]

_CTYPES = {
    np.dtype("bool"): "bool", np.dtype("int8"): "signed char", np.dtype("int16"): "short",
    np.dtype("int32"): "int", np.dtype("int64"): "long long", np.dtype("uint8"): "unsigned char",
    np.dtype("uint16"): "unsigned short", np.dtype("uint32"): "unsigned int",
    np.dtype("uint64"): "unsigned long long", np.dtype("float32"): "float", np.dtype("float64"): "double",
    # CuPy's names, from <cupy/float16.cuh> and <cupy/complex.cuh> (_jit/headers.py)
    np.dtype("float16"): "float16", np.dtype("complex64"): "complex<float>", np.dtype("complex128"): "complex<double>",
}
_MAXDIMS = 8
# CuPy's headers cost compile time: included where a type or the user's code names their types
_HEADERS = "#include <cupy/complex.cuh>\n#include <cupy/float16.cuh>\n"
_NAMES_HEADER_TYPES = re.compile(r"\b(?:complex|float16|thrust)\b")

_SUPPORT = r'''
/* CUDA's math_constants.h names, which CuPy's kernels see (a reduction's identity CUDART_INF_F) */
#include <cupy/math_constants.h>
struct _PgIndex {
    long long n;
    __device__ long long size() const { return n; }
};
typedef decltype((char *)0 - (char *)0) _PgPtrdiff;   /* ptrdiff_t, with no header */
/* a raw argument: CuPy's CArray interface (x[j] in C order, x[idx] of a multi-index array,
 * x.size(), x.shape(), x.strides() in bytes, x.ndim) */
template <typename T> struct _PgRaw {
    char *p;
    long long n, ndim;
    _PgPtrdiff _shape[%(maxdims)d], _strides[%(maxdims)d];
    __device__ T &operator[](long long j) const {
        long long off = 0;
        for (long long d = ndim - 1; d >= 0; d--) {
            off += (j %% _shape[d]) * _strides[d];
            j /= _shape[d];
        }
        return *(T *)(p + off);
    }
    template <int N> __device__ T &operator[](const _PgPtrdiff (&idx)[N]) const {
        long long off = 0;
        for (int d = 0; d < N; d++)
            off += idx[d] * _strides[d];
        return *(T *)(p + off);
    }
    __device__ long long size() const { return n; }
    __device__ const _PgPtrdiff *shape() const { return _shape; }
    __device__ const _PgPtrdiff *strides() const { return _strides; }
};
''' % {"maxdims": _MAXDIMS}


def _support(dtypes, texts):
    """The support code of a kernel with these types, whose user code is `texts`."""
    dtypes = [np.dtype(d) for d in dtypes if d is not None]
    need = any(d.kind == "c" or d == np.float16 for d in dtypes) or any(
        _NAMES_HEADER_TYPES.search(t) for t in texts if t)
    return (_HEADERS if need else "") + _SUPPORT


def _scalar_field(dtype, k):
    """(field, value) of scalar argument k in a kernel's parameter struct: a complex number as
    two numbers, NumPy's layout (complex<T> is aligned to its size, NumPy's complex to T's)."""
    dtype = np.dtype(dtype)
    ctype = _CTYPES[dtype]
    if dtype.kind == "c":
        part = _CTYPES[np.dtype("f%d" % (dtype.itemsize // 2))]
        return "%s _s%d[2];" % (part, k), "%s(_P._s%d[0], _P._s%d[1])" % (ctype, k, k)
    return "%s _s%d;" % (ctype, k), "_P._s%d" % k


class _Param:
    def __init__(self, text, output):
        words = text.split()
        if not words:
            raise ValueError("an empty parameter in %r" % text)
        self.raw = words[0] == "raw"
        if self.raw:
            words = words[1:]
        if len(words) != 2 or not words[1].isidentifier():
            raise ValueError("a parameter is '[raw] type name', got %r" % text.strip())
        self.typename, self.name = words
        self.output = output
        self.dtype = None
        if not _is_placeholder(self.typename):
            self.dtype = np.dtype(self.typename)
            if self.dtype not in _CTYPES:
                raise TypeError("ElementwiseKernel does not support %s parameters yet" % self.dtype)


def _is_placeholder(typename):
    if len(typename) == 1 or not typename.isidentifier():
        return True
    try:
        np.dtype(typename)
    except TypeError:
        return True
    return False


def _parse(params, output):
    if not isinstance(params, str):
        raise TypeError("%s_params is a str of 'type name' parameters ('T x, raw float32 y'), not %s"
                        % ("out" if output else "in", type(params).__name__))
    if not params.strip():
        return []
    return [_Param(p, output) for p in params.split(",")]


def _is_array(a):
    return isinstance(a, _core.ndarray) or isinstance(a, np.ndarray)


def _scalar_dtype(v):
    if isinstance(v, np.generic):
        return v.dtype
    if isinstance(v, bool):
        return np.dtype("bool")
    if isinstance(v, int):
        return np.dtype("int64")
    if isinstance(v, float):
        return np.dtype("float64")
    if isinstance(v, complex):
        return np.dtype("complex128")
    raise TypeError("ElementwiseKernel takes arrays and numbers, not %s" % type(v).__name__)


def _merge_dims(shape, strides_list):
    """Drops dimensions of length 1 and merges those every operand walks contiguously."""
    dims = [(n, [s[d] for s in strides_list]) for d, n in enumerate(shape) if n != 1]
    merged = []
    for n, st in dims:
        if merged:
            pn, pst = merged[-1]
            if all(ps == s * n for ps, s in zip(pst, st)):
                merged[-1] = (pn * n, st)
                continue
        merged.append((n, st))
    if not merged:
        merged = [(1, [0] * len(strides_list))]
    return [n for n, _ in merged], [[st[k] for _, st in merged] for k in range(len(strides_list))]


class ElementwiseKernel:
    """An elementwise kernel from a line of CUDA C, as CuPy's ``cupy.ElementwiseKernel``.

    Parameters
    ----------
    in_params, out_params : str
        Comma-separated ``[raw] type name`` declarations. ``type`` is a NumPy dtype name
        (``float32``, ``int64``, ``bool``, ...) or a placeholder (``T``, ``U``, ...) bound by the
        dtypes of the arguments. Non-raw arguments are broadcast together and seen element by
        element, converted to the parameter's type as they are loaded (and back as outputs are
        stored); ``raw`` arguments are whole arrays, indexed ``x[j]`` in C order.
    operation : str
        The CUDA C run for each element: ``i`` is its index, ``_ind.size()`` the element count.
    name : str, optional
        The kernel's name (in error messages and compiler logs).
    reduce_dims : bool, optional
        Merge dimensions that are contiguous in every argument before launching.
    preamble, loop_prep, after_loop : str, optional
        CUDA C placed before the kernel (helper functions), before and after the element loop.
    no_return, return_tuple : bool, optional
        Return nothing, or always a tuple of the outputs.
    options : sequence of str, optional
        Compiler options.

    Notes
    -----
    Call it with the inputs (and optionally the outputs): ``k(x, y)`` allocates the outputs with
    the broadcast shape on the inputs' device; ``size=`` sets the element count when every
    argument is raw. The operation is compiled once per combination of types and merged
    dimensions through RawKernel's machinery: NVRTC on a GPU, the host C++ compiler on the CPU.

    Examples
    --------
    >>> import numpy as np, pygpu
    >>> add = pygpu.ElementwiseKernel("T x, T y", "T z", "z = x + y", "add")
    >>> add(pygpu.arange(3.0), pygpu.ones(3)).tolist()
    [1.0, 2.0, 3.0]
    """

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True, preamble="",
                 no_return=False, return_tuple=False, loop_prep="", after_loop="", options=()):
        self.in_params = _parse(in_params, False)
        self.out_params = _parse(out_params, True)
        names = [p.name for p in self.in_params + self.out_params]
        if len(set(names)) != len(names):
            raise ValueError("parameter names must be unique: %s" % ", ".join(names))
        if not re.match(r"^[A-Za-z_]\w*$", name):
            raise ValueError("name must be an identifier, got %r" % (name,))
        self.operation = operation
        self.name = name
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.no_return = no_return
        self.return_tuple = return_tuple
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self.options = tuple(options)
        self.nin = len(self.in_params)
        self.nout = len(self.out_params)
        self.nargs = self.nin + self.nout
        self._kernels = {}

    # ---------------------------------------------------------------- types

    def _bind(self, args):
        """{placeholder: dtype} from the arguments: arrays first, then scalars."""
        binding = {}
        for p, a in zip(self.in_params, args):
            if a is None:   # (only an output may be None: it is then allocated)
                raise TypeError("%s(): input %s is None, not an array or a number" % (self.name, p.name))
        for p, a in zip(self.in_params + self.out_params, args):
            if p.dtype is None and a is not None and _is_array(a):
                binding.setdefault(p.typename, a.dtype)
        for p, a in zip(self.in_params, args):
            if p.dtype is None and a is not None and not _is_array(a):
                binding.setdefault(p.typename, _scalar_dtype(a))
        for p in self.in_params + self.out_params:
            if p.dtype is None and p.typename not in binding:
                raise TypeError("Cannot determine the type of %s (%s) of %s: no argument binds it"
                                % (p.name, p.typename, self.name))
            if p.dtype is None and binding[p.typename] not in _CTYPES:
                raise TypeError("ElementwiseKernel does not support %s arguments yet" % binding[p.typename])
        return binding

    def _ptype(self, p, binding):
        return p.dtype if p.dtype is not None else binding[p.typename]

    # ---------------------------------------------------------------- code

    def _source(self, key):
        binding, layout = key
        binding = types = dict(binding)
        ndim = layout[0]
        dtypes = list(types.values()) + [self._ptype(p, binding) for p in self.in_params + self.out_params] + \
            [d for _, d in layout[1]]
        lines = [_support(dtypes, (self.operation, self.preamble, self.loop_prep, self.after_loop))]
        for t, d in sorted(types.items()):
            lines.append("typedef %s %s;" % (_CTYPES[np.dtype(d)], t))
        lines.append(self.preamble)   # after the placeholders' typedefs, as CuPy's: it may use T
        fields = ["long long _n;", "long long _shape[%d];" % max(ndim, 1)]
        loads, stores, raws = [], [], []
        for k, (p, (kind, dtype)) in enumerate(zip(self.in_params + self.out_params, layout[1])):
            ctype = _CTYPES[np.dtype(self._ptype(p, binding))]
            if kind == "raw":
                fields.append("_PgRaw<%s> %s;" % (ctype, p.name))
                raws.append("const _PgRaw<%s> &%s = _P.%s;" % (ctype, p.name, p.name))
            elif kind == "scalar":
                field, value = _scalar_field(self._ptype(p, binding), k)
                fields.append(field)
                # before loop_prep, as CuPy's kernel parameters are: loop_prep may use them
                raws.append("const %s %s = %s;" % (ctype, p.name, value))
            else:
                actual = _CTYPES[np.dtype(dtype)]
                fields.append("char *_p%d;" % k)
                fields.append("long long _st%d[%d];" % (k, max(ndim, 1)))
                if p.output:
                    loads.append("%s %s = (%s)*(%s *)(_P._p%d + _off%d);" % (ctype, p.name, ctype, actual, k, k))
                    stores.append("*(%s *)(_P._p%d + _off%d) = (%s)%s;" % (actual, k, k, actual, p.name))
                else:
                    loads.append("const %s %s = (%s)*(const %s *)(_P._p%d + _off%d);"
                                 % (ctype, p.name, ctype, actual, k, k))
        arrays = [k for k, (kind, _) in enumerate(layout[1]) if kind == "array"]
        offsets = ["long long _off%d = 0;" % k for k in arrays]
        if ndim <= 1:
            index = ["_off%d = i * _P._st%d[0];" % (k, k) for k in arrays]
        else:
            index = ["long long _rem = i;", "for (int _d = %d; _d >= 0; _d--) {" % (ndim - 1),
                     "    long long _j = _rem % _P._shape[_d];", "    _rem /= _P._shape[_d];"]
            index += ["    _off%d += _j * _P._st%d[_d];" % (k, k) for k in arrays]
            index.append("}")
        body = "\n".join([
            "struct _PgParams { %s };" % " ".join(fields),
            'extern "C" __global__ void %s(const _PgParams _P) {' % self.name,
            "    const _PgIndex _ind = {_P._n};",
            *("    " + r for r in raws),
            "    " + self.loop_prep,
            "    for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < _P._n;"
            " i += (long long)blockDim.x * gridDim.x) {",
            *("        " + s for s in offsets + index + loads),
            "        " + self.operation + ";",
            *("        " + s for s in stores),
            "    }",
            "    " + self.after_loop,
            "}",
        ])
        return "\n".join(lines) + "\n" + body + "\n"

    def _params_dtype(self, key):
        binding, layout = key
        binding = dict(binding)
        ndim = max(layout[0], 1)
        fields = [("_n", "i8"), ("_shape", "i8", (ndim,))]
        for k, (p, (kind, _)) in enumerate(zip(self.in_params + self.out_params, layout[1])):
            if kind == "raw":
                fields += [(p.name + "_p", "u8"), (p.name + "_n", "i8"), (p.name + "_nd", "i8"),
                           (p.name + "_shape", "i8", (_MAXDIMS,)), (p.name + "_strides", "i8", (_MAXDIMS,))]
            elif kind == "scalar":
                fields.append(("_s%d" % k, self._ptype(p, binding)))
            else:
                fields += [("_p%d" % k, "u8"), ("_st%d" % k, "i8", (ndim,))]
        return np.dtype(fields, align=True)

    # ---------------------------------------------------------------- call

    def __call__(self, *args, size=None, block_size=None):
        if len(args) not in (self.nin, self.nargs):
            raise TypeError("Wrong number of arguments for %r: expected %d or %d, got %d"
                            % (self.name, self.nin, self.nargs, len(args)))
        args = list(args) + [None] * (self.nargs - len(args))
        device = next((a.device for a in args if isinstance(a, _core.ndarray)), None) or _core.get_device()
        for k, a in enumerate(args):
            if isinstance(a, np.ndarray):
                if k >= self.nin:
                    raise TypeError("output %s of %s must be a pygpu array, not a NumPy array"
                                    % (self.out_params[k - self.nin].name, self.name))
                args[k] = _core.asarray(a, device=device)
        if block_size is not None and operator.index(block_size) <= 0:
            raise ValueError("block_size must be a positive integer, got %d" % block_size)
        binding = self._bind(args)
        params = self.in_params + self.out_params
        # the types: typed inputs take what converts same_kind, outputs likewise the other way
        for p, a in zip(params, args):
            if a is None or not _is_array(a) or p.raw:
                continue
            want = self._ptype(p, binding)
            if p.output and not np.can_cast(want, a.dtype, "same_kind"):
                raise TypeError("output %s of %s is %s: cannot store %s into it" % (p.name, self.name, a.dtype, want))
            if not p.output and not np.can_cast(a.dtype, want, "same_kind"):
                raise TypeError("Type is mismatched. %s: %s is %s, got %s" % (self.name, p.name, want, a.dtype))
        shapes = [a.shape for p, a in zip(params, args) if a is not None and _is_array(a) and not p.raw]
        try:
            shape = np.broadcast_shapes(*shapes) if shapes else None
        except ValueError:
            raise ValueError("operands could not be broadcast together with shapes %s"
                             % " ".join(str(tuple(s)) for s in shapes)) from None
        if shape is None:
            if size is None:
                raise ValueError("Loop size is undecided. Pass size= when no argument is a (non-raw) array")
            shape = (int(size),)
        elif size is not None and int(size) != int(np.prod(shape)):
            raise ValueError("size=%d does not match the arguments' %d elements" % (size, int(np.prod(shape))))
        for k, p in enumerate(self.out_params):
            a = args[self.nin + k]
            if a is None:
                if p.raw:
                    raise TypeError("raw output %s of %s must be given" % (p.name, self.name))
                args[self.nin + k] = _core.empty(shape, dtype=self._ptype(p, binding), device=device)
            elif not p.raw and tuple(a.shape) != tuple(shape):
                raise ValueError("output %s of %s has shape %s, the arguments broadcast to %s"
                                 % (p.name, self.name, tuple(a.shape), tuple(shape)))
        n = int(np.prod(shape))
        outs = args[self.nin:]
        if n > 0:
            self._launch(args, binding, shape, n, device, block_size)
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)

    def _launch(self, args, binding, shape, n, device, block_size):
        params = self.in_params + self.out_params
        views, strides = [], []
        for p, a in zip(params, args):
            if p.raw or not _is_array(a):
                continue
            if a.device != device:
                raise ValueError("%s runs on %r, but %s is on %r" % (self.name, device, p.name, a.device))
            v = _core.broadcast_to(a, shape) if tuple(a.shape) != tuple(shape) else a
            views.append(v)
            strides.append(list(v.strides))
        if self.reduce_dims:
            mshape, mstrides = _merge_dims(shape, strides)
        else:
            mshape, mstrides = list(shape) or [1], [s or [0] for s in strides]
        if len(mshape) > _MAXDIMS:
            raise ValueError("%s: more than %d dimensions after merging" % (self.name, _MAXDIMS))
        layout = []
        for p, a in zip(params, args):
            if p.raw:
                layout.append(("raw", None))
            elif _is_array(a):
                layout.append(("array", str(a.dtype)))
            else:
                layout.append(("scalar", None))
        key = (tuple(sorted((t, str(d)) for t, d in binding.items())), (len(mshape), tuple(layout)))
        kernel = self._kernels.get(key)
        if kernel is None:
            kernel = self._kernels[key] = (RawKernel(self._source(key), self.name, self.options),
                                           self._params_dtype(key))
        k, pdtype = kernel
        rec = np.zeros((), pdtype)
        rec["_n"] = n
        rec["_shape"][:len(mshape)] = mshape
        it = iter(zip(views, mstrides))
        keep = []
        for idx, (p, a) in enumerate(zip(params, args)):
            if p.raw:
                if not isinstance(a, _core.ndarray) or a.device != device:
                    raise TypeError("raw argument %s of %s must be a pygpu array on %r" % (p.name, self.name, device))
                want = self._ptype(p, binding)
                if a.dtype != want:
                    raise TypeError("raw argument %s of %s is %s, got %s" % (p.name, self.name, want, a.dtype))
                if a.ndim > _MAXDIMS:
                    raise ValueError("raw argument %s has more than %d dimensions" % (p.name, _MAXDIMS))
                rec[p.name + "_p"] = a.data_ptr
                rec[p.name + "_n"] = a.size
                rec[p.name + "_nd"] = a.ndim
                rec[p.name + "_shape"][:a.ndim] = a.shape
                rec[p.name + "_strides"][:a.ndim] = a.strides
                keep.append(a)
            elif _is_array(a):
                v, st = next(it)
                rec["_p%d" % idx] = v.data_ptr
                rec["_st%d" % idx][:len(st)] = st
                keep.append(v)
            else:
                rec["_s%d" % idx] = np.asarray(a).astype(self._ptype(p, binding), casting="unsafe")
        block = int(block_size) if block_size else 128
        grid = min((n + block - 1) // block, 1 << 30)
        k((grid,), (block,), (rec.tobytes(),))
