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
  auto trans_ok = [](char t) { return t == 'N' || t == 'n' || t == 'T' || t == 't' || t == 'C' || t == 'c'; };
  if (!trans_ok(transa))
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 1, "argument 1 (transa) = '%c': must be 'N', 'T' or 'C'",
                         transa);
  if (!trans_ok(transb))
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 2, "argument 2 (transb) = '%c': must be 'N', 'T' or 'C'",
                         transb);
  const struct { int position; const char* name; int64_t value; } sizes[] = {{3, "m", m}, {4, "n", n}, {5, "k", k}};
  for (const auto& s : sizes)
    if (s.value < 0)
      return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, s.position, "argument %d (%s) must be >= 0, got %lld",
                           s.position, s.name, static_cast<long long>(s.value));
  if (!plan) return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, 6, "argument 6 (plan) is NULL");
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  const char ta = (transa == 'N' || transa == 'n') ? 'N' : 'T', tb = (transb == 'N' || transb == 'n') ? 'N' : 'T';
  *plan = plan_dgemm(plan_device(ctx), ta, tb, m, n, k);
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
