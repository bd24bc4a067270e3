// GPU test harness: fresh random operands, NaN-poisoned C, guard sentinels, cuBLAS as the reference, and
// the shared check of bench/check/reference_check.hpp (per-element tolerance from
// 2 (k + 1) eps |alpha| ||row_i(op(A))|| ||col_j(op(B))||, NaN fails, guards must stay bit-identical).
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "reference_check.hpp"
#include "tcgemm/tcgemm.h"

namespace tcgemm::test {

inline bool cuda_device_available() {
  static const bool available = [] {
    int count = 0;
    const bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    (void)cudaGetLastError();
    return ok;
  }();
  return available;
}

inline int device_cc_major() {
  int dev = 0, major = 0;
  if (cudaGetDevice(&dev) != cudaSuccess) return 0;
  if (cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) return 0;
  return major;
}

#ifndef TCGEMM_TEST_SM90_CODE
#define TCGEMM_TEST_SM90_CODE 1
#endif
// True when the build carries sm_90 code and the device is a Hopper: tcgemm_dgemm then runs sm90_mma. A
// build without sm_90 code (CMAKE_CUDA_ARCHITECTURES=80) runs shared_ab on a Hopper, from JIT-compiled PTX.
inline bool hopper_path_expected() { return TCGEMM_TEST_SM90_CODE && device_cc_major() == 9; }

#define TCGEMM_REQUIRE_GPU()                                                          \
  do {                                                                                \
    if (!::tcgemm::test::cuda_device_available()) GTEST_SKIP() << "no CUDA device";   \
  } while (0)

// ASSERT-style check of a CUDA call (use in void test bodies / helpers).
#define CUDA_OK(expr)                                                                      \
  do {                                                                                     \
    cudaError_t e_ = (expr);                                                               \
    ASSERT_EQ(e_, cudaSuccess) << #expr << ": " << cudaGetErrorName(e_) << ": "            \
                               << cudaGetErrorString(e_);                                  \
  } while (0)

// Quiet NaNs with recognisable payloads: one poisons C before a run, the other marks guard memory
// that must never be written (compared bit for bit).
inline double poison_nan() {
  const uint64_t bits = 0x7ff8dead00000001ull;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
inline double guard_nan() {
  const uint64_t bits = 0x7ff8beef00000002ull;
  double d;
  std::memcpy(&d, &bits, sizeof d);
  return d;
}
inline bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

template <class T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) : count_(count) {
    if (count_ && cudaMalloc(reinterpret_cast<void**>(&ptr_), count_ * sizeof(T)) != cudaSuccess) {
      ptr_ = nullptr;
      count_ = 0;
    }
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() {
    if (ptr_) (void)cudaFree(ptr_);
  }
  T* get() const { return ptr_; }
  size_t size() const { return count_; }
  bool ok() const { return ptr_ != nullptr || count_ == 0; }
  // Complete when it returns. A plain cudaMemcpy from pageable memory may return before its DMA has landed,
  // and a kernel on a non-blocking stream does not wait for the legacy stream: the copy goes on `stream`
  // (the one the test launches on) and is waited for.
  cudaError_t upload(const std::vector<T>& h, cudaStream_t stream = nullptr) {
    cudaError_t e = cudaMemcpyAsync(ptr_, h.data(), std::min(h.size(), count_) * sizeof(T), cudaMemcpyHostToDevice,
                                    stream);
    return e == cudaSuccess ? cudaStreamSynchronize(stream) : e;
  }
  cudaError_t download(std::vector<T>* h) const {
    h->resize(count_);
    return cudaMemcpy(h->data(), ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost);
  }

 private:
  T* ptr_ = nullptr;
  size_t count_ = 0;
};

// A column-major rows x cols matrix with leading dimension ld inside a buffer of `total` elements,
// starting at `offset`. Elements outside the matrix (padding rows, guards) are `fill`.
// integer_values: small integers in [-3, 3], for checks that must be exact.
inline std::vector<double> random_matrix(int64_t rows, int64_t cols, int64_t ld, uint64_t seed, int64_t offset = 0,
                                         int64_t total = -1, double fill = std::numeric_limits<double>::quiet_NaN(),
                                         bool integer_values = false) {
  if (total < 0) total = offset + ld * std::max<int64_t>(cols, 1);
  std::vector<double> h(size_t(total), fill);
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> small_int(-3, 3);
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i)
      h[size_t(offset + j * ld + i)] = integer_values ? double(small_int(gen)) : real(gen);
  return h;
}

inline cublasHandle_t cublas_handle() {
  static cublasHandle_t handle = [] {
    cublasHandle_t h = nullptr;
    if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) h = nullptr;
    return h;
  }();
  return handle;
}

struct GemmSpec {
  char transa = 'N', transb = 'N';
  int64_t m = 0, n = 0, k = 0;
  double alpha = 1.0, beta = 0.0;
  int64_t lda_pad = 0, ldb_pad = 0, ldc_pad = 0;        // leading dimension = rows + pad
  int64_t a_offset = 0, b_offset = 0, c_offset = 0;     // elements: misaligned base pointers
  uint64_t seed = 1;
};

// A spec with the given sizes and seed and every other field at its default (NN, alpha 1, beta 0, packed).
inline GemmSpec spec(int64_t m, int64_t n, int64_t k, uint64_t seed) {
  GemmSpec s;
  s.m = m;
  s.n = n;
  s.k = k;
  s.seed = seed;
  return s;
}

inline std::string describe(const GemmSpec& s) {
  std::ostringstream o;
  o << "trans=" << s.transa << s.transb << " m=" << s.m << " n=" << s.n << " k=" << s.k << " alpha=" << s.alpha
    << " beta=" << s.beta << " ld_pads=" << s.lda_pad << "/" << s.ldb_pad << "/" << s.ldc_pad
    << " offsets=" << s.a_offset << "/" << s.b_offset << "/" << s.c_offset << " seed=" << s.seed;
  return o.str();
}

using GemmCall = std::function<tcgemm_status(const GemmSpec&, const double* A, int64_t lda, const double* B,
                                             int64_t ldb, double* C, int64_t ldc, cudaStream_t)>;

// An sm90_mma configuration (0 in stages / k_splits: the family's default depth / no split).
inline tcgemm_config sm90_mma_config(int tile_m, int tile_n, int tile_k, int stages = 0, int k_splits = 0) {
  tcgemm_config c{};
  c.family = TCGEMM_FAMILY_SM90_MMA;
  c.tile_m = tile_m;
  c.tile_n = tile_n;
  c.tile_k = tile_k;
  c.stages = stages;
  c.k_splits = k_splits;
  return c;
}

// tcgemm_dgemm (the plan's choice), as a GemmCall.
inline GemmCall dgemm_auto_call() {
  return [](const GemmSpec& s, const double* A, int64_t lda, const double* B, int64_t ldb, double* C, int64_t ldc,
            cudaStream_t stream) {
    return tcgemm_dgemm(s.transa, s.transb, s.m, s.n, s.k, s.alpha, A, lda, B, ldb, s.beta, C, ldc, stream);
  };
}

// tcgemm_dgemm_config with a fixed configuration, as a GemmCall.
inline GemmCall dgemm_config_call(const tcgemm_config& c) {
  return [c](const GemmSpec& s, const double* A, int64_t lda, const double* B, int64_t ldb, double* C, int64_t ldc,
             cudaStream_t stream) {
    return tcgemm_dgemm_config(&c, s.transa, s.transb, s.m, s.n, s.k, s.alpha, A, lda, B, ldb, s.beta, C, ldc, stream);
  };
}

constexpr int64_t kGuardElements = 64;  // written-never region after each matrix

// Runs `call` on fresh random data and compares with cuBLAS DGEMM on the same inputs.
inline ::testing::AssertionResult run_and_check(const GemmSpec& s, const GemmCall& call, cudaStream_t stream = nullptr) {
  const bool a_plain = s.transa == 'N' || s.transa == 'n';
  const bool b_plain = s.transb == 'N' || s.transb == 'n';
  const int64_t a_rows = a_plain ? s.m : s.k, a_cols = a_plain ? s.k : s.m;
  const int64_t b_rows = b_plain ? s.k : s.n, b_cols = b_plain ? s.n : s.k;
  const int64_t lda = std::max<int64_t>(1, a_rows) + s.lda_pad;
  const int64_t ldb = std::max<int64_t>(1, b_rows) + s.ldb_pad;
  const int64_t ldc = std::max<int64_t>(1, s.m) + s.ldc_pad;
  const int64_t a_total = s.a_offset + lda * std::max<int64_t>(a_cols, 1) + kGuardElements;
  const int64_t b_total = s.b_offset + ldb * std::max<int64_t>(b_cols, 1) + kGuardElements;
  const int64_t c_total = s.c_offset + ldc * std::max<int64_t>(s.n, 1) + kGuardElements;

  // A and B: NaN outside the matrices, so a kernel that lets padding rows or guards into the sum fails.
  const std::vector<double> hA = random_matrix(a_rows, a_cols, lda, s.seed * 3 + 1, s.a_offset, a_total);
  const std::vector<double> hB = random_matrix(b_rows, b_cols, ldb, s.seed * 3 + 2, s.b_offset, b_total);
  // C: guard NaN outside m x n (must stay bit-identical); inside, random C0 (beta != 0) or poison NaN.
  std::vector<double> hC0 = random_matrix(s.m, s.n, ldc, s.seed * 3 + 3, s.c_offset, c_total, guard_nan());
  if (s.beta == 0.0)
    for (int64_t j = 0; j < s.n; ++j)
      for (int64_t i = 0; i < s.m; ++i) hC0[size_t(s.c_offset + j * ldc + i)] = poison_nan();

  DeviceBuffer<double> dA{size_t(a_total)}, dB{size_t(b_total)}, dC{size_t(c_total)}, dRef{size_t(c_total)};
  if (!dA.ok() || !dB.ok() || !dC.ok() || !dRef.ok()) return ::testing::AssertionFailure() << "cudaMalloc failed";
  if (dA.upload(hA, stream) != cudaSuccess || dB.upload(hB, stream) != cudaSuccess ||
      dC.upload(hC0, stream) != cudaSuccess || dRef.upload(hC0, stream) != cudaSuccess)
    return ::testing::AssertionFailure() << "upload failed";

  const tcgemm_status st = call(s, dA.get() + s.a_offset, lda, dB.get() + s.b_offset, ldb, dC.get() + s.c_offset,
                                ldc, stream);
  if (st != TCGEMM_SUCCESS)
    return ::testing::AssertionFailure() << describe(s) << ": call returned " << tcgemm_status_string(st) << ": "
                                         << tcgemm_last_error();
  cudaError_t e = cudaStreamSynchronize(stream);
  if (e == cudaSuccess) e = cudaGetLastError();
  if (e != cudaSuccess)
    return ::testing::AssertionFailure() << describe(s) << ": kernel failed: " << cudaGetErrorString(e);

  // Reference: cuBLAS on the same device data (beta == 0: cuBLAS does not read C either).
  cublasHandle_t h = cublas_handle();
  if (!h) return ::testing::AssertionFailure() << "cublasCreate failed";
  if (s.m > 0 && s.n > 0) {
    const cublasOperation_t opA = a_plain ? CUBLAS_OP_N : CUBLAS_OP_T;
    const cublasOperation_t opB = b_plain ? CUBLAS_OP_N : CUBLAS_OP_T;
    if (cublasDgemm(h, opA, opB, int(s.m), int(s.n), int(s.k), &s.alpha, dA.get() + s.a_offset, int(lda),
                    dB.get() + s.b_offset, int(ldb), &s.beta, dRef.get() + s.c_offset, int(ldc)) !=
        CUBLAS_STATUS_SUCCESS)
      return ::testing::AssertionFailure() << "cublasDgemm failed";
    if (cudaDeviceSynchronize() != cudaSuccess) return ::testing::AssertionFailure() << "cuBLAS sync failed";
  }
  std::vector<double> hC, hRef;
  if (dC.download(&hC) != cudaSuccess || dRef.download(&hRef) != cudaSuccess)
    return ::testing::AssertionFailure() << "download failed";

  // The shared check, on the whole C buffer: hC0 gives beta's C0 and the guards that must stay untouched.
  const check::Gemm gemm{s.transa, s.transb, s.m, s.n, s.k, s.alpha, s.beta,
                         hA.data() + s.a_offset, lda, hB.data() + s.b_offset, ldb};
  const check::Report report =
      check::check_result(gemm, check::OutputLayout{ldc, s.c_offset, c_total}, hC0.data(), hC.data(), hRef.data());
  if (!report.pass()) return ::testing::AssertionFailure() << describe(s) << ": " << report.summary();
  return ::testing::AssertionSuccess();
}

}  // namespace tcgemm::test
