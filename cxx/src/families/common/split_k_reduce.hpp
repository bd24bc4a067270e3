// The second half of a split-K product (families/common/split_k_reduce.cu): C <- alpha sum_s W_s + beta C,
// where W_s (s = 0 .. slices - 1) are the partial products of the k-slices, each m x n column-major with
// leading dimension m, stored slice after slice (slice_step elements apart). Every element's sum is one fixed
// expression (eight interleaved slice groups, each added in slice order, then the groups in order), so the
// result is the same bit for bit on every run, whatever the order in which the blocks of the first half ran
// (no atomics).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

struct SplitKOutput {
  double alpha, beta;  // beta == 0: C is not read
  double* C;
  int64_t row_stride, col_stride;  // C(i, j) = C[i row_stride + j col_stride] (a transposed C: ldc, 1)
};

tcgemm_status launch_split_k_reduce(int64_t m, int64_t n, int64_t slices, const double* W, int64_t slice_step,
                                    const SplitKOutput& out, cudaStream_t stream);

}  // namespace tcgemm::detail
