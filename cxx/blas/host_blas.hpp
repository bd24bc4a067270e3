// The host BLAS that libtcgemm_blas forwards to when the GPU cannot win a call or is not there: loaded with
// dlopen on first use. TCGEMM_BLAS_FALLBACK names the library (default: the system's libblas.so.3 for
// dgemm_, libblas64.so.3 for dgemm_64_); if none can be loaded, a plain loop computes the product (correct,
// slow, and announced once on stderr).
#pragma once

#include <cstdint>

namespace tcgemm::blas {

// C <- alpha op(A) op(B) + beta C on the host, arguments already checked (reference-BLAS rules).
void host_dgemm(char transa, char transb, int64_t m, int64_t n, int64_t k, double alpha, const double* A,
                int64_t lda, const double* B, int64_t ldb, double beta, double* C, int64_t ldc);
// The library host_dgemm uses ("libblas.so.3", a path, or "built-in loop").
const char* host_blas_name();

}  // namespace tcgemm::blas
