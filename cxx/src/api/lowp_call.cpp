// Shared steps of the lower-precision entry points (lowp_call.hpp).
#include "api/lowp_call.hpp"

#include <cinttypes>

#include "core/errors.hpp"
#include "families/mma_lowp/launch.hpp"
#include "families/wmma_lowp/rules.hpp"

namespace tcgemm::detail {

tcgemm_status validate_lowp_problem(const LowpProblem& in, const ArgPositions& pos, LowpProblem* out) {
  const ArgNamer nm{ArgNaming::Blas, pos};
  GemmProblem shape;
  shape.transa = in.transa;
  shape.transb = in.transb;
  shape.m = in.m;
  shape.n = in.n;
  shape.k = in.k;
  TCGEMM_TRY(validate_shape(shape, ArgNaming::Blas, pos, &shape));
  LowpProblem p = in;
  p.transa = shape.transa;
  p.transb = shape.transb;
  TCGEMM_TRY(validate_operand_layout({p.transa, p.transb, p.m, p.n, p.k, p.A, p.lda, p.B, p.ldb, p.C, p.ldc,
                                      p.alpha != 0.0f, datatype_bytes(p.input_type), datatype_bytes(p.c_type)},
                                     nm, pos));
  *out = p;
  return TCGEMM_SUCCESS;
}

namespace {

// The configuration's shared memory against the device's opt-in limit (blamed on `config_position`).
tcgemm_status check_lowp_shared_memory(const tcgemm_wmma_config& r, const LowpProblem& p, const DeviceContext& ctx,
                                       int config_position) {
  const int64_t bytes = lowp_smem_bytes(r, datatype_bytes(p.input_type), p.compute == TCGEMM_TYPE_F16 ? 2 : 4);
  if (bytes > ctx.smem_optin)
    return set_arg_error(TCGEMM_ERROR_SHARED_MEMORY, config_position,
                         "tile=%d, tile_k=%d, pad_a=%d, pad_b=%d: family wmma_lowp needs %" PRId64
                         " bytes of shared memory per block with %s inputs; device %d allows %" PRId64,
                         r.tile, r.tile_k, r.pad_a, r.pad_b, bytes,
                         p.input_type == TCGEMM_TYPE_F32 ? "TF32" : datatype_name(p.input_type), ctx.device,
                         ctx.smem_optin);
  return TCGEMM_SUCCESS;
}

}  // namespace

tcgemm_status run_lowp_product(const LowpProblem& p, bool configured, const tcgemm_wmma_config& resolved,
                               int config_position, const DeviceContext& ctx, cudaStream_t stream) {
  const bool fast = !configured && mma_lowp_eligible(p);
  if (!fast) TCGEMM_TRY(check_lowp_shared_memory(resolved, p, ctx, config_position));
  TCGEMM_TRY(take_pending_cuda_error());
  return fast ? launch_mma_lowp(p, ctx, stream) : launch_wmma_lowp(p, resolved, ctx, stream);
}

}  // namespace tcgemm::detail
