"""Devices, the memory pool, streams and events, and reference/memory leaks."""
import gc
import json
import os
import pickle
import subprocess
import sys
import textwrap
import threading

import numpy as np
import pytest

import pygpu


def test_device_identity_and_names():
    cpu = pygpu.Device("cpu")
    assert cpu is pygpu.Device("cpu")
    assert repr(cpu) == "Device('cpu')" and str(cpu) == "cpu"
    assert cpu.kind == "cpu" and cpu.type == "cpu" and cpu.index is None and cpu.id == -1
    assert pickle.loads(pickle.dumps(cpu)) is cpu
    assert isinstance(cpu.properties(), dict) and cpu.properties()["threads"] >= 1


@pytest.mark.parametrize("spec", ["tpu", "cuda:x", "cuda:-1", 1.5, object()])
def test_bad_device_specs(spec):
    with pytest.raises((ValueError, TypeError, pygpu.CUDAError)):
        pygpu.Device(spec)


def test_cuda_unavailable_is_explained():
    if pygpu.cuda.is_available():
        pytest.skip("a CUDA device is present")
    with pytest.raises(pygpu.CUDAError, match="CUDA is not available"):
        pygpu.Device("cuda:0")
    with pytest.raises(pygpu.CUDAError):
        pygpu.Device(0)
    assert pygpu.get_device() == pygpu.Device("cpu")


def test_with_device_nests_and_is_thread_local(device):
    outer = pygpu.get_device()
    with device as d:
        assert d is device and pygpu.get_device() is device
        assert pygpu.zeros(3).device is device
        with pygpu.Device("cpu"):
            assert pygpu.get_device() is pygpu.Device("cpu")
        assert pygpu.get_device() is device
        seen = []
        t = threading.Thread(target=lambda: seen.append(pygpu.get_device()))
        t.start()
        t.join()
        assert seen == [pygpu.default_device()]
    assert pygpu.get_device() is outer


def test_pygpu_device_environment_variable():
    code = "import pygpu; print(pygpu.get_device())"
    env = dict(os.environ, PYGPU_DEVICE="cpu")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "cpu"
    env["PYGPU_DEVICE"] = "bogus"
    out = subprocess.run([sys.executable, "-W", "always", "-c", code], env=env, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "cpu" and "PYGPU_DEVICE=bogus" in out.stderr


# ---------------------------------------------------------------- memory pool

def test_memory_pool_accounting(device):
    pool = pygpu.get_memory_pool(device)
    pool.free_all_blocks()
    base_used = pool.used_bytes()
    a = pygpu.empty(100_000, dtype=np.float64, device=device)
    assert pool.used_bytes() >= base_used + 800_000
    assert pool.total_bytes() >= pool.used_bytes()
    del a
    assert pool.used_bytes() == base_used
    assert pool.total_bytes() >= base_used + 800_000  # cached for reuse
    b = pygpu.empty(100_000, dtype=np.float64, device=device)
    assert pool.total_bytes() - pool.used_bytes() < 800_000  # the cached block was reused
    del b
    pool.free_all_blocks()
    assert pool.total_bytes() == pool.used_bytes() == base_used
    assert "used=" in repr(pool)


def test_memory_pool_limit(device):
    pool = pygpu.get_memory_pool(device)
    assert pool.get_limit() == 0
    base = pool.used_bytes()
    try:
        pool.set_limit(size=base + 1_000_000)
        assert pool.get_limit() == base + 1_000_000
        a = pygpu.empty(100_000, dtype=np.float64, device=device)
        with pytest.raises(pygpu.OutOfMemoryError, match="limit"):
            pygpu.empty(100_000, dtype=np.float64, device=device)
        del a   # cached: the next allocation frees the cache to stay within the limit
        b = pygpu.empty(110_000, dtype=np.float64, device=device)
        assert pool.total_bytes() <= pool.get_limit()
        del b
        pool.set_limit(fraction=0.5)
        assert pool.get_limit() == device.properties()["total_memory"] // 2
        for bad, exc in [(dict(size=-1), ValueError), (dict(fraction=1.5), ValueError),
                         (dict(size=1, fraction=0.5), ValueError), (dict(size=1.5), TypeError)]:
            with pytest.raises(exc):
                pool.set_limit(**bad)
    finally:
        pool.set_limit()
    assert pool.get_limit() == 0


def test_pool_off_gives_each_array_its_own_allocation(device):
    """PYGPU_POOL=off (for compute-sanitizer): every array is its own allocation of its size in
    whole words, and a freed one goes back at once, so a read past an array's end or of memory
    nothing wrote is the sanitizer's to see."""
    code = textwrap.dedent("""
        import json, numpy as np, pygpu
        pool = pygpu.get_memory_pool(%r)
        base = pool.used_bytes()
        a = pygpu.empty(1001, dtype=np.uint8, device=%r)
        used = pool.used_bytes() - base
        b = pygpu.arange(7, dtype=np.float64, device=%r)
        del a
        print(json.dumps([used, pool.used_bytes() - base, pool.free_bytes(), pool.n_free_blocks(), b.get().tolist()]))
    """ % (str(device), str(device), str(device)))
    env = dict(os.environ, PYGPU_POOL="off")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    used, after, free, blocks, values = json.loads(out.stdout.strip().splitlines()[-1])
    assert used == 1004 and after == 56 and free == 0 and blocks == 0
    assert values == list(range(7))


def test_pool_off_zeroes_the_bytes_past_an_arrays_end_in_its_last_word():
    """PYGPU_POOL=off rounds an allocation up to whole 4-byte words (a sub-word ufunc.at updates
    its element by a compare-and-swap of the aligned word): the bytes past the array's end are
    written (zeros) at the allocation, so that initcheck reports only reads of the array's own
    unwritten elements. Checked on the CPU, whose device memory the test can read; a freed block
    of about the same size, full of 0xAB, comes back from malloc otherwise."""
    code = textwrap.dedent("""
        import ctypes, json, numpy as np, pygpu
        tails = []
        for n in (1001, 5, 6, 7, 1, 2):
            junk = pygpu.full(n + 3, 0xAB, dtype=np.uint8, device="cpu")
            del junk
            a = pygpu.empty(n, dtype=np.uint8, device="cpu")
            tails.append(list(ctypes.string_at(a.data_ptr + n, -n % 4)))
        print(json.dumps(tails))
    """)
    env = dict(os.environ, PYGPU_POOL="off")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    tails = json.loads(out.stdout.strip().splitlines()[-1])
    assert tails == [[0] * (-n % 4) for n in (1001, 5, 6, 7, 1, 2)]


def test_out_of_memory_raises_and_recovers(device):
    nbytes = 1 << 58  # beyond any machine's memory and address-space reservations
    with pytest.raises(pygpu.OutOfMemoryError) as info:
        pygpu.empty(nbytes, dtype=np.uint8, device=device)
    assert isinstance(info.value, MemoryError)
    assert str(nbytes) in str(info.value)
    a = pygpu.ones(1000, device=device)  # the process carries on
    assert float(a.get().sum()) == 1000.0


def test_no_memory_growth_over_many_cycles(device):
    """Create, view, copy and free many arrays: pool usage and object counts stay flat."""
    pool = pygpu.get_memory_pool(device)
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    keep = pygpu.asarray(x, device=device)
    refs = sys.getrefcount(keep)

    def cycle():
        a = pygpu.asarray(x, device=device)
        b = a.astype(np.float64)
        c = b.copy(order="F")
        pygpu.asarray(keep)
        pygpu.asarray(keep, copy=True)
        c.fill(1)
        d = pygpu.zeros_like(c)
        d.get()
        repr(d)

    for _ in range(50):
        cycle()
    gc.collect()
    used = pool.used_bytes()
    objects = len(gc.get_objects())
    for _ in range(2000):
        cycle()
    gc.collect()
    assert pool.used_bytes() == used
    assert sys.getrefcount(keep) == refs
    assert len(gc.get_objects()) <= objects + 10


# ---------------------------------------------------------------- streams and events

def test_stream_and_event_api(device):
    s = pygpu.Stream(device)
    assert s.device is device and s.ptr != 0
    null = pygpu.Stream(device, null=True)
    assert null.ptr == 0
    with s:
        a = pygpu.ones((256, 256), device=device)
        start = s.record()
        b = a.astype(np.float32)
        end = pygpu.Event(device)
        end.record(s)
    s.synchronize()
    end.synchronize()
    assert s.query() and s.done and end.query()
    ms = start.elapsed_time(end)
    assert isinstance(ms, float) and ms >= 0
    other = pygpu.Stream(device)
    other.wait_event(end)
    other.synchronize()
    np.testing.assert_array_equal(b.get(), np.ones((256, 256), np.float32))
    pygpu.synchronize()
    device.synchronize()


def test_copy_on_stream(device):
    s = pygpu.Stream(device)
    a = pygpu.asarray(np.arange(10), device=device)
    np.testing.assert_array_equal(a.get(stream=s), np.arange(10))
    np.testing.assert_array_equal(a.copy_to_host(stream=s), np.arange(10))


def test_stream_misuse(device):
    s = pygpu.Stream(device)
    with pytest.raises(RuntimeError):
        s.__exit__(None, None, None)
    e = pygpu.Event(device)
    with pytest.raises(RuntimeError, match="recorded"):
        e.elapsed_time(pygpu.Event(device))
    with pytest.raises(TypeError):
        s.wait_event("not an event")
    with pytest.raises(TypeError):
        pygpu.zeros(3, device=device).get(stream="x")
