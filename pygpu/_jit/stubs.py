"""Numba's CUDA names for code inside kernels (cuda.grid, cuda.threadIdx.x, cuda.shared.array,
cuda.atomic.add, ...): placeholders the kernel front end (pygpu/_compiler/kernel.py) recognises by
their `_kernel_name`; called from ordinary Python they say where they belong."""
from .._compiler.kir import VECTOR_TYPES


class Stub:
    """A name of Numba's CUDA API that only means something inside a @cuda.jit kernel."""

    def __init__(self, name, doc=None):
        self._kernel_name = name
        # the instance's own docstring (help(cuda.syncthreads)): the class's is a plain str, so
        # an instance attribute wins
        self.__doc__ = "%s\n\nOnly inside a @cuda.jit kernel or device function." % (
            doc or "cuda.%s, as in Numba." % name)

    def __call__(self, *args, **kwargs):
        raise TypeError("cuda.%s() is only available inside a @cuda.jit kernel or device function" % self._kernel_name)

    def __repr__(self):
        return "<cuda.%s>" % self._kernel_name


class _Dim3:
    """threadIdx, blockIdx, blockDim, gridDim: .x .y .z inside a kernel."""

    def __init__(self, name):
        self._kernel_name = name
        self.x = Stub(name + ".x")
        self.y = Stub(name + ".y")
        self.z = Stub(name + ".z")

    def __repr__(self):
        return "<cuda.%s>" % self._kernel_name


class _Namespace:
    """cuda.shared, cuda.local, cuda.const, cuda.atomic, cuda.fp16: Numba's groups of kernel
    functions (cuda.shared.array(shape, dtype), cuda.atomic.add(array, index, value), ...)."""

    def __init__(self, name, members):
        self._kernel_name = name
        for m in members:
            setattr(self, m, Stub("%s.%s" % (name, m)))

    def __repr__(self):
        return "<cuda.%s>" % self._kernel_name


threadIdx = _Dim3("threadIdx")
blockIdx = _Dim3("blockIdx")
blockDim = _Dim3("blockDim")
gridDim = _Dim3("gridDim")
laneid = Stub("laneid", "The thread's lane in its warp, 0 to 31.")
warpsize = Stub("warpsize", "The number of threads in a warp (32).")

shared = _Namespace("shared", ["array"])
local = _Namespace("local", ["array"])
const = _Namespace("const", ["array_like"])
atomic = _Namespace("atomic", ["add", "sub", "max", "min", "nanmax", "nanmin", "and_", "or_", "xor", "exch", "inc",
                               "dec", "cas", "compare_and_swap"])
# cuda.fp16: half-precision arithmetic (each result rounded to float16)
FP16 = ("hadd", "hsub", "hmul", "hdiv", "hneg", "habs", "hfma", "hmax", "hmin", "hsqrt", "hrsqrt", "hrcp", "hexp",
        "hexp2", "hexp10", "hlog", "hlog2", "hlog10", "hsin", "hcos", "hceil", "hfloor", "htrunc", "hrint",
        "heq", "hne", "hge", "hgt", "hle", "hlt")
fp16 = _Namespace("fp16", list(FP16))

FUNCTIONS = ("grid", "gridsize", "syncthreads", "syncthreads_count", "syncthreads_and", "syncthreads_or", "syncwarp",
             "threadfence", "threadfence_block", "threadfence_system", "shfl_sync", "shfl_up_sync", "shfl_down_sync",
             "shfl_xor_sync", "all_sync", "any_sync", "eq_sync", "ballot_sync", "match_any_sync", "match_all_sync",
             "activemask", "lanemask_lt", "popc", "clz", "ffs", "brev", "fma", "cbrt", "selp")
_FUNCTION_DOCS = {
    "grid": "grid(ndim): the thread's absolute index in the grid, an int (ndim=1) or a tuple of 2 or 3 ints.",
    "gridsize": "gridsize(ndim): the number of threads in the grid, an int (ndim=1) or a tuple of 2 or 3 ints.",
    "syncthreads": "syncthreads(): waits until every thread of the block reaches it (CUDA's __syncthreads).",
    "syncthreads_count": "syncthreads_count(predicate): a block barrier that returns how many threads' "
                         "predicate was true.",
    "syncthreads_and": "syncthreads_and(predicate): a block barrier that returns 1 when every thread's "
                       "predicate was true.",
    "syncthreads_or": "syncthreads_or(predicate): a block barrier that returns 1 when any thread's predicate "
                      "was true.",
    "syncwarp": "syncwarp(mask=0xffffffff): waits for the warp's threads named by mask.",
    "threadfence": "threadfence(): orders this thread's memory writes for the whole device.",
    "threadfence_block": "threadfence_block(): orders this thread's memory writes for its block.",
    "threadfence_system": "threadfence_system(): orders this thread's memory writes for the device and the host.",
    "shfl_sync": "shfl_sync(mask, value, src_lane): the value of another lane of the warp.",
    "shfl_up_sync": "shfl_up_sync(mask, value, delta): the value of the lane delta below (own value at the "
                    "bottom).",
    "shfl_down_sync": "shfl_down_sync(mask, value, delta): the value of the lane delta above (own value at the "
                      "top).",
    "shfl_xor_sync": "shfl_xor_sync(mask, value, lane_mask): the value of the lane whose index is this lane's "
                     "xor lane_mask.",
    "all_sync": "all_sync(mask, predicate): nonzero when the predicate is true in every lane named by mask.",
    "any_sync": "any_sync(mask, predicate): nonzero when the predicate is true in any lane named by mask.",
    "eq_sync": "eq_sync(mask, predicate): nonzero when the predicate is the same in every lane named by mask.",
    "ballot_sync": "ballot_sync(mask, predicate): a bit per lane, set where the predicate is true.",
    "match_any_sync": "match_any_sync(mask, value): the bits of the lanes named by mask whose value equals this "
                      "lane's (compared bit for bit).",
    "match_all_sync": "match_all_sync(mask, value): (mask, True) when every lane named by mask has this lane's "
                      "value, else (0, False).",
    "activemask": "activemask(): the bits of the warp's lanes that run this instruction.",
    "lanemask_lt": "lanemask_lt(): the bits of the lanes below this one.",
    "popc": "popc(x): the number of set bits of an integer.",
    "clz": "clz(x): the number of leading zero bits of an integer.",
    "ffs": "ffs(x): the position of the lowest set bit, counting from 1 (0 when none is set).",
    "brev": "brev(x): the bits of an integer in reverse order.",
    "fma": "fma(a, b, c): a * b + c rounded once.",
    "cbrt": "cbrt(x): the cube root.",
    "selp": "selp(predicate, a, b): a where the predicate is true, else b (both evaluated).",
}
for _name in FUNCTIONS:
    globals()[_name] = Stub(_name, "cuda." + _FUNCTION_DOCS[_name])
del _name

# Numba's vector types (cuda.float32x4(x, y, z, w), and CUDA's names: cuda.float4)
for _name, (_base, _n) in VECTOR_TYPES.items():
    globals()[_name] = Stub("vector.%s" % _name, "cuda.%s(%s): CUDA's vector of %d %s, fields %s." % (
        _name, ", ".join("xyzw"[:_n]), _n, _base, " ".join("." + c for c in "xyzw"[:_n])))
del _name, _base, _n

__all__ = ["threadIdx", "blockIdx", "blockDim", "gridDim", "laneid", "warpsize", "shared", "local", "const",
           "atomic", "fp16"] + list(FUNCTIONS) + list(VECTOR_TYPES)
