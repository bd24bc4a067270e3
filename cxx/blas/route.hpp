// Where libtcgemm_blas runs a DGEMM call (route.cpp): on the GPU in place (device or managed arrays), on the
// GPU through tcgemm_dgemm_host (host arrays, when the model says the GPU wins even with the copies), or on
// the host BLAS (small or transfer-bound products, no usable GPU, TCGEMM_BLAS_ROUTE=host).
//
// The model, per call: GPU time = bytes over the host link (A, B, C, and C again when beta != 0) at
// TCGEMM_BLAS_LINK_GBS (pageable) or TCGEMM_BLAS_PINNED_LINK_GBS (arrays the caller pinned) + flops at
// TCGEMM_BLAS_GPU_TFLOPS + a fixed TCGEMM_BLAS_GPU_OVERHEAD_US; host time = flops at TCGEMM_BLAS_HOST_GFLOPS.
// A ScaLAPACK-style k = 32 update of a large C moves C twice for 64 flops per element: the link loses.
// TCGEMM_BLAS_VERBOSE=1 prints one line per call (shape, route, model times, measured time).
// A call the GPU could not win even over a pinned link, in a process without a CUDA context, goes to the host
// BLAS without touching the GPU (no context is created, no GPU memory taken).
// Devices: host arrays routed to the GPU run on tcgemm_dgemm_host's host device list (tcgemm.h,
// tcgemm_set_host_devices: the thread's list, TCGEMM_DEVICES, TCGEMM_DEVICE, one device per MPI rank on a
// node shared by several ranks, else every GPU); the model still assumes one GPU's speed. Device arrays run
// on the calling thread's current device (the pointers' own).
#pragma once

#include <cstdint>

namespace tcgemm::blas {

struct DgemmCall {
  char transa, transb;  // 'N' or 'T' (normalised)
  int64_t m, n, k;
  double alpha;
  const double* A;
  int64_t lda;
  const double* B;
  int64_t ldb;
  double beta;
  double* C;
  int64_t ldc;
};

// Runs a checked, non-trivial call (arguments valid, not a quick return) on the chosen route. `entry` names
// the entry point for messages ("dgemm_", "dgemm_64_", "cblas_dgemm").
void run_dgemm(const DgemmCall& call, const char* entry);

}  // namespace tcgemm::blas
