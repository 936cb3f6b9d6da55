"""pygpu.random: NumPy's random API on one counter-based stream, bit-identical on every device.

Every draw comes from Philox4x32-10, a keyed bijection of counters: element i of a draw is a
pure function of the generator's key, its counter and i, computed by the same single-source
kernels (csrc/kernels/random.h) on the CPU and on any GPU. So the same seed gives the same
numbers on a laptop without a GPU and on every GPU, whatever the launch configuration or the
number of threads. Arrays land on the current device (or `device=`).

- `default_rng(seed)` -> `Generator` with NumPy's methods; its `bit_generator` is a
  `Philox4x32` (state, `jumped`, `advance`, `spawn`); seeds as NumPy takes them.
- The legacy functions (`seed`, `rand`, `randn`, `randint`, `random_sample`, `uniform`,
  `normal`, `choice`, `shuffle`, `permutation`, ...) on a global `RandomState`.

Parameters and arguments are checked as NumPy checks them, with NumPy's errors. Array-valued
parameters are checked and broadcast on the host, then uploaded; scalar ones go to the kernel
as they are. Orderings (`permutation`, `shuffle`, `permuted`, `choice` without replacement)
sort random 64-bit keys drawn on the device, and `choice` with `p=` searches the cumulative
distribution, on the host (until pygpu has device sorting and searching; the numbers will not
change when it does)."""
import operator
import threading
import warnings
from collections.abc import MutableSequence

import numpy as np
from numpy.random import SeedSequence

from . import _core
from ._core import ndarray
from ._random_composed import ComposedDistributions

__all__ = [
    "Generator", "Philox4x32", "RandomState", "SeedSequence", "default_rng",
    "seed", "get_state", "set_state", "get_random_state", "set_random_state",
    "rand", "randn", "randint", "random", "random_sample", "ranf", "sample", "uniform", "normal",
    "standard_normal", "choice", "shuffle", "permutation",
]

_CONSTANTS = _core._random_constants()
_DIST = _CONSTANTS["dists"]
_STANDARD = _CONSTANTS["standard"]
_WIDE = _CONSTANTS["wide"]
_M32 = 0xFFFFFFFF
_COUNTER_BITS = 96  # word 3 of a Philox counter numbers an element's extra blocks (random.h)
_POISSON_LAM_MAX = float(np.iinfo(np.int64).max) - np.sqrt(np.iinfo(np.int64).max) * 10


# ---------------------------------------------------------------------- the bit generator

def _wrap_int(value, name, bits):
    """value (an int) checked to lie in [0, 2**bits)."""
    value = operator.index(value)
    if value < 0 or value >= 1 << bits:
        raise ValueError(f"{name} must be an integer in [0, 2**{bits})")
    return value


class Philox4x32:
    """Philox4x32-10 (Salmon et al., SC'11): a 64-bit key and a 96-bit block counter.

    Block k of the stream is Philox(key, counter + k): 4 random 32-bit words. Draws take whole
    blocks, so each draw starts on a block of its own. `Philox4x32(seed)` derives the key from
    `numpy.random.SeedSequence(seed)` (ints, sequences of ints, a SeedSequence, or None for OS
    entropy) and starts the counter at 0; `key=` and `counter=` set them directly."""

    def __init__(self, seed=None, counter=None, key=None):
        if seed is not None and key is not None:
            raise ValueError("seed and key cannot be both used")
        if key is not None:
            self._seed_seq = None
            self._key = _wrap_int(key, "key", 64)
        else:
            if isinstance(seed, np.random.bit_generator.ISeedSequence):
                self._seed_seq = seed
            else:
                self._seed_seq = SeedSequence(seed)
            words = self._seed_seq.generate_state(2, np.uint32)
            self._key = int(words[0]) | int(words[1]) << 32
        self._counter = 0 if counter is None else _wrap_int(counter, "counter", _COUNTER_BITS)
        self.lock = threading.Lock()

    @property
    def seed_seq(self):
        """The SeedSequence the key came from (None when given a key)."""
        return self._seed_seq

    @property
    def state(self):
        """{'bit_generator': 'Philox4x32', 'state': {'key': int, 'counter': int}}."""
        with self.lock:
            return {"bit_generator": type(self).__name__, "state": {"key": self._key, "counter": self._counter}}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict):
            raise TypeError("state must be a dict")
        if value.get("bit_generator", "") != type(self).__name__:
            raise ValueError(f"state must be for a {type(self).__name__} PRNG")
        inner = value["state"]
        key = _wrap_int(inner["key"], "key", 64)
        counter = _wrap_int(inner["counter"], "counter", _COUNTER_BITS)
        with self.lock:
            self._key, self._counter = key, counter

    def advance(self, delta):
        """Moves the stream on by delta blocks (modulo 2**96), as if draws had taken them."""
        delta = operator.index(delta)
        with self.lock:
            self._counter = (self._counter + delta) % (1 << _COUNTER_BITS)
        return self

    def jumped(self, jumps=1):
        """A copy of this bit generator 2**64 * jumps blocks ahead: a stream that does not meet
        this one for 2**64 blocks (2**68 bytes of random numbers)."""
        bg = type(self)(key=self._key, counter=self._counter)
        bg._seed_seq = self._seed_seq
        return bg.advance(operator.index(jumps) << 64)

    def spawn(self, n_children):
        """n_children independent bit generators, keyed by the children of seed_seq."""
        if not isinstance(self._seed_seq, np.random.bit_generator.ISpawnableSeedSequence):
            raise TypeError("The underlying SeedSequence does not implement spawning.")
        return [type(self)(seed=s) for s in self._seed_seq.spawn(n_children)]

    def random_raw(self, size=None, output=True, *, device=None):
        """Raw 64-bit outputs (two words of a block each) as uint64."""
        out = _new((() if size is None else _shape(size)), np.uint64, device)
        _fill(self, out, _DIST["bits"], 0, ())
        return out if output else None

    def __getstate__(self):
        return {"key": self._key, "counter": self._counter, "seed_seq": self._seed_seq}

    def __setstate__(self, state):
        self._key, self._counter, self._seed_seq = state["key"], state["counter"], state["seed_seq"]
        self.lock = threading.Lock()

    def __repr__(self):
        return f"{type(self).__name__}() at 0x{id(self):X}"


def _fill(bg, out, dist, flags, params):
    """Draws into out (a dense pygpu array) from bg's stream, moving its counter past the draw."""
    key = bg._key
    with bg.lock:
        c = bg._counter
        used = _core._random_fill(out, dist, (key & _M32, key >> 32), (c & _M32, (c >> 32) & _M32, c >> 64),
                                  flags, *params)
        bg._counter = (c + used) % (1 << _COUNTER_BITS)
    return out


# ---------------------------------------------------------------------- arguments

def _shape(size):
    """size (None, an int, or a sequence of ints) as a shape tuple, with NumPy's errors."""
    if size is None:
        return ()
    try:
        shape = (operator.index(size),)
    except TypeError:
        try:
            shape = tuple(operator.index(s) for s in size)
        except TypeError:
            if not hasattr(size, "__iter__"):
                raise TypeError(f"expected a sequence of integers or a single integer, got '{size}'") from None
            raise
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def _device(device, out=None):
    if out is not None:
        return out.device
    return _core.get_device() if device is None else _core.Device(device)


def _new(shape, dtype, device):
    return _core.empty(shape, dtype=dtype, device=_device(device))


def _check_output(out, dtype, size, require_c):
    """NumPy's checks of a supplied out= array (check_output in numpy/random/_common.pyx)."""
    if out is None:
        return
    if not isinstance(out, ndarray):
        raise TypeError(f"Supplied output array must be a pygpu.ndarray, not {type(out).__name__}")
    flags = out.flags
    if not flags["WRITEABLE"] or not (flags["C_CONTIGUOUS"] or (flags["F_CONTIGUOUS"] and not require_c)):
        req = "C-" if require_c else ""
        raise ValueError(f"Supplied output array must be {req}contiguous, writable, aligned, "
                         "and in machine byte-order.")
    if out.dtype != dtype:
        raise TypeError("Supplied output array has the wrong type. "
                        f"Expected {np.dtype(dtype)}, got {out.dtype}")
    if size is not None:
        try:
            tup_size = tuple(size)
        except TypeError:
            tup_size = tuple([size])
        if tup_size != out.shape:
            raise ValueError("size must match out.shape when used together")


def _host(x, dtype):
    """x (a number, sequence, NumPy or pygpu array) as a NumPy array of dtype; None is NumPy's
    TypeError for a real parameter (np.asarray would make it NaN)."""
    if x is None and np.dtype(dtype).kind == "f":
        raise TypeError("must be real number, not NoneType")
    return np.asarray(np.asarray(x), dtype=dtype)


# The constraints of numpy/random/_common.pyx: (test that passes, message for scalars, for arrays).
def _cons_non_negative(v):
    return ~(~np.isnan(v) & np.signbit(v))


_CONSTRAINTS = {
    "non_negative": (_cons_non_negative, "{0} < 0", "{0} < 0"),
    "positive": (lambda v: ~(v <= 0), "{0} <= 0", "{0} <= 0"),
    "bounded_0_1": (lambda v: (v >= 0) & (v <= 1), "{0} < 0, {0} > 1 or {0} is NaN",
                    "{0} < 0, {0} > 1 or {0} contains NaNs"),
    "bounded_gt_0_1": (lambda v: (v > 0) & (v <= 1), "{0} <= 0, {0} > 1 or {0} contains NaNs",
                       "{0} <= 0, {0} > 1 or {0} contains NaNs"),
}


def _check(value, name, cons, is_scalar):
    if cons is None:
        return
    if cons == "poisson":
        if is_scalar:
            if not value >= 0:
                raise ValueError(f"{name} < 0 or {name} is NaN")
            if not value <= _POISSON_LAM_MAX:
                raise ValueError(f"{name} value too large")
        else:
            if not np.all(value <= _POISSON_LAM_MAX):
                raise ValueError(f"{name} value too large")
            if not np.all(value >= 0.0):
                raise ValueError(f"{name} < 0 or {name} contains NaNs")
        return
    test, scalar_msg, array_msg = _CONSTRAINTS[cons]
    if not np.all(test(value)):
        raise ValueError((scalar_msg if is_scalar else array_msg).format(name))


def _broadcast_params(shape, arrays):
    """The output shape (shape, or the parameters' broadcast shape when None) after NumPy's
    check that the parameters broadcast to it exactly."""
    if shape is None:
        return np.broadcast(*arrays).shape if len(arrays) > 1 else arrays[0].shape
    it = np.broadcast(np.broadcast_to(np.empty((), np.int8), shape), *arrays)
    if it.shape != shape:
        raise ValueError(f"Output size {shape} is not compatible with broadcast dimensions of inputs {it.shape}.")
    return shape


def _param(value, shape, dtype, dev):
    """A parameter as the kernel takes it: a Python number, or a C-contiguous array of one value
    per element on dev."""
    if value.ndim == 0:
        return int(value) if dtype != np.float64 else float(value)
    full = np.ascontiguousarray(np.broadcast_to(value, shape), dtype=dtype)
    return _core.asarray(full, device=dev)


# ---------------------------------------------------------------------- Generator

class Generator(ComposedDistributions):
    """NumPy's Generator on a Philox4x32 stream; results are pygpu arrays on the current device
    (or `device=`). `size=None` gives a 0-d array where NumPy gives a Python scalar."""

    def __init__(self, bit_generator):
        if not isinstance(bit_generator, Philox4x32):
            raise TypeError("bit_generator must be a pygpu.random.Philox4x32, "
                            f"not {type(bit_generator).__name__}")
        self._bit_generator = bit_generator

    def __repr__(self):
        return f"{self} at 0x{id(self):X}"

    def __str__(self):
        return f"{type(self).__name__}({type(self._bit_generator).__name__})"

    def __reduce__(self):
        return type(self), (self._bit_generator,)

    @property
    def bit_generator(self):
        """The Philox4x32 this generator draws from."""
        return self._bit_generator

    def spawn(self, n_children):
        """n_children independent generators (see Philox4x32.spawn)."""
        if n_children < 0:
            raise ValueError("n_children must be non-negative")
        return [type(self)(g) for g in self._bit_generator.spawn(n_children)]

    # -- the two shapes of NumPy's methods: fills without parameters, and parameterised draws

    def _standard(self, dist, size, dtype, out, device, name, dtypes=(np.float64, np.float32)):
        """A parameterless draw (random, standard_normal, standard_exponential)."""
        dtype = np.dtype(dtype)
        if dtype not in dtypes:
            raise TypeError(f"Unsupported dtype {dtype!r} for {name}")
        if out is not None:
            _check_output(out, dtype, size, False)
        else:
            out = _new(_shape(size), dtype, device)
        return _fill(self._bit_generator, out, dist, _STANDARD, ())

    def _cont(self, dist, size, params, dtype=np.float64, out=None, device=None, flags=0, kinds=None):
        """A draw with parameters: params is a list of (value, name, constraint); kinds the
        dtype each takes in the kernel (float64 by default)."""
        kinds = kinds or [np.float64] * len(params)
        if out is not None:
            _check_output(out, dtype, size, True)
        values = [_host(v, k) for (v, _, _), k in zip(params, kinds)]
        is_scalar = all(v.ndim == 0 for v in values)
        for v, (_, name, cons) in zip(values, params):
            _check(v, name, cons, is_scalar)
        if is_scalar:
            shape = out.shape if out is not None else _shape(size)
        else:
            shape = _broadcast_params(out.shape if out is not None else (None if size is None else _shape(size)),
                                      values)
        if out is None:
            out = _new(shape, dtype, device)
        dev = out.device
        args = [_param(v, shape, k, dev) for v, k in zip(values, kinds)]
        return _fill(self._bit_generator, out, dist, flags, args)

    # -- uniform

    def random(self, size=None, dtype=np.float64, out=None, *, device=None):
        """Floats in [0, 1): 53 random bits (float64) or 24 (float32)."""
        return self._standard(_DIST["uniform"], size, dtype, out, device, "random")

    def uniform(self, low=0.0, high=1.0, size=None, *, device=None):
        """Floats in [low, high): low + (high - low) * random()."""
        alow, ahigh = _host(low, np.float64), _host(high, np.float64)
        if alow.ndim == 0 and ahigh.ndim == 0:
            rng = float(ahigh) - float(alow)
            if not np.isfinite(rng):
                raise OverflowError("high - low range exceeds valid bounds")
        else:
            rng = np.subtract(ahigh, alow)
            if not np.all(np.isfinite(rng)):
                raise OverflowError("Range exceeds valid bounds")
        return self._cont(_DIST["uniform"], size, [(alow, "", None), (rng, "high - low", "non_negative")],
                          device=device)

    def integers(self, low, high=None, size=None, dtype=np.int64, endpoint=False, *, device=None):
        """Integers in [low, high) (or [low, high] with endpoint=True), unbiased (Lemire's
        method); every integer dtype and bool."""
        if high is None:
            high, low = low, 0
        return _integers(self._bit_generator, low, high, size, dtype, endpoint, device, "integers")

    def bytes(self, length):
        """length random bytes (a Python bytes object, on the host)."""
        n = (operator.index(length) - 1) // 4 + 1
        words = self.integers(0, 4294967296, size=max(n, 0), dtype=np.uint32, device="cpu").get()
        return words.astype("<u4").tobytes()[:length]

    # -- normal and friends

    def standard_normal(self, size=None, dtype=np.float64, out=None, *, device=None):
        """Standard normal variates (Box-Muller)."""
        return self._standard(_DIST["normal"], size, dtype, out, device, "standard_normal")

    def normal(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """loc + scale * standard_normal()."""
        return self._cont(_DIST["normal"], size, [(loc, "", None), (scale, "scale", "non_negative")], device=device)

    def lognormal(self, mean=0.0, sigma=1.0, size=None, *, device=None):
        """exp(normal(mean, sigma))."""
        return self._cont(_DIST["lognormal"], size, [(mean, "mean", None), (sigma, "sigma", "non_negative")],
                          device=device)

    # -- exponential family

    def standard_exponential(self, size=None, dtype=np.float64, method="zig", out=None, *, device=None):
        """-log(U) (by inversion whatever `method`: there is no ziggurat, which rejects)."""
        return self._standard(_DIST["exponential"], size, dtype, out, device, "standard_exponential")

    def exponential(self, scale=1.0, size=None, *, device=None):
        """scale * standard_exponential()."""
        return self._cont(_DIST["exponential"], size, [(scale, "scale", "non_negative")], device=device)

    def laplace(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """The double exponential distribution."""
        return self._cont(_DIST["laplace"], size, [(loc, "loc", None), (scale, "scale", "non_negative")],
                          device=device)

    def logistic(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """loc + scale * log(U / (1 - U))."""
        return self._cont(_DIST["logistic"], size, [(loc, "loc", None), (scale, "scale", "non_negative")],
                          device=device)

    def geometric(self, p, size=None, *, device=None):
        """The number of trials to the first success (int64), by inversion."""
        return self._cont(_DIST["geometric"], size, [(p, "p", "bounded_gt_0_1")], dtype=np.int64, device=device)

    # -- gamma family

    def standard_gamma(self, shape, size=None, dtype=np.float64, out=None, *, device=None):
        """Gamma(shape, 1) (Marsaglia and Tsang)."""
        dtype = np.dtype(dtype)
        if dtype not in (np.float64, np.float32):
            raise TypeError(f"Unsupported dtype {dtype!r} for standard_gamma")
        return self._cont(_DIST["gamma"], size, [(shape, "shape", "non_negative")], dtype=dtype, out=out,
                          device=device, flags=_STANDARD)

    def gamma(self, shape, scale=1.0, size=None, *, device=None):
        """scale * standard_gamma(shape)."""
        return self._cont(_DIST["gamma"], size, [(shape, "shape", "non_negative"), (scale, "scale", "non_negative")],
                          device=device)

    def beta(self, a, b, size=None, *, device=None):
        """Beta(a, b) (Johnk's method for a, b <= 1, else Ga / (Ga + Gb))."""
        return self._cont(_DIST["beta"], size, [(a, "a", "positive"), (b, "b", "positive")], device=device)

    def chisquare(self, df, size=None, *, device=None):
        """2 * standard_gamma(df / 2)."""
        return self._cont(_DIST["chisquare"], size, [(df, "df", "positive")], device=device)

    def standard_t(self, df, size=None, *, device=None):
        """Student's t with df degrees of freedom."""
        return self._cont(_DIST["standard_t"], size, [(df, "df", "positive")], device=device)

    # -- counts

    def poisson(self, lam=1.0, size=None, *, device=None):
        """Poisson(lam) as int64 (PTRS for lam >= 10, else multiplication of uniforms)."""
        return self._cont(_DIST["poisson"], size, [(lam, "lam", "poisson")], dtype=np.int64, device=device)

    def binomial(self, n, p, size=None, *, device=None):
        """Binomial(n, p) as int64 (BTPE, or inversion when n * min(p, 1-p) <= 30)."""
        p_arr = _host(p, np.float64)
        n_arr = np.asarray(n).astype(np.int64)
        is_scalar = p_arr.ndim == 0 and n_arr.ndim == 0
        _check(p_arr, "p", "bounded_0_1", is_scalar)
        _check(n_arr, "n", "non_negative", is_scalar)
        return self._cont(_DIST["binomial"], size, [(n_arr, "n", None), (p_arr, "p", None)], dtype=np.int64,
                          device=device, kinds=[np.int64, np.float64])

    # -- orderings

    def permutation(self, x, axis=0, *, device=None):
        """A permuted copy of x along axis (x an int: a permutation of arange(x))."""
        if isinstance(x, (int, np.integer)):   # of arange(x): empty for x <= 0, as NumPy's
            return _permutation(self._bit_generator, max(int(x), 0), _device(device))
        arr = _as_device(x, device)
        axis = np.lib.array_utils.normalize_axis_index(axis, arr.ndim)
        return _core.take(arr, _permutation(self._bit_generator, arr.shape[axis], arr.device), axis=axis)

    def shuffle(self, x, axis=0):
        """Shuffles x in place along axis (a pygpu array, or a mutable sequence)."""
        _shuffle(self._bit_generator, x, axis)

    def permuted(self, x, *, axis=None, out=None):
        """x with each slice along axis shuffled independently (axis=None: all elements)."""
        arr = _as_device(x, None if out is None else out.device)
        dev = arr.device
        if out is not None:
            if not isinstance(out, ndarray):
                raise TypeError("out must be a pygpu.ndarray")
            if not out.flags["WRITEABLE"]:
                raise ValueError("out is read-only")
            if out.shape != arr.shape:
                raise ValueError("out must have the same shape as x")
            if not np.can_cast(arr.dtype, out.dtype, casting="safe"):
                raise TypeError(f"Cannot cast array data from {arr.dtype!r} to {out.dtype!r} according "
                                "to the rule 'safe'")
        if axis is None:  # a copy: x is left as it is
            result = _core.take(arr.reshape(-1), _permutation(self._bit_generator, arr.size, dev)).reshape(arr.shape)
        else:
            axis = np.lib.array_utils.normalize_axis_index(axis, arr.ndim)
            keys = _keys(self._bit_generator, arr.size, dev).reshape(arr.shape)
            result = _core.take_along_axis(arr, _core.argsort(keys, axis=axis, kind="stable"), axis=axis)
        if out is None:
            return result
        out[...] = result
        return out

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True, *, device=None):
        """Random samples of a (an int n: of arange(n)), with or without replacement, uniform or
        with probabilities p."""
        return _choice(self, a, size, replace, p, axis, device, legacy=False)


def _as_device(x, device):
    """x as a pygpu array on the device results go to (x's own when device is None)."""
    if isinstance(x, ndarray):
        return x if device is None else x.to_device(_core.Device(device))
    return _core.asarray(np.asarray(x), device=_device(device))


def _keys(bg, n, dev):
    """n random 64-bit keys drawn on dev."""
    keys = _core.empty(n, dtype=np.uint64, device=dev)
    return _fill(bg, keys, _DIST["bits"], 0, ())


def _permutation(bg, n, dev):
    """A uniformly random permutation of range(n) on dev: the stable order of n random 64-bit keys
    (pygpu's stable argsort, so the same on every device; ties, 1 in 2**64 per pair, harmless)."""
    if n == 0:
        return _core.zeros(0, dtype=np.int64, device=dev)
    return _core.argsort(_keys(bg, n, dev), kind="stable")


def _shuffle(bg, x, axis):
    if isinstance(x, (ndarray, np.ndarray)) and x.ndim == 0:
        raise TypeError("len() of unsized object")   # NumPy's, before any axis check
    if isinstance(x, ndarray):
        if not x.flags["WRITEABLE"]:
            raise ValueError("array is read-only")
        axis = np.lib.array_utils.normalize_axis_index(axis, x.ndim)
        if x.size == 0:
            return
        x[...] = _core.take(x, _permutation(bg, x.shape[axis], x.device), axis=axis)  # take copies first
        return
    if isinstance(x, np.ndarray):
        if not x.flags.writeable:
            raise ValueError("array is read-only")
        axis = np.lib.array_utils.normalize_axis_index(axis, x.ndim)
        if x.size == 0:
            return
        x[...] = np.take(x, _permutation(bg, x.shape[axis], _core.get_device()).get(), axis=axis)
        return
    if axis != 0:
        raise NotImplementedError("Axis argument is only supported on ndarray objects")
    if not isinstance(x, MutableSequence):
        raise TypeError(f"cannot shuffle a '{type(x).__name__}' object: it is not a mutable sequence")
    items = list(x)
    perm = _permutation(bg, len(items), _core.get_device()).get()
    x[:] = [items[i] for i in perm]


# ---------------------------------------------------------------------- integers

_INT_DTYPES = {np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                                     np.uint64, np.bool_)}


def _bounds_error(closed, low):
    """NumPy's message for an empty interval (format_bounds_error in _bounded_integers.pyx)."""
    if not np.any(low):
        return f"high {'<' if closed else '<='} 0"
    return f"low {'>' if closed else '>='} high"


def _exact_ints(a):
    """A NumPy array as an object array of Python ints (floats truncated, as NumPy's cast)."""
    if a.dtype.kind in "iub":
        return a.astype(object)
    return np.vectorize(int, otypes=[object])(a) if a.size else a.astype(object)


def _integers(bg, low, high, size, dtype, endpoint, device, name):
    dtype = np.dtype(dtype)
    if dtype not in _INT_DTYPES:
        if not dtype.isnative:
            raise ValueError("Providing a dtype with a non-native byteorder is not supported. If you "
                             "require platform-independent byteorder, call byteswap when required.")
        raise TypeError(f"Unsupported dtype {dtype!r} for {name}")
    if dtype == np.bool_:
        lb, ub, tname = 0, 1, "bool"
    else:
        info = np.iinfo(dtype)
        lb, ub, tname = int(info.min), int(info.max), dtype.name
    closed = bool(endpoint)
    shape = None if size is None else _shape(size)
    if shape is not None and 0 in shape:
        return _new(shape, dtype, device)
    low_a, high_a = np.asarray(low), np.asarray(high)
    if low_a.ndim == 0 and high_a.ndim == 0:
        lo, hi = int(low_a), int(high_a)
        if not closed:
            hi -= 1
        if lo < lb:
            raise ValueError(f"low is out of bounds for {tname}")
        if hi > ub:
            raise ValueError(f"high is out of bounds for {tname}")
        if lo > hi:
            raise ValueError(_bounds_error(closed, lo))
        out = _new(() if shape is None else shape, dtype, device)
        rng = hi - lo
        flags = _WIDE if rng > _M32 else 0
        return _fill(bg, out, _DIST["integers"], flags, (lo % (1 << 64), rng))
    lo, hi = _exact_ints(low_a), _exact_ints(high_a)
    if np.size(lo) and np.any(np.asarray(lo) < lb):
        raise ValueError(f"low is out of bounds for {tname}")
    hi = hi - (0 if closed else 1)
    if np.size(hi) and np.any(np.asarray(hi) > ub):
        raise ValueError(f"high is out of bounds for {tname}")
    if np.any(lo > hi):
        raise ValueError(_bounds_error(closed, low_a))
    shape = _broadcast_params(shape, [lo, hi])
    out = _new(shape, dtype, device)
    rng = np.asarray(hi - lo)
    flags = _WIDE if rng.size and np.max(rng) > _M32 else 0
    off = _param(np.asarray(lo % (1 << 64)).astype(np.uint64), shape, np.uint64, out.device)
    rng = _param(rng.astype(np.uint64), shape, np.uint64, out.device)
    return _fill(bg, out, _DIST["integers"], flags, (off, rng))


# ---------------------------------------------------------------------- choice

def _choice(gen, a, size, replace, p, axis, device, legacy):
    bg = gen._bit_generator
    a_original = a
    a_dev = a.device if isinstance(a, ndarray) else None
    a = a if isinstance(a, ndarray) else np.asarray(a)  # a pygpu array stays on its device
    dev = _device(device) if device is not None or a_dev is None else a_dev
    if a.ndim == 0:
        try:
            pop_size = operator.index(a.item())
        except TypeError as exc:
            if legacy:
                raise ValueError("a must be 1-dimensional or an integer") from exc
            raise ValueError(f"a must be a sequence or an integer, not {type(a_original)}") from exc
        if pop_size <= 0 and np.prod(size) != 0:
            raise ValueError("a must be greater than 0 unless no samples are taken" if legacy else
                             "a must be a positive integer unless no samples are taken")
    elif legacy and a.ndim != 1:
        raise ValueError("a must be 1-dimensional")
    else:
        pop_size = a.shape[axis]
        if pop_size == 0 and np.prod(size) != 0:
            raise ValueError("'a' cannot be empty unless no samples are taken" if legacy else
                             "a cannot be empty unless no samples are taken")
    if p is not None:
        atol = np.sqrt(np.finfo(np.float64).eps)
        if isinstance(p, np.ndarray) and np.issubdtype(p.dtype, np.floating):
            atol = max(atol, np.sqrt(np.finfo(p.dtype).eps))
        p = np.ascontiguousarray(p.get() if isinstance(p, ndarray) else p, dtype=np.float64)
        if p.ndim != 1:
            raise ValueError("'p' must be 1-dimensional" if legacy else "p must be 1-dimensional")
        if p.size != pop_size:
            raise ValueError("'a' and 'p' must have same size" if legacy else "a and p must have same size")
        p_sum = float(np.sum(p))
        if np.isnan(p_sum):
            raise ValueError("probabilities contain NaN" if legacy else "Probabilities contain NaN")
        if np.logical_or.reduce(p < 0):
            raise ValueError("probabilities are not non-negative" if legacy else "Probabilities are not non-negative")
        if abs(p_sum - 1.0) > atol:
            raise ValueError("probabilities do not sum to 1" if legacy else
                             "Probabilities do not sum to 1. See Notes section of docstring for more information.")
    shape = () if size is None else _shape(size)
    n = int(np.prod(shape, dtype=np.intp))
    if replace:
        if p is not None:
            cdf = p.cumsum()
            cdf /= cdf[-1]
            u = gen.random(shape, device=dev).get()
            idx = np.asarray(cdf.searchsorted(u, side="right"), dtype=np.int64)
        else:
            idx = gen.integers(0, pop_size, size=shape, device=dev)
    else:
        if n > pop_size:
            raise ValueError("Cannot take a larger sample than population when 'replace=False'" if legacy else
                             "Cannot take a larger sample than population when replace is False")
        if p is not None:
            if np.count_nonzero(p > 0) < n:
                raise ValueError("Fewer non-zero entries in p than size")
            idx = _weighted_sample(gen, p, n, dev).reshape(shape)
        else:
            idx = _sample(gen, pop_size, n, dev).reshape(shape)
    idx = idx if isinstance(idx, ndarray) else _core.asarray(idx, device=dev)
    if a.ndim == 0:
        return idx
    source = a if a_dev is not None and a_dev == dev else _core.asarray(a, device=dev)
    return _core.take(source, idx, axis=axis)


def _sample(gen, pop_size, n, dev):
    """n distinct elements of range(pop_size) in random order: the first n of a permutation
    when n is a fair share of the population, else Floyd's algorithm then a permutation."""
    bg = gen._bit_generator
    if n == 0:
        return _core.zeros(0, dtype=np.int64, device=dev)
    if n * 20 >= pop_size or pop_size <= 10000:
        return _permutation(bg, pop_size, dev)[:n]
    # Floyd: for j = pop_size-n .. pop_size-1 take t in [0, j], or j when t was taken already
    tops = np.arange(pop_size - n, pop_size, dtype=np.int64)
    ts = _integers(bg, 0, tops, None, np.int64, True, dev, "integers").get()
    chosen, taken = np.empty(n, np.int64), set()
    for k, (t, j) in enumerate(zip(ts.tolist(), tops.tolist())):
        v = j if t in taken else t
        taken.add(v)
        chosen[k] = v
    return _core.take(_core.asarray(chosen, device=dev), _permutation(bg, n, dev))


def _weighted_sample(gen, p, n, dev):
    """n distinct indices drawn successively with probabilities proportional to p (what NumPy
    computes), by Efraimidis and Spirakis' keys: the n smallest E_i / p_i, E_i exponential."""
    e = gen.standard_exponential(p.size, device=dev)
    pd = _core.asarray(p, device=dev)
    keys = _core.where(_core.greater(pd, 0), _core.divide(e, pd), np.inf)
    return _core.argsort(keys, kind="stable")[:n]


# ---------------------------------------------------------------------- default_rng

def default_rng(seed=None):
    """A Generator on Philox4x32(seed); a Generator or a Philox4x32 passes through (wrapped)."""
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Philox4x32):
        return Generator(seed)
    if isinstance(seed, RandomState):
        return Generator(seed._bit_generator)
    return Generator(Philox4x32(seed))


# ---------------------------------------------------------------------- RandomState (legacy)

def _check_legacy_seed(seed):
    """NumPy's RandomState rule and errors: None, an int in [0, 2**32) or a 1-d array of them."""
    if seed is None:
        return
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        values = np.array([int(seed)], dtype=object)
    else:
        values = np.asarray(seed.get() if isinstance(seed, _core.ndarray) else seed)
        if values.dtype.kind not in "iub":
            raise TypeError(f"Cannot cast scalar from {values.dtype!r} to dtype('int64') according to the rule 'safe'")
        if values.ndim > 1:
            raise ValueError("Seed array must be 1-d")
    if values.size and (min(int(v) for v in values.ravel()) < 0 or max(int(v) for v in values.ravel()) >= 2**32):
        raise ValueError("Seed must be between 0 and 2**32 - 1")


class RandomState:
    """NumPy's (and CuPy's) legacy RandomState interface on a Philox4x32 stream. Its numbers are
    those of a Generator on the same seed, not NumPy's MT19937 ones."""

    def __init__(self, seed=None):
        self.seed(seed)

    def seed(self, seed=None):
        """Restarts the stream from seed (None: fresh OS entropy; else, as NumPy's RandomState, an
        int in [0, 2**32) or a 1-d sequence of them)."""
        _check_legacy_seed(seed)
        fresh = Philox4x32(seed)
        if "_bit_generator" not in self.__dict__:
            self._bit_generator = fresh
            self._generator = Generator(fresh)
        else:   # in place, as NumPy's: a method taken before (f = rs.beta) draws the new stream too
            bg = self._bit_generator
            with bg.lock:
                bg._key, bg._counter, bg._seed_seq = fresh._key, fresh._counter, fresh._seed_seq

    def get_state(self, legacy=True):
        """The stream's state, for set_state: NumPy's dict for a RandomState whose bit generator is
        not MT19937 (the Philox4x32 key and counter; no Gaussian is ever cached). NumPy's legacy
        tuple holds an MT19937 state, which this stream does not have, so legacy=True warns and
        gives the dict, as NumPy does for such a RandomState."""
        if legacy:
            warnings.warn("get_state and legacy can only be used with the MT19937 BitGenerator. To silence this "
                          "warning, set `legacy` to False.", RuntimeWarning, stacklevel=2)
        return {**self._bit_generator.state, "has_gauss": 0, "gauss": 0.0}

    def set_state(self, state):
        """Restores the stream to a state get_state returned."""
        if isinstance(state, tuple) and (not state or state[0] != "MT19937"):
            raise ValueError("set_state can only be used with legacy MT19937 state instances.")
        if isinstance(state, tuple):   # an MT19937 state: refused as not this stream's
            state = {"bit_generator": state[0]}
        self._bit_generator.state = state

    def __getstate__(self):
        return self.get_state(legacy=False)

    def __setstate__(self, state):
        self._bit_generator = Philox4x32(0)
        self._generator = Generator(self._bit_generator)
        self.set_state(state)

    def __repr__(self):
        return f"RandomState({type(self._bit_generator).__name__}) at 0x{id(self):X}"

    def random_sample(self, size=None, *, device=None):
        """Floats in [0, 1)."""
        return self._generator.random(size, device=device)

    random = ranf = sample = random_sample

    def rand(self, *args, dtype=np.float64, device=None):
        """Floats in [0, 1) of shape args."""
        return self._generator.random(args or None, dtype=dtype, device=device)

    def randn(self, *args, dtype=np.float64, device=None):
        """Standard normals of shape args."""
        return self._generator.standard_normal(args or None, dtype=dtype, device=device)

    def randint(self, low, high=None, size=None, dtype=int, *, device=None):
        """Integers in [low, high) ([0, low) without high)."""
        if high is None:
            high, low = low, 0
        return _integers(self._bit_generator, low, high, size, dtype, False, device, "randint")

    def random_integers(self, low, high=None, size=None, *, device=None):
        """Integers in [low, high] ([1, low] without high): NumPy's deprecated randint(low, high + 1)."""
        if high is None:
            high, low = low, 1
        return _integers(self._bit_generator, low, high, size, int, True, device, "random_integers")

    def tomaxint(self, size=None, *, device=None):
        """Integers in [0, the largest int64] (NumPy's RandomState.tomaxint)."""
        return _integers(self._bit_generator, 0, np.iinfo(np.int64).max, size, np.int64, True, device, "tomaxint")

    def uniform(self, low=0.0, high=1.0, size=None, *, device=None):
        """Floats in [low, high) (high < low allowed, as NumPy's legacy uniform)."""
        alow, ahigh = _host(low, np.float64), _host(high, np.float64)
        rng = np.subtract(ahigh, alow)
        if not np.all(np.isfinite(rng)):
            raise OverflowError("Range exceeds valid bounds")
        return self._generator._cont(_DIST["uniform"], size, [(alow, "", None), (rng, "", None)], device=device)

    def standard_normal(self, size=None, *, device=None):
        """Standard normal draws (mean 0, standard deviation 1)."""
        return self._generator.standard_normal(size, device=device)

    def normal(self, loc=0.0, scale=1.0, size=None, *, device=None):
        """Normal draws of mean loc and standard deviation scale."""
        return self._generator.normal(loc, scale, size, device=device)

    def choice(self, a, size=None, replace=True, p=None, *, device=None):
        """Elements of a (or of arange(a) for an int), with or without replacement, weighted by p."""
        return _choice(self._generator, a, size, replace, p, 0, device, legacy=True)

    def shuffle(self, x):
        """Shuffles x in place along its first axis."""
        _shuffle(self._bit_generator, x, 0)

    def permutation(self, x, *, device=None):
        """A shuffled copy of x along its first axis (of arange(x) for an int)."""
        return self._generator.permutation(x, device=device)

    def hypergeometric(self, ngood, nbad, nsample, size=None, *, device=None):
        """The Generator's, but nsample < 1 refused, as NumPy's legacy RandomState refuses it
        (after its ngood < 0 and nbad < 0 checks)."""
        ns = np.asarray(nsample.get() if isinstance(nsample, ndarray) else nsample)
        if ns.dtype.kind in "iuf" and np.any(ns < 1):
            for v, name in ((ngood, "ngood"), (nbad, "nbad")):
                if np.any(np.asarray(v.get() if isinstance(v, ndarray) else v) < 0):
                    raise ValueError(f"{name} < 0")
            raise ValueError("nsample < 1 or nsample is NaN" if ns.ndim == 0 else "nsample < 1 or nsample contains NaNs")
        return self._generator.hypergeometric(ngood, nbad, nsample, size, device=device)

    def __getattr__(self, name):
        # the other distributions (exponential, gamma, poisson, ...) as the Generator's
        if name.startswith("_") or name not in _LEGACY_FORWARDED:
            raise AttributeError(f"'RandomState' object has no attribute '{name}'")
        return getattr(self._generator, name)


_LEGACY_FORWARDED = {"beta", "binomial", "chisquare", "exponential", "gamma", "geometric", "laplace", "logistic",
                     "lognormal", "poisson", "standard_exponential", "standard_gamma", "standard_t", "bytes",
                     "standard_cauchy", "rayleigh", "pareto", "weibull", "power", "gumbel", "triangular", "wald", "f",
                     "noncentral_chisquare", "noncentral_f", "negative_binomial", "dirichlet", "multivariate_normal",
                     "multinomial", "logseries", "zipf", "vonmises"}

# ---------------------------------------------------------------------- the global RandomState

_global_state = None
_global_lock = threading.Lock()


def get_random_state():
    """The global RandomState behind the module functions (created on first use)."""
    global _global_state
    with _global_lock:
        if _global_state is None:
            _global_state = RandomState()
        return _global_state


def set_random_state(rs):
    """Replaces the global RandomState."""
    global _global_state
    if not isinstance(rs, RandomState):
        raise TypeError(f"expected a pygpu.random.RandomState, not {type(rs).__name__}")
    with _global_lock:
        _global_state = rs


def seed(seed=None):
    """Restarts the global stream from seed."""
    get_random_state().seed(seed)


def get_state(legacy=True):
    """The global stream's state, for set_state (see RandomState.get_state: a dict, and with
    legacy=True NumPy's warning that the legacy tuple needs MT19937)."""
    if legacy:
        warnings.warn("get_state and legacy can only be used with the MT19937 BitGenerator. To silence this "
                      "warning, set `legacy` to False.", RuntimeWarning, stacklevel=2)
    return get_random_state().get_state(legacy=False)


def set_state(state):
    """Restores the global stream to a state get_state returned."""
    get_random_state().set_state(state)


def rand(*args, dtype=np.float64, device=None):
    """Floats in [0, 1) of shape args, on the current device."""
    return get_random_state().rand(*args, dtype=dtype, device=device)


def randn(*args, dtype=np.float64, device=None):
    """Standard normals of shape args, on the current device."""
    return get_random_state().randn(*args, dtype=dtype, device=device)


def randint(low, high=None, size=None, dtype=int, *, device=None):
    """Integers in [low, high) ([0, low) without high) from the global stream, on the current device."""
    return get_random_state().randint(low, high, size, dtype, device=device)


def random_sample(size=None, *, device=None):
    """Floats in [0, 1) from the global stream (also named random, ranf and sample)."""
    return get_random_state().random_sample(size, device=device)


random = ranf = sample = random_sample


def uniform(low=0.0, high=1.0, size=None, *, device=None):
    """Floats in [low, high) from the global stream (high < low allowed, as NumPy's legacy uniform)."""
    return get_random_state().uniform(low, high, size, device=device)


def normal(loc=0.0, scale=1.0, size=None, *, device=None):
    """Normal draws of mean loc and standard deviation scale from the global stream."""
    return get_random_state().normal(loc, scale, size, device=device)


def standard_normal(size=None, *, device=None):
    """Standard normal draws (mean 0, standard deviation 1) from the global stream."""
    return get_random_state().standard_normal(size, device=device)


def choice(a, size=None, replace=True, p=None, *, device=None):
    """Elements of a (or of arange(a) for an int), with or without replacement, weighted by p."""
    return get_random_state().choice(a, size, replace, p, device=device)


def shuffle(x):
    """Shuffles x in place along its first axis, from the global stream."""
    get_random_state().shuffle(x)


def permutation(x, *, device=None):
    """A shuffled copy of x along its first axis (of arange(x) for an int), from the global stream."""
    return get_random_state().permutation(x, device=device)


def random_integers(low, high=None, size=None):
    """Integers in [low, high] (NumPy's deprecated spelling of randint(low, high + 1))."""
    return get_random_state().random_integers(low, high, size)


def get_bit_generator():
    """The global RandomState's bit generator (a Philox4x32)."""
    return get_random_state()._bit_generator


def set_bit_generator(bitgen):
    """Makes the global RandomState draw from bitgen (a Philox4x32)."""
    if not isinstance(bitgen, Philox4x32):
        raise TypeError(f"bitgen must be a pygpu.random.Philox4x32, not {type(bitgen).__name__}")
    state = get_random_state()
    state._bit_generator = bitgen
    state._generator = Generator(bitgen)


def _module_function(name):
    def draw(*args, **kwargs):
        return getattr(get_random_state(), name)(*args, **kwargs)
    draw.__name__ = draw.__qualname__ = name
    draw.__doc__ = f"The global RandomState's {name} (see Generator.{name})."
    return draw


# the module functions NumPy's np.random has for every distribution, on the global RandomState
# (hypergeometric is RandomState's own, with the legacy nsample check)
for _name in sorted(_LEGACY_FORWARDED | {"hypergeometric"}):
    globals()[_name] = _module_function(_name)
del _name
