// tcgemm's per-context memory pool and stream-ordered scratch buffers (memory_pool.hpp).
#include "core/memory_pool.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <mutex>

#include "core/env.hpp"
#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {

constexpr uint64_t kMinDefaultRetainBytes = uint64_t(1) << 30;

// The retain limit: TCGEMM_HOST_WORKSPACE_BYTES (a plain byte count), or by default 1/16 of the device's
// memory and at least 1 GiB (5 GB on an 80 GB H100): enough for the host path's buffers at n = 16384
// (about 2.4 GB), so repeated large host-array calls take nothing new from the driver.
uint64_t retain_limit_bytes(uint64_t device_total_bytes) {
  const uint64_t fallback = std::max(kMinDefaultRetainBytes, device_total_bytes / 16);
  return uint64_t(env_int("TCGEMM_HOST_WORKSPACE_BYTES", 0, INT64_MAX, int64_t(fallback)));
}

struct Pools {
  std::mutex mutex;
  std::map<uint64_t, cudaMemPool_t> by_context;  // context id -> tcgemm's pool in that context
};
Pools& pools() {
  static Pools* p = new Pools;  // never destroyed: used by threads that outlive static destruction
  return *p;
}

}  // namespace

tcgemm_status context_pool(const DeviceContext& ctx, cudaMemPool_t* out) {
  Pools& all = pools();
  std::lock_guard<std::mutex> lock(all.mutex);
  auto it = all.by_context.find(ctx.context_id);
  if (it != all.by_context.end()) {
    *out = it->second;
    return TCGEMM_SUCCESS;
  }
  int supported = 0;
  TCGEMM_CUDA_TRY(cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, ctx.device));
  cudaMemPool_t pool = nullptr;
  if (supported) {
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = ctx.device;
    TCGEMM_CUDA_TRY(cudaMemPoolCreate(&pool, &props));
    size_t free_bytes = 0, total_bytes = 0;  // ctx's device is the current one (device_gate)
    TCGEMM_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    uint64_t retain = retain_limit_bytes(total_bytes);
    TCGEMM_CUDA_TRY(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &retain));
  }
  all.by_context[ctx.context_id] = pool;
  *out = pool;
  return TCGEMM_SUCCESS;
}

tcgemm_status trim_context_pool(const DeviceContext& ctx) {
  Pools& all = pools();
  std::lock_guard<std::mutex> lock(all.mutex);
  auto it = all.by_context.find(ctx.context_id);
  if (it != all.by_context.end() && it->second) TCGEMM_CUDA_TRY(cudaMemPoolTrimTo(it->second, 0));
  return TCGEMM_SUCCESS;
}

StreamScratch::~StreamScratch() {
  if (!ptr_) return;
  // Errors here cannot be reported (the call's own status is); the last-error slot is left clean.
  if ((async_ ? cudaFreeAsync(ptr_, stream_) : cudaFree(ptr_)) != cudaSuccess) (void)cudaGetLastError();
}

tcgemm_status StreamScratch::allocate(const DeviceContext& ctx, size_t bytes, cudaStream_t stream, void** out) {
  return allocate_impl(ctx, bytes, stream, false, out);
}

tcgemm_status StreamScratch::allocate_if_available(const DeviceContext& ctx, size_t bytes, cudaStream_t stream,
                                                   void** out) {
  return allocate_impl(ctx, bytes, stream, true, out);
}

tcgemm_status StreamScratch::allocate_impl(const DeviceContext& ctx, size_t bytes, cudaStream_t stream,
                                           bool shortage_ok, void** out) {
  *out = nullptr;
  cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
  TCGEMM_CUDA_TRY(cudaStreamIsCapturing(stream, &capture));
  cudaMemPool_t pool = nullptr;
  if (capture != cudaStreamCaptureStatusActive) TCGEMM_TRY(context_pool(ctx, &pool));
  cudaError_t err = cudaSuccess;
  const char* what = nullptr;
  if (capture == cudaStreamCaptureStatusActive) {
    err = cudaMallocAsync(&ptr_, bytes, stream);
    what = "cudaMallocAsync(scratch, stream)";
    async_ = true;
  } else if (pool) {
    err = cudaMallocFromPoolAsync(&ptr_, bytes, pool, stream);
    what = "cudaMallocFromPoolAsync(scratch, tcgemm pool, stream)";
    async_ = true;
  } else {
    err = cudaMalloc(&ptr_, bytes);
    what = "cudaMalloc(scratch)";
    async_ = false;
  }
  if (err != cudaSuccess) {
    ptr_ = nullptr;
    if (shortage_ok && err == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();  // the shortage is handled by the caller, not left for its next check
      return TCGEMM_SUCCESS;
    }
    return set_cuda_error(err, what);
  }
  stream_ = stream;
  *out = ptr_;
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
