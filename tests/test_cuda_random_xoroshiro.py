"""numba.cuda.random's xoroshiro128+ generators (pygpu.cuda.random), checked number for number
against a plain-Python xoroshiro128+ with the published jump polynomial (Numba's generators)."""
import math

import numpy as np
import pytest

import pygpu
from pygpu import cuda
from pygpu.cuda.random import (create_xoroshiro128p_states, init_xoroshiro128p_states, xoroshiro128p_jump,
                               xoroshiro128p_next, xoroshiro128p_normal_float32, xoroshiro128p_normal_float64,
                               xoroshiro128p_uniform_float32, xoroshiro128p_uniform_float64)
from pygpu._jit import cudajit

from test_raw_kernels_cuda_mock import needs_nvrtc

MASK = (1 << 64) - 1


@pytest.fixture(scope="module", autouse=True)
def on_cpu():
    with pygpu.Device("cpu"):
        yield


def splitmix64(seed):
    z = (seed + 0x9E3779B97F4A7C15) & MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def step(s):
    s0, s1 = s
    out = (s0 + s1) & MASK
    s1 ^= s0
    return [(((s0 << 55) | (s0 >> 9)) & MASK) ^ s1 ^ ((s1 << 14) & MASK), ((s1 << 36) | (s1 >> 28)) & MASK], out


def jump(s):
    a = b = 0
    for word in (0xBEAC0467EBA5FACB, 0xD86B048B86AA9922):
        for k in range(64):
            if (word >> k) & 1:
                a ^= s[0]
                b ^= s[1]
            s, _ = step(s)
    return [a, b]


def reference_states(n, seed, start=0):
    z = splitmix64(seed & MASK)
    s = [z, z]
    for _ in range(start):
        s = jump(s)
    out = []
    for _ in range(n):
        out.append(s)
        s = jump(s)
    return out


@pytest.mark.parametrize("n, seed, start", [(1, 0, 0), (7, 42, 0), (5, 2**64 - 1, 3), (33, 12345, 1)])
def test_states_are_numbas(n, seed, start):
    states = create_xoroshiro128p_states(n, seed=seed, subsequence_start=start)
    assert states.shape == (n, 2) and states.dtype == np.uint64
    assert np.asarray(states.get()).tolist() == reference_states(n, seed, start)


@cuda.jit
def draw(states, u32, u64, n32, n64, bits):
    i = cuda.grid(1)
    if i < states.shape[0]:
        u32[i] = xoroshiro128p_uniform_float32(states, i)
        u64[i] = xoroshiro128p_uniform_float64(states, i)
        n32[i] = xoroshiro128p_normal_float32(states, i)
        n64[i] = xoroshiro128p_normal_float64(states, i)
        bits[i] = xoroshiro128p_next(states, i)


def test_draws_are_numbas():
    n = 9
    states = create_xoroshiro128p_states(n, seed=3)
    u32, u64, n32, n64 = (np.zeros(n, t) for t in (np.float32, np.float64, np.float32, np.float64))
    bits = np.zeros(n, np.uint64)
    draw[1, 16](states, u32, u64, n32, n64, bits)
    for i, s in enumerate(reference_states(n, 3)):
        s, x = step(s)
        assert u32[i] == np.float32((x >> 11) * (1.0 / 2**53))
        s, x = step(s)
        assert u64[i] == (x >> 11) * (1.0 / 2**53)
        s, a = step(s)
        s, b = step(s)
        v1, v2 = np.float32((a >> 11) * (1.0 / 2**53)), np.float32((b >> 11) * (1.0 / 2**53))
        assert n32[i] == pytest.approx(math.sqrt(-2.0 * math.log(v1)) * math.cos(2 * math.pi * v2), rel=1e-5)
        s, a = step(s)
        s, b = step(s)
        w1, w2 = (a >> 11) * (1.0 / 2**53), (b >> 11) * (1.0 / 2**53)
        assert n64[i] == pytest.approx(math.sqrt(-2.0 * math.log(w1)) * math.cos(2 * math.pi * w2), rel=1e-14)
        s, x = step(s)
        assert int(bits[i]) == x


def test_jump_in_a_kernel_and_statistics():
    @cuda.jit
    def jump_all(states):
        i = cuda.grid(1)
        if i < states.shape[0]:
            xoroshiro128p_jump(states, i)

    states = create_xoroshiro128p_states(4, seed=11)
    jump_all[1, 4](states)
    assert np.asarray(states.get()).tolist() == [jump(s) for s in reference_states(4, 11)]
    n = 4096
    states = create_xoroshiro128p_states(n, seed=1)
    u32, u64, n32, n64 = (np.zeros(n, t) for t in (np.float32, np.float64, np.float32, np.float64))
    draw[n // 128, 128](states, u32, u64, n32, n64, np.zeros(n, np.uint64))
    assert 0 <= u64.min() and u64.max() < 1 and abs(u64.mean() - 0.5) < 0.02
    assert abs(n64.mean()) < 0.06 and abs(n64.std() - 1) < 0.05


def test_bad_states_and_sizes():
    with pytest.raises(ValueError):
        create_xoroshiro128p_states(-1, seed=0)
    assert create_xoroshiro128p_states(0, seed=0).shape == (0, 2)
    with pytest.raises(ValueError, match=r"\(n, 2\) uint64"):
        init_xoroshiro128p_states(cuda.device_array((4, 3), dtype=np.uint64), seed=0)


@needs_nvrtc
def test_generators_compile_with_nvrtc():
    from pygpu._jit import nvrtc
    from pygpu.cuda.random import _init_states
    args = (np.zeros((2, 2), np.uint64),) + tuple(np.zeros(2, t) for t in (np.float32, np.float64, np.float32,
                                                                          np.float64, np.uint64))
    init_args = (np.zeros((2, 2), np.uint64), np.uint64(1), np.uint64(1), np.uint64(0), np.zeros((64, 128, 2), np.uint64))
    for k, kargs in ((draw, args), (_init_states, init_args)):
        spec = k.specialization(tuple(cudajit.typeof(a) for a in kargs))
        for check in (False, True):
            nvrtc.compile_source(spec.source(check), (), (), (9, 0), spec.cname + ".cu")
