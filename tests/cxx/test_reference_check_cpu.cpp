// CPU tests of the one reference check (bench/check/reference_check.hpp) that the GPU tests, tcgemm-bench
// and the examples use: the tolerance formula, transposed operands, alpha and beta, the NaN rule, the
// guard rule, the report's text, and the host reference of the examples.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "gpu_test_util.hpp"  // random_matrix; host only here
#include "reference_check.hpp"

namespace tcgemm::check {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// count values uniform in [-1, 1), as the GPU tests make their operands.
std::vector<double> random_values(int64_t count, uint64_t seed) { return test::random_matrix(count, 1, count, seed); }

TEST(ReferenceCheck, ToleranceFormula) {
  // 2 (k + 1) eps |alpha| ||row|| ||col|| + 4 eps |beta c0| + 1e-300
  EXPECT_DOUBLE_EQ(tolerance(7, -2.0, 3.0, 0.5, 0.5, -4.0),
                   2.0 * 8 * kEps * 2.0 * 3.0 * 0.5 + 4.0 * kEps * 2.0 + 1e-300);
  EXPECT_EQ(tolerance(0, 1.0, 0.0, 0.0, 0.0, 0.0), 1e-300);  // an empty sum must match exactly (almost)
}

// The worked case: A 5x7, B 7x4, alpha 1, beta 0; an exact copy passes, a change far beyond the bound fails
// at that element, and a NaN fails.
TEST(ReferenceCheck, FindsTheWrongElement) {
  const int64_t m = 5, n = 4, k = 7;
  const std::vector<double> A = random_values(m * k, 3), B = random_values(k * n, 4);
  const Gemm g{'N', 'N', m, n, k, 1.0, 0.0, A.data(), m, B.data(), k};
  const std::vector<double> R = host_gemm(g, OutputLayout{m}, nullptr);
  std::vector<double> C = R;
  Report ok = check_result(g, OutputLayout{m}, nullptr, C.data(), R.data());
  EXPECT_TRUE(ok.pass());
  EXPECT_EQ(ok.elements, 20);
  EXPECT_EQ(ok.max_abs_err, 0.0);
  EXPECT_EQ(ok.max_normwise_err, 0.0);

  C[2 + 3 * m] += 1e-6;
  const Report bad = check_result(g, OutputLayout{m}, nullptr, C.data(), R.data());
  EXPECT_FALSE(bad.pass());
  EXPECT_EQ(bad.outside_tolerance, 1);
  EXPECT_EQ(bad.worst.i, 2);
  EXPECT_EQ(bad.worst.j, 3);
  EXPECT_NEAR(bad.max_abs_err, 1e-6, 1e-15);
  EXPECT_GT(bad.max_err_over_tol, 1.0);
  ASSERT_EQ(bad.mismatches.size(), 1u);
  EXPECT_EQ(bad.mismatches[0].i, 2);

  C = R;
  C[0] = std::nan("");  // e.g. a poisoned element the kernel never wrote
  const Report nan = check_result(g, OutputLayout{m}, nullptr, C.data(), R.data());
  EXPECT_FALSE(nan.pass());
  EXPECT_TRUE(std::isinf(nan.max_abs_err));
  EXPECT_TRUE(std::isinf(nan.max_err_over_tol));
  EXPECT_EQ(nan.worst.i, 0);
  std::vector<double> both_nan = R;
  both_nan[0] = std::nan("");
  EXPECT_FALSE(check_result(g, OutputLayout{m}, nullptr, C.data(), both_nan.data()).pass()) << "NaN == NaN fails too";
}

// op(A) = A^T and op(B) = B^T: the norms are those of op(A)'s rows and op(B)'s columns, scaled by |alpha|,
// and beta adds 4 eps |beta C0|. A difference just inside the bound passes, just outside fails.
TEST(ReferenceCheck, TransposedOperandsAlphaAndBeta) {
  const int64_t m = 3, n = 2, k = 4, lda = k + 1, ldb = n + 2;  // A stored k x m, B stored n x k
  const std::vector<double> A = random_values(lda * m, 5), B = random_values(ldb * k, 6);
  const std::vector<double> C0 = random_values(m * n, 7);
  const double alpha = -1.5, beta = 0.25;
  const Gemm g{'T', 't', m, n, k, alpha, beta, A.data(), lda, B.data(), ldb};
  const std::vector<double> R = host_gemm(g, OutputLayout{m}, C0.data());

  // Element (1, 1) by hand.
  double sum = 0, row = 0, col = 0;
  for (int64_t l = 0; l < k; ++l) {
    const double a = A[size_t(l + 1 * lda)], b = B[size_t(1 + l * ldb)];  // op(A)(1,l), op(B)(l,1)
    sum += a * b;
    row += a * a;
    col += b * b;
  }
  const size_t idx = 1 + 1 * m;
  EXPECT_NEAR(R[idx], alpha * sum + beta * C0[idx], 1e-15);
  const double tol = tolerance(k, alpha, std::sqrt(row), std::sqrt(col), beta, C0[idx]);

  std::vector<double> C = R;
  C[idx] = R[idx] + 0.99 * tol;
  EXPECT_TRUE(check_result(g, OutputLayout{m}, C0.data(), C.data(), R.data()).pass());
  C[idx] = R[idx] + 1.01 * tol;
  const Report r = check_result(g, OutputLayout{m}, C0.data(), C.data(), R.data());
  EXPECT_FALSE(r.pass());
  ASSERT_EQ(r.mismatches.size(), 1u);
  EXPECT_DOUBLE_EQ(r.mismatches[0].tol, tol);
  EXPECT_THROW(check_result(g, OutputLayout{m}, nullptr, C.data(), R.data()), std::invalid_argument)
      << "beta != 0 needs C0";
}

// beta == 0: C0 is not read (it may be NaN poison), as in BLAS.
TEST(ReferenceCheck, BetaZeroIgnoresPoisonedC0) {
  const int64_t m = 2, n = 2, k = 3;
  const std::vector<double> A = random_values(m * k, 8), B = random_values(k * n, 9);
  const Gemm g{'N', 'N', m, n, k, 2.0, 0.0, A.data(), m, B.data(), k};
  const std::vector<double> poison(m * n, std::nan(""));
  const std::vector<double> R = host_gemm(g, OutputLayout{m}, poison.data());
  for (double x : R) EXPECT_FALSE(std::isnan(x));
  EXPECT_TRUE(check_result(g, OutputLayout{m}, poison.data(), R.data(), R.data()).pass());
}

// Every buffer element outside the m x n matrix (before it, padding rows, after it) must keep its bits.
TEST(ReferenceCheck, GuardsMustStayBitIdentical) {
  const int64_t m = 3, n = 2, k = 2, ld = 5, offset = 4, size = offset + ld * n + 6;
  const std::vector<double> A = random_values(m * k, 10), B = random_values(k * n, 11);
  const Gemm g{'N', 'N', m, n, k, 1.0, 0.0, A.data(), m, B.data(), k};
  const OutputLayout layout{ld, offset, size};
  std::vector<double> before(size_t(size), std::nan(""));  // guards: NaN, compared bit for bit
  const std::vector<double> R = host_gemm(g, layout, before.data());
  ASSERT_EQ(R.size(), size_t(size));
  EXPECT_TRUE(check_result(g, layout, before.data(), R.data(), R.data()).pass());

  std::vector<double> C = R;
  C[0] = 1.0;                     // before C(0,0)
  C[size_t(offset + 3)] = 2.0;    // row 3 of column 0: padding between m and ld
  C[size_t(offset + ld + 4)] = -std::nan("");  // padding of the last column: a NaN of another sign
  C[size_t(size - 1)] = 3.0;      // after the matrix
  const Report r = check_result(g, layout, before.data(), C.data(), R.data());
  EXPECT_FALSE(r.pass());
  EXPECT_EQ(r.outside_tolerance, 0);
  EXPECT_EQ(r.guards_written, 4);
  ASSERT_EQ(r.guard_writes.size(), 4u);
  EXPECT_EQ(r.guard_writes[0].index, 0);
  EXPECT_EQ(r.guard_writes[1].index, offset + 3);
  EXPECT_EQ(r.guard_writes[2].index, offset + ld + 4);
  EXPECT_EQ(r.guard_writes[3].index, size - 1);
  // Without C as it was before, there is nothing to compare the guards with.
  EXPECT_TRUE(check_result(g, layout, nullptr, C.data(), R.data()).pass());
}

TEST(ReferenceCheck, EmptyMatrixHasOnlyGuards) {
  const Gemm g{'N', 'N', 0, 2, 3, 1.0, 0.0, nullptr, 1, nullptr, 3};
  const std::vector<double> before(4, 0.5);
  std::vector<double> C = before;
  EXPECT_TRUE(check_result(g, OutputLayout{2}, before.data(), C.data(), C.data()).pass());
  C[3] = 0.0;
  const Report r = check_result(g, OutputLayout{2}, before.data(), C.data(), C.data());
  EXPECT_EQ(r.elements, 0);
  EXPECT_EQ(r.guards_written, 1);
}

TEST(ReferenceCheck, SummaryListsTheFirstProblems) {
  const int64_t m = 4, n = 2, k = 1;
  const std::vector<double> A(m * k, 1.0), B(k * n, 1.0);
  const Gemm g{'N', 'N', m, n, k, 1.0, 0.0, A.data(), m, B.data(), k};
  const OutputLayout layout{m + 1, 0, (m + 1) * n};
  const std::vector<double> before(size_t((m + 1) * n), 0.0);
  std::vector<double> R = host_gemm(g, layout, before.data()), C = R;
  for (int64_t i = 0; i < m; ++i) C[size_t(i)] = 2.0;            // 4 elements in column 0 off by 1
  for (int64_t i = 0; i < m; ++i) C[size_t(m + 1 + i)] = 1.5;    // 4 in column 1 off by 0.5
  C[size_t(m)] = 9.0;                                           // the padding row of column 0
  const Report r = check_result(g, layout, before.data(), C.data(), R.data());
  EXPECT_EQ(r.outside_tolerance, 8);
  EXPECT_EQ(r.mismatches.size(), kListedProblems);
  EXPECT_EQ(r.worst.i, 0);  // the first of the largest errors
  EXPECT_EQ(r.worst.j, 0);
  const std::string s = r.summary("host");
  EXPECT_EQ(s.rfind("8 of 8 elements outside tolerance, 1 guard elements written\n"
                    "  C(0,0) = 2, host 1, |diff| 1 > tol ",
                    0),
            0u)
      << s;
  EXPECT_NE(s.find("\n  C(0,1) = 1.5, host 1, |diff| 0.5 > tol "), std::string::npos) << s;
  EXPECT_EQ(s.find("C(1,1)"), std::string::npos) << "only the first " << kListedProblems << " are listed: " << s;
  EXPECT_NE(s.find("\n  guard element 4 (outside C) was written: 9"), std::string::npos) << s;
}

}  // namespace
}  // namespace tcgemm::check
