// Family batched_direct's launcher (rules.hpp): one launch for a whole batch of validated products with
// m, n <= 24, k >= 1 and alpha != 0 (the caller handles the rest).
#pragma once

#include <cuda_runtime.h>

#include "core/problem.hpp"
#include "families/batched_direct/rules.hpp"
#include "families/batched_small/args.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

tcgemm_status launch_batched_direct(const batched_small::BatchedArgs& args, bool arrays, const DeviceContext& ctx,
                                    cudaStream_t stream);

}  // namespace tcgemm::detail
