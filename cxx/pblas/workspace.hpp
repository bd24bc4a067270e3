// The GPU local product's buffers and streams (local_product_gpu.cpp), one set per device, kept between
// calls and grown when a call needs more. One call uses the set at a time (PDGEMM calls on one process are
// collective over the grid and so come one after another; a second thread waits).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tcgemm::pblas {

struct GpuWorkspace {
  int device = -1;
  double* c = nullptr;                       // mloc x nloc
  double* dev_a[2] = {}, *dev_b[2] = {};     // panels on the device
  double* host_a[2] = {}, *host_b[2] = {};   // pinned panels on the host
  double* host_c[2] = {};                    // pinned staging of the local C, chunk by chunk
  size_t c_bytes = 0, a_bytes = 0, b_bytes = 0, stage_bytes = 0;
  cudaStream_t up_stream = nullptr, compute_stream = nullptr, c_stream = nullptr;
  cudaEvent_t uploaded[2] = {}, multiplied[2] = {}, staged[2] = {};
  std::vector<cudaEvent_t> chunk_done;  // the last panel's product of each staging chunk of C's columns
};

// The device's set, grown to hold a call of these sizes, held until release_gpu_workspace. Null (with
// *why) when the device cannot hold it.
// Staging chunks of the local C hold whole columns of at least this many bytes.
constexpr size_t kStageBytes = size_t{64} << 20;
GpuWorkspace* acquire_gpu_workspace(int device, int64_t mloc, int64_t nloc, int64_t panel, std::string* why);
void release_gpu_workspace(GpuWorkspace* ws);
// Frees every idle set (tcgemm_pblas_release_workspace).
void free_gpu_workspaces();

}  // namespace tcgemm::pblas
