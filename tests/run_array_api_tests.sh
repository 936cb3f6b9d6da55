#!/bin/sh
# Runs the array API test suite against pygpu (the standard 2024.12 with every extension: linalg and
# fft), with tests/array_api_xfails.txt as the expected failures.
#
#     tests/run_array_api_tests.sh PATH/TO/array-api-tests [pytest options, e.g. --max-examples 50]
#
# PATH/TO/array-api-tests: a checkout of github.com/data-apis/array-api-tests with its array-api
# submodule (the spec, which the suite reads signatures from), and its requirements installed
# (pytest, hypothesis, ndindex, pytest-json-report).
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
suite=${1:?usage: $0 PATH/TO/array-api-tests [pytest options]}
shift
cd "$suite"
ARRAY_API_TESTS_MODULE=pygpu ARRAY_API_TESTS_VERSION=2024.12 PYTHONPATH="$here${PYTHONPATH:+:$PYTHONPATH}" \
    exec python -m pytest array_api_tests -p no:cacheprovider \
    --xfails-file "$here/tests/array_api_xfails.txt" "$@"
