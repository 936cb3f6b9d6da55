#!/bin/sh
# scikit-learn's own array API tests with pygpu as one more namespace (issue 19's "done means"):
# its tests parametrize over namespaces by name (numpy, array_api_strict, cupy, torch, ...); the
# plugin pygpu_namespace.py adds "pygpu", and -k pygpu runs those cases only.
#
#     pip install scikit-learn scipy array-api-compat
#     tools/sklearn_array_api/run.sh [pytest options]
#
# Measured 2026-11-27 (scikit-learn 1.9.1, SciPy 1.18.1, CPU device, 2-core AMD EPYC): see the
# session note; the whole suite's pygpu cases run in a few minutes.
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "${TMPDIR:-/tmp}"
SCIPY_ARRAY_API=1 PYTHONPATH="$root:$here${PYTHONPATH:+:$PYTHONPATH}" \
    exec python -m pytest -p pygpu_namespace -p no:cacheprovider -q -k pygpu --pyargs sklearn "$@"
