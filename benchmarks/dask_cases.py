"""The Dask group of benchmarks/run.py: Dask arrays whose chunks are NumPy's, pygpu's and (on a
GPU, where importable) CuPy's, on the threaded scheduler and on a two-worker LocalCluster, each
measured in the same run. The data is drawn by each backend's random generator (dask.config
array.backend) and persisted (in the process, or on the workers) before the clock starts: a case
times the expression, not the generator nor a transfer from the client."""
import statistics
import time


def _seconds(fn, repeat):
    fn()   # the first run: imports, worker start-up, compiled kernels
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def _backends(b, cp):
    names = ["numpy", "pygpu"]
    if b.on_gpu and cp is not None:
        names.append("cupy")
    return names


def _persisted(backend, shape, chunks, dtype, seed):
    import dask
    import dask.array as da
    with dask.config.set({"array.backend": backend}):
        x = da.random.default_rng(seed).random(shape, chunks=chunks).astype(dtype)
    return x.persist()


def _chunk_expression(x, scheduler):
    return lambda: (x + x.T - x.mean(axis=0)).sum().compute(scheduler=scheduler)


def _tall_svd(x, scheduler):
    import dask
    import dask.array as da

    def run():
        u, s, v = da.linalg.svd(x)
        return dask.compute(u.sum(), s, v, scheduler=scheduler)
    return run


def bench_dask(b, header, cp):
    try:
        import dask.array  # noqa: F401
        import pygpu.dask  # noqa: F401  (the backend under its name)
    except ImportError:
        print("\n== dask: not installed, skipped")
        return
    header("Dask arrays: NumPy, pygpu (and CuPy) chunks (us per compute)")
    repeat = 2 if b.quick else 5
    n, chunk = (4000, 1000) if b.quick else (8000, 1000)
    label = f"(x + x.T - x.mean(axis=0)).sum() {n}^2 float64, {chunk}^2 chunks"
    target = "target: >= 0.91x numpy (pygpu within 1.1x of Dask with NumPy chunks)"
    res = {name: _seconds(_chunk_expression(_persisted(name, (n, n), chunk, "float64", 0), "threads"), repeat)
           for name in _backends(b, cp)}
    b.add("dask", label + ", threads", "us", res, target)
    rows, cols, rchunk, dtype = (2_000_000, 100, 100_000, "float32") if b.on_gpu else (200_000, 100, 20_000, "float64")
    res = {name: _seconds(_tall_svd(_persisted(name, (rows, cols), (rchunk, cols), dtype, 1), "threads"), repeat)
           for name in _backends(b, cp)}
    b.add("dask", f"svd {rows}x{cols} {dtype}, {rchunk}-row chunks, threads", "us", res,
          "target: >= 0.91x cupy (GPU)" if b.on_gpu else "")
    try:
        import distributed
    except ImportError:
        return
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl, \
            distributed.Client(cl) as client:
        client.run(lambda: __import__("pygpu.dask"))
        res = {}
        for name in _backends(b, cp):
            x = _persisted(name, (n, n), chunk, "float64", 0)   # on the workers (the client is the default)
            distributed.wait(x)
            res[name] = _seconds(_chunk_expression(x, client.get), repeat)
            del x
        b.add("dask", label + ", LocalCluster 2 workers", "us", res, target)
