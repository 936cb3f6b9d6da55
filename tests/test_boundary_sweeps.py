"""Boundary sweeps (issue 16, tests item 2): reductions, scans, reduceat, ufunc.at, sorting and
indexing at sizes around every block, tile, chunk and pass constant of the CPU and CUDA kernels,
against NumPy, on every device present. The constants are read from the sources (every
`#define PG_NAME <number>` of the files below), not written down here, so a new or changed
constant moves the sweep with it."""
import os
import re

import numpy as np
import pytest

import pygpu
from conftest import assert_array_equal

CSRC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "csrc")
SOURCES = ["kernels/reduce.h", "kernels/reduce_types.h", "kernels/vm.h", "kernels/vm_reduce.h", "kernels/vm_types.h",
           "runtime/backend_cuda_reduce.c", "runtime/backend_cpu_reduce.c", "runtime/backend_cuda_index.c",
           "runtime/backend_cpu_index.c", "runtime/backend_cuda_vm.c", "runtime/backend_cpu_vm.c",
           "runtime/backend_cuda_vm_reduce.c", "runtime/backend_cpu_vm_reduce.c", "runtime/sort_radix.c",
           "runtime/backend_cuda_sort.c", "runtime/backend_cpu_sort.c", "runtime/backend_cuda_search.c"]
LARGEST = 1 << 17   # sizes beyond this cost CI minutes without crossing anything new


def constants():
    """{name: value} of every numeric #define in SOURCES."""
    found = {}
    for rel in SOURCES:
        path = os.path.join(CSRC, rel)
        if not os.path.exists(path):
            continue
        with open(path) as f:
            for name, value in re.findall(r"#define\s+(PG_[A-Z0-9_]+)\s+\(?\s*(\d+)[uUlL]*\s*\)?\s*(?:/\*|$)", f.read(), re.M):
                found[name] = int(value)
    return found


def boundary_sizes():
    """Each constant c, and 256 * c (a block of threads each taking c), minus 1, itself, plus 1."""
    c = constants()
    bases = {v for v in c.values() if 2 <= v <= LARGEST}
    block = c.get("PG_RBLOCK", 256)
    bases |= {block * v for v in list(bases) if block * v <= LARGEST}
    sizes = {0, 1, 2}
    for v in bases:
        sizes |= {v - 1, v, v + 1}
    return sorted(s for s in sizes if 0 <= s <= LARGEST + 1)


SIZES = boundary_sizes()


def test_the_sweep_reads_the_constants():
    c = constants()
    for name in ("PG_RBLOCK", "PG_RED_MIN_PER_THREAD", "PG_SCAN_MIN_CHUNK", "PG_RPW", "PG_VM_GPU_LANES"):
        assert name in c, name
    assert c["PG_RBLOCK"] * c["PG_RED_MIN_PER_THREAD"] + 1 in SIZES and c["PG_SCAN_MIN_CHUNK"] - 1 in SIZES
    assert len(SIZES) > 40


def _data(n, dtype, seed):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return rng.standard_normal(n).astype(dtype)
    return rng.integers(-50, 50, n).astype(dtype)


def _close(got, want, dtype, n):
    """Floats: within the pairwise bound (log2(n) roundings of the sum of magnitudes)."""
    got = got.get() if isinstance(got, pygpu.ndarray) else got
    if np.dtype(dtype).kind == "f":
        eps = np.finfo(dtype).eps
        scale = (np.log2(max(n, 2)) + 2) * eps
        np.testing.assert_allclose(np.asarray(got, np.float64), want, rtol=scale, atol=scale * max(n, 1) ** 0.5 * 4)
    else:
        np.testing.assert_array_equal(got, want)


def _close_scan(got, x, want, dtype, n, axis=0):
    """A cumsum of floats: within the pairwise bound of _close, or within the bound of any order
    of its additions (Higham, Accuracy and Stability, 4.2: u times the sum of the magnitudes of the
    partial sums the order computes). NumPy's want is sequential: u times the sum of |want| up to
    there (its own error: 5.7e-12 at 366.4 after 59486 standard normal steps, where _close's
    atol is 4.1e-12). The GPU's chunked scan (per thread 4 items, a tree of 256 thread totals,
    then the carries of the tiles and chunks before, a subset of those prefix sums) adds its
    own: u times the prefix sums again plus log2(n) + 2 levels of the sum of |x| up to there."""
    if np.dtype(dtype).kind != "f":
        return _close(got, want, dtype, n)
    got = np.asarray(got.get() if isinstance(got, pygpu.ndarray) else got, np.float64)
    eps = np.finfo(dtype).eps
    scale = (np.log2(max(n, 2)) + 2) * eps
    pairwise = scale * np.abs(want) + scale * max(n, 1) ** 0.5 * 4
    orders = eps * (np.cumsum(np.abs(want), axis=axis) + (np.log2(max(n, 2)) + 2)
                    * np.cumsum(np.abs(np.asarray(x, np.float64)), axis=axis))
    bad = ~(np.abs(got - want) <= np.maximum(pairwise, orders))
    assert not bad.any(), (np.argwhere(bad)[:5], got[bad][:5], want[bad][:5], orders[bad][:5])


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32"])
def test_reductions_and_scans_at_every_boundary(device, dtype):
    for i, n in enumerate(SIZES):
        x = _data(n, dtype, i)
        wide = x.astype(np.float64) if x.dtype.kind == "f" else x.astype(np.int64)
        d = pygpu.asarray(x, device=device)
        _close(d.sum(), wide.sum(), dtype, n)
        if n:
            assert_array_equal(d.max(), x.max())
            assert_array_equal(d.argmin(), x.argmin())
        _close_scan(pygpu.cumsum(d), x, np.cumsum(wide), dtype, n)
        # rows of n along the fast axis, and n rows of 3 along the slow one
        m = _data(3 * n, dtype, i + 1).reshape(3, n)
        dm = pygpu.asarray(m, device=device)
        wm = m.astype(np.float64) if m.dtype.kind == "f" else m.astype(np.int64)
        _close(dm.sum(axis=1), wm.sum(axis=1), dtype, n)
        _close(pygpu.asarray(m.T.copy(), device=device).sum(axis=0), wm.sum(axis=1), dtype, n)
        _close_scan(pygpu.cumsum(pygpu.asarray(m.T.copy(), device=device), axis=0), m.T, np.cumsum(wm.T, axis=0),
                    dtype, n)
        if n:
            assert_array_equal(dm.argmax(axis=1), m.argmax(axis=1))


def test_reduceat_and_at_at_every_boundary(device):
    for i, n in enumerate(SIZES):
        if n < 2:
            continue
        x = _data(n, "int64", i)
        d = pygpu.asarray(x, device=device)
        idx = sorted({0, n // 3, n // 2, n - 1})
        assert_array_equal(pygpu.add.reduceat(d, idx), np.add.reduceat(x, idx))
        assert_array_equal(pygpu.maximum.reduceat(d, idx), np.maximum.reduceat(x, idx))
        target = np.zeros(17, np.int64)
        where = np.random.default_rng(i).integers(0, 17, n)
        dt = pygpu.asarray(target, device=device)
        pygpu.add.at(dt, where, d)
        np.add.at(target, where, x)
        assert_array_equal(dt, target)


@pytest.mark.parametrize("dtype", ["float32", "int64"])
def test_sorting_and_indexing_at_every_boundary(device, dtype):
    for i, n in enumerate(SIZES):
        x = _data(n, dtype, i)
        d = pygpu.asarray(x, device=device)
        assert_array_equal(pygpu.sort(d), np.sort(x))
        assert_array_equal(pygpu.argsort(d, stable=True), np.argsort(x, stable=True))
        idx = np.random.default_rng(i).integers(0, max(n, 1), n) if n else np.zeros(0, np.int64)
        assert_array_equal(d[pygpu.asarray(idx, device=device)], x[idx])
        mask = x > 0
        assert_array_equal(d[pygpu.asarray(mask, device=device)], x[mask])
        assert_array_equal(pygpu.nonzero(pygpu.asarray(mask, device=device))[0], np.nonzero(mask)[0])


def test_float16_long_rows_accumulate_in_float32(device):
    """float16 sums accumulate in float32 and round once: within an ulp of float16 of the exact sum
    at every boundary length (NumPy's own float16 pairwise sum may be further off)."""
    for n in [s for s in SIZES if s >= 1000]:
        x = np.full(n, 0.1, np.float16)
        exact = n * float(np.float16(0.1))
        got = float(pygpu.asarray(x, device=device).sum().get())
        assert abs(got - exact) <= float(np.spacing(np.float16(exact))), (n, got, exact)
