// tcgemm_sgemm: FP32 arrays on the device, computed in TF32, FP16 or BF16 on the tensor cores (tcgemm_gemm_ex's
// default path, after converting A and B for FP16 and BF16) or exactly in FP32 on the CUDA cores.
#include "api/lowp_call.hpp"
#include "api/sgemm_call.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/memory_pool.hpp"
#include "families/sgemm_simt/launch.hpp"
#include "families/wmma_lowp/convert.hpp"
#include "families/wmma_lowp/rules.hpp"

using namespace tcgemm::detail;

namespace {

constexpr int kPrecisionPosition = 14;  // after reference SGEMM's 13 arguments

// The tensor-core product of p (whose A and B are already of p.input_type) with the type's default
// configuration.
tcgemm_status run_lowp(const LowpProblem& p, const DeviceContext& ctx, cudaStream_t stream) {
  tcgemm_wmma_config r{};
  TCGEMM_TRY(validate_lowp_config(nullptr, p.input_type, p.compute, kPrecisionPosition, &r));
  return run_lowp_product(p, false, r, kPrecisionPosition, ctx, stream);
}

}  // namespace

namespace tcgemm::detail {

tcgemm_status check_sgemm_precision(int32_t precision) {
  if (precision < TCGEMM_PRECISION_TF32 || precision > TCGEMM_PRECISION_FP32)
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, kPrecisionPosition,
                         "argument 14 (precision) = %d: must be TCGEMM_PRECISION_TF32 (1), TCGEMM_PRECISION_FP16 (2), "
                         "TCGEMM_PRECISION_BF16 (3) or TCGEMM_PRECISION_FP32 (4)",
                         precision);
  return TCGEMM_SUCCESS;
}

tcgemm_status run_sgemm(const LowpProblem& p, int32_t precision, const DeviceContext& ctx, cudaStream_t stream) {
  if (precision == TCGEMM_PRECISION_FP32) return launch_sgemm_simt(p, stream);
  if (precision == TCGEMM_PRECISION_TF32) return run_lowp(p, ctx, stream);

  // FP16 / BF16: A and B rounded into packed copies from tcgemm's pool, ordered on the call's stream (the
  // pool takes them back there once the product has read them).
  LowpProblem q = p;
  q.input_type = precision == TCGEMM_PRECISION_FP16 ? TCGEMM_TYPE_F16 : TCGEMM_TYPE_BF16;
  if (p.alpha == 0.0f || p.k == 0) return run_lowp(q, ctx, stream);  // A and B are not read
  const int64_t a_rows = p.transa == 'N' ? p.m : p.k, a_cols = p.transa == 'N' ? p.k : p.m;
  const int64_t b_rows = p.transb == 'N' ? p.k : p.n, b_cols = p.transb == 'N' ? p.n : p.k;
  StreamScratch a_buf, b_buf;
  void* a16 = nullptr;
  void* b16 = nullptr;
  TCGEMM_TRY(a_buf.allocate(ctx, size_t(a_rows * a_cols) * 2, stream, &a16));
  TCGEMM_TRY(b_buf.allocate(ctx, size_t(b_rows * b_cols) * 2, stream, &b16));
  TCGEMM_TRY(launch_convert_f32(static_cast<const float*>(p.A), p.lda, a_rows, a_cols, a16, q.input_type, stream));
  TCGEMM_TRY(launch_convert_f32(static_cast<const float*>(p.B), p.ldb, b_rows, b_cols, b16, q.input_type, stream));
  q.A = a16;
  q.lda = a_rows;
  q.B = b16;
  q.ldb = b_rows;
  return run_lowp(q, ctx, stream);
}

}  // namespace tcgemm::detail

extern "C" tcgemm_status tcgemm_sgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha,
                                      const float* A, int64_t lda, const float* B, int64_t ldb, float beta, float* C,
                                      int64_t ldc, int32_t precision, cudaStream_t stream) {
  clear_error();
  const LowpProblem raw = lowp_problem(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, TCGEMM_TYPE_F32,
                                        TCGEMM_TYPE_F32, TCGEMM_TYPE_F32);
  LowpProblem p;
  TCGEMM_TRY(validate_lowp_problem(raw, kBlasPositions, &p));
  TCGEMM_TRY(check_sgemm_precision(precision));  // checked after reference SGEMM's 13 arguments, as the 14th
  if (lowp_quick_return(p)) return TCGEMM_SUCCESS;
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  TCGEMM_TRY(take_pending_cuda_error());
  return run_sgemm(p, precision, ctx, stream);
}
