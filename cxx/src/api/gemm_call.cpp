// The path every GEMM-like entry point takes (see gemm_call.hpp).
#include "api/gemm_call.hpp"

#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/family_table.hpp"
#include "families/common/scale_c.hpp"
#include "families/sm90/rules.hpp"
#include "families/sm90/shape_select.hpp"

namespace tcgemm::detail {

tcgemm_config select_config(const DeviceContext& ctx, const GemmProblem* p) {
  if (!sm90_code_available(ctx)) return default_config_for(TCGEMM_FAMILY_SHARED_AB);
  tcgemm_config c = default_config_for(TCGEMM_FAMILY_SM90_MMA);
  if (p) {
    const Sm90Shape& s = kSm90Shapes[sm90_select_shape(p->m, p->n, p->k, ctx.sm_count)];
    c.tile_m = s.tile_m;
    c.tile_n = s.tile_n;
    c.tile_k = s.tile_k;
    c.stages = s.default_stages;
  }
  return c;
}

tcgemm_status run_gemm(const GemmProblem& raw, const tcgemm_config& raw_config, ArgNaming naming,
                       const ArgPositions& pos, cudaStream_t stream) {
  clear_error();
  GemmProblem p;
  TCGEMM_TRY(validate_problem(raw, naming, pos, &p));
  tcgemm_config cfg;
  TCGEMM_TRY(validate_config(raw_config, pos, &cfg));
  if (cfg.family != TCGEMM_FAMILY_AUTO) TCGEMM_TRY(check_grid(p, cfg, naming, pos));

  // Reference-BLAS quick return: nothing to compute and C stays as it is.
  if (p.m == 0 || p.n == 0) return TCGEMM_SUCCESS;
  if ((p.alpha == 0.0 || p.k == 0) && p.beta == 1.0) return TCGEMM_SUCCESS;

  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  return run_on_device(p, cfg, ctx, naming, pos, stream);
}

tcgemm_status run_on_device(const GemmProblem& p, tcgemm_config cfg, const DeviceContext& ctx, ArgNaming naming,
                            const ArgPositions& pos, cudaStream_t stream) {
  if (cfg.family == TCGEMM_FAMILY_AUTO) {
    cfg = select_config(ctx, &p);
    TCGEMM_TRY(check_grid(p, cfg, naming, pos));
  }
  TCGEMM_TRY(check_config_against_device(cfg, ctx));
  TCGEMM_TRY(take_pending_cuda_error());

  // alpha == 0 or k == 0: C <- beta C; A and B are not read.
  if (p.alpha == 0.0 || p.k == 0) return launch_scale_c(p.m, p.n, p.beta, p.C, p.ldc, stream);

  return find_family(cfg.family)->launch(p, cfg, ctx, stream);
}

}  // namespace tcgemm::detail
