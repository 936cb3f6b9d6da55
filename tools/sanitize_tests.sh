#!/usr/bin/env bash
# The test suite under AddressSanitizer + UndefinedBehaviorSanitizer (issue 16): a copy of the
# checkout is built with PYGPU_SANITIZE=address,undefined (the host layers instrumented, kernels/
# plain; no CUDA kernels: the CPU backend and the fake driver are what run without a GPU) and the
# tests run against it with the sanitizer runtime preloaded. The first report fails the run.
#   bash tools/sanitize_tests.sh [pytest arguments]        (default: the whole suite)
# PYGPU_SANITIZE_DIR names the copy (default build/sanitize, reused: only changed files rebuild).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${PYGPU_SANITIZE_DIR:-$ROOT/build/sanitize}
PY=${PYTHON:-python3}
mkdir -p "$WORK"
# the sources as they are in the checkout (committed or not); -a keeps their times, so a reused
# copy rebuilds only what changed (its objects are in $WORK/build); the normal build's extension
# is left behind; README.md and docs/ for tests/test_readme.py, whose examples then run instrumented too
for part in csrc pygpu tests setup.py build_cuda.py pyproject.toml README.md docs; do
    rm -rf "${WORK:?}/$part"
    cp -a "$ROOT/$part" "$WORK/"
done
find "$WORK/pygpu" -name '*.so' -delete
# kernels/ is built without the sanitizers, with the same flags as the normal build: take its
# objects from the checkout's build (made from these sources just before, in CI: nine minutes of
# a 2-core machine saved), newer than the copied sources
for t in "$ROOT"/build/temp.*; do
    [[ -d $t/csrc/kernels ]] || continue
    mkdir -p "$WORK/build/$(basename "$t")/csrc/kernels"
    cp "$t"/csrc/kernels/*.o "$t"/csrc/kernels/*.d "$WORK/build/$(basename "$t")/csrc/kernels/"
done
cd "$WORK"
start=$(date +%s)
PYGPU_SANITIZE=address,undefined PYGPU_NO_CUDA=1 "$PY" setup.py build_ext --inplace >"$WORK/build.log" 2>&1 ||
    { tail -30 "$WORK/build.log"; exit 1; }
echo "sanitizer build: $(( $(date +%s) - start )) s"
CC=${CC:-gcc}
# leaks off: CPython keeps objects alive at exit by design; allocator_may_return_null: the
# out-of-memory tests ask for more than the machine has and expect MemoryError
export LD_PRELOAD="$($CC -print-file-name=libasan.so) $($CC -print-file-name=libubsan.so)"
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:detect_stack_use_after_return=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0:handle_sigill=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export PYGPU_TEST_ALLOW_NO_CUDA=1
start=$(date +%s)
set +e
"$PY" -m pytest -q -p no:cacheprovider -x "${@:-tests}"
rc=$?
echo "suite under the sanitizers: $(( $(date +%s) - start )) s, exit $rc"
exit $rc
