"""The kernel IR: what cuda.jit kernels add to the typed IR of ir.py (arrays, Numba's CUDA names,
statements without a value). The front end of kernel.py produces it, cemit.py turns it into CUDA C.

Types: ArrayType(dtype, ndim, layout, space) beside the scalar dtypes of ir.py; a Var may hold
an array (a parameter, a shared/local/constant array, a view).

Statements:
    Store(target: Element, value)        value.type == the array's dtype
    ExprStmt(value)                      an intrinsic or device-function call for its effect
    ArrayDecl(var, space, shape, values) a shared/local/const array of var.type; values: the
                                         NumPy array of a const.array_like, else None
    ViewAssign(var, base, items)         var = base[items]: a view (items: ('index', expr) or
                                         ('slice', start | None, stop | None, step | None))
    Return(None)                         (ir.Return) leaves a kernel or a void device function

Expressions:
    Element(array, indices, type, line)  array[i, j, ...] (one index per dimension)
    Field(element, name, offset, dtype)  r[i].x: a field of a record (an Element of an array
                                         of a structured dtype, whose type is None)
    ArrayAttr(array, attr, dim, type)    array.shape[dim] / array.strides[dim] (int64)
    Intrinsic(name, args, type)          Numba's CUDA names: 'threadIdx.x', 'grid.x',
                                         'syncthreads', 'atomic.add' (args[0] an Element), ...
"""
import numpy as np

from . import ir
from . import types as T


class ArrayType:
    """An array of `dtype` with `ndim` dimensions, indexed as C-contiguous (layout 'C') or through
    its strides ('A'), in global memory or in a kernel's 'shared', 'local' or 'const' memory."""
    kind = "array"   # never a scalar kind: the scalar rules' tests (is_int, ...) are all false

    __slots__ = ("dtype", "ndim", "layout", "space")

    def __init__(self, dtype, ndim, layout="A", space="global"):
        self.dtype = np.dtype(dtype)
        self.ndim = int(ndim)
        self.layout = layout
        self.space = space

    def _key(self):
        return (self.dtype, self.ndim, self.layout, self.space)

    def __eq__(self, other):
        return isinstance(other, ArrayType) and self._key() == other._key()

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        dims = [":"] * self.ndim
        if self.layout == "C" and dims:
            dims[-1] = "::1"
        if self.dtype.names is not None:
            return "Record(%s)[%s]" % (", ".join("%s: %s" % (n, self.dtype.fields[n][0]) for n in self.dtype.names),
                                       ", ".join(dims))
        return "%s[%s]" % (self.dtype, ", ".join(dims))

    __repr__ = __str__


def is_array(t):
    return isinstance(t, ArrayType)


class TupleType:
    """A tuple of `n` numbers of one `dtype`, a kernel argument passed by value (PgTup<T, n>);
    `names`: a namedtuple's field names (p.x in the kernel), or None."""
    kind = "tuple"   # never a scalar kind

    __slots__ = ("dtype", "n", "names")

    def __init__(self, dtype, n, names=None):
        self.dtype = np.dtype(dtype)
        self.n = int(n)
        self.names = tuple(names) if names is not None else None

    def __eq__(self, other):
        return isinstance(other, TupleType) and (self.dtype, self.n, self.names) == (other.dtype, other.n, other.names)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(("tuple", self.dtype, self.n, self.names))

    def __str__(self):
        if self.names is not None:
            return "NamedUniTuple(%s, %d, %s)" % (self.dtype, self.n, ", ".join(self.names))
        return "UniTuple(%s, %d)" % (self.dtype, self.n)

    __repr__ = __str__


def is_tuple(t):
    return isinstance(t, TupleType)


# Numba's vector types, by name: (element dtype, components). Values of 1 to 4 numbers with
# .x .y .z .w, which the compiler holds as tuples (cuda.float32x4(...), CUDA's cuda.float4(...)).
_VECTOR_BASES = {"int8": "char", "int16": "short", "int32": "int", "int64": "longlong", "uint8": "uchar",
                 "uint16": "ushort", "uint32": "uint", "uint64": "ulonglong", "float32": "float", "float64": "double"}
VECTOR_TYPES = {name: (base, n) for base, cname in _VECTOR_BASES.items() for n in (1, 2, 3, 4)
                for name in ("%sx%d" % (base, n), "%s%d" % (cname, n))}


class StructType:
    """What a device function that returns a tuple returns (or takes): a C struct of its items'
    types; `names`: a namedtuple's field names, or None."""
    kind = "struct"   # never a scalar kind

    __slots__ = ("dtypes", "names")

    def __init__(self, dtypes, names=None):
        self.dtypes = tuple(np.dtype(t) for t in dtypes)
        self.names = tuple(names) if names is not None else None

    def __eq__(self, other):
        return isinstance(other, StructType) and (self.dtypes, self.names) == (other.dtypes, other.names)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(("struct", self.names) + self.dtypes)

    def __str__(self):
        if self.names is not None:
            return "NamedTuple(%s)" % ", ".join("%s: %s" % nt for nt in zip(self.names, self.dtypes))
        return "Tuple(%s)" % ", ".join(str(t) for t in self.dtypes)

    __repr__ = __str__


def is_struct(t):
    return isinstance(t, StructType)


VOID = "void"   # the return type of kernels and of device functions that return nothing


class Store(ir.Node):
    __slots__ = ("target", "value", "line")

    def __init__(self, target, value, line):
        self.target = target
        self.value = value
        self.line = line


class ExprStmt(ir.Node):
    __slots__ = ("value", "line")

    def __init__(self, value, line):
        self.value = value
        self.line = line


class ArrayDecl(ir.Node):
    __slots__ = ("var", "space", "shape", "values", "line", "alignment")

    def __init__(self, var, space, shape, values, line, alignment=None):
        self.var = var
        self.space = space
        self.shape = shape
        self.values = values
        self.line = line
        self.alignment = alignment   # bytes (a power of two), or None for the dtype's own


class ViewAssign(ir.Node):
    """var = base[items], then, with `part` (byte offset, factor), the data moved by the offset
    and, with a factor, the last dimension split into that many elements each, or with a
    negative one, -factor elements joined into one (a.real, a.imag, a.view(dtype): the var's
    dtype is the new one)."""
    __slots__ = ("var", "base", "items", "line", "part")

    def __init__(self, var, base, items, line, part=None):
        self.var = var
        self.base = base
        self.items = items
        self.line = line
        self.part = part


class Element(ir.Node):
    __slots__ = ("array", "indices", "type", "line")

    def __init__(self, array, indices, type, line):
        self.array = array
        self.indices = indices
        self.type = type
        self.line = line


class Field(ir.Node):
    """A field of a record: element.array[element.indices] is a record (a structured dtype), the
    field `name` at byte `offset` of dtype `dtype`; type: its computed type (float16 as float32).
    Read as a value, or the target of a Store."""
    __slots__ = ("element", "name", "offset", "dtype", "type", "line")

    def __init__(self, element, name, offset, dtype, line):
        self.element = element
        self.name = name
        self.offset = offset
        self.dtype = np.dtype(dtype)
        self.type = T.compute_type(self.dtype)
        self.line = line


def is_record(dtype):
    """A structured dtype (an array of records)."""
    return dtype.names is not None


def non_number_field(dtype):
    """The first field of a record dtype that is not a number (a nested record, a subarray), or
    None: kernels take records of numbers."""
    return next((name for name in dtype.names if dtype.fields[name][0] not in T.NUMBER), None)


class ArrayAttr(ir.Node):
    __slots__ = ("array", "attr", "dim", "type")

    def __init__(self, array, attr, dim):
        self.array = array
        self.attr = attr
        self.dim = dim
        self.type = T.INT64


class Intrinsic(ir.Node):
    __slots__ = ("name", "args", "type")

    def __init__(self, name, args, type):
        self.name = name
        self.args = args
        self.type = type
