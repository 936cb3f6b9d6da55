"""User kernels in CUDA C: compiled at run time for each device (NVRTC on a GPU, the host C++
compiler on the CPU), cached in memory and on disk, launched through the C core.

    cache.py       the disk and memory cache (PYGPU_CACHE_DIR)
    nvrtc.py       NVRTC: finding and loading it, the target architecture, compiling
    hostcc.py      the host C++ compiler and the CUDA-on-CPU header (kernels/cuda_cpu.h)
    signature.py   kernel parameters read from the source, for the launch's argument checks
    module.py      modules per device (SourceModule, ImageModule): what kernels are built on
    raw.py         pygpu.RawKernel, pygpu.RawModule
    elementwise.py pygpu.ElementwiseKernel
    reduction.py   pygpu.ReductionKernel (ElementwiseKernel's parameters, the reduction kernels' structure)

A front end that emits CUDA C (cuda.jit) hands its source to module.SourceModule and launches
through a subclass of _core._Kernel, as RawKernel does.
"""
