#!/usr/bin/env bash
# The multi-GPU and MPI runs on a device machine (README "More than one GPU"), from the build directory
# carried in .dev/build.tgz and ScaLAPACK's libraries (Debian's libscalapack-openmpi, with the reference
# LAPACK and BLAS it needs) carried in .dev/lib, against the machine's own Open MPI.
#   tools/device-pblas.sh STEP...    (logs and a summary under $OUT, or /tmp/tcgemm-pblas-logs)
# Steps:
#   setup      unpack the build, put the carried libraries on the loader path, print what MPI the machine has
#   tests      the pblas-labelled GPU tests (pdgemm_ against ScaLAPACK with 2 ranks; the Fortran program preloaded)
#   hostmulti  tcgemm_dgemm_host on one and on every GPU: test_host_multi_gpu, tcgemm-host-bench --devices
#   bench      tcgemm-pblas-bench: 1 rank (gpu route and tcgemm's single-GPU host path) and 2 ranks (gpu
#              route), n = 8192, 16384, 32768 and a rectangular shape, then ScaLAPACK over libtcgemm_blas once
set -uo pipefail
out=${OUT:-/tmp/tcgemm-pblas-logs}
mkdir -p "$out"
summary="$out/pblas-summary.txt"
note() { echo "$*" | tee -a "$summary"; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export LD_LIBRARY_PATH="$PWD/.dev/lib:${LD_LIBRARY_PATH:-}"
ln -sf libscalapack-openmpi.so.2.2 .dev/lib/libscalapack-openmpi.so 2>/dev/null
mpi=(mpirun --bind-to none -x LD_LIBRARY_PATH -x NCCL_NVLS_ENABLE -x TORCH_SYMM_MEM_DISABLE_MULTICAST
     -x NVSHMEM_DISABLE_NVLS)
for step in "$@"; do
  case "$step" in
    setup)
      [ -d build ] || tar xzf .dev/build.tgz
      note "== $(date -u +%FT%TZ) $(nvidia-smi --query-gpu=name --format=csv,noheader | tr '\n' ' ')"
      note "mpirun: $(command -v mpirun) $(mpirun --version 2>&1 | head -1)"
      note "libmpi: $(ldconfig -p | grep -m1 'libmpi.so.40' || echo none)"
      note "CUDA-aware MPI: $(ompi_info --parsable --all 2>/dev/null | grep -m1 mpi_built_with_cuda_support:value || echo unknown)"
      nvidia-smi topo -m 2>&1 | head -4 | tee -a "$summary"
      ldd build/tests/pblas/test_pdgemm | grep -E 'not found|mpi|scalapack' | tee -a "$summary"
      ;;
    tests)
      ctest --test-dir build -L pblas --output-on-failure --timeout 300 >"$out/pblas-ctest.log" 2>&1
      note "pblas tests: exit $? — $(grep -E 'tests passed|tests failed' "$out/pblas-ctest.log")"
      grep -E '\(Failed\)|\(Timeout\)|Skipped|FAIL ' "$out/pblas-ctest.log" | head -20 | tee -a "$summary"
      ;;
    bench)
      b=build/bench/tcgemm-pblas-bench
      rect="--shape 32768,8192,16384"
      # One rank: tcgemm's host path on one GPU (TCGEMM_DEVICES=0), the reference of the issue's 1.7x.
      { "${mpi[@]}" -np 1 -x TCGEMM_DEVICES=0 $b --sizes 8192,16384,32768 $rect --routes gpu --host-path --reps 10
        "${mpi[@]}" -np 2 -x TCGEMM_PBLAS_VERBOSE=2 $b --sizes 8192,16384,32768 $rect --routes gpu --reps 10
        "${mpi[@]}" -np 2 $b --grid 2x1 --sizes 16384 --routes gpu --reps 10
        "${mpi[@]}" -np 2 -x LD_PRELOAD="$PWD/build/cxx/libtcgemm_blas.so" $b --sizes 8192 --routes scalapack
      } >"$out/pblas-bench.txt" 2>&1
      note "bench: exit $?"
      grep -vE '^#|^tcgemm pdgemm' "$out/pblas-bench.txt" | tee -a "$summary"
      grep -E 'process \(' "$out/pblas-bench.txt" | tail -4 | tee -a "$summary"
      ;;
    hostmulti)
      # tcgemm_dgemm_host over the node's GPUs: the tests (two blocks on one GPU, and on every GPU), then
      # one GPU against two, and cublasXt on one and two, pageable and pinned.
      build/tests/test_host_multi_gpu >"$out/host-multi-tests.log" 2>&1
      note "test_host_multi_gpu: exit $? — $(grep -E '^\[  (PASSED|FAILED)' "$out/host-multi-tests.log" | tr '\n' ' ')"
      build/bench/tcgemm-host-bench --devices 0 --devices 0,1 >"$out/host-multi-bench.txt" 2>&1
      note "host bench: exit $?"
      grep -vE '^#' "$out/host-multi-bench.txt" | tail -30 | tee -a "$summary"
      ;;
    *) note "unknown step $step" ;;
  esac
done
