// tcgemm's device memory: one stream-ordered memory pool per CUDA context, shared by all threads and by
// every part of the library that needs scratch memory (the host-array path's copies of A, B and C, the
// split-K workspace). After each synchronisation the pool keeps at most TCGEMM_HOST_WORKSPACE_BYTES
// (default 1/16 of the device memory, at least 1 GiB) and returns the rest to the device, so repeated calls
// allocate nothing from the driver.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "core/problem.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// tcgemm's pool in ctx (the calling thread's current context), made on first use. Keyed by context id: after
// cudaDeviceReset a new pool is made. *out is nullptr (and the call succeeds) when the device has no
// memory-pool support; callers then fall back to cudaMalloc/cudaFree.
tcgemm_status context_pool(const DeviceContext& ctx, cudaMemPool_t* out);
// Returns everything ctx's pool holds to the device (tcgemm_release_workspace).
tcgemm_status trim_context_pool(const DeviceContext& ctx);

// Scratch memory ordered on one stream: allocate() takes it from the context's pool on `stream`, the
// destructor gives it back on the same stream (cudaFreeAsync), so the memory is reused only by work ordered
// after everything that used it: several streams and threads never share a buffer. While the stream is
// being captured into a CUDA graph the allocation is the graph's own (cudaMallocAsync). On a device without
// memory pools it is cudaMalloc/cudaFree (cudaFree waits for the device).
class StreamScratch {
 public:
  StreamScratch() = default;
  StreamScratch(const StreamScratch&) = delete;
  StreamScratch& operator=(const StreamScratch&) = delete;
  ~StreamScratch();
  tcgemm_status allocate(const DeviceContext& ctx, size_t bytes, cudaStream_t stream, void** out);
  // As allocate, but a device short of memory is not an error: *out is then nullptr, CUDA's last error is
  // cleared and the call succeeds, for callers that have another way to do the work (the TF32 fast path's
  // copies fall back to the in-place WMMA family).
  tcgemm_status allocate_if_available(const DeviceContext& ctx, size_t bytes, cudaStream_t stream, void** out);

 private:
  tcgemm_status allocate_impl(const DeviceContext& ctx, size_t bytes, cudaStream_t stream, bool shortage_ok,
                              void** out);
  void* ptr_ = nullptr;
  cudaStream_t stream_ = nullptr;
  bool async_ = false;
};

}  // namespace tcgemm::detail
