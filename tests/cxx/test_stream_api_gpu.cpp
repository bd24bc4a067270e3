// tcgemm_stream_create / _destroy / _synchronize on a GPU: the stream is a real, blocking stream that the
// launches accept, synchronize waits for the work queued on it, and the lifecycle is clean.
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "gpu_test_util.hpp"
#include "tcgemm/tcgemm.h"

namespace {

TEST(StreamApiGpu, CreatesABlockingStream) {
  TCGEMM_REQUIRE_GPU();
  cudaStream_t stream = nullptr;
  ASSERT_EQ(tcgemm_stream_create(&stream), TCGEMM_SUCCESS) << tcgemm_last_error();
  ASSERT_NE(stream, nullptr);
  // Blocking (cudaStreamDefault), as the header promises: work on it waits for the legacy default stream,
  // where tcgemm_memcpy_to_device's copies run.
  unsigned int flags = 1234;
  CUDA_OK(cudaStreamGetFlags(stream, &flags));
  EXPECT_EQ(flags, unsigned(cudaStreamDefault));
  EXPECT_EQ(tcgemm_stream_synchronize(stream), TCGEMM_SUCCESS) << tcgemm_last_error();
  EXPECT_EQ(tcgemm_stream_destroy(stream), TCGEMM_SUCCESS) << tcgemm_last_error();
}

TEST(StreamApiGpu, SynchronizeWaitsForADgemmOnTheStream) {
  TCGEMM_REQUIRE_GPU();
  const int64_t m = 257, n = 131, k = 96;
  const std::vector<double> a = tcgemm::test::random_matrix(m, k, m, 11);
  const std::vector<double> b = tcgemm::test::random_matrix(k, n, k, 12);
  std::vector<double> c(size_t(m * n), 0.0);
  void *da = nullptr, *db = nullptr, *dc = nullptr;
  ASSERT_EQ(tcgemm_malloc(&da, int64_t(a.size() * 8)), TCGEMM_SUCCESS);
  ASSERT_EQ(tcgemm_malloc(&db, int64_t(b.size() * 8)), TCGEMM_SUCCESS);
  ASSERT_EQ(tcgemm_malloc(&dc, int64_t(c.size() * 8)), TCGEMM_SUCCESS);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(tcgemm_stream_create(&stream), TCGEMM_SUCCESS) << tcgemm_last_error();
  // Uploads on the legacy default stream, then the launch on the new stream with no wait in between: the
  // blocking stream orders them.
  ASSERT_EQ(tcgemm_memcpy_to_device(da, a.data(), int64_t(a.size() * 8)), TCGEMM_SUCCESS);
  ASSERT_EQ(tcgemm_memcpy_to_device(db, b.data(), int64_t(b.size() * 8)), TCGEMM_SUCCESS);
  ASSERT_EQ(tcgemm_dgemm('N', 'N', m, n, k, 1.0, static_cast<const double*>(da), m,
                         static_cast<const double*>(db), k, 0.0, static_cast<double*>(dc), m, stream),
            TCGEMM_SUCCESS)
      << tcgemm_last_error();
  ASSERT_EQ(tcgemm_stream_synchronize(stream), TCGEMM_SUCCESS) << tcgemm_last_error();
  EXPECT_EQ(cudaStreamQuery(stream), cudaSuccess) << "nothing may be pending after synchronize";
  // The download goes to the host with a stream-ordered copy of its own, after the wait above.
  CUDA_OK(cudaMemcpyAsync(c.data(), dc, c.size() * 8, cudaMemcpyDeviceToHost, stream));
  CUDA_OK(cudaStreamSynchronize(stream));
  double worst = 0, scale = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      double s = 0, s_abs = 0;
      for (int64_t l = 0; l < k; ++l) {
        s += a[size_t(i + l * m)] * b[size_t(l + j * k)];
        s_abs += std::fabs(a[size_t(i + l * m)] * b[size_t(l + j * k)]);
      }
      worst = std::fmax(worst, std::fabs(c[size_t(i + j * m)] - s));
      scale = std::fmax(scale, s_abs);
    }
  EXPECT_LE(worst, 2.0 * (k + 1) * 1.1102230246251565e-16 * scale);
  EXPECT_EQ(tcgemm_stream_destroy(stream), TCGEMM_SUCCESS) << tcgemm_last_error();
  EXPECT_EQ(tcgemm_free(da), TCGEMM_SUCCESS);
  EXPECT_EQ(tcgemm_free(db), TCGEMM_SUCCESS);
  EXPECT_EQ(tcgemm_free(dc), TCGEMM_SUCCESS);
}

TEST(StreamApiGpu, DefaultStreamSynchronizes) {
  TCGEMM_REQUIRE_GPU();
  EXPECT_EQ(tcgemm_stream_synchronize(nullptr), TCGEMM_SUCCESS) << tcgemm_last_error();
}

}  // namespace
