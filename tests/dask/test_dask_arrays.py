"""pygpu arrays as Dask chunks (pygpu/dask.py): Dask's array operations keep pygpu chunks and
pygpu metas, without a call to register anything, and give NumPy's results; the `pygpu` array
backend (dask.config.set({"array.backend": "pygpu"})). On the CPU device here; the same code on
a GPU's device."""
import numpy as np
import pytest

da = pytest.importorskip("dask.array")
dask = pytest.importorskip("dask")

import pygpu  # noqa: E402


def check(x, expected, rtol=1e-12, atol=1e-12):
    """x: a Dask array of pygpu chunks with a pygpu meta; its value equals expected."""
    assert isinstance(x._meta, pygpu.ndarray), type(x._meta)
    got = x.compute()
    assert isinstance(got, pygpu.ndarray), type(got)
    np.testing.assert_allclose(pygpu.asnumpy(got), expected, rtol=rtol, atol=atol)


@pytest.fixture
def data():
    return np.random.default_rng(0).standard_normal((40, 40))


def test_chunks_stay_pygpu_in_expressions(data):
    p = pygpu.asarray(data)
    x = da.from_array(p, chunks=(10, 20))
    check(x + x.T - x.mean(axis=0), data + data.T - data.mean(axis=0))
    check(x + p, data + data)                       # a Dask array and a pygpu array
    check(np.sin(x) * 2 + 1, np.sin(data) * 2 + 1)
    check(x @ x, data @ data, rtol=1e-10)
    check(da.tensordot(x, x, axes=1), np.tensordot(data, data, axes=1), rtol=1e-10)
    check(da.einsum("ij,jk->ik", x, x), np.einsum("ij,jk->ik", data, data), rtol=1e-10)
    check(da.concatenate([x, x], axis=1).rechunk(15), np.concatenate([data, data], axis=1))
    check(da.stack([x, x]), np.stack([data, data]))
    check(x[::3, 5:17], data[::3, 5:17])
    check(x[x[:, 0] > 0], data[data[:, 0] > 0])
    check(x.cumsum(axis=1), data.cumsum(axis=1), rtol=1e-10)


def test_reductions(data):
    x = da.from_array(pygpu.asarray(data), chunks=(10, 20))
    for name in ("sum", "mean", "std", "var", "max", "min", "prod"):
        check(getattr(x, name)(axis=0), getattr(data, name)(axis=0), rtol=1e-9)
        check(getattr(x, name)(), getattr(data, name)(), rtol=1e-9)
    for name in ("argmin", "argmax"):
        check(getattr(x, name)(), getattr(data, name)())
        check(getattr(x, name)(axis=1), getattr(data, name)(axis=1))
    check(da.nansum(x, axis=1), np.nansum(data, axis=1), rtol=1e-10)
    # Dask merges per-chunk percentiles: the same approximation as with NumPy chunks
    with_numpy = da.percentile(da.from_array(data, chunks=(10, 20)).ravel(), [10, 50, 90]).compute()
    check(da.percentile(x.ravel(), [10, 50, 90]), with_numpy, rtol=1e-10)


def test_linear_algebra_and_overlap(data):
    tall = np.random.default_rng(1).standard_normal((400, 20))
    x = da.from_array(pygpu.asarray(tall), chunks=(100, 20))
    q, r = da.linalg.qr(x)
    check(q @ r, tall, rtol=1e-9, atol=1e-9)
    u, s, v = da.linalg.svd(x)
    check(s, np.linalg.svd(tall, compute_uv=False), rtol=1e-9)
    y = da.from_array(pygpu.asarray(data), chunks=(10, 20))
    smooth = y.map_overlap(lambda b: (b[:-2, 1:-1] + b[2:, 1:-1] + b[1:-1, :-2] + b[1:-1, 2:]) / 4, depth=1,
                           boundary="none", trim=False, dtype=y.dtype, meta=pygpu.empty((0, 0)))
    assert isinstance(smooth.compute(), pygpu.ndarray)


def blocks_are_pygpu(x):
    """Every block of x computes to a pygpu array (not only the assembled result)."""
    return all(isinstance(block.compute(), pygpu.ndarray) for block in x.to_delayed().ravel())


def test_blocked_linear_algebra_stays_on_pygpu():
    """lu, solve (LU and Cholesky), inv, cholesky, solve_triangular and lstsq: Dask calls SciPy's
    lu and solve_triangular per block, which pygpu.dask points at pygpu.linalg's for pygpu
    blocks (on a GPU, SciPy would copy every block to the host, or fail)."""
    pytest.importorskip("scipy.linalg")
    rng = np.random.default_rng(5)
    a = rng.standard_normal((60, 60))
    spd = a @ a.T + 60 * np.eye(60)
    b = rng.standard_normal((60, 3))
    x = da.from_array(pygpu.asarray(a), chunks=20)
    s = da.from_array(pygpu.asarray(spd), chunks=20)
    y = da.from_array(pygpu.asarray(b), chunks=20)
    p, lower, upper = da.linalg.lu(x)
    for factor in (p, lower, upper):
        assert isinstance(factor._meta, pygpu.ndarray) and blocks_are_pygpu(factor)
    check(p @ lower @ upper, a, rtol=1e-9, atol=1e-9)
    results = [(da.linalg.solve(x, y), np.linalg.solve(a, b)),
               (da.linalg.solve(s, y, assume_a="pos"), np.linalg.solve(spd, b)),
               (da.linalg.inv(x), np.linalg.inv(a)),
               (da.linalg.cholesky(s, lower=True), np.linalg.cholesky(spd)),
               (da.linalg.solve_triangular(da.triu(x), y), np.linalg.solve(np.triu(a), b)),
               (da.linalg.lstsq(da.from_array(pygpu.asarray(a[:, :10]), chunks=(20, 10)), y)[0],
                np.linalg.lstsq(a[:, :10], b, rcond=None)[0])]
    for result, want in results:
        check(result, want, rtol=1e-8, atol=1e-9)
        assert blocks_are_pygpu(result)
    # NumPy blocks still go to SciPy
    numpy_lu = da.linalg.lu(da.from_array(a, chunks=20))[1]
    assert isinstance(numpy_lu._meta, np.ndarray) and isinstance(numpy_lu.compute(), np.ndarray)


def test_kmeans_on_a_dask_array():
    """The seeds' k-means (fancy indexing, argmin, masked means) over a Dask array of pygpu chunks,
    step for step against NumPy."""
    rng = np.random.default_rng(6)
    points = np.concatenate([rng.normal(c, 0.3, (200, 2)) for c in ((0, 0), (3, 3), (0, 4))])
    x = da.from_array(pygpu.asarray(points), chunks=(150, 2))
    centers, want = x[:3].compute(), points[:3].copy()
    for _ in range(5):
        labels = ((x[:, None, :] - centers[None, :, :]) ** 2).sum(axis=-1).argmin(axis=1)
        centers = pygpu.stack(da.compute(*[x[labels == k].mean(axis=0) for k in range(3)]))
        want_labels = ((points[:, None, :] - want[None, :, :]) ** 2).sum(axis=-1).argmin(axis=1)
        want = np.stack([points[want_labels == k].mean(axis=0) for k in range(3)])
        assert isinstance(labels._meta, pygpu.ndarray)
        np.testing.assert_allclose(pygpu.asnumpy(centers), want, rtol=1e-12)


def test_histogram_keeps_pygpu_metas(data):
    x = da.from_array(pygpu.asarray(data.ravel()), chunks=400)
    counts, bins = da.histogram(x, bins=12, range=(-3, 3))
    want, want_bins = np.histogram(data.ravel(), bins=12, range=(-3, 3))
    check(counts, want)
    np.testing.assert_allclose(np.asarray(bins), want_bins)
    counts, _ = da.histogram(da.from_array(data.ravel(), chunks=400), bins=12, range=(-3, 3))
    assert isinstance(counts._meta, np.ndarray)       # NumPy chunks keep NumPy's


def test_histogram2d_and_histogramdd_keep_pygpu_chunks(data):
    a, b = data[:, 0].copy(), data[:, 1].copy()
    x, y = da.from_array(pygpu.asarray(a), chunks=100), da.from_array(pygpu.asarray(b), chunks=100)
    counts, _, _ = da.histogram2d(x, y, bins=5, range=((-3, 3), (-3, 3)))
    check(counts, np.histogram2d(a, b, bins=5, range=((-3, 3), (-3, 3)))[0])
    counts, _ = da.histogramdd((x, y), bins=(4, 3), range=((-3, 3), (-3, 3)))
    check(counts, np.histogramdd((a, b), bins=(4, 3), range=((-3, 3), (-3, 3)))[0])
    counts, _ = da.histogramdd(da.stack([x, y], axis=1).rechunk((100, 2)), bins=4, range=((-3, 3), (-3, 3)))
    check(counts, np.histogramdd(np.stack([a, b], 1), bins=4, range=((-3, 3), (-3, 3)))[0])
    counts, _, _ = da.histogram2d(da.from_array(a, chunks=100), da.from_array(b, chunks=100), bins=5,
                                  range=((-3, 3), (-3, 3)))
    assert isinstance(counts._meta, np.ndarray)       # NumPy chunks keep NumPy's


def test_backend_and_to_backend():
    with dask.config.set({"array.backend": "pygpu"}):
        check(da.ones((6, 6), chunks=3), np.ones((6, 6)))
        check(da.zeros((5,), chunks=2), np.zeros(5))
        check(da.full((3, 4), 7.5, chunks=2), np.full((3, 4), 7.5))
        check(da.arange(10, chunks=3), np.arange(10))
        check(da.zeros((4,), chunks=2, name="named-zeros"), np.zeros(4))   # Dask's own name= (linalg passes it)
        r = da.random.default_rng(42).random((50, 50), chunks=25)
        assert isinstance(r._meta, pygpu.ndarray)
        values = pygpu.asnumpy(r.compute())
        assert values.shape == (50, 50) and 0 <= values.min() and values.max() < 1
        n = da.random.RandomState(3).normal(size=(30,), chunks=10)
        assert isinstance(n.compute(), pygpu.ndarray)
    x = da.from_array(np.arange(12.0).reshape(3, 4), chunks=2)
    moved = x.to_backend("pygpu")
    check(moved, np.arange(12.0).reshape(3, 4))
    back = moved.to_backend("numpy")
    assert isinstance(back._meta, np.ndarray) and isinstance(back.compute(), np.ndarray)


def test_sizeof_counts_the_data():
    from dask.sizeof import sizeof
    assert sizeof(pygpu.zeros(10 ** 5)) == 8 * 10 ** 5
    assert dask.base.tokenize(pygpu.zeros(3)) != dask.base.tokenize(pygpu.zeros(3))   # no data read


def test_registration_needs_no_user_action(tmp_path):
    import subprocess
    import sys
    import os
    code = ("import pygpu, numpy as np\nimport dask.array as da\n"
            "x = da.from_array(np.ones(4), chunks=2) + pygpu.ones(4)\n"
            "print(type(x.compute()).__name__)\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(pygpu.__file__)))
    # the checkout first, then the inherited path (Dask may be installed there, not in site-packages)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p))
    for first, second in (("pygpu", "dask.array"), ("dask.array", "pygpu")):
        script = f"import {first}\nimport {second}\n" + code
        out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, timeout=120)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "ndarray", (first, out.stdout)


def test_distributed_serialization_and_a_local_cluster():
    distributed = pytest.importorskip("distributed")
    from distributed.protocol import deserialize, serialize
    x = pygpu.arange(12.0).reshape(3, 4)
    for v in (x, x.T, x[:, ::2], pygpu.zeros((0, 3)), pygpu.asarray(np.float32(3.0))):
        header, frames = serialize(v, serializers=("dask",))
        assert header["serializer"] == "dask" and len(frames) == 1
        back = deserialize(header, frames)
        assert isinstance(back, pygpu.ndarray)
        np.testing.assert_array_equal(pygpu.asnumpy(back), pygpu.asnumpy(v))
    data = np.random.default_rng(2).standard_normal((400, 30))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        y = da.from_array(pygpu.asarray(data), chunks=(100, 30))
        total = client.compute((y + 1).sum(axis=0)).result()
        assert isinstance(total, pygpu.ndarray)
        np.testing.assert_allclose(pygpu.asnumpy(total), (data + 1).sum(axis=0), rtol=1e-12)
        s = client.compute(da.linalg.svd(y)[1]).result()
        np.testing.assert_allclose(pygpu.asnumpy(s), np.linalg.svd(data, compute_uv=False), rtol=1e-9)
        # the workers run in this environment: their default device is this process's (cuda:0 on a
        # GPU machine), where this process's array, and any array sent to them, lands
        on_worker = client.submit(lambda a: type(a).__name__ + ":" + str(a.device), pygpu.asarray(data[:4])).result()
        assert on_worker == "ndarray:" + str(pygpu.default_device())
        smooth = y.map_overlap(lambda b: (b[:-2] + b[1:-1] + b[2:]) / 3, depth=(1, 0), boundary="none", trim=False,
                               dtype=y.dtype, meta=pygpu.empty((0, 0)))
        got = client.compute(smooth).result()
        assert isinstance(got, pygpu.ndarray)
        np.testing.assert_allclose(pygpu.asnumpy(got), (data[:-2] + data[1:-1] + data[2:]) / 3, rtol=1e-12)


def _worker_view():
    import os
    return os.environ.get("CUDA_VISIBLE_DEVICES"), os.environ.get("PYGPU_DEVICE"), pygpu.default_device().kind


def _held_devices(dask_worker):
    """This worker's default device and the devices of the pygpu arrays it holds (in its data,
    through the dicts and tuples of Dask's reductions), for client.run."""
    seen = set()

    def walk(v):
        if isinstance(v, pygpu.ndarray):
            seen.add(str(v.device))
        elif isinstance(v, dict):
            for w in v.values():
                walk(w)
        elif isinstance(v, (list, tuple)):
            for w in v:
                walk(w)
    for value in list(dask_worker.data.values()):
        walk(value)
    return str(pygpu.default_device()), sorted(seen)


def test_mixed_cluster_one_worker_per_gpu_and_a_cpu_worker():
    """pygpu.dask.LocalCluster: a worker per GPU (CUDA_VISIBLE_DEVICES: its GPU is its cuda:0; on
    this machine without one the worker falls back to the CPU device) beside a CPU worker
    (PYGPU_DEVICE=cpu). A pygpu array reaching a worker (from another worker, or embedded in the
    graph as da.from_array's array is) lands on that worker's default device, so every array a
    task sees there is on one device. The chunks are placed on both workers (persist with
    workers=), whatever the scheduler would choose. Without a GPU both workers are CPU workers and
    this checks little of that: test_mixed_cluster_on_the_mock_driver runs the same with a
    (fake) GPU worker."""
    distributed = pytest.importorskip("distributed")
    import pygpu.dask
    with pytest.raises(ValueError, match="needs a GPU"):
        pygpu.dask.LocalCluster(devices=[], cpu_workers=0)
    gpu_kind = "cuda" if pygpu._core._cuda_device_count()[0] > 0 else "cpu"
    with pygpu.dask.LocalCluster(devices=["0"], cpu_workers=1, dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        client.wait_for_workers(2)
        views = client.run(_worker_view)
        by_name = {info["name"]: addr for addr, info in client.scheduler_info()["workers"].items()}
        gpu, cpu = by_name["gpu-0"], by_name["cpu-0"]
        assert views[gpu] == ("0", None, gpu_kind)
        assert views[cpu] == (None, "cpu", "cpu")
        assert client.scheduler_info()["workers"][gpu]["resources"] == {"GPU": 1}
        made = client.submit(lambda n: pygpu.arange(float(n)), 10, workers=[gpu])
        used = client.submit(lambda a: (a.device.kind, float(a.sum())), made, workers=[cpu])
        assert used.result() == ("cpu", 45.0)
        made = client.submit(lambda n: pygpu.arange(float(n)), 10, workers=[cpu])
        used = client.submit(lambda a: (a.device.kind, float(a.sum())), made, workers=[gpu])
        assert used.result() == (gpu_kind, 45.0)
        data = np.random.default_rng(3).standard_normal((300, 20))
        # arrays that travel in the graph (pickled, as da.from_array's do) to the other kind of worker:
        # a CPU array to the GPU worker, a GPU array (where there is a GPU) to the CPU worker
        gpu_device = "cuda:0" if gpu_kind == "cuda" else "cpu"
        # (the metas on the client's device: the client concatenates them)
        top = client.persist(da.from_array(pygpu.asarray(data[:150], device="cpu"), chunks=(50, 20),
                                           meta=pygpu.empty((0, 0))), workers=[gpu])
        bottom = client.persist(da.from_array(pygpu.asarray(data[150:], device=gpu_device), chunks=(50, 20),
                                              meta=pygpu.empty((0, 0))), workers=[cpu])
        distributed.wait([top, bottom])
        held = client.run(_held_devices)
        assert held[gpu][1] and held[cpu][1], held                # chunks on both workers
        for here, kinds in held.values():
            assert kinds == [here], held
        xs = da.concatenate([top, bottom])
        centred = client.persist(xs - xs.mean(axis=0))            # combines chunks of both workers
        distributed.wait(centred)
        for here, kinds in client.run(_held_devices).values():
            assert kinds == [here], held
        total = client.compute(centred.std(axis=0)).result()
        assert isinstance(total, pygpu.ndarray)
        np.testing.assert_allclose(pygpu.asnumpy(total), data.std(axis=0), rtol=1e-12)


def test_mixed_cluster_on_the_mock_driver(mock_driver):
    """The mixed cluster where this machine has no GPU: its GPU worker's cuda:0 is the fake CUDA
    driver's (tests/mock_cuda; kernels do nothing there, so devices are checked, not values).
    Arrays made on either device reach the other worker, and da.from_array's arrays (pickled in
    the graph: a cuda:0 one to the CPU worker, a CPU one to the GPU worker), on the receiver's
    default device;
    a reduction over chunks of both workers meets one device in each task."""
    pytest.importorskip("distributed")
    from conftest import run_mock
    if pygpu._core._build_info()["fatbin_bytes"] == 0:
        pytest.skip("this build has no CUDA kernels")
    out = run_mock(mock_driver, """
        import dask.array as da
        import distributed
        import pygpu.dask

        def held(dask_worker):
            seen = set()
            def walk(v):
                if isinstance(v, pygpu.ndarray):
                    seen.add(str(v.device))
                elif isinstance(v, (dict, list, tuple)):
                    for w in (v.values() if isinstance(v, dict) else v):
                        walk(w)
            for value in list(dask_worker.data.values()):
                walk(value)
            return str(pygpu.default_device()), sorted(seen)

        res = {"client": str(pygpu.default_device())}
        with pygpu.dask.LocalCluster(devices=["0"], cpu_workers=1, dashboard_address=None) as cluster, \
                distributed.Client(cluster) as client:
            client.wait_for_workers(2)
            by_name = {info["name"]: addr for addr, info in client.scheduler_info()["workers"].items()}
            gpu, cpu = by_name["gpu-0"], by_name["cpu-0"]
            for src, dst in ((gpu, cpu), (cpu, gpu)):
                made = client.submit(lambda n: pygpu.arange(float(n)), 10, workers=[src], pure=False)
                res[src == gpu and "gpu_to_cpu" or "cpu_to_gpu"] = client.submit(
                    lambda a: str(a.device), made, workers=[dst]).result()
            # arrays pickled in the graph, each to the other kind of worker
            # (the metas on the client's cuda:0: the client concatenates them)
            top = client.persist(da.from_array(pygpu.ones((150, 20), device="cpu"), chunks=(50, 20),
                                               meta=pygpu.empty((0, 0))), workers=[gpu])
            bottom = client.persist(da.from_array(pygpu.ones((150, 20), device="cuda:0"), chunks=(50, 20),
                                                  meta=pygpu.empty((0, 0))), workers=[cpu])
            distributed.wait([top, bottom])
            res["chunks"] = {name: client.run(held)[addr] for name, addr in by_name.items()}
            xs = da.concatenate([top, bottom])
            centred = client.persist(xs - xs.mean(axis=0))
            distributed.wait(centred)
            res["centred"] = {name: client.run(held)[addr] for name, addr in by_name.items()}
            res["std"] = str(client.compute(centred.std(axis=0)).result().device)
        print(json.dumps(res))
    """)
    assert out["client"] == "cuda:0", out
    assert out["gpu_to_cpu"] == "cpu" and out["cpu_to_gpu"] == "cuda:0", out
    for stage in ("chunks", "centred"):
        assert out[stage]["gpu-0"] == ["cuda:0", ["cuda:0"]], out
        assert out[stage]["cpu-0"] == ["cpu", ["cpu"]], out
    assert out["std"] == "cuda:0", out


def test_arrays_land_on_the_receivers_default_device(mock_driver):
    """distributed's deserializers (dask, cuda and pickle) put a pygpu array on the receiving
    process's default device, whatever device it left: a cuda:0 array in a process whose default
    device is the CPU (PYGPU_DEVICE=cpu) and a CPU array in one whose default is cuda:0 (the fake
    driver's); plain pickle keeps the device. Values come back through device copies, which the
    fake driver makes (for C-contiguous arrays; the others' need kernels, which it does not run)."""
    import textwrap
    pytest.importorskip("distributed")
    from conftest import run_mock
    code = """
        import pickle
        import pygpu.dask
        from distributed.protocol import deserialize, serialize
        from distributed.protocol import pickle as dpickle
        host = np.arange(12.0).reshape(3, 4)
        src = pygpu.asarray(host, device=SOURCE)
        res = {"default": str(pygpu.default_device()), "source": str(src.device)}
        for v, want, tag in ((src, host, "c"), (src.T, host.T, "f"), (src[:, ::2], host[:, ::2], "strided")):
            for serializers in (("dask",), ("cuda", "dask")):
                header, frames = serialize(v, serializers=serializers)
                back = deserialize(header, frames)
                res["+".join(serializers) + ":" + tag] = [header["serializer"], str(back.device),
                                                        bool(np.array_equal(pygpu.asnumpy(back), want))]
            buffers = []
            back = dpickle.loads(dpickle.dumps(v, buffer_callback=buffers.append), buffers=buffers)
            res["pickle:" + tag] = ["pickle", str(back.device), bool(np.array_equal(pygpu.asnumpy(back), want))]
        plain = pickle.loads(pickle.dumps(src))
        res["plain"] = str(plain.device)
        print(json.dumps(res))
    """
    if pygpu._core._build_info()["fatbin_bytes"] == 0:
        pytest.skip("this build has no CUDA kernels")
    code = textwrap.dedent(code)
    to_cpu = run_mock(mock_driver, "SOURCE = 'cuda:0'\n" + code, PYGPU_DEVICE="cpu")
    to_cuda = run_mock(mock_driver, "SOURCE = 'cpu'\n" + code)
    assert (to_cpu["default"], to_cpu["source"], to_cpu["plain"]) == ("cpu", "cuda:0", "cuda:0"), to_cpu
    assert (to_cuda["default"], to_cuda["source"], to_cuda["plain"]) == ("cuda:0", "cpu", "cpu"), to_cuda
    for got, here in ((to_cpu, "cpu"), (to_cuda, "cuda:0")):
        for key, value in got.items():
            if ":" in key and key.split(":")[0] in ("dask", "cuda+dask", "pickle"):
                # (the fake driver runs no kernels: only a C-contiguous array's values survive the
                # strided copies; the devices are the point here)
                assert value[1] == here and (value[2] or not key.endswith(":c")), (key, got)
    # a GPU array takes the device frame where cuda is offered; a CPU array the host frame
    assert to_cpu["cuda+dask:c"][0] == "cuda" and to_cuda["cuda+dask:c"][0] == "dask"


def test_cuda_serializer_declines_cpu_arrays():
    """Between GPU workers (UCX's serializers: cuda first) a CPU-device chunk still travels, in
    the dask serializer's host frame."""
    pytest.importorskip("distributed")
    from distributed.protocol import deserialize, serialize
    x = pygpu.arange(6.0, device="cpu").reshape(2, 3)     # (the default device may be a GPU)
    header, frames = serialize(x, serializers=("cuda", "dask", "pickle"))
    assert header["serializer"] == "dask"
    np.testing.assert_array_equal(pygpu.asnumpy(deserialize(header, frames)), np.arange(6.0).reshape(2, 3))


def test_cuda_serializer_on_the_mock_driver(mock_driver):
    """A GPU array is one device frame (a byte view of its memory, no copy) and comes back through
    __cuda_array_interface__, C and Fortran order, on the fake CUDA driver (tests/mock_cuda)."""
    pytest.importorskip("distributed")
    from conftest import run_mock
    if pygpu._core._build_info()["fatbin_bytes"] == 0:
        pytest.skip("this build has no CUDA kernels")
    out = run_mock(mock_driver, """
        import pygpu.dask
        from distributed.protocol import serialize, deserialize
        dev = pygpu.Device("cuda:0")
        host = np.arange(24, dtype=np.float32).reshape(4, 6)
        x = pygpu.asarray(host, device=dev)
        res = []
        for v, want in ((x, host), (x.T, host.T), (x[1:3], host[1:3]), (x[:0], host[:0])):
            header, frames = serialize(v, serializers=("cuda", "dask"))
            frame = frames[0]
            back = deserialize(header, frames)
            res.append({"serializer": header["serializer"], "device": back.device.kind,
                        "frame_on_device": isinstance(frame, pygpu.ndarray) and frame.device.kind == "cuda",
                        "shares": frame.size == 0 or frame.__cuda_array_interface__["data"][0] ==
                                  v.__cuda_array_interface__["data"][0],
                        # (the mock runs no kernels: a Fortran-order result is read as its transpose)
                        "equal": bool(np.array_equal(back.get() if back.flags["C_CONTIGUOUS"] else back.T.get().T,
                                                     want)), "shape": list(back.shape)})
        print(json.dumps(res))
    """)
    for r in out:
        assert r["serializer"] == "cuda" and r["device"] == "cuda" and r["frame_on_device"], r
        assert r["shares"] and r["equal"], r
