// Example 1 of the reference design: one warp computes C(8x8) = A(8x4) B(4x8) with a single WMMA
// load / mma_sync / store (tcgemm_dmma_single). Checked against a host triple loop.
#include <cstdio>

#include "example_util.hpp"

int main() {
  constexpr int64_t m = 8, n = 8, k = 4;  // the FP64 WMMA fragment: 8x8x4
  const int64_t lda = m, ldb = k, ldc = m;

  example::print_device();
  std::printf(" M = %lld, N = %lld, K = %lld\n", (long long)m, (long long)n, (long long)k);
  std::printf(" WMMA tile = 8x8x4, one warp per 8x8 tile of C\n");
  std::printf(" thread block = 32x1x1\n grid = 1x1x1\n");

  const std::vector<double> A = example::random_matrix(m, k, lda, 1);
  const std::vector<double> B = example::random_matrix(k, n, ldb, 2);
  double* dA = example::to_device(A);
  double* dB = example::to_device(B);
  double* dC = nullptr;
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dC, size_t(ldc * n) * sizeof(double)));

  EXAMPLE_TCGEMM_CHECK(tcgemm_dmma_single(dA, lda, dB, ldb, dC, ldc, nullptr));
  EXAMPLE_CUDA_CHECK(cudaDeviceSynchronize());

  const bool ok = example::check_against_host(m, n, k, A, lda, B, ldb, dC, ldc);

  EXAMPLE_CUDA_CHECK(cudaFree(dA));
  EXAMPLE_CUDA_CHECK(cudaFree(dB));
  EXAMPLE_CUDA_CHECK(cudaFree(dC));
  return example::report(ok);
}
