"""Benchmark cases of user kernels (RawKernel, and cuda.jit: the same kernels in Python): launch
overhead, the seeds' smooth stencil and the tutorial's shared-memory matmul, and the time to a first
launch (compile, disk cache).
run.py calls these; on a GPU the same CUDA C runs through CuPy's RawKernel, and Numba's cuda.jit
versions run too, where importable. On the CPU the matmul is compared with Numba's CUDA simulator
(NUMBA_ENABLE_CUDASIM=1, in a child process) at the same size."""
import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

import pygpu

HERE = os.path.dirname(os.path.abspath(__file__))

ADD3 = r'''
extern "C" __global__ void add3(const float* x, const float* y, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = x[i] + y[i];
}
'''

SMOOTH = r'''
extern "C" __global__ void smooth(const int* x, int* out, int n, int m) {
    int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
    if (1 <= i && i < n - 1 && 1 <= j && j < m - 1)
        out[i * m + j] = (x[(i-1)*m + j-1] + x[(i-1)*m + j] + x[(i-1)*m + j+1] +
                          x[i*m + j-1]     + x[i*m + j]     + x[i*m + j+1] +
                          x[(i+1)*m + j-1] + x[(i+1)*m + j] + x[(i+1)*m + j+1]) / 9;
}
'''

MATMUL = r'''
#define TPB 16
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int n) {
    __shared__ float sa[TPB][TPB];
    __shared__ float sb[TPB][TPB];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TPB + ty, col = blockIdx.x * TPB + tx;
    float acc = 0;
    for (int t = 0; t < n / TPB; t++) {
        sa[ty][tx] = A[row * n + t * TPB + tx];
        sb[ty][tx] = B[(t * TPB + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TPB; k++) acc += sa[ty][k] * sb[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
'''

# The tutorial's kernel in Numba, for its CUDA simulator (and its GPU when there is one).
NUMBA_MATMUL = textwrap.dedent('''
    import os, sys, time
    import numpy as np
    from numba import cuda, float32
    TPB = 16

    @cuda.jit
    def matmul(A, B, C):
        sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
        sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
        x, y = cuda.grid(2)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        tmp = float32(0.)
        for i in range(cuda.gridDim.x):
            sA[ty, tx] = A[y, tx + i * TPB]
            sB[ty, tx] = B[ty + i * TPB, x]
            cuda.syncthreads()
            for j in range(TPB):
                tmp += sA[ty, j] * sB[j, tx]
            cuda.syncthreads()
        C[y, x] = tmp

    n = int(sys.argv[1])
    A = np.random.random((n, n)).astype(np.float32)
    B = np.random.random((n, n)).astype(np.float32)
    C = np.zeros((n, n), np.float32)
    t = time.perf_counter()
    matmul[(n // TPB, n // TPB), (TPB, TPB)](A, B, C)
    print(time.perf_counter() - t)
''')


def numba_numpy_shim():
    """numba-cuda (0.2x) registers an overload of np.row_stack, which NumPy 2.5 removed, as it
    builds its typing context: without the name every CUDA compile fails. np.vstack is what the
    alias was, so the comparison runs where the GPU machine pairs the two."""
    if "row_stack" not in np.__dict__:
        np.row_stack = np.vstack


def _numba_gpu():
    numba_numpy_shim()
    try:
        from numba import cuda
        return cuda if cuda.is_available() else None
    except Exception:
        return None


def _numba_smooth(nb):
    """The seeds' smooth_gpu stencil as a numba.cuda kernel (the same code pygpu's cuda.jit runs)."""
    @nb.jit
    def smooth_gpu(a, out):
        i, j = nb.grid(2)
        rows, cols = a.shape
        if 1 <= i < rows - 1 and 1 <= j < cols - 1:
            out[i, j] = (a[i - 1, j - 1] + a[i - 1, j] + a[i - 1, j + 1] + a[i, j - 1] + a[i, j] + a[i, j + 1] +
                         a[i + 1, j - 1] + a[i + 1, j] + a[i + 1, j + 1]) // 9
    return smooth_gpu


def bench_launch(b, header, cp):
    header("kernel launch, host time of a cached kernel (us per call)")
    dev = b.device
    k = pygpu.RawKernel(ADD3, "add3")
    x = pygpu.ones(32, dtype=np.float32, device=dev)
    out = pygpu.empty(32, dtype=np.float32, device=dev)
    k[1, 32](x, x, out)
    b.sync and b.sync()
    res = {"pygpu": b.time(lambda: k[1, 32](x, x, out), b.sync)}
    args = (x, x, out)
    cupy_form = b.time(lambda: k(1, 32, args), b.sync)
    nb = _numba_gpu() if b.on_gpu else None
    if "cupy" in b.others():
        ck = cp.RawKernel(ADD3, "add3")
        cx, co = cp.ones(32, dtype=np.float32), cp.empty(32, dtype=np.float32)
        ck((1,), (32,), (cx, cx, co))
        res["cupy"] = b.time(lambda: ck((1,), (32,), (cx, cx, co)), b.others()["cupy"])
    if nb is not None:
        @nb.jit
        def add3(a, c, o):
            i = nb.grid(1)
            o[i] = a[i] + c[i]
        na, no = nb.to_device(np.ones(32, np.float32)), nb.device_array(32, np.float32)
        add3[1, 32](na, na, no)
        res["numba"] = b.time(lambda: add3[1, 32](na, na, no), nb.synchronize)
    b.add("kernels", "k[1, 32](x, y, out), 3 array arguments", "us", res, "pygpu k(grid, block, args): %.2f us"
          % (cupy_form * 1e6))
    sargs = (x, x, out)
    k2 = pygpu.RawKernel(ADD3.replace("add3(const float* x, const float* y, float* out)",
                                      "add3s(const float* x, const float* y, float* out, float a, int n)"), "add3s")
    k2[1, 32](*sargs, 1.5, 32)
    res = {"pygpu": b.time(lambda: k2[1, 32](x, x, out, 1.5, 32), b.sync)}
    b.add("kernels", "k[1, 32](x, y, out, 1.5, 32), + 2 scalars", "us", res)


def bench_stencil(b, header, cp):
    header("the seeds' smooth stencil as CUDA C, int32 (us per call)")
    dev = b.device
    n = 4096 if not b.quick else 2048
    x = np.random.default_rng(0).integers(0, 1000, (n, n), dtype=np.int32)

    def numpy_smooth(a):
        out = a.copy()
        out[1:-1, 1:-1] = (a[:-2, :-2] + a[:-2, 1:-1] + a[:-2, 2:] + a[1:-1, :-2] + a[1:-1, 1:-1] + a[1:-1, 2:] +
                           a[2:, :-2] + a[2:, 1:-1] + a[2:, 2:]) // 9
        return out

    k = pygpu.RawKernel(SMOOTH, "smooth")
    d = pygpu.asarray(x, device=dev)
    o = pygpu.asarray(x, device=dev)
    grid, block = ((n + 15) // 16, (n + 15) // 16), (16, 16)
    k[grid, block](d, o, n, n)
    if not b.on_gpu:
        assert np.array_equal(o.get(), numpy_smooth(x)), "smooth differs from NumPy"
    res = {"pygpu": b.time(lambda: k[grid, block](d, o, n, n), b.sync),
           "numpy": b.np_time(lambda: numpy_smooth(x))}
    if "cupy" in b.others():
        ck = cp.RawKernel(SMOOTH, "smooth")
        cx, co = cp.asarray(x), cp.asarray(x)
        res["cupy"] = b.time(lambda: ck(grid, block, (cx, co, np.int32(n), np.int32(n))), b.others()["cupy"])
    nb = _numba_gpu() if b.on_gpu else None
    if nb is not None:
        smooth_gpu = _numba_smooth(nb)
        na, no = nb.to_device(x), nb.to_device(x)
        smooth_gpu[grid, block](na, no)
        res["numba"] = b.time(lambda: smooth_gpu[grid, block](na, no), nb.synchronize)
    b.add("kernels", f"smooth {n}x{n} int32 (numpy: sliced version)", "us", res)


def _simulator_seconds(n):
    env = dict(os.environ, NUMBA_ENABLE_CUDASIM="1")
    try:
        proc = subprocess.run([sys.executable, "-c", NUMBA_MATMUL, str(n)], env=env, capture_output=True, text=True,
                              timeout=900)
        return float(proc.stdout.strip().splitlines()[-1])
    except Exception:
        return None


def bench_matmul(b, header, cp):
    header("the tutorial's shared-memory matmul as CUDA C, float32 (us per call)")
    dev = b.device
    sizes = [64, 512] if not b.on_gpu else [512, 2048]
    k = pygpu.RawKernel(MATMUL, "matmul")
    for n in sizes:
        rng = np.random.default_rng(1)
        a, c = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
        da, dc, do = pygpu.asarray(a, device=dev), pygpu.asarray(c, device=dev), pygpu.empty((n, n), np.float32,
                                                                                            device=dev)
        grid, block = (n // 16, n // 16), (16, 16)
        k[grid, block](da, dc, do, n)
        if not b.on_gpu:
            assert np.allclose(do.get(), a @ c, rtol=1e-4), "matmul differs from NumPy"
        res = {"pygpu": b.time(lambda: k[grid, block](da, dc, do, n), b.sync),
               "numpy": b.np_time(lambda: a @ c)}
        note = "numpy: a @ b (BLAS)"
        if "cupy" in b.others():
            ck = cp.RawKernel(MATMUL, "matmul")
            ca, cc, co = cp.asarray(a), cp.asarray(c), cp.empty((n, n), np.float32)
            res["cupy"] = b.time(lambda: ck(grid, block, (ca, cc, co, np.int32(n))), b.others()["cupy"])
        if not b.on_gpu and n == sizes[0]:
            sim = _simulator_seconds(n)
            if sim is not None:
                res["numba"] = sim
                note += "; numba: its CUDA simulator, one run"
        b.add("kernels", f"tiled matmul {n}x{n}, 16x16 tiles", "us", res, note)


def bench_first_launch(b, header, cp):
    header("first launch of a new kernel (us): compile, then from the disk cache in a new process")
    dev = b.device
    code = textwrap.dedent('''
        import sys, time, numpy as np
        t0 = time.perf_counter()
        import pygpu
        t1 = time.perf_counter()
        k = pygpu.RawKernel(sys.argv[1], "add3")
        x = pygpu.ones(32, dtype=np.float32, device=sys.argv[2])
        t2 = time.perf_counter()
        k[1, 32](x, x, x)
        pygpu.synchronize(sys.argv[2])
        t3 = time.perf_counter()
        print(t3 - t2)
    ''')
    with tempfile.TemporaryDirectory() as folder:
        env = dict(os.environ, PYGPU_CACHE_DIR=folder, PYTHONPATH=os.path.dirname(HERE))
        src = ADD3 + "// a kernel no cache holds: %d %f\n" % (os.getpid(), time.time())
        times = []
        for _ in range(2):
            proc = subprocess.run([sys.executable, "-c", code, src, str(dev)], env=env, capture_output=True, text=True)
            times.append(float(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else None)
    compiler = "NVRTC" if b.on_gpu else "the host C++ compiler"
    b.add("kernels", f"first launch: {compiler}", "us", {"pygpu": times[0]})
    b.add("kernels", "first launch: from the disk cache, new process", "us", {"pygpu": times[1]})


# ------------------------------------------------------------------ the same kernels with cuda.jit

JIT_KERNELS = textwrap.dedent('''
    import numpy as np
    from pygpu import cuda
    TPB = 16

    @cuda.jit
    def add3(x, y, out):
        i = cuda.grid(1)
        out[i] = x[i] + y[i]

    @cuda.jit
    def smooth_gpu(x, out):
        i, j = cuda.grid(2)
        n, m = x.shape
        if 1 <= i < n - 1 and 1 <= j < m - 1:
            out[i, j] = (x[i-1, j-1] + x[i-1, j] + x[i-1, j+1] +
                         x[i  , j-1] + x[i  , j] + x[i  , j+1] +
                         x[i+1, j-1] + x[i+1, j] + x[i+1, j+1]) // 9

    @cuda.jit
    def matmul(A, B, C):
        sA = cuda.shared.array(shape=(TPB, TPB), dtype=np.float32)
        sB = cuda.shared.array(shape=(TPB, TPB), dtype=np.float32)
        x, y = cuda.grid(2)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        tmp = np.float32(0.)
        for i in range(cuda.gridDim.x):
            sA[ty, tx] = A[y, tx + i * TPB]
            sB[ty, tx] = B[ty + i * TPB, x]
            cuda.syncthreads()
            for j in range(TPB):
                tmp += sA[ty, j] * sB[j, tx]
            cuda.syncthreads()
        C[y, x] = tmp
''')


def _jit_module():
    """The cuda.jit kernels above, from a file (cuda.jit reads their source)."""
    import importlib.util
    folder = tempfile.mkdtemp(prefix="pygpu-bench-")
    path = os.path.join(folder, "jit_kernels.py")
    with open(path, "w") as f:
        f.write(JIT_KERNELS)
    spec = importlib.util.spec_from_file_location("jit_kernels", path)
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m


def bench_jit(b, header, cp):
    header("cuda.jit kernels: launch host time, the seeds' stencil, the tutorial's matmul (us per call)")
    dev = b.device
    m = _jit_module()
    x = pygpu.ones(32, dtype=np.float32, device=dev)
    out = pygpu.empty(32, dtype=np.float32, device=dev)
    m.add3[1, 32](x, x, out)
    b.sync and b.sync()
    res = {"pygpu": b.time(lambda: m.add3[1, 32](x, x, out), b.sync)}
    nb = _numba_gpu() if b.on_gpu else None
    if nb is not None:
        @nb.jit
        def add3(a, c, o):
            i = nb.grid(1)
            o[i] = a[i] + c[i]
        na, no = nb.to_device(np.ones(32, np.float32)), nb.device_array(32, np.float32)
        add3[1, 32](na, na, no)
        res["numba"] = b.time(lambda: add3[1, 32](na, na, no), nb.synchronize)
    if "cupy" in b.others():
        ck = cp.RawKernel(ADD3, "add3")
        cx, co = cp.ones(32, dtype=np.float32), cp.empty(32, dtype=np.float32)
        res["cupy"] = b.time(lambda: ck((1,), (32,), (cx, cx, co)), b.others()["cupy"])
    b.add("kernels", "cuda.jit k[1, 32](x, y, out), 3 array arguments", "us", res,
          "cupy: its RawKernel of the same kernel")

    n = 4096 if not b.quick else 2048
    a = np.random.default_rng(0).integers(0, 1000, (n, n), dtype=np.int32)
    d, o = pygpu.asarray(a, device=dev), pygpu.asarray(a, device=dev)
    grid, block = ((n + 15) // 16, (n + 15) // 16), (16, 16)
    m.smooth_gpu[grid, block](d, o)
    b.sync and b.sync()
    res = {"pygpu": b.time(lambda: m.smooth_gpu[grid, block](d, o), b.sync)}
    if not b.on_gpu:
        def numpy_smooth(v):
            r = v.copy()
            r[1:-1, 1:-1] = (v[:-2, :-2] + v[:-2, 1:-1] + v[:-2, 2:] + v[1:-1, :-2] + v[1:-1, 1:-1] + v[1:-1, 2:] +
                             v[2:, :-2] + v[2:, 1:-1] + v[2:, 2:]) // 9
            return r
        assert np.array_equal(o.get(), numpy_smooth(a)), "cuda.jit smooth differs from NumPy"
        res["numpy"] = b.np_time(lambda: numpy_smooth(a))
    raw = pygpu.RawKernel(SMOOTH, "smooth")
    raw[grid, block](d, o, n, n)
    note = "pygpu RawKernel (CUDA C): %.0f us" % (b.time(lambda: raw[grid, block](d, o, n, n), b.sync) * 1e6)
    if nb is not None:
        smooth_nb = _numba_smooth(nb)
        na, no = nb.to_device(a), nb.to_device(a)
        smooth_nb[grid, block](na, no)
        res["numba"] = b.time(lambda: smooth_nb[grid, block](na, no), nb.synchronize)
    b.add("kernels", f"cuda.jit smooth {n}x{n} int32 (numpy: sliced version)", "us", res, note)

    # Numba's simulator runs Python per thread: n^3 work, about an hour at 512 on a small machine, so it
    # runs at 128 (64 with --quick) and its 512 figure is that time scaled by (512 / 128)^3
    sim_n = 64 if b.quick else 128
    sim = _simulator_seconds(sim_n) if not b.on_gpu and not os.environ.get("PYGPU_BENCH_NO_SIM") else None
    sizes = [sim_n, 512] if not b.on_gpu else [512, 2048]
    for n in sizes:
        rng = np.random.default_rng(1)
        A, B = rng.random((n, n), dtype=np.float32), rng.random((n, n), dtype=np.float32)
        da, db, dc = (pygpu.asarray(A, device=dev), pygpu.asarray(B, device=dev),
                      pygpu.empty((n, n), np.float32, device=dev))
        grid, block = (n // 16, n // 16), (16, 16)
        m.matmul[grid, block](da, db, dc)
        if not b.on_gpu:
            assert np.allclose(dc.get(), A @ B, rtol=1e-4), "cuda.jit matmul differs from NumPy"
        res = {"pygpu": b.time(lambda: m.matmul[grid, block](da, db, dc), b.sync)}
        raw = pygpu.RawKernel(MATMUL, "matmul")
        raw[grid, block](da, db, dc, n)
        note = "pygpu RawKernel (CUDA C): %.0f us" % (b.time(lambda: raw[grid, block](da, db, dc, n), b.sync) * 1e6)
        if sim is not None:
            res["numba"] = sim * (n / sim_n) ** 3
            note += "; numba: its CUDA simulator, one run" + ("" if n == sim_n else " at %d, scaled by (%d/%d)^3"
                                                              % (sim_n, n, sim_n))
        b.add("kernels", f"cuda.jit tiled matmul {n}x{n}, 16x16 tiles", "us", res, note)


_NJIT = textwrap.dedent('''
    import sys, time
    t0 = time.perf_counter()
    import numba, numpy as np
    @numba.njit
    def add3(x, y, out):
        for i in range(x.shape[0]):
            out[i] = x[i] + y[i]
    x = np.ones(32, np.float32)
    t1 = time.perf_counter()
    add3(x, x, x)
    print(time.perf_counter() - t1)
''')


def bench_jit_first_launch(b, header, cp):
    header("first launch of a new cuda.jit kernel (us): compile, then from the disk cache in a new process")
    dev = b.device
    code = textwrap.dedent('''
        import importlib.util, sys, time, numpy as np
        import pygpu
        spec = importlib.util.spec_from_file_location("k", sys.argv[1])
        m = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(m)
        x = pygpu.ones(32, dtype=np.float32, device=sys.argv[2])
        pygpu.synchronize(sys.argv[2])
        t = time.perf_counter()
        m.add3[1, 32](x, x, x)
        pygpu.synchronize(sys.argv[2])
        print(time.perf_counter() - t)
    ''')
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "fresh_kernel.py")
        with open(path, "w") as f:
            f.write(JIT_KERNELS + "\n# a kernel no cache holds: %d %f\n" % (os.getpid(), time.time()))
        env = dict(os.environ, PYGPU_CACHE_DIR=folder, PYTHONPATH=os.path.dirname(HERE))
        times = []
        for _ in range(2):
            proc = subprocess.run([sys.executable, "-c", code, path, str(dev)], env=env, capture_output=True, text=True)
            times.append(float(proc.stdout.strip().splitlines()[-1]) if proc.returncode == 0 else None)
    res = {"pygpu": times[0]}
    note = ""
    try:
        proc = subprocess.run([sys.executable, "-c", _NJIT], capture_output=True, text=True, timeout=300)
        if proc.returncode == 0:
            res["numba"] = float(proc.stdout.strip().splitlines()[-1])
            note = "numba: its CPU @njit compile of the same loop"
    except Exception:
        pass
    compiler = "NVRTC" if b.on_gpu else "the host C++ compiler"
    b.add("kernels", f"cuda.jit first launch: {compiler}", "us", res, note)
    b.add("kernels", "cuda.jit first launch: from the disk cache, new process", "us", {"pygpu": times[1]})


CASES = [("launch", bench_launch), ("stencil", bench_stencil), ("matmul", bench_matmul), ("first", bench_first_launch),
         ("jit", bench_jit), ("jit-first", bench_jit_first_launch)]
