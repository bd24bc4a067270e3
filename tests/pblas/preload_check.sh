#!/usr/bin/env bash
# An unmodified ScaLAPACK program with and without LD_PRELOAD=libtcgemm_pblas.so: the preloaded run must
# take its PDGEMM (TCGEMM_PBLAS_VERBOSE says which route) and print the same norm of C to 1e-12.
#   preload_check.sh MPIEXEC RANKS PROGRAM LIBTCGEMM_PBLAS ROUTE
set -uo pipefail
mpiexec=$1 ranks=$2 program=$3 lib=$4 route=$5
if [ "$route" = gpu ] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "SKIPPED: no CUDA device (the gpu route needs one)"
  exit 77
fi
plain=$("$mpiexec" -np "$ranks" --oversubscribe "$program" 256 2>&1) || { echo "plain run failed: $plain"; exit 1; }
preloaded=$("$mpiexec" -np "$ranks" --oversubscribe -x LD_PRELOAD="$lib" -x TCGEMM_PBLAS="$route" \
  -x TCGEMM_PBLAS_VERBOSE=1 -x TCGEMM_PBLAS_MIN_FLOPS=0 "$program" 256 2>&1) ||
  { echo "preloaded run failed: $preloaded"; exit 1; }
echo "plain:     $plain"
echo "preloaded: $preloaded"
grep -q -- "-> $route" <<<"$preloaded" || { echo "FAILED: the preloaded run did not take the $route route"; exit 1; }
a=$(grep -o '||C||_F = .*' <<<"$plain" | awk '{print $3}')
b=$(grep -o '||C||_F = .*' <<<"$preloaded" | awk '{print $3}')
python3 - "$a" "$b" <<'PY' || exit 1
import sys
a, b = float(sys.argv[1]), float(sys.argv[2])
rel = abs(a - b) / abs(a)
print(f"relative difference of the norms: {rel:.2e}")
sys.exit(0 if rel <= 1e-12 else 1)
PY
echo PASSED
