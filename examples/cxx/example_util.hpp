// Small helpers shared by the C++ example programs: error checks that exit with a message, random
// matrices, a host reference GEMM, a comparison, and CUDA-event timing (median of timed runs).
#pragma once

#include <cuda_runtime.h>

#include <exception>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <utility>
#include <vector>

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

// C = A B on the host, the plain triple loop (fine for the small example sizes). `abs_product`, when given,
// receives |A| |B|, the scale of the rounding error of each element.
inline std::vector<double> host_gemm(int64_t m, int64_t n, int64_t k, const std::vector<double>& A, int64_t lda,
                                     const std::vector<double>& B, int64_t ldb, int64_t ldc,
                                     std::vector<double>* abs_product = nullptr) {
  const size_t size = static_cast<size_t>(ldc * std::max<int64_t>(n, 1));
  std::vector<double> C(size, 0.0), absC(size, 0.0);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t p = 0; p < k; ++p) {
      const double b = B[static_cast<size_t>(p + j * ldb)];
      for (int64_t i = 0; i < m; ++i) {
        const double a = A[static_cast<size_t>(i + p * lda)];
        C[static_cast<size_t>(i + j * ldc)] += a * b;
        absC[static_cast<size_t>(i + j * ldc)] += std::fabs(a * b);
      }
    }
  if (abs_product) *abs_product = std::move(absC);
  return C;
}

// Every |got - want| <= 2 (k + 1) eps bound(i, j), where bound(i, j) bounds sum_p |a_ip b_pj|. NaN fails.
template <class Bound>
bool matches(int64_t m, int64_t n, int64_t k, const std::vector<double>& got, const std::vector<double>& want,
             int64_t ldc, Bound&& bound, double* max_error = nullptr) {
  const double eps = std::numeric_limits<double>::epsilon();
  double worst = 0.0;
  bool ok = true;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      const size_t idx = static_cast<size_t>(i + j * ldc);
      const double d = std::fabs(got[idx] - want[idx]);
      if (!(d <= 2.0 * double(k + 1) * eps * bound(i, j) + 1e-300)) ok = false;
      worst = std::max(worst, d);
    }
  if (max_error) *max_error = worst;
  return ok;
}

// Downloads C (m x n, ldc) from the device, compares it with the host product A B and prints the largest
// difference. True when every element is within the tolerance of matches().
inline bool check_against_host(int64_t m, int64_t n, int64_t k, const std::vector<double>& A, int64_t lda,
                               const std::vector<double>& B, int64_t ldb, const double* dC, int64_t ldc) {
  const std::vector<double> C = to_host(dC, static_cast<size_t>(ldc * n));
  std::vector<double> bound;
  const std::vector<double> ref = host_gemm(m, n, k, A, lda, B, ldb, ldc, &bound);
  double max_error = 0;
  const bool ok = matches(m, n, k, C, ref, ldc,
                          [&](int64_t i, int64_t j) { return bound[static_cast<size_t>(i + j * ldc)]; }, &max_error);
  std::printf(" max |C - C_host| = %.3e\n", max_error);
  return ok;
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
