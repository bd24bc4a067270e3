// Out-of-place transpose of a column-major matrix (families/common/transpose.cu): dst(c, r) = src(r, c) for
// r < rows, c < cols; dst is cols x rows with leading dimension ld_dst. Used to turn an operand that a kernel
// reads badly into the layout it reads best (sm90_mma's 'T','N' form, launch.cu).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

tcgemm_status launch_transpose(int64_t rows, int64_t cols, const double* src, int64_t ld_src, double* dst,
                               int64_t ld_dst, cudaStream_t stream);

}  // namespace tcgemm::detail
