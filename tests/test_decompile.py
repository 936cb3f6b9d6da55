"""Functions without Python source (exec of a string, code generators, `python -c`): pygpu rebuilds
their source from bytecode (pygpu/_compiler/decompile.py) and compiles that.

Two kinds of test: the rebuilt function, run by Python itself, against the original on many
inputs (the decompiler's own semantics, for every construct it rebuilds); and Numba-style kernels,
device functions and vectorize functions made by exec, run by pygpu against NumPy."""
import ast
import copy
import math
import os
import random
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pygpu
from pygpu._compiler.decompile import DecompileError, decompile

CPU = pygpu.Device("cpu")

CORPUS = r'''
def guards(a, b, n):
    i = n - 1
    if i >= n:
        return
    for j in range(3):
        if j == 1:
            continue
        if a[j] > 2 and b[j] < 1:
            break
        a[i] += j
    while i < n:
        i += 2
    x = a[1] if i < n else 0.5
    a[0], b[0] = b[0], a[0]
    if 0 < i < n + 5:
        a[2] = x
    return a, b, i

def loops(a, n):
    i = 0
    s = 0
    while i < n:
        if a[i % len(a)] < 0:
            i += 1
            continue
        s += a[i % len(a)]
        i += 1
    for j, v in enumerate(a):
        s += j * v
    for u, (w, z) in zip(a, zip(a, a)):
        s -= u * w - z
    return s

def nested(a, n):
    t = 0
    for i in range(n):
        for j in range(i):
            if (i + j) % 3 == 0:
                continue
            if j > 5:
                break
            t += a[(i * j) % len(a)]
        k = i
        while k > 0:
            k -= 2
            if k == 3:
                break
        t += k
    return t

def branches(x, y):
    if x > y or (x < 0 and y < 0):
        r = x - y
    elif x == y:
        r = 0
    else:
        r = y - x
    if not (x > 1 and y > 1):
        r += 100
    z = -x if x < 0 else (x if x < 10 else 10)
    return r, z, x < y <= 2 * x, not x, x and y, x or y, (x and y) or -1

def early(a, n):
    i = 0
    while True:
        i += 1
        if i > n:
            break
        if a[i % len(a)] > 3:
            return i
    while i > 0:
        i -= 3
        if i == 4:
            return -1
    for k in range(n):
        if k * k > n:
            return k
    return i * 2

def calls(a, b):
    c = 0
    p, q = divmod(len(a) + 7, 3)
    (r, s), t = (p, q), c
    m = max(a, default=0) + min(*b) + g(1, kw=2) + g(*b, **{'kw': 3}) + g(*a, 5, kw=p)
    return c, p, q, r, s, t, m, abs(-p), round(2.5 + q, 1)

def g(*args, kw=0):
    return sum(args) + kw

def stores(a):
    a[0], a[1], a[2] = a[2], a[0], a[1]
    a[1:3] = [9, 9]
    b = a[::2]
    a[-1] //= 2
    a[a[0] % len(a)] -= 1
    return a, b, a[-1], a[1:-1]

def checks(n, m):
    assert n > -100, "n too small"
    if m is None:
        return 0
    if n in (1, 2, 3):
        return 1
    if n not in (4, 5):
        n = ~n
    return +n

def shadows(x, n):
    acc = 0.0
    k = 0
    while k < n and acc < 100:
        acc += x * k
        k += 1
    else:
        acc -= 1
    y = x
    x, y = y + 1, x - 1
    return acc, k, x, y

def elses(a, n):
    t = 0
    for j in range(3):
        for i in range(n):
            if a[i % len(a)] == j:
                break
        else:
            t += 100
        t += j
        k = j
        while k < n:
            if a[k % len(a)] > 3:
                break
            k += 1
        else:
            t -= 7
        t += k
    return t

def raises(n):
    if n < 0:
        raise ValueError("negative")
    return n
'''


def _load(source, glob=None):
    """The functions source defines, made by exec without their source anywhere (as a code
    generator makes them)."""
    glob = {} if glob is None else glob
    exec(compile(textwrap.dedent(source), "<generated>", "exec"), glob)
    return glob


def _rebuilt(fn, glob):
    node = decompile(fn)
    mod = ast.Module([node], [])
    ast.fix_missing_locations(mod)
    ns = dict(glob)
    exec(compile(mod, "<rebuilt>", "exec"), ns)
    return ns[fn.__name__]


def _outcome(fn, args):
    try:
        return "value", fn(*copy.deepcopy(args))
    except Exception as e:  # the same exception class on both sides counts as the same outcome
        return "raises", type(e).__name__


@pytest.mark.parametrize("name", ["guards", "loops", "nested", "branches", "early", "calls", "stores", "checks",
                                  "shadows", "elses", "raises"])
def test_rebuilt_function_behaves_as_the_original(name):
    glob = _load(CORPUS)
    fn = glob[name]
    again = _rebuilt(fn, glob)
    rng = random.Random(name)
    for _ in range(300):
        args = []
        for p in fn.__code__.co_varnames[:fn.__code__.co_argcount]:
            if p in ("a", "b"):
                args.append([rng.randint(-5, 5) for _ in range(rng.randint(3, 8))])
            elif p == "m":
                args.append(rng.choice([None, 0, 1]))
            else:
                args.append(rng.randint(-4, 12))
        assert _outcome(fn, args) == _outcome(again, args), (name, args, ast.unparse(decompile(fn)))


def test_rebuilt_source_reads_like_the_source():
    """The shapes Numba users write come back as themselves (while c:, for, and/or, x if c else y,
    augmented assignments, early returns), not as jumps through temporaries."""
    glob = _load(CORPUS)
    text = ast.unparse(decompile(glob["shadows"]))
    assert "while k < n and acc < 100:" in text and "_pg_t" in text   # x, y = y + 1, x - 1 needs one
    text = ast.unparse(decompile(glob["guards"]))
    assert "while i < n:" in text and "a[i] += j" in text and "x = a[1] if i < n else 0.5" in text
    assert "for j in range(3):" in text and "break" in text and "continue" in text
    text = ast.unparse(decompile(glob["loops"]))
    assert "for j, v in enumerate(a):" in text and "for u, (w, z) in zip(a, zip(a, a)):" in text


@pytest.mark.parametrize("source, construct", [
    ("def f(x):\n    try:\n        return x\n    except Exception:\n        return 0\n", "try"),
    ("def f(x):\n    return [x for _ in range(3)]\n", "comprehensions"),
    ("def f(x):\n    def g():\n        return x\n    return g()\n", "nested functions"),
    ("def f(x):\n    yield x\n", "generators"),
    ("def f(x):\n    with x:\n        return 1\n", "with statements|try"),
    ("def f(x):\n    global y\n    y = x\n", "global declarations"),
    ("def f(x):\n    del x\n", "del statements"),
])
def test_constructs_without_a_rebuilt_form_are_named(source, construct):
    fn = _load(source)["f"]
    with pytest.raises(DecompileError, match=construct) as info:
        decompile(fn)
    assert info.value.line is not None


# ------------------------------------------------------------------ pygpu compiling what was rebuilt

KERNELS = '''
import math
import numpy as np
from pygpu import cuda

@cuda.jit
def add(x, y, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = x[i] + y[i]

@cuda.jit
def smooth(x, out):
    i = cuda.grid(1)
    n = x.shape[0]
    if 1 <= i < n - 1:
        out[i] = (x[i - 1] + x[i] + x[i + 1]) / 3
    elif i == 0 or i == n - 1:
        out[i] = x[i]

@cuda.jit
def block_sum(a, out):
    sm = cuda.shared.array(64, np.float64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    sm[t] = a[i] if i < a.size else 0.0
    cuda.syncthreads()
    s = 32
    while s > 0:
        if t < s:
            sm[t] += sm[t + s]
        cuda.syncthreads()
        s //= 2
    if t == 0:
        cuda.atomic.add(out, 0, sm[0])

@cuda.jit
def matmul(a, b, c):
    i, j = cuda.grid(2)
    if i < c.shape[0] and j < c.shape[1]:
        acc = 0.0
        for k in range(a.shape[1]):
            acc += a[i, k] * b[k, j]
        c[i, j] = acc

@cuda.jit(device=True)
def clamp(v, lo, hi):
    return lo if v < lo else (hi if v > hi else v)

@cuda.jit
def clamp_all(a):
    i = cuda.grid(1)
    if i >= a.size:
        return
    a[i] = clamp(a[i], -1.0, 1.0)

@cuda.jit
def collatz(n, steps):
    i = cuda.grid(1)
    if i < n.size:
        v = n[i]
        k = 0
        while v != 1 and k < 1000:
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            k += 1
        steps[i] = k

@cuda.jit
def pairs(x, out):
    i = cuda.grid(1)
    if i < out.size:
        total = 0.0
        for j, v in enumerate(x):
            if j == i:
                continue
            total += v * math.exp(-abs(j - i))
        out[i] = total
'''


@pytest.fixture(scope="module")
def kernels():
    return _load(KERNELS)


def test_numba_kernels_made_by_exec_run(kernels):
    x = np.linspace(0, 3, 300)
    y = np.cos(x)
    out = pygpu.zeros(300, device=CPU)
    kernels["add"][3, 128](pygpu.asarray(x, device=CPU), pygpu.asarray(y, device=CPU), out)
    np.testing.assert_allclose(out.get(), x + y)
    kernels["smooth"][3, 128](pygpu.asarray(x, device=CPU), out)
    want = x.copy()
    want[1:-1] = (x[:-2] + x[1:-1] + x[2:]) / 3
    np.testing.assert_allclose(out.get(), want)
    total = pygpu.zeros(1, device=CPU)
    kernels["block_sum"][5, 64](pygpu.asarray(x, device=CPU), total)
    np.testing.assert_allclose(total.get()[0], x.sum())


def test_two_dimensional_kernel_and_device_function_made_by_exec(kernels):
    rng = np.random.default_rng(0)
    a, b = rng.random((37, 19)), rng.random((19, 21))
    c = pygpu.zeros((37, 21), device=CPU)
    kernels["matmul"][(3, 3), (16, 16)](pygpu.asarray(a, device=CPU), pygpu.asarray(b, device=CPU), c)
    np.testing.assert_allclose(c.get(), a @ b)
    v = np.linspace(-3, 3, 301)
    d = pygpu.asarray(v, device=CPU)
    kernels["clamp_all"][3, 128](d)
    np.testing.assert_array_equal(d.get(), np.clip(v, -1, 1))


def test_loops_with_conditional_values_made_by_exec(kernels):
    n = np.arange(1, 200, dtype=np.int64)
    steps = pygpu.zeros(199, dtype=np.int64, device=CPU)
    kernels["collatz"][2, 128](pygpu.asarray(n, device=CPU), steps)

    def count(v):
        k = 0
        while v != 1 and k < 1000:
            v = v // 2 if v % 2 == 0 else 3 * v + 1
            k += 1
        return k
    np.testing.assert_array_equal(steps.get(), [count(int(v)) for v in n])
    x = np.linspace(-1, 1, 40)
    out = pygpu.zeros(40, device=CPU)
    kernels["pairs"][1, 64](pygpu.asarray(x, device=CPU), out)
    want = [sum(v * math.exp(-abs(j - i)) for j, v in enumerate(x) if j != i) for i in range(40)]
    np.testing.assert_allclose(out.get(), want)


def test_kernel_without_a_rebuilt_form_names_the_construct():
    glob = _load("from pygpu import cuda\n@cuda.jit\ndef k(a):\n    try:\n        a[0] = 1\n    except Exception:\n"
                 "        pass\n")
    with pytest.raises(pygpu.CompileError, match=r"cuda.jit cannot compile k\(\).*try statements \(line \d+\)"):
        glob["k"][1, 1](pygpu.zeros(1, device=CPU))


def test_vectorize_of_a_generated_function_with_branches_and_math():
    glob = _load("import math\ndef f(x, y):\n    if x > y:\n        return math.sin(x) - y\n"
                 "    t = 0.0\n    for k in range(3):\n        t += x * k if k != 1 else y\n    return t\n")
    uf = pygpu.vectorize(["f8(f8, f8)"])(glob["f"])
    x, y = np.linspace(-2, 2, 301), np.linspace(1, -1, 301)
    got = uf(pygpu.asarray(x, device=CPU), pygpu.asarray(y, device=CPU)).get()
    np.testing.assert_allclose(got, [glob["f"](a, b) for a, b in zip(x, y)])


def test_kernel_written_on_the_command_line():
    """`python -c` keeps no source at all: the kernel still compiles and runs."""
    program = textwrap.dedent("""
        import numpy as np, pygpu
        from pygpu import cuda
        @cuda.jit
        def scale(a, k):
            i = cuda.grid(1)
            if i < a.size:
                a[i] *= k
        a = pygpu.asarray(np.arange(10.0), device=pygpu.Device('cpu'))
        scale[1, 32](a, 3.0)
        print(a.get().sum())
    """)
    env = dict(os.environ, PYGPU_DEVICE="cpu")
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert float(done.stdout.split()[-1]) == 135.0
