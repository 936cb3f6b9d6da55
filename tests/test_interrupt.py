"""Ctrl-C stops user code that runs forever on the CPU device (issue 16, item 13): a cuda.jit or
RawKernel kernel spinning in a loop (with and without barriers) and a vectorize or reduce function
whose loop never ends raise KeyboardInterrupt shortly after SIGINT, and the process goes on: the
same functions run again to completion, SIGINT's handler is Python's again, and a SIGINT that the
program ignores does not stop a kernel. (The GPU side, waits that poll, is in
test_cuda_host_rules.py.) Each case runs in a child interpreter that signals itself."""
import json
import os
import subprocess
import sys
import textwrap

import pygpu
from conftest import child_pythonpath

SPIN_SOURCE = textwrap.dedent('''
    from pygpu import cuda

    @cuda.jit
    def spin(x):
        i = cuda.grid(1)
        while x[0] == 0.0:
            pass
        if i < x.size:
            x[i] += 1.0

    def count_up(x, n):
        s = 0.0
        while s < n:
            s = s + x
        return s

    def stubborn(a, b):
        while b > a - 1.0:
            b = b + 0.0
        return a + b
''')

CHILD = "SPIN_SOURCE = %r\n" % SPIN_SOURCE + textwrap.dedent(r'''
    import json, os, signal, subprocess, sys, threading, time
    import numpy as np
    import pygpu
    from pygpu import cuda

    cpu = pygpu.Device("cpu")
    res = {}

    # a process started in the background by a non-interactive shell (as a CI harness may start
    # the suite) inherits SIGINT ignored, and Python then leaves it ignored: this test is about
    # an interactive process, whose Ctrl-C raises KeyboardInterrupt
    signal.signal(signal.SIGINT, signal.default_int_handler)

    def ctrl_c(after):
        # from another process, as a terminal's or Jupyter's interrupt comes: whatever holds the GIL
        return subprocess.Popen(["/bin/sh", "-c", "sleep %s; kill -INT %d" % (after, os.getpid())])

    def interrupted(name, fn, after=0.3):
        killer = ctrl_c(after)
        t0 = time.perf_counter()
        try:
            fn()
            res[name] = "finished"
        except KeyboardInterrupt:
            res[name] = round(time.perf_counter() - t0, 2)
        killer.kill()
        killer.wait()

    RAW = pygpu.RawModule(code=r"""
    extern "C" __global__ void spin_while(double* x, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        while (x[0] == 0.0) { }
        if (i < n) x[i] += 1.0;
    }
    extern "C" __global__ void spin_for(double* x, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        for (;;) { if (x[0] != 0.0) break; }
        if (i < n) x[i] += 1.0;
    }
    extern "C" __global__ void spin_do(double* x, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        do { } while (x[0] == 0.0);
        if (i < n) x[i] += 1.0;
    }
    extern "C" __global__ void wait_flag(volatile double* x, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        while (x[0] == 0.0) { }   /* volatile: sees the host thread's write */
        if (i < n) x[i] += 1.0;
    }
    extern "C" __global__ void spin_barrier(double* x, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        while (x[0] == 0.0) { __syncthreads(); }
        if (i < n) x[i] += 1.0;
    }
    """)

    with cpu:
        for name in ("spin_while", "spin_for", "spin_do", "spin_barrier"):
            k = RAW.get_function(name)
            x = pygpu.zeros(1000)
            interrupted(name, lambda: k((8,), (128,), (x, np.int32(1000))))
            # the same kernel completes once its condition holds: the flag is down again
            x = pygpu.ones(1000)
            k((8,), (128,), (x, np.int32(1000)))
            res[name + " again"] = float(x.sum())

        # vectorize, reduce and cuda.jit read the Python source of what they compile: a file
        with open(sys.argv[1], "w") as f:
            f.write(SPIN_SOURCE)
        sys.path.insert(0, os.path.dirname(sys.argv[1]))
        from spin_kernel import spin, count_up, stubborn
        x = pygpu.zeros(4096)
        interrupted("cuda.jit", lambda: spin[32, 128](x))
        x = pygpu.ones(4096)
        spin[32, 128](x)
        res["cuda.jit again"] = float(x.sum())

        vec = pygpu.vectorize(["float64(float64, float64)"])(count_up)
        big = pygpu.ones(100_000)
        interrupted("vectorize", lambda: vec(big * 0.0, 1.0))        # x = 0: never reaches n
        res["vectorize again"] = float(vec(big, 3.0).sum())

        red = pygpu.reduce(stubborn)
        interrupted("reduce", lambda: red(pygpu.ones(10_000)))

        # an ignored SIGINT stops nothing
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        x = pygpu.zeros(1000)
        killer = ctrl_c(0.2)
        k = RAW.get_function("wait_flag")
        def late_write():
            time.sleep(0.5)
            x[0] = 1.0     # the spinning kernel reads it (CPU memory is shared)
        writer = threading.Thread(target=late_write)
        writer.start()
        k((8,), (128,), (x, np.int32(1000)))
        writer.join()
        killer.wait()
        res["ignored"] = float(x.sum())
        signal.signal(signal.SIGINT, signal.default_int_handler)
    res["handler"] = signal.getsignal(signal.SIGINT) is signal.default_int_handler
    try:   # and Ctrl-C outside a launch is Python's as ever
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(1)
        res["plain"] = "not raised"
    except KeyboardInterrupt:
        res["plain"] = "raised"
    print(json.dumps(res))
''')


def test_ctrl_c_stops_user_code_on_the_cpu(tmp_path):
    env = dict(os.environ, PYTHONPATH=child_pythonpath(), PYGPU_CACHE_DIR=str(tmp_path / "cache"))
    proc = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / "spin_kernel.py")], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    for name in ("spin_while", "spin_for", "spin_do", "spin_barrier", "cuda.jit", "vectorize", "reduce"):
        assert res[name] != "finished", (name, res)
        assert res[name] < 3.0, (name, res)   # SIGINT came at 0.3 s
    for name in ("spin_while", "spin_for", "spin_do", "spin_barrier"):
        assert res[name + " again"] == 2000.0, res
    assert res["cuda.jit again"] == 2 * 4096
    assert res["vectorize again"] == 3.0 * 100_000
    assert res["ignored"] == 1000.0 + 1.0, res   # x[0] = 1 was written, then every element + 1
    assert res["handler"] is True
    assert res["plain"] == "raised"
