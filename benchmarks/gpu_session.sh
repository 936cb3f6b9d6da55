#!/usr/bin/env bash
# One lent-GPU session in one command (device time is short; see docs/testing.md):
# report the card, use the carried extension or build one here, then, side by side, the test
# suite on cuda:0 and compute-sanitizer's four tools over the reduction, VM and kernel tests;
# then, alone on the card, the benchmarks on cuda:0 against CuPy/PyTorch/Numba. Logs and JSON
# come back in $OUT/logs.tar.gz.
#   PYGPU_CUDA_ARCHS=90 bash benchmarks/gpu_session.sh                  (everything)
#   STEPS=tests PYTEST_ARGS="tests/test_elementwise.py" bash ...         (a part)
#   STEPS=bench BENCH_GROUPS="reductions vectorize" BENCH_ARGS=--quick bash ...
#   STEPS=sanitize SAN_TOOLS="memcheck racecheck" SAN_FILES_ALL="tests/test_vreduce.py" bash ...
#   (SAN_FILES_initcheck=... and the like: one tool's files)
# The release wheels' kernels come from NVRTC 12 (build_nvrtc.py): to run the suite on those, build
# the carried extension here with PYGPU_CUDA_TOOLCHAIN=nvrtc12 (docs/install.md: Wheels); `python -m pygpu`
# in main.txt then says "CUDA kernels: NVRTC 12.9 for ...".
# Each step has its own time limit (TEST_TIMEOUT, SAN_TIMEOUT, BENCH_TIMEOUT per group) so that
# the whole fits one device call; a step cut short still leaves its log.
set -u
OUT=${OUT:-$(mktemp -d)}
export PYTHONUNBUFFERED=1 PYGPU_CUDA_ARCHS=${PYGPU_CUDA_ARCHS:-90}
PY=${PYTHON:-python3}
STEPS=${STEPS:-tests,sanitize,bench}
T0=$(date +%s)
# the checkout first on the path, for the tests' child processes too (pytest alone puts it on sys.path)
export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
# Python packages the machine lacks (dask, distributed: tests/dask), carried as wheels in .whl/
# (the device tool's README says how to download them here)
if compgen -G ".whl/*.whl" >/dev/null; then
    $PY -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl &&
        export PYTHONPATH="$PYTHONPATH:/tmp/site"
fi
stamp() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
    --format=csv 2>&1 | tee "$OUT/device.txt"
echo "code at ${CODE:-(set CODE=<commit> to record it)}" | tee -a "$OUT/device.txt"
if ! $PY -c "import pygpu._core" 2>"$OUT/import.log"; then
    cat "$OUT/import.log"; echo "building the extension here"
    ( time $PY setup.py build_ext --inplace -j 16 ) >"$OUT/build.log" 2>&1 || { tail -40 "$OUT/build.log"; exit 1; }
    tail -3 "$OUT/build.log"
fi
$PY -m pygpu 2>&1 | tee "$OUT/main.txt"

# compute-sanitizer: each tool over the tests of the code that had never run on a GPU, cuda:0
# only, with the pool off (PYGPU_POOL=off: every array its own allocation of its exact size, so
# memcheck sees reads past an end and initcheck reads of unwritten memory). The four tools run
# at once, beside the suite; each file list starts with what that tool checks best.
SAN_PIDS=()
if [[ $STEPS == *sanitize* ]]; then
    CS=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer /usr/local/cuda*/compute-sanitizer/compute-sanitizer 2>/dev/null | head -1)
    red="tests/test_reductions.py tests/test_scans.py tests/test_vreduce.py"
    vm="tests/test_vectorize.py tests/test_fuse.py"
    ker="tests/test_raw_kernels.py tests/test_cuda_jit.py tests/test_elementwise_kernel.py tests/test_reduction_kernel.py"
    # not under a sanitizer: the fake-driver tests (their child loads another libcuda), the pool
    # statistics test (the pool is off) and the longest scans (minutes of instrumented kernels)
    SAN_SKIP="not mock and not one_pass_without_temporaries and not long_scans"
    declare -A SAN_FILES=([memcheck]="$vm $ker $red" [racecheck]="$ker $vm $red"
                          [synccheck]="$ker $red $vm" [initcheck]="$vm $red $ker")
    if [[ -z $CS ]]; then
        echo "compute-sanitizer not found"
    else
        stamp "sanitize with $CS"
        for tool in ${SAN_TOOLS:-memcheck racecheck synccheck initcheck}; do
            files_of_tool="SAN_FILES_$tool"   # SAN_FILES_initcheck=... narrows one tool
            # API errors off: pygpu asks cuPointerGetAttribute whether a host buffer is pinned,
            # and the answer for pageable memory is an error code that would use up the report
            ( PYGPU_POOL=off PYGPU_TEST_DEVICES=cuda:0 timeout "${SAN_TIMEOUT:-240}" "$CS" --tool "$tool" \
                  --report-api-errors no --error-exitcode 99 --print-limit 50 \
                  $PY -m pytest ${!files_of_tool:-${SAN_FILES_ALL:-${SAN_FILES[$tool]}}} -v -p no:cacheprovider -p timeout --timeout=120 \
                  --tb=line -k "${SAN_SELECT:-$SAN_SKIP}" >"$OUT/san_$tool.log" 2>&1
              echo "sanitize $tool rc=$?" >>"$OUT/san_$tool.log" ) &
            SAN_PIDS+=($!)
        done
    fi
fi
if [[ $STEPS == *tests* ]]; then
    stamp "tests"
    PYGPU_TEST_DEVICES=${PYGPU_TEST_DEVICES:-cuda:0} timeout "${TEST_TIMEOUT:-300}" $PY -m pytest ${PYTEST_ARGS:-tests} \
        -q -p no:cacheprovider --tb=short -p timeout --timeout=120 ${PYTEST_XDIST:--n 10} >"$OUT/tests.log" 2>&1
    echo "tests rc=$?"; grep -E "^(FAILED|ERROR)" "$OUT/tests.log" | head -80; tail -3 "$OUT/tests.log"
fi
if (( ${#SAN_PIDS[@]} )); then
    wait "${SAN_PIDS[@]}"
    stamp "sanitize done"
    for tool in ${SAN_TOOLS:-memcheck racecheck synccheck initcheck}; do
        f="$OUT/san_$tool.log"
        echo "--- $tool: $(grep -cE 'PASSED|FAILED|ERROR' "$f") tests, $(grep -c '^=========     ' "$f") report lines; $(tail -1 "$f")"
        grep -E "^========= (Invalid|Uninitialized|Race|Barrier|Program hit|ERROR|Error|  *at|Warning)|^========= .*(hazard|error)" "$f" | head -12
        grep -E "(FAILED|ERROR)" "$f" | grep -v "^=" | head -8
    done
fi
if [[ $STEPS == *bench* ]]; then
    # one call, several groups: BENCH_GROUPS="sort linalg:60:--quick" runs each (a group's own time
    # limit and arguments after colons); default: the whole benchmark
    mkdir -p "$OUT/bench"
    for spec in ${BENCH_GROUPS:-all}; do   # (not GROUPS: bash's own, the user's group ids)
        IFS=: read -r g limit extra <<<"$spec"
        stamp "bench $g"
        only=(); [[ $g != all ]] && only=(--only "$g")
        timeout "${limit:-${BENCH_TIMEOUT:-200}}" $PY benchmarks/run.py --device cuda:0 ${BENCH_ARGS:-} ${extra:-} \
            "${only[@]}" --json "$OUT/bench/$g.json" >"$OUT/bench/$g.txt" 2>&1
        echo "bench $g rc=$?"; grep -v "^wrote" "$OUT/bench/$g.txt" | grep -v "^$" | tail -40
    done
fi
stamp "done"
# the device tool returns at most 8 files: everything in one archive
tar -czf /tmp/pygpu_logs.tar.gz -C "$OUT" . && find "$OUT" -mindepth 1 -delete && \
    mv /tmp/pygpu_logs.tar.gz "$OUT/logs.tar.gz"
