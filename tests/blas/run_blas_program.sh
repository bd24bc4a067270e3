#!/usr/bin/env bash
# Runs an unmodified BLAS program with libtcgemm_blas preloaded and checks that its DGEMM calls went through
# tcgemm's layer on the expected route.
#   run_blas_program.sh LIB ROUTE KIND PROGRAM [ARGS...]
#     LIB    libtcgemm_blas.so;  ROUTE: auto (any route) or gpu (every DGEMM call must run on the GPU;
#            skipped with exit 77 when the machine has no GPU)
#     KIND   xblat3d (PROGRAM is Netlib's xblat3d, ARGS[0] its dblat3.in: both DGEMM verdicts must read
#            PASSED) or program (PROGRAM must print "PASS")
set -uo pipefail
lib=$1 route=$2 kind=$3
shift 3
if [ "$route" = gpu ] && ! nvidia-smi -L >/dev/null 2>&1; then
  echo "no CUDA device: the GPU route cannot be tested here"
  exit 77
fi
work=$(mktemp -d) || exit 2
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 2
export TCGEMM_BLAS_VERBOSE=1
[ "$route" = gpu ] && export TCGEMM_BLAS_ROUTE=gpu
if [ "$kind" = xblat3d ]; then
  LD_PRELOAD="$lib" "$1" <"$2" >stdout.txt 2>stderr.txt
else
  LD_PRELOAD="$lib" "$@" >stdout.txt 2>stderr.txt
fi
rc=$?
calls=$(grep -c '^tcgemm_blas: dgemm_' stderr.txt)
gpu_calls=$(grep -c '^tcgemm_blas: dgemm_.* route=gpu' stderr.txt)
echo "exit $rc; DGEMM calls through tcgemm_blas: $calls, on the GPU: $gpu_calls"
fail=0
[ "$rc" -eq 0 ] || fail=1
[ "$calls" -gt 0 ] || { echo "no DGEMM call reached libtcgemm_blas (not preloaded?)"; fail=1; }
if [ "$route" = gpu ] && [ "$gpu_calls" -ne "$calls" ]; then
  echo "TCGEMM_BLAS_ROUTE=gpu, but $((calls - gpu_calls)) calls ran elsewhere:"
  grep -v ' route=gpu' stderr.txt | grep '^tcgemm_blas' | head -5
  fail=1
fi
if [ "$kind" = xblat3d ]; then
  grep -q 'DGEMM  PASSED THE TESTS OF ERROR-EXITS' dblat3.out || { echo "DGEMM error exits not passed"; fail=1; }
  grep -q 'DGEMM  PASSED THE COMPUTATIONAL TESTS' dblat3.out || { echo "DGEMM computational tests not passed"; fail=1; }
  grep -E 'DGEMM ' dblat3.out
else
  grep -q '^PASS' stdout.txt || { echo "the program did not print PASS"; fail=1; }
  cat stdout.txt
fi
[ "$fail" -eq 0 ] || { echo "stderr (head):"; head -20 stderr.txt; }
exit "$fail"
