// tcgemm_host_register / tcgemm_host_unregister: argument errors before any device query (run everywhere),
// and on a GPU: a pinned host-array DGEMM matches the plain loop, and the pages are really pinned.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "gpu_test_util.hpp"
#include "tcgemm/tcgemm.h"

namespace {

TEST(HostRegister, ArgumentErrorsNameTheArgument) {
  EXPECT_EQ(tcgemm_host_register(nullptr, 8), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 1);
  double x[4];
  EXPECT_EQ(tcgemm_host_register(x, 0), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 2);
  EXPECT_EQ(std::string(tcgemm_last_error()), "bytes=0: must be > 0");
  EXPECT_EQ(tcgemm_host_unregister(nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
}

TEST(HostRegister, PinnedArraysThroughTheHostPath) {
  TCGEMM_REQUIRE_GPU();
  const int64_t m = 300, n = 200, k = 150;
  std::vector<double> a = tcgemm::test::random_matrix(m, k, m, 1), b = tcgemm::test::random_matrix(k, n, k, 2);
  std::vector<double> c(size_t(m * n), 0.5);
  const std::vector<double> c0 = c;
  ASSERT_EQ(tcgemm_host_register(a.data(), int64_t(a.size() * 8)), TCGEMM_SUCCESS) << tcgemm_last_error();
  ASSERT_EQ(tcgemm_host_register(b.data(), int64_t(b.size() * 8)), TCGEMM_SUCCESS) << tcgemm_last_error();
  ASSERT_EQ(tcgemm_host_register(c.data(), int64_t(c.size() * 8)), TCGEMM_SUCCESS) << tcgemm_last_error();
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, c.data()), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeHost) << "registered memory is page-locked host memory";
  ASSERT_EQ(tcgemm_dgemm_host('N', 'N', m, n, k, 2.0, a.data(), m, b.data(), k, -1.0, c.data(), m), TCGEMM_SUCCESS)
      << tcgemm_last_error();
  double worst = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double s = 0;
      for (int64_t l = 0; l < k; ++l) s += a[size_t(i + l * m)] * b[size_t(l + j * k)];
      worst = std::fmax(worst, std::fabs(c[size_t(i + j * m)] - (2.0 * s - c0[size_t(i + j * m)])));
    }
  EXPECT_LT(worst, 1e-12);
  EXPECT_EQ(tcgemm_host_unregister(a.data()), TCGEMM_SUCCESS);
  EXPECT_EQ(tcgemm_host_unregister(b.data()), TCGEMM_SUCCESS);
  EXPECT_EQ(tcgemm_host_unregister(c.data()), TCGEMM_SUCCESS);
  // Unregistering twice is CUDA's error, surfaced with its own text.
  EXPECT_EQ(tcgemm_host_unregister(c.data()), TCGEMM_ERROR_CUDA);
  EXPECT_NE(std::string(tcgemm_last_error()).find("cudaErrorHostMemoryNotRegistered"), std::string::npos)
      << tcgemm_last_error();
}

}  // namespace
