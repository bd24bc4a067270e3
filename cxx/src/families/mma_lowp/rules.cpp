// Family mma_lowp's rules (launch.hpp), host-only so that CPU tests can check them.
#include <cstdint>

#include "core/checked_math.hpp"
#include "families/mma_lowp/launch.hpp"

namespace tcgemm::detail {

bool mma_lowp_eligible(const LowpProblem& p) {
  if (p.input_type != TCGEMM_TYPE_F16 && p.input_type != TCGEMM_TYPE_BF16) return false;
  // FP32 accumulation, or FP16 accumulation of F16 inputs (m16n8k16 with f16 C).
  if (p.compute != TCGEMM_TYPE_F32 && !(p.compute == TCGEMM_TYPE_F16 && p.input_type == TCGEMM_TYPE_F16)) return false;
  if (p.alpha == 0.0f || p.k < 1 || p.m < 1 || p.n < 1) return false;
  if (!lowp_vec16_ok(p.A, p.lda, 2) || !lowp_vec16_ok(p.B, p.ldb, 2)) return false;  // 16-bit elements
  const int64_t a_contiguous = p.transa == 'N' ? p.m : p.k;
  const int64_t b_contiguous = p.transb == 'N' ? p.k : p.n;
  return a_contiguous % 8 == 0 && b_contiguous % 8 == 0;
}

bool mma_lowp_tf32_eligible(const LowpProblem& p) {
  return p.input_type == TCGEMM_TYPE_F32 && p.compute == TCGEMM_TYPE_F32 && p.alpha != 0.0f && p.k >= 1 &&
         p.m >= 1 && p.n >= 1;
}

MmaLowpTiling mma_lowp_tiling(const LowpProblem& p, const DeviceContext& ctx) {
  if (ctx.smem_optin < kMmaLowpLargeSmemBytes) return MmaLowpTiling::Small;
  const int64_t tiles = ceil_div_nonneg(p.m, kMmaLowpLargeTileM) * ceil_div_nonneg(p.n, kMmaLowpLargeTileN);
  return tiles >= ctx.sm_count ? MmaLowpTiling::Large : MmaLowpTiling::Small;
}

}  // namespace tcgemm::detail
