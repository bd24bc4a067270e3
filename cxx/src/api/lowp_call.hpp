// The steps the lower-precision entry points (tcgemm_gemm_ex, tcgemm_sgemm) share, in the order every GEMM
// entry point keeps (api/gemm_call.hpp): arguments -> quick return -> device gate -> configuration on this
// device -> pending CUDA error -> launch.
#pragma once

#include "core/arguments.hpp"
#include "families/wmma_lowp/launch.hpp"

namespace tcgemm::detail {

// Trans flags, sizes, leading dimensions, pointers and extents (each matrix in its own element size), with
// the entry point's argument positions; *out has transa/transb normalised.
tcgemm_status validate_lowp_problem(const LowpProblem& in, const ArgPositions& pos, LowpProblem* out);
// The reference-BLAS quick returns: nothing to compute and C stays as it is.
inline bool lowp_quick_return(const LowpProblem& p) {
  return p.m == 0 || p.n == 0 || ((p.alpha == 0.0f || p.k == 0) && p.beta == 1.0f);
}
// The configuration's shared memory against the device's opt-in limit (blamed on `config_position`).
tcgemm_status check_lowp_shared_memory(const tcgemm_wmma_config& resolved, const LowpProblem& p,
                                       const DeviceContext& ctx, int config_position);

}  // namespace tcgemm::detail
