// The path every GEMM-like entry point takes (see gemm_call.hpp).
#include "api/gemm_call.hpp"

#include <cstdio>

#include "api/dgemm_plan.hpp"

#include "core/device.hpp"
#include "core/env.hpp"
#include "core/errors.hpp"
#include "core/family_table.hpp"
#include "families/common/scale_c.hpp"
#include "families/sm90/rules.hpp"

namespace tcgemm::detail {

PlanDevice plan_device(const DeviceContext& ctx) {
  PlanDevice d;
  d.cc_major = ctx.cc_major;
  d.sm_count = ctx.sm_count;
  d.sm90_code = sm90_code_available(ctx);
  d.hbm_peak_bytes_per_us = ctx.hbm_peak_bytes_per_us;
  if (d.sm90_code) d.cluster_room = sm90_cluster_room(ctx);
  return d;
}

tcgemm_config select_config(const DeviceContext& ctx) {
  return default_config_for(sm90_code_available(ctx) ? TCGEMM_FAMILY_SM90_MMA : TCGEMM_FAMILY_SHARED_AB);
}

namespace {
// TCGEMM_PLAN_LOG set (and not "0"): every tcgemm_dgemm call prints its plan's summary to stderr.
bool plan_log_enabled() {
  static const bool enabled = env_flag("TCGEMM_PLAN_LOG");
  return enabled;
}
}  // namespace

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
    if (plan_log_enabled()) {
      const tcgemm_plan plan = plan_dgemm(plan_device(ctx), p.transa, p.transb, p.m, p.n, p.k);
      std::fprintf(stderr, "tcgemm plan: %s\n", plan.summary);
      cfg = plan.config;
    } else {
      cfg = plan_config_cached(plan_device(ctx), p.transa, p.transb, p.m, p.n, p.k);
    }
    TCGEMM_TRY(check_grid(p, cfg, naming, pos));
  }
  TCGEMM_TRY(check_config_against_device(cfg, ctx));
  TCGEMM_TRY(take_pending_cuda_error());

  // alpha == 0 or k == 0: C <- beta C; A and B are not read.
  if (p.alpha == 0.0 || p.k == 0) return launch_scale_c(p.m, p.n, p.beta, p.C, p.ldc, stream);

  return find_family(cfg.family)->launch(p, cfg, ctx, stream);
}

}  // namespace tcgemm::detail
