// Start here: tcgemm_dgemm used like BLAS DGEMM, C <- alpha op(A) op(B) + beta C, on device memory.
//
//   tcgemm-example-dgemm_blas [--m M] [--n N] [--k K] [--transa N|T] [--transb N|T] [--alpha X] [--beta Y]
//                             [--tile T --tile-k TK --pad-a P --pad-b P --stages S]   (optional: shared_ab config)
//
// Matrices are column-major (Fortran order) with leading dimensions, exactly as in reference BLAS; the result
// is checked against a plain host triple loop by the shared check (bench/check/reference_check.hpp). Without
// tile options the library picks the kernel for this GPU (tcgemm_dgemm); with them the call goes to
// tcgemm_dgemm_config with an explicit shared_ab configuration.
// At the end the program shows what an invalid argument looks like (nothing is launched, C is untouched).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "example_util.hpp"
#include "tcgemm/tcgemm.h"

namespace {

struct Args {
  int64_t m = 500, n = 400, k = 300;
  char transa = 'N', transb = 'T';
  double alpha = 1.5, beta = 0.5;
  int tile = 0, tile_k = 0, pad_a = -1, pad_b = -1, stages = 0;  // 0 / -1: not given
};

Args parse(int argc, char** argv) {
  Args a;
  if (argc % 2 == 0) {
    std::fprintf(stderr, "option %s needs a value\n", argv[argc - 1]);
    std::exit(2);
  }
  for (int i = 1; i + 1 < argc; i += 2) {
    const char* o = argv[i];
    const char* v = argv[i + 1];
    if (!std::strcmp(o, "--m")) a.m = std::atoll(v);
    else if (!std::strcmp(o, "--n")) a.n = std::atoll(v);
    else if (!std::strcmp(o, "--k")) a.k = std::atoll(v);
    else if (!std::strcmp(o, "--transa")) a.transa = v[0];
    else if (!std::strcmp(o, "--transb")) a.transb = v[0];
    else if (!std::strcmp(o, "--alpha")) a.alpha = std::atof(v);
    else if (!std::strcmp(o, "--beta")) a.beta = std::atof(v);
    else if (!std::strcmp(o, "--tile")) a.tile = std::atoi(v);
    else if (!std::strcmp(o, "--tile-k")) a.tile_k = std::atoi(v);
    else if (!std::strcmp(o, "--pad-a")) a.pad_a = std::atoi(v);
    else if (!std::strcmp(o, "--pad-b")) a.pad_b = std::atoi(v);
    else if (!std::strcmp(o, "--stages")) a.stages = std::atoi(v);
    else {
      std::fprintf(stderr, "unknown option %s\n", o);
      std::exit(2);
    }
  }
  return a;
}

bool transposed(char t) { return t == 'T' || t == 't' || t == 'C' || t == 'c'; }

}  // namespace

int main(int argc, char** argv) {
  const Args a = parse(argc, argv);
  const bool ta = transposed(a.transa), tb = transposed(a.transb);

  // Stored shapes: op(A) is m x k, so A is m x k ('N') or k x m ('T'); likewise B is k x n or n x k.
  const int64_t a_rows = ta ? a.k : a.m, a_cols = ta ? a.m : a.k;
  const int64_t b_rows = tb ? a.n : a.k, b_cols = tb ? a.k : a.n;
  const int64_t lda = std::max<int64_t>(1, a_rows), ldb = std::max<int64_t>(1, b_rows), ldc = std::max<int64_t>(1, a.m);
  std::vector<double> hA(size_t(lda * a_cols)), hB(size_t(ldb * b_cols)), hC(size_t(ldc * a.n));
  std::mt19937_64 gen(7);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  for (auto& x : hA) x = dist(gen);
  for (auto& x : hB) x = dist(gen);
  for (auto& x : hC) x = dist(gen);

  // Ask tcgemm for the device first: without one, this says "no CUDA device is available" rather than
  // failing in the first cudaMalloc.
  tcgemm_device_info info;
  EXAMPLE_TCGEMM_CHECK(tcgemm_device_info_get(-1, &info));
  std::printf(" Device: %s\n", info.name);

  double *dA, *dB, *dC;
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dA, std::max<size_t>(1, hA.size()) * sizeof(double)));
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dB, std::max<size_t>(1, hB.size()) * sizeof(double)));
  EXAMPLE_CUDA_CHECK(cudaMalloc(&dC, std::max<size_t>(1, hC.size()) * sizeof(double)));
  EXAMPLE_CUDA_CHECK(cudaMemcpy(dA, hA.data(), hA.size() * sizeof(double), cudaMemcpyHostToDevice));
  EXAMPLE_CUDA_CHECK(cudaMemcpy(dB, hB.data(), hB.size() * sizeof(double), cudaMemcpyHostToDevice));
  EXAMPLE_CUDA_CHECK(cudaMemcpy(dC, hC.data(), hC.size() * sizeof(double), cudaMemcpyHostToDevice));

  std::printf(" C <- %g op(A) op(B) + %g C, transa = %c, transb = %c\n", a.alpha, a.beta, a.transa, a.transb);
  std::printf(" M = %lld, N = %lld, K = %lld, lda = %lld, ldb = %lld, ldc = %lld\n", (long long)a.m, (long long)a.n,
              (long long)a.k, (long long)lda, (long long)ldb, (long long)ldc);

  const bool explicit_config = a.tile || a.tile_k || a.pad_a >= 0 || a.pad_b >= 0 || a.stages;
  tcgemm_config cfg{};
  if (explicit_config) {
    cfg.family = TCGEMM_FAMILY_SHARED_AB;
    cfg.tile_m = a.tile;  // 0 = the family's default
    cfg.tile_k = a.tile_k;
    cfg.pad_a = std::max(a.pad_a, 0);
    cfg.pad_b = std::max(a.pad_b, 0);
    cfg.stages = a.stages;
    EXAMPLE_TCGEMM_CHECK(tcgemm_config_check_device(&cfg, -1));
    std::printf(" kernel: shared_ab, tile %d, tile_k %d, padding A %d, B %d, stages %d (explicit)\n", cfg.tile_m,
                cfg.tile_k, cfg.pad_a, cfg.pad_b, cfg.stages);
    EXAMPLE_TCGEMM_CHECK(tcgemm_dgemm_config(&cfg, a.transa, a.transb, a.m, a.n, a.k, a.alpha, dA, lda, dB, ldb, a.beta, dC,
                                     ldc, nullptr));
  } else {
    EXAMPLE_TCGEMM_CHECK(tcgemm_dgemm_select_config(-1, &cfg));
    std::printf(" kernel: family %d, tile %dx%dx%d, stages %d (chosen by tcgemm_dgemm for this device)\n", cfg.family,
                cfg.tile_m, cfg.tile_n, cfg.tile_k, cfg.stages);
    EXAMPLE_TCGEMM_CHECK(tcgemm_dgemm(a.transa, a.transb, a.m, a.n, a.k, a.alpha, dA, lda, dB, ldb, a.beta, dC, ldc, nullptr));
  }
  EXAMPLE_TCGEMM_CHECK(tcgemm_synchronize(nullptr));
  std::vector<double> result(hC.size());
  EXAMPLE_CUDA_CHECK(cudaMemcpy(result.data(), dC, result.size() * sizeof(double), cudaMemcpyDeviceToHost));

  // Host reference (plain loops), judged by the shared check: the same tolerance as the tests and the benchmark.
  const tcgemm::check::Gemm gemm{a.transa, a.transb, a.m, a.n, a.k, a.alpha, a.beta, hA.data(), lda, hB.data(), ldb};
  const std::vector<double> reference = tcgemm::check::host_gemm(gemm, tcgemm::check::OutputLayout{ldc}, hC.data());
  const bool ok = example::check_result(gemm, ldc, result, reference, "host", &hC);
  std::printf(" Test %s\n", ok ? "passed" : "FAILED");

  // Errors are reported like BLAS's XERBLA: by argument position and rule, before anything runs on the GPU.
  const tcgemm_status st =
      tcgemm_dgemm(a.transa, a.transb, a.m, a.n, a.k, a.alpha, dA, lda - 1, dB, ldb, a.beta, dC, ldc, nullptr);
  std::printf("\n An invalid call (lda one too small) returns %s:\n   %s\n", tcgemm_status_string(st),
              tcgemm_last_error());

  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  return ok ? 0 : 1;
}
