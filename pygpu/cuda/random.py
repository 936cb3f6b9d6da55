"""numba.cuda.random's xoroshiro128+ generators for kernels: ``create_xoroshiro128p_states(n,
seed)`` on the host, then ``xoroshiro128p_uniform_float32(states, i)`` and the like inside a
@cuda.jit kernel, one generator per thread, as in Numba.

The generators are the same as Numba's, number for number: generator 0 starts from SplitMix64 of
the seed (both halves), and generator i is generator 0 advanced by i + subsequence_start jumps of
2**64 steps. The device functions are Python, compiled by cuda.jit like a user's; the states are
a (n, 2) uint64 array (s0, s1) where Numba has records of two uint64 fields. Each generator's
state is computed independently from the jump's powers (the transition is linear over GF(2)), so
initialising a million of them is one parallel kernel rather than a million sequential jumps.
"""
import math

import numpy as np

from .. import _core
from .._jit.cudajit import jit
from .._jit.stubs import grid

__all__ = ["create_xoroshiro128p_states", "init_xoroshiro128p_states", "xoroshiro128p_next",
           "xoroshiro128p_jump", "xoroshiro128p_uniform_float32", "xoroshiro128p_uniform_float64",
           "xoroshiro128p_normal_float32", "xoroshiro128p_normal_float64", "uint64_to_unit_float32",
           "uint64_to_unit_float64"]

_TWO_PI = 2.0 * math.pi


# ------------------------------------------------------------------ in kernels

@jit(device=True)
def xoroshiro128p_next(states, index):
    """The next 64 random bits of generator `index`, which advances by one step."""
    s0 = states[index, 0]
    s1 = states[index, 1]
    result = s0 + s1
    s1 ^= s0
    states[index, 0] = ((s0 << np.uint64(55)) | (s0 >> np.uint64(9))) ^ s1 ^ (s1 << np.uint64(14))
    states[index, 1] = (s1 << np.uint64(36)) | (s1 >> np.uint64(28))
    return result


@jit(device=True)
def uint64_to_unit_float64(x):
    """The top 53 bits of x as a float64 in [0, 1)."""
    return np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@jit(device=True)
def uint64_to_unit_float32(x):
    """uint64_to_unit_float64(x) rounded to float32, as Numba's."""
    return np.float32(np.float64(x >> np.uint64(11)) * (1.0 / 9007199254740992.0))


@jit(device=True)
def xoroshiro128p_uniform_float64(states, index):
    """A float64 uniform in [0, 1) from generator `index`."""
    return uint64_to_unit_float64(xoroshiro128p_next(states, index))


@jit(device=True)
def xoroshiro128p_uniform_float32(states, index):
    """A float32 uniform in [0, 1) from generator `index`."""
    return uint64_to_unit_float32(xoroshiro128p_next(states, index))


@jit(device=True)
def xoroshiro128p_normal_float64(states, index):
    """A standard normal float64 (Box-Muller of two uniforms; the second normal is dropped)."""
    u1 = xoroshiro128p_uniform_float64(states, index)
    u2 = xoroshiro128p_uniform_float64(states, index)
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(_TWO_PI * u2)


@jit(device=True)
def xoroshiro128p_normal_float32(states, index):
    """A standard normal float32 (Box-Muller in float32, as Numba's)."""
    u1 = xoroshiro128p_uniform_float32(states, index)
    u2 = xoroshiro128p_uniform_float32(states, index)
    return math.sqrt(np.float32(-2.0) * math.log(u1)) * math.cos(np.float32(_TWO_PI) * u2)


@jit(device=True)
def xoroshiro128p_jump(states, index):
    """Advances generator `index` by 2**64 steps."""
    a = np.uint64(0)
    b = np.uint64(0)
    for word in range(2):
        bits = np.uint64(0xBEAC0467EBA5FACB) if word == 0 else np.uint64(0xD86B048B86AA9922)
        for k in range(64):
            if (bits >> np.uint64(k)) & np.uint64(1):
                a ^= states[index, 0]
                b ^= states[index, 1]
            xoroshiro128p_next(states, index)
    states[index, 0] = a
    states[index, 1] = b


# ------------------------------------------------------------------ initialisation

@jit
def _init_states(states, s0, s1, start, powers):
    """Generator i = the jump raised to i + start, applied to (s0, s1): the jump's powers of two
    (powers[level]: the images of the 128 unit vectors under jump ** 2**level) picked by the bits
    of the exponent."""
    i = grid(1)
    if i < states.shape[0]:
        a = s0
        b = s1
        k = np.uint64(i) + start
        level = 0
        while k != np.uint64(0):
            if k & np.uint64(1):
                na = np.uint64(0)
                nb = np.uint64(0)
                for j in range(128):
                    word = a if j < 64 else b
                    if (word >> np.uint64(j % 64)) & np.uint64(1):
                        na ^= powers[level, j, 0]
                        nb ^= powers[level, j, 1]
                a = na
                b = nb
            k >>= np.uint64(1)
            level += 1
        states[i, 0] = a
        states[i, 1] = b


def _splitmix64(seed):
    mask = (1 << 64) - 1
    z = (seed + 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


def _step_matrix():
    """The one-step transition of the state (s0 bits 0-63, s1 bits 64-127) as a 0/1 matrix whose
    column j is the image of unit vector j."""
    mask = (1 << 64) - 1
    m = np.zeros((128, 128), np.int64)
    for j in range(128):
        s0, s1 = (1 << j, 0) if j < 64 else (0, 1 << (j - 64))
        s1 ^= s0
        n0 = (((s0 << 55) | (s0 >> 9)) & mask) ^ s1 ^ ((s1 << 14) & mask)
        n1 = ((s1 << 36) | (s1 >> 28)) & mask
        v = n0 | (n1 << 64)
        m[:, j] = [(v >> r) & 1 for r in range(128)]
    return m


_powers = None


def _jump_powers():
    """(64, 128, 2) uint64: for each level, the images of the unit vectors under the jump (2**64
    steps) raised to 2**level, as (s0, s1) words."""
    global _powers
    if _powers is None:
        m = _step_matrix()
        for _ in range(64):          # 2**64 steps: the jump
            m = (m @ m) & 1
        weights = np.uint64(1) << np.arange(64, dtype=np.uint64)
        out = np.zeros((64, 128, 2), np.uint64)
        for level in range(64):
            cols = m.astype(np.uint64)
            out[level, :, 0] = (cols[:64, :] * weights[:, None]).sum(axis=0, dtype=np.uint64)
            out[level, :, 1] = (cols[64:, :] * weights[:, None]).sum(axis=0, dtype=np.uint64)
            m = (m @ m) & 1
        _powers = out
    return _powers


def init_xoroshiro128p_states(states, seed, subsequence_start=0, stream=0):
    """Seeds the (n, 2) uint64 array `states` in place (numba.cuda.random's)."""
    n = states.shape[0]
    if states.ndim != 2 or states.shape[1] != 2 or states.dtype != np.uint64:
        raise ValueError("xoroshiro128+ states are a (n, 2) uint64 array, from create_xoroshiro128p_states")
    if n == 0:
        return
    z = np.uint64(_splitmix64(int(seed) & ((1 << 64) - 1)))
    powers = _core.asarray(_jump_powers(), device=getattr(states, "device", None) or _core.get_device())
    _init_states.forall(n, stream=stream)(states, z, z, np.uint64(int(subsequence_start) & ((1 << 64) - 1)), powers)


def create_xoroshiro128p_states(n, seed, subsequence_start=0, stream=0):
    """n xoroshiro128+ generators on the current device, one per thread (numba.cuda.random's):
    pass them and a thread's index to xoroshiro128p_uniform_float32 & co. in a kernel."""
    from . import device_array
    n = int(n)
    if n < 0:
        raise ValueError("create_xoroshiro128p_states: n must not be negative")
    states = device_array((n, 2), dtype=np.uint64, stream=stream)
    init_xoroshiro128p_states(states, seed, subsequence_start, stream)
    return states
