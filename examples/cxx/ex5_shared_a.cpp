// Example 5 of "Using Tensor Cores in CUDA Fortran" through tcgemm: the tile_m x 4 A tile in shared memory
// with a run-time padding, each warp computing a tile_m x 8 block column of C (family shared_a).
//
//   tcgemm-example-ex5_shared_a [--size N | --m M --n N --k K] [--tile 32|64|96|128] [--pad P] [--runs R]
//
// Defaults follow the article: M = N = K = 3200, tile_m = 32, padding 0. Try --pad 0, 2, 4, 6 to see the
// shared-memory bank conflicts the padding removes. The result is checked against cuBLAS DGEMM.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "example_util.hpp"
#include "tcgemm/tcgemm.h"

namespace {

struct Args {
  int64_t m = 3200, n = 3200, k = 3200;
  int tile = 32, pad = 0, runs = 20;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const long long v = std::atoll(argv[i + 1]);
    if (!std::strcmp(argv[i], "--size")) a.m = a.n = a.k = v;
    else if (!std::strcmp(argv[i], "--m")) a.m = v;
    else if (!std::strcmp(argv[i], "--n")) a.n = v;
    else if (!std::strcmp(argv[i], "--k")) a.k = v;
    else if (!std::strcmp(argv[i], "--tile")) a.tile = int(v);
    else if (!std::strcmp(argv[i], "--pad")) a.pad = int(v);
    else if (!std::strcmp(argv[i], "--runs")) a.runs = int(v);
    else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      std::exit(2);
    }
  }
  if (argc % 2 == 0) {
    std::fprintf(stderr, "option %s needs a value\n", argv[argc - 1]);
    std::exit(2);
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse(argc, argv);

  // The configuration: reject an invalid tile/padding before allocating anything (the message names the rule).
  tcgemm_config cfg{};
  cfg.family = TCGEMM_FAMILY_SHARED_A;
  cfg.tile_m = a.tile;
  cfg.pad_a = a.pad;
  EXAMPLE_TCGEMM_CHECK(tcgemm_config_check_device(&cfg, -1));
  int32_t threads = 0;
  EXAMPLE_TCGEMM_CHECK(tcgemm_config_threads_per_block(&cfg, &threads));
  const int tile_n = a.tile;  // tile_m / 8 warps, 8 columns each

  tcgemm_device_info info;
  EXAMPLE_TCGEMM_CHECK(tcgemm_device_info_get(-1, &info));
  std::printf(" Device: %s\n", info.name);
  std::printf(" M = %lld, N = %lld, K = %lld\n", (long long)a.m, (long long)a.n, (long long)a.k);
  std::printf(" tile_m = %d, tile_n = %d\n", a.tile, tile_n);
  std::printf(" thread block = %dx1x1\n", threads);
  // C tiles along m and n (the library launches them as a linear grid of the same number of blocks).
  std::printf(" grid = %lldx%lldx1\n", (long long)((a.m + a.tile - 1) / a.tile),
              (long long)((a.n + tile_n - 1) / tile_n));
  std::printf(" shared memory padding (elements): %d\n", a.pad);
  std::printf(" nRuns: %d\n\n", a.runs);

  // Column-major operands with random values in [-1, 1].
  std::vector<double> hA(size_t(a.m * a.k)), hB(size_t(a.k * a.n)), hC(size_t(a.m * a.n)), hRef(hC.size());
  std::mt19937_64 gen(5);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (auto& x : hA) x = dist(gen);
  for (auto& x : hB) x = dist(gen);
  double *dA, *dB, *dC, *dRef;
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dA, hA.size() * sizeof(double)));
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dB, hB.size() * sizeof(double)));
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dC, hC.size() * sizeof(double)));
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dRef, hC.size() * sizeof(double)));
  EXAMPLE_CUDA_CHECK(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(double), cudaMemcpyHostToDevice));
  EXAMPLE_CUDA_CHECK(cudaMemcpy(dB, hB.data(), hB.size() * sizeof(double), cudaMemcpyHostToDevice));

  // C = A B with the Example 5 kernel; one untimed run to warm the clocks, then nRuns timed ones.
  auto run = [&] { return tcgemm_dmma_shared_a(a.m, a.n, a.k, a.tile, a.pad, dA, a.m, dB, a.k, dC, a.m, nullptr); };
  EXAMPLE_TCGEMM_CHECK(run());
  cudaEvent_t start, stop;
  EXAMPLE_CUDA_CHECK(cudaEventCreate(&start));
  EXAMPLE_CUDA_CHECK(cudaEventCreate(&stop));
  EXAMPLE_CUDA_CHECK(cudaEventRecord(start));
  for (int r = 0; r < a.runs; ++r) EXAMPLE_TCGEMM_CHECK(run());
  EXAMPLE_CUDA_CHECK(cudaEventRecord(stop));
  EXAMPLE_CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0;
  EXAMPLE_CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  const double seconds = ms * 1e-3 / a.runs;
  const double tflops = 2.0 * double(a.m) * double(a.n) * double(a.k) / seconds / 1e12;

  // Reference: cuBLAS DGEMM on the same device data, judged by the shared check (example_util.hpp).
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return std::fprintf(stderr, "cublasCreate failed\n"), 1;
  const double one = 1.0, zero = 0.0;
  if (cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(a.m), int(a.n), int(a.k), &one, dA, int(a.m), dB, int(a.k),
                  &zero, dRef, int(a.m)) != CUBLAS_STATUS_SUCCESS)
    return std::fprintf(stderr, "cublasDgemm failed\n"), 1;
  EXAMPLE_CUDA_CHECK(cudaMemcpy(hC.data(), dC, hC.size() * sizeof(double), cudaMemcpyDeviceToHost));
  EXAMPLE_CUDA_CHECK(cudaMemcpy(hRef.data(), dRef, hRef.size() * sizeof(double), cudaMemcpyDeviceToHost));
  const bool ok = example::check_result(example::product(a.m, a.n, a.k, hA, a.m, hB, a.k), a.m, hC, hRef, "cuBLAS");

  if (ok)
    std::printf(" Test passed, TFlops: %12.6f\n", tflops);
  else
    std::printf(" Test FAILED: elements differ from cuBLAS beyond the tolerance\n");
  cublasDestroy(handle);
  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  cudaFree(dRef);
  return ok ? 0 : 1;
}
