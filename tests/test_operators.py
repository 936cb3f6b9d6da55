"""Python operators on pygpu arrays against NumPy: arithmetic, comparison, bitwise, unary,
reflected and in-place, with pygpu arrays, NumPy arrays, Python and NumPy scalars; out=
aliasing and overlap; __array_ufunc__; the errors."""
import operator

import numpy as np
import pytest

import pygpu
from conftest import assert_array_equal

BINARY = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
          operator.pow, operator.lt, operator.le, operator.eq, operator.ne, operator.gt, operator.ge]
BITWISE = [operator.and_, operator.or_, operator.xor, operator.lshift, operator.rshift]
INPLACE = {operator.add: operator.iadd, operator.sub: operator.isub, operator.mul: operator.imul,
           operator.truediv: operator.itruediv, operator.floordiv: operator.ifloordiv, operator.mod: operator.imod,
           operator.pow: operator.ipow, operator.and_: operator.iand, operator.or_: operator.ior,
           operator.xor: operator.ixor, operator.lshift: operator.ilshift, operator.rshift: operator.irshift}


def values(dt, shape=(2, 3)):
    dt = np.dtype(dt)
    if dt.kind == "b":
        return (np.arange(np.prod(shape)) % 2 == 0).reshape(shape)
    v = (np.arange(np.prod(shape)) % 5 + 1).reshape(shape)
    if dt.kind == "c":
        return (v + 0.5j * v).astype(dt)
    return v.astype(dt)


def both(op, a, b):
    """op on NumPy operands and on the pygpu equivalents; exceptions must match in type."""
    try:
        with np.errstate(all="ignore"):
            expected = op(a, b)
        exp_exc = None
    except Exception as e:  # noqa: BLE001
        exp_exc = e
    conv = lambda x: pygpu.asarray(x) if isinstance(x, np.ndarray) else x  # noqa: E731
    if exp_exc is not None:
        with pytest.raises(type(exp_exc)):
            op(conv(a), conv(b))
        return
    got = op(conv(a), conv(b))
    assert isinstance(got, pygpu.ndarray)
    assert_array_equal(got, expected)


@pytest.mark.parametrize("op", BINARY + BITWISE, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dt", ["?", "i1", "u1", "i4", "u8", "f2", "f4", "f8", "c8"])
def test_binary_array_array_and_scalars(device, op, dt):
    if op in BITWISE and np.dtype(dt).kind in "fc":
        a = pygpu.asarray(values(dt), device=device)
        with pytest.raises(TypeError):
            op(a, a)
        return
    a = values(dt)
    b = values(dt)[::-1].copy()
    pa, pb = pygpu.asarray(a, device=device), pygpu.asarray(b, device=device)
    with np.errstate(all="ignore"):
        for x, y, px, py in [(a, b, pa, pb), (a, 2, pa, 2), (3, a, 3, pa), (a, np.float32(2), pa, np.float32(2)),
                             (a, True, pa, True), (a, 2.5, pa, 2.5), (1.5, a, 1.5, pa), (a, b[0], pa, b[0])]:
            if dt == "?" and op is operator.pow and isinstance(y, int):
                continue  # NumPy's legacy power resolver gives int8 for bool ** int; pygpu follows NEP 50 (int64)
            try:
                expected = op(x, y)
            except Exception as e:  # noqa: BLE001
                with pytest.raises(type(e)):
                    op(px, py)
                continue
            got = op(px, py)
            assert isinstance(got, pygpu.ndarray)
            if np.asarray(expected).dtype.kind in "fc" and op in (operator.truediv, operator.pow):
                assert got.dtype == expected.dtype
                np.testing.assert_allclose(got.get(), expected, rtol=1e-3 if "2" in dt else 1e-6)
            else:
                assert_array_equal(got, expected)


@pytest.mark.parametrize("dt", ["i1", "u2", "i8", "f4", "f8", "c16", "?"])
def test_unary(device, dt):
    a = values(dt) * (1 if np.dtype(dt).kind in "b" else 1)
    if np.dtype(dt).kind in "if":
        a = a - 3
    pa = pygpu.asarray(a, device=device)
    for op in [operator.neg, operator.pos, abs, operator.invert]:
        try:
            expected = op(a)
        except TypeError:
            with pytest.raises(TypeError):
                op(pa)
            continue
        assert_array_equal(op(pa), expected)


@pytest.mark.parametrize("op", list(INPLACE), ids=lambda f: f.__name__)
@pytest.mark.parametrize("dt", ["i2", "u4", "f4", "f8", "c8"])
def test_inplace(device, op, dt):
    iop = INPLACE[op]
    for other in [values(dt)[::-1].copy(), 2, 1.5, np.float64(2.0), values("f8"), values("i8")[0]]:
        a = values(dt)
        pa = pygpu.asarray(a, device=device)
        ident = id(pa)
        po = pygpu.asarray(other, device=device) if isinstance(other, np.ndarray) else other
        try:
            with np.errstate(all="ignore"):
                expected = iop(a, other)
        except Exception as e:  # noqa: BLE001
            with pytest.raises(type(e)) as info:
                iop(pa, po)
            assert str(info.value) == str(e)
            continue
        res = iop(pa, po)
        assert id(res) == ident and res.dtype == np.dtype(dt)
        if dt in ("f4", "c8") and op in (operator.truediv, operator.pow):
            np.testing.assert_allclose(res.get(), expected, rtol=1e-6)
        elif op is operator.pow and dt in ("f8", "c16") and device.kind == "cuda":
            # CUDA's pow is within 2 ulp (glibc's is correctly rounded); x ** 1, 2, -1 are exact
            np.testing.assert_allclose(res.get(), expected, rtol=4 * np.finfo(np.float64).eps)
        else:
            assert_array_equal(res, expected)


def test_inplace_casting_error_text(device):
    a = pygpu.asarray(np.arange(3, dtype=np.int32), device=device)
    with pytest.raises(TypeError) as info:
        a += 1.5
    from numpy._core._exceptions import _UFuncOutputCastingError
    assert isinstance(info.value, _UFuncOutputCastingError)  # NumPy's own class
    assert str(info.value) == ("Cannot cast ufunc 'add' output from dtype('float64') to dtype('int32') "
                               "with casting rule 'same_kind'")


def test_numpy_operands_give_pygpu(device):
    a = np.arange(6.0).reshape(2, 3)
    pa = pygpu.asarray(a, device=device)
    for op in [operator.add, operator.mul, operator.lt, operator.sub, operator.truediv]:
        r1 = op(pa, a)
        r2 = op(a, pa)
        assert isinstance(r1, pygpu.ndarray) and isinstance(r2, pygpu.ndarray)
        assert_array_equal(r1, op(a, a))
        assert_array_equal(r2, op(a, a))
    # NumPy scalars on the left
    assert_array_equal(np.float32(2) * pa, np.float32(2) * a)
    assert isinstance(np.float64(2) + pa, pygpu.ndarray)
    # lists
    assert_array_equal(pa + [1, 2, 3], a + [1, 2, 3])


def test_array_ufunc(device):
    a = np.linspace(0, 3, 7)
    pa = pygpu.asarray(a, device=device)
    r = np.sin(pa)
    assert isinstance(r, pygpu.ndarray)
    np.testing.assert_allclose(r.get(), np.sin(a), rtol=1e-15)
    z = pygpu.empty(7, device=device)
    r = np.add(pa, pa, out=z)
    assert r is z
    assert_array_equal(z, a + a)
    r = np.cos(pa) ** 2 + np.sin(pa) ** 2
    np.testing.assert_allclose(r.get(), np.ones(7), rtol=1e-15)
    assert isinstance(np.maximum(a, pa), pygpu.ndarray)
    # NumPy's ufuncs and their methods run pygpu's on every device; divide.at is NumPy's own on
    # the CPU device's memory, a TypeError on a GPU
    if device.kind == "cpu":
        b = pygpu.asarray(a, device=device)
        np.divide.at(b, [0], 2.0)
        assert_array_equal(b, np.concatenate([a[:1] / 2, a[1:]]))
    else:
        with pytest.raises(TypeError):
            np.divide.at(pa, [0], pa[:1])
    mantissa, exponent = np.frexp(pa)
    assert isinstance(mantissa, pygpu.ndarray) and mantissa.device == pa.device
    assert_array_equal(mantissa, np.frexp(a)[0])
    assert_array_equal(exponent, np.frexp(a)[1])
    table = np.add.outer(pa, pa)
    assert isinstance(table, pygpu.ndarray) and table.device == pa.device
    assert_array_equal(table, np.add.outer(a, a))
    # the reduction methods run on the device (tests/test_reductions.py)
    assert isinstance(np.add.reduce(pa), pygpu.ndarray)


def test_comparisons_with_unsupported_objects(device):
    pa = pygpu.asarray(np.arange(3), device=device)
    # == and != answer elementwise, as NumPy's (not Python's identity fallback)
    assert_array_equal(pa == "abc", np.arange(3) == "abc")
    assert_array_equal(pa != None, np.arange(3) != None)  # noqa: E711
    with pytest.raises(TypeError):
        pa < "abc"
    with pytest.raises(TypeError):
        pa + "abc"
    with pytest.raises(TypeError):
        hash(pa)


class _HasEq:
    def __eq__(self, other):
        return (other == 2) | (other == 4)


class _HasNe:
    def __ne__(self, other):
        return (other == 2) | (other == 4)


class _Plain:
    pass


@pytest.mark.parametrize("value", [_HasEq(), _HasNe(), _Plain()])
def test_comparisons_with_objects_that_define_eq_or_ne(device, value):
    """An object whose class defines __eq__/__ne__ answers for the elements, as NumPy's object
    comparison asks it (pygpu answered all unequal); != of a class with only __eq__ negates it."""
    n = np.arange(1, 7).reshape(2, 3)
    p = pygpu.asarray(n, device=device)
    for op in (operator.eq, operator.ne):
        assert_array_equal(op(p, value), op(n, value))
        if isinstance(value, _HasEq) and op is operator.ne:
            with pytest.raises(ValueError):   # object's __ne__ takes `not` of the array, in NumPy too
                op(value, n)
            with pytest.raises(ValueError):
                op(value, p)
            continue
        assert_array_equal(op(value, p), op(value, n))


def test_out_aliasing_and_overlap(device):
    a = np.arange(10.0)
    pa = pygpu.asarray(a, device=device)
    # identical in/out: fine elementwise
    r = pygpu.add(pa, 1, out=pa)
    assert r is pa
    assert_array_equal(pa, a + 1)
    # overlapping but shifted views: NumPy's answer needs a buffer
    b = np.arange(10.0)
    pb = pygpu.asarray(b, device=device)
    src_np, dst_np = b[:-1], b[1:]
    src = pygpu._core._as_strided(pb, (9,), (8,), 0)
    dst = pygpu._core._as_strided(pb, (9,), (8,), 8)
    np.add(src_np, 1, out=dst_np)
    pygpu.add(src, 1, out=dst)
    assert_array_equal(pb, b)
    # reversed view of itself
    c = np.arange(8, dtype=np.int32)
    pc = pygpu.asarray(c, device=device)
    rev = pygpu._core._as_strided(pc, (8,), (-4,), 28)
    np.multiply(c[::-1], 2, out=c)
    pygpu.multiply(rev, 2, out=pc)
    assert_array_equal(pc, c)
    # broadcast row of the output itself
    d = np.arange(9.0).reshape(3, 3)
    pd = pygpu.asarray(d, device=device)
    row = pygpu._core._as_strided(pd, (3,), (8,), 24)
    np.add(d, d[1], out=d)
    pygpu.add(pd, row, out=pd)
    assert_array_equal(pd, d)


def test_out_and_dtype_arguments(device):
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    pa = pygpu.asarray(a, device=device)
    out = pygpu.empty((2, 3), dtype=np.float32, device=device)
    r = pygpu.add(pa, pa, out=out)
    assert r is out
    assert_array_equal(out, np.add(a, a, out=np.empty((2, 3), np.float32)))
    r = pygpu.add(pa, pa, (out,)[0])
    assert r is out
    assert_array_equal(pygpu.add(pa, 1, dtype=np.float64), np.add(a, 1, dtype=np.float64))
    assert_array_equal(pygpu.multiply(pa, 3, dtype="f4"), np.multiply(a, 3, dtype="f4"))
    assert_array_equal(pygpu.add(pa, 1.5, casting="unsafe", out=pygpu.empty((2, 3), np.int16, device=device)),
                       np.add(a, 1.5, casting="unsafe", out=np.empty((2, 3), np.int16)))
    # out broadcasts the inputs
    o = pygpu.empty((4, 2, 3), dtype=np.int16, device=device)
    assert_array_equal(pygpu.add(pa, 1, out=o), np.add(a, 1, out=np.empty((4, 2, 3), np.int16)))
    # 0-d results are 0-d pygpu arrays
    r = pygpu.add(2, 3)
    assert isinstance(r, pygpu.ndarray) and r.shape == () and r.dtype == np.int64 and r.get() == 5
    r = pygpu.add(np.float32(1), 2.0)
    assert r.dtype == np.float32


def test_errors(device):
    a = pygpu.asarray(np.ones((2, 3)), device=device)
    b = pygpu.asarray(np.ones(4), device=device)
    with pytest.raises(ValueError, match=r"operands could not be broadcast together with shapes \(2,3\) \(4,\) "):
        a + b
    with pytest.raises(ValueError, match=r"operands could not be broadcast together with shapes \(2,3\) \(4,\) "):
        pygpu.add(a, b)
    with pytest.raises(TypeError, match="ufunc 'bitwise_and' not supported for the input types"):
        pygpu.bitwise_and(a, a)
    with pytest.raises(TypeError):
        a & a
    with pytest.raises(ValueError, match="non-broadcastable output operand with shape"):
        pygpu.add(a, a, out=pygpu.empty((3,), device=device))
    with pytest.raises(ValueError, match="non-broadcastable output operand with shape"):
        pygpu.add(a, a, out=pygpu.empty((1, 3), device=device))
    with pytest.raises(TypeError,
                       match=r"Cannot cast ufunc 'add' output from dtype\('float64'\) to dtype\('int32'\) "
                             r"with casting rule 'same_kind'"):
        pygpu.add(a, a, out=pygpu.empty((2, 3), dtype=np.int32, device=device))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' input 0 from dtype\\('float64'\\) to "
                                        "dtype\\('int32'\\) with casting rule 'same_kind'"):
        pygpu.add(a, a, dtype=np.int32)
    with pytest.raises(TypeError):
        pygpu.add(a, a, out=np.empty((2, 3)))
    with pytest.raises(TypeError):
        pygpu.add(a)
    with pytest.raises(TypeError):
        pygpu.add(a, a, bogus=1)
    with pytest.raises(ValueError):
        pygpu.add(a, a, casting="sometimes")
    with pytest.raises(TypeError):
        pygpu.sin(a, dtype="datetime64[s]")
    ro = pygpu._core._as_strided(a, (3,), (8,))
    assert ro.flags["WRITEABLE"]
    with pytest.raises(TypeError):
        pygpu.add(a, object())


def test_different_devices_message():
    devices = [pygpu.Device("cpu")]
    if pygpu.cuda.is_available():
        devices.append(pygpu.Device("cuda:0"))
    if len(devices) < 2:
        pytest.skip("needs a second device (a GPU) to mix devices")
    a = pygpu.ones(3, device=devices[0])
    b = pygpu.ones(3, device=devices[1])
    with pytest.raises(ValueError, match="different devices"):
        a + b


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64", "float16", "float32", "float64", "complex64"])
@pytest.mark.parametrize("exponent", [2, 2.0])
def test_square_fast_path_matches_numpy(device, dtype, exponent):
    """x ** 2 runs as square(x) (as in NumPy) with the dtype and values NumPy gives."""
    x = (np.arange(-6, 6) % 5 - 2).astype(dtype)
    a = pygpu.asarray(x, device=device)
    expected = x ** exponent
    assert_array_equal(a ** exponent, expected)
    b = a.copy()
    if np.can_cast(expected.dtype, b.dtype, "same_kind"):
        b **= exponent
        assert_array_equal(b, expected.astype(dtype))
