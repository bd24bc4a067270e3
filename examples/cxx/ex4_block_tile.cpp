// Example 4 of the reference design: multi-warp thread blocks, each computing a tile_m x tile_n tile of
// C = A B with one warp per 8x8 sub-tile (tcgemm_dmma_block_tile; thread block = (tile_m/8*32, tile_n/8)).
// Part 1 is the article's case, M = N = K = 16 with 16x16 tiles, checked against a host triple loop.
// Part 2 times a larger problem (default 3200^3, tile 32x32), checked against cuBLAS DGEMM, and prints
// TFLOP/s (median of 20 timed runs after 3 warm-up runs) next to cuBLAS's. The operands are still read
// from global memory by every warp, so this family is far from the tensor-core peak; Examples 5 and 6
// (shared_a, shared_ab) address that.
//   usage: tcgemm-example-ex4_block_tile [tile_m tile_n [N]]
#include <cublas_v2.h>

#include <cstdio>
#include <cstdlib>

#include "example_util.hpp"

namespace {

constexpr int kWarmup = 3;
constexpr int kTimedRuns = 20;

void print_launch(int64_t m, int64_t n, int64_t k, int32_t tile_m, int32_t tile_n) {
  std::printf(" M = %lld, N = %lld, K = %lld\n", (long long)m, (long long)n, (long long)k);
  std::printf(" tile_m = %d, tile_n = %d\n", tile_m, tile_n);
  std::printf(" thread block = %dx%dx1\n", tile_m / 8 * 32, tile_n / 8);
  std::printf(" grid = %lldx%lldx1\n", (long long)((m + tile_m - 1) / tile_m), (long long)((n + tile_n - 1) / tile_n));
}

// Part 1: the article's 16x16x16 case against the host.
bool small_check() {
  const int64_t m = 16, n = 16, k = 16;
  const int32_t tile_m = 16, tile_n = 16;
  print_launch(m, n, k, tile_m, tile_n);
  const std::vector<double> A = example::random_matrix(m, k, m, 1);
  const std::vector<double> B = example::random_matrix(k, n, k, 2);
  double* dA = example::to_device(A);
  double* dB = example::to_device(B);
  double* dC = nullptr;
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dC, size_t(m * n) * sizeof(double)));
  EXAMPLE_TCGEMM_CHECK(tcgemm_dmma_block_tile(m, n, k, tile_m, tile_n, dA, m, dB, k, dC, m, nullptr));
  EXAMPLE_CUDA_CHECK(cudaDeviceSynchronize());
  const bool ok = example::check_against_host(m, n, k, A, m, B, k, dC, m);
  std::printf(" %s\n\n", ok ? "passed" : "FAILED");
  EXAMPLE_CUDA_CHECK(cudaFree(dA));
  EXAMPLE_CUDA_CHECK(cudaFree(dB));
  EXAMPLE_CUDA_CHECK(cudaFree(dC));
  return ok;
}

// Part 2: a timed n x n x n problem against cuBLAS.
bool timed_run(int64_t size, int32_t tile_m, int32_t tile_n) {
  const int64_t m = size, n = size, k = size;
  print_launch(m, n, k, tile_m, tile_n);
  const std::vector<double> A = example::random_matrix(m, k, m, 3);
  const std::vector<double> B = example::random_matrix(k, n, k, 4);
  double* dA = example::to_device(A);
  double* dB = example::to_device(B);
  double *dC = nullptr, *dRef = nullptr;
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dC, size_t(m * n) * sizeof(double)));
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dRef, size_t(m * n) * sizeof(double)));

  const double ms = example::median_ms(
      [&] { EXAMPLE_TCGEMM_CHECK(tcgemm_dmma_block_tile(m, n, k, tile_m, tile_n, dA, m, dB, k, dC, m, nullptr)); },
      kWarmup, kTimedRuns);

  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasCreate failed\n");
    std::exit(EXIT_FAILURE);
  }
  const double one = 1.0, zero = 0.0;
  auto cublas_run = [&] {
    if (cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(m), int(n), int(k), &one, dA, int(m), dB, int(k), &zero,
                    dRef, int(m)) != CUBLAS_STATUS_SUCCESS) {
      std::fprintf(stderr, "cublasDgemm failed\n");
      std::exit(EXIT_FAILURE);
    }
  };
  const double cublas_ms = example::median_ms(cublas_run, kWarmup, kTimedRuns);
  cublasDestroy(handle);

  const std::vector<double> C = example::to_host(dC, size_t(m * n));
  const std::vector<double> ref = example::to_host(dRef, size_t(m * n));
  const bool ok = example::check_result(example::product(m, n, k, A, m, B, k), m, C, ref, "cuBLAS");
  std::printf(" nRuns: %d (median, after %d warm-up runs)\n", kTimedRuns, kWarmup);
  std::printf(" block_tile: %.3f ms, TFlops: %.3f\n", ms, example::tflops(m, n, k, ms));
  std::printf(" cuBLAS:     %.3f ms, TFlops: %.3f\n", cublas_ms, example::tflops(m, n, k, cublas_ms));
  EXAMPLE_CUDA_CHECK(cudaFree(dA));
  EXAMPLE_CUDA_CHECK(cudaFree(dB));
  EXAMPLE_CUDA_CHECK(cudaFree(dC));
  EXAMPLE_CUDA_CHECK(cudaFree(dRef));
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  int32_t tile_m = 32, tile_n = 32;
  int64_t size = 3200;
  if (argc > 2) {
    tile_m = std::atoi(argv[1]);
    tile_n = std::atoi(argv[2]);
  }
  if (argc > 3) size = std::atoll(argv[3]);
  if (size < 1) {
    std::fprintf(stderr, "N must be >= 1\n");
    return EXIT_FAILURE;
  }
  example::print_device();
  const bool small_ok = small_check();
  const bool large_ok = timed_run(size, tile_m, tile_n);
  return example::report(small_ok && large_ok);
}
