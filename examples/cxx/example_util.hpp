// Small helpers shared by the C++ example programs: error checks that exit with a message, random
// matrices, the check of a result (the shared one of bench/check/reference_check.hpp, against cuBLAS or a
// host loop), and CUDA-event timing (median of timed runs).
#pragma once

#include <cuda_runtime.h>

#include <exception>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "reference_check.hpp"  // bench/check/: the check the tests and tcgemm-bench use too
#include "tcgemm/tcgemm.h"
#include "timing.hpp"  // bench/: the CUDA-event timer the benchmarks use

namespace example {

// Exit with the failing expression and CUDA's text.
#define EXAMPLE_CUDA_CHECK(expr)                                                                        \
  do {                                                                                                  \
    cudaError_t example_err_ = (expr);                                                                  \
    if (example_err_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #expr,                         \
                   cudaGetErrorString(example_err_));                                                   \
      std::exit(EXIT_FAILURE);                                                                          \
    }                                                                                                   \
  } while (0)

// Exit with the status name and tcgemm's own message (which argument broke which rule).
#define EXAMPLE_TCGEMM_CHECK(expr)                                                                      \
  do {                                                                                                  \
    tcgemm_status example_st_ = (expr);                                                                 \
    if (example_st_ != TCGEMM_SUCCESS) {                                                                \
      std::fprintf(stderr, "%s:%d: %s returned %s: %s\n", __FILE__, __LINE__, #expr,                    \
                   tcgemm_status_string(example_st_), tcgemm_last_error());                             \
      std::exit(EXIT_FAILURE);                                                                          \
    }                                                                                                   \
  } while (0)

inline void print_device() {
  tcgemm_device_info info;
  EXAMPLE_TCGEMM_CHECK(tcgemm_device_info_get(-1, &info));
  std::printf(" Device: %s (compute capability %d.%d, %d SMs)\n", info.name, info.cc_major, info.cc_minor,
              info.sm_count);
}

// Column-major rows x cols matrix with leading dimension ld, values uniform in [-1, 1) (or small integers
// in [-3, 3] when the check must be exact).
inline std::vector<double> random_matrix(int64_t rows, int64_t cols, int64_t ld, uint64_t seed,
                                         bool small_integers = false) {
  std::vector<double> m(static_cast<size_t>(ld * std::max<int64_t>(cols, 1)), 0.0);
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> real(-1.0, 1.0);
  std::uniform_int_distribution<int> integer(-3, 3);
  for (int64_t j = 0; j < cols; ++j)
    for (int64_t i = 0; i < rows; ++i)
      m[static_cast<size_t>(i + j * ld)] = small_integers ? integer(gen) : real(gen);
  return m;
}

// Device copy of a host vector (freed by the caller with cudaFree).
inline double* to_device(const std::vector<double>& h) {
  double* d = nullptr;
  EXAMPLE_CUDA_CHECK(cudaMalloc(&d, h.size() * sizeof(double)));
  EXAMPLE_CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(double), cudaMemcpyHostToDevice));
  return d;
}

inline std::vector<double> to_host(const double* d, size_t count) {
  std::vector<double> h(count);
  EXAMPLE_CUDA_CHECK(cudaMemcpy(h.data(), d, count * sizeof(double), cudaMemcpyDeviceToHost));
  return h;
}

// The plain product C = A B of column-major operands, as the shared check describes a GEMM.
inline tcgemm::check::Gemm product(int64_t m, int64_t n, int64_t k, const std::vector<double>& A, int64_t lda,
                                   const std::vector<double>& B, int64_t ldb) {
  return tcgemm::check::Gemm{'N', 'N', m, n, k, 1.0, 0.0, A.data(), lda, B.data(), ldb};
}

// Judges C (ld ldc) against a reference C with the shared check, C0 as it was before the call when beta is
// not 0. Prints the largest difference and, on a failure, the first elements outside the tolerance.
inline bool check_result(const tcgemm::check::Gemm& gemm, int64_t ldc, const std::vector<double>& C,
                         const std::vector<double>& reference, const char* reference_name,
                         const std::vector<double>* C0 = nullptr) {
  const tcgemm::check::Report r = tcgemm::check::check_result(
      gemm, tcgemm::check::OutputLayout{ldc}, C0 ? C0->data() : nullptr, C.data(), reference.data());
  std::printf(" max |C - C_%s| = %.3e\n", reference_name, r.max_abs_err);
  if (!r.pass()) std::printf(" %s\n", r.summary(reference_name).c_str());
  return r.pass();
}

// Downloads C (m x n, ldc) from the device and checks it against the host loop's A B.
inline bool check_against_host(int64_t m, int64_t n, int64_t k, const std::vector<double>& A, int64_t lda,
                               const std::vector<double>& B, int64_t ldb, const double* dC, int64_t ldc) {
  const tcgemm::check::Gemm gemm = product(m, n, k, A, lda, B, ldb);
  const std::vector<double> reference = tcgemm::check::host_gemm(gemm, tcgemm::check::OutputLayout{ldc}, nullptr);
  return check_result(gemm, ldc, to_host(dC, reference.size()), reference, "host");
}

// Median milliseconds of `reps` timed runs after `warmup` untimed ones, each timed run between its own
// pair of CUDA events on `stream`. `launch` enqueues one run.
template <class Launch>
double median_ms(Launch&& launch, int warmup, int reps, cudaStream_t stream = nullptr) {
  try {
    return tcgemm::bench::time_launches([&] { launch(); return true; }, warmup, reps, stream).median_ms;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "timing failed: %s\n", e.what());
    std::exit(EXIT_FAILURE);
  }
}

inline double tflops(double m, double n, double k, double ms) { return 2.0 * m * n * k / (ms * 1e-3) / 1e12; }

inline int report(bool passed) {
  std::printf("\n %s\n", passed ? "Test passed" : "Test FAILED");
  return passed ? EXIT_SUCCESS : EXIT_FAILURE;
}

}  // namespace example
