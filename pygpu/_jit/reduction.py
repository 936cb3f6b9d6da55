"""pygpu.ReductionKernel: CuPy's reduction kernels from lines of CUDA C.

    l2 = pygpu.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    l2(x, axis=1)                      # NumPy's axes (int, tuple, None) and keepdims

The parameters follow ElementwiseKernel's syntax (``type name``, placeholders such as ``T`` bound
by the arguments' dtypes; inputs broadcast together, numbers allowed). Each element is mapped by
``map_expr`` (an expression of the inputs) to a value of ``reduce_type`` (default: the first
output's type); two values ``a`` and ``b`` are combined by ``reduce_expr``, which must be
associative and commutative (the elements are combined in any order); ``post_map_expr`` stores
the reduced value ``a`` into the outputs; ``identity`` (a C expression, or None: an empty
reduction raises) is where each reduction starts. ``_in_ind.size()`` and ``_out_ind.size()`` are
the element counts of the broadcast input and of the output, ``_type_reduce`` the reduce type.

The kernel has the reduction kernels' structure (csrc/kernels/reduce.h): a block of 256 threads
takes 256 / L outputs with L threads on each (L = 1 along an outer layout, where neighbouring
threads load neighbouring outputs; up to 256 over an inner one), each thread folds a strided part
of its output's elements, and the block merges them in shared memory. It is compiled once per
combination of types, layout depth and whether there is an identity, through RawKernel's
machinery (NVRTC on a GPU, the host C++ compiler on the CPU).
"""
import operator
import re

import numpy as np

from .. import _core
from .elementwise import _CTYPES, ElementwiseKernel, _is_array, _merge_dims, _parse, _scalar_field, _support
from .raw import RawKernel

__all__ = ["ReductionKernel"]

_MAXDIMS = 8       # merged kept and reduced dimensions
_BLOCK = 256


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    items = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for ax in items:
        ax = operator.index(ax)
        if not -ndim <= ax < ndim:
            raise np.exceptions.AxisError(ax, ndim)
        out.append(ax % ndim)
    if len(set(out)) != len(out):
        raise ValueError("duplicate value in 'axis'")
    return tuple(out)


def _pow2_at_least(n):
    p = 1
    while p < n:
        p *= 2
    return p


class ReductionKernel:
    """A reduction kernel from lines of CUDA C, as CuPy's ``cupy.ReductionKernel``.

    Parameters
    ----------
    in_params, out_params : str
        ElementwiseKernel's declarations (``type name``, placeholders such as ``T`` bound by the
        arguments' dtypes; inputs broadcast together, numbers allowed).
    map_expr : str
        Maps each element (an expression of the inputs) to a value of ``reduce_type``.
    reduce_expr : str
        Combines two values ``a`` and ``b``; it must be associative and commutative (elements are
        combined in any order).
    post_map_expr : str
        Stores the reduced value ``a`` into the outputs.
    identity : str or None
        A C expression each reduction starts from; with None an empty reduction raises NumPy's
        ``zero-size array to reduction operation ... which has no identity``.
    name : str, optional
        The kernel's name.
    reduce_type : str, optional
        The type values are reduced in; the first output's by default.
    reduce_dims : bool, optional
        Merge dimensions that are contiguous in every argument.
    preamble : str, optional
        CUDA C placed before the kernel.
    options : sequence of str, optional
        Compiler options.

    Notes
    -----
    Call it with the inputs and NumPy's ``axis`` (int, tuple, None: all), ``keepdims``, ``out=``
    and ``stream=``. ``_in_ind.size()`` and ``_out_ind.size()`` are the element counts of the
    broadcast input and of the output, ``_type_reduce`` the reduce type. The kernel has the
    library's reduction structure (csrc/kernels/reduce.h) and is compiled once per combination of
    types, layout depth and identity, through RawKernel's machinery (NVRTC on a GPU, the host C++
    compiler on the CPU).

    Examples
    --------
    >>> import numpy as np, pygpu
    >>> l2 = pygpu.ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
    >>> l2(pygpu.asarray([[3.0, 4.0], [6.0, 8.0]]), axis=1).tolist()
    [5.0, 10.0]
    """

    _bind = ElementwiseKernel._bind
    _ptype = ElementwiseKernel._ptype

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name="reduce_kernel",
                 reduce_type=None, reduce_dims=True, preamble="", options=()):
        self.in_params = _parse(in_params, False)
        self.out_params = _parse(out_params, True)
        params = self.in_params + self.out_params
        names = [p.name for p in params]
        if len(set(names)) != len(names):
            raise ValueError("parameter names must be unique: %s" % ", ".join(names))
        if not self.out_params:
            raise ValueError("a ReductionKernel has at least one output")
        if any(p.raw for p in params):
            raise NotImplementedError("raw parameters of a ReductionKernel are not supported")
        if not re.match(r"^[A-Za-z_]\w*$", name):
            raise ValueError("name must be an identifier, got %r" % (name,))
        self.map_expr, self.reduce_expr, self.post_map_expr = map_expr, reduce_expr, post_map_expr
        self.identity = None if identity is None else str(identity)
        self.name = name
        self.reduce_type = reduce_type
        self.reduce_dims = reduce_dims
        self.preamble = preamble
        self.options = tuple(options)
        self.nin, self.nout = len(self.in_params), len(self.out_params)
        self._kernels = {}

    def __repr__(self):
        return "<pygpu.ReductionKernel %s>" % self.name

    # ---------------------------------------------------------------- code

    def _reduce_ctype(self, binding):
        rt = self.reduce_type
        if rt is None:
            return _CTYPES[np.dtype(self._ptype(self.out_params[0], binding))]
        if isinstance(rt, str) and rt in binding:
            return _CTYPES[np.dtype(binding[rt])]
        try:
            return _CTYPES[np.dtype(rt)]
        except TypeError:
            return rt  # a C type named as is ("double", a struct of the preamble)

    def _source(self, key):
        binding, nk, nr, kinds = key
        binding = dict(binding)
        dtypes = list(binding.values()) + [self._ptype(p, binding) for p in self.in_params + self.out_params] + \
            [d for _, d in kinds]
        lines = [_support(dtypes, (self.map_expr, self.reduce_expr, self.post_map_expr, self.identity, self.preamble,
                                   self.reduce_type if isinstance(self.reduce_type, str) else None))]
        for t, d in sorted(binding.items()):
            lines.append("typedef %s %s;" % (_CTYPES[np.dtype(d)], t))
        lines.append(self.preamble)   # after the placeholders' typedefs (it may use T), before
        lines.append("typedef %s _type_reduce;" % self._reduce_ctype(binding))   # its own types
        fields = ["long long _nout, _nred;", "int _lanes;", "long long _kshape[%d];" % max(nk, 1),
                  "long long _rshape[%d];" % max(nr, 1)]
        params = self.in_params + self.out_params
        kofs, rofs, loads, stores = [], [], [], []
        for k, (p, (kind, dtype)) in enumerate(zip(params, kinds)):
            ctype = _CTYPES[np.dtype(self._ptype(p, binding))]
            if kind == "scalar":
                field, value = _scalar_field(self._ptype(p, binding), k)
                fields.append(field)
                loads.append("const %s %s = %s;" % (ctype, p.name, value))
                continue
            actual = _CTYPES[np.dtype(dtype)]
            fields += ["char *_p%d;" % k, "long long _ks%d[%d];" % (k, max(nk, 1))]
            kofs.append(k)
            if p.output:
                stores.append("%s %s;" % (ctype, p.name))
                continue
            fields.append("long long _rs%d[%d];" % (k, max(nr, 1)))
            rofs.append(k)
            loads.append("const %s %s = (%s)*(const %s *)(_P._p%d + _ko%d + _ro%d);"
                         % (ctype, p.name, ctype, actual, k, k, k))
        out_stores = ["*(%s *)(_P._p%d + _ko%d) = (%s)%s;" % (_CTYPES[np.dtype(kinds[self.nin + j][1])],
                                                             self.nin + j, self.nin + j,
                                                             _CTYPES[np.dtype(kinds[self.nin + j][1])], p.name)
                      for j, p in enumerate(self.out_params)]
        keep = ["long long _ko%d = 0;" % k for k in kofs]
        if nk:
            keep += ["long long _rem = _o;", "for (int _d = %d; _d >= 0; _d--) {" % (nk - 1),
                     "    long long _j = _rem % _P._kshape[_d];", "    _rem /= _P._kshape[_d];"]
            keep += ["    _ko%d += _j * _P._ks%d[_d];" % (k, k) for k in kofs]
            keep.append("}")
        red = ["long long _ro%d = 0;" % k for k in rofs]
        if nr == 1:
            red += ["_ro%d = _r * _P._rs%d[0];" % (k, k) for k in rofs]
        elif nr > 1:
            red += ["long long _rem = _r;", "for (int _d = %d; _d >= 0; _d--) {" % (nr - 1),
                    "    long long _j = _rem % _P._rshape[_d];", "    _rem /= _P._rshape[_d];"]
            red += ["    _ro%d += _j * _P._rs%d[_d];" % (k, k) for k in rofs]
            red.append("}")
        has_id = self.identity is not None
        start = "_type_reduce _acc = (_type_reduce)(%s);" % self.identity if has_id else \
            "_type_reduce _acc = _type_reduce(); bool _has = false;"
        fold = ("{ const _type_reduce a = _acc, b = _v; _acc = (%s); }" % self.reduce_expr) if has_id else \
            ("if (_has) { const _type_reduce a = _acc, b = _v; _acc = (%s); } else { _acc = _v; _has = true; }"
             % self.reduce_expr)
        merge = ("{ const _type_reduce a = _sm[_t], b = _sm[_t + _s]; _sm[_t] = (%s); }" % self.reduce_expr) if has_id \
            else ("if (_smh[_t + _s]) { if (_smh[_t]) { const _type_reduce a = _sm[_t], b = _sm[_t + _s]; "
                  "_sm[_t] = (%s); } else { _sm[_t] = _sm[_t + _s]; _smh[_t] = true; } }" % self.reduce_expr)
        body = [
            "struct _PgParams { %s };" % " ".join(fields),
            'extern "C" __global__ void %s(const _PgParams _P) {' % self.name,
            # untyped words (16-byte aligned): a __shared__ array of a class with a constructor
            # (complex<T>, float16) is refused
            "    __shared__ double2 _sm_words[(%d * sizeof(_type_reduce) + 15) / 16];" % _BLOCK,
            "    _type_reduce *const _sm = (_type_reduce *)_sm_words;",
            *(["    __shared__ bool _smh[%d];" % _BLOCK] if not has_id else []),
            "    const _PgIndex _in_ind = {_P._nout * _P._nred}, _out_ind = {_P._nout};",
            "    (void)_in_ind;",
            "    (void)_out_ind;",
            "    const int _t = threadIdx.x, _L = _P._lanes, _per = blockDim.x / _L;",
            "    const int _lane = _t % _L, _slot = _t / _L;",
            "    for (long long _base = (long long)blockIdx.x * _per; _base < _P._nout;"
            " _base += (long long)gridDim.x * _per) {",
            "        const long long _o = _base + _slot;",
            "        " + start,
            "        if (_o < _P._nout) {",
            *("            " + s for s in keep),
            "            for (long long _r = _lane; _r < _P._nred; _r += _L) {",
            *("                " + s for s in red + loads),
            "                const _type_reduce _v = (_type_reduce)(%s);" % self.map_expr,
            "                " + fold,
            "            }",
            "        }",
            "        _sm[_t] = _acc;",
            *(["        _smh[_t] = _has;"] if not has_id else []),
            "        __syncthreads();",
            "        for (int _s = _L / 2; _s > 0; _s >>= 1) {",
            "            if (_lane < _s) " + merge,
            "            __syncthreads();",
            "        }",
            "        if (_lane == 0 && _o < _P._nout) {",
            *("            " + s for s in keep),
            "            const _type_reduce a = _sm[_t];",
            *("            " + s for s in stores),
            "            " + self.post_map_expr + ";",
            *("            " + s for s in out_stores),
            "        }",
            "        __syncthreads();",
            "    }",
            "}",
        ]
        return "\n".join(lines) + "\n" + "\n".join(body) + "\n"

    def _params_dtype(self, key):
        binding, nk, nr, kinds = key
        binding = dict(binding)
        fields = [("_nout", "i8"), ("_nred", "i8"), ("_lanes", "i4"), ("_kshape", "i8", (max(nk, 1),)),
                  ("_rshape", "i8", (max(nr, 1),))]
        for k, (p, (kind, _)) in enumerate(zip(self.in_params + self.out_params, kinds)):
            if kind == "scalar":
                fields.append(("_s%d" % k, self._ptype(p, binding)))
                continue
            fields += [("_p%d" % k, "u8"), ("_ks%d" % k, "i8", (max(nk, 1),))]
            if not p.output:
                fields.append(("_rs%d" % k, "i8", (max(nr, 1),)))
        return np.dtype(fields, align=True)

    # ---------------------------------------------------------------- call

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        if len(args) == self.nin + self.nout and out is None:   # the outputs after the inputs, as CuPy takes them
            args, out = args[:self.nin], list(args[self.nin:])
        if len(args) != self.nin:
            raise TypeError("Wrong number of arguments for %r: expected %d, got %d" % (self.name, self.nin, len(args)))
        outs = [None] * self.nout if out is None else list(out) if isinstance(out, (tuple, list)) else [out]
        if len(outs) != self.nout:
            raise ValueError("%s has %d outputs, out= gives %d" % (self.name, self.nout, len(outs)))
        args = list(args)
        device = next((a.device for a in args + outs if isinstance(a, _core.ndarray)), None) or _core.get_device()
        for k, a in enumerate(args):
            if isinstance(a, np.ndarray):
                args[k] = _core.asarray(a, device=device)
        for a in outs:
            if a is not None and not isinstance(a, _core.ndarray):
                raise TypeError("out of %s must be a pygpu array, not %s" % (self.name, type(a).__name__))
        binding = self._bind(args + outs)
        for p, a in zip(self.in_params, args):
            if _is_array(a):
                if a.device != device:
                    raise ValueError("%s runs on %r, but %s is on %r" % (self.name, device, p.name, a.device))
                want = self._ptype(p, binding)
                if not np.can_cast(a.dtype, want, "same_kind"):
                    raise TypeError("Type is mismatched. %s: %s is %s, got %s" % (self.name, p.name, want, a.dtype))
        shapes = [a.shape for a in args if _is_array(a)]
        if not shapes:
            raise ValueError("%s needs an array among its inputs" % self.name)
        try:
            shape = np.broadcast_shapes(*shapes)
        except ValueError:
            raise ValueError("operands could not be broadcast together with shapes %s"
                             % " ".join(str(tuple(s)) for s in shapes)) from None
        axes = _axes(axis, len(shape))
        kept = [d for d in range(len(shape)) if d not in axes]
        out_shape = tuple(1 if d in axes else shape[d] for d in range(len(shape))) if keepdims else \
            tuple(shape[d] for d in kept)
        for j, p in enumerate(self.out_params):
            want = self._ptype(p, binding)
            if outs[j] is None:
                outs[j] = _core.empty(out_shape, dtype=want, device=device)
            elif tuple(outs[j].shape) != out_shape:
                raise ValueError("output %s of %s has shape %s, the reduction gives %s"
                                 % (p.name, self.name, tuple(outs[j].shape), out_shape))
            elif not np.can_cast(want, outs[j].dtype, "same_kind"):
                raise TypeError("output %s of %s is %s: cannot store %s into it"
                                % (p.name, self.name, outs[j].dtype, want))
        nout = int(np.prod([shape[d] for d in kept], dtype=np.int64))
        nred = int(np.prod([shape[d] for d in axes], dtype=np.int64))
        if nred == 0 and self.identity is None and nout > 0:
            raise ValueError("zero-size array to reduction operation %s which has no identity" % self.name)
        if nout > 0:
            self._launch(args, outs, binding, shape, kept, axes, nout, nred, keepdims, device, stream)
        return outs[0] if self.nout == 1 else tuple(outs)

    def _launch(self, args, outs, binding, shape, kept, axes, nout, nred, keepdims, device, stream):
        ins = [_core.broadcast_to(a, shape) if tuple(a.shape) != tuple(shape) else a for a in args if _is_array(a)]
        kstr = [[v.strides[d] for d in kept] for v in ins]
        rstr = [[v.strides[d] for d in axes] for v in ins]
        ostr = []
        for o in outs:  # the outputs' strides on the kept axes
            st = o.strides if keepdims else [None] * len(shape)
            if keepdims:
                ostr.append([st[d] for d in kept])
            else:
                ostr.append(list(o.strides))
        kshape, rshape = [shape[d] for d in kept], [shape[d] for d in axes]
        if self.reduce_dims:
            kshape, ks = _merge_dims(kshape, kstr + ostr) if kshape else ([], [[] for _ in kstr + ostr])
            rshape, rs = _merge_dims(rshape, rstr) if rshape else ([], [[] for _ in rstr])
        else:
            ks, rs = kstr + ostr, rstr
        if kshape == [1]:
            kshape, ks = [], [[] for _ in ks]
        if rshape == [1]:
            rshape, rs = [], [[] for _ in rs]
        if len(kshape) > _MAXDIMS or len(rshape) > _MAXDIMS:
            raise ValueError("%s: more than %d dimensions after merging" % (self.name, _MAXDIMS))
        kinds = tuple(("array", str(a.dtype)) if _is_array(a) else ("scalar", None) for a in args) + \
            tuple(("array", str(o.dtype)) for o in outs)
        key = (tuple(sorted((t, str(d)) for t, d in binding.items())), len(kshape), len(rshape), kinds)
        kernel = self._kernels.get(key)
        if kernel is None:
            kernel = self._kernels[key] = (RawKernel(self._source(key), self.name, self.options),
                                           self._params_dtype(key))
        k, pdtype = kernel
        # lanes per output: 1 where neighbouring outputs are neighbours in memory (or many
        # outputs), else enough to share each output's elements
        inner = bool(rshape) and (not kshape or abs(rs[0][-1]) < abs(ks[0][-1]))
        lanes = 1 if not inner or nout >= 4096 else min(_BLOCK, _pow2_at_least(max(1, nred // 16)))
        rec = np.zeros((), pdtype)
        rec["_nout"], rec["_nred"], rec["_lanes"] = nout, nred, lanes
        rec["_kshape"][:len(kshape)] = kshape
        rec["_rshape"][:len(rshape)] = rshape
        keep_alive, it = [], iter(range(len(ins)))
        for idx, (p, a) in enumerate(zip(self.in_params, args)):
            if _is_array(a):
                i = next(it)
                rec["_p%d" % idx] = ins[i].data_ptr
                rec["_ks%d" % idx][:len(kshape)] = ks[i]
                rec["_rs%d" % idx][:len(rshape)] = rs[i]
                keep_alive.append(ins[i])
            else:
                rec["_s%d" % idx] = np.asarray(a).astype(self._ptype(p, binding), casting="unsafe")
        for j, o in enumerate(outs):
            rec["_p%d" % (self.nin + j)] = o.data_ptr
            rec["_ks%d" % (self.nin + j)][:len(kshape)] = ks[len(ins) + j]
        per = _BLOCK // lanes
        grid = min((nout + per - 1) // per, 1 << 16)
        k((grid,), (_BLOCK,), (rec.tobytes(),), stream=stream)
