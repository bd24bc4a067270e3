// The one correctness check of a GEMM result: tcgemm's C against a reference C (cuBLAS DGEMM on the same
// device data, or a host loop for the examples' small problems), computed on the host from the operands
// and the two results. The GPU tests (run_and_check), tcgemm-bench (both modes) and the C++ examples all
// judge a result here, so "correct" means the same thing everywhere. Host only (no CUDA call), so the CPU
// tests check the formula, the NaN rule and the guard rule directly.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace tcgemm::check {

// C <- alpha op(A) op(B) + beta C, column-major, as it was given to tcgemm and to the reference.
// A and B point at element (0,0) of the stored matrices; 'N'/'n' is op(X) = X, any other letter X^T.
struct Gemm {
  char transa = 'N', transb = 'N';
  int64_t m = 0, n = 0, k = 0;
  double alpha = 1.0, beta = 0.0;
  const double* A = nullptr;
  int64_t lda = 1;
  const double* B = nullptr;
  int64_t ldb = 1;
  // The unit of the bound below: FP64's machine epsilon, or a lower precision's accumulator's when both
  // results multiply the same rounded inputs (tcgemm-bench's sweep in F16, BF16 or TF32).
  double eps = std::numeric_limits<double>::epsilon();
};

// Where C lives: a buffer of `size` elements holding C(0,0) at `offset`, with leading dimension ld.
// Every element of the buffer outside the m x n matrix (the rows between m and ld, anything before or
// after) is a guard that the call must leave bit-identical. size < 0 means offset + ld * n.
struct OutputLayout {
  int64_t ld = 1;
  int64_t offset = 0;
  int64_t size = -1;
};

// The bound on |C_ij - R_ij| for one element:
//   2 (k + 1) eps |alpha| ||row_i(op(A))|| ||col_j(op(B))|| + 4 eps |beta C0_ij| + 1e-300
// (eps: Gemm::eps, FP64's machine epsilon unless the caller says otherwise).
// Each result's rounding error is at most about k eps sum_l |a_il b_lj| (the usual dot-product bound), and
// Cauchy-Schwarz bounds that sum by the product of the norms; two results differ by at most twice that,
// and k + 1 leaves room for the alpha scaling. The beta term covers beta C0 rounded in each result; 1e-300
// keeps an all-zero row or column from demanding an exact zero difference.
double tolerance(int64_t k, double alpha, double row_norm, double col_norm, double beta, double c0,
                 double eps = std::numeric_limits<double>::epsilon());

struct Mismatch {
  int64_t i = -1, j = -1;  // 0-based; -1 when there is no element
  double value = 0, reference = 0, diff = 0, tol = 0;
};

struct GuardWrite {
  int64_t index = 0;  // position in the buffer
  double value = 0;
};

// How many mismatches and guard writes a report lists (the counts are always complete).
constexpr size_t kListedProblems = 5;

struct Report {
  int64_t elements = 0;            // m * n
  int64_t outside_tolerance = 0;   // elements whose |C - R| is above the bound or NaN
  int64_t guards_written = 0;      // buffer elements outside C that changed
  double max_abs_err = 0;          // max |C - R|; infinity when a difference is NaN
  double max_err_over_tol = 0;     // max |C - R| / bound; infinity when a difference is NaN
  double max_normwise_err = 0;     // max |C - R| / (|alpha| ||row_i|| ||col_j||); infinity when NaN
  Mismatch worst;                  // the element with the largest |C - R| / bound, within it or not
  std::vector<Mismatch> mismatches;    // the first kListedProblems, in column-major order
  std::vector<GuardWrite> guard_writes;

  bool pass() const { return outside_tolerance == 0 && guards_written == 0; }
  // "3 of 4096 elements outside tolerance, 0 guard elements written", then one line per listed problem:
  // "\n  C(i,j) = v, <reference_name> r, |diff| d > tol t" and "\n  guard element x (outside C) was written: v".
  std::string summary(const std::string& reference_name = "cuBLAS") const;
};

// Compares `result` with `reference`, both whole buffers laid out as `c`. `c_before` is the buffer as it
// was before the call: it gives C0 for the beta term and the guards' values. It may be null when
// beta == 0 and there are no guards to check (C0 is not read when beta == 0, as in BLAS).
Report check_result(const Gemm& gemm, const OutputLayout& c, const double* c_before, const double* result,
                    const double* reference);

// R = alpha op(A) op(B) + beta C0 on the host in plain loops, in a buffer laid out as `c` (elements outside
// the matrix copied from c_before, or zero without it). The reference of the examples' small problems.
std::vector<double> host_gemm(const Gemm& gemm, const OutputLayout& c, const double* c_before);

}  // namespace tcgemm::check
