// The internal contract between the API layer (api/), the rules (core/) and the kernel families
// (families/): one GEMM call, the device it runs on, and the one launcher signature every family has.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

// One GEMM call, BLAS semantics: C <- alpha op(A) op(B) + beta C, column-major.
// transa/transb are normalised to 'N' or 'T' before a launcher sees them.
struct GemmProblem {
  char transa = 'N';
  char transb = 'N';
  int64_t m = 0, n = 0, k = 0;
  double alpha = 1.0;
  const double* A = nullptr;
  int64_t lda = 1;
  const double* B = nullptr;
  int64_t ldb = 1;
  double beta = 0.0;
  double* C = nullptr;
  int64_t ldc = 1;
};

// The operands of a validated problem as the kernels take them, by value: the first part of every family's
// kernel parameter block (the families add their own tile counts and flags after it).
struct GemmOperands {
  const double* A;
  const double* B;
  double* C;
  int64_t lda, ldb, ldc;
  int64_t m, n, k;
  double alpha, beta;
};
inline GemmOperands kernel_operands(const GemmProblem& p) {
  return GemmOperands{p.A, p.B, p.C, p.lda, p.ldb, p.ldc, p.m, p.n, p.k, p.alpha, p.beta};
}

// The problem of a BLAS-style call, argument for argument (unvalidated).
inline GemmProblem blas_problem(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha,
                                const double* A, int64_t lda, const double* B, int64_t ldb, double beta, double* C,
                                int64_t ldc) {
  GemmProblem p;
  p.transa = transa;
  p.transb = transb;
  p.m = m;
  p.n = n;
  p.k = k;
  p.alpha = alpha;
  p.A = A;
  p.lda = lda;
  p.B = B;
  p.ldb = ldb;
  p.beta = beta;
  p.C = C;
  p.ldc = ldc;
  return p;
}

// Peak DRAM bandwidth in bytes per microsecond from CUDA's memory clock (kHz) and bus width (bits): two transfers per
// clock (H100 SXM: 2619000 kHz x 5120 bits = 3.35 TB/s; H200: 3201000 kHz x 6016 bits = 4.81 TB/s).
constexpr double peak_memory_bytes_per_us(int64_t memory_clock_khz, int64_t bus_width_bits) {
  return 2.0 * double(memory_clock_khz) * 1e3 * (double(bus_width_bits) / 8.0) / 1e6;
}

// What the launchers need to know about the device they run on (queried once per device, cached).
struct DeviceContext {
  int device = 0;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  int64_t smem_optin = 0;   // bytes per block after cudaFuncSetAttribute
  int64_t smem_per_sm = 0;  // bytes
  int64_t l2_bytes = 0;     // L2 cache size (the sm90 rasterization rule)
  // Peak DRAM bandwidth in bytes per microsecond (2 x memory clock x bus width; the plan model's wide-memory
  // calibration, api/dgemm_plan.cpp); 0 when CUDA does not say.
  double hbm_peak_bytes_per_us = 0.0;
  // The CUDA context the call runs in (cuCtxGetId: unique for the process's lifetime). Caches of
  // per-context state (kernel attributes, memory pools) are keyed by it, so that after cudaDeviceReset
  // nothing from the destroyed context is reused.
  uint64_t context_id = 0;
};

// The one launcher signature. A launcher is called only after:
//   - the problem passed validation (sizes, leading dimensions, pointers) and is not a quick return,
//   - m >= 1, n >= 1, k >= 1 and alpha != 0 (alpha == 0 or k == 0 is handled by launch_scale_c),
//   - the config passed validate_config() and fits the device (architecture, shared memory).
// It enqueues its kernel(s) on `stream`, checks the launch, and returns TCGEMM_SUCCESS or a CUDA error
// set through set_cuda_error().
using FamilyLauncher = tcgemm_status (*)(const GemmProblem&, const tcgemm_config&, const DeviceContext&,
                                         cudaStream_t);

// Thread blocks one launch of a family needs along its one-block-per-tile grid dimension, and whether n
// (rather than m) is the size to blame when that exceeds the grid limit (the grid rule, check_grid).
struct GridNeed {
  int64_t blocks;
  bool blame_n;
};

}  // namespace tcgemm::detail
