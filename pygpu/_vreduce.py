"""Reductions and scans with a user's binary function as the combiner: pygpu.reduce (and Numba's
cuda.reduce spelling), and .reduce / .accumulate of vectorize functions of two arguments.

The function's VM program (vectorize's) is the combiner of the reduction kernels
(csrc/kernels/vm_reduce.h): one launch family, a pass over the data plus short passes over
per-chunk partial results. Elements are combined in order (C order over the reduced axes), so
the combiner need only be associative, as Numba's reduce asks; it need not be commutative."""
import operator

import numpy as np

from . import _core
from ._vectorize import vectorize

_MAXDIMS = 8  # merged dimensions the kernels take (PG_VMR_MAXDIMS); deeper inputs are copied
_OP_COMBINERS = {}


def _as_device_array(arr, device=None):
    if isinstance(arr, _core.ndarray):
        return arr
    return _core.asarray(arr, device=device)


def _loop(uf, dt, exact=False):
    """(types, program) of uf's loop for two operands of dtype dt: the first that takes them by
    safe casting (exact: of dt itself), or a new one from a lazy function's compiler."""
    for types, program in uf._programs or ():
        if (types[0] == types[1] == dt) if exact else (np.can_cast(dt, types[0]) and np.can_cast(dt, types[1])):
            return types, program
    compiler = vars(uf).get("_compiler")
    if compiler is not None:
        types, program = compiler((dt, dt))
        uf._add_loop(types, program)
        return tuple(np.dtype(t) for t in types), program
    raise TypeError(f"ufunc '{uf.__name__}' not supported for the input types, and the inputs could not be "
                    f"safely coerced to any supported types according to the casting rule ''safe''")


def combiner(uf, dt, exact=False):
    """(program, result dtype) of uf combining two values of dtype dt as a reduction does: the
    loop for (dt, dt), or, when that loop's result is another dtype r, the loop for (r, r), which
    must give r (the accumulator keeps one type). exact: a lazy function's loop for dt itself,
    never another dtype's that takes it (Numba's cuda.reduce compiles for the array's dtype)."""
    dt = np.dtype(dt)
    types, program = _loop(uf, dt, exact and vars(uf).get("_compiler") is not None)
    r = np.dtype(types[2])
    if types[0] == r and types[1] == r:
        return program, r
    try:
        types2, program2 = _loop(uf, r)
    except TypeError:
        types2 = None
    if types2 is None or not (types2[0] == types2[1] == types2[2] == r):
        raise TypeError(f"{uf.__name__}.reduce: combining two {dt} values gives {r}, and no loop of "
                        f"{uf.__name__} combines two {r} values into {r}")
    return program2, r


def op_combiner(op, dt):
    """The combiner program of op-table op ('add', 'maximum', ...) for two values of dtype dt
    (a VM compute type: not float16), made once."""
    key = (op, np.dtype(dt))
    program = _OP_COMBINERS.get(key)
    if program is None:
        from ._compiler import ir, vm
        t = key[1]
        a, b = ir.Var("a", t), ir.Var("b", t)
        fn = ir.Function(op, [a, b], t, [ir.Return(ir.Op(op, [ir.Load(a), ir.Load(b)], t), 0)], [a, b],
                         "<reduction>", 0)
        program = _OP_COMBINERS[key] = vm.emit(fn)
    return program


def _axes(axis, nd):
    if axis is None:
        return tuple(range(nd))
    if isinstance(axis, tuple):
        axes = tuple(operator.index(x) for x in axis)
    else:
        axes = (operator.index(axis),)
    norm = []
    for x in axes:
        if not -nd <= x < nd:
            raise np.exceptions.AxisError(x, nd)
        norm.append(x % nd)
    if len(set(norm)) != len(norm):
        raise ValueError("duplicate value in 'axis'")
    return tuple(norm)


def reduce_program(inputs, comb, map_program, axis, keepdims, dtype, out, initial, identity, name,
                   commutes=False):
    """The reduction kernels' entry from Python: the inputs (arrays on one device, or numbers)
    mapped by map_program (None: one input) and reduced by the combiner comb over axis, as
    NumPy's ufunc.reduce (keepdims, out, initial; identity is the value of an empty reduction).
    commutes: comb is commutative (an op's), so elements may be combined in any order."""
    arrays = [x for x in inputs if isinstance(x, _core.ndarray)]
    nd = max(x.ndim for x in arrays)
    if nd > _MAXDIMS:  # kept axes first, reduced last, each merged into one by a contiguous copy
        axes = _axes(axis, nd)
        kept = [i for i in range(nd) if i not in axes]
        shape = np.broadcast_shapes(*(x.shape for x in arrays))
        kept_shape = tuple(shape[i] for i in kept)
        two_d = (int(np.prod(kept_shape, dtype=np.int64)), -1)
        moved = tuple(_core.broadcast_to(x, shape).transpose(kept + list(axes)).copy().reshape(two_d)
                      if isinstance(x, _core.ndarray) else x for x in inputs)
        res = reduce_program(moved, comb, map_program, 1, False, dtype, None, initial, identity, name, commutes)
        res = res.reshape(tuple(1 if i in axes else shape[i] for i in range(nd)) if keepdims else kept_shape)
        if out is not None:
            out[...] = res
            return out
        return res
    return _core._vm_reduce(tuple(inputs), comb, map_program, axis, keepdims, dtype, out, initial,
                            identity if initial is None else initial, name, commutes)


def vreduce(uf, arr, axis=0, dtype=None, out=None, keepdims=False, initial=None, exact=False):
    """uf.reduce: arr reduced along axis (an int, a tuple, or None for all axes) with the binary
    ufunc uf, the elements combined in C order (exact: see combiner)."""
    a = _as_device_array(arr, uf.target)
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = out[0]
    comb, rt = combiner(uf, a.dtype if dtype is None else dtype, exact)
    if a.ndim == 0:
        axis = ()
    return reduce_program((a,), comb, None, axis, keepdims, rt, out, initial, vars(uf).get("_identity"),
                          uf.__name__)


def vaccumulate(uf, arr, axis=0, dtype=None, out=None):
    """uf.accumulate: the running combination along axis, in order."""
    a = _as_device_array(arr, uf.target)
    if a.ndim == 0:
        raise ValueError("accumulate: a 0-d array has no axis to accumulate along")
    axis = operator.index(axis)
    if not -a.ndim <= axis < a.ndim:
        raise np.exceptions.AxisError(axis, a.ndim)
    if isinstance(out, tuple):
        out = out[0]
    comb, rt = combiner(uf, a.dtype if dtype is None else dtype)
    return _core._vm_accumulate(a, comb, axis % a.ndim, rt, out)


def attach(uf):
    """Gives a binary vectorize function NumPy's .reduce and .accumulate."""
    if uf.nin != 2:
        return uf

    def reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=None, stream=0):
        """The reduction of array along axis with this function (NumPy's ufunc.reduce), the
        elements combined in C order; on `stream` (Numba's form; 0: the current stream)."""
        from .cuda import _on_stream
        with _on_stream(stream):
            return vreduce(uf, array, axis, dtype, out, keepdims, initial)

    def accumulate(array, axis=0, dtype=None, out=None):
        """The running reduction of array along axis (NumPy's ufunc.accumulate)."""
        return vaccumulate(uf, array, axis, dtype, out)

    uf.reduce = reduce
    uf.accumulate = accumulate
    return uf


class Reduce:
    """A reduction with a binary Python function (Numba's cuda.reduce): r = Reduce(lambda a, b: a + b);
    r(arr, size=None, res=None, init=0, stream=0) gives the combination of init and arr's elements
    (in order: the function need only be associative) as a Python number, or stores it in res[0]."""

    def __init__(self, functor):
        self.functor = functor
        self.ufunc = attach(vectorize(functor))
        if self.ufunc.nin != 2:
            raise TypeError("reduce needs a function of two arguments")

    def __repr__(self):
        return f"<pygpu.reduce {getattr(self.functor, '__name__', self.functor)!r}>"

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        from .cuda import _on_stream
        with _on_stream(stream):
            a = _as_device_array(arr)
            a = a.reshape(-1) if a.ndim != 1 else a
            if size is not None:
                a = a[:size]
            value = vreduce(self.ufunc, a, 0, initial=init, exact=True)
            if res is not None:
                res[0] = value
                return None
            return value.item()


def reduce(functor):
    """pygpu.reduce(f): a reduction whose combiner is the binary Python function f (Numba's
    cuda.reduce). The function is compiled like vectorize's."""
    return Reduce(functor)
