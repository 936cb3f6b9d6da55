"""The bit stream of pygpu.random: Philox4x32-10 against Random123's known-answer vectors, and
the documented layout of a draw (which words of which block make element i, how the counter
moves, the extra blocks of a rejected bounded integer) checked against a reference written here
in Python from the Philox function alone. Runs on every device: the same numbers everywhere."""
import numpy as np
import pytest

import pygpu
import pygpu.random as pr
from pygpu import _core

# Random123 1.14, tests/kat_vectors: philox4x32 10 <counter c0..c3> <key k0 k1> <output w0..w3>
KAT_PHILOX4X32_10 = [
    ((0x00000000, 0x00000000, 0x00000000, 0x00000000), (0x00000000, 0x00000000),
     (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
    ((0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff), (0xffffffff, 0xffffffff),
     (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
    ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
     (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1)),
]

M32 = 0xFFFFFFFF


@pytest.mark.parametrize("counter, key, expected", KAT_PHILOX4X32_10)
def test_known_answer_vectors(counter, key, expected):
    assert _core._philox4x32(counter, key) == expected


def block(key, counter, c3=0):
    """The 4 words of block `counter` (96 bits) with word 3 = c3, under the 64-bit key."""
    return _core._philox4x32((counter & M32, (counter >> 32) & M32, counter >> 64, c3), (key & M32, key >> 32))


def words(key, counter, nblocks):
    return np.array([block(key, counter + b) for b in range(nblocks)], dtype=np.uint32)


def bitgen(key=0x0123456789ABCDEF, counter=(1 << 32) - 3):
    """A generator whose counter carries out of word 0 within the first blocks."""
    return pr.Generator(pr.Philox4x32(key=key, counter=counter))


def test_raw_bits_layout(device):
    g = bitgen()
    key, c = g.bit_generator.state["state"]["key"], g.bit_generator.state["state"]["counter"]
    out = pygpu.empty(10, dtype=np.uint32, device=device)
    _core._random_fill(out, _core._random_constants()["dists"]["bits"], (key & M32, key >> 32),
                       (c & M32, (c >> 32) & M32, c >> 64), 0)
    np.testing.assert_array_equal(out.get(), words(key, c, 3).ravel()[:10])
    # _random_fill leaves the generator alone; random_raw starts at the same counter
    raw = g.bit_generator.random_raw(5, device=device).get()  # uint64 words (w0 << 32 | w1), (w2 << 32 | w3)
    w = words(key, c, 3).astype(np.uint64)
    np.testing.assert_array_equal(raw, (w[:, 0::2] << np.uint64(32) | w[:, 1::2]).ravel()[:5])
    assert g.bit_generator.state["state"]["counter"] == c + 3


def test_uniform_layout(device):
    """random(): float64 from 27 + 26 bits of two words, float32 from the top 24 bits of one."""
    g = bitgen()
    key, c = g.bit_generator.state["state"]["key"], g.bit_generator.state["state"]["counter"]
    with device:
        d = g.random(5).get()
        f = g.random(6, dtype=np.float32).get()
    w = words(key, c, 3).reshape(-1, 2).astype(np.float64)
    expected = ((w[:, 0] // 32) * 2.0 ** 26 + w[:, 1] // 64) * 2.0 ** -53
    np.testing.assert_array_equal(d, expected[:5])
    w = words(key, c + 3, 2).ravel()
    np.testing.assert_array_equal(f, ((w >> 8).astype(np.float32) * np.float32(2 ** -24))[:6])
    assert g.bit_generator.state["state"]["counter"] == c + 5


def lemire32(key, counter, slot, first, rng):
    """Lemire's method for [0, rng] on the element's stream: its own word, then the words of
    blocks (counter, word 3 = 4j + slot), j = 1, 2, ..."""
    s = rng + 1
    extra = (w for j in range(1, 1 << 20) for w in block(key, counter, 4 * j + slot))
    m = first * s
    if m & M32 < s:
        threshold = (2 ** 32 - s) % s
        while m & M32 < threshold:
            m = next(extra) * s
    return m >> 32


def test_integers_rejection_stream(device):
    """A range where about half the first tries are rejected: every element matches the
    reference, retries included."""
    g = bitgen()
    key, c = g.bit_generator.state["state"]["key"], g.bit_generator.state["state"]["counter"]
    rng = 2 ** 31  # integers in [0, 2**31]: s = 2**31 + 1
    got = g.integers(0, rng, size=203, endpoint=True, dtype=np.int64, device=device).get()
    w = words(key, c, 51)
    expected = [lemire32(key, c + i // 4, i % 4, int(w[i // 4, i % 4]), rng) for i in range(203)]
    np.testing.assert_array_equal(got, expected)
    assert g.bit_generator.state["state"]["counter"] == c + 51


def test_draws_take_whole_blocks():
    g = pr.default_rng(5)
    g.random(3)  # 2 blocks (2 float64 a block)
    g.random(5, dtype=np.float32)  # 2 blocks (4 float32 a block)
    g.standard_gamma(2.0, 3)  # 3 blocks (one element a block)
    g.integers(0, 10, 0)  # nothing
    assert g.bit_generator.state["state"]["counter"] == 7


def test_counter_wraps_at_96_bits():
    g = pr.Generator(pr.Philox4x32(key=7, counter=(1 << 96) - 1))
    a = g.random(4)  # blocks 2**96 - 1 and 0
    assert g.bit_generator.state["state"]["counter"] == 1
    w = np.array([block(7, (1 << 96) - 1), block(7, 0)], dtype=np.float64).reshape(-1, 2)
    np.testing.assert_array_equal(a.get(), ((w[:, 0] // 32) * 2.0 ** 26 + w[:, 1] // 64) * 2.0 ** -53)


def test_tail_block_matches_full_blocks():
    """A last partial block (the CPU's generic per-block path, the GPU's only one) gives the
    same numbers as the vectorised batches."""
    for kwargs, f in [({}, "random"), ({"dtype": np.float32}, "random"), ({"dtype": np.float32}, "standard_normal"),
                      ({}, "standard_normal"), ({"dtype": np.float32}, "standard_exponential"),
                      ({}, "standard_exponential")]:
        for n in (1, 3, 517, 1031):
            a = getattr(pr.default_rng(9), f)(n, **kwargs).get()
            b = getattr(pr.default_rng(9), f)(n + 8, **kwargs).get()
            np.testing.assert_array_equal(a, b[:n])
    for n in (1, 7, 1029):
        a = pr.default_rng(9).integers(-5, 1000, n, dtype=np.int16).get()
        b = pr.default_rng(9).integers(-5, 1000, n + 8, dtype=np.int16).get()
        np.testing.assert_array_equal(a, b[:n])
        a = pr.default_rng(9).normal(np.arange(n, dtype=float), 2.0).get()
        b = pr.default_rng(9).normal(np.arange(n + 8, dtype=float), 2.0).get()
        np.testing.assert_array_equal(a, b[:n])


def test_same_numbers_whatever_the_thread_count():
    """The CPU splits large draws over its threads: 1 thread and 2 give the same bits."""
    import os
    import subprocess
    import sys
    code = ("import hashlib, numpy as np, pygpu.random as pr\n"
            "g = pr.default_rng(3)\n"
            "h = hashlib.sha256()\n"
            "for a in (g.random(300001), g.standard_normal(200003, dtype=np.float32), g.integers(0, 7, 300001),\n"
            "          g.poisson(30.0, 5001), g.gamma(0.5, size=5001)):\n"
            "    h.update(a.get().tobytes())\n"
            "print(h.hexdigest())\n")
    digests = set()
    for threads in ("1", "2"):
        env = dict(os.environ, OMP_NUM_THREADS=threads, PYGPU_DEVICE="cpu")
        digests.add(subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True,
                                   text=True).stdout)
    assert len(digests) == 1
