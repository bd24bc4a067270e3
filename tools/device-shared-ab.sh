#!/usr/bin/env bash
# The shared_ab (Example 6) measurements of the WMMA-at-90% work, on the device machine, from a build carried
# along: the shared-memory tests, the pipeline grid against the WMMA ceiling, the article's Table 3 with its
# stages axis. Logs go to $OUT (or a fresh folder under /tmp), one summary line per step in summary.txt.
#   tools/device-shared-ab.sh BUILD_DIR STEP...
# Steps:
#   tests     ctest over the shared-memory and sweep GPU tests (every tile x tile_k x stages, all paddings)
#   peak      the dmma_peak example: the WMMA FP64 instruction ceiling of this GPU, same session
#   grid      tcgemm-bench, shared_ab: tiles 64/96/128 x tile_k 16..64 x stages 2..4 (pads 4/4) at n = 4096
#             and 8192, plus the default configuration, against cuBLAS in the same process
#   table3    tcgemm-bench sweep --table3 (n = 3200, stages 1..4)
#   sizes     the best configuration and the default at n = 2048, 3200, 4096, 6144, 8192, 10240
set -uo pipefail
build=${1:?build dir}
shift
out=${OUT:-$(mktemp -d /tmp/shared-ab.XXXXXX)}
mkdir -p "$out"
summary="$out/summary.txt"
note() { echo "$*" | tee -a "$summary"; }
b="$build/bench/tcgemm-bench"
note "== $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"

for step in "$@"; do
  case "$step" in
    tests)
      ctest --test-dir "$build" -L gpu -R 'Shared|shared|Sweep|sweep|DeviceRules' --output-on-failure \
        --timeout 600 -j "${CTEST_JOBS:-12}" >"$out/ctest-shared.log" 2>&1
      note "tests: exit $? — $(grep -E 'tests passed|tests failed' "$out/ctest-shared.log")"
      grep -E '\(Failed\)|\(Timeout\)|\(SEGFAULT\)' "$out/ctest-shared.log" | head -20 | tee -a "$summary"
      ;;
    peak)
      "$build"/examples/tcgemm-example-peak >"$out/peak.log" 2>&1
      note "peak: exit $? — $(grep -iE 'tflop' "$out/peak.log" | tail -2 | tr '\n' ' ')"
      ;;
    grid)
      for n in 4096 8192; do
        "$b" --family shared_ab --tile 64,96,128 --tile-k 16,32,48,64 --pad-a 4 --pad-b 4 --stages 2,3,4 \
          --sizes "$n" --reps "${REPS:-10}" --csv "$out/grid-$n.csv" >"$out/grid-$n.log" 2>&1
        note "grid $n: exit $?"
        "$b" --family shared_ab --sizes "$n" --reps "${REPS:-10}" --csv "$out/default-$n.csv" \
          >"$out/default-$n.log" 2>&1
        note "default $n: exit $? — $(grep -E 'shared_ab' "$out/default-$n.log" | tail -1)"
      done
      ;;
    table3)
      "$b" sweep --table3 --csv "$out/table3.csv" --md "$out/table3.md" >"$out/table3.log" 2>&1
      note "table3: exit $?"
      ;;
    sizes)
      "$b" --family shared_ab ${BEST:+$BEST} --sizes 2048,3200,4096,6144,8192,10240 --reps "${REPS:-10}" \
        --csv "$out/sizes.csv" >"$out/sizes.log" 2>&1
      note "sizes: exit $?"
      ;;
    *) note "unknown step $step"; exit 2 ;;
  esac
done
