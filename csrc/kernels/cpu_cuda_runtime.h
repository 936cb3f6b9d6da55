/* CUDA's <cuda_runtime.h>, <vector_types.h>, <device_launch_parameters.h> and the like, on the
 * CPU: what kernels use of them (the vector types and make_float2 & co., threadIdx & co., the
 * qualifiers) is in kernels/cuda_cpu.h, which every CPU module starts with, so this is empty; the
 * toolkit's own headers redefine those types and do not compile for the CPU. */
