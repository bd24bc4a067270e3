// C <- beta C (families/common/scale_c.cu): what a GEMM call does when alpha == 0 or k == 0, whatever the
// family (A and B are not read).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// C <- beta C over m x n (beta == 0 writes zeros without reading C).
tcgemm_status launch_scale_c(int64_t m, int64_t n, double beta, double* C, int64_t ldc, cudaStream_t stream);

}  // namespace tcgemm::detail
