"""pygpu.guvectorize: Numba's generalized ufuncs, built on cuda.jit.

The Python function is compiled as a device function of its core arrays (the kernel front end and
C emitter of cuda.jit); a generated wrapper kernel runs one thread per element of the loop
dimensions, each handing the function views of its operands' core dimensions. Loop dimensions
broadcast as NumPy's gufuncs do (on the host, as stride-0 views), outputs are allocated when not
given, and the kernel is compiled per signature and number of loop dimensions, through
module.SourceModule (NVRTC on a GPU, the host C++ compiler on the CPU; cached on disk).
"""
import re

import numpy as np

from .. import _core
from .._compiler import cemit, kir
from .._compiler import types as T
from .._compiler.kernel import KernelCompiler
from . import signature as S
from .cudajit import _param, _basename, parse_kernel_signature, prelude
from .module import SourceModule

__all__ = ["guvectorize", "GUFunc"]

_BLOCK = 128


def parse_layout(layout):
    """([core dims of each input], [core dims of each output]) of '(m,n),(n)->(m)'."""
    m = re.match(r"^\s*(.*?)\s*->\s*(.*?)\s*$", layout or "")
    if not m:
        raise ValueError("a gufunc layout is written '(m,n),(n)->(m)', not %r" % (layout,))

    def groups(text):
        found = re.findall(r"\(([^()]*)\)", text)
        if re.sub(r"\(([^()]*)\)|,|\s", "", text):
            raise ValueError("a gufunc layout is written '(m,n),(n)->(m)', not %r" % (layout,))
        return [tuple(d.strip() for d in g.split(",") if d.strip()) for g in found]

    ins, outs = groups(m.group(1)), groups(m.group(2))
    if not outs:
        raise ValueError("a gufunc layout has at least one output: %r" % (layout,))
    return ins, outs


def _weak(x):
    """A Python number, whose dtype the signature decides (NEP 50); NumPy scalars are typed."""
    return isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic)


def _target_device(target):
    if target is None:
        return None
    if target in ("cpu", "parallel"):
        return _core.Device("cpu")
    if target == "cuda":
        return "cuda"  # resolved at each call: the arguments' GPU, else the current one
    if isinstance(target, _core.Device):
        return target
    raise ValueError("target must be 'cpu', 'parallel' or 'cuda', not %r" % (target,))


class _Kernel:
    """The wrapper kernel of one signature for `nloop` loop dimensions."""

    def __init__(self, gufunc, sig_types, nloop):
        self.g = gufunc
        self.nloop = nloop
        py = gufunc.py_func
        cores = gufunc.in_cores + gufunc.out_cores
        dev_types = []
        for t, core in zip(sig_types, cores):
            if kir.is_array(t):
                dev_types.append(kir.ArrayType(t.dtype, max(len(core), 1), "A"))
            elif core:
                raise TypeError("guvectorize %s(): a parameter with core dimensions %s must be an array type, not %s"
                                % (py.__name__, "(" + ",".join(core) + ")", t))
            else:
                dev_types.append(t)
        self.dev_types = dev_types
        fn = KernelCompiler(py, dev_types, "device", "guvectorize").compile()
        self.name = "gu_" + cemit.cname(py.__name__).rstrip("_")
        body, (dev_name,), _ = cemit.emit_device_functions([fn], _basename(py.__code__.co_filename))
        # the wrapper: thread t takes loop element t (C order over the loop dimensions)
        params = ["int64_t pg_n"]
        loop_types = []
        for k, (t, core) in enumerate(zip(sig_types, cores)):
            dt = t.dtype if kir.is_array(t) else t
            at = kir.ArrayType(dt, nloop + len(core), "A")
            loop_types.append(at)
            params.append("%s a%d" % (cemit.ctype(at), k))
        lines = ['extern "C" __global__ void %s(%s)' % (self.name, ", ".join(params)), "{",
                 "    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < pg_n;"
                 " t += (int64_t)blockDim.x * gridDim.x) {",
                 "        int64_t r = t;"]
        for d in reversed(range(nloop)):
            lines.append("        const int64_t i%d = %s;" % (d, "r %% a0.shape[%d]" % d if d else "r"))
            if d:
                lines.append("        r /= a0.shape[%d];" % d)
        args = []
        for k, (t, core, dt) in enumerate(zip(sig_types, cores, dev_types)):
            offset = " + ".join(["i%d * a%d.strides[%d]" % (d, k, d) for d in range(nloop)]) or "0"
            el = cemit._STORED[loop_types[k].dtype]
            ptr = "(%s *)((char *)a%d.data + %s)" % (el, k, offset)
            if not kir.is_array(dt):
                args.append("*" + ptr)
                continue
            v = "v%d" % k
            lines.append("        %s %s;" % (cemit.ctype(dt), v))
            lines.append("        %s.data = %s;" % (v, ptr))
            if core:
                for c in range(len(core)):
                    lines.append("        %s.shape[%d] = a%d.shape[%d];" % (v, c, k, nloop + c))
                    lines.append("        %s.strides[%d] = a%d.strides[%d];" % (v, c, k, nloop + c))
            else:  # a 1-element array for a () core
                lines.append("        %s.shape[0] = 1;" % v)
                lines.append("        %s.strides[0] = 0;" % v)
            args.append(v)
        lines.append("        %s(%s);" % (dev_name, ", ".join(args)))
        lines += ["    }", "}"]
        self.body = body + "\n".join(lines) + "\n"
        self.params = ((S.PARAM_INT, S.TYPE_CODES[T.INT64], 8),) + tuple(_param(t) for t in loop_types)
        self._modules = {}

    def function(self, device):
        check = device.type == "cpu"
        mod = self._modules.get(check)
        if mod is None:
            head = "#define PG_JIT_CHECK %d\n#define PG_JIT_FILE \"%s\"\n" % (
                check, _basename(self.g.py_func.__code__.co_filename).replace('"', ""))
            mod = self._modules[check] = SourceModule(head + prelude() + "\n" + self.body, (), exports=[self.name],
                                                      filename=self.name + ".cu")
        loaded, symbols = mod.load(device)
        return loaded.get_function(symbols.get(self.name, self.name), self.params, self.g.__name__)


class GUFunc:
    """A generalized ufunc: ``f(*inputs, *outputs)`` (outputs optional), loop dimensions
    broadcast, run on the device of its pygpu array arguments (else target's, else the current
    one)."""

    def __init__(self, py_func, signatures, layout, target=None):
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__doc__ = py_func.__doc__
        self.__wrapped__ = py_func
        self.in_cores, self.out_cores = parse_layout(layout)
        self.signature = layout
        self.nin, self.nout = len(self.in_cores), len(self.out_cores)
        self.nargs = self.nin + self.nout
        self.device = _target_device(target)
        self._sigs = []
        for sig in signatures:
            args, ret = parse_kernel_signature(sig)
            if ret is not None:
                raise TypeError("a gufunc signature returns void: 'void(float64[:], float64[:])', not %r" % (sig,))
            if len(args) != self.nargs:
                raise TypeError("signature %r has %d arguments; the layout %r has %d" % (sig, len(args), layout,
                                                                                         self.nargs))
            self._sigs.append(tuple(args))
        if not self._sigs:
            raise TypeError("guvectorize takes a list of signatures, e.g. ['void(float64[:], float64[:])']")
        self._kernels = {}
        for sig in self._sigs:   # type-check now, as Numba compiles now
            self._kernel(sig, 0)

    @property
    def types(self):
        return ["".join(np.dtype(t.dtype if kir.is_array(t) else t).char for t in s[:self.nin]) + "->" +
                "".join(np.dtype(t.dtype if kir.is_array(t) else t).char for t in s[self.nin:]) for s in self._sigs]

    def _kernel(self, sig, nloop):
        k = self._kernels.get((sig, nloop))
        if k is None:
            k = self._kernels[(sig, nloop)] = _Kernel(self, sig, nloop)
        return k

    def _pick(self, inputs):
        """The first signature NumPy's casting rules take the inputs to ('safe', Python scalars weak)."""
        for sig in self._sigs:
            ok = True
            for x, t in zip(inputs, sig):
                want = t.dtype if kir.is_array(t) else t
                if _weak(x):
                    ok = np.can_cast(np.result_type(want, x), want, "same_kind") and (
                        not isinstance(x, float) or want.kind in "fc") and (not isinstance(x, complex) or
                                                                           want.kind == "c")
                else:
                    ok = np.can_cast(x.dtype, want, "safe")
                if not ok:
                    break
            if ok:
                return sig
        # then Numba's search (deviceufunc._search_matching_signature): the first signature whose
        # types cast safely to the inputs' dtypes (np.int64(2) takes an int32 argument), the
        # inputs then cast to it
        dtypes = [np.asarray(x).dtype if _weak(x) else x.dtype for x in inputs]
        if all(d.kind in "biufc" for d in dtypes):
            for sig in self._sigs:
                if all(np.can_cast(t.dtype if kir.is_array(t) else t, d) for t, d in zip(sig, dtypes)):
                    return sig
        have = ", ".join(type(x).__name__ if _weak(x) else str(x.dtype)
                         for x in inputs)
        raise TypeError("ufunc '%s' not supported for the input types (%s); its loops are %s"
                        % (self.__name__, have, ", ".join(self.types)))

    def _call_device(self, args):
        if self.device == "cuda":
            return _gpu_for(args)
        return next((a.device for a in args if isinstance(a, _core.ndarray)), None) or _core.get_device()

    def __call__(self, *args, out=None, stream=0):
        """The gufunc on the arguments, queued on `stream` (Numba's form; 0: the current stream).
        NumPy arrays given as outputs get the results and are returned, as Numba does."""
        from ..cuda import _on_stream
        with _on_stream(stream):
            return self._call(args, out)

    def _call(self, args, out):
        if out is not None:
            args = args + (tuple(out) if isinstance(out, tuple) else (out,))
        if len(args) not in (self.nin, self.nargs):
            raise TypeError("%s() takes %d inputs (and optionally %d outputs), got %d arguments"
                            % (self.__name__, self.nin, self.nout, len(args)))
        device = self.device
        if device is None or device == "cuda":
            device = self._call_device(args)
        inputs = list(args[:self.nin])
        sig = self._pick([x if _weak(x) else np.asarray(x) if not hasattr(x, "dtype")
                          else x for x in inputs])
        arrays = []
        for x, t in zip(inputs, sig):
            want = t.dtype if kir.is_array(t) else t
            a = _core.asarray(x, device=device)
            if a.device != device:
                raise ValueError("%s(): an argument is on %r, the gufunc runs on %r" % (self.__name__, a.device, device))
            arrays.append(a.astype(want, copy=False) if a.dtype != want else a)
        # core dimensions and the loop shape
        sizes = {}
        loops = []
        for k, (a, core) in enumerate(zip(arrays, self.in_cores)):
            if a.ndim < len(core):
                raise ValueError("%s: Input operand %d does not have enough dimensions (has %d, gufunc core with "
                                 "signature %s requires %d)" % (self.__name__, k, a.ndim, self.signature, len(core)))
            for name, n in zip(core, a.shape[a.ndim - len(core):]):
                if sizes.setdefault(name, n) != n:
                    raise ValueError("%s: Input operand %d has a mismatch in its core dimension %s, with gufunc "
                                     "signature %s (size %d is different from %d)"
                                     % (self.__name__, k, name, self.signature, n, sizes[name]))
            loops.append(a.shape[:a.ndim - len(core)])
        outs = list(args[self.nin:])
        host = [None] * len(outs)   # NumPy outputs: computed on the device, then copied in
        for k, (o, core, t) in enumerate(zip(outs, self.out_cores, sig[self.nin:])):
            if isinstance(o, np.ndarray):
                host[k] = o
                outs[k] = o = _core.empty(o.shape, t.dtype if kir.is_array(t) else t, device=device)
            elif not isinstance(o, _core.ndarray):
                raise TypeError("%s(): outputs must be pygpu or NumPy arrays, not %s" % (self.__name__,
                                                                                        type(o).__name__))
            for name, n in zip(core, o.shape[o.ndim - len(core):]):
                if sizes.setdefault(name, n) != n:
                    raise ValueError("%s: Output operand %d has a mismatch in its core dimension %s" %
                                     (self.__name__, k, name))
        try:
            loop_shape = np.broadcast_shapes(*loops)
        except ValueError:
            raise ValueError("operands could not be broadcast together with shapes %s" %
                             " ".join(str(s) for s in loops)) from None
        for core in self.out_cores:
            for name in core:
                if name not in sizes:
                    raise ValueError("%s: the output core dimension %s is not set by any input (pass out=)"
                                     % (self.__name__, name))
        if not outs:
            for core, t in zip(self.out_cores, sig[self.nin:]):
                want = t.dtype if kir.is_array(t) else t
                outs.append(_core.empty(tuple(loop_shape) + tuple(sizes[n] for n in core), want, device=device))
        for o, core, t in zip(outs, self.out_cores, sig[self.nin:]):
            want = tuple(loop_shape) + tuple(sizes[n] for n in core)
            if o.shape != want:
                raise ValueError("%s: an output has shape %s, the result has %s" % (self.__name__, o.shape, want))
        # every operand as loop dimensions + its core dimensions
        views = [_core.broadcast_to(a, tuple(loop_shape) + a.shape[a.ndim - len(core):])
                 for a, core in zip(arrays, self.in_cores)] + outs
        n = int(np.prod(loop_shape)) if loop_shape else 1
        if n > 0:
            fn = self._kernel(sig, len(loop_shape)).function(device)
            blocks = max(1, min((n + _BLOCK - 1) // _BLOCK, 65535))
            fn((blocks,), (_BLOCK,), [n] + views)
        for k, h in enumerate(host):
            if h is not None:
                h[...] = outs[k].get()
                outs[k] = h
        return outs[0] if len(outs) == 1 else tuple(outs)

    def __repr__(self):
        return "<pygpu.guvectorize %s %s>" % (self.__name__, self.signature)


def _gpu_for(args):
    """target='cuda': the GPU of the array arguments, else the current device when it is a GPU,
    else cuda:0; the CPU when there is no usable GPU (GPU code runs unchanged)."""
    from .. import cuda
    for a in args:
        if isinstance(a, _core.ndarray) and a.device.type != "cpu":
            return a.device
    current = _core.get_device()
    if current.type != "cpu":
        return current
    return _core.Device("cuda:0") if cuda.is_available() else _core.Device("cpu")


def guvectorize(signatures, layout, target=None, nopython=True, cache=False, identity=None, writable_args=(),
                **kwargs):
    """Numba's ``@guvectorize(['void(float64[:], float64[:])'], '(n)->(n)')``: a generalized ufunc
    whose Python function writes its outputs, compiled like a @cuda.jit device function and run
    with a thread per element of the loop dimensions (broadcast as NumPy's gufuncs do). ``target``
    'cpu'/'parallel' runs on the CPU, 'cuda' on the GPU (the CPU when there is none); by default
    on the device of the array arguments."""
    if isinstance(signatures, str):
        signatures = [signatures]
    return lambda fn: GUFunc(fn, list(signatures), layout, target)
