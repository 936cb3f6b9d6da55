"""Numba's type objects for cuda.jit, for users without Numba (``pygpu.cuda.types``): the scalar
types (``float32``, ``int64``, ``boolean``, ``f4``, ...), arrays written as Numba writes them
(``float32[:]``, ``float32[::1]``, ``float32[:, ::1]`` C-contiguous, ``float32[::1, :]``
F-contiguous) and signatures made by calling a type (``void(float32[:], int64)``,
``float64(float64, float64)``). The compiler reads these and Numba's own objects alike (by their
names and layouts: Numba is never imported). Inside a kernel a scalar type converts
(``float32(x)``); on the host, called with numbers, it does what NumPy's scalar type does."""
import numpy as np

__all__ = ["Type", "Scalar", "Array", "Signature", "void", "none", "boolean", "bool_", "b1",
           "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "intp", "uintp",
           "float16", "float32", "float64", "complex64", "complex128",
           "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2", "f4", "f8", "c8", "c16", "byte",
           "double", "float_", "int_", "intc", "uintc", "short", "ushort", "longlong", "ulonglong", "uchar"]


class Type:
    """A type of Numba's language; calling one with types gives a signature."""
    name = "?"

    def __call__(self, *args):
        if all(isinstance(a, Type) or _foreign_type(a) for a in args):
            return Signature(self, args)
        raise TypeError("%s(...) takes types (a signature such as %s(float32[:], int64))" % (self, self))

    def __repr__(self):
        return self.name

    __str__ = __repr__

    def __eq__(self, other):
        return type(self) is type(other) and self._key() == other._key()

    def __hash__(self):
        return hash((type(self).__name__, self._key()))

    def _key(self):
        return self.name


class NoneType(Type):
    """What a kernel returns: ``void`` (Numba's ``none``)."""
    name = "none"


class Scalar(Type):
    """A number type; ``t[:]`` and the like are array types of it."""

    def __init__(self, name, dtype):
        self.name = name
        self.dtype = np.dtype(dtype)

    def __call__(self, *args):
        if args and all(isinstance(a, Type) or _foreign_type(a) for a in args):
            return Signature(self, args)
        if len(args) == 1:  # float32(1.5) on the host, as numba.float32(1.5)
            return self.dtype.type(args[0])
        raise TypeError("%s() takes one number to convert, or types to make a signature" % self)

    def __getitem__(self, dims):
        dims = dims if isinstance(dims, tuple) else (dims,)
        if not dims or not all(isinstance(d, slice) and d.start is None and d.stop is None and d.step in (None, 1)
                               for d in dims):
            raise TypeError("array types are written %s[:], %s[::1] or %s[:, ::1], not %s[%s]"
                            % (self, self, self, self, ", ".join(map(_slice_text, dims))))
        steps = [d.step for d in dims]
        if steps[-1] == 1 and all(s is None for s in steps[:-1]):
            layout = "C"
        elif steps[0] == 1 and all(s is None for s in steps[1:]) and len(dims) > 1:
            layout = "F"
        elif all(s is None for s in steps):
            layout = "A"
        else:
            raise TypeError("only the first or the last dimension of an array type can be contiguous (::1)")
        return Array(self, len(dims), layout)


class Array(Type):
    """An array type: element type, dimensions and layout ('C', 'F' or 'A' for any strides)."""

    def __init__(self, dtype, ndim, layout):
        self.dtype, self.ndim, self.layout = dtype, int(ndim), layout
        self.name = "array(%s, %dd, %s)" % (dtype, self.ndim, layout)

    def _key(self):
        return (self.dtype.name, self.ndim, self.layout)


class Signature:
    """return_type(args...): what a signature string says."""

    def __init__(self, return_type, args):
        self.return_type = return_type
        self.args = tuple(args)

    def __repr__(self):
        return "%s(%s)" % (self.return_type, ", ".join(map(str, self.args)))

    __str__ = __repr__


def _slice_text(d):
    if not isinstance(d, slice):
        return repr(d)
    return "%s:%s%s" % ("" if d.start is None else d.start, "" if d.stop is None else d.stop,
                        "" if d.step is None else ":%s" % d.step)


def _foreign_type(a):
    """A Numba type object (read by name, Numba not imported)."""
    return type(a).__module__.startswith("numba")


def is_array_type(t):
    """An array type object, pygpu's or Numba's (a dtype, ndim and layout)."""
    return hasattr(t, "ndim") and hasattr(t, "layout") and hasattr(t, "dtype") and not isinstance(t, np.ndarray)


void = none = NoneType()
boolean = bool_ = b1 = Scalar("bool", np.bool_)
int8 = i1 = byte = Scalar("int8", np.int8)
int16 = i2 = short = Scalar("int16", np.int16)
int32 = i4 = intc = Scalar("int32", np.int32)
int64 = i8 = intp = int_ = longlong = Scalar("int64", np.int64)
uint8 = u1 = uchar = Scalar("uint8", np.uint8)
uint16 = u2 = ushort = Scalar("uint16", np.uint16)
uint32 = u4 = uintc = Scalar("uint32", np.uint32)
uint64 = u8 = uintp = ulonglong = Scalar("uint64", np.uint64)
float16 = f2 = Scalar("float16", np.float16)
float32 = f4 = float_ = Scalar("float32", np.float32)
float64 = f8 = double = Scalar("float64", np.float64)
complex64 = c8 = Scalar("complex64", np.complex64)
complex128 = c16 = Scalar("complex128", np.complex128)
