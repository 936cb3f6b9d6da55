"""pygpu.vectorize: a Python function of numbers as a pygpu.ufunc, compiled in about a millisecond
to a VM program (pygpu/_compiler) that precompiled interpreter kernels run in one pass."""
import inspect

import numpy as np

from . import _core
from ._compiler import compile_program
from ._compiler import types as T
from ._jit import tier as _tier

_tier.set_mode()   # PYGPU_VECTORIZE_TIER: the compiled tier's hook in the C launch

_TARGETS = ("cpu", "parallel", "cuda")


def _target_device(target):
    """The device a target names: 'cpu' and 'parallel' the CPU, 'cuda' the current CUDA device
    (the CPU when none is usable, so code written for a GPU runs unchanged), None: the operands'."""
    if target is None:
        return None
    if not isinstance(target, str) or target not in _TARGETS:
        if isinstance(target, (str, _core.Device)):
            try:
                return _core.Device(target) if isinstance(target, str) else target
            except Exception:
                pass
        raise ValueError(f"target must be one of {', '.join(map(repr, _TARGETS))} (or a device), not {target!r}")
    if target == "cuda":
        if _core._cuda_device_count()[0] == 0:
            return _core.Device("cpu")
        current = _core.get_device()
        return current if current.kind == "cuda" else _core.Device("cuda:0")
    return _core.Device("cpu")


def _nin(pyfunc):
    try:
        params = inspect.signature(pyfunc).parameters.values()
    except (TypeError, ValueError):
        raise TypeError(f"vectorize needs a Python function, not {pyfunc!r}") from None
    kinds = {p.kind for p in params}
    if kinds - {inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.POSITIONAL_ONLY}:
        raise TypeError("vectorize functions take positional arguments only (no *args, **kwargs or keyword-only)")
    n = len(params)
    if not 1 <= n <= 15:
        raise TypeError(f"vectorize functions take 1 to 15 arguments, not {n}")
    return n


def _signatures(ftylist):
    """The list of signatures given: one (a string, a Numba signature object, a tuple of types) or
    a list of them."""
    if isinstance(ftylist, str) or hasattr(ftylist, "return_type"):
        return [ftylist]
    if isinstance(ftylist, tuple) and ftylist and not isinstance(ftylist[0], str) and not hasattr(ftylist[0], "args"):
        return [ftylist]
    return list(ftylist)


def _build(pyfunc, sigs, target, otypes=None, doc=None, identity=None):
    nin = _nin(pyfunc)
    out_type = None
    if otypes is not None:
        if isinstance(otypes, str):
            otypes = list(otypes)
        if len(otypes) != 1:
            raise ValueError("vectorize functions have one output: otypes takes one type")
        out_type = T.parse_type(otypes[0])
        if out_type is None:
            raise TypeError(f"unsupported output type {otypes[0]!r}")

    def compiler(dtypes):
        args = list(dtypes)
        program, ret = compile_program(pyfunc, args, out_type)
        return args + [ret if out_type is None else out_type], program

    name = getattr(pyfunc, "__name__", "vectorized")
    device = _target_device(target)
    uf = _core._program_ufunc(name, nin, compiler=None if sigs else compiler, target=device, user_loops=True)
    uf._device = device
    uf._host_call = _host_call   # the C call hands it stream= and NumPy outputs
    for sig in sigs:
        args, ret = T.parse_signature(sig)
        if len(args) != nin:
            raise TypeError(f"signature {sig!r} has {len(args)} arguments, but {name}() takes {nin}")
        program, inferred = compile_program(pyfunc, args, ret)
        uf._add_loop(args + [ret if ret is not None else inferred], program)
    uf.__wrapped__ = pyfunc
    uf.__doc__ = doc if doc is not None else pyfunc.__doc__
    uf.__module__ = getattr(pyfunc, "__module__", None)
    uf.__qualname__ = getattr(pyfunc, "__qualname__", name)
    uf._identity = identity if isinstance(identity, (int, float, complex)) else None
    uf._compiler = None if sigs else compiler  # reductions compile the combiner's loop they need
    from ._vreduce import attach
    return attach(uf)  # binary functions: .reduce and .accumulate


def _host_call(uf, *args, out=None, stream=0, **kwargs):
    """Numba's forms of a vectorize call: on `stream` (0: the current one), and with a NumPy
    array as the output, which gets the result (computed into a device copy of it, so that
    where=, casting= and broadcasting are the ufunc's own) and is returned, as Numba does."""
    from .cuda import _on_stream
    args, outs = args[:uf.nin], args[uf.nin:]
    if out is not None:
        if outs:
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        outs = out if isinstance(out, tuple) else (out,)
    if len(outs) > 1:
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    host = outs[0] if outs and outs[0] is not None and not isinstance(outs[0], _core.ndarray) else None
    if host is not None and not isinstance(host, np.ndarray):
        raise TypeError(f"return arrays must be of type pygpu.ndarray or numpy.ndarray, not {type(host).__name__}")
    with _on_stream(stream):
        if host is None:
            return uf(*args, out=outs[0] if outs else None, **kwargs)
        device = uf._device or next((a.device for a in args if isinstance(a, _core.ndarray)), None)
        tmp = _core.asarray(host, device=device) if device is not None else _core.asarray(host)
        uf(*args, out=tmp, **kwargs)
        host[...] = tmp.get()
    return host


def vectorize(ftylist_or_function=(), /, *, target=None, identity=None, cache=False, nopython=True,
              fastmath=False, otypes=None, doc=None, **options):
    """A pygpu.ufunc made from a Python function of numbers, Numba's and NumPy's way::

        @vectorize(['float32(float32)', 'float64(float64)'], target='cuda')
        def f(x):
            return math.cos(x) ** 2 + math.sin(x) ** 2

        @vectorize                      # lazy: compiled when no loop so far takes the dtypes
        def g(x, y): ...                #   (an int64 call after a float64 one casts to it, as Numba's)

        h = vectorize(lambda x: x * 2, otypes=[np.float32])     # NumPy's form

    Signatures use Numba's or NumPy's type names ('float32(float32, int32)', 'f4(f4)'); with
    signatures the function is compiled at once and a function outside the supported subset
    raises pygpu.CompileError there, naming the file and line. target picks the device: 'cpu'
    and 'parallel' the CPU, 'cuda' the GPU (the CPU when there is none), None (the default) the
    operands' device; arrays on another device raise. The result broadcasts, takes out=, dtype=,
    casting=, NumPy arrays and Python scalars like every pygpu ufunc; a function of two
    arguments has .reduce and .accumulate, identity (a number) being the value of an empty
    reduction. cache, nopython and fastmath are accepted for Numba compatibility and change
    nothing (compiling takes about a millisecond; results are IEEE)."""
    del cache, nopython, fastmath
    if options:
        raise TypeError(f"vectorize() got unexpected keyword argument(s) {', '.join(map(repr, options))}")
    if identity not in (None, "reorderable") and not isinstance(identity, (int, float, complex)):
        raise ValueError(f"identity must be a number, 'reorderable' or None, not {identity!r}")

    if callable(ftylist_or_function) and not isinstance(ftylist_or_function, (str, tuple, list)):
        return _build(ftylist_or_function, [], target, otypes, doc, identity)
    sigs = _signatures(ftylist_or_function) if ftylist_or_function else []

    def decorate(pyfunc):
        if not callable(pyfunc):
            raise TypeError(f"vectorize decorates a function, not {pyfunc!r}")
        return _build(pyfunc, sigs, target, otypes, doc, identity)

    return decorate
