"""pygpu.vectorize: the supported subset construct by construct against plain Python evaluation of
the same function, signatures and lazy specialisation, ufunc behaviour (broadcasting, out=,
dtype=, NEP 50 scalars, layouts), targets, and the errors."""
import cmath
import math
import os

import numpy as np
import pytest

import pygpu
from pygpu import vectorize
from conftest import assert_array_equal

HERE = os.path.basename(__file__)
RNG = np.random.default_rng(1234)
SCALE = 2.5
OFFSET = 0.5


def line_of(fn, text):
    """The line number of the first line of fn's source containing text."""
    import inspect
    lines, start = inspect.getsourcelines(fn)
    for i, line in enumerate(lines):
        if text in line:
            return start + i
    raise AssertionError(text)


def python_eval(pyfunc, args, out_dtype):
    """pyfunc applied element by element to Python numbers (plain Python semantics)."""
    b = np.broadcast_arrays(*[np.asarray(a) for a in args])
    flat = [x.ravel() for x in b]
    n = flat[0].size if flat else 1
    res = [pyfunc(*[f[i].item() for f in flat]) for i in range(n)]
    return np.array(res, dtype=np.complex128 if any(isinstance(r, complex) for r in res) else None) \
        .astype(out_dtype).reshape(b[0].shape)


def check(uf, pyfunc, args, device, rtol=None, atol=0):
    got = uf(*[pygpu.asarray(a, device=device) if isinstance(a, np.ndarray) else a for a in args])
    assert isinstance(got, pygpu.ndarray)
    assert got.device == device
    got = got.get()
    expected = python_eval(pyfunc, args, got.dtype)
    if rtol is None:  # single precision anywhere (Numba's rules keep float32 math in float32)
        single = got.dtype in (np.float32, np.complex64) or any(
            np.asarray(a).dtype in (np.float32, np.complex64) for a in args)
        rtol = 1e-5 if single else 1e-12
    if got.dtype.kind in "fc":
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected)
    return got


# ------------------------------------------------------------------ the subset, construct by construct

def arith(x, y):
    return x + y * 2 - x / (y + 3) + (x - y) ** 2


def int_arith(a, b):
    return a * 3 + b // 2 - a % 5 + (a << 2) - (b >> 1) + (a & b) - (a | 1) + (a ^ b)


def floor_mod(x, y):
    return x // y + x % y


def compare_logic(x, y):
    return (x < y and y <= 3) or not (x > 2) or x == y or x != 1.5


def chained(x):
    return 1 if 0 < x < 2 else 0


def conditional_expr(x):
    return x * 2 if x > 0.5 else -x


def if_elif(x):
    if x < 0.25:
        r = 1
    elif x < 0.5:
        r = 2.5
    elif x < 0.75:
        return -1.0
    else:
        r = x
    return r * 3


def reassign(x):
    y = 0
    y = y + 1
    y = y * x
    return y


def for_range(n):
    s = 0
    for i in range(n):
        s += i * i
    return s


def for_range_step(a, b):
    s = 0
    for i in range(a, b, -2):
        s = s * 3 + i
    return s


def for_runtime_step(a, b, c):
    s = 0
    for i in range(a, b, c):
        s += i
    return s


def while_break_continue(n):
    i = 0
    total = 0
    while True:
        i += 1
        if i > n:
            break
        if i % 3 == 0:
            continue
        total += i
    return total


def loop_else(n):
    for i in range(n):
        if i == 7:
            break
    else:
        return -1
    return i


def while_else(n):
    k = n
    while k > 0:
        k -= 2
        if k == 3:
            break
    else:
        return 100 + k
    return k


def nested_loops(n):
    c = 0
    for i in range(n):
        for j in range(i):
            if j == 3:
                break
            c += i - j
    return c


def return_in_loop(x, m):
    z = 0.0
    for i in range(m):
        z = z * z + x
        if z > 10:
            return i
    return -1


def collatz(n):
    steps = 0
    while n != 1 and n > 0:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def math_funcs(x):
    return (math.sin(x) + math.cos(x) * math.tan(x / 4) + math.exp(x / 3) + math.log(x + 1) + math.sqrt(x)
            + math.atan2(x, 2.0) + math.hypot(x, 3) + math.log10(x + 1) + math.log2(x + 1) + math.log1p(x)
            + math.expm1(x / 5) + math.fabs(-x) + math.floor(x * 3) + math.ceil(x) + math.trunc(-x * 2)
            + math.pow(x, 1.5) + math.copysign(2, -x) + math.fmod(x * 7, 3) + math.degrees(x)
            + math.radians(x) + math.asinh(x) + math.log(x + 2, 3) + math.tanh(x) + math.atan(x)
            + math.asin(x / 4) + math.acos(x / 4) + math.sinh(x / 2) + math.cosh(x / 2) + math.acosh(x + 1)
            + math.atanh(x / 4) + math.pi + math.e)


def math_predicates(x):
    return math.isnan(x) + 2 * math.isinf(x) + 4 * math.isfinite(x)


def complex_funcs(x, y):
    z = complex(x, y)
    w = cmath.exp(z) + cmath.sqrt(z) * cmath.log(z + 1) - cmath.sin(z) / (cmath.cos(z) + 2)
    w = w + cmath.tanh(z) + z.conjugate() * 1j + abs(z)
    return w.real + w.imag * 0.5 + cmath.phase(z) + z.real * z.imag


def complex_value(x, y):
    z = complex(x, y)
    return z * z - 2j * z + cmath.rect(x, y)


def builtins_funcs(x, y):
    return abs(x - y) + min(x, y) + max(x, y, 0.5) + round(x * 10) + int(x * 7) + float(y) + pow(x, 2) + bool(y)


def round_digits(x):
    return round(x, 2)


def numpy_funcs(x, y):
    return np.exp(x) + np.where(x > y, x, y) + np.sin(y) * np.hypot(x, y) + np.abs(x - y) + np.sqrt(x) \
        + np.float32(y) + np.maximum(x, y) + np.arctan2(y, x) + np.round(x * 5)


def pygpu_funcs(x):
    return pygpu.exp(x) + pygpu.where(x > 0.5, 1.0, 2.0) + pygpu.sqrt(x)


def globals_and_closure(x):
    return x * SCALE + OFFSET


def make_closure(k):
    def scaled(x):
        return x * k + 1
    return scaled


def helper(a, b):
    if a > b:
        return a - b
    return b - a


def helper_loop(n):
    s = 0
    for i in range(n):
        s += i
    return s


def calls_helpers(x, y):
    return helper(x, y) * 2 + helper(y, 0.5)


def calls_loop_helper(n):
    return helper_loop(n) + helper_loop(n // 2) if n > 2 else helper_loop(n + 1)


def tuple_assign(x, y):
    a, b = x, y
    a, b = b, a + b
    return a * 10 + b


def docstring_and_pass(x):
    """A docstring is fine."""
    pass
    return x + 1


def annotated(x):
    y: float = x * 2
    return y


def bool_ops(x, y):
    return (x and y) + (x or y) * 2


CASES = [
    (arith, ["f8", "f8"], (0, 1)),
    (arith, ["f4", "f4"], (0, 1)),
    (int_arith, ["i8", "i8"], (0, 100)),
    (int_arith, ["i4", "i4"], (0, 100)),
    (floor_mod, ["f8", "f8"], (-3, 3)),
    (floor_mod, ["i8", "i8"], (1, 9)),
    (compare_logic, ["f8", "f8"], (0, 4)),
    (chained, ["f8"], (-1, 3)),
    (conditional_expr, ["f8"], (0, 1)),
    (if_elif, ["f8"], (0, 1)),
    (reassign, ["f8"], (0, 1)),
    (for_range, ["i8"], (0, 30)),
    (for_range, ["i4"], (0, 30)),
    (for_range_step, ["i8", "i8"], (-10, 10)),
    (for_runtime_step, ["i8", "i8", "i8"], (-4, 5)),
    (while_break_continue, ["i8"], (0, 40)),
    (loop_else, ["i8"], (0, 12)),
    (while_else, ["i8"], (0, 12)),
    (nested_loops, ["i8"], (0, 12)),
    (return_in_loop, ["f8", "i8"], (0, 3)),
    (collatz, ["i8"], (1, 60)),
    (math_funcs, ["f8"], (0.1, 1)),
    (math_funcs, ["f4"], (0.1, 1)),
    (math_predicates, ["f8"], (0, 1)),
    (complex_funcs, ["f8", "f8"], (0.1, 1)),
    (complex_value, ["f8", "f8"], (0.1, 1)),
    (builtins_funcs, ["f8", "f8"], (0, 1)),
    (round_digits, ["f8"], (0, 1)),
    (numpy_funcs, ["f8", "f8"], (0.1, 1)),
    (pygpu_funcs, ["f8"], (0, 1)),
    (globals_and_closure, ["f8"], (0, 1)),
    (make_closure(3.5), ["f8"], (0, 1)),
    (calls_helpers, ["f8", "f8"], (0, 1)),
    (calls_loop_helper, ["i8"], (0, 20)),
    (tuple_assign, ["f8", "f8"], (0, 1)),
    (docstring_and_pass, ["i8"], (0, 10)),
    (annotated, ["f8"], (0, 1)),
    (bool_ops, ["f8", "f8"], (0, 2)),
]


_SPECIAL = [0.0, -0.0, 1.5, -2.0, math.inf, -math.inf, math.nan]
RECT_R, RECT_PHI = (np.array(v) for v in zip(*[(r, p) for r in _SPECIAL for p in _SPECIAL + [0.7, -2.5]]))


def rect_expected(r, phi):
    """Python's cmath.rect at every special value; where it raises ValueError (a nonzero r, an
    infinite phi) a kernel gives the value of CPython's table: inf+nanj for an infinite r, else
    nan+nanj (as cos(inf) is nan)."""
    out = []
    for a, b in zip(r, phi):
        try:
            out.append(cmath.rect(a, b))
        except ValueError:
            out.append(complex(math.inf if math.isinf(a) else math.nan, math.nan))
    return np.array(out)


def assert_same_complex(got, want):
    """Parts equal to an ulp of sin/cos, nan and inf where they are, zeros of the same sign."""
    for part in (np.real, np.imag):
        g, w = part(np.asarray(got)), part(want)
        np.testing.assert_allclose(g, w, rtol=1e-15, atol=0, equal_nan=True)
        assert (np.signbit(g) == np.signbit(w))[w == 0].all(), (got, want)


def test_cmath_rect_special_values(device):
    uf = vectorize(["complex128(float64, float64)"])(lambda r, phi: cmath.rect(r, phi))
    got = uf(pygpu.asarray(RECT_R, device=device), pygpu.asarray(RECT_PHI, device=device))
    assert_same_complex(got.get(), rect_expected(RECT_R, RECT_PHI))


def sample(dt, lo, hi, n=37):
    dt = np.dtype(dt)
    if dt.kind in "iu":
        return RNG.integers(lo, hi, n).astype(dt)
    v = RNG.uniform(lo, hi, n)
    if dt == np.float64 and hi - lo <= 4:
        v[:3] = [lo, (lo + hi) / 2, hi]  # include exact values (ties, boundaries)
    return v.astype(dt)


@pytest.mark.parametrize("pyfunc, types, rng", CASES, ids=[f"{c[0].__name__}-{','.join(c[1])}" for c in CASES])
def test_construct_against_python(device, pyfunc, types, rng):
    uf = vectorize(pyfunc)
    args = [sample(t, *rng) for t in types]
    if pyfunc is for_runtime_step:
        args[2][args[2] == 0] = 1
    check(uf, pyfunc, args, device)


@pytest.mark.parametrize("pyfunc, types, rng", CASES[:12], ids=[c[0].__name__ for c in CASES[:12]])
def test_construct_with_signature(device, pyfunc, types, rng):
    out = "f8" if np.dtype(types[0]).kind == "f" else "i8"
    uf = vectorize([f"{out}({', '.join(types)})"])(pyfunc)
    assert uf.types == ["".join(np.dtype(t).char for t in types) + "->" + np.dtype(out).char]
    args = [sample(t, *rng) for t in types]
    check(uf, pyfunc, args, device)


def test_seed_cos2_sin2_runs_unchanged():
    """The seeds' example, as written for Numba's CUDA target."""
    from pygpu import vectorize

    @vectorize(['float32(float32)'], target='cuda')
    def f(x):
        return math.cos(x) ** 2 + math.sin(x) ** 2

    x = np.linspace(0, 100, 1000, dtype=np.float32)
    r = f(x)
    assert r.dtype == np.float32 and r.shape == (1000,)
    np.testing.assert_allclose(np.asarray(r), 1.0, rtol=1e-6)
    assert f.__name__ == "f" and f.nin == 1 and f.nout == 1 and f.types == ["f->f"]


def mandel(x, y, max_iters):
    c = complex(x, y)
    z = 0.0j
    for i in range(max_iters):
        z = z * z + c
        if (z.real * z.real + z.imag * z.imag) >= 4:
            return i
    return max_iters


def test_mandelbrot(device):
    uf = vectorize(['int32(float64, float64, int32)'])(mandel)
    x = np.linspace(-2, 1, 96)[None, :]
    y = np.linspace(-1.2, 1.2, 64)[:, None]
    got = uf(pygpu.asarray(x, device=device), pygpu.asarray(y, device=device), 60)
    assert got.shape == (64, 96) and got.dtype == np.int32
    expected = python_eval(mandel, [x, y, np.int32(60)], np.int32)
    assert_array_equal(got, expected)


# ------------------------------------------------------------------ lambdas, tracing, callees

def test_lambdas(device):
    f = vectorize(lambda x: x * 2 + 1)
    g, h = vectorize(['f8(f8)'])(lambda x: -x), vectorize(['f8(f8)'])(lambda y: y * y)
    x = pygpu.asarray(np.arange(5.0), device=device)
    assert_array_equal(f(x), np.arange(5.0) * 2 + 1)
    assert_array_equal(g(x), -np.arange(5.0))
    assert_array_equal(h(x), np.arange(5.0) ** 2)
    two = [vectorize(lambda x: x + 1), vectorize(lambda x: x + 2)]  # two lambdas on one line
    assert_array_equal(two[1](x), np.arange(5.0) + 2)


def test_function_without_source_is_rebuilt_from_bytecode(device):
    ns = {"np": np, "math": math}
    exec("def f(x, y):\n    return np.sin(x) * y + 2 * x - abs(y)\n", ns)
    exec("def g(x):\n    t = 0.0\n    for k in range(3):\n        t += math.sin(x) if x > k else -x\n    return t\n", ns)
    uf = vectorize(["f8(f8, f8)"])(ns["f"])
    a, b = np.linspace(0, 1, 7), np.linspace(-1, 1, 7)
    got = uf(pygpu.asarray(a, device=device), pygpu.asarray(b, device=device))
    np.testing.assert_allclose(got.get(), np.sin(a) * b + 2 * a - abs(b))
    got = vectorize(["f8(f8)"])(ns["g"])(pygpu.asarray(b * 3, device=device))
    np.testing.assert_allclose(got.get(), [ns["g"](v) for v in b * 3])


def test_function_the_decompiler_refuses_is_traced(device):
    ns = {"np": np}
    exec("def f(x, y):\n    return sum([x * k for k in (1, 2, 3)]) + y\n", ns)   # a comprehension
    uf = vectorize(["f8(f8, f8)"])(ns["f"])
    a, b = np.linspace(0, 1, 7), np.linspace(-1, 1, 7)
    got = uf(pygpu.asarray(a, device=device), pygpu.asarray(b, device=device))
    np.testing.assert_allclose(got.get(), 6 * a + b)


def test_traced_function_cannot_branch():
    ns = {}
    exec("def f(x):\n    return sum([x if x > 0 else -x for k in (1,)])\n", ns)
    with pytest.raises(pygpu.CompileError, match="has no Python source, so it is traced"):
        vectorize(["f8(f8)"])(ns["f"])
    exec("import math\ndef g(x):\n    return sum([math.sin(x) for k in (1,)])\n", ns)
    with pytest.raises(pygpu.CompileError, match="float\\(\\) of a traced value"):
        vectorize(["f8(f8)"])(ns["g"])


def test_calling_another_vectorize_function(device):
    inner = vectorize(lambda x: x * 3)

    def outer(x):
        return inner(x) + 1

    uf = vectorize(outer)
    assert_array_equal(uf(pygpu.asarray(np.arange(4), device=device)), np.arange(4) * 3 + 1)


def test_numba_style_dispatcher_callee(device):
    class Dispatcher:  # what numba.njit returns: the Python function as .py_func
        def __init__(self, f):
            self.py_func = f

        def __call__(self, *a):
            return self.py_func(*a)

    d = Dispatcher(helper)

    def f(x):
        return d(x, 0.5)

    uf = vectorize(f)
    x = np.linspace(0, 1, 9)
    check(uf, f, [x], device)


def recursive(n):
    return recursive(n - 1) if n > 0 else 0


def test_recursion_is_an_error():
    with pytest.raises(pygpu.CompileError, match=r"recursive calls \(recursive\) are not supported"):
        vectorize(["i8(i8)"])(recursive)


# ------------------------------------------------------------------ typing

def typing_f32(x):
    return math.cos(x) ** 2 + x * 2


def test_numba_typing_rules():
    from pygpu._compiler import compile_function, ir
    f4, f8, i4, i8 = (np.dtype(t) for t in ("f4", "f8", "i4", "i8"))
    fn = compile_function(typing_f32, [f4])
    # float32 math stays float32, the float64 literal 2 (an int literal: int64) widens x * 2? no:
    # float32 * int64 is float64 under Numba's rules
    assert fn.return_type == f8
    assert "square(cos(x))" in ir.dump(fn)
    assert compile_function(lambda a, b: a + b, [i4, i4]).return_type == i8
    assert compile_function(lambda a, b: a / b, [i4, i4]).return_type == f8
    assert compile_function(lambda a: a ** 2, [f4]).return_type == f4
    assert compile_function(lambda a, b: a * b, [f4, np.dtype("i2")]).return_type == f4
    assert compile_function(lambda a, b: a * b, [f4, i4]).return_type == f8
    assert compile_function(lambda a: abs(complex(a, 1.0)), [f8]).return_type == f8
    assert compile_function(lambda a: np.sin(a), [i4]).return_type == f8
    assert compile_function(lambda a: np.add(a, 1), [i4]).return_type == i4    # NumPy's rules, weak literal
    assert compile_function(lambda a: math.floor(a), [f8]).return_type == i8


def unified(x):
    r = 0
    if x > 0.5:
        r = x
    return r


def test_local_unification(device):
    from pygpu._compiler import compile_function
    fn = compile_function(unified, [np.dtype("f4")])
    assert fn.return_type == np.float64  # int64 and float32 unify to float64
    check(vectorize(unified), unified, [np.linspace(0, 1, 11)], device)


# ------------------------------------------------------------------ signatures, lazy compilation

def add2(a, b):
    return a + b


@pytest.mark.parametrize("sig, types", [
    ("float32(float32, float32)", ["ff->f"]),
    ("f4(f4, f4)", ["ff->f"]),
    ("(f8, i4) -> f8", ["di->d"]),
    ("int32(int32, int32)", ["ii->i"]),
    ("complex128(complex128, float64)", ["Dd->D"]),
    (["int64(int64, int64)", "float64(float64, float64)"], ["ll->l", "dd->d"]),
    ([(np.float32, np.float32)], ["ff->f"]),
])
def test_signature_forms(sig, types):
    uf = vectorize(sig)(add2)
    assert uf.types == types and uf.ntypes == len(types) and uf.nin == 2 and uf.nout == 1 and uf.nargs == 3


def test_signature_objects():
    """Numba's usual form, signature objects of pygpu.cuda.types (or Numba's): in a list or alone
    (float64 too: a dtype('float64') compares equal to None)."""
    from pygpu.cuda.types import float32, float64, int32
    uf = vectorize([int32(int32, int32), float32(float32, float32), float64(float64, float64)],
                   target="cuda")(add2)
    assert uf.types == ["ii->i", "ff->f", "dd->d"]
    assert_array_equal(uf(np.ones(3), np.ones(3)), np.full(3, 2.0))
    assert vectorize(float64(float64, float64))(add2).types == ["dd->d"]


def test_numba_signature_objects():
    nb = pytest.importorskip("numba")
    uf = vectorize([nb.int32(nb.int32, nb.int32), nb.float64(nb.float64, nb.float64)])(add2)
    assert uf.types == ["ii->i", "dd->d"]
    assert vectorize(nb.float64(nb.float64, nb.float64))(add2).types == ["dd->d"]


def test_signature_errors():
    with pytest.raises(TypeError, match="unknown type 'float33'"):
        vectorize("float33(float32)")(lambda x: x)
    with pytest.raises(TypeError, match="has 2 arguments, but <lambda>\\(\\) takes 1"):
        vectorize("f4(f4, f4)")(lambda x: x)
    with pytest.raises(ValueError, match="target must be one of"):
        vectorize("f4(f4)", target="tpu")(lambda x: x)
    with pytest.raises(TypeError, match="positional arguments only"):
        vectorize(lambda *a: 0)
    with pytest.raises(TypeError, match="take 1 to 15 arguments, not 16"):
        vectorize(eval("lambda " + ", ".join(f"a{i}" for i in range(16)) + ": 0"))


def test_signature_loop_is_searched_like_numpy(device):
    uf = vectorize(["int64(int64, int64)", "float64(float64, float64)"])(add2)
    a = pygpu.asarray(np.arange(4, dtype=np.int32), device=device)
    assert uf(a, a).dtype == np.int64                      # int32 casts safely to int64
    assert uf(a, 1.5).dtype == np.float64                  # a weak float: the float64 loop
    assert uf(a.astype(np.float32), a).dtype == np.float64
    with pytest.raises(TypeError, match="not supported for the input types"):
        uf(a.astype(np.complex64), a)


def test_lazy_compiles_per_dtype_and_caches(device):
    uf = vectorize(add2)
    assert uf.types == []
    a = pygpu.asarray(np.arange(4, dtype=np.int32), device=device)
    assert_array_equal(uf(a, a), np.arange(4, dtype=np.int64) * 2)
    assert uf.types == ["ii->l"]
    uf(a, a)
    assert uf.types == ["ii->l"]
    r = uf(a.astype(np.float32), a.astype(np.float32))
    assert r.dtype == np.float32 and uf.types == ["ii->l", "ff->f"]
    # a Python scalar takes its own default dtype (int64, float64) for a new compilation
    r = uf(a.astype(np.float64), 2)
    assert uf.types[-1] == "dl->d" and r.dtype == np.float64
    assert vectorize()(add2).types == []


def test_lazy_numpy_form_otypes(device):
    uf = vectorize(lambda x: x * 2, otypes=[np.float32])
    r = uf(pygpu.asarray(np.arange(3.0), device=device))
    assert r.dtype == np.float32 and uf.types == ["d->f"]


def test_ufunc_attributes():
    uf = vectorize(["f8(f8)"])(docstring_and_pass)
    assert uf.__name__ == "docstring_and_pass" and uf.__doc__ == "A docstring is fine."
    assert uf.__wrapped__ is docstring_and_pass and isinstance(uf, pygpu.ufunc)
    assert repr(uf) == "<ufunc 'docstring_and_pass'>" and uf.target is None
    prog = uf._programs[0][1]
    assert prog.info["inputs"] == 1 and prog.info["instructions"] >= 1


# ------------------------------------------------------------------ ufunc behaviour

def test_broadcasting_out_dtype_casting(device):
    uf = vectorize(["f8(f8, f8)"])(add2)
    a = pygpu.asarray(np.arange(6.0).reshape(2, 3), device=device)
    b = pygpu.asarray(np.arange(3.0), device=device)
    assert_array_equal(uf(a, b), np.arange(6.0).reshape(2, 3) + np.arange(3.0))
    out = pygpu.zeros((2, 3), device=device)
    r = uf(a, b, out=out)
    assert r is out
    assert_array_equal(out, np.arange(6.0).reshape(2, 3) + np.arange(3.0))
    r = uf(a, b, out=(out,))
    assert r is out
    out32 = pygpu.zeros((2, 3), dtype=np.float32, device=device)
    uf(a, b, out=out32, casting="unsafe")
    assert_array_equal(out32, (np.arange(6.0).reshape(2, 3) + np.arange(3.0)).astype(np.float32))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add2' output"):
        uf(a, b, out=pygpu.zeros((2, 3), dtype=np.int32, device=device))
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        uf(a, pygpu.ones(4, device=device))
    r = uf(a, b, dtype=np.float64)
    assert r.dtype == np.float64


def test_numpy_output_array(device):
    """Numba's out= may be a NumPy array: it gets the result (cast, broadcast, where= kept as a
    ufunc's) and is returned."""
    uf = vectorize(["f8(f8, f8)"], target="cuda")(add2)
    a = pygpu.asarray(np.arange(6.0).reshape(2, 3), device=device)
    b = np.arange(3.0)
    want = np.arange(6.0).reshape(2, 3) + b
    out = np.zeros((2, 3))
    assert uf(a, b, out=out) is out
    assert_array_equal(out, want)
    out = np.zeros((2, 3))
    assert uf(a, b, out) is out and (out == want).all()
    out32 = np.zeros((2, 3), np.float32)
    uf(a, b, out=(out32,), casting="unsafe")
    assert_array_equal(out32, want.astype(np.float32))
    kept = np.full((2, 3), -1.0)
    uf(a, b, out=kept, where=np.array([True, False, True]))
    assert_array_equal(kept, np.where([True, False, True], want, -1.0))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add2' output"):
        uf(a, b, out=np.zeros((2, 3), np.int32))
    with pytest.raises(TypeError, match="return arrays must be of type"):
        uf(a, b, out=[0.0] * 3)


def test_stream_keyword(device):
    """Numba's async form: f(a, b, stream=s) and f.reduce(a, stream=s) queue on s."""
    uf = vectorize(["f8(f8, f8)"])(add2)
    a = pygpu.asarray(np.arange(5.0), device=device)
    s = pygpu.Stream(device=device)
    r = uf(a, a, stream=s)
    s.synchronize()
    assert_array_equal(r, 2 * np.arange(5.0))
    assert uf.reduce(a, stream=s) == 10.0
    out = np.zeros(5)
    assert uf(a, a, out=out, stream=0) is out and (out == 2 * np.arange(5.0)).all()
    with pytest.raises(TypeError, match="stream must be 0 or a pygpu.Stream"):
        uf(a, a, stream="default")
    with pytest.raises(TypeError, match="stream must be 0 or a pygpu.Stream"):
        uf.reduce(a, stream="default")


def test_out_aliases_input(device):
    uf = vectorize(["f8(f8, f8)"])(arith)
    x = np.linspace(0, 1, 20)
    a = pygpu.asarray(x, device=device)
    uf(a, a, out=a)
    np.testing.assert_allclose(a.get(), python_eval(arith, [x, x], np.float64))
    b = pygpu.asarray(x, device=device)
    uf(b[::-1], b, out=b)  # overlapping in reverse: buffered like NumPy
    np.testing.assert_allclose(b.get(), python_eval(arith, [x[::-1], x], np.float64))


@pytest.mark.parametrize("layout", ["transposed", "negative", "broadcast", "zero-d", "empty", "strided", "mixed"])
def test_layouts(device, layout):
    uf = vectorize(["f8(f8, i8)"])(lambda x, n: x * n + 1 if n > 2 else x - n)
    base = np.arange(24.0).reshape(4, 6)
    ints = np.arange(24).reshape(4, 6) % 5
    if layout == "transposed":
        a, b = base.T, ints.T
    elif layout == "negative":
        a, b = base[::-1, ::-2], ints[::-1, ::-2]
    elif layout == "broadcast":
        a, b = base[:, :1], ints[0]
    elif layout == "zero-d":
        a, b = np.array(2.5), np.array(3)
    elif layout == "empty":
        a, b = base[:0], ints[:0]
    elif layout == "strided":
        a, b = base[::2, 1::2], ints[1::2, ::2]
    else:
        a, b = base.astype(np.float32), ints.astype(np.int16)  # converted as loaded
    pa = pygpu.asarray(a, device=device)
    if layout in ("transposed", "negative", "strided"):
        pa = pygpu.asarray(base, device=device).T if layout == "transposed" else \
            pygpu.asarray(base, device=device)[::-1, ::-2] if layout == "negative" else \
            pygpu.asarray(base, device=device)[::2, 1::2]
    got = uf(pa, pygpu.asarray(b, device=device))
    expected = python_eval(lambda x, n: x * n + 1 if n > 2 else x - n, [a, b], np.float64)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got.get(), expected)


def test_many_dimensions_split_into_launches(device):
    """More non-mergeable dimensions than one VM launch holds (16) still run."""
    uf = vectorize(["f8(f8)"])(lambda x: x * 2)
    shape = (2,) * 20
    full = np.arange(2 ** 21, dtype=np.float64).reshape((2,) * 20 + (2,))
    a = full[..., 0]  # every axis strided: nothing merges
    got = uf(pygpu.asarray(full, device=device)[..., 0])
    assert got.shape == shape
    assert_array_equal(got, a * 2)


def test_nep50_scalars_and_numpy_inputs(device):
    uf = vectorize(["f4(f4, f4)", "f8(f8, f8)"])(add2)
    a = pygpu.asarray(np.arange(3, dtype=np.float32), device=device)
    assert uf(a, 1.5).dtype == np.float32           # a weak Python float keeps float32
    assert uf(a, np.float64(1.5)).dtype == np.float64
    r = uf(np.arange(3.0), 1)                          # a NumPy array moves to the device
    assert isinstance(r, pygpu.ndarray) and r.dtype == np.float64
    r = uf(1.0, 2.0)
    assert r.shape == () and float(r) == 3.0


def test_many_arguments(device):
    def f(a, b, c, d, e, g, h, i, j, k):
        return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * g + 7 * h + 8 * i + 9 * j + 10 * k

    uf = vectorize(f)
    args = [np.arange(5.0) + i for i in range(10)]
    check(uf, f, args, device)


def test_targets():
    cpu = vectorize(["f8(f8)"], target="cpu")(lambda x: x + 1)
    assert cpu.target == pygpu.Device("cpu")
    par = vectorize(["f8(f8)"], target="parallel")(lambda x: x + 1)
    assert par.target == pygpu.Device("cpu")
    cuda = vectorize(["f8(f8)"], target="cuda")(lambda x: x + 1)
    assert cuda.target == (pygpu.Device("cuda:0") if pygpu.cuda.is_available() else pygpu.Device("cpu"))
    r = cpu(np.arange(3.0))
    assert r.device == pygpu.Device("cpu")


def test_target_device_mismatch_raises(cuda_device):
    cpu = vectorize(["f8(f8)"], target="cpu")(lambda x: x + 1)
    with pytest.raises(ValueError, match=r"runs on cpu \(its target\), but an operand is on cuda:0; move it with \.to_device\(\) first"):
        cpu(pygpu.ones(3, device=cuda_device))


def test_array_ufunc_override_protocol():
    """An operand of an unknown type with __array_ufunc__ gets the call (NumPy's protocol)."""
    class Other:
        def __array_ufunc__(self, uf, method, *inputs, **kwargs):
            return ("handled", uf.__name__, method, len(inputs), sorted(kwargs))

    assert pygpu.sin(Other()) == ("handled", "sin", "__call__", 1, [])
    uf = vectorize(["f8(f8, f8)"])(add2)
    assert uf(1.0, Other(), dtype=np.float64)[:2] == ("handled", "add2")

    class Refuses:
        __array_ufunc__ = None

    with pytest.raises(TypeError, match="does not support ufuncs"):
        pygpu.sin(Refuses())

    class NotImpl:
        def __array_ufunc__(self, *a, **k):
            return NotImplemented

    with pytest.raises(TypeError, match="returned NotImplemented"):
        pygpu.add(1, NotImpl())


# ------------------------------------------------------------------ errors

def uses_dict(x):
    d = {"a": x}
    return d


def uses_list(x):
    return [x][0]


def uses_print(x):
    print(x)
    return x


def uses_string(x):
    return "no"


def uses_attribute_store(x):
    x.y = 1
    return x


def uses_try(x):
    try:
        return x
    except Exception:
        return 0


def uses_undefined(x):
    return x + not_defined_anywhere  # noqa: F821


def uses_for_list(x):
    for v in [1, 2]:
        x += v
    return x


def uses_math_erf(x):
    return math.erf(x)


def no_return_sometimes(x):
    if x > 0:
        return x


def uses_complex_less(x):
    return complex(x, 1) < 2


def uses_indexing(x):
    return x[0]


def uses_with(x):
    with open("f"):
        return x


def uses_unbound(x):
    if x > 0:
        y = 1
    return y + z  # noqa: F821


@pytest.mark.parametrize("fn, text, message", [
    (uses_dict, '{"a": x}', "dict displays are not supported in vectorize"),
    (uses_list, "[x][0]", "index expressions are not supported in vectorize"),
    (uses_print, "    print(x)", "calls whose value is dropped (print(...)) are not supported in vectorize"),
    (uses_string, '"no"', "strings are not supported in vectorize"),
    (uses_attribute_store, "x.y = 1", "assignments to items and attributes are not supported in vectorize"),
    (uses_try, "try:", "try statements are not supported in vectorize"),
    (uses_undefined, "not_defined_anywhere", "name 'not_defined_anywhere' is not defined"),
    (uses_for_list, "for v in", "for loops over anything but range(...) are not supported in vectorize"),
    (uses_math_erf, "math.erf", "math.erf() is not supported in vectorize"),
    (no_return_sometimes, "def no_return_sometimes", "no_return_sometimes() can end without returning a value (every path must return a number in vectorize)"),
    (uses_complex_less, "< 2", "'<' is not supported between complex numbers in vectorize"),
    (uses_with, "with open", "with statements are not supported in vectorize"),
])
def test_compile_errors_name_construct_file_and_line(fn, text, message):
    with pytest.raises(pygpu.CompileError) as e:
        vectorize(["f8(f8)"])(fn)
    line = line_of(fn, text)
    assert str(e.value) == f"{message} ({HERE}, line {line})", str(e.value)
    assert e.value.filename == __file__ and e.value.lineno == line


def test_errors_at_decoration_time_with_signatures_and_at_call_when_lazy():
    with pytest.raises(pygpu.CompileError):
        vectorize("f8(f8)")(uses_dict)
    lazy = vectorize(uses_dict)  # nothing compiled yet
    with pytest.raises(pygpu.CompileError, match="dict displays"):
        lazy(np.ones(2))


def test_lambda_error_names_its_line():
    with pytest.raises(pygpu.CompileError) as e:
        vectorize(["f8(f8)"])(lambda x: {x: 1})
    assert str(e.value).endswith(f"({HERE}, line {e.value.lineno})")
    assert e.value.lineno == test_lambda_error_names_its_line.__code__.co_firstlineno + 2


def test_local_used_before_assignment():
    with pytest.raises(pygpu.CompileError, match="local variable 'y' may be used before it is assigned"):
        vectorize(["f8(f8)"])(uses_unbound)
    with pytest.raises(pygpu.CompileError, match="name 'z' is not defined"):
        vectorize(["f8(f8)"])(lambda x: x + z)  # noqa: F821


def _branch_only(x):
    if x > 0:
        y = 1.5
    return y


def _loop_only(x, n):
    for i in range(n):
        y = x * i
    return y


def _while_cond(x):
    while x > 0:
        y = x
        x -= 1.0
    return y


def _both_branches(x):
    if x > 0:
        y = 1.5
    elif x < -1:
        y = 2.5
    else:
        return 0.0
    return y


def _forever_then_break(x):
    while True:
        y = x * 2.0
        if y > 0 or y <= 0:
            break
    return y


def _reassigned_before_loop(x, n):
    y = 0.0
    for i in range(n):
        y = y + x
    return y


@pytest.mark.parametrize("fn, sig", [(_branch_only, "f8(f8)"), (_loop_only, "f8(f8, i8)"), (_while_cond, "f8(f8)")])
def test_a_local_unassigned_on_some_path_is_refused(fn, sig):
    """Python raises UnboundLocalError on the path that skips the assignment; compiled code read
    whatever the register held (garbage, or the last launch's value): a compile error instead."""
    with pytest.raises(pygpu.CompileError, match="local variable 'y' may be used before it is assigned"):
        vectorize([sig])(fn)


def _kernel_branch_only(x, out):
    i = pygpu.cuda.grid(1)
    if i < x.size:
        if x[i] > 0:
            y = 1.5
        out[i] = y


def test_a_kernel_local_unassigned_on_some_path_raises_where_that_path_runs():
    # as Numba, cuda.jit compiles it (vectorize refuses it: above); the read checks that the local
    # was assigned, and the thread that took the other path raises Python's UnboundLocalError
    k = pygpu.cuda.jit(_kernel_branch_only)
    out = pygpu.empty(2, device="cpu")
    k[1, 2](pygpu.asarray(np.array([1.0, 2.0]), device="cpu"), out)
    np.testing.assert_array_equal(out.get(), [1.5, 1.5])
    with pytest.raises(UnboundLocalError, match=r"local variable 'y' .* thread \(1, 0, 0\)"):
        k[1, 2](pygpu.asarray(np.array([1.0, -1.0]), device="cpu"), out)


@pytest.mark.parametrize("fn, sig, args, want", [
    (_both_branches, "f8(f8)", ([2.0, -3.0, -0.5],), [1.5, 2.5, 0.0]),
    (_forever_then_break, "f8(f8)", ([1.0, -2.0],), [2.0, -4.0]),
    (_reassigned_before_loop, "f8(f8, i8)", ([1.5, 2.0], 3), [4.5, 6.0]),
])
def test_locals_assigned_on_every_path_compile(device, fn, sig, args, want):
    got = vectorize([sig])(fn)(*[pygpu.asarray(np.array(a), device=device) if isinstance(a, list) else a
                                 for a in args])
    np.testing.assert_array_equal(got.get(), want)


def test_range_needs_integers():
    with pytest.raises(pygpu.CompileError, match="range\\(\\) arguments must be integers, not float64"):
        vectorize(["f8(f8)"])(lambda x: sum_range(x))


def sum_range(x):
    s = 0
    for i in range(x):
        s += i
    return s


def test_compile_error_is_pygpu_compile_error():
    assert issubclass(pygpu.CompileError, Exception)
    assert pygpu.CompileError is pygpu._core.CompileError


# ------------------------------------------------------------------ the VM program checks

def test_vm_program_rejects_bad_bytecode():
    import struct
    from pygpu._compiler.vm import opcodes
    ops = opcodes()

    def prog(*insns, nslots=4, consts=()):
        code = b"".join(struct.pack("<5H", *i) for i in insns)
        return pygpu._core.VmProgram(code, list(consts), nslots, [0], [11], 1, 11)

    prog((ops["add_f64"], 1, 0, 0, 0))  # fine
    with pytest.raises(ValueError, match="unknown opcode"):
        prog((60000, 1, 0, 0, 0))
    with pytest.raises(ValueError, match="operand out of range"):
        prog((ops["add_f64"], 1, 0, 9, 0))
    with pytest.raises(ValueError, match="result out of range"):
        prog((ops["add_c128"], 3, 0, 0, 0))  # complex128 needs two slots
    with pytest.raises(ValueError, match="float16 loop"):
        prog((ops["add_f16"], 1, 0, 0, 0))
    with pytest.raises(ValueError, match="jump outside the program"):
        prog((ops["jump"], 0, 7, 0, 0))
    with pytest.raises(ValueError, match="move size"):
        prog((ops["move"], 1, 0, 0, 3))
    with pytest.raises(ValueError, match="input 0"):
        pygpu._core.VmProgram(b"", [], 1, [5], [11], 0, 11)
    with pytest.raises(ValueError, match="constant 0"):
        prog(consts=[(9, 11, 1.0)])


# ------------------------------------------------------------------ the CUDA launch, against the fake driver

needs_kernels = pytest.mark.skipif(pygpu._core._build_info()["fatbin_bytes"] == 0,
                                   reason="this build has no CUDA kernels")


@needs_kernels
def test_mock_cuda_vm_launch(mock_driver):
    """The VM's CUDA launch: its kernel in the 'vm' module, the grid (256 threads of 4 elements
    a block, 8 blocks per SM at most), the program copied to the device once, and the register
    limit refused on the host. The tier is pinned to the VM (the compiled tier's launch is
    test_vectorize_tier.py's)."""
    from conftest import run_mock
    out = run_mock(mock_driver, """
        import math
        res = {}
        f = pygpu.vectorize(["float32(float32)"], target="cuda")(lambda x: np.cos(x) ** 2 + np.sin(x) ** 2)
        res["target"] = str(f.target)
        a = pygpu.zeros(10**6, dtype=np.float32, device="cuda:0")
        b0 = stats()
        f(a)
        res["first"] = stats()
        f(a)
        res["second"] = stats()
        f(pygpu.zeros(100, dtype=np.float32, device="cuda:0"))
        res["small"] = stats()
        res["before"] = b0
        src = "lambda x: " + " + ".join(f"x * {i}.5" for i in range(40))
        big = pygpu.vectorize(["float64(float64)"], target="cuda")(eval(src))
        res["big"] = error(lambda: big(pygpu.zeros(4, device="cuda:0")))
        print(json.dumps(res))
    """, PYGPU_VECTORIZE_TIER="vm")
    assert out["target"] == "cuda:0"
    first, second, small, before = out["first"], out["second"], out["small"], out["before"]
    assert first["last_kernel"] == "pg_vm_run" and first["block"] == 256
    assert first["grid"] == 32  # 4 SMs * 8 blocks caps ceil(10**6 / 1024)
    assert small["grid"] == 1
    assert first["copies"] - before["copies"] == 1     # the program, once
    assert second["copies"] == first["copies"]
    assert second["launches"] == first["launches"] + 1
    assert out["big"]["type"] == "ValueError" and "registers" in out["big"]["msg"], out["big"]


# ------------------------------------------------------------------ combinations (Hypothesis)

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402


def piecewise(x, y, k):
    r = 0.0
    for i in range(k % 4):
        if x > y:
            r += x - i
        else:
            r -= y * 0.5
    return r + k


_PIECEWISE = vectorize(piecewise)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=3, max_dims=4, max_side=4),
       dtypes=st.tuples(*[st.sampled_from(["float32", "float64", "int16", "int64", "uint8"])] * 2),
       transpose=st.booleans(), data=st.data())
def test_broadcasting_dtypes_layouts(device, shapes, dtypes, transpose, data):
    shape_x, shape_y, shape_k = shapes.input_shapes
    x = data.draw(hnp.arrays(dtypes[0], shape_x, elements=st.integers(0, 20)))
    y = data.draw(hnp.arrays(dtypes[1], shape_y, elements=st.integers(0, 20)))
    k = data.draw(hnp.arrays("int32", shape_k, elements=st.integers(0, 9)))
    px = pygpu.asarray(x.T if transpose else x, device=device)
    if transpose:
        x = x.T
        px = pygpu.asarray(np.ascontiguousarray(x.T), device=device).T if x.ndim > 1 else px
    try:
        expected = python_eval(piecewise, [x, y, k], np.float64)
    except ValueError:  # the transposed x no longer broadcasts
        with pytest.raises(ValueError, match="broadcast"):
            _PIECEWISE(px, pygpu.asarray(y, device=device), pygpu.asarray(k, device=device))
        return
    got = _PIECEWISE(px, pygpu.asarray(y, device=device), pygpu.asarray(k, device=device))
    assert got.shape == expected.shape
    np.testing.assert_allclose(got.get(), expected, rtol=1e-6)


def test_programs_fit_the_cuda_register_file():
    """The CUDA interpreter has 32 register slots a thread (kernels/vm.h, PG_VM_GPU_SLOTS): the
    emitter reuses temporaries, so the functions here (long sums, loops, calls) fit."""
    from pygpu._compiler import compile_program
    for pyfunc, types, _ in CASES + [(mandel, ["f8", "f8", "i4"], None)]:
        program, _ = compile_program(pyfunc, [np.dtype(t) for t in types])
        assert program.info["slots"] <= 32, (pyfunc.__name__, program.info)


# ------------------------------------------------------------------ parameters reassigned in the body

def _count_up(x, n):
    s = 0.0
    while n > 0:
        s += x
        n -= 1
    return s


def _double_then_add(x, a):
    a = a * 2.0
    return x + a


@pytest.mark.parametrize("size", [1, 255, 256, 257, 4097, 10 ** 6 + 3])
def test_reassigned_scalar_argument_every_tile(device, size):
    """A scalar argument the function reassigns starts from the caller's value for every element,
    in every tile and thread (it was loaded into its register once per run: issue 16 item 1,
    most elements gave 0, or 2, 4, 8, ...)."""
    x = np.ones(size)
    count = vectorize(["float64(float64, int64)"])(_count_up)
    assert_array_equal(count(pygpu.asarray(x, device=device), 3), np.full(size, 3.0))
    double = vectorize(["float64(float64, float64)"])(_double_then_add)
    assert_array_equal(double(pygpu.asarray(x, device=device), 1.5), np.full(size, 4.0))
    # as a reduction's map and with a fused function too
    assert count(pygpu.asarray(x, device=device), 3).sum().get() == 3.0 * size


@pytest.mark.parametrize("kd", ["int8", "int32", "int64", "bool"])
@pytest.mark.parametrize("xd", ["float16", "float32", "float64"])
def test_mixed_type_ops_in_compiled_functions(xd, kd):
    """ldexp's loops take (float, int64): an int32 exponent is widened as NumPy's (float, int32)
    loop would take it, in vectorize and fuse; bitwise_count of every integer width."""
    x = np.array([1.5, -3.0, 0.1, 6e4], dtype=xd)
    k = np.array([3, -2, 5, 1]).astype(kd)
    with np.errstate(over="ignore"):
        want = np.ldexp(x, k)
        got = pygpu.vectorize(lambda u, e: np.ldexp(u, e))(pygpu.asarray(x), pygpu.asarray(k))
        # float16 computed as float32, and rounded to float16 as NumPy's float16 loop rounds it
        assert_array_equal(got, want.astype(got.dtype))
        fused = pygpu.fuse(lambda u, e: np.ldexp(u, e) * 2)(pygpu.asarray(x), pygpu.asarray(k))
        assert fused.dtype == want.dtype
        assert_array_equal(fused, want * 2)
    if kd != "bool":
        n = np.array([-1, 7, 0, -128 if kd == "int8" else 255], dtype=kd)
        counted = pygpu.vectorize(lambda v: np.bitwise_count(v) + 1)(pygpu.asarray(n))
        assert_array_equal(counted, np.bitwise_count(n).astype(np.int64) + 1)


def test_numpy_ufuncs_round_float16_results_as_numpy():
    """NumPy's ufuncs called in a vectorize function take float16 values as float16 and round each
    result, as the guide says (np.subtract(np.add(x, y), x) kept float32's 0.0004 where NumPy's
    float16 loops give 0, and np.sin(True) was 0.841471, NumPy's float16 0.8413): with a signature,
    without one (a bool argument), through a local, and traced (no source)."""
    a = np.array([1.0, 2048, 3.0], np.float16)
    b = np.array([0.0004, 1, 1e-3], np.float16)

    def through_local(x, y):
        s = np.add(x, y)
        return np.subtract(s, x)

    f = lambda x, y: np.subtract(np.add(x, y), x)   # noqa: E731
    for fn in (f, through_local):
        assert_array_equal(vectorize(["f2(f2,f2)"])(fn)(a, b), fn(a, b))
    ns = {"np": np}
    exec("def traced(x, y):\n    return np.subtract(np.add(x, y), x)\n", ns)
    assert_array_equal(vectorize(["f2(f2,f2)"])(ns["traced"])(a, b), ns["traced"](a, b))
    s = vectorize(lambda t, y: np.sin(t) * y)
    flags, ones = np.array([True, False]), np.ones(2)
    assert_array_equal(s(flags, ones), np.sin(flags) * ones)


def test_assignment_expressions_are_refused_by_name():
    """(b := a + 1) * b raised 'b may be used before it is assigned' (b is assigned: the left
    operand runs first): the walrus operator is refused as what it is."""
    def walrus(a):
        return (b := a + 1) * b
    with pytest.raises(pygpu.CompileError, match=r"assignment expressions \(:=\) are not supported in vectorize"):
        vectorize(["f8(f8)"])(walrus)


def test_chained_assignment_assigns_the_value_once_to_each_name():
    def f(x):
        a = b = x * 2
        return a + b

    assert_array_equal(pygpu.vectorize(f)(pygpu.arange(4.0)), np.arange(4.0) * 4)
