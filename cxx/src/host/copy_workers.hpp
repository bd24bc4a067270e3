// Host-side copies of matrix blocks between the caller's (pageable) arrays and tcgemm's pinned staging
// buffers, spread over a few worker threads. One thread's memcpy moves 8-15 GB/s; the host link moves about
// 55 GB/s each way, so staging pageable arrays at link speed needs several threads copying at once.
#pragma once

#include <cstdint>

namespace tcgemm::detail {

// `cols` runs of `run_bytes` bytes each: run j starts at src + j * src_stride and goes to dst + j * dst_stride.
// A column-major block of a matrix is one: runs are its columns (or one column's rows).
struct CopyRuns {
  const char* src = nullptr;
  int64_t src_stride = 0;
  char* dst = nullptr;
  int64_t dst_stride = 0;
  int64_t run_bytes = 0;
  int64_t runs = 0;
};

// Copies the runs, the calling thread working with the process's copy workers (TCGEMM_HOST_COPY_THREADS
// helpers, default half the hardware threads up to 8; 0: the calling thread copies alone). Returns when
// every byte is copied. Safe to call from several threads at once: their jobs share the workers.
void copy_runs(const CopyRuns& job);

// The number of helper threads copy_runs uses (for reports).
int copy_worker_count();

}  // namespace tcgemm::detail
