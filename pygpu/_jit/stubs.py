"""Numba's CUDA names for code inside kernels (cuda.grid, cuda.threadIdx.x, cuda.shared.array,
cuda.atomic.add, ...): placeholders the kernel front end (pygpu/_compiler/kernel.py) recognises by
their `_kernel_name`; called from ordinary Python they say where they belong."""
from .._compiler.kir import VECTOR_TYPES


class Stub:
    __slots__ = ("_kernel_name",)

    def __init__(self, name):
        self._kernel_name = name

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
laneid = Stub("laneid")
warpsize = Stub("warpsize")

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
             "shfl_xor_sync", "all_sync", "any_sync", "eq_sync", "ballot_sync", "activemask", "lanemask_lt", "popc",
             "clz", "ffs", "brev", "fma", "cbrt")
for _name in FUNCTIONS:
    globals()[_name] = Stub(_name)
del _name

# Numba's vector types (cuda.float32x4(x, y, z, w), and CUDA's names: cuda.float4)
for _name in VECTOR_TYPES:
    globals()[_name] = Stub("vector.%s" % _name)
del _name

__all__ = ["threadIdx", "blockIdx", "blockDim", "gridDim", "laneid", "warpsize", "shared", "local", "const",
           "atomic", "fp16"] + list(FUNCTIONS) + list(VECTOR_TYPES)
