#!/usr/bin/env bash
# One lent-GPU session in one command (device time is short; see README "Tests and benchmarks"):
# report the card, use the carried extension or build one here, run the test suite (every device
# present, so cuda:0 and the CPU), then the benchmarks on cuda:0. Logs and JSON go to $OUT.
#   PYGPU_CUDA_ARCHS=90 bash benchmarks/gpu_session.sh            (tests + benchmarks)
#   STEPS=tests PYTEST_ARGS="tests/test_elementwise.py" bash ...   (a part)
set -u
OUT=${OUT:-$(mktemp -d)}
export PYTHONUNBUFFERED=1 PYGPU_CUDA_ARCHS=${PYGPU_CUDA_ARCHS:-90}
PY=${PYTHON:-python3}
STEPS=${STEPS:-tests,bench}
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
    --format=csv 2>&1 | tee "$OUT/device.txt"
if ! $PY -c "import pygpu._core" 2>"$OUT/import.log"; then
    cat "$OUT/import.log"; echo "building the extension here"
    ( time $PY setup.py build_ext --inplace -j 16 ) >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
    tail -3 "$OUT/build.log"
fi
$PY -m pygpu 2>&1 | tee "$OUT/main.txt"
if [[ $STEPS == *tests* ]]; then
    timeout "${TEST_TIMEOUT:-330}" $PY -m pytest ${PYTEST_ARGS:-tests} -q -p no:cacheprovider --tb=short \
        -p timeout --timeout=120 ${PYTEST_XDIST:--n 8} >"$OUT/tests.log" 2>&1
    echo "tests rc=$?"; grep -E "^(FAILED|ERROR)" "$OUT/tests.log" | head -80; tail -3 "$OUT/tests.log"
fi
if [[ $STEPS == *bench* ]]; then
    # one call, several groups: GROUPS="sort linalg" runs each; default: the whole benchmark
    mkdir -p "$OUT/bench"
    for g in ${GROUPS:-all}; do
        only=(); [[ $g != all ]] && only=(--only "$g")
        timeout "${BENCH_TIMEOUT:-200}" $PY benchmarks/run.py --device cuda:0 ${BENCH_ARGS:-} "${only[@]}" \
            --json "$OUT/bench/$g.json" >"$OUT/bench/$g.txt" 2>&1
        echo "bench $g rc=$?"; grep -v "^wrote" "$OUT/bench/$g.txt" | tail -40
    done
fi
# the device tool returns at most 8 files: everything in one archive
tar -czf "$OUT/logs.tar.gz" -C "$OUT" --exclude=logs.tar.gz . && \
    find "$OUT" -mindepth 1 ! -name logs.tar.gz -delete
