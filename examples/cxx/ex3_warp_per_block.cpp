// Example 3 of the reference design: a grid of one-warp thread blocks, block (x, y) computing the 8x8 tile
// (x, y) of C = A B (tcgemm_dmma_warp_per_block). The article's size is M = N = K = 16 (a 2x2 grid); any sizes
// work, edge tiles included.
//   usage: tcgemm-example-ex3_warp_per_block [M N K]
#include <cstdio>
#include <cstdlib>

#include "example_util.hpp"

int main(int argc, char** argv) {
  int64_t m = 16, n = 16, k = 16;
  if (argc > 3) {
    m = std::atoll(argv[1]);
    n = std::atoll(argv[2]);
    k = std::atoll(argv[3]);
  }
  if (m < 1 || n < 1 || k < 0) {
    std::fprintf(stderr, "need M, N >= 1 and K >= 0\n");
    return EXIT_FAILURE;
  }
  const int64_t lda = m, ldb = std::max<int64_t>(k, 1), ldc = m;
  constexpr int64_t wmma_m = 8, wmma_n = 8;

  example::print_device();
  std::printf(" M = %lld, N = %lld, K = %lld\n", (long long)m, (long long)n, (long long)k);
  std::printf(" WMMA tile = 8x8x4, one warp per 8x8 tile of C\n");
  std::printf(" thread block = 32x1x1\n grid = %lldx%lldx1\n", (long long)((m + wmma_m - 1) / wmma_m),
              (long long)((n + wmma_n - 1) / wmma_n));

  const std::vector<double> A = example::random_matrix(m, k, lda, 1);
  const std::vector<double> B = example::random_matrix(k, n, ldb, 2);
  double* dA = example::to_device(A);
  double* dB = example::to_device(B);
  double* dC = nullptr;
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dC, size_t(ldc * n) * sizeof(double)));

  EXAMPLE_TCGEMM_CHECK(tcgemm_dmma_warp_per_block(m, n, k, dA, lda, dB, ldb, dC, ldc, nullptr));
  EXAMPLE_CUDA_CHECK(cudaDeviceSynchronize());

  const bool ok = example::check_against_host(m, n, k, A, lda, B, ldb, dC, ldc);

  EXAMPLE_CUDA_CHECK(cudaFree(dA));
  EXAMPLE_CUDA_CHECK(cudaFree(dB));
  EXAMPLE_CUDA_CHECK(cudaFree(dC));
  return example::report(ok);
}
