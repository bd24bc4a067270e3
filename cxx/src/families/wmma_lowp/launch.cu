// wmma_lowp's launcher (launch.hpp): the call's kernel parameters, its operand form's shared-memory tiles,
// and the instance of its input type (kernel_*.cu).
#include <cstdint>

#include "families/wmma_lowp/instances.hpp"
#include "families/wmma_lowp/launch.hpp"
#include "families/wmma_lowp/rules.hpp"

namespace tcgemm::detail {

LowpArgs lowp_wmma_args(const LowpProblem& pr, const tcgemm_wmma_config& r) {
  LowpArgs a = lowp_kernel_args(pr, r.tile, r.tile_n);
  const int in_bytes = datatype_bytes(pr.input_type);
  a.vec_a = lowp_vec16_ok(pr.A, pr.lda, in_bytes);
  a.vec_b = lowp_vec16_ok(pr.B, pr.ldb, in_bytes);
  const int32_t acc_type = pr.compute == TCGEMM_TYPE_F16 ? TCGEMM_TYPE_F16 : TCGEMM_TYPE_F32;
  a.c_direct = pr.c_type == acc_type && reinterpret_cast<uintptr_t>(pr.C) % 32 == 0 &&
               (pr.ldc * datatype_bytes(pr.c_type)) % 16 == 0 && pr.ldc <= kLowpMaxDirectLdc;
  a.tf32_rounded = pr.tf32_rounded && pr.input_type == TCGEMM_TYPE_F32;
  a.tile_k = r.tile_k;
  a.stages = r.stages;
  const LowpTiles tiles = lowp_tiles(r, in_bytes, a.trans_a, a.trans_b);
  a.lda_s = tiles.a.ld;
  a.ldb_s = tiles.b.ld;
  a.a_tile_bytes = tiles.a_bytes;
  a.b_tile_bytes = tiles.b_bytes;
  return a;
}

bool lowp_fixed_instance_applies(const LowpArgs& a, int shape, int in_bytes, int tile_m, int tile_n) {
  if (!lowp_fixed_tile(tile_m, tile_n) || !a.vec_a || !a.vec_b) return false;
  if (in_bytes == 4 && !(a.tf32_rounded && a.trans_a && !a.trans_b)) return false;
  const tcgemm_wmma_config f = lowp_fixed_config(shape, in_bytes, tile_m, tile_n);
  const LowpTiles t = lowp_tiles(f, in_bytes, a.trans_a, a.trans_b);
  return a.tile_k == f.tile_k && a.stages == f.stages && a.lda_s == t.a.ld && a.ldb_s == t.b.ld &&
         a.a_tile_bytes == t.a_bytes && a.b_tile_bytes == t.b_bytes;
}

bool lowp_tf32_packs(const LowpProblem& p, const tcgemm_wmma_config& r) {
  // alpha = 0 reads neither A nor B (BLAS) and k = 0 has nothing to pack: both only scale C, in place.
  return p.input_type == TCGEMM_TYPE_F32 && !p.tf32_rounded && p.alpha != 0.0f && p.k >= 1 &&
         lowp_is_fixed_config(r, 4);
}

tcgemm_status launch_wmma_lowp(const LowpProblem& pr, const tcgemm_wmma_config& r, const DeviceContext& ctx,
                               cudaStream_t stream) {
  const LowpArgs a = lowp_wmma_args(pr, r);
  const int in_bytes = datatype_bytes(pr.input_type);
  const int acc_bytes = pr.compute == TCGEMM_TYPE_F16 ? 2 : 4;
  const int64_t smem = lowp_smem_bytes(r, in_bytes, acc_bytes, a.trans_a, a.trans_b);
  using namespace wmma_lowp;
  switch (pr.input_type) {
    case TCGEMM_TYPE_F16:
      if (pr.compute == TCGEMM_TYPE_F16) return launch_f16_acc16(a, r.shape, r.tile, r.tile_n, smem, ctx, stream);
      return launch_f16_acc32(a, r.shape, r.tile, r.tile_n, smem, ctx, stream);
    case TCGEMM_TYPE_BF16: return launch_bf16(a, r.shape, r.tile, r.tile_n, smem, ctx, stream);
    default: return launch_tf32(a, r.shape, r.tile, r.tile_n, smem, ctx, stream);
  }
}

}  // namespace tcgemm::detail
