// The device gate and the per-device, per-context caches (core/device.cpp).
#pragma once

#include "core/problem.hpp"

namespace tcgemm::detail {

// The device gate: the device (device < 0: the calling thread's current one) exists and has cc >= 8.0.
// Fills ctx from a per-device cache, so repeated calls query CUDA for the device count and id only.
// Also records the id of the calling thread's current CUDA context (made current first when there is none:
// first use, or after cudaDeviceReset) in ctx->context_id.
// device_arg_pos: where `device` stands in the calling entry point (0: it is not an argument), for the
// error that blames it.
tcgemm_status device_gate(int device, DeviceContext* ctx, int device_arg_pos = 0);
// The CUDA errors that mean "no usable GPU here" (no device, no or too old a driver): TCGEMM_ERROR_NO_DEVICE.
bool is_no_device_error(cudaError_t e);
// Raise a kernel's dynamic shared-memory limit to what the device allows, once per (kernel, CUDA context):
// the attribute lives in the context, so a new context after cudaDeviceReset needs it again.
tcgemm_status ensure_dynamic_smem_limit(const void* kernel, const DeviceContext& ctx, const char* kernel_name);
// Blocks of `kernel` (launched with `threads` threads and `dynamic_smem` bytes, the same for every call with
// this kernel) that one SM of ctx's device holds at once, asked of CUDA once per (kernel, CUDA context):
// devices of other architectures in one process get their own answer. `fallback` when CUDA cannot say (no
// error is left pending).
int resident_blocks_per_sm(const void* kernel, const DeviceContext& ctx, int threads, size_t dynamic_smem,
                           int fallback);
// Clusters of cluster_y blocks (the cluster along y) of `kernel`, launched with `threads` threads and
// `dynamic_smem` bytes, that ctx's device runs at once (cudaOccupancyMaxActiveClusters: clusters are placed whole
// inside a GPC, so this can be less than the block slots / cluster_y). Raises the kernel's dynamic shared-memory
// limit first (as ensure_dynamic_smem_limit). Asked of CUDA once per (kernel, CUDA context, dynamic_smem,
// cluster_y); -1 when CUDA cannot say (not cached). Records no error and leaves no CUDA error pending.
int max_active_clusters(const void* kernel, const DeviceContext& ctx, int threads, size_t dynamic_smem,
                        int cluster_y);
// The architecture the loaded code of `kernel` was compiled for on `device` (which need not be the current
// one), e.g. 90: the smaller of cudaFuncAttributes' binaryVersion and ptxVersion. binaryVersion alone is the
// device's own architecture when the driver JIT-compiled PTX, and a compute_80 PTX of a kernel whose body
// needs sm_90 compiles that body away. *version is 0 when the build has no code for the device at all.
// Records no error and leaves no CUDA error pending; callers cache the answer.
cudaError_t kernel_code_version(const void* kernel, int device, int* version);

// Makes `device` the calling thread's current device for the object's lifetime. At the end the previous device
// is made current again, but only when the thread had a current CUDA context before: a thread that had none
// (a fresh worker thread, or a program whose first CUDA use is this call) is left on `device`, so that no
// context is created on another GPU just to restore a default (an MPI rank told to use GPU 1 never touches GPU 0).
class CurrentDeviceSwitch {
 public:
  explicit CurrentDeviceSwitch(int device);
  ~CurrentDeviceSwitch();
  CurrentDeviceSwitch(const CurrentDeviceSwitch&) = delete;
  CurrentDeviceSwitch& operator=(const CurrentDeviceSwitch&) = delete;
  cudaError_t status() const { return status_; }

 private:
  int previous_ = -1;  // restored at the end; -1: nothing to restore
  cudaError_t status_ = cudaSuccess;
};

}  // namespace tcgemm::detail
