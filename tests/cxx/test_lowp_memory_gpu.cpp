// The TF32 routes that run on packed copies of op(A) and op(B) (the default path, and the WMMA family with a
// fixed configuration), on a device with no free memory: the copies cannot be had, so the product must run in
// place on the WMMA family's run-time kernel and still be right, rather than fail. The tests take all the
// device's memory, so they run alone (SERIAL in tests/CMakeLists.txt).
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "gpu_test_util.hpp"
#include "tcgemm/tcgemm.h"

namespace {

// Holds every byte of device memory cudaMalloc will give, in halving chunks down to 1 MiB.
struct MemoryHog {
  std::vector<void*> blocks;
  MemoryHog() {
    for (size_t chunk = size_t(1) << 30; chunk >= (size_t(1) << 20);) {
      void* p = nullptr;
      if (cudaMalloc(&p, chunk) == cudaSuccess) {
        blocks.push_back(p);
      } else {
        (void)cudaGetLastError();
        chunk /= 2;
      }
    }
  }
  ~MemoryHog() {
    for (void* p : blocks) cudaFree(p);
  }
};

// One TF32 product with configuration `config` (nullptr: the default path) while the device has no free memory.
void tf32_product_without_free_memory(const tcgemm_wmma_config* config) {
  // The route each call took, on stderr (read once per process, before tcgemm's first lower-precision call).
  setenv("TCGEMM_PLAN_LOG", "1", 1);
  const int64_t m = 256, n = 256, k = 4096;  // packed copies: 4 (m + n) k = 8 MiB
  const size_t pack_bytes = size_t(4 * (m + n) * k);
  std::mt19937_64 rng(4242);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> a(size_t(m * k)), b(size_t(k * n)), c(size_t(m * n), std::nanf(""));
  for (float& v : a) v = u(rng);
  for (float& v : b) v = u(rng);
  float *da = nullptr, *db = nullptr, *dc = nullptr;
  ASSERT_EQ(cudaMalloc(&da, a.size() * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&db, b.size() * 4), cudaSuccess);
  ASSERT_EQ(cudaMalloc(&dc, c.size() * 4), cudaSuccess);
  cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dc, c.data(), c.size() * 4, cudaMemcpyHostToDevice);
  ASSERT_EQ(tcgemm_release_workspace(), TCGEMM_SUCCESS) << tcgemm_last_error();  // nothing kept in tcgemm's pool
  tcgemm_status st = TCGEMM_SUCCESS;
  size_t free_during = 0, total = 0;
  {
    MemoryHog hog;
    ASSERT_EQ(cudaMemGetInfo(&free_during, &total), cudaSuccess);
    ASSERT_LT(free_during, pack_bytes) << "could not fill the device's memory";
    testing::internal::CaptureStderr();
    st = tcgemm_gemm_ex('N', 'N', m, n, k, 1.0f, da, TCGEMM_TYPE_F32, m, db, TCGEMM_TYPE_F32, k, 0.0f, dc,
                        TCGEMM_TYPE_F32, m, TCGEMM_TYPE_F32, config, nullptr);
    const std::string plan = testing::internal::GetCapturedStderr();
    // The call took a packed route and fell back, rather than not trying the copies at all.
    EXPECT_NE(plan.find("(no device memory for the TF32 packed copies)"), std::string::npos) << plan;
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "tcgemm left an error behind";
  }
  ASSERT_EQ(st, TCGEMM_SUCCESS) << tcgemm_last_error();
  ASSERT_EQ(cudaMemcpy(c.data(), dc, c.size() * 4, cudaMemcpyDeviceToHost), cudaSuccess);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  // FP64 reference; TF32 rounds the inputs (u = 2^-11), FP32 accumulates k products.
  const double u_in = std::ldexp(1.0, -11), u_acc = std::ldexp(1.0, -24);
  int64_t bad = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double sum = 0.0, mag = 0.0;
      for (int64_t l = 0; l < k; ++l) {
        const double x = a[size_t(i + l * m)], y = b[size_t(l + j * k)];
        sum += x * y;
        mag += std::fabs(x * y);
      }
      const double tol = 2.0 * (2.0 * u_in + double(k + 2) * u_acc) * mag;
      bad += !(std::fabs(double(c[size_t(i + j * m)]) - sum) <= tol);
    }
  EXPECT_EQ(bad, 0) << "of " << m * n << " elements (free memory during the call: " << free_during << " bytes)";
}

TEST(MmaLowpMemory, Tf32RunsInPlaceWhenThePackedCopiesDoNotFit) {
  TCGEMM_REQUIRE_GPU();
  tf32_product_without_free_memory(nullptr);
}

// The WMMA family's fixed TF32 configuration runs the pipelined kernel on packed copies; without them, the
// run-time kernel in place.
TEST(WmmaLowpMemory, FixedTf32ConfigurationRunsInPlaceWhenThePackedCopiesDoNotFit) {
  TCGEMM_REQUIRE_GPU();
  const tcgemm_wmma_config fixed{TCGEMM_WMMA_16x16x8, 128, 32, 4, 4, 3, 128, {0}};
  tf32_product_without_free_memory(&fixed);
}

}  // namespace
