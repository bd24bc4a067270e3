// Host-array DGEMM, for callers (Fortran above all) that do not manage device memory themselves.
//
// Memory and stream policy of tcgemm_dgemm_host (documented in tcgemm.h):
//   - each call runs on its own non-blocking stream, so host calls from different threads overlap with each
//     other and never wait for (or hold up) the legacy default stream;
//   - its device buffers come from a memory pool that tcgemm owns, one per CUDA context, shared by all
//     threads: a call takes its buffers from the pool and gives them back on its stream; whatever the pool
//     holds beyond the retain limit (TCGEMM_HOST_WORKSPACE_BYTES, default 1 GiB) goes back to the device at
//     the end of the call, so thread pools never hold GPU memory per thread;
//   - pools are keyed by context id: after cudaDeviceReset a new pool is made and nothing of the destroyed
//     context (pointer, pool, stream) is touched again;
//   - copies are plain cudaMemcpyAsync from the caller's arrays. Pageable memory is staged by the driver
//     through its own pinned buffers; memory the caller pinned (cudaHostRegister) goes by direct DMA. A
//     pipelined, pinned-staging path is the drop-in BLAS layer's work.
#include <cstdint>
#include <cstdlib>

#include "api/gemm_call.hpp"
#include "core/arguments.hpp"
#include "core/checked_math.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/memory_pool.hpp"

namespace tcgemm::detail {
namespace {

// The stream of one tcgemm_dgemm_host call: waited for once and destroyed when the call ends. Its own CUDA
// errors are not reported (the call's result is), and the runtime's last-error slot is left clean.
class CallStream {
 public:
  CallStream() = default;
  CallStream(const CallStream&) = delete;
  CallStream& operator=(const CallStream&) = delete;
  ~CallStream() {
    if (!stream_) return;
    bool failed = cudaStreamSynchronize(stream_) != cudaSuccess;
    failed |= cudaStreamDestroy(stream_) != cudaSuccess;
    if (failed) (void)cudaGetLastError();
  }
  tcgemm_status create() {
    TCGEMM_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
    return TCGEMM_SUCCESS;
  }
  cudaStream_t get() const { return stream_; }

 private:
  cudaStream_t stream_ = nullptr;
};

// Device buffers and the stream of one tcgemm_dgemm_host call. The buffers are tcgemm's stream-ordered
// scratch (core/memory_pool) on the call's stream; declared after the stream, they are given back first
// (cudaFreeAsync, ordered after every copy), then the stream is waited for once: after that no copy is in
// flight on the caller's host arrays, and the pool has trimmed itself to its retain limit.
class HostCall {
 public:
  tcgemm_status start(const DeviceContext& ctx) {
    ctx_ = ctx;
    return stream_.create();
  }
  cudaStream_t stream() const { return stream_.get(); }

  // A buffer of `elements` doubles (elements <= TCGEMM_MAX_MATRIX_BYTES / 8, by validation).
  tcgemm_status allocate(int slot, int64_t elements, double** out) {
    void* p = nullptr;
    TCGEMM_TRY(buffers_[slot].allocate(ctx_, size_t(elements) * sizeof(double), stream_.get(), &p));
    *out = static_cast<double*>(p);
    return TCGEMM_SUCCESS;
  }

 private:
  DeviceContext ctx_;
  CallStream stream_;
  StreamScratch buffers_[3];  // destroyed before stream_ (reverse declaration order)
};

}  // namespace
}  // namespace tcgemm::detail

using namespace tcgemm::detail;

extern "C" {

tcgemm_status tcgemm_dgemm_host(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                const double* A, int64_t lda, const double* B, int64_t ldb, double beta, double* C,
                                int64_t ldc) {
  clear_error();
  const GemmProblem in = blas_problem(transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
  GemmProblem p;
  TCGEMM_TRY(validate_problem(in, ArgNaming::Blas, kBlasPositions, &p));
  if (p.m == 0 || p.n == 0) return TCGEMM_SUCCESS;
  if ((p.alpha == 0.0 || p.k == 0) && p.beta == 1.0) return TCGEMM_SUCCESS;

  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  const bool read_ab = p.alpha != 0.0 && p.k > 0;
  // The matrices as stored: A is lda x (k or m columns), B is ldb x (n or k columns), C is ldc x n. Whole
  // columns (ld rows) keep each copy contiguous; the last column needs only its rows. Validation bounded
  // every extent by TCGEMM_MAX_MATRIX_BYTES, so these spans cannot overflow.
  const int64_t a_cols = p.transa == 'N' ? p.k : p.m, a_rows = p.transa == 'N' ? p.m : p.k;
  const int64_t b_cols = p.transb == 'N' ? p.n : p.k, b_rows = p.transb == 'N' ? p.k : p.n;
  int64_t a_elems = 0, b_elems = 0, c_elems = 0;
  if (!matrix_span_elements(a_rows, a_cols, p.lda, &a_elems) ||
      !matrix_span_elements(b_rows, b_cols, p.ldb, &b_elems) || !matrix_span_elements(p.m, p.n, p.ldc, &c_elems))
    return set_error(TCGEMM_ERROR_INVALID_ARGUMENT, "matrix span overflows int64 (validation should have caught it)");

  HostCall call;
  TCGEMM_TRY(call.start(ctx));
  const cudaStream_t s = call.stream();
  double* dA = nullptr;
  double* dB = nullptr;
  double* dC = nullptr;
  if (read_ab) {
    TCGEMM_TRY(call.allocate(0, a_elems, &dA));
    TCGEMM_TRY(call.allocate(1, b_elems, &dB));
    TCGEMM_CUDA_TRY(cudaMemcpyAsync(dA, p.A, size_t(a_elems) * sizeof(double), cudaMemcpyHostToDevice, s));
    TCGEMM_CUDA_TRY(cudaMemcpyAsync(dB, p.B, size_t(b_elems) * sizeof(double), cudaMemcpyHostToDevice, s));
  }
  TCGEMM_TRY(call.allocate(2, c_elems, &dC));
  // beta == 0: C is not read, so the host C is not uploaded either (it may hold NaN).
  if (p.beta != 0.0)
    TCGEMM_CUDA_TRY(cudaMemcpyAsync(dC, p.C, size_t(c_elems) * sizeof(double), cudaMemcpyHostToDevice, s));

  GemmProblem on_device = p;
  on_device.A = dA;
  on_device.B = dB;
  on_device.C = dC;
  TCGEMM_TRY(run_on_device(on_device, tcgemm_config{}, ctx, ArgNaming::Blas, kBlasPositions, s));
  // Copy back column by column only the m rows: the rows m..ldc-1 of the caller's C stay untouched.
  TCGEMM_CUDA_TRY(cudaMemcpy2DAsync(p.C, size_t(p.ldc) * sizeof(double), dC, size_t(p.ldc) * sizeof(double),
                                    size_t(p.m) * sizeof(double), size_t(p.n), cudaMemcpyDeviceToHost, s));
  TCGEMM_CUDA_TRY(cudaStreamSynchronize(s));
  return TCGEMM_SUCCESS;
}

tcgemm_status tcgemm_release_workspace(void) {
  clear_error();
  // Trims the current context's pool to nothing. Pools of other devices keep at most the retain limit; the
  // entry of a context destroyed by cudaDeviceReset is never used again (its id never comes back).
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    (void)cudaGetLastError();
    return TCGEMM_SUCCESS;  // no device: nothing was ever allocated
  }
  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  TCGEMM_TRY(trim_context_pool(ctx));
  return TCGEMM_SUCCESS;
}

}  // extern "C"
