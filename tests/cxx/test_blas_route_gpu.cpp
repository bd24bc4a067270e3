// libtcgemm_blas's routes on a GPU machine: a small host-array call goes to the host BLAS without creating a
// CUDA context (important under LD_PRELOAD in every rank of an MPI job); device arrays run in place on the
// GPU; host and device arrays mixed in one call stop the program with a message rather than compute garbage.
// The tests run in this order in one process: the first must see no context yet.
#include <cuda.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "gpu_test_util.hpp"

extern "C" void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                       const int*, const double*, const int*, const double*, double*, const int*, size_t, size_t);

namespace {

// The driver's cuDevicePrimaryCtxGetState through the runtime: no link-time libcuda (CPU CI has none).
bool primary_context_active(int device) {
  using Fn = CUresult (*)(CUdevice, unsigned*, int*);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  if (cudaGetDriverEntryPointByVersion("cuDevicePrimaryCtxGetState", &fn, 12000, cudaEnableDefault, &found) !=
          cudaSuccess ||
      found != cudaDriverEntryPointSuccess)
    return false;
  unsigned flags = 0;
  int active = 0;
  return reinterpret_cast<Fn>(fn)(CUdevice(device), &flags, &active) == CUDA_SUCCESS && active != 0;
}

double max_error(const std::vector<double>& a, const std::vector<double>& b, const std::vector<double>& c, int m,
                 int n, int k, double alpha) {
  double worst = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      double s = 0;
      for (int l = 0; l < k; ++l) s += a[size_t(i + l * m)] * b[size_t(l + j * k)];
      worst = std::fmax(worst, std::fabs(c[size_t(i + j * m)] - alpha * s));
    }
  return worst;
}

TEST(BlasRoute, SmallHostCallCreatesNoCudaContext) {
  TCGEMM_REQUIRE_GPU();
  if (primary_context_active(0)) GTEST_SKIP() << "a CUDA context already exists in this process";
  const int m = 20, n = 10, k = 5;
  const std::vector<double> a = tcgemm::test::random_matrix(m, k, m, 3), b = tcgemm::test::random_matrix(k, n, k, 4);
  std::vector<double> c(size_t(m * n), 0.0);
  const double alpha = 1.5, beta = 0.0;
  dgemm_("N", "N", &m, &n, &k, &alpha, a.data(), &m, b.data(), &k, &beta, c.data(), &m, 1, 1);
  EXPECT_LT(max_error(a, b, c, m, n, k, alpha), 1e-13);
  EXPECT_FALSE(primary_context_active(0)) << "a host-routed call created a CUDA context";
}

TEST(BlasRoute, DeviceArraysRunInPlace) {
  TCGEMM_REQUIRE_GPU();
  const int m = 130, n = 70, k = 40;
  const std::vector<double> a = tcgemm::test::random_matrix(m, k, m, 5), b = tcgemm::test::random_matrix(k, n, k, 6);
  tcgemm::test::DeviceBuffer<double> dA{a.size()}, dB{b.size()}, dC{size_t(m * n)};
  ASSERT_TRUE(dA.ok() && dB.ok() && dC.ok());
  CUDA_OK(dA.upload(a));
  CUDA_OK(dB.upload(b));
  const double alpha = -2.0, beta = 0.0;
  dgemm_("N", "N", &m, &n, &k, &alpha, dA.get(), &m, dB.get(), &k, &beta, dC.get(), &m, 1, 1);
  std::vector<double> c;
  CUDA_OK(dC.download(&c));
  EXPECT_LT(max_error(a, b, c, m, n, k, alpha), 1e-12);
}

// A, C on the host, B on the device.
void call_with_mixed_arrays() {
  const int m = 8, n = 8, k = 8;
  std::vector<double> a(64, 1.0), c(64, 0.0);
  double* dB = nullptr;
  if (cudaMalloc(&dB, 64 * sizeof(double)) != cudaSuccess) std::abort();
  const double alpha = 1.0, beta = 0.0;
  dgemm_("N", "N", &m, &n, &k, &alpha, a.data(), &m, dB, &k, &beta, c.data(), &m, 1, 1);
}

TEST(BlasRouteDeathTest, MixedHostAndDeviceArraysStop) {
  TCGEMM_REQUIRE_GPU();
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(call_with_mixed_arrays(), "A, B and C must all be host arrays or all be device");
}

}  // namespace
