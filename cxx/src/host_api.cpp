// Host-array DGEMM (per-thread grow-only device workspace) and small device-memory helpers, for callers
// (Fortran above all) that do not manage device memory themselves.
#include <cstdint>

#include "launch.hpp"
#include "validate.hpp"

namespace tcgemm::detail {
namespace {

// Device buffers reused across tcgemm_dgemm_host calls on one host thread: a call of a size seen before
// allocates nothing; a larger one reallocates that buffer once.
struct HostWorkspace {
  int device = -1;
  double* buf[3] = {nullptr, nullptr, nullptr};  // A, B, C
  size_t cap[3] = {0, 0, 0};                     // elements
  void release() {
    for (int i = 0; i < 3; ++i) {
      if (buf[i]) (void)cudaFree(buf[i]);  // at process exit the runtime may be gone; nothing to report then
      buf[i] = nullptr;
      cap[i] = 0;
    }
    device = -1;
  }
  ~HostWorkspace() { release(); }
};
thread_local HostWorkspace g_workspace;

tcgemm_status reserve(int slot, size_t elements) {
  if (elements <= g_workspace.cap[slot]) return TCGEMM_SUCCESS;
  if (g_workspace.buf[slot]) TCGEMM_CUDA_TRY(cudaFree(g_workspace.buf[slot]));
  g_workspace.buf[slot] = nullptr;
  g_workspace.cap[slot] = 0;
  TCGEMM_CUDA_TRY(cudaMalloc(reinterpret_cast<void**>(&g_workspace.buf[slot]), elements * sizeof(double)));
  g_workspace.cap[slot] = elements;
  return TCGEMM_SUCCESS;
}

}  // namespace
}  // namespace tcgemm::detail

using namespace tcgemm::detail;

extern "C" {

tcgemm_status tcgemm_dgemm_host(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                const double* A, int64_t lda, const double* B, int64_t ldb, double beta, double* C,
                                int64_t ldc) {
  clear_error();
  GemmProblem in;
  in.transa = transa;
  in.transb = transb;
  in.m = m;
  in.n = n;
  in.k = k;
  in.alpha = alpha;
  in.A = A;
  in.lda = lda;
  in.B = B;
  in.ldb = ldb;
  in.beta = beta;
  in.C = C;
  in.ldc = ldc;
  GemmProblem p;
  TCGEMM_TRY(validate_problem(in, ArgNaming::Blas, 0, &p));
  if (p.m == 0 || p.n == 0) return TCGEMM_SUCCESS;
  if ((p.alpha == 0.0 || p.k == 0) && p.beta == 1.0) return TCGEMM_SUCCESS;

  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  if (g_workspace.device != ctx.device) {
    g_workspace.release();
    g_workspace.device = ctx.device;
  }
  const bool read_ab = p.alpha != 0.0 && p.k > 0;
  // The matrices as stored: A is lda x (k or m columns), B is ldb x (n or k columns), C is ldc x n.
  // Copying whole columns (ld rows) keeps the copies contiguous; the last column needs only its rows.
  const int64_t a_cols = p.transa == 'N' ? p.k : p.m, a_rows = p.transa == 'N' ? p.m : p.k;
  const int64_t b_cols = p.transb == 'N' ? p.n : p.k, b_rows = p.transb == 'N' ? p.k : p.n;
  const size_t a_elems = size_t((a_cols - 1) * p.lda + a_rows);
  const size_t b_elems = size_t((b_cols - 1) * p.ldb + b_rows);
  const size_t c_elems = size_t((p.n - 1) * p.ldc + p.m);
  double* dA = nullptr;
  double* dB = nullptr;
  if (read_ab) {
    TCGEMM_TRY(reserve(0, a_elems));
    TCGEMM_TRY(reserve(1, b_elems));
    dA = g_workspace.buf[0];
    dB = g_workspace.buf[1];
    TCGEMM_CUDA_TRY(cudaMemcpy(dA, p.A, a_elems * sizeof(double), cudaMemcpyHostToDevice));
    TCGEMM_CUDA_TRY(cudaMemcpy(dB, p.B, b_elems * sizeof(double), cudaMemcpyHostToDevice));
  }
  TCGEMM_TRY(reserve(2, c_elems));
  double* dC = g_workspace.buf[2];
  // beta == 0: C is not read, so the host C is not uploaded either (it may hold NaN).
  if (p.beta != 0.0) TCGEMM_CUDA_TRY(cudaMemcpy(dC, p.C, c_elems * sizeof(double), cudaMemcpyHostToDevice));
  else TCGEMM_CUDA_TRY(cudaMemset(dC, 0, c_elems * sizeof(double)));  // rows between m and ldc come back as 0

  TCGEMM_TRY(tcgemm_dgemm(p.transa, p.transb, p.m, p.n, p.k, p.alpha, read_ab ? dA : nullptr, p.lda,
                          read_ab ? dB : nullptr, p.ldb, p.beta, dC, p.ldc, nullptr));
  // Copy back column by column only the m rows: the rows m..ldc-1 of the caller's C stay untouched.
  TCGEMM_CUDA_TRY(cudaMemcpy2D(p.C, size_t(p.ldc) * sizeof(double), dC, size_t(p.ldc) * sizeof(double),
                               size_t(p.m) * sizeof(double), size_t(p.n), cudaMemcpyDeviceToHost));
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_release_workspace(void) {
  clear_error();
  g_workspace.release();
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_malloc(void** device_ptr, int64_t bytes) {
  clear_error();
  if (!device_ptr) return set_error(TCGEMM_ERROR_INVALID_ARGUMENT, "device_ptr is NULL");
  if (bytes < 0) return set_error(TCGEMM_ERROR_INVALID_ARGUMENT, "bytes=%lld: must be >= 0", (long long)bytes);
  *device_ptr = nullptr;
  if (bytes == 0) return TCGEMM_SUCCESS;
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  TCGEMM_CUDA_TRY(cudaMalloc(device_ptr, size_t(bytes)));
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_free(void* device_ptr) {
  clear_error();
  if (!device_ptr) return TCGEMM_SUCCESS;
  TCGEMM_CUDA_TRY(cudaFree(device_ptr));
  return TCGEMM_SUCCESS;
}

static tcgemm_status copy_bytes(void* dst, const void* src, int64_t bytes, cudaMemcpyKind kind) {
  clear_error();
  if (bytes < 0) return set_error(TCGEMM_ERROR_INVALID_ARGUMENT, "bytes=%lld: must be >= 0", (long long)bytes);
  if (bytes == 0) return TCGEMM_SUCCESS;
  if (!dst) return set_error(TCGEMM_ERROR_INVALID_ARGUMENT, "destination is NULL but bytes > 0");
  if (!src) return set_error(TCGEMM_ERROR_INVALID_ARGUMENT, "source is NULL but bytes > 0");
  TCGEMM_CUDA_TRY(cudaMemcpy(dst, src, size_t(bytes), kind));
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_memcpy_to_device(void* device_dst, const void* host_src, int64_t bytes) {
  return copy_bytes(device_dst, host_src, bytes, cudaMemcpyHostToDevice);
}

tcgemm_status tcgemm_memcpy_to_host(void* host_dst, const void* device_src, int64_t bytes) {
  return copy_bytes(host_dst, device_src, bytes, cudaMemcpyDeviceToHost);
}

tcgemm_status tcgemm_synchronize(cudaStream_t stream) {
  clear_error();
  TCGEMM_CUDA_TRY(cudaStreamSynchronize(stream));
  return TCGEMM_SUCCESS;
}

}  // extern "C"
