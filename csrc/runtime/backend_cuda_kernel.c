/* User kernels on the CUDA backend: modules from images (a cubin or PTX that NVRTC compiled, or
 * a cubin/PTX/fatbin file), their functions with what the driver tells of them (parameter sizes
 * through cuFuncGetParamInfo where the driver has it, limits, shared memory), and the launch,
 * which opts a kernel into more dynamic shared memory than the default when a launch asks. */
#include "runtime/cuda_backend.h"

#define ENTER(dev)                          \
    CUcontext saved_;                       \
    if (pg_cuda_enter(dev, &saved_) < 0)    \
        return -1
#define LEAVE(dev) pg_cuda_leave(dev, saved_)

int
pg_cuda_module_load(PgDevice *dev, const void *image, size_t size, void **module)
{
    PG_UNUSED(size);
    ENTER(dev);
    CUmodule m = NULL;
    CUresult r;
    /* the driver may JIT PTX meanwhile */
    Py_BEGIN_ALLOW_THREADS
    r = pg_cu.cuModuleLoadData(&m, image);
    Py_END_ALLOW_THREADS
    LEAVE(dev);
    if (r != CUDA_SUCCESS)
        return pg_cuda_raise(dev, r, "cuModuleLoadData");
    *module = m;
    return 0;
}

void
pg_cuda_module_unload(PgDevice *dev, void *module)
{
    CUcontext saved;
    if (module == NULL || dev->failed || pg_cuda_enter(dev, &saved) < 0) {
        PyErr_Clear();
        return;
    }
    pg_cu.cuModuleUnload((CUmodule)module);
    pg_cuda_leave(dev, saved);
}

static int
device_attribute(PgDevice *dev, int attribute, int *value)
{
    CUresult r = pg_cu.cuDeviceGetAttribute(value, attribute, PG_CUDA_IMPL(dev)->cudev);
    return r == CUDA_SUCCESS ? 0 : pg_cuda_raise(dev, r, "cuDeviceGetAttribute");
}

static int
function_attribute(PgDevice *dev, CUfunction f, int attribute, int *value)
{
    CUresult r = pg_cu.cuFuncGetAttribute(value, attribute, f);
    return r == CUDA_SUCCESS ? 0 : pg_cuda_raise(dev, r, "cuFuncGetAttribute");
}

/* The parameters' sizes as the compiled function has them, where the driver can tell (12.4+). */
static int
read_params(PgDevice *dev, CUfunction f, PgFunctionInfo *info)
{
    info->nparams = -1;
    if (pg_cu.cuFuncGetParamInfo == NULL)
        return 0;
    size_t count = 0, offset, size;
    CUresult r;
    while ((r = pg_cu.cuFuncGetParamInfo(f, count, &offset, &size)) == CUDA_SUCCESS && count < 65536)
        count++;
    if (r == CUDA_ERROR_NOT_SUPPORTED)
        return 0;
    if (r != CUDA_ERROR_INVALID_VALUE && r != CUDA_SUCCESS)
        return pg_cuda_raise(dev, r, "cuFuncGetParamInfo");
    info->params = PyMem_Malloc(sizeof(PgParamInfo) * (count ? count : 1));
    if (info->params == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        if ((r = pg_cu.cuFuncGetParamInfo(f, i, &offset, &size)) != CUDA_SUCCESS)
            return pg_cuda_raise(dev, r, "cuFuncGetParamInfo");
        info->params[i] = (PgParamInfo){(int32_t)size, PG_PARAM_UNKNOWN, -1};
    }
    info->nparams = (int)count;
    return 0;
}

static int
kernel_get_in_context(PgDevice *dev, void *module, const char *name, PgFunctionInfo *info)
{
    CUfunction f = NULL;
    CUresult r = pg_cu.cuModuleGetFunction(&f, (CUmodule)module, name);
    if (r == CUDA_ERROR_NOT_FOUND)
        return 1;
    if (r != CUDA_SUCCESS) {
        char call[300];
        snprintf(call, sizeof call, "cuModuleGetFunction(\"%.200s\")", name);
        return pg_cuda_raise(dev, r, call);
    }
    memset(info, 0, sizeof *info);
    info->handle = f;
    info->module = module;
    int shared = 0, block_shared = 0, optin = 0, dynamic = 0, grid[3], block[3];
    if (read_params(dev, f, info) < 0 ||
        function_attribute(dev, f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, &info->max_threads) < 0 ||
        function_attribute(dev, f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, &shared) < 0 ||
        function_attribute(dev, f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, &dynamic) < 0 ||
        function_attribute(dev, f, CU_FUNC_ATTRIBUTE_NUM_REGS, &info->num_regs) < 0 ||
        function_attribute(dev, f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, &info->local_bytes) < 0 ||
        function_attribute(dev, f, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, &info->const_bytes) < 0 ||
        function_attribute(dev, f, CU_FUNC_ATTRIBUTE_PTX_VERSION, &info->ptx_version) < 0 ||
        function_attribute(dev, f, CU_FUNC_ATTRIBUTE_BINARY_VERSION, &info->binary_version) < 0 ||
        device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, &block_shared) < 0 ||
        device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, &block[0]) < 0 ||
        device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y, &block[1]) < 0 ||
        device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z, &block[2]) < 0 ||
        device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, &grid[0]) < 0 ||
        device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, &grid[1]) < 0 ||
        device_attribute(dev, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z, &grid[2]) < 0) {
        PyMem_Free(info->params);
        info->params = NULL;
        return -1;
    }
    /* opting in beyond the default is a Volta+ feature; an old driver that does not know the
     * attribute leaves the default as the limit */
    if (pg_cu.cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
                                   PG_CUDA_IMPL(dev)->cudev) != CUDA_SUCCESS || optin < block_shared)
        optin = block_shared;
    for (int d = 0; d < 3; d++) {
        info->max_block[d] = block[d];
        info->max_grid[d] = grid[d];
    }
    info->static_shared = shared;
    info->max_shared = optin;
    info->shared_opted = dynamic;
    return 0;
}

int
pg_cuda_kernel_get(PgDevice *dev, void *module, const char *name, PgFunctionInfo *info)
{
    ENTER(dev);
    int rc = kernel_get_in_context(dev, module, name, info);
    LEAVE(dev);
    return rc;
}

/* A cooperative launch: every block resident at once, so that a grid-wide sync cannot wait for a
 * block that never starts. The grid is checked against the occupancy the driver computes first. */
static int
cooperative_launch(PgDevice *dev, CUfunction f, const PgLaunchConfig *cfg, void **args, void *stream)
{
    if (pg_cu.cuLaunchCooperativeKernel == NULL || pg_cu.cuOccupancyMaxActiveBlocksPerMultiprocessor == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "this CUDA driver has no cooperative launch (cuLaunchCooperativeKernel)");
        return -1;
    }
    int per_sm = 0;
    unsigned int threads = cfg->block[0] * cfg->block[1] * cfg->block[2];
    CUresult r = pg_cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, (int)threads, cfg->shared_mem);
    if (r != CUDA_SUCCESS)
        return pg_cuda_raise(dev, r, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    unsigned long long blocks = (unsigned long long)cfg->grid[0] * cfg->grid[1] * cfg->grid[2];
    unsigned long long resident = (unsigned long long)per_sm * (unsigned long long)PG_CUDA_IMPL(dev)->sm_count;
    if (blocks > resident) {
        PyErr_Format(PyExc_ValueError,
                     "cooperative launch of %llu blocks: at most %llu blocks of %u threads of this kernel are "
                     "resident at once on %R (%d per multiprocessor x %d multiprocessors)",
                     blocks, resident, threads, (PyObject *)dev, per_sm, PG_CUDA_IMPL(dev)->sm_count);
        return -1;
    }
    r = pg_cuda_queue_launch(dev, f, cfg->grid, cfg->block, (unsigned int)cfg->shared_mem, stream, args, 1);
    return r == CUDA_SUCCESS ? 0 : pg_cuda_raise(dev, r, "cuLaunchCooperativeKernel");
}

static int
kernel_launch_in_context(PgDevice *dev, PgFunctionInfo *info, const PgLaunchConfig *cfg, void **args, void *stream)
{
    CUfunction f = info->handle;
    CUresult r;
    if ((int64_t)cfg->shared_mem > info->shared_opted) {
        /* more than the 48 KiB a kernel gets by default: the driver wants to be asked first */
        r = pg_cu.cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)cfg->shared_mem);
        if (r != CUDA_SUCCESS)
            return pg_cuda_raise(dev, r, "cuFuncSetAttribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)");
        info->shared_opted = (int64_t)cfg->shared_mem;
    }
    if (cfg->cooperative)
        return cooperative_launch(dev, f, cfg, args, stream);
    r = pg_cuda_queue_launch(dev, f, cfg->grid, cfg->block, (unsigned int)cfg->shared_mem, stream, args, 0);
    return r == CUDA_SUCCESS ? 0 : pg_cuda_raise(dev, r, "cuLaunchKernel");
}

int
pg_cuda_kernel_launch(PgDevice *dev, PgFunctionInfo *info, const PgLaunchConfig *cfg, void **args, void *stream)
{
    ENTER(dev);
    int rc = kernel_launch_in_context(dev, info, cfg, args, stream);
    LEAVE(dev);
    return rc;
}

int
pg_cuda_module_global(PgDevice *dev, void *module, const char *name, void **ptr, size_t *size)
{
    ENTER(dev);
    CUdeviceptr p = 0;
    size_t n = 0;
    CUresult r = pg_cu.cuModuleGetGlobal(&p, &n, (CUmodule)module, name);
    LEAVE(dev);
    if (r == CUDA_ERROR_NOT_FOUND)
        return 1;
    if (r != CUDA_SUCCESS)
        return pg_cuda_raise(dev, r, "cuModuleGetGlobal");
    *ptr = (void *)(uintptr_t)p;
    *size = n;
    return 0;
}
