// libtcgemm_blas's BLAS ABI (cxx/blas/blas_abi.cpp), host side: reference DGEMM's argument checks and XERBLA
// numbering for dgemm_, dgemm_64_ and cblas_dgemm (column- and row-major), quick returns that leave C alone,
// and results against a plain loop. This program defines XERBLA itself, as programs and test suites do: the
// library's weak defaults must give way to it. Without a GPU every call takes the host-BLAS route; the GPU
// route is covered by tests/blas (xblat3d and a Fortran program, preloaded).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

extern "C" {
void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*, const int*,
            const double*, const int*, const double*, double*, const int*, size_t, size_t);
void dgemm_64_(const char*, const char*, const int64_t*, const int64_t*, const int64_t*, const double*,
               const double*, const int64_t*, const double*, const int64_t*, const double*, double*, const int64_t*,
               size_t, size_t);
void cblas_dgemm(int layout, int ta, int tb, int m, int n, int k, double alpha, const double* A, int lda,
                 const double* B, int ldb, double beta, double* C, int ldc);
}

namespace {
struct Captured {
  int calls = 0;
  std::string name;
  int64_t info = 0;
} captured;
}  // namespace

extern "C" {
void xerbla_(const char* srname, const int* info, size_t len) {
  ++captured.calls;
  captured.name.assign(srname, len);
  captured.info = *info;
}
void xerbla_64_(const char* srname, const int64_t* info, size_t len) {
  ++captured.calls;
  captured.name.assign(srname, len);
  captured.info = *info;
}
void cblas_xerbla(int p, const char* rout, const char*, ...) {
  ++captured.calls;
  captured.name = rout;
  captured.info = p;
}
}

namespace {

constexpr int kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112;

void reset() { captured = Captured{}; }

struct Bad {
  char ta, tb;
  int m, n, k, lda, ldb, ldc;
  int info;
};
// Each case breaks exactly the argument reference DGEMM reports.
const Bad kBad[] = {
    {'X', 'N', 2, 2, 2, 2, 2, 2, 1},  {'N', 'q', 2, 2, 2, 2, 2, 2, 2},  {'N', 'N', -1, 2, 2, 2, 2, 2, 3},
    {'N', 'N', 2, -1, 2, 2, 2, 2, 4}, {'N', 'N', 2, 2, -1, 2, 2, 2, 5}, {'N', 'N', 3, 2, 2, 2, 2, 3, 8},
    {'T', 'N', 3, 2, 4, 3, 4, 3, 8},  {'N', 'N', 2, 2, 3, 2, 2, 2, 10}, {'N', 'T', 2, 3, 2, 2, 2, 2, 10},
    {'N', 'N', 3, 2, 2, 3, 2, 2, 13}, {'n', 'c', 2, 2, 2, 2, 1, 2, 10},
};

TEST(BlasAbi, DgemmReportsTheReferenceArgumentToXerbla) {
  std::vector<double> a(64, 1.0), b(64, 1.0), c(64, 7.0);
  const double alpha = 1.0, beta = 0.0;
  for (const Bad& x : kBad) {
    reset();
    dgemm_(&x.ta, &x.tb, &x.m, &x.n, &x.k, &alpha, a.data(), &x.lda, b.data(), &x.ldb, &beta, c.data(), &x.ldc, 1,
           1);
    EXPECT_EQ(captured.calls, 1) << x.info;
    EXPECT_EQ(captured.name, "DGEMM ");
    EXPECT_EQ(captured.info, x.info);
    const int64_t m = x.m, n = x.n, k = x.k, lda = x.lda, ldb = x.ldb, ldc = x.ldc;
    reset();
    dgemm_64_(&x.ta, &x.tb, &m, &n, &k, &alpha, a.data(), &lda, b.data(), &ldb, &beta, c.data(), &ldc, 1, 1);
    EXPECT_EQ(captured.calls, 1);
    EXPECT_EQ(captured.info, x.info);
  }
  for (double v : c) EXPECT_EQ(v, 7.0) << "a rejected call wrote C";
}

TEST(BlasAbi, CblasNumbersArgumentsAsCblasInBothLayouts) {
  std::vector<double> a(64, 1.0), b(64, 1.0), c(64, 7.0);
  struct Case {
    int layout, ta, tb, m, n, k, lda, ldb, ldc, position;
  };
  const Case cases[] = {
      {99, kNoTrans, kNoTrans, 2, 2, 2, 2, 2, 2, 1},        {kColMajor, 7, kNoTrans, 2, 2, 2, 2, 2, 2, 2},
      {kColMajor, kNoTrans, 7, 2, 2, 2, 2, 2, 2, 3},        {kColMajor, kNoTrans, kNoTrans, -1, 2, 2, 2, 2, 2, 4},
      {kColMajor, kNoTrans, kNoTrans, 3, 2, 2, 2, 2, 3, 9}, {kColMajor, kNoTrans, kNoTrans, 2, 2, 3, 2, 2, 2, 11},
      {kColMajor, kNoTrans, kNoTrans, 3, 2, 2, 3, 2, 2, 14},
      // Row-major: lda >= k for A (m x k, row-major, 'N'), ldb >= n, ldc >= n.
      {kRowMajor, kNoTrans, kNoTrans, 2, 3, 4, 3, 3, 3, 9}, {kRowMajor, kNoTrans, kNoTrans, 2, 3, 4, 4, 2, 3, 11},
      {kRowMajor, kNoTrans, kNoTrans, 2, 3, 4, 4, 3, 2, 14}, {kRowMajor, 7, kNoTrans, 2, 3, 4, 4, 3, 3, 2},
      {kRowMajor, kNoTrans, 7, 2, 3, 4, 4, 3, 3, 3},         {kRowMajor, kNoTrans, kNoTrans, -2, 3, 4, 4, 3, 3, 4},
      {kRowMajor, kNoTrans, kNoTrans, 2, -3, 4, 4, 3, 3, 5},
  };
  for (const Case& x : cases) {
    reset();
    cblas_dgemm(x.layout, x.ta, x.tb, x.m, x.n, x.k, 1.0, a.data(), x.lda, b.data(), x.ldb, 0.0, c.data(), x.ldc);
    EXPECT_EQ(captured.calls, 1) << x.position;
    EXPECT_EQ(captured.name, "cblas_dgemm");
    EXPECT_EQ(captured.info, x.position) << "layout " << x.layout;
  }
  for (double v : c) EXPECT_EQ(v, 7.0) << "a rejected call wrote C";
}

TEST(BlasAbi, QuickReturnsLeaveCAndDoNotReadAB) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> a(16, nan), b(16, nan), c(16, 3.0);
  const int two = 2, zero = 0;
  const double alpha0 = 0.0, one = 1.0;
  reset();
  dgemm_("N", "N", &two, &two, &two, &alpha0, a.data(), &two, b.data(), &two, &one, c.data(), &two, 1, 1);
  dgemm_("N", "N", &zero, &two, &two, &one, a.data(), &two, b.data(), &two, &one, c.data(), &two, 1, 1);
  dgemm_("N", "N", &two, &two, &zero, &one, a.data(), &two, b.data(), &two, &one, c.data(), &two, 1, 1);
  EXPECT_EQ(captured.calls, 0);
  for (double v : c) EXPECT_EQ(v, 3.0);
  // alpha = 0, beta = 0: C <- 0 without reading A, B (NaN) or C.
  std::vector<double> cn(4, nan);
  const double beta0 = 0.0;
  dgemm_("N", "N", &two, &two, &two, &alpha0, a.data(), &two, b.data(), &two, &beta0, cn.data(), &two, 1, 1);
  for (double v : cn) EXPECT_EQ(v, 0.0);
}

// op(X)(i, j) of a column-major matrix.
double at(const std::vector<double>& x, int ld, bool trans, int i, int j) {
  return trans ? x[size_t(j) + size_t(i) * ld] : x[size_t(i) + size_t(j) * ld];
}

TEST(BlasAbi, ResultsMatchAPlainLoopInEveryLayoutAndForm) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const int m = 37, n = 23, k = 19;
  for (int layout : {kColMajor, kRowMajor})
    for (int ta : {kNoTrans, kTrans})
      for (int tb : {kNoTrans, kTrans}) {
        // Stored column-major views: row-major storage of X (r x c) is column-major X^T.
        const bool row = layout == kRowMajor;
        const int a_r = (ta == kNoTrans) ? m : k, a_c = (ta == kNoTrans) ? k : m;
        const int b_r = (tb == kNoTrans) ? k : n, b_c = (tb == kNoTrans) ? n : k;
        const int lda = (row ? a_c : a_r) + 2, ldb = (row ? b_c : b_r) + 1, ldc = (row ? n : m) + 3;
        std::vector<double> a(size_t(lda) * (row ? a_r : a_c)), b(size_t(ldb) * (row ? b_r : b_c));
        std::vector<double> c(size_t(ldc) * (row ? m : n));
        for (auto& v : a) v = u(gen);
        for (auto& v : b) v = u(gen);
        for (auto& v : c) v = u(gen);
        const std::vector<double> c0 = c;
        const double alpha = 0.75, beta = -0.5;
        cblas_dgemm(layout, ta, tb, m, n, k, alpha, a.data(), lda, b.data(), ldb, beta, c.data(), ldc);
        double worst = 0;
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < n; ++j) {
            double s = 0;
            for (int l = 0; l < k; ++l) {
              // Element (i, l) of op(A) in the given layout.
              // Row-major X(r, c) is x[r * ld + c], the column-major element (c, r).
              const double av = row ? (ta == kNoTrans ? at(a, lda, false, l, i) : at(a, lda, false, i, l))
                                    : at(a, lda, ta != kNoTrans, i, l);
              const double bv = row ? (tb == kNoTrans ? at(b, ldb, false, j, l) : at(b, ldb, false, l, j))
                                    : at(b, ldb, tb != kNoTrans, l, j);
              s += av * bv;
            }
            const size_t ci = row ? size_t(j) + size_t(i) * ldc : size_t(i) + size_t(j) * ldc;
            worst = std::fmax(worst, std::fabs(c[ci] - (alpha * s + beta * c0[ci])));
          }
        EXPECT_LT(worst, 1e-12) << "layout " << layout << " ta " << ta << " tb " << tb;
      }
}

}  // namespace
