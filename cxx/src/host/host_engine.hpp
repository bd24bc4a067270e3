// The resources of the pipelined host-array path (pipelined_dgemm.hpp): three streams (uploads, compute,
// downloads, so that both copy engines and the SMs work at once), pinned staging buffers for pageable arrays,
// and the events that order them. Made once and reused: a warm call allocates nothing.
//
// Engines live in a per-context pool shared by all threads (like the device memory pool): a call takes a free
// one, or makes one while the context has fewer than kMaxEnginesPerContext, or else waits for one to come
// back. Keyed by context id: after cudaDeviceReset new engines are made and the old ones are never touched.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "core/problem.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

struct HostEngine {
  // Staging: pageable data goes through these pinned buffers, kStagingBuffers each way, round-robin.
  static constexpr int kStagingBuffers = 4;
  // Device slots of the streamed panels (the operand panel and its C tile): while one is computed, the next
  // uploads and the one before downloads.
  static constexpr int kSlots = 3;

  cudaStream_t upload = nullptr, compute = nullptr, download = nullptr;
  int64_t staging_bytes = 0;  // bytes of each staging buffer
  char* up_staging[kStagingBuffers] = {};
  char* down_staging[kStagingBuffers] = {};
  cudaEvent_t up_staging_free[kStagingBuffers] = {};    // the upload that read the buffer is done
  cudaEvent_t down_staging_ready[kStagingBuffers] = {};  // the download into the buffer is done
  cudaEvent_t slot_uploaded[kSlots] = {}, slot_computed[kSlots] = {}, slot_free[kSlots] = {};
  // The last product that read each resident buffer (two when the resident operand is double-buffered).
  cudaEvent_t resident_used[2] = {};
  cudaEvent_t join = nullptr;           // joins the streams at the end of a call
  int next_up_staging = 0, next_down_staging = 0;
  int64_t device_memory = 0;  // the device's total memory, bytes
  int64_t max_pitch = 0;      // the largest pitch cudaMemcpy2D takes on the device, bytes
};

// Takes an engine of ctx's context (made on first use; see above). On failure nothing is held.
tcgemm_status acquire_host_engine(const DeviceContext& ctx, HostEngine** out);
// Gives it back; `healthy` false (a CUDA error happened on its streams) destroys it instead.
void release_host_engine(const DeviceContext& ctx, HostEngine* engine, bool healthy);
// An engine held for one call: given back when the lease ends, as healthy only if the call said so, so that
// any way out of the call (an error return, an exception) returns it and keeps the pool's count right.
class HostEngineLease {
 public:
  explicit HostEngineLease(const DeviceContext& ctx) : ctx_(ctx) {}
  HostEngineLease(const HostEngineLease&) = delete;
  HostEngineLease& operator=(const HostEngineLease&) = delete;
  ~HostEngineLease() { release_host_engine(ctx_, engine_, healthy_); }
  tcgemm_status acquire() { return acquire_host_engine(ctx_, &engine_); }
  HostEngine& get() const { return *engine_; }
  void mark_healthy(bool healthy) { healthy_ = healthy; }

 private:
  const DeviceContext& ctx_;
  HostEngine* engine_ = nullptr;
  bool healthy_ = false;
};

// Destroys ctx's idle engines and their pinned buffers (tcgemm_release_workspace).
void trim_host_engines(const DeviceContext& ctx);

}  // namespace tcgemm::detail
