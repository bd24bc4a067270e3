// Sizes past the 32-bit edge on the GPU: m = 2^31 + 9 rows (more rows than an int32 counts), with real
// device memory (16 GB per operand column), through every family a BLAS call can reach. cuBLAS takes int32
// sizes, so the reference is computed on the host for sampled rows: with n = k = 1, C(i) = alpha A(i) B + beta C0(i).
// Skips where the device has too little free memory.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpu_test_util.hpp"
#include "tcgemm/tcgemm.h"

namespace {

constexpr int64_t kRows = (int64_t(1) << 31) + 9;

// A column of kRows doubles whose element i is f(i), filled on the device by a strided host pattern copied
// in pieces (no kernel of the test's own).
double value_a(int64_t i) { return double(i % 1021) - 510.0; }
double value_c0(int64_t i) { return double(i % 997) * 0.5; }

bool fill(double* d, double (*f)(int64_t)) {
  constexpr int64_t kChunk = int64_t(1) << 24;
  std::vector<double> h(static_cast<size_t>(kChunk));
  for (int64_t first = 0; first < kRows; first += kChunk) {
    const int64_t count = std::min(kChunk, kRows - first);
    for (int64_t i = 0; i < count; ++i) h[size_t(i)] = f(first + i);
    if (cudaMemcpy(d + first, h.data(), size_t(count) * sizeof(double), cudaMemcpyHostToDevice) != cudaSuccess)
      return false;
  }
  return true;
}

TEST(LargeSizes, RowsPastThe32BitEdge) {
  TCGEMM_REQUIRE_GPU();
  size_t free_bytes = 0, total = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total), cudaSuccess);
  const size_t need = 2 * size_t(kRows) * sizeof(double) + (size_t(1) << 30);
  if (free_bytes < need) GTEST_SKIP() << "needs " << need << " bytes of free device memory";
  double *A = nullptr, *C = nullptr, *B = nullptr;
  ASSERT_EQ(cudaMalloc(&A, size_t(kRows) * sizeof(double)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&C, size_t(kRows) * sizeof(double)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&B, sizeof(double)), cudaSuccess);
  ASSERT_TRUE(fill(A, value_a));
  const double b = 0.25;
  ASSERT_EQ(cudaMemcpy(B, &b, sizeof b, cudaMemcpyHostToDevice), cudaSuccess);
  const int64_t samples[] = {0, 1, (int64_t(1) << 31) - 1, int64_t(1) << 31, (int64_t(1) << 31) + 1, kRows - 1,
                             int64_t(1) << 30, 123456789};
  struct Route {
    const char* name;
    int32_t family;
    double alpha, beta;
  };
  const Route routes[] = {{"auto", TCGEMM_FAMILY_AUTO, -0.5, 2.0},
                          {"shared_ab", TCGEMM_FAMILY_SHARED_AB, 1.5, 0.0},
                          {"scale (alpha = 0)", TCGEMM_FAMILY_AUTO, 0.0, -1.0}};
  for (const Route& r : routes) {
    SCOPED_TRACE(r.name);
    ASSERT_TRUE(fill(C, value_c0));
    tcgemm_config cfg{};
    cfg.family = r.family;
    ASSERT_EQ(tcgemm_dgemm_config(&cfg, 'N', 'N', kRows, 1, 1, r.alpha, A, kRows, B, 1, r.beta, C, kRows, nullptr),
              TCGEMM_SUCCESS)
        << tcgemm_last_error();
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    for (int64_t i : samples) {
      double got = 0;
      ASSERT_EQ(cudaMemcpy(&got, C + i, sizeof got, cudaMemcpyDeviceToHost), cudaSuccess);
      const double want = r.alpha * value_a(i) * b + r.beta * value_c0(i);  // exact in FP64 (small integers)
      EXPECT_EQ(got, want) << "row " << i;
    }
  }
  EXPECT_EQ(cudaFree(A), cudaSuccess);
  EXPECT_EQ(cudaFree(C), cudaSuccess);
  EXPECT_EQ(cudaFree(B), cudaSuccess);
}

}  // namespace
