// The reference design's Figure 1 benchmark (dmma_peak): every 8x8 tile of an M x N matrix C receives
// niter * A(8x4) B(4x8), computed by one warp that loads A and B once, issues niter dependent mma_sync
// calls into a zeroed accumulator, and stores once (tcgemm_dmma_peak). Sweeping niter shows how the cost
// of the loads and the store is amortized until the FP64 tensor-core instruction rate is reached.
//
// FLOPs counted: 2 * 8 * 8 * 4 * niter per 8x8 tile, over ceil(M/8) * ceil(N/8) tiles. Each run is also
// checked: A and B hold small integers, so C must equal niter * (A B) exactly.
//   usage: tcgemm-example-peak [M N [max_niter]]      (default 8192 8192 4096)
#include <cstdio>
#include <cstdlib>

#include "example_util.hpp"

namespace {

constexpr int64_t kWmmaM = 8, kWmmaN = 8, kWmmaK = 4;
constexpr int kWarmup = 2;
constexpr int kTimedRuns = 10;

// True when C (m x n, ld m) is niter * (A B) tile-periodically, exactly.
bool exact(const std::vector<double>& C, int64_t m, int64_t n, int32_t niter, const std::vector<double>& ab) {
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i)
      if (C[size_t(i + j * m)] != double(niter) * ab[size_t(i % kWmmaM + (j % kWmmaN) * kWmmaM)]) return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int64_t m = 8192, n = 8192;
  int32_t max_niter = 4096;
  if (argc > 2) {
    m = std::atoll(argv[1]);
    n = std::atoll(argv[2]);
  }
  if (argc > 3) max_niter = std::atoi(argv[3]);
  if (m < 1 || n < 1 || max_niter < 1) {
    std::fprintf(stderr, "need M, N >= 1 and max_niter >= 1\n");
    return EXIT_FAILURE;
  }

  tcgemm_config config;
  int32_t threads = 0;
  EXAMPLE_TCGEMM_CHECK(tcgemm_default_config(TCGEMM_FAMILY_PEAK, &config));
  EXAMPLE_TCGEMM_CHECK(tcgemm_config_threads_per_block(&config, &threads));
  const int64_t tiles = ((m + kWmmaM - 1) / kWmmaM) * ((n + kWmmaN - 1) / kWmmaN);

  example::print_device();
  std::printf(" M = %lld, N = %lld (C), A = 8x4, B = 4x8\n", (long long)m, (long long)n);
  std::printf(" 8x8 tiles (one warp each) = %lld, thread block = %d threads (%d warps)\n", (long long)tiles, threads,
              threads / 32);
  std::printf(" timing: median of %d runs after %d warm-up runs\n\n", kTimedRuns, kWarmup);

  const std::vector<double> A = example::random_matrix(kWmmaM, kWmmaK, kWmmaM, 1, true);
  const std::vector<double> B = example::random_matrix(kWmmaK, kWmmaN, kWmmaK, 2, true);
  const std::vector<double> ab = tcgemm::check::host_gemm(example::product(kWmmaM, kWmmaN, kWmmaK, A, kWmmaM, B, kWmmaK),
                                                          tcgemm::check::OutputLayout{kWmmaM}, nullptr);
  double* dA = example::to_device(A);
  double* dB = example::to_device(B);
  double* dC = nullptr;
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dC, size_t(m * n) * sizeof(double)));

  bool all_ok = true;
  std::printf("   niter |         ms |  TFLOP/s | check\n");
  std::printf("  -------+------------+----------+------\n");
  for (int32_t niter = 1; niter <= max_niter; niter *= 2) {
    EXAMPLE_CUDA_CHECK(cudaMemset(dC, 0xff, size_t(m * n) * sizeof(double)));  // NaN: every tile must be written
    const double ms = example::median_ms(
        [&] { EXAMPLE_TCGEMM_CHECK(tcgemm_dmma_peak(m, n, niter, dA, kWmmaM, dB, kWmmaK, dC, m, nullptr)); }, kWarmup,
        kTimedRuns);
    const double flops = 2.0 * kWmmaM * kWmmaN * kWmmaK * double(niter) * double(tiles);
    const bool ok = exact(example::to_host(dC, size_t(m * n)), m, n, niter, ab);
    all_ok = all_ok && ok;
    std::printf("  %6d | %10.4f | %8.3f | %s\n", niter, ms, flops / (ms * 1e-3) / 1e12, ok ? "exact" : "WRONG");
    if (niter > max_niter / 2) break;  // avoid overflow of niter *= 2
  }

  EXAMPLE_CUDA_CHECK(cudaFree(dA));
  EXAMPLE_CUDA_CHECK(cudaFree(dB));
  EXAMPLE_CUDA_CHECK(cudaFree(dC));
  return example::report(all_ok);
}
