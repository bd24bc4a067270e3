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
// Which kernel a checked, non-quick-return problem without a configuration runs (with one: the WMMA family,
// which run_lowp_product moves to WmmaTf32Packed for TF32 with a fixed configuration, launch.hpp's
// lowp_tf32_packs). The packed routes fall back to Wmma at run time when the pool cannot supply the copies.
enum class LowpRoute { MmaInPlace, Tf32Packed, Wmma, WmmaTf32Packed };
LowpRoute lowp_route(const LowpProblem& p, bool configured);
const char* lowp_route_name(LowpRoute r);

// The WMMA family's default configuration `r` fitted to the device: fewer stages, then the 64 x 64 tile,
// until the problem's operand form fits the per-block shared memory (the default TF32 tiles, 3 stages of
// 128 x 128 floats, need 113 KB, more than cc 8.6/8.9 devices allow). Used when the caller gave none.
tcgemm_wmma_config fit_default_to_device(tcgemm_wmma_config r, const LowpProblem& p, const DeviceContext& ctx);

// The last steps of a checked, non-quick-return problem on the gated device: which kernel, its configuration
// on this device, the pending CUDA error, the launch. Without a configuration (configured false) F16/BF16 with
// FP32 accumulation take the mma.sync fast path where its rule holds, and TF32 takes it on packed copies in
// scratch memory while the device has room for them (families/mma_lowp); otherwise the WMMA family with
// `given` (fitted to the device's shared memory first when the caller gave no configuration: fewer stages,
// then 64 x 64), whose shared memory is checked against the device (blamed on config_position).
// TCGEMM_PLAN_LOG=1 prints the route each call took to stderr.
tcgemm_status run_lowp_product(const LowpProblem& p, bool configured, const tcgemm_wmma_config& given,
                               int config_position, const DeviceContext& ctx, cudaStream_t stream);

}  // namespace tcgemm::detail
