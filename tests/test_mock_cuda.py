"""The fake CUDA driver (tests/mock_cuda) on its own, through ctypes, with no pygpu involved: it
must behave as the real driver does where pygpu can get it wrong (per-thread contexts, stream
ordering, asynchronous copies, alignment faults, sticky errors, fork, kernel names), or the
tests of pygpu against it prove nothing.

Each test runs in a child interpreter (the driver's state is per process). Where a test shows
that work is *held* back, it holds a stream with cuStreamWaitValue32 on a host word and lets it
go by writing the word: no timing decides an outcome. A few checks also watch, for a short while,
that held work stays held: against a correct driver they cannot fail; against a broken one they
catch it unless the machine stalls for the whole window."""
import os
import struct

import pytest

from conftest import MOCK_STATS, mock_env, run_child

DRIVER_PRELUDE = """
import ctypes, json, os, struct, sys, threading, time
from ctypes import POINTER, byref, c_int, c_uint, c_size_t, c_void_p, c_char_p, c_ulonglong

libcuda = ctypes.CDLL("libcuda.so.1")
API = {
    "cuInit": [c_uint], "cuDriverGetVersion": [POINTER(c_int)],
    "cuDeviceGetCount": [POINTER(c_int)], "cuDeviceGet": [POINTER(c_int), c_int],
    "cuDevicePrimaryCtxRetain": [POINTER(c_void_p), c_int],
    "cuCtxSetCurrent": [c_void_p], "cuCtxGetCurrent": [POINTER(c_void_p)],
    "cuCtxPushCurrent_v2": [c_void_p], "cuCtxPopCurrent_v2": [POINTER(c_void_p)],
    "cuCtxSynchronize": [],
    "cuMemAlloc_v2": [POINTER(c_ulonglong), c_size_t], "cuMemFree_v2": [c_ulonglong],
    "cuMemHostAlloc": [POINTER(c_void_p), c_size_t, c_uint], "cuMemFreeHost": [c_void_p],
    "cuMemAllocManaged": [POINTER(c_ulonglong), c_size_t, c_uint],
    "cuMemcpyAsync": [c_ulonglong, c_ulonglong, c_size_t, c_void_p],
    "cuPointerGetAttribute": [c_void_p, c_int, c_ulonglong],
    "cuStreamCreate": [POINTER(c_void_p), c_uint], "cuStreamDestroy_v2": [c_void_p],
    "cuStreamSynchronize": [c_void_p], "cuStreamQuery": [c_void_p],
    "cuStreamWaitEvent": [c_void_p, c_void_p, c_uint],
    "cuStreamWaitValue32_v2": [c_void_p, c_ulonglong, ctypes.c_uint32, c_uint],
    "cuEventCreate": [POINTER(c_void_p), c_uint], "cuEventRecord": [c_void_p, c_void_p],
    "cuEventQuery": [c_void_p], "cuEventSynchronize": [c_void_p],
    "cuEventElapsedTime_v2": [POINTER(ctypes.c_float), c_void_p, c_void_p],
    "cuModuleLoadData": [POINTER(c_void_p), c_char_p],
    "cuModuleGetFunction": [POINTER(c_void_p), c_void_p, c_char_p],
    "cuLaunchKernel": [c_void_p] + [c_uint] * 7 + [c_void_p, POINTER(c_void_p), c_void_p],
}


def _missing(name):
    def call(*args):
        raise RuntimeError(f"the driver has no {name}")
    return call


for _name, _args in API.items():
    try:
        _f = getattr(libcuda, _name)
    except AttributeError:
        globals()[_name] = _missing(_name)
        continue
    _f.argtypes, _f.restype = _args, c_int
    globals()[_name] = _f


def ok(r):
    if r != 0:
        raise RuntimeError(f"the driver returned {r}")


def context(device=0):
    c = c_void_p()
    ok(cuDevicePrimaryCtxRetain(byref(c), device))
    return c.value


def current():
    c = c_void_p()
    ok(cuCtxGetCurrent(byref(c)))
    return c.value


def start(device=0):
    # cuInit, then device's primary context current on this thread
    ok(cuInit(0))
    ctx = context(device)
    ok(cuCtxSetCurrent(ctx))
    return ctx


def dev_alloc(n):
    p = c_ulonglong()
    ok(cuMemAlloc_v2(byref(p), n))
    ctypes.memset(p.value, 0, n)
    return p.value


def pinned(n):
    p = c_void_p()
    ok(cuMemHostAlloc(byref(p), n, 0))
    ctypes.memset(p.value, 0, n)
    return p.value


def stream(flags=1):
    s = c_void_p()
    ok(cuStreamCreate(byref(s), flags))
    return s.value


def event(flags=0):
    e = c_void_p()
    ok(cuEventCreate(byref(e), flags))
    return e.value


def put(ptr, data):
    ctypes.memmove(ptr, data, len(data))


def get(ptr, n):
    return ctypes.string_at(ptr, n)


def hold(s):
    # stream s waits, from here on, until the returned function is called
    word = pinned(4)
    ok(cuStreamWaitValue32_v2(s, word, 1, 0))
    return lambda: put(word, struct.pack("<I", 1))


def stays(cond, seconds=0.3):
    # cond() holds throughout a short window
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if not cond():
            return False
        time.sleep(0.002)
    return cond()


def fatbin(body=16):
    return struct.pack("<IHHQ", 0xBA55ED50, 1, 16, body) + bytes(body)


def load(image):
    m = c_void_p()
    r = cuModuleLoadData(byref(m), image)
    return r, m.value


def function(module, name):
    f = c_void_p()
    r = cuModuleGetFunction(byref(f), module, name.encode())
    return r, f.value


MAXDIMS, MAXARGS = 32, 4  # csrc/kernels/kernel_types.h
F32, F64, C128, U8, I16 = 10, 11, 13, 5, 2


class ContigArgs(ctypes.Structure):
    _fields_ = [("size", ctypes.c_int64), ("data", c_void_p * MAXARGS), ("types", ctypes.c_int32 * MAXARGS),
                ("scalar", (ctypes.c_uint64 * 2) * MAXARGS)]


class LoopArgs(ctypes.Structure):
    _fields_ = [("ndim", ctypes.c_int32), ("nargs", ctypes.c_int32), ("size", ctypes.c_int64),
                ("shape", ctypes.c_int64 * MAXDIMS), ("strides", (ctypes.c_int64 * MAXDIMS) * MAXARGS),
                ("data", c_void_p * MAXARGS), ("types", ctypes.c_int32 * MAXARGS),
                ("scalar", (ctypes.c_uint64 * 2) * MAXARGS)]


def launch(f, args, s=None):
    params = (c_void_p * 1)(ctypes.addressof(args))
    return cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, s, params, None)


def done(**res):
    print(json.dumps(res))
""" + MOCK_STATS


def run_driver(mock_driver, code, **env):
    """Runs code after DRIVER_PRELUDE in a child whose libcuda.so.1 is the mock; its JSON result.
    No kernel list unless env gives MOCK_CUDA_KERNELS."""
    env.setdefault("MOCK_CUDA_KERNELS", "")
    return run_child(DRIVER_PRELUDE, code, mock_env(mock_driver, env), timeout=60)


def kernel_list(tmp_path, text):
    path = tmp_path / "kernels.txt"
    path.write_text(text)
    return str(path)


# ---------------------------------------------------------------- contexts

def test_context_is_per_thread_with_a_real_stack(mock_driver):
    out = run_driver(mock_driver, """
        res = {"before_init": cuDeviceGetCount(byref(c_int()))}
        ok(cuInit(0))
        n = c_int()
        ok(cuDeviceGetCount(byref(n)))
        res["devices"] = n.value
        c0, c1 = context(0), context(1)
        res["distinct"] = c0 != c1 and None not in (c0, c1)
        res["none_yet"] = current() is None
        res["alloc_without"] = cuMemAlloc_v2(byref(c_ulonglong()), 16)
        ok(cuCtxSetCurrent(c0))

        def other_thread():
            t = res["thread"] = {"starts_without": current() is None,
                                 "alloc_without": cuMemAlloc_v2(byref(c_ulonglong()), 16),
                                 "stream_without": cuStreamCreate(byref(c_void_p()), 0),
                                 "sync_without": cuCtxSynchronize()}
            ok(cuCtxPushCurrent_v2(c1))
            t["pushed"] = current() == c1
            ok(cuCtxPushCurrent_v2(c0))
            top = c_void_p()
            ok(cuCtxPopCurrent_v2(byref(top)))
            t["popped"] = top.value == c0 and current() == c1
            ok(cuCtxSetCurrent(c0))  # replaces the top
            t["set_replaces"] = current() == c0
            ok(cuCtxPopCurrent_v2(byref(top)))
            t["empty"] = current() is None
            t["pop_empty"] = cuCtxPopCurrent_v2(byref(top))
            ok(cuCtxSetCurrent(c1))
            p = dev_alloc(16)
            ordinal = c_int(-1)
            ok(cuPointerGetAttribute(byref(ordinal), 9, p))
            t["ordinal"] = ordinal.value
            ok(cuCtxSetCurrent(None))
            t["unset"] = current() is None

        th = threading.Thread(target=other_thread)
        th.start()
        th.join()
        res["main_unchanged"] = current() == c0
        res["bad_handle"] = cuCtxSetCurrent(c0 + 8)
        res["bad_device"] = cuDevicePrimaryCtxRetain(byref(c_void_p()), 2)
        done(**res)
    """, MOCK_CUDA_DEVICES=2)
    assert out["before_init"] == 3  # CUDA_ERROR_NOT_INITIALIZED
    assert out["devices"] == 2 and out["distinct"] and out["none_yet"]
    assert out["alloc_without"] == 201  # CUDA_ERROR_INVALID_CONTEXT
    t = out["thread"]
    assert t["starts_without"]
    assert t["alloc_without"] == t["stream_without"] == t["sync_without"] == 201
    assert t["pushed"] and t["popped"] and t["set_replaces"] and t["empty"]
    assert t["pop_empty"] == 201
    assert t["ordinal"] == 1 and t["unset"]
    assert out["main_unchanged"]
    assert out["bad_handle"] == 201 and out["bad_device"] == 101


def test_handles_belong_to_their_context(mock_driver):
    out = run_driver(mock_driver, """
        c0 = start(0)
        r, m = load(fatbin())
        r, f = function(m, "copy_f32_c")
        s0, e0 = stream(0), event()
        ok(cuCtxSetCurrent(context(1)))
        s1 = stream(0)
        res = {"function_elsewhere": launch(f, ContigArgs()),
               "stream_elsewhere": launch(f, ContigArgs(), s0),
               "record_elsewhere": cuEventRecord(e0, s1),
               "wait_elsewhere": cuStreamWaitEvent(s1, e0, 0),  # waiting across contexts is fine
               "bogus_stream": cuStreamSynchronize(12345678)}
        ok(cuCtxSetCurrent(c0))
        res["home"] = [launch(f, ContigArgs(), s0), cuEventRecord(e0, s0), cuStreamSynchronize(s0)]
        release = hold(s0)
        ok(cuMemcpyAsync(dev_alloc(8), pinned(8), 8, s0))
        res["destroy_busy"] = cuStreamDestroy_v2(s0)
        res["destroyed"] = [cuStreamQuery(s0), cuStreamDestroy_v2(s0)]
        release()
        ok(cuCtxSynchronize())
        res["per_thread"] = [cuMemcpyAsync(dev_alloc(8), pinned(8), 8, 2), cuStreamSynchronize(2)]
        done(**res)
    """, MOCK_CUDA_DEVICES=2)
    assert out["function_elsewhere"] == out["stream_elsewhere"] == out["record_elsewhere"] == 400
    assert out["wait_elsewhere"] == 0 and out["bogus_stream"] == 400
    assert out["home"] == [0, 0, 0]
    assert out["destroy_busy"] == 0 and out["destroyed"] == [400, 400]
    assert out["per_thread"] == [0, 0]


# ---------------------------------------------------------------- asynchronous work

def test_async_copies_are_visible_only_after_synchronisation(mock_driver):
    out = run_driver(mock_driver, """
        start()
        s = stream(0)
        src, dev, back = pinned(64), dev_alloc(64), pinned(64)
        put(src, b"A" * 64)
        release = hold(s)
        res = {"h2d": cuMemcpyAsync(dev, src, 64, s), "d2h": cuMemcpyAsync(back, dev, 64, s)}
        e = event()
        ok(cuEventRecord(e, s))
        res["dev_before"] = get(dev, 64) == bytes(64)
        res["back_before"] = get(back, 64) == bytes(64)
        res["stream_query"] = cuStreamQuery(s)
        res["event_query"] = cuEventQuery(e)
        release()
        res["sync"] = cuStreamSynchronize(s)
        res["dev_after"] = get(dev, 64) == b"A" * 64
        res["back_after"] = get(back, 64) == b"A" * 64
        res["stream_query_after"] = cuStreamQuery(s)
        res["event_query_after"] = cuEventQuery(e)

        # pageable memory: read before a host-to-device copy returns (the caller may reuse it),
        # written before a device-to-host copy returns
        pageable = ctypes.create_string_buffer(b"B" * 64, 64)
        release = hold(s)
        ok(cuMemcpyAsync(dev, ctypes.addressof(pageable), 64, s))
        ctypes.memset(pageable, ord("C"), 64)
        res["pageable_h2d_pending"] = get(dev, 64) == b"A" * 64
        release()
        ok(cuStreamSynchronize(s))
        res["pageable_h2d_read_at_call"] = get(dev, 64) == b"B" * 64
        out = ctypes.create_string_buffer(64)
        ok(cuMemcpyAsync(ctypes.addressof(out), dev, 64, s))
        res["pageable_d2h_written_at_return"] = out.raw == b"B" * 64
        st = stats()
        res["stats"] = {k: st[k] for k in ("copies", "pageable_copies", "async_copies", "blocking_streams")}
        done(**res)
    """)
    assert out["h2d"] == 0 and out["d2h"] == 0
    assert out["dev_before"] and out["back_before"]
    assert out["stream_query"] == 600 and out["event_query"] == 600  # CUDA_ERROR_NOT_READY
    assert out["sync"] == 0 and out["dev_after"] and out["back_after"]
    assert out["stream_query_after"] == 0 and out["event_query_after"] == 0
    assert out["pageable_h2d_pending"] and out["pageable_h2d_read_at_call"]
    assert out["pageable_d2h_written_at_return"]
    assert out["stats"] == {"copies": 4, "pageable_copies": 2, "async_copies": 3, "blocking_streams": 1}


def test_event_wait_orders_work_across_streams(mock_driver):
    out = run_driver(mock_driver, """
        start()
        a, b = stream(1), stream(1)
        src, dev, back = pinned(64), dev_alloc(64), pinned(64)
        put(src, b"X" * 64)
        release = hold(a)
        ok(cuMemcpyAsync(dev, src, 64, a))
        e = event()
        ok(cuEventRecord(e, a))
        ok(cuStreamWaitEvent(b, e, 0))
        ok(cuMemcpyAsync(back, dev, 64, b))
        b_done = event()
        ok(cuEventRecord(b_done, b))
        res = {"b_held": stays(lambda: cuStreamQuery(b) == 600 and cuEventQuery(b_done) == 600),
               "back_untouched": get(back, 64) == bytes(64)}
        release()
        res["b_sync"] = cuStreamSynchronize(b)
        res["ordered"] = get(back, 64) == b"X" * 64
        res["event_sync"] = cuEventSynchronize(e)
        ms = ctypes.c_float(-1)
        res["elapsed"] = cuEventElapsedTime_v2(byref(ms), e, b_done)
        res["ms"] = ms.value
        # an event never recorded makes no one wait
        ok(cuStreamWaitEvent(b, event(), 0))
        res["unrecorded"] = cuStreamSynchronize(b)
        # timing needs completed, timed events
        release = hold(a)
        late = event()
        ok(cuEventRecord(late, a))
        res["elapsed_pending"] = cuEventElapsedTime_v2(byref(ms), e, late)
        release()
        ok(cuCtxSynchronize())
        untimed = event(2)
        ok(cuEventRecord(untimed, a))
        ok(cuEventSynchronize(untimed))
        res["elapsed_untimed"] = cuEventElapsedTime_v2(byref(ms), e, untimed)
        res["elapsed_unrecorded"] = cuEventElapsedTime_v2(byref(ms), e, event())
        done(**res)
    """)
    assert out["b_held"] and out["back_untouched"]
    assert out["b_sync"] == 0 and out["ordered"]
    assert out["event_sync"] == 0 and out["elapsed"] == 0 and out["ms"] >= 0
    assert out["unrecorded"] == 0
    assert out["elapsed_pending"] == 600
    assert out["elapsed_untimed"] == 400 and out["elapsed_unrecorded"] == 400  # INVALID_HANDLE


@pytest.mark.parametrize("legacy_handle", [0, 1])  # NULL and CU_STREAM_LEGACY
def test_legacy_stream_orders_with_blocking_streams_only(mock_driver, legacy_handle):
    out = run_driver(mock_driver, f"""
        LEGACY = {legacy_handle} or None
        start()
        x, y = pinned(8), pinned(8)
        put(x, b"x" * 8)
        put(y, b"y" * 8)
        res = {{"flags": [cuStreamCreate(byref(c_void_p()), f) for f in (0, 1, 2)]}}

        # legacy work waits for a blocking stream's earlier work
        blocking = stream(0)
        d = dev_alloc(8)
        release = hold(blocking)
        ok(cuMemcpyAsync(d, x, 8, blocking))
        ok(cuMemcpyAsync(d, y, 8, LEGACY))
        e = event()
        ok(cuEventRecord(e, LEGACY))
        res["legacy_waits"] = stays(lambda: cuEventQuery(e) == 600 and cuStreamQuery(LEGACY) == 600)
        release()
        ok(cuCtxSynchronize())
        res["legacy_after_blocking"] = get(d, 8)

        # a blocking stream's work waits for the legacy stream's earlier work
        d = dev_alloc(8)
        release = hold(LEGACY)
        ok(cuMemcpyAsync(d, x, 8, LEGACY))
        ok(cuMemcpyAsync(d, y, 8, blocking))
        e = event()
        ok(cuEventRecord(e, blocking))
        res["blocking_waits"] = stays(lambda: cuEventQuery(e) == 600)
        release()
        ok(cuCtxSynchronize())
        res["blocking_after_legacy"] = get(d, 8)

        # a non-blocking stream and the legacy stream do not wait for each other
        non_blocking = stream(1)
        d = dev_alloc(8)
        release = hold(LEGACY)
        ok(cuMemcpyAsync(d, x, 8, LEGACY))
        ok(cuMemcpyAsync(d, y, 8, non_blocking))
        res["non_blocking_runs"] = cuStreamSynchronize(non_blocking)
        res["non_blocking_first"] = get(d, 8)
        release()
        ok(cuCtxSynchronize())
        res["legacy_later"] = get(d, 8)
        d = dev_alloc(8)
        release = hold(non_blocking)
        ok(cuMemcpyAsync(d, x, 8, non_blocking))
        ok(cuMemcpyAsync(d, y, 8, LEGACY))
        res["legacy_runs"] = cuStreamSynchronize(LEGACY)
        res["legacy_first"] = get(d, 8)
        release()
        ok(cuCtxSynchronize())
        res["non_blocking_later"] = get(d, 8)
        st = stats()
        res["streams"] = [st["blocking_streams"], st["non_blocking_streams"]]
        done(**{{k: v.decode() if isinstance(v, bytes) else v for k, v in res.items()}})
    """)
    assert out["flags"] == [0, 0, 1]  # flags 0 and CU_STREAM_NON_BLOCKING; others refused
    assert out["legacy_waits"] and out["legacy_after_blocking"] == "y" * 8
    assert out["blocking_waits"] and out["blocking_after_legacy"] == "y" * 8
    assert out["non_blocking_runs"] == 0 and out["non_blocking_first"] == "y" * 8
    assert out["legacy_later"] == "x" * 8
    assert out["legacy_runs"] == 0 and out["legacy_first"] == "y" * 8
    assert out["non_blocking_later"] == "x" * 8
    assert out["streams"] == [2, 2]


def test_frees_wait_for_queued_work(mock_driver):
    out = run_driver(mock_driver, """
        ctx = start()
        s = stream(1)
        src, d = pinned(64), dev_alloc(64)
        release = hold(s)
        ok(cuMemcpyAsync(d, src, 64, s))
        freed = []

        def free():
            ok(cuCtxSetCurrent(ctx))
            freed.append(cuMemFree_v2(d))

        th = threading.Thread(target=free)
        th.start()
        res = {"waits": stays(lambda: not freed)}
        release()
        th.join()
        res["freed"] = freed
        res["double_free"] = cuMemFree_v2(d)
        res["host_as_device"] = cuMemFree_v2(src)
        done(**res)
    """)
    assert out["waits"] and out["freed"] == [0]
    assert out["double_free"] == 1 and out["host_as_device"] == 1


def test_pointer_attributes(mock_driver):
    out = run_driver(mock_driver, """
        start(1)
        d, h = dev_alloc(64), pinned(64)
        m = c_ulonglong()
        ok(cuMemAllocManaged(byref(m), 64, 1))

        def attr(p, a, ctype=ctypes.c_uint):
            v = ctype(0)
            r = cuPointerGetAttribute(byref(v), a, p)
            return v.value if r == 0 else ("error", r)

        pageable = ctypes.create_string_buffer(8)
        res = {"types": [attr(p, 2) for p in (d, h, m.value, d + 10)],
               "managed": [attr(p, 8, ctypes.c_ubyte) for p in (d, h, m.value)],
               "ordinal": attr(d, 9, c_int),
               "unknown": attr(ctypes.addressof(pageable), 2)}

        def no_context():
            res["no_context"] = attr(d, 2)

        th = threading.Thread(target=no_context)
        th.start()
        th.join()
        done(**res)
    """, MOCK_CUDA_DEVICES=2)
    assert out["types"] == [2, 1, 2, 2]  # device, host; managed reports device with IS_MANAGED
    assert out["managed"] == [0, 0, 1]
    assert out["ordinal"] == 1
    assert out["unknown"] == ["error", 1]  # CUDA_ERROR_INVALID_VALUE
    assert out["no_context"] == ["error", 201]


# ---------------------------------------------------------------- kernels

def test_kernel_names_come_from_the_list(mock_driver, tmp_path):
    names = kernel_list(tmp_path, "everywhere_c\n@alpha 32\nalpha_only_c\n@beta 48\nbeta_only_s\n")
    out = run_driver(mock_driver, """
        start()
        ra, a = load(fatbin(16))
        rb, b = load(fatbin(32))
        res = {"loads": [ra, rb], "bad_image": load(b"not a fatbin at all")[0],
               "found": [function(a, "alpha_only_c")[0], function(b, "beta_only_s")[0],
                         function(a, "everywhere_c")[0], function(b, "everywhere_c")[0]],
               "not_found": [function(a, "beta_only_s")[0], function(b, "alpha_only_c")[0],
                             function(a, "copy_f32_c")[0]]}
        st = stats()
        res["stats"] = [st["modules_loaded"], st["unknown_kernels"]]
        def no_context():
            res["no_context"] = [load(fatbin(16))[0], function(a, "alpha_only_c")[0]]
        th = threading.Thread(target=no_context)
        th.start()
        th.join()
        done(**res)
    """, MOCK_CUDA_KERNELS=names)
    assert out["loads"] == [0, 0] and out["bad_image"] == 200
    assert out["found"] == [0, 0, 0, 0]
    assert out["not_found"] == [500, 500, 500]  # CUDA_ERROR_NOT_FOUND
    assert out["stats"] == [2, 3]
    assert out["no_context"] == [201, 201]


def test_without_a_list_every_kernel_name_is_found(mock_driver):
    out = run_driver(mock_driver, """
        start()
        r, m = load(fatbin())
        done(found=function(m, "anything_at_all")[0])
    """)
    assert out["found"] == 0


LAUNCH = """
start()
r, m = load(fatbin())
ok(r)
r, f = function(m, KERNEL)
ok(r)
base = dev_alloc(4096)
args = ARGS()
FILL(args, base)
res = {"launch": launch(f, args), "misaligned": stats()["misaligned_launches"],
       "hint": stats()["param_bytes_hint"], "size": ctypes.sizeof(ARGS)}
res["sync"] = cuStreamSynchronize(None)
res["later"] = [cuMemAlloc_v2(byref(c_ulonglong()), 16), cuCtxSynchronize(), cuStreamQuery(None),
                launch(f, args)]
done(**res)
"""


def contig(types, offsets):
    lines = ["def FILL(a, base):", f"    a.size = 8"]
    for k, (t, off) in enumerate(zip(types, offsets)):
        lines += [f"    a.types[{k}] = {t}", f"    a.data[{k}] = base + {off}"]
    return "\n".join(lines) + "\n"


def strided(types, offsets, shape, strides):
    lines = ["def FILL(a, base):", f"    a.ndim, a.nargs, a.size = {len(shape)}, {len(types)}, 8"]
    for d, n in enumerate(shape):
        lines.append(f"    a.shape[{d}] = {n}")
    for k, (t, off, st) in enumerate(zip(types, offsets, strides)):
        lines += [f"    a.types[{k}] = {t}", f"    a.data[{k}] = base + {off}"]
        lines += [f"    a.strides[{k}][{d}] = {s}" for d, s in enumerate(st)]
    return "\n".join(lines) + "\n"


ALIGNMENT_CASES = {
    "f32": ("copy_f32_c", "ContigArgs", contig(["F32", "F32"], [4, 64]), False),
    "f32-pointer": ("copy_f32_c", "ContigArgs", contig(["F32", "F32"], [4, 66]), True),
    "c128": ("copy_c128_c", "ContigArgs", contig(["C128", "C128"], [8, 24]), False),  # 8 bytes
    "c128-pointer": ("copy_c128_c", "ContigArgs", contig(["C128", "C128"], [8, 20]), True),
    "u8": ("copy_u8_c", "ContigArgs", contig(["U8", "U8"], [1, 3]), False),
    "strided": ("add_f64_s", "LoopArgs", strided(["F64", "I16", "F64"], [0, 2, 8], [3, 4],
                                                 [[64, 8], [8, 2], [0, 16]]), False),
    "strided-pointer": ("add_f64_s", "LoopArgs", strided(["F64", "I16", "F64"], [0, 1, 8], [3, 4],
                                                         [[64, 8], [8, 2], [0, 16]]), True),
    "strided-stride": ("add_f64_s", "LoopArgs", strided(["F64", "I16", "F64"], [0, 2, 8], [3, 4],
                                                        [[60, 8], [8, 2], [0, 16]]), True),
    "stride-of-length-1-axis": ("add_f64_s", "LoopArgs", strided(["F64", "I16", "F64"], [0, 2, 8], [1, 4],
                                                                 [[60, 8], [8, 2], [0, 16]]), False),
    "other-family": ("sort_keys", "ContigArgs", contig(["F64"], [3]), False),  # not checked
}


@pytest.mark.parametrize("kernel, args, fill, faults", list(ALIGNMENT_CASES.values()), ids=list(ALIGNMENT_CASES))
def test_misaligned_launch_faults_at_the_next_synchronisation(mock_driver, kernel, args, fill, faults):
    code = f"KERNEL, ARGS = {kernel!r}, {args}\n" + fill + LAUNCH
    out = run_driver(mock_driver, code)
    assert out["launch"] == 0  # the fault is not reported by the launch
    if args == "ContigArgs" and kernel.endswith("_c"):
        assert out["hint"] == out["size"]  # the ctypes mirror matches kernel_types.h
    if args == "LoopArgs":
        assert out["hint"] == out["size"]
    if faults:
        assert out["misaligned"] == 1
        assert out["sync"] == 716  # CUDA_ERROR_MISALIGNED_ADDRESS
        assert out["later"] == [716] * 4  # sticky
    else:
        assert out["misaligned"] == 0 and out["sync"] == 0 and out["later"][:3] == [0, 0, 0]


def test_injected_fault_is_reported_later_and_sticks(mock_driver):
    out = run_driver(mock_driver, """
        start()
        r, m = load(fatbin())
        r, f = function(m, "copy_f32_c")
        args = ContigArgs()
        s = stream(1)
        res = {"first": [launch(f, args, s), cuStreamSynchronize(s)],
               "second": [launch(f, args, s), cuStreamSynchronize(s)]}
        e = event()
        release = hold(s)
        res["third"] = launch(f, args, s)
        ok(cuEventRecord(e, s))
        res["query_pending"] = cuStreamQuery(s)
        release()
        res["event_sync"] = cuEventSynchronize(e)
        res["later"] = [cuStreamSynchronize(s), cuCtxSynchronize(), cuEventQuery(e), cuStreamQuery(None),
                        cuMemAlloc_v2(byref(c_ulonglong()), 8), launch(f, args, s),
                        cuStreamCreate(byref(c_void_p()), 0)]
        res["faults"] = stats()["faults"]
        # another device's context is not hurt
        ok(cuCtxSetCurrent(context(1)))
        res["other_device"] = [cuMemAlloc_v2(byref(c_ulonglong()), 8), cuCtxSynchronize()]
        done(**res)
    """, MOCK_CUDA_FAULT_AFTER=3, MOCK_CUDA_DEVICES=2)
    assert out["first"] == [0, 0] and out["second"] == [0, 0]
    assert out["third"] == 0 and out["query_pending"] == 600
    assert out["event_sync"] == 700  # CUDA_ERROR_ILLEGAL_ADDRESS
    assert out["later"] == [700] * 7
    assert out["faults"] == 1
    assert out["other_device"] == [0, 0]


def test_injected_fault_is_reported_by_a_device_to_host_copy(mock_driver):
    out = run_driver(mock_driver, """
        start()
        r, m = load(fatbin())
        r, f = function(m, "copy_f32_c")
        d = dev_alloc(16)
        host = ctypes.create_string_buffer(16)
        res = {"launch": launch(f, ContigArgs()), "d2h": cuMemcpyAsync(ctypes.addressof(host), d, 16, None)}
        done(**res)
    """, MOCK_CUDA_FAULT_AFTER=1)
    assert out == {"launch": 0, "d2h": 700}


# ---------------------------------------------------------------- fork

def test_after_fork_the_child_cannot_use_cuda(mock_driver):
    out = run_driver(mock_driver, """
        ctx = start()
        s = stream(1)
        src, d = pinned(64), dev_alloc(64)
        release = hold(s)
        ok(cuMemcpyAsync(d, src, 64, s))  # the parent has work in flight when it forks
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            child = [cuMemAlloc_v2(byref(c_ulonglong()), 16), cuCtxSetCurrent(ctx), cuInit(0),
                     cuDeviceGetCount(byref(c_int())), cuStreamSynchronize(s), cuCtxSynchronize(),
                     cuEventCreate(byref(c_void_p()), 0)]
            v = c_int()
            child.append(cuDriverGetVersion(byref(v)))
            os.write(w, json.dumps(child).encode())
            os._exit(0)
        os.close(w)
        child = json.loads(os.read(r, 4096))
        os.waitpid(pid, 0)
        release()
        res = {"child": child, "parent": [cuStreamSynchronize(s), cuMemAlloc_v2(byref(c_ulonglong()), 16)]}
        done(**res)
    """)
    assert out["child"] == [3] * 7 + [0]  # CUDA_ERROR_NOT_INITIALIZED; the version query works
    assert out["parent"] == [0, 0]


def test_fork_before_init_leaves_the_child_free(mock_driver):
    out = run_driver(mock_driver, """
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            start()
            os.write(w, json.dumps(cuMemAlloc_v2(byref(c_ulonglong()), 16)).encode())
            os._exit(0)
        os.close(w)
        res = json.loads(os.read(r, 4096))
        os.waitpid(pid, 0)
        done(child=res)
    """)
    assert out["child"] == 0
