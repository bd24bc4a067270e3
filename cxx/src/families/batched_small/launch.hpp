// Family batched_small's launcher (rules.hpp): one launch for a whole batch of validated products with
// m, n <= kBatchedMaxSize, k >= 1 and alpha != 0 (the caller handles the rest).
#pragma once

#include <cuda_runtime.h>

#include "core/problem.hpp"
#include "families/batched_small/args.hpp"
#include "families/batched_small/rules.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

tcgemm_status launch_batched_small(const batched_small::BatchedArgs& args, bool arrays, const DeviceContext& ctx,
                                   cudaStream_t stream);
// C = beta C for every product (alpha = 0 or k = 0).
tcgemm_status launch_batched_scale(const batched_small::BatchedArgs& args, bool arrays, const DeviceContext& ctx,
                                   cudaStream_t stream);

}  // namespace tcgemm::detail
