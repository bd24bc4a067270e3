// The steps tcgemm_sgemm (device arrays) and tcgemm_sgemm_host (host arrays) share after their own checks.
#pragma once

#include <cuda_runtime_api.h>

#include "families/wmma_lowp/launch.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// Argument 14 of both: one of the tcgemm_precision values.
tcgemm_status check_sgemm_precision(int32_t precision);
// The product of a validated, non-quick-return FP32 problem on device arrays in `precision`, on the gated
// device (pending CUDA error already taken), enqueued on `stream`.
tcgemm_status run_sgemm(const LowpProblem& p, int32_t precision, const DeviceContext& ctx, cudaStream_t stream);

}  // namespace tcgemm::detail
