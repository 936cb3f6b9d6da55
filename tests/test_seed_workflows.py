"""The seeds' NumPy-style workflows, written once against an array module `xp` and run with NumPy
and with pygpu on every device: the same code, the same answers (issue 7's "k-means runs
unchanged with xp = pygpu")."""
import numpy as np

import pygpu


def kmeans(xp, x, centers, iterations):
    """Lloyd's k-means as the seeds write it: distances by broadcasting, argmin, masked means."""
    k = centers.shape[0]
    labels = None
    for _ in range(iterations):
        d = ((x[:, None] - centers) ** 2).sum(axis=2)
        labels = xp.argmin(d, axis=1)
        centers = xp.stack([x[labels == j].mean(axis=0) for j in range(k)])
    return labels, centers


def blobs(n_per, k, dims, seed):
    rng = np.random.default_rng(seed)
    means = rng.uniform(-20, 20, size=(k, dims))
    x = np.concatenate([m + rng.standard_normal((n_per, dims)) for m in means])
    return x[rng.permutation(len(x))], means


def test_kmeans_runs_unchanged(device):
    x, _ = blobs(200, 4, 3, seed=7)
    start = x[[0, 1, 2, 3]]
    labels_np, centers_np = kmeans(np, x, start, 6)
    labels, centers = kmeans(pygpu, pygpu.asarray(x, device=device), pygpu.asarray(start, device=device), 6)
    assert isinstance(labels, pygpu.ndarray) and labels.device == device
    np.testing.assert_array_equal(labels.get(), labels_np)
    np.testing.assert_allclose(centers.get(), centers_np, rtol=1e-12, atol=1e-12)


def test_kmeans_finds_the_blobs(device):
    x, means = blobs(300, 3, 2, seed=3)
    rng = np.random.default_rng(0)
    start = x[rng.choice(len(x), 3, replace=False)]
    _, centers = kmeans(pygpu, pygpu.asarray(x, device=device), pygpu.asarray(start, device=device), 20)
    found = centers.get()
    # every true mean has a found center within a few standard errors
    nearest = np.min(np.linalg.norm(found[None, :, :] - means[:, None, :], axis=2), axis=1)
    assert np.all(nearest < 0.5), nearest


def test_dask_chunk_expression(device):
    # the Dask seed's `a = x + x.T - x.mean(axis=0)` on one chunk
    x = np.random.default_rng(1).standard_normal((64, 64)).astype(np.float32)
    d = pygpu.asarray(x, device=device)
    a = d + d.T - d.mean(axis=0)
    np.testing.assert_allclose(a.get(), x + x.T - x.mean(axis=0), rtol=1e-5, atol=1e-5)


def test_batched_matvec_by_stack(device):
    # the JAX seed's batch of matrix-vector products, stacked
    rng = np.random.default_rng(2)
    m, vs = rng.standard_normal((50, 30)), rng.standard_normal((10, 30))
    md, vd = pygpu.asarray(m, device=device), pygpu.asarray(vs, device=device)
    got = pygpu.stack([md @ v for v in vd])
    np.testing.assert_allclose(got.get(), np.stack([m @ v for v in vs]), rtol=1e-12, atol=1e-12)
