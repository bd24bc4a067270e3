// Pieces shared by the host-array calls that copy their operands to the device in one piece each
// (tcgemm_sgemm_host, tcgemm_dgemm_strided_batched_host): a stream of the call's own and 2D column copies.
#pragma once

#include <climits>
#include <cstdint>

#include <cuda_runtime.h>

#include "core/errors.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// A stream of the call's own, drained and destroyed on every return path (after the scratch buffers
// declared later, which give their memory back on it): when a later step fails, copies already enqueued
// from or to the caller's arrays (asynchronous for pinned memory) end before the call returns, so the
// caller may reuse or free them at once.
struct CallStream {
  cudaStream_t stream = nullptr;
  CallStream() = default;
  CallStream(const CallStream&) = delete;
  CallStream& operator=(const CallStream&) = delete;
  ~CallStream() {
    if (!stream) return;
    (void)cudaStreamSynchronize(stream);
    (void)cudaStreamDestroy(stream);
  }
};

// cols columns of width_bytes from src (pitch spitch) to dst (pitch dpitch), on `stream`. cudaMemcpy2DAsync
// takes pitches up to INT_MAX bytes; past that, one copy per column.
inline tcgemm_status copy_columns(void* dst, int64_t dpitch, const void* src, int64_t spitch, int64_t width_bytes,
                                  int64_t cols, cudaMemcpyKind kind, cudaStream_t stream) {
  if (width_bytes == 0 || cols == 0) return TCGEMM_SUCCESS;
  if (dpitch <= INT_MAX && spitch <= INT_MAX) {
    TCGEMM_CUDA_TRY(cudaMemcpy2DAsync(dst, size_t(dpitch), src, size_t(spitch), size_t(width_bytes), size_t(cols),
                                      kind, stream));
    return TCGEMM_SUCCESS;
  }
  for (int64_t j = 0; j < cols; ++j)
    TCGEMM_CUDA_TRY(cudaMemcpyAsync(static_cast<char*>(dst) + j * dpitch, static_cast<const char*>(src) + j * spitch,
                                    size_t(width_bytes), kind, stream));
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
