"""Dask's array operations over pygpu chunks against the same operations on NumPy arrays, the
way Dask tests its CuPy support: Dask's own assert_eq (values, shapes, dtypes, and that the meta
and the computed chunks agree in type), plus a device-aware check that the result and its meta
are pygpu arrays. A Dask function that loses a pygpu input's meta shows up here (pygpu.dask wraps
the ones found)."""
import warnings

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
from dask.array.utils import assert_eq  # noqa: E402

import pygpu  # noqa: E402

rng = np.random.default_rng(0)
d = rng.random((20, 30))
v = rng.random(30)
idx = np.array([3, 1, 7, 7, 0])
x = da.from_array(pygpu.asarray(d), chunks=(7, 8))
xv = da.from_array(pygpu.asarray(v), chunks=8)
xi = da.from_array(pygpu.asarray(idx), chunks=2)

# name: (the Dask expression of a, the NumPy expression of a, or None: only types and computing)
OPERATIONS = {
    "bool mask": (lambda a: a[a > 0.5], lambda a: a[a > 0.5]),
    "bool rows": (lambda a: a[a[:, 0] > 0.5], lambda a: a[a[:, 0] > 0.5]),
    "int dask idx": (lambda a: a[xi if isinstance(a, da.Array) else idx], lambda a: a[idx]),
    "int np idx": (lambda a: a[idx], lambda a: a[idx]),
    "vindex": (lambda a: a.vindex[[1,2],[3,4]], lambda a: a[[1,2],[3,4]]),
    "where": (lambda a: da.where(a > 0.5, a, 0), lambda a: np.where(a > 0.5, a, 0)),
    "nonzero": (lambda a: da.nonzero(a > 0.9)[0], lambda a: np.nonzero(a > 0.9)[0]),
    "argwhere": (lambda a: da.argwhere(a > 0.9), lambda a: np.argwhere(a > 0.9)),
    "argmin": (lambda a: a.argmin(axis=0), lambda a: a.argmin(axis=0)),
    "argmin all": (lambda a: a.argmin(), lambda a: a.argmin()),
    "cumsum": (lambda a: a.cumsum(axis=1), lambda a: a.cumsum(axis=1)),
    "cumprod": (lambda a: a.cumprod(axis=0), lambda a: a.cumprod(axis=0)),
    "std": (lambda a: a.std(axis=0), lambda a: a.std(axis=0)),
    "var ddof": (lambda a: a.var(ddof=1), lambda a: a.var(ddof=1)),
    "nanmean": (lambda a: da.nanmean(a, axis=1), lambda a: np.nanmean(a, axis=1)),
    "nanmax": (lambda a: da.nanmax(a, axis=1), lambda a: np.nanmax(a, axis=1)),
    "max": (lambda a: a.max(), lambda a: a.max()),
    "any": (lambda a: (a > 0.99).any(axis=0), lambda a: (a > 0.99).any(axis=0)),
    "all": (lambda a: (a > 0.0).all(), lambda a: (a > 0.0).all()),
    "unique": (lambda a: da.unique((a * 5).astype(int)), lambda a: np.unique((a * 5).astype(int))),
    "sort topk": (lambda a: da.topk(a.ravel(), 5), lambda a: np.sort(a.ravel())[::-1][:5]),
    "argtopk": (lambda a: da.argtopk(a.ravel(), 5), lambda a: np.argsort(a.ravel())[::-1][:5]),
    "concat": (lambda a: da.concatenate([a, a], axis=0), lambda a: np.concatenate([a, a], axis=0)),
    "stack": (lambda a: da.stack([a, a]), lambda a: np.stack([a, a])),
    "rechunk": (lambda a: a.rechunk((5, 15)), lambda a: a),
    "reshape": (lambda a: a.rechunk((10, 30)).reshape(2, 10, 30), lambda a: a.reshape(2, 10, 30)),
    "transpose": (lambda a: a.T, lambda a: a.T),
    "matmul": (lambda a: a @ a.T, lambda a: a @ a.T),
    "tensordot": (lambda a: da.tensordot(a, a, axes=([1],[1])), lambda a: np.tensordot(a, a, axes=([1],[1]))),
    "einsum": (lambda a: da.einsum("ij,ij->i", a, a), lambda a: np.einsum("ij,ij->i", a, a)),
    "dot vec": (lambda a: a.dot(xv if isinstance(a, da.Array) else v), lambda a: a.dot(v)),
    "outer": (lambda a: da.outer(a[0], a[1]), lambda a: np.outer(a[0], a[1])),
    "diag": (lambda a: da.diag(a[:, :20]), lambda a: np.diag(a[:, :20])),
    "tril": (lambda a: da.tril(a), lambda a: np.tril(a)),
    "triu": (lambda a: da.triu(a, 1), lambda a: np.triu(a, 1)),
    "flip": (lambda a: da.flip(a, 0), lambda a: np.flip(a, 0)),
    "roll": (lambda a: da.roll(a, 3, axis=1), lambda a: np.roll(a, 3, axis=1)),
    "pad": (lambda a: da.pad(a, 2), lambda a: np.pad(a, 2)),
    "pad edge": (lambda a: da.pad(a, 2, mode="edge"), lambda a: np.pad(a, 2, mode="edge")),
    "clip": (lambda a: a.clip(0.2, 0.8), lambda a: a.clip(0.2, 0.8)),
    "round": (lambda a: da.round(a, 2), lambda a: np.round(a, 2)),
    "isnan": (lambda a: da.isnan(a), lambda a: np.isnan(a)),
    "astype": (lambda a: a.astype(np.float32), lambda a: a.astype(np.float32)),
    "diff": (lambda a: da.diff(a, axis=1), lambda a: np.diff(a, axis=1)),
    "gradient": (lambda a: da.gradient(a, axis=1), lambda a: np.gradient(a, axis=1)),
    "bincount": (lambda a: da.bincount((a.ravel() * 9).astype(int)), lambda a: np.bincount((a.ravel() * 9).astype(int))),
    "digitize": (lambda a: da.digitize(a, np.array([0.2, 0.5])), lambda a: np.digitize(a, [0.2, 0.5])),
    "histogram": (lambda a: da.histogram(a, bins=5, range=(0, 1))[0], lambda a: np.histogram(a, bins=5, range=(0, 1))[0]),
    "percentile": (lambda a: da.percentile(a.ravel(), [50]), None),
    "squeeze": (lambda a: a[:1].squeeze(), lambda a: a[:1].squeeze()),
    "moveaxis": (lambda a: da.moveaxis(a, 0, 1), lambda a: np.moveaxis(a, 0, 1)),
    "broadcast_to": (lambda a: da.broadcast_to(a[0], (3, 30)), lambda a: np.broadcast_to(a[0], (3, 30))),
    "take": (lambda a: da.take(a, [1, 5], axis=1), lambda a: np.take(a, [1, 5], axis=1)),
    "choose via isin": (lambda a: da.isin((a*5).astype(int), [1,2]), lambda a: np.isin((a*5).astype(int), [1,2])),
    "linspace like": (lambda a: a + da.linspace(0, 1, 30, chunks=8), lambda a: a + np.linspace(0, 1, 30)),
    "ptp": (lambda a: da.ptp(a, axis=0), lambda a: np.ptp(a, axis=0)),
    "average w": (lambda a: da.average(a, axis=0, weights=da.from_array(pygpu.asarray(np.arange(20.)),chunks=7)), lambda a: np.average(a, axis=0, weights=np.arange(20.))),
    "cov": (lambda a: da.cov(a), lambda a: np.cov(a)),
    "corrcoef": (lambda a: da.corrcoef(a), lambda a: np.corrcoef(a)),
    "apply_along_axis": (lambda a: da.apply_along_axis(np.sum, 1, a), lambda a: np.apply_along_axis(np.sum, 1, a)),
    "map_blocks": (lambda a: a.map_blocks(lambda b: b * 2), lambda a: a * 2),
    "reduction": (lambda a: da.reduction(a, np.sum, np.sum, axis=0, dtype=a.dtype), lambda a: a.sum(axis=0)),
    "svd_compressed": (lambda a: da.linalg.svd_compressed(a, 3, seed=0)[1], None),
    "fft": (lambda a: da.fft.fft(a.rechunk((7, 30)), axis=1), lambda a: np.fft.fft(a, axis=1)),
    "store/ravel": (lambda a: a.ravel(), lambda a: a.ravel()),
    "blockwise zeros_like": (lambda a: da.zeros_like(a), lambda a: np.zeros_like(a)),
    "full_like": (lambda a: da.full_like(a, 3.0), lambda a: np.full_like(a, 3.0)),
    "ones_like": (lambda a: da.ones_like(a), lambda a: np.ones_like(a)),
    "tile": (lambda a: da.tile(a[0], 2), lambda a: np.tile(a[0], 2)),
    "repeat": (lambda a: da.repeat(a, 2, axis=0), lambda a: np.repeat(a, 2, axis=0)),
    "searchsorted": (lambda a: da.searchsorted(da.from_array(pygpu.asarray(np.sort(v)), chunks=8), a), lambda a: np.searchsorted(np.sort(v), a)),
    "coarsen": (lambda a: da.coarsen(np.sum, a[:14, :24], {0: 7, 1: 8}),
                lambda a: a[:14, :24].reshape(2, 7, 3, 8).sum(axis=(1, 3))),
    "map_overlap": (lambda a: a.map_overlap(lambda b: b * 2, depth=1, boundary="reflect"), lambda a: a * 2),
    "nanargmax": (lambda a: da.nanargmax(a, axis=0), lambda a: np.nanargmax(a, axis=0)),
    "sum keepdims": (lambda a: a.sum(axis=1, keepdims=True), lambda a: a.sum(axis=1, keepdims=True)),
    "mean dtype": (lambda a: a.mean(axis=0, dtype=np.float32), lambda a: a.mean(axis=0, dtype=np.float32)),
    "prod": (lambda a: (a+0.5).prod(axis=0), lambda a: (a+0.5).prod(axis=0)),
    "median": (lambda a: da.median(a, axis=0), lambda a: np.median(a, axis=0)),
    "nanquantile": (lambda a: da.nanquantile(a, 0.3, axis=0), lambda a: np.nanquantile(a, 0.3, axis=0)),
    "count_nonzero": (lambda a: da.count_nonzero(a > 0.5, axis=0), lambda a: np.count_nonzero(a > 0.5, axis=0)),
    "compress": (lambda a: da.compress([True, False] * 10, a, axis=0), lambda a: np.compress([True, False] * 10, a, axis=0)),
    "extract": (lambda a: da.extract(a > 0.5, a), lambda a: np.extract(a > 0.5, a)),
    "select": (lambda a: da.select([a < 0.3, a > 0.7], [a, -a]), lambda a: np.select([a < 0.3, a > 0.7], [a, -a])),
    "piecewise": (lambda a: da.piecewise(a, [a < 0.5], [0, 1]), lambda a: np.piecewise(a, [a < 0.5], [0, 1])),
    "isclose": (lambda a: da.isclose(a, a + 1e-9), lambda a: np.isclose(a, a + 1e-9)),
    "allclose": (lambda a: da.allclose(a, a), lambda a: np.allclose(a, a)),
    "real": (lambda a: da.real(a + 1j), lambda a: np.real(a + 1j)),
    "angle": (lambda a: da.angle(a + 1j), lambda a: np.angle(a + 1j)),
    "frexp": (lambda a: da.frexp(a)[0], lambda a: np.frexp(a)[0]),
    "modf": (lambda a: da.modf(a * 3)[1], lambda a: np.modf(a * 3)[1]),
    # found by a hunt against NumPy chunks: metas and chunks that became NumPy, errors
    "einsum casting": (lambda a: da.einsum("ij->j", a, dtype=np.float32, casting="same_kind"),
                       lambda a: np.einsum("ij->j", a, dtype=np.float32, casting="same_kind")),
    "int idx negative": (lambda a: a[pygpu.asarray([-1, 2])], lambda a: a[[-1, 2]]),
    "take negative": (lambda a: da.take(a, pygpu.asarray([-3, 1]), axis=1), lambda a: np.take(a, [-3, 1], axis=1)),
    "unique counts": (lambda a: da.unique((a * 5).astype(int), return_counts=True)[1],
                      lambda a: np.unique((a * 5).astype(int), return_counts=True)[1]),
    "nanmedian": (lambda a: da.nanmedian(a, axis=0), lambda a: np.nanmedian(a, axis=0)),
    "gradient all": (lambda a: da.gradient(a)[1], lambda a: np.gradient(a)[1]),
    "cumsum blelloch": (lambda a: a.cumsum(axis=0, method="blelloch"), lambda a: a.cumsum(axis=0)),
    "fft_wrap": (lambda a: da.fft.fft_wrap(pygpu.fft.fft)(a.rechunk((7, 30)), axis=1), lambda a: np.fft.fft(a, axis=1)),
    "ravel_multi_index": (lambda a: da.ravel_multi_index((xi, xi), (10, 10)), lambda a: np.ravel_multi_index((idx, idx), (10, 10))),
    "average returned": (lambda a: da.average(a, axis=0, returned=True)[1], lambda a: np.average(a, axis=0, returned=True)[1]),
    "empty rechunk": (lambda a: a[:0].rechunk((1, 4)), lambda a: a[:0]),
}


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_operation_keeps_pygpu_chunks(name):
    on_dask, on_numpy = OPERATIONS[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = on_dask(x)
        got = result.compute()
        if on_numpy is not None:
            assert_eq(result, on_numpy(d), check_type=False)
    assert isinstance(result._meta, pygpu.ndarray), type(result._meta)
    assert isinstance(got, pygpu.ndarray), type(got)
