// tcgemm_gemm_ex and tcgemm_wmma_config_resolve: the lower-precision WMMA shapes on device arrays (family
// wmma_lowp; without a configuration, F16/BF16 with FP32 accumulation take family mma_lowp where it
// applies: api/lowp_call's run_lowp_product). Checks: the types (arguments 8, 11, 15, 17) and the
// configuration (18) first, since the element sizes and the shape rules follow from them, then the BLAS arguments (1-16); then, as for every
// GEMM entry point (api/gemm_call.hpp): quick return, device gate, configuration on this device, pending
// CUDA error, launch. Nothing touches the GPU before the checks pass.
#include <cstdio>

#include "api/lowp_call.hpp"
#include "core/arguments.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "families/wmma_lowp/launch.hpp"
#include "families/wmma_lowp/rules.hpp"

using namespace tcgemm::detail;

namespace {

// tcgemm_gemm_ex's prototype: transa 1, transb 2, m 3, n 4, k 5, alpha 6, A 7, a_type 8, lda 9, B 10,
// b_type 11, ldb 12, beta 13, C 14, c_type 15, ldc 16, compute 17, config 18, stream 19.
constexpr ArgPositions kGemmExPositions{1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 13, 14, 16, 0, 0, 0, 0, 0, 0, 18, 0};
constexpr int kGemmExConfigPosition = 18;

}  // namespace

extern "C" tcgemm_status tcgemm_gemm_ex(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha,
                                        const void* A, int32_t a_type, int64_t lda, const void* B, int32_t b_type,
                                        int64_t ldb, float beta, void* C, int32_t c_type, int64_t ldc,
                                        int32_t compute, const tcgemm_wmma_config* config, cudaStream_t stream) {
  clear_error();
  TCGEMM_TRY(validate_lowp_types(a_type, b_type, c_type, compute));
  tcgemm_wmma_config resolved{};
  TCGEMM_TRY(validate_lowp_config(config, a_type, compute, kGemmExConfigPosition, &resolved));
  const LowpProblem raw =
      lowp_problem(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, a_type, c_type, compute);
  LowpProblem p;
  TCGEMM_TRY(validate_lowp_problem(raw, kGemmExPositions, &p));
  if (lowp_quick_return(p)) return TCGEMM_SUCCESS;
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  // A configuration asks for the WMMA family (the article's experiments); none, for the default path.
  return run_lowp_product(p, config != nullptr, resolved, kGemmExConfigPosition, ctx, stream);
}

extern "C" tcgemm_status tcgemm_wmma_config_resolve(int32_t input_type, int32_t compute,
                                                    const tcgemm_wmma_config* config, tcgemm_wmma_config* resolved,
                                                    int64_t* shared_memory_bytes) {
  clear_error();
  if (!resolved)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 4, "argument 4 (resolved) is NULL: nowhere to write");
  // The input and accumulator rules of tcgemm_gemm_ex, blamed on this function's arguments 1 and 2.
  const int32_t c_type = compute == TCGEMM_TYPE_F16 ? TCGEMM_TYPE_F16 : TCGEMM_TYPE_F32;
  if (validate_lowp_types(input_type, input_type, c_type, compute) != TCGEMM_SUCCESS) {
    char why[512];
    std::snprintf(why, sizeof why, "%s", tcgemm_last_error());  // set_arg_error rewrites that buffer
    const bool compute_ok = compute == TCGEMM_TYPE_F16 || compute == TCGEMM_TYPE_F32;
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, compute_ok ? 1 : 2,
                         "input_type=%d, compute=%d (arguments 1 and 2 here): %s", input_type, compute, why);
  }
  tcgemm_wmma_config r{};
  TCGEMM_TRY(validate_lowp_config(config, input_type, compute, 3, &r));
  *resolved = r;
  if (shared_memory_bytes)
    *shared_memory_bytes = lowp_smem_bytes_any_form(r, datatype_bytes(input_type), compute == TCGEMM_TYPE_F16 ? 2 : 4);
  return TCGEMM_SUCCESS;
}
