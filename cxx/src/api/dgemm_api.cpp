// The BLAS-semantics entry points on device memory: tcgemm_dgemm, tcgemm_dgemm_config and the query of
// the configuration tcgemm_dgemm would choose.
#include "api/gemm_call.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/family_table.hpp"

using namespace tcgemm::detail;

extern "C" {

tcgemm_status tcgemm_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha, const double* A,
                           int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc,
                           cudaStream_t stream) {
  tcgemm_config automatic{};
  return run_gemm(blas_problem(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc), automatic,
                  ArgNaming::Blas, kBlasPositions, stream);
}

tcgemm_status tcgemm_dgemm_config(const tcgemm_config* config, char transa, char transb, int64_t m, int64_t n,
                                  int64_t k, double alpha, const double* A, int64_t lda, const double* B, int64_t ldb,
                                  double beta, double* C, int64_t ldc, cudaStream_t stream) {
  clear_error();
  if (!config)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, TCGEMM_ARG_CONFIG,
                         "argument config (TCGEMM_ARG_CONFIG) is NULL");
  const FamilyRow* row = find_family(config->family);
  if (row && !row->blas_semantics)
    return set_arg_error(TCGEMM_ERROR_INVALID_CONFIG, TCGEMM_ARG_CONFIG,
                     "family=%d (%s): tcgemm_dgemm_config runs the BLAS-semantics families shared_a, shared_ab, "
                     "sm90_mma, skinny or auto; the reference-design examples have their own tcgemm_dmma_* entry points",
                     config->family, family_name(config->family));
  // The DGEMM arguments keep reference DGEMM's numbering; the configuration is TCGEMM_ARG_CONFIG.
  return run_gemm(blas_problem(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc), *config,
                  ArgNaming::Blas, kBlasPositions, stream);
}

tcgemm_status tcgemm_dgemm_plan(char transa, char transb, int64_t m, int64_t n, int64_t k, tcgemm_plan* plan) {
  clear_error();
  // The same checks, messages and numbering as tcgemm_dgemm's first five arguments.
  GemmProblem p;
  TCGEMM_TRY(validate_shape(blas_problem(transa, transb, m, n, k, 0.0, nullptr, 0, nullptr, 0, 0.0, nullptr, 0),
                            ArgNaming::Blas, kBlasPositions, &p));
  if (!plan) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 6, "argument 6 (plan) is NULL");
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  *plan = plan_dgemm(plan_device(ctx), p.transa, p.transb, p.m, p.n, p.k);
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_dgemm_select_config(int32_t device, tcgemm_config* config) {
  clear_error();
  if (!config) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 2, "config is NULL");
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(device, &ctx, 1));
  *config = select_config(ctx);
  return TCGEMM_SUCCESS;
}

}  // extern "C"
