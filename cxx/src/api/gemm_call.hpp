// The path every GEMM-like entry point takes (tcgemm_dgemm, tcgemm_dgemm_config and the example entry points):
//   validate arguments -> validate configuration -> quick return -> device gate -> configuration on this
//   device -> pending CUDA error -> (alpha == 0 or k == 0: scale C) -> the family's launcher.
// Nothing touches the GPU before the first two steps pass, so a rejected call never launches and never
// writes C.
#pragma once

#include "api/dgemm_plan.hpp"
#include "core/arguments.hpp"
#include "core/problem.hpp"

namespace tcgemm::detail {

// The family tcgemm_dgemm uses on ctx's device for large problems, with its default tile: sm90_mma on compute
// capability 9.x when the build carries its sm_90 code, else shared_ab (tcgemm_dgemm_select_config).
tcgemm_config select_config(const DeviceContext& ctx);
// What the plan model (api/dgemm_plan.hpp) needs to know of ctx's device.
PlanDevice plan_device(const DeviceContext& ctx);

tcgemm_status run_gemm(const GemmProblem& raw, const tcgemm_config& raw_config, ArgNaming naming,
                       const ArgPositions& pos, cudaStream_t stream);

// The steps after the device gate, for a problem and configuration that passed validation and are no quick
// return (the host-array path enters here with its device copies, so a call validates once).
tcgemm_status run_on_device(const GemmProblem& p, tcgemm_config cfg, const DeviceContext& ctx, ArgNaming naming,
                            const ArgPositions& pos, cudaStream_t stream);

}  // namespace tcgemm::detail
