// Shared steps of the lower-precision entry points (lowp_call.hpp).
#include "api/lowp_call.hpp"

#include <cinttypes>

#include "core/errors.hpp"
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
  const bool a_plain = p.transa == 'N', b_plain = p.transb == 'N';
  TCGEMM_TRY(check_ld(nm, pos.lda, "lda", p.lda, a_plain ? p.m : p.k, a_plain ? "m" : "k"));
  TCGEMM_TRY(check_ld(nm, pos.ldb, "ldb", p.ldb, b_plain ? p.k : p.n, b_plain ? "k" : "n"));
  TCGEMM_TRY(check_ld(nm, pos.ldc, "ldc", p.ldc, p.m, "m"));
  // As in BLAS: A and B only matter when they are read (alpha != 0 and a non-empty product), C when it has
  // elements.
  const bool product_read = p.m > 0 && p.n > 0 && p.k > 0 && p.alpha != 0.0f;
  if (product_read && !p.A) return nm.fail_null(pos.A, "A", "m, n, k > 0 and alpha != 0");
  if (product_read && !p.B) return nm.fail_null(pos.B, "B", "m, n, k > 0 and alpha != 0");
  if (p.m > 0 && p.n > 0 && !p.C) return nm.fail_null(pos.C, "C", "m, n > 0");
  const int in_bytes = datatype_bytes(p.input_type);
  if (product_read) {
    TCGEMM_TRY(check_extent(nm, {"A", p.A, pos.A, "lda", p.lda, pos.lda, a_plain ? p.k : p.m, in_bytes}));
    TCGEMM_TRY(check_extent(nm, {"B", p.B, pos.B, "ldb", p.ldb, pos.ldb, b_plain ? p.n : p.k, in_bytes}));
  }
  if (p.m > 0 && p.n > 0)
    TCGEMM_TRY(check_extent(nm, {"C", p.C, pos.C, "ldc", p.ldc, pos.ldc, p.n, datatype_bytes(p.c_type)}));
  *out = p;
  return TCGEMM_SUCCESS;
}

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

}  // namespace tcgemm::detail
