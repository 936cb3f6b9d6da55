"""The CPU backend's worker team (runtime/cpu_team.c, pygpu's own threads in place of OpenMP):
the thread count follows PYGPU_NUM_THREADS, then OMP_NUM_THREADS; results do not depend on how
many threads compute them (random numbers bit for bit); a forked child computes in parallel
again (Dask and multiprocessing fork workers)."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import pygpu
from conftest import child_pythonpath

HERE = os.path.dirname(os.path.abspath(__file__))


def run_child(code, env_extra, tmp_path, timeout=240, args=()):
    """Runs code as a script in a child interpreter (a file: cuda.jit and vectorize read the source)."""
    script = tmp_path / "child.py"
    script.write_text(textwrap.dedent(code))
    env = dict(os.environ)
    env.pop("PYGPU_NUM_THREADS", None)
    env.pop("OMP_NUM_THREADS", None)
    env.update(env_extra)
    env["PYGPU_DEVICE"] = "cpu"
    env["PYTHONPATH"] = child_pythonpath()
    proc = subprocess.run([sys.executable, str(script), *args], env=env, capture_output=True, text=True,
                          timeout=timeout, cwd=HERE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return proc.stdout


THREADS = """
import pygpu
print(pygpu.Device("cpu").properties()["threads"])
"""


@pytest.mark.parametrize("env, expected", [
    ({"PYGPU_NUM_THREADS": "3"}, 3),
    ({"OMP_NUM_THREADS": "5,2"}, 5),
    ({"PYGPU_NUM_THREADS": "1", "OMP_NUM_THREADS": "4"}, 1),
])
def test_thread_count_from_the_environment(env, expected, tmp_path):
    assert int(run_child(THREADS, env, tmp_path)) == expected


def test_thread_count_default_is_the_cpus_this_process_may_use(tmp_path):
    assert int(run_child(THREADS, {"PYGPU_NUM_THREADS": "zero"}, tmp_path)) == len(os.sched_getaffinity(0))


# Sizes past every parallel threshold (65536 elements, 16384 VM elements, 16384 kernel threads)
# and not multiples of any team size; each result as a digest of its bytes.
WORK = """
import hashlib, json, sys
import numpy as np
import pygpu
from pygpu import cuda

def digest(a):
    a = np.ascontiguousarray(pygpu.asnumpy(a) if isinstance(a, pygpu.ndarray) else a)
    return hashlib.sha256(a.tobytes()).hexdigest()

@cuda.jit
def axpy(a, x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = a * x[i] + y[i]

@pygpu.vectorize(["float64(float64)"])
def collatz_steps(v):
    n = int(abs(v) * 1000) + 1
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps

rng = np.random.default_rng(7)
n = 1_000_003
xh = rng.standard_normal(n)
x = pygpu.asarray(xh)
y = pygpu.asarray(xh[::-1].copy())
m = pygpu.asarray(rng.standard_normal((1013, 997)))
out = pygpu.empty(n)
axpy[(n + 255) // 256, 256](2.0, x, y, out)
gen = pygpu.random.default_rng(1234)
res = {
    "add": digest(x + y), "strided": digest(x[:-1:3] * y[1::3]), "rows": digest(m[:, ::2] + 1.0),
    "axis1": digest(m.max(axis=1)), "nonzero": digest(pygpu.nonzero(x > 0.5)[0]),
    "masked": digest(x[x > 1.0]), "take": digest(x[pygpu.asarray(rng.integers(0, n, 300_001))]),
    "imatmul": digest(pygpu.asarray(rng.integers(-9, 9, (300, 200))) @ pygpu.asarray(rng.integers(-9, 9, (200, 301)))),
    "vectorize": digest(collatz_steps(x[:70_001])), "jit": digest(out),
    "normal": digest(gen.standard_normal(300_001)), "integers": digest(gen.integers(0, 1000, 300_001)),
    "copy": digest(pygpu.asarray(np.arange(3 * 2**20 + 5, dtype=np.uint8))),
}
# sums add in groupings that follow the split: these are compared within rounding
np.savez(sys.argv[1], sum=pygpu.asnumpy(x.sum()), axis0=pygpu.asnumpy(m.sum(axis=0)),
         cumsum=pygpu.asnumpy(pygpu.cumsum(x)))
assert np.array_equal(pygpu.asnumpy(x + y), xh + xh[::-1])
assert np.array_equal(pygpu.asnumpy(pygpu.nonzero(x > 0.5)[0]), np.nonzero(xh > 0.5)[0])
assert np.array_equal(pygpu.asnumpy(out), 2.0 * xh + xh[::-1])
print(json.dumps(res))
"""


def test_results_do_not_depend_on_the_number_of_threads(tmp_path):
    def run(threads):
        sums = tmp_path / ("sums%s.npz" % threads)
        return json.loads(run_child(WORK, {"PYGPU_NUM_THREADS": threads}, tmp_path, args=[str(sums)])), np.load(sums)
    one, one_sums = run("1")
    for threads in ("2", "7"):
        many, many_sums = run(threads)
        assert many == one
        for name in ("sum", "axis0", "cumsum"):
            np.testing.assert_allclose(many_sums[name], one_sums[name], rtol=1e-9, atol=1e-9)


FORK = """
import os, signal, sys
import numpy as np
import pygpu

n = 3_000_001
x = pygpu.arange(n, dtype=np.float64)
assert float((x + x).sum()) == float(n) * (n - 1)   # the team is up in the parent
pid = os.fork()
if pid == 0:
    signal.alarm(60)                                 # a hang in the child fails, not stalls
    ok = float((x * 3.0).sum()) == 1.5 * n * (n - 1) and int(pygpu.count_nonzero(x > 10)) == n - 11
    os._exit(0 if ok else 1)
_, status = os.waitpid(pid, 0)
assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
assert float((x - 1.0).sum()) == float(n) * (n - 1) / 2 - n  # and again in the parent
print("ok")
"""


def test_a_forked_child_computes_in_parallel(tmp_path):
    assert run_child(FORK, {"PYGPU_NUM_THREADS": "4"}, tmp_path, timeout=120).strip() == "ok"
