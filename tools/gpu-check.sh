#!/usr/bin/env bash
# Run the whole test suite on a GPU machine from a build directory made elsewhere, then
# compute-sanitizer over the GPU tests. Prints a summary; logs go to $LOG_DIR (default ./gpu-check-logs).
#   tools/gpu-check.sh [build-dir] [sanitizer tools, default "memcheck"]
# Example (device machine): tools/gpu-check.sh build "memcheck racecheck synccheck"
set -uo pipefail
build=${1:-build}
tools=${2:-memcheck}
logs=${LOG_DIR:-gpu-check-logs}
mkdir -p "$logs"
summary="$logs/summary.txt"
: >"$summary"

nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >>"$summary" 2>&1 || true

echo "== ctest (all labels)" | tee -a "$summary"
ctest --test-dir "$build" --output-on-failure --timeout 900 >"$logs/ctest.log" 2>&1
rc=$?
grep -E "tests passed|tests failed|Total Test time" "$logs/ctest.log" | tee -a "$summary"
grep -E "\*\*\*Failed|\*\*\*Exception|Not Run" "$logs/ctest.log" | head -20 | tee -a "$summary"
skipped=$(grep -c "Skipped" "$logs/ctest.log" || true)
echo "ctest exit $rc; ctest lines reporting a skip: $skipped" | tee -a "$summary"

# compute-sanitizer over every gtest executable with GPU tests (small problem sizes by design).
status=$rc
for tool in $tools; do
  errors_total=0
  for exe in "$build"/tests/test_*_gpu; do
    [ -x "$exe" ] || continue
    name=$(basename "$exe")
    compute-sanitizer --tool "$tool" --error-exitcode 99 --print-limit 20 "$exe" --gtest_brief=1 \
      >"$logs/sanitizer-$tool-$name.log" 2>&1
    r=$?
    errs=$(grep -Eo "ERROR SUMMARY: [0-9]+" "$logs/sanitizer-$tool-$name.log" | awk '{s+=$3} END {print s+0}')
    errors_total=$((errors_total + errs))
    printf '%-10s %-32s exit %-3s errors %s\n' "$tool" "$name" "$r" "$errs" | tee -a "$summary"
    [ "$r" -eq 0 ] || status=1
  done
  echo "$tool: total errors $errors_total" | tee -a "$summary"
done
exit $status
