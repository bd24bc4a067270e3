// tcgemm_stream_create / _destroy / _synchronize: the argument errors (everywhere) and the named status
// without a GPU (skipped where one is present; test_stream_api_gpu covers that side).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>

#include "tcgemm/tcgemm.h"

namespace {

using ::testing::HasSubstr;

bool has_gpu() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  (void)cudaGetLastError();
  return ok;
}

// A recognisable non-NULL value: a failed create must overwrite it with NULL.
cudaStream_t stale_handle() { return reinterpret_cast<cudaStream_t>(uintptr_t(0x5157)); }

TEST(StreamApi, CreateIntoNullIsArgumentOne) {
  EXPECT_EQ(tcgemm_stream_create(nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(tcgemm_last_error_argument(), 1);
  EXPECT_THAT(tcgemm_last_error(), HasSubstr("stream is NULL"));
  EXPECT_THAT(tcgemm_last_error(), HasSubstr("cudaStream_t"));
}

TEST(StreamApi, DestroyNullIsANoOp) {
  ASSERT_EQ(tcgemm_stream_create(nullptr), TCGEMM_ERROR_INVALID_ARGUMENT);  // leave a message behind
  EXPECT_EQ(tcgemm_stream_destroy(nullptr), TCGEMM_SUCCESS);
  EXPECT_STREQ(tcgemm_last_error(), "") << "a successful call clears the last error";
  EXPECT_EQ(tcgemm_last_error_argument(), 0);
}

TEST(StreamApi, WithoutADeviceEachCallSaysSo) {
  if (has_gpu()) GTEST_SKIP() << "this checks the behaviour without a CUDA device; a GPU is present";
  cudaStream_t stream = stale_handle();
  EXPECT_EQ(tcgemm_stream_create(&stream), TCGEMM_ERROR_NO_DEVICE);
  EXPECT_EQ(stream, nullptr) << "a failed create leaves NULL, not a stale handle";
  EXPECT_THAT(tcgemm_last_error(), HasSubstr("no CUDA device"));
  EXPECT_EQ(tcgemm_last_error_argument(), 0);
  // The default stream is a valid argument; without a device the gate answers, not CUDA.
  EXPECT_EQ(tcgemm_stream_synchronize(nullptr), TCGEMM_ERROR_NO_DEVICE);
  EXPECT_THAT(tcgemm_last_error(), HasSubstr("no CUDA device"));
}

}  // namespace
