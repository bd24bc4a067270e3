// Host BLAS fallback (host_blas.hpp).
#include "host_blas.hpp"

#include <dlfcn.h>

#include <climits>
#include <cstdio>
#include <cstdlib>

extern "C" void dgemm_(const char*, const char*, const int*, const int*, const int*, const double*, const double*,
                       const int*, const double*, const int*, const double*, double*, const int*, size_t, size_t);
extern "C" void dgemm_64_(const char*, const char*, const int64_t*, const int64_t*, const int64_t*, const double*,
                          const double*, const int64_t*, const double*, const int64_t*, const double*, double*,
                          const int64_t*, size_t, size_t);

namespace tcgemm::blas {
namespace {

using Dgemm32 = decltype(&dgemm_);
using Dgemm64 = decltype(&dgemm_64_);

struct Fallback {
  Dgemm32 lp64 = nullptr;
  Dgemm64 ilp64 = nullptr;
  const char* name = "built-in loop";
};

// dlsym of `symbol` in `lib`, refusing this library's own entry point (TCGEMM_BLAS_FALLBACK pointing at
// libtcgemm_blas, or a preloaded libtcgemm_blas found first, would recurse forever).
void* find_symbol(const char* lib, const char* symbol, void* own) {
  void* handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!handle) return nullptr;
  void* f = dlsym(handle, symbol);
  return f == own ? nullptr : f;
}

const Fallback& fallback() {
  static const Fallback fb = [] {
    Fallback f;
    const char* chosen = std::getenv("TCGEMM_BLAS_FALLBACK");
    const char* lp64_lib = chosen && *chosen ? chosen : "libblas.so.3";
    const char* ilp64_lib = chosen && *chosen ? chosen : "libblas64.so.3";
    f.lp64 = reinterpret_cast<Dgemm32>(find_symbol(lp64_lib, "dgemm_", reinterpret_cast<void*>(&dgemm_)));
    f.ilp64 = reinterpret_cast<Dgemm64>(find_symbol(ilp64_lib, "dgemm_64_", reinterpret_cast<void*>(&dgemm_64_)));
    if (f.lp64 || f.ilp64) f.name = f.lp64 ? lp64_lib : ilp64_lib;
    else
      std::fprintf(stderr,
                   "tcgemm_blas: no host BLAS could be loaded (%s); host-routed DGEMM calls use a plain loop. "
                   "Set TCGEMM_BLAS_FALLBACK=/path/to/libblas.so\n",
                   lp64_lib);
    return f;
  }();
  return fb;
}

bool fits_int(int64_t v) { return v >= INT_MIN && v <= INT_MAX; }

// Last resort: the reference triple loop (column-major, BLAS semantics; beta == 0 does not read C).
void loop_dgemm(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, const double* A, int64_t lda,
                const double* B, int64_t ldb, double beta, double* C, int64_t ldc) {
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < m; ++i) C[i + j * ldc] = beta == 0.0 ? 0.0 : beta * C[i + j * ldc];
    if (alpha == 0.0) continue;
    for (int64_t l = 0; l < k; ++l) {
      const double b = tb == 'N' ? B[l + j * ldb] : B[j + l * ldb];
      const double t = alpha * b;
      for (int64_t i = 0; i < m; ++i) C[i + j * ldc] += t * (ta == 'N' ? A[i + l * lda] : A[l + i * lda]);
    }
  }
}

}  // namespace

void host_dgemm(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, const double* A, int64_t lda,
                const double* B, int64_t ldb, double beta, double* C, int64_t ldc) {
  const Fallback& f = fallback();
  if (f.lp64 && fits_int(m) && fits_int(n) && fits_int(k) && fits_int(lda) && fits_int(ldb) && fits_int(ldc)) {
    const int im = int(m), in = int(n), ik = int(k), ilda = int(lda), ildb = int(ldb), ildc = int(ldc);
    f.lp64(&ta, &tb, &im, &in, &ik, &alpha, A, &ilda, B, &ildb, &beta, C, &ildc, 1, 1);
    return;
  }
  if (f.ilp64) {
    f.ilp64(&ta, &tb, &m, &n, &k, &alpha, A, &lda, B, &ldb, &beta, C, &ldc, 1, 1);
    return;
  }
  loop_dgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

const char* host_blas_name() { return fallback().name; }

}  // namespace tcgemm::blas
