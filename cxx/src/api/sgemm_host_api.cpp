// tcgemm_sgemm_host: FP32 host arrays, for callers (Fortran codes with real(4) data above all) that do not
// manage device memory. The parts of A, B and C the call uses go to the device in one piece each (2D copies:
// only the rows of each column the product reads), the product runs as tcgemm_sgemm's in the chosen
// precision on a stream of this call's own, and C's m x n comes back; the call returns when C is in host
// memory. Unlike tcgemm_dgemm_host there is no panel pipeline: the operands must fit the device together
// (the call fails with CUDA's out-of-memory message otherwise, C unchanged).
#include <cstdint>

#include "api/host_copy.hpp"
#include "api/lowp_call.hpp"
#include "api/sgemm_call.hpp"
#include "core/arguments.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/memory_pool.hpp"

using namespace tcgemm::detail;

extern "C" tcgemm_status tcgemm_sgemm_host(char transa, char transb, int64_t m, int64_t n, int64_t k, float alpha,
                                           const float* A, int64_t lda, const float* B, int64_t ldb, float beta,
                                           float* C, int64_t ldc, int32_t precision) {
  clear_error();
  const LowpProblem raw = lowp_problem(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, TCGEMM_TYPE_F32,
                                        TCGEMM_TYPE_F32, TCGEMM_TYPE_F32);
  LowpProblem p;
  TCGEMM_TRY(validate_lowp_problem(raw, kBlasPositions, &p));
  TCGEMM_TRY(check_sgemm_precision(precision));
  if (lowp_quick_return(p)) return TCGEMM_SUCCESS;
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  if (p.alpha == 0.0f || p.k == 0) {
    // C = beta * C: on the host, where C is. beta = 0 writes zeros without reading C (it may hold NaN).
    for (int64_t j = 0; j < p.n; ++j) {
      float* c = C + j * p.ldc;
      for (int64_t i = 0; i < p.m; ++i) c[i] = p.beta == 0.0f ? 0.0f : p.beta * c[i];
    }
    return TCGEMM_SUCCESS;
  }
  TCGEMM_TRY(take_pending_cuda_error());

  CallStream s;
  TCGEMM_CUDA_TRY(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
  const int64_t a_rows = p.transa == 'N' ? p.m : p.k, a_cols = p.transa == 'N' ? p.k : p.m;
  const int64_t b_rows = p.transb == 'N' ? p.k : p.n, b_cols = p.transb == 'N' ? p.n : p.k;
  StreamScratch a_buf, b_buf, c_buf;
  void* da = nullptr;
  void* db = nullptr;
  void* dc = nullptr;
  TCGEMM_TRY(a_buf.allocate(ctx, size_t(a_rows * a_cols) * 4, s.stream, &da));
  TCGEMM_TRY(b_buf.allocate(ctx, size_t(b_rows * b_cols) * 4, s.stream, &db));
  TCGEMM_TRY(c_buf.allocate(ctx, size_t(p.m * p.n) * 4, s.stream, &dc));
  TCGEMM_TRY(copy_columns(da, a_rows * 4, A, p.lda * 4, a_rows * 4, a_cols, cudaMemcpyHostToDevice, s.stream));
  TCGEMM_TRY(copy_columns(db, b_rows * 4, B, p.ldb * 4, b_rows * 4, b_cols, cudaMemcpyHostToDevice, s.stream));
  if (p.beta != 0.0f)  // beta = 0: C is not read (BLAS)
    TCGEMM_TRY(copy_columns(dc, p.m * 4, C, p.ldc * 4, p.m * 4, p.n, cudaMemcpyHostToDevice, s.stream));
  LowpProblem q = p;
  q.A = da;
  q.lda = a_rows;
  q.B = db;
  q.ldb = b_rows;
  q.C = dc;
  q.ldc = p.m;
  TCGEMM_TRY(run_sgemm(q, precision, ctx, s.stream));
  const tcgemm_status copied =
      copy_columns(C, p.ldc * 4, dc, p.m * 4, p.m * 4, p.n, cudaMemcpyDeviceToHost, s.stream);
  const cudaError_t done = cudaStreamSynchronize(s.stream);
  if (copied == TCGEMM_SUCCESS && done == cudaSuccess) return TCGEMM_SUCCESS;
  // The copy back may have started: C may hold part of the result.
  const tcgemm_status st = copied != TCGEMM_SUCCESS ? copied : set_cuda_error(done, "cudaStreamSynchronize");
  set_output_written(true);
  return st;
}
