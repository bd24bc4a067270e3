// libtcgemm_blas: the BLAS ABI entry points of tcgemm's DGEMM, for unmodified programs (link with
// -ltcgemm_blas before -lblas, or LD_PRELOAD=libtcgemm_blas.so).
//   dgemm_      Fortran ABI, LP64 (32-bit INTEGER), gfortran's hidden CHARACTER lengths at the end;
//   dgemm_64_   the same with 64-bit INTEGER (codes built with -fdefault-integer-8), the suffix convention of
//               64-bit-integer BLAS builds (Debian's libblas64, OpenBLAS INTERFACE64 with SYMBOLSUFFIX);
//   cblas_dgemm the C interface (row- or column-major).
// Reference-BLAS behaviour: arguments are checked in the reference order and a bad one calls the program's
// XERBLA (xerbla_, xerbla_64_, cblas_xerbla) with the reference numbering; this library's defaults are weak
// and print the reference message and return (as OpenBLAS and MKL do); quick returns as the reference.
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "route.hpp"

// The library is built with hidden visibility; only the BLAS entry points and XERBLA defaults are exported.
#define TCGEMM_BLAS_EXPORT __attribute__((visibility("default")))

extern "C" {

TCGEMM_BLAS_EXPORT __attribute__((weak)) void xerbla_(const char* srname, const int* info, size_t srname_len) {
  std::fprintf(stderr, " ** On entry to %.*s parameter number %2d had an illegal value\n",
               static_cast<int>(srname_len), srname, *info);
}

TCGEMM_BLAS_EXPORT __attribute__((weak)) void xerbla_64_(const char* srname, const int64_t* info, size_t srname_len) {
  std::fprintf(stderr, " ** On entry to %.*s parameter number %2lld had an illegal value\n",
               static_cast<int>(srname_len), srname, static_cast<long long>(*info));
}

TCGEMM_BLAS_EXPORT __attribute__((weak)) void cblas_xerbla(int p, const char* rout, const char* form, ...) {
  (void)form;
  std::fprintf(stderr, "Parameter %d to routine %s was incorrect\n", p, rout);
}

}  // extern "C"

namespace {

using tcgemm::blas::DgemmCall;

bool is(char c, char upper) { return c == upper || c == upper + ('a' - 'A'); }
bool trans_ok(char c) { return is(c, 'N') || is(c, 'T') || is(c, 'C'); }
int64_t max1(int64_t v) { return v > 1 ? v : 1; }

// Reference DGEMM's checks, in its order: the INFO of the first failure, 0 when all pass.
int64_t reference_info(char ta, char tb, int64_t m, int64_t n, int64_t k, int64_t lda, int64_t ldb, int64_t ldc) {
  const int64_t nrowa = is(ta, 'N') ? m : k, nrowb = is(tb, 'N') ? k : n;
  if (!trans_ok(ta)) return 1;
  if (!trans_ok(tb)) return 2;
  if (m < 0) return 3;
  if (n < 0) return 4;
  if (k < 0) return 5;
  if (lda < max1(nrowa)) return 8;
  if (ldb < max1(nrowb)) return 10;
  if (ldc < max1(m)) return 13;
  return 0;
}

// After the checks: reference quick returns, else run.
void dgemm_checked(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, const double* A, int64_t lda,
                   const double* B, int64_t ldb, double beta, double* C, int64_t ldc, const char* entry) {
  if (m == 0 || n == 0 || ((alpha == 0.0 || k == 0) && beta == 1.0)) return;
  const DgemmCall call{is(ta, 'N') ? 'N' : 'T', is(tb, 'N') ? 'N' : 'T', m, n, k, alpha, A, lda, B, ldb, beta, C,
                       ldc};
  tcgemm::blas::run_dgemm(call, entry);
}

constexpr char kName[] = "DGEMM ";  // XERBLA's SRNAME, blank-padded as reference BLAS passes it

}  // namespace

extern "C" {

TCGEMM_BLAS_EXPORT void dgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
            const double* A, const int* lda, const double* B, const int* ldb, const double* beta, double* C,
            const int* ldc, size_t transa_len, size_t transb_len) {
  (void)transa_len;
  (void)transb_len;
  const int64_t info = reference_info(*transa, *transb, *m, *n, *k, *lda, *ldb, *ldc);
  if (info != 0) {
    const int info32 = static_cast<int>(info);
    xerbla_(kName, &info32, sizeof kName - 1);
    return;
  }
  dgemm_checked(*transa, *transb, *m, *n, *k, *alpha, A, *lda, B, *ldb, *beta, C, *ldc, "dgemm_");
}

TCGEMM_BLAS_EXPORT void dgemm_64_(const char* transa, const char* transb, const int64_t* m, const int64_t* n, const int64_t* k,
               const double* alpha, const double* A, const int64_t* lda, const double* B, const int64_t* ldb,
               const double* beta, double* C, const int64_t* ldc, size_t transa_len, size_t transb_len) {
  (void)transa_len;
  (void)transb_len;
  const int64_t info = reference_info(*transa, *transb, *m, *n, *k, *lda, *ldb, *ldc);
  if (info != 0) {
    xerbla_64_(kName, &info, sizeof kName - 1);
    return;
  }
  dgemm_checked(*transa, *transb, *m, *n, *k, *alpha, A, *lda, B, *ldb, *beta, C, *ldc, "dgemm_64_");
}

// CBLAS enums (cblas.h values).
enum { kRowMajor = 101, kColMajor = 102, kNoTrans = 111, kTrans = 112, kConjTrans = 113 };

TCGEMM_BLAS_EXPORT void cblas_dgemm(int layout, int trans_a, int trans_b, int M, int N, int K, double alpha, const double* A, int lda,
                 const double* B, int ldb, double beta, double* C, int ldc) {
  auto flag = [](int t) { return t == kNoTrans ? 'N' : (t == kTrans || t == kConjTrans) ? 'T' : '?'; };
  const char ta = flag(trans_a), tb = flag(trans_b);
  if (layout != kColMajor && layout != kRowMajor) {
    cblas_xerbla(1, "cblas_dgemm", "Illegal layout setting, %d\n", layout);
    return;
  }
  // Column-major: the Fortran call itself. Row-major: C^T = op(B)^T op(A)^T, the column-major product with
  // the operands (and m, n) swapped. INFO positions of that Fortran call, mapped to cblas_dgemm's
  // (1 layout, 2 TransA, 3 TransB, 4 M, 5 N, 6 K, 7 alpha, 8 A, 9 lda, 10 B, 11 ldb, 12 beta, 13 C, 14 ldc).
  const bool col = layout == kColMajor;
  const int64_t info = col ? reference_info(ta, tb, M, N, K, lda, ldb, ldc)
                           : reference_info(tb, ta, N, M, K, ldb, lda, ldc);
  if (info != 0) {
    static const int kColPos[] = {0, 2, 3, 4, 5, 6, 0, 0, 9, 0, 11, 0, 0, 14};
    static const int kRowPos[] = {0, 3, 2, 5, 4, 6, 0, 0, 11, 0, 9, 0, 0, 14};
    cblas_xerbla(col ? kColPos[info] : kRowPos[info], "cblas_dgemm", "");
    return;
  }
  if (col) dgemm_checked(ta, tb, M, N, K, alpha, A, lda, B, ldb, beta, C, ldc, "cblas_dgemm");
  else dgemm_checked(tb, ta, N, M, K, alpha, B, ldb, A, lda, beta, C, ldc, "cblas_dgemm");
}

}  // extern "C"
