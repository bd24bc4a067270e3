// The second half of a split-K product (families/common/split_k_reduce.cu): C <- alpha sum_s W_s + beta C,
// where W_s (s = 0 .. slices - 1) are the partial products of the k-slices, each m x n column-major with
// leading dimension m, stored slice after slice (slice_step elements apart). Every element's sum is one fixed
// expression (slices added in order; from eight slices on, in eight interleaved groups added in order), so
// the result is the same bit for bit on every run, whatever the order in which the blocks of the first half
// ran (no atomics). The families with split-K (sm90_mma, skinny) take the partial products' workspace from
// allocate_partials.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "core/memory_pool.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

struct SplitKOutput {
  double alpha, beta;  // beta == 0: C is not read
  double* C;
  int64_t row_stride, col_stride;  // C(i, j) = C[i row_stride + j col_stride] (a transposed C: ldc, 1)
};

// Workspace for `slices` partial products of rows x cols, from tcgemm's pool on `stream` (*scratch owns it
// and gives it back on the stream). A workspace past TCGEMM_MAX_MATRIX_BYTES is the configuration's error
// (k_splits, named for `family`), reported before anything runs.
tcgemm_status allocate_partials(const DeviceContext& ctx, int64_t rows, int64_t cols, int64_t slices,
                                int32_t k_splits, const char* family, cudaStream_t stream, StreamScratch* scratch,
                                double** out);

// programmatic: launched as a programmatic dependent of the kernel ahead of it on the stream (arch/
// dependent_launch_sm90.cuh), which starts the reduction as soon as that kernel ends instead of one launch
// latency later; only where the device runs the build's sm_90 code (sm90_code_available), whose reduction
// waits for that kernel.
tcgemm_status launch_split_k_reduce(int64_t m, int64_t n, int64_t slices, const double* W, int64_t slice_step,
                                    const SplitKOutput& out, bool programmatic, cudaStream_t stream);

}  // namespace tcgemm::detail
