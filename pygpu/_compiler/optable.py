"""The op table (csrc/kernels/ops.def) as the front end sees it: which loops an op has (their input
and output types, in NumPy's search order) and NumPy's choice of loop for given operands. The IR's
Op nodes name an op and its loop's input types; emitters map them to their own form (the VM: an
opcode per loop, by loop_name)."""
import numpy as np

from .. import _core
from . import types as T

_table = None


def _load():
    global _table
    table = {}
    for name, uf in vars(_core).items():
        if not isinstance(uf, _core.ufunc) or name in table:
            continue
        if uf.__name__ != name.lstrip("_"):
            continue  # an alias (abs for absolute); internal ops keep their '_' (_where, _clip, _angle)
        loops = []
        for spec in uf.types:
            ins, out = spec.split("->")
            loops.append((tuple(np.dtype(c) for c in ins), np.dtype(out)))
        table[name] = loops
    _table = table


def loops(op):
    """[(input types, output type)] of op, in search order; KeyError for an unknown op."""
    if _table is None:
        _load()
    return _table[op]


# NumPy ufuncs the op table computes with another op's loops: NumPy's degrees is its rad2deg,
# float_power its power in the float64 or complex128 loop NumPy picks
ALIASES = {"degrees": "rad2deg", "radians": "deg2rad", "float_power": "power"}


def has(op):
    if _table is None:
        _load()
    return op in _table or op in ALIASES


def find(op, in_types):
    """The output type of op's loop taking exactly in_types, or None."""
    for ins, out in loops(op):
        if ins == tuple(in_types):
            return out
    return None


# the comparisons' loops of a signed and an unsigned 64-bit integer, named by NumPy's type codes
_MIXED_SUFFIX = {(np.dtype(np.int64), np.dtype(np.uint64)): "qQ", (np.dtype(np.uint64), np.dtype(np.int64)): "Qq"}


def mixed_integers(in_types):
    """Whether in_types are an int64 and a uint64, which C's own comparison gets wrong (it converts
    the int64 to uint64) and the op table compares exactly."""
    return tuple(in_types) in _MIXED_SUFFIX


def loop_name(op, in_types):
    """The loop's name in ops.def ('add_f32', '_where_f64', 'less_qQ'): op and its first
    non-condition input's suffix, or the pair's for the comparisons of int64 with uint64."""
    mixed = _MIXED_SUFFIX.get(tuple(in_types))
    if mixed is not None:
        return f"{op}_{mixed}"
    t = in_types[1] if op == "_where" else in_types[0]
    return f"{op}_{T.SUFFIX[t]}"


def resolve(op, operands):
    """NumPy's loop for op on operands, each a dtype or a Python type (int, float, complex) for a
    weak Python scalar (NEP 50): (input types, output type), computing float16 as float32.
    None when no loop takes them."""
    r = resolve_numpy(op, operands)
    return None if r is None else r[:2]


def resolve_numpy(op, operands):
    """resolve(), and the output dtype NumPy gives (float16 where it computes in float16), and the
    input dtypes of NumPy's loop (float16 where it reads a weak Python scalar as float16)."""
    if not has(op):
        return None
    table_op = ALIASES.get(op, op)
    npuf = getattr(np, op, None) if not op.startswith("_") else None
    if isinstance(npuf, np.ufunc) and npuf.nin == len(operands):
        try:
            dts = npuf.resolve_dtypes(tuple(operands) + (None,))
        except (TypeError, np.exceptions.DTypePromotionError):
            return None
        ins = tuple(T.compute_type(d) for d in dts[:-1])
        out = find(table_op, ins)
        if out is None:
            # a loop NumPy has that the op table covers with a wider one (ldexp's float, int32:
            # the table's float, int64): its inputs take these safely and it gives the same type
            want = T.compute_type(dts[-1])
            wider = [(ins2, out2) for ins2, out2 in loops(table_op)
                     if out2 == want and all(np.can_cast(a, b, "safe") for a, b in zip(ins, ins2))]
            if not wider:
                return None
            ins, out = wider[0]
        return ins, out, dts[-1], dts[:-1]
    # internal ops (clip, angle): NumPy's result type of the operands, for every input
    dt = np.result_type(*(o if isinstance(o, np.dtype) else o(0) for o in operands))
    t = T.compute_type(dt)
    ins = (t,) * len(operands)
    out = find(op, ins)
    if out is None:
        return None
    return ins, out, (dt if out == t else out), (dt,) * len(operands)
