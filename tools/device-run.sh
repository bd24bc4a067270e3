#!/usr/bin/env bash
# One device-machine session's worth of runs, from a build directory made on the CPU machine and carried
# along (see README "GPU runs"). Every step logs into a fresh directory, made with mktemp under $LOG_DIR
# (default /tmp): nothing that exists is removed or overwritten. A short summary goes to $OUT/summary.txt
# (or into the log directory without $OUT), the logs to $OUT/logs.tgz.
#   tools/device-run.sh BUILD_DIR STEP...
# Steps:
#   tests       ctest over every test labelled gpu (C++ and Fortran suites, Fortran examples)
#   sanitize    compute-sanitizer memcheck over all GPU gtests; racecheck + synccheck over the shared-memory
#               and sm90 suites
#   examples    every C++ and Fortran example program
#   bench       tcgemm-bench: all families vs cuBLAS at the issue sizes, plus non-square shapes
#   sweep       tcgemm-bench sweep: the article's Table 2 and Table 3 grids, with ncu bank-conflict counters
#   suite       tcgemm-bench --suite bench/suites/dgemm-shapes.txt: tcgemm_dgemm vs cuBLAS at every shape
#   suite-untuned  the same with bench/suites/dgemm-shapes-untuned.txt (shapes the model was not tuned on)
#   suite-loop  the main suite's shapes of at most 2^36 flop timed as loops of 20 back-to-back calls: the throughput
#               a code calling DGEMM in a loop sees, with launch latency hidden
#   small-grid  sm90_mma's 32x32, 32x64, 64x64 and 128x64 tiles with 1-5 k-slices at sizes of 1-2 rounds of blocks
#               (255..2048, even and odd), as loops of 10 calls, and tcgemm-plan-check's score of the plan
#               model against them: the model's calibration data there
#   host-bench  tcgemm-host-bench: tcgemm_dgemm_host against NVBLAS and cublasXt on host arrays (pageable,
#               pinned), squares 4096..16384 and rectangular shapes, with the link/compute bound
#   host-profile  where the host path's time goes: pinned link both ways at once (--duplex), strided 2D
#               copies by row length (--strided), and per-call stream timelines (TCGEMM_HOST_PROFILE=1)
#   lowp-bench  tcgemm-lowp-bench: tcgemm_gemm_ex (F16, BF16, TF32 on every WMMA shape) against its WMMA
#               instruction ceilings and cublasGemmEx, n = 4096 and 8192
#   lowp-sweep  tcgemm-bench sweep --precision f16|bf16|tf32|f16acc16: the article's Table 2 and Table 3 on the
#               WMMA family of each lower precision (ncu bank-conflict counters for f16)
#   lowp-accuracy  tcgemm-lowp-accuracy: tcgemm_sgemm's error in each precision against an FP64 reference,
#               n = 1024, k = 64 ... 16384 (the README's accuracy table)
#   host-threads  tcgemm_dgemm_host alone at 8192 and 16384 with 4, 8, 12 and 15 staging threads
#               (TCGEMM_HOST_COPY_THREADS), one process each: where pageable arrays' staging saturates
set -uo pipefail
build=${1:?build dir}
shift
# The device tool brings back at most 8 files from $OUT: logs go to a work folder and come back as one
# archive plus the summary. The folder is new for every run, because LOG_DIR names the user's directory:
# clearing it for a run could delete whatever it was pointed at.
log_parent=${LOG_DIR:-/tmp}
mkdir -p "$log_parent" || exit 2
out=$(mktemp -d "$log_parent/tcgemm-device-logs.XXXXXX") || exit 2
summary="${OUT:-$out}/summary.txt"  # straight into $OUT, so a run cut short still reports
touch "$summary"
note() { echo "$*" | tee -a "$summary"; }

note "== $(date -u +%Y-%m-%dT%H:%MZ) $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null)"
note "logs in $out"
# The returned archive is written at the start and refreshed after every step: a run stopped at the
# device's time limit still brings back the logs of the steps that finished.
pack_logs() {
  if [ -n "${OUT:-}" ]; then
    tar czf "$OUT/logs.tgz" -C "$(dirname "$out")" "$(basename "$out")"
  fi
}
pack_logs

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
      # One compute-sanitizer process per (test executable, tool), several at a time: the suites use small
      # problems, so the GPU has room, and the sanitizers' slowdown is mostly on the host side. The longest
      # jobs (racecheck of the kernels with shared-memory tiles) start first. Each job writes its line to the
      # summary as it ends, so a run stopped at its time limit still reports the jobs that finished.
      jobs=()
      for tool in racecheck synccheck memcheck; do
        for exe in "$build"/tests/test_*_gpu; do
          [ -x "$exe" ] || continue
          # test_large_gpu multiplies 2^31 + 9 rows (32 GB of operands): it runs in the plain suite; under
          # a sanitizer its kernels would take hours.
          [ "$(basename "$exe")" = test_large_gpu ] && continue
          case "$tool:$(basename "$exe")" in
            memcheck:*) ;;
            *:test_dmma_shared_gpu|*:test_sm90_gpu|*:test_dgemm_gpu|*:test_dmma_basic_gpu|*:test_robustness_gpu|*:test_shapes_gpu) ;;
            *) continue ;;
          esac
          jobs+=("$tool:$exe")
        done
      done
      run_one() {
        local tool=${1%%:*} exe=${1#*:}
        local log="$out/san-$tool-$(basename "$exe").log"
        # test_robustness_gpu: StickyError makes a kernel fault on purpose and DeviceReset resets the device,
        # each in a child process the sanitizer would follow; the legacy-stream test times a host call
        # against a spinning kernel. The plain run (step tests) covers those three.
        # Its PendingError tests also make failing CUDA calls on purpose (the caller's stale error), which
        # memcheck would count as API errors: kernels' memory accesses are still checked.
        local filter='*' api_errors=explicit
        if [ "$(basename "$exe")" = test_robustness_gpu ]; then
          filter='-StickyError.*:DeviceReset.*:Concurrency.HostCallDoesNotWaitForTheLegacyStream'
          api_errors=no
        fi
        # test_shapes_gpu under racecheck: its deep-k products (tens of thousands of k-slices' shared-memory
        # traffic) take more than 540 s; the kernels and their edge cases are all in the smaller tests.
        if [ "$tool:$(basename "$exe")" = racecheck:test_shapes_gpu ]; then
          filter='Skinny.*:EdgeTiles.*:TnForm.*:SplitK.EveryForm*'
        fi
        timeout "${SAN_TIMEOUT:-3000}" compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 10 \
          --report-api-errors "$api_errors" "$exe" --gtest_brief=1 --gtest_filter="$filter" >"$log" 2>&1
        local rc=$?
        echo "  $tool $(basename "$exe"): exit $rc, $(grep -Eo 'ERROR SUMMARY: [0-9]+ errors?|RACECHECK SUMMARY: [0-9]+ hazards?' "$log" | tail -1), $(grep -Eo '\[  PASSED  \] [0-9]+ tests?' "$log") $(grep -Eo '\[  SKIPPED \] [0-9]+ tests?' "$log")" >>"$summary"
      }
      export -f run_one
      export out summary
      printf '%s\n' "${jobs[@]}" | xargs -P "${SAN_JOBS:-8}" -I{} bash -c 'run_one "$@"' _ {}
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
      b="$build/bench/tcgemm-bench"
      # tcgemm_dgemm as users call it (auto: sm90_mma on an H100, block tile per shape) and the WMMA families.
      "$b" --family auto --sizes 1024,2048,3200,4096,8192 --reps 30 --csv "$out/bench-auto.csv" \
        >"$out/bench-auto.log" 2>&1
      "$b" --family auto --sizes 8192x8192x256,256x8192x8192,8192x256x8192,4000x3000x2000 --reps 30 \
        --csv "$out/bench-nonsquare.csv" >"$out/bench-nonsquare.log" 2>&1
      "$b" --family auto --trans NN,NT,TN,TT --sizes 4096 --reps 30 --csv "$out/bench-trans.csv" \
        >"$out/bench-trans.log" 2>&1
      "$b" --family shared_ab --tile 64,128 --tile-k 32,48 --stages 2 --sizes 2048,3200,4096,8192 --reps 10 \
        --csv "$out/bench-shared_ab.csv" >"$out/bench-shared_ab.log" 2>&1
      "$b" --family shared_a --tile 32,64,128 --pad-a 0,4 --sizes 3200,4096 --reps 10 \
        --csv "$out/bench-shared_a.csv" >"$out/bench-shared_a.log" 2>&1
      for f in auto nonsquare trans shared_ab shared_a; do
        note "-- bench $f"; grep -vE '^\s*$' "$out/bench-$f.log" | tail -22 | tee -a "$summary" >/dev/null
      done
      "$build"/examples/tcgemm-example-peak >"$out/peak.log" 2>&1
      note "-- peak (exit $?)"; tail -16 "$out/peak.log" >>"$summary"
      ;;
    sweep)
      b="$build/bench/tcgemm-bench"
      for t in table2 table3; do
        tools/sweep-ncu.sh -b "$b" -o "$out/$t-ncu.csv" -- --$t >"$out/$t-ncu.log" 2>&1
        note "-- $t ncu: exit $?"
        "$b" sweep --$t --ncu-metrics "$out/$t-ncu.csv" --csv "$out/$t.csv" --md "$out/$t.md" >"$out/$t.log" 2>&1
        note "-- $t: exit $?"
      done
      ;;
    suite | suite-untuned | suite-loop)
      # Run from the repository root (like the sweep step's tools/ path), so the suite file is found.
      # suite-loop: the main suite timed as loops of 20 back-to-back calls (launch latency hidden).
      if [ "$step" = suite-untuned ]; then file=bench/suites/dgemm-shapes-untuned.txt; else file=bench/suites/dgemm-shapes.txt; fi
      loop=()
      if [ "$step" = suite-loop ]; then
        # Loops of calls matter where one call is short next to a launch; the large shapes (16384^3 takes
        # ~0.15 s a call) would make the step run for many minutes and show nothing new. Keep shapes of at
        # most 2^36 flop (about 1 ms a call at cuBLAS's rate); the single-call suite covers the rest.
        loop=(--calls-per-run 20)
        awk '/^[[:space:]]*(#|$)/ { next }
             { split($1, d, "x"); m = d[1]; n = (2 in d) ? d[2] : m; k = (3 in d) ? d[3] : m
               if (2 * m * n * k <= 2^36) print }' "$file" >"$out/suite-loop-shapes.txt"
        file="$out/suite-loop-shapes.txt"
      fi
      "$build/bench/tcgemm-bench" --suite "$file" "${loop[@]}" --csv "$out/$step.csv" >"$out/$step.log" 2>&1
      note "-- $step ($file): exit $?"
      # Failed or skipped rows, then the summary.
      grep -E 'FAIL|SKIP|ERROR' "$out/$step.log" | head -20 | tee -a "$summary" >/dev/null
      sed -n '/^summary:/,$p' "$out/$step.log" | tee -a "$summary" >/dev/null
      ;;
    host-bench)
      # NVBLAS's CPU fallback: the system BLAS (the CPU machine's libblas.so.3 carried along, see README).
      "$build/bench/tcgemm-host-bench" --sizes 4096,8192,16384 \
        --shapes 16384x16384x32,2048x16384x8192,16384x2048x8192,30000x3000x3000 >"$out/host-bench.txt" 2>&1
      note "-- host-bench: exit $?"
      grep -vE '^\[NVBLAS\]' "$out/host-bench.txt" | tee -a "$summary" >/dev/null
      ;;
    small-grid)
      # Calibration data for the plan model at 1-2 rounds of blocks: sm90_mma's 32x32, 32x64, 64x64 and 128x64 tiles
      # with 1-5 k-slices (cluster split-K where the rule allows), even and odd sizes, timed as loops of 10
      # calls (launch latency hidden); then tcgemm-plan-check scores the model against them (the geometric
      # mean of time(model's pick) / time(fastest measured), docs/tuning.md "The model").
      sizes=255,256,383,384,511,512,639,640,767,768,777,895,896,1000,1001,1024,1279,1280,1536,1537,2048
      "$build/bench/tcgemm-bench" --family sm90_mma --tile 32 --tile-n 64 --tile-k 32 --stages 3 --k-splits 1,2,3,4 \
        --sizes "$sizes" --calls-per-run 10 --reps 10 --csv "$out/small-grid-32x64.csv" >"$out/small-grid-32x64.log" 2>&1
      note "-- small-grid 32x64: exit $?"
      "$build/bench/tcgemm-bench" --family sm90_mma --tile 32 --tile-n 32 --tile-k 32 --stages 3 --k-splits 1,2,3,4 \
        --sizes "$sizes" --calls-per-run 10 --reps 10 --csv "$out/small-grid-32x32.csv" >"$out/small-grid-32x32.log" 2>&1
      note "-- small-grid 32x32: exit $?"
      "$build/bench/tcgemm-bench" --family sm90_mma --tile 64 --stages 4 --k-splits 1,2,3,4 --sizes "$sizes" \
        --calls-per-run 10 --reps 10 --csv "$out/small-grid-64.csv" >"$out/small-grid-64.log" 2>&1
      note "-- small-grid 64x64: exit $?"
      "$build/bench/tcgemm-bench" --family sm90_mma --tile 128 --tile-n 64 --stages 3 --k-splits 1,2,3,4,5 \
        --sizes "$sizes" --calls-per-run 10 --reps 10 --csv "$out/small-grid-128.csv" >"$out/small-grid-128.log" 2>&1
      note "-- small-grid 128x64: exit $?"
      "$build/bench/tcgemm-plan-check" "$out"/small-grid-*.csv >"$out/plan-check.txt" 2>&1
      note "-- plan-check: exit $?"
      tee -a "$summary" <"$out/plan-check.txt" >/dev/null
      ;;
    host-threads)
      for t in 4 8 12 15; do
        TCGEMM_HOST_COPY_THREADS=$t "$build/bench/tcgemm-host-bench" --no-nvblas --no-xt --sizes 8192,16384 \
          >"$out/host-threads-$t.txt" 2>&1
        note "-- host-threads $t: exit $?"
        grep -E '^[0-9]' "$out/host-threads-$t.txt" | tee -a "$summary" >/dev/null
      done
      ;;
    host-profile)
      # Where the host path's time goes: the link both ways at once against each way alone, strided 2D
      # copies by row length, then each call's stream timeline (TCGEMM_HOST_PROFILE) on pinned and pageable
      # arrays at the sizes the targets name.
      "$build/bench/tcgemm-host-bench" --duplex >"$out/host-duplex.txt" 2>&1
      note "-- host-profile duplex: exit $?"
      tee -a "$summary" <"$out/host-duplex.txt" >/dev/null
      "$build/bench/tcgemm-host-bench" --strided >"$out/host-strided.txt" 2>&1
      note "-- host-profile strided: exit $?"
      tee -a "$summary" <"$out/host-strided.txt" >/dev/null
      TCGEMM_HOST_PROFILE=1 "$build/bench/tcgemm-host-bench" --no-nvblas --no-xt --reps 3 --sizes 4096,8192,16384 \
        --shapes 16384x2048x8192,30000x3000x3000 >"$out/host-profile.txt" 2>&1
      note "-- host-profile timelines: exit $?"
      # The bench table, and the last timeline of each (shape, memory): the final timed call.
      grep -E '^[0-9]' "$out/host-profile.txt" | tee -a "$summary" >/dev/null
      awk '/^tcgemm host profile:/ { key = $4 " " $5; last[key] = $0; if (!(key in seen)) { seen[key] = 1; order[++n] = key } }
           END { for (i = 1; i <= n; ++i) print last[order[i]] }' "$out/host-profile.txt" | tee -a "$summary" >/dev/null
      ;;
    lowp-bench)
      "$build/bench/tcgemm-lowp-bench" --sizes 4096,8192 >"$out/lowp-bench.txt" 2>&1
      note "-- lowp-bench: exit $?"
      tee -a "$summary" <"$out/lowp-bench.txt" >/dev/null
      ;;
    lowp-sweep)
      # The article's Table 2 and Table 3 in every lower precision on the WMMA family (tcgemm-bench sweep
      # --precision), with ncu's bank-conflict counters for F16 (the padding experiment's evidence).
      b="$build/bench/tcgemm-bench"
      for p in ${LOWP_SWEEP_PRECISIONS:-f16 bf16 tf32 f16acc16}; do
        for t in table2 table3; do
          ncu_opt=()
          if [ "$p" = f16 ]; then
            tools/sweep-ncu.sh -b "$b" -o "$out/$p-$t-ncu.csv" -- --precision "$p" --$t >"$out/$p-$t-ncu.log" 2>&1
            note "-- $p $t ncu: exit $?"
            ncu_opt=(--ncu-metrics "$out/$p-$t-ncu.csv")
          fi
          "$b" sweep --precision "$p" --$t "${ncu_opt[@]}" --csv "$out/$p-$t.csv" --md "$out/$p-$t.md" \
            >"$out/$p-$t.log" 2>&1
          note "-- $p $t: exit $? — $(tail -n 3 "$out/$p-$t.log" | grep -E 'points:' | head -1)"
        done
      done
      ;;
    lowp-accuracy)
      "$build/bench/tcgemm-lowp-accuracy" >"$out/lowp-accuracy.txt" 2>&1
      note "-- lowp-accuracy: exit $?"
      tee -a "$summary" <"$out/lowp-accuracy.txt" >/dev/null
      ;;
    *) note "unknown step $step" ;;
  esac
  pack_logs
done

