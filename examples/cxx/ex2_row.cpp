// Example 2 of the reference design: one warp computes C(8x8) = A(8xK) B(Kx8), looping over K in steps of
// wmma_k = 4 and accumulating in one fragment (tcgemm_dmma_row). K defaults to the article's 16; any K >= 0
// works (a K that is not a multiple of 4 is zero-padded inside the kernel).
//   usage: tcgemm-example-ex2_row [K]
#include <cstdio>
#include <cstdlib>

#include "example_util.hpp"

int main(int argc, char** argv) {
  const int64_t m = 8, n = 8;
  const int64_t k = argc > 1 ? std::atoll(argv[1]) : 16;
  if (k < 0) {
    std::fprintf(stderr, "K must be >= 0\n");
    return EXIT_FAILURE;
  }
  const int64_t lda = m, ldb = std::max<int64_t>(k, 1), ldc = m;

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

  EXAMPLE_TCGEMM_CHECK(tcgemm_dmma_row(k, dA, lda, dB, ldb, dC, ldc, nullptr));
  EXAMPLE_CUDA_CHECK(cudaDeviceSynchronize());

  const bool ok = example::check_against_host(m, n, k, A, lda, B, ldb, dC, ldc);

  EXAMPLE_CUDA_CHECK(cudaFree(dA));
  EXAMPLE_CUDA_CHECK(cudaFree(dB));
  EXAMPLE_CUDA_CHECK(cudaFree(dC));
  return example::report(ok);
}
