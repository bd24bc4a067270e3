// tcgemm_sgemm's exact-FP32 precision (TCGEMM_PRECISION_FP32): a CUDA-core SGEMM with BLAS semantics, the
// reference the tensor-core precisions are compared with (kernel.cu). Not tuned: it exists for accuracy.
#pragma once

#include <cuda_runtime_api.h>

#include "families/wmma_lowp/launch.hpp"

namespace tcgemm::detail {

// For a validated problem with F32 A, B and C, m, n >= 1 (k or alpha may be 0: C is then only scaled).
tcgemm_status launch_sgemm_simt(const LowpProblem& p, cudaStream_t stream);

}  // namespace tcgemm::detail
