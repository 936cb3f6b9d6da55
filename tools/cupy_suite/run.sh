#!/usr/bin/env bash
# CuPy's own test suite against pygpu (a differential hunt: CuPy's tests compare cupy with NumPy).
#   [PYTHON=python3.12] bash tools/cupy_suite/run.sh CUPY_GIT_DIR [pytest arguments, e.g. cupy_tests/math_tests -x]
# CUPY_GIT_DIR: a clone or bare mirror of github.com/cupy/cupy (the library's `fetch` gives one).
# CuPy's tests and its cupy.testing package are copied from it (at CUPY_COMMIT) into a work folder,
# beside this folder's shim: a package `cupy` that is pygpu under that name plus stubs of the
# CuPy-internal module names the tests import. The shim only maps names, so a failure is a pygpu
# gap or defect, CuPy-only API, or one of pygpu's documented design differences: triage each.
set -euo pipefail
CUPY_GIT_DIR=${1:?usage: run.sh CUPY_GIT_DIR [pytest args]}
shift
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
COMMIT=${CUPY_COMMIT:-6b6d9563c4f7410cd1866a11b2f71a60dd45a68c}   # the hunts of 2026-11-28
WORK=${CUPY_SUITE_DIR:-/tmp/pygpu-cupy-suite}
rm -rf "$WORK" && mkdir -p "$WORK/shim"
git -C "$CUPY_GIT_DIR" archive "$COMMIT" cupy/testing tests/cupy_tests tests/conftest.py | tar -x -C "$WORK"
cp -r "$HERE/shim/." "$WORK/shim/"
mv "$WORK/cupy/testing" "$WORK/shim/cupy/testing"
cd "$WORK/tests"
PYTHONPATH="$WORK/shim:$ROOT${PYTHONPATH:+:$PYTHONPATH}" exec "${PYTHON:-python3}" -m pytest -p no:cacheprovider \
    --continue-on-collection-errors -q "${@:-cupy_tests}"
