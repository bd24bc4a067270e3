// tcgemm_dgemm_strided_batched_host: a strided batch of small DGEMMs on host arrays, for callers (Fortran codes
// above all) that do not manage device memory. The arguments are checked exactly as the device call checks
// them (validate_strided_batch, one numbering); the matrices of A, B and C the batch uses go to the device
// packed (rows x columns each, no gaps: one copy when the layout allows it, else one per matrix), the batch
// runs as tcgemm_dgemm_strided_batched on a stream of this call's own, and only the m x n block of each C
// comes back: elements of C between or below the matrices are never written. beta = 0: C is not uploaded
// (BLAS: never read). A shared A or B (stride 0) goes up once. The packed copies must fit the device
// together; a batch whose copies exceed the device's memory is refused before anything is copied.
#include <cinttypes>
#include <cstdint>
#include <string>

#include "api/batched_args.hpp"
#include "api/host_copy.hpp"
#include "core/checked_math.hpp"
#include "core/device.hpp"
#include "core/errors.hpp"
#include "core/memory_pool.hpp"

using namespace tcgemm::detail;

namespace {

constexpr int64_t kElement = int64_t(sizeof(double));

// One operand of the batch: `count` matrices of rows x cols, column-major with leading dimension ld, each
// `stride` elements after the previous one on the host; on the device packed, rows x cols each, back to back.
struct BatchLayout {
  int64_t rows = 0, cols = 0, ld = 0, stride = 0, count = 0;
  int64_t one() const { return rows * cols; }  // validated: fits
};

// Copies the operand between its host layout and its packed device copy, in as few copies as the layout
// allows: one when there is one matrix, when each matrix is one run of elements (ld == rows, or one column),
// or when the columns of the whole batch are evenly spaced (stride == ld * cols, Fortran's a(ld, cols, batch));
// otherwise one 2D copy per matrix.
tcgemm_status copy_batch(const BatchLayout& x, const void* host_src, void* host_dst, void* dev, bool to_device,
                         cudaStream_t stream) {
  auto copy = [&](int64_t host_offset, int64_t host_pitch, int64_t dev_offset, int64_t dev_pitch, int64_t width,
                  int64_t height) {
    char* d = static_cast<char*>(dev) + dev_offset * kElement;
    if (to_device)
      return copy_columns(d, dev_pitch * kElement, static_cast<const char*>(host_src) + host_offset * kElement,
                          host_pitch * kElement, width * kElement, height, cudaMemcpyHostToDevice, stream);
    return copy_columns(static_cast<char*>(host_dst) + host_offset * kElement, host_pitch * kElement, d,
                        dev_pitch * kElement, width * kElement, height, cudaMemcpyDeviceToHost, stream);
  };
  if (x.one() == 0 || x.count == 0) return TCGEMM_SUCCESS;
  if (x.count == 1) return copy(0, x.ld, 0, x.rows, x.rows, x.cols);
  if ((x.ld == x.rows || x.cols == 1) && x.stride >= x.one())
    return copy(0, x.stride, 0, x.one(), x.one(), x.count);
  if (x.stride == x.ld * x.cols) return copy(0, x.ld, 0, x.rows, x.rows, x.cols * x.count);
  for (int64_t g = 0; g < x.count; ++g) TCGEMM_TRY(copy(g * x.stride, x.ld, g * x.one(), x.rows, x.rows, x.cols));
  return TCGEMM_SUCCESS;
}

// The packed copy's bytes, or -1 past int64.
int64_t packed_bytes(const BatchLayout& x) {
  int64_t elements = 0, bytes = 0;
  if (!checked_mul(x.one(), x.count, &elements) || !checked_mul(elements, kElement, &bytes)) return -1;
  return bytes;
}

// Puts the call's context in front of a failure's message, keeping its status.
tcgemm_status with_context(tcgemm_status st, const std::string& what) {
  const std::string reason = tcgemm_last_error();
  return set_error(st, "tcgemm_dgemm_strided_batched_host: %s: %s", what.c_str(), reason.c_str());
}

std::string device_copy_of(const char* name, int64_t bytes) {
  return std::string("device copy of ") + name + " (" + std::to_string(bytes) + " bytes)";
}

}  // namespace

extern "C" tcgemm_status tcgemm_dgemm_strided_batched_host(char transa, char transb, int64_t m, int64_t n, int64_t k,
                                                           double alpha, const double* A, int64_t lda,
                                                           int64_t strideA, const double* B, int64_t ldb,
                                                           int64_t strideB, double beta, double* C, int64_t ldc,
                                                           int64_t strideC, int64_t batch) {
  clear_error();
  GemmProblem p;
  TCGEMM_TRY(validate_strided_batch(transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc,
                                    strideC, batch, &p));
  if (batch == 0 || p.m == 0 || p.n == 0) return TCGEMM_SUCCESS;
  if ((p.alpha == 0.0 || p.k == 0) && p.beta == 1.0) return TCGEMM_SUCCESS;

  DeviceContext ctx;
  TCGEMM_TRY(device_gate(-1, &ctx));
  if (p.alpha == 0.0 || p.k == 0) {
    // C = beta * C touches nothing but C: on the host, where it is (as tcgemm_dgemm_host). beta = 0 writes
    // zeros without reading C (it may hold NaN).
    for (int64_t g = 0; g < batch; ++g)
      for (int64_t j = 0; j < p.n; ++j) {
        double* c = p.C + g * strideC + j * p.ldc;
        for (int64_t i = 0; i < p.m; ++i) c[i] = p.beta == 0.0 ? 0.0 : p.beta * c[i];
      }
    return TCGEMM_SUCCESS;
  }
  TCGEMM_TRY(take_pending_cuda_error());

  BatchLayout a, b, c;
  a.rows = p.transa == 'N' ? p.m : p.k;
  a.cols = p.transa == 'N' ? p.k : p.m;
  a.ld = p.lda;
  a.stride = strideA;
  a.count = strideA == 0 ? 1 : batch;
  b.rows = p.transb == 'N' ? p.k : p.n;
  b.cols = p.transb == 'N' ? p.n : p.k;
  b.ld = p.ldb;
  b.stride = strideB;
  b.count = strideB == 0 ? 1 : batch;
  c.rows = p.m;
  c.cols = p.n;
  c.ld = p.ldc;
  c.stride = strideC;
  c.count = batch;
  const int64_t a_bytes = packed_bytes(a), b_bytes = packed_bytes(b), c_bytes = packed_bytes(c);
  int64_t ab_bytes = 0, sum_bytes = 0, total_bytes = -1;  // -1: past int64
  if (a_bytes >= 0 && b_bytes >= 0 && c_bytes >= 0 && checked_add(a_bytes, b_bytes, &ab_bytes) &&
      checked_add(ab_bytes, c_bytes, &sum_bytes))
    total_bytes = sum_bytes;
  size_t free_bytes = 0, device_bytes = 0;
  TCGEMM_CUDA_TRY(cudaMemGetInfo(&free_bytes, &device_bytes));
  if (total_bytes < 0 || uint64_t(total_bytes) > uint64_t(device_bytes))
    return set_arg_error(TCGEMM_ERROR_INVALID_ARGUMENT, kStridedBatchArgument,
                         "argument %d (batch) = %" PRId64 ": the device copies of A, B and C (%s bytes) exceed the "
                         "device's memory (%zu bytes); split the batch into smaller calls",
                         kStridedBatchArgument, batch,
                         total_bytes < 0 ? "more than 2^63" : std::to_string(total_bytes).c_str(), device_bytes);

  CallStream s;  // declared before the buffers: they give their memory back on it
  TCGEMM_CUDA_TRY(cudaStreamCreateWithFlags(&s.stream, cudaStreamNonBlocking));
  StreamScratch a_buf, b_buf, c_buf;
  void* da = nullptr;
  void* db = nullptr;
  void* dc = nullptr;
  tcgemm_status st = a_buf.allocate(ctx, size_t(a_bytes), s.stream, &da);
  if (st != TCGEMM_SUCCESS) return with_context(st, device_copy_of("A", a_bytes));
  st = b_buf.allocate(ctx, size_t(b_bytes), s.stream, &db);
  if (st != TCGEMM_SUCCESS) return with_context(st, device_copy_of("B", b_bytes));
  st = c_buf.allocate(ctx, size_t(c_bytes), s.stream, &dc);
  if (st != TCGEMM_SUCCESS) return with_context(st, device_copy_of("C", c_bytes));
  TCGEMM_TRY(copy_batch(a, p.A, nullptr, da, true, s.stream));
  TCGEMM_TRY(copy_batch(b, p.B, nullptr, db, true, s.stream));
  if (p.beta != 0.0) TCGEMM_TRY(copy_batch(c, p.C, nullptr, dc, true, s.stream));  // beta = 0: C is not read
  st = tcgemm_dgemm_strided_batched(p.transa, p.transb, p.m, p.n, p.k, p.alpha, static_cast<const double*>(da),
                                    a.rows, a.count == 1 ? 0 : a.one(), static_cast<const double*>(db), b.rows,
                                    b.count == 1 ? 0 : b.one(), p.beta, static_cast<double*>(dc), c.rows, c.one(),
                                    batch, s.stream);
  if (st != TCGEMM_SUCCESS) return with_context(st, "the batch on the device copies");
  const tcgemm_status copied = copy_batch(c, nullptr, p.C, dc, false, s.stream);
  const cudaError_t done = cudaStreamSynchronize(s.stream);
  if (copied == TCGEMM_SUCCESS && done == cudaSuccess) return TCGEMM_SUCCESS;
  // The copy back may have started: C may hold part of the result.
  st = copied != TCGEMM_SUCCESS ? copied : set_cuda_error(done, "cudaStreamSynchronize");
  set_output_written(true);
  return st;
}
