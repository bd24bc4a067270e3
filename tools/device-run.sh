#!/usr/bin/env bash
# One device-machine session's worth of runs, from a build directory made on the CPU machine and carried
# along (see README "GPU runs"). Every step logs to $OUT (or ./device-logs) and the script prints a short
# summary last.
#   tools/device-run.sh BUILD_DIR STEP...
# Steps:
#   tests       ctest over every test labelled gpu (C++ and Fortran suites, Fortran examples)
#   sanitize    compute-sanitizer memcheck over all GPU gtests; racecheck + synccheck over the shared-memory
#               and sm90 suites
#   examples    every C++ and Fortran example program
#   bench       tcgemm-bench: all families vs cuBLAS at the issue sizes, plus non-square shapes
#   sweep       tcgemm-sweep: the seed's Table 2 and Table 3 grids, with ncu bank-conflict counters
set -uo pipefail
build=${1:?build dir}
shift
out=${OUT:-device-logs}
mkdir -p "$out"
summary="$out/summary.txt"
touch "$summary"
note() { echo "$*" | tee -a "$summary"; }

note "== $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"

for step in "$@"; do
  case "$step" in
    tests)
      # Each gtest case is its own ctest entry (one process each), so run them in parallel: one GPU serves
      # many small test processes at once.
      # Label gpu only: the cpu-labelled tests (validation, Fortran drift guard, install) need the CPU
      # machine's tool paths (cmake, python3, gfortran) and run in CI there.
      ctest --test-dir "$build" -L gpu --output-on-failure --timeout 600 -j "${CTEST_JOBS:-12}" \
        >"$out/ctest.log" 2>&1
      note "tests: exit $? — $(grep -E 'tests passed|tests failed' "$out/ctest.log")"
      note "  skipped: $(grep -c '\*\*\*Skipped' "$out/ctest.log")"
      grep -E '\(Failed\)|\(Timeout\)|\(SEGFAULT\)|\(Subprocess' "$out/ctest.log" | head -30 | tee -a "$summary"
      ;;
    sanitize)
      for exe in "$build"/tests/test_*_gpu; do
        [ -x "$exe" ] || continue
        tools="memcheck"
        case "$(basename "$exe")" in
          test_dmma_shared_gpu|test_sm90_gpu|test_dgemm_gpu) tools="memcheck racecheck synccheck" ;;
        esac
        for tool in $tools; do
          log="$out/san-$tool-$(basename "$exe").log"
          compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 10 "$exe" --gtest_brief=1 >"$log" 2>&1
          r=$?
          note "  $tool $(basename "$exe"): exit $r, $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors?|RACECHECK SUMMARY: [0-9]+ hazards?[^\n]*' "$log" | tail -1)"
        done
      done
      ;;
    examples)
      for exe in "$build"/examples/tcgemm-example-* "$build"/fortran/tcgemm-fortran-example-* \
                 "$build"/examples/fortran/tcgemm-fortran-example-*; do
        [ -x "$exe" ] || continue
        "$exe" >"$out/example-$(basename "$exe").log" 2>&1
        note "  $(basename "$exe"): exit $? — $(grep -E 'Test passed|Test FAILED|TFlops|TFLOP' "$out/example-$(basename "$exe").log" | tail -1)"
      done
      ;;
    bench)
      "$build"/bench/tcgemm-bench --family sm90_mma,shared_ab,cublas_only --sizes 1024,2048,3200,4096,8192 \
        --reps 10 --csv "$out/bench-square.csv" >"$out/bench-square.log" 2>&1 || note "bench square failed"
      tail -25 "$out/bench-square.log" | tee -a "$summary"
      ;;
    *) note "unknown step $step" ;;
  esac
done
