// tcgemm-lowp-accuracy: the measured error of tcgemm_sgemm in each precision, for the README's table.
// FP32 inputs uniform in [-1, 1) (unit scale, as a Fortran real(4) code would hold them), m = n (default 1024)
// and several k; each product against an FP64 reference (cublasDgemm on the same values widened to double,
// exact inputs, error far below the lower precisions'). Reported per precision and k:
//   normwise  ||C - C_ref||_F / ||C_ref||_F
//   max       max_ij |C - C_ref|_ij / (|A| |B|)_ij   (the elementwise error against the bound's scale)
// and the format's unit roundoff u for comparison. One process, fresh random data per k.
//   tcgemm-lowp-accuracy [--n 1024] [--ks 64,256,1024,4096,16384]
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "tcgemm/tcgemm.h"
#include "timing.hpp"

namespace {

using tcgemm::bench::cuda_check;

template <class T>
T* device_copy(const std::vector<T>& h) {
  T* d = nullptr;
  cuda_check(cudaMalloc(&d, h.size() * sizeof(T)), "cudaMalloc");
  cuda_check(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), "H2D");
  return d;
}

template <class T>
std::vector<T> host_copy(const T* d, size_t n) {
  std::vector<T> h(n);
  cuda_check(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost), "D2H");
  return h;
}

void cublas_check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s failed (%d)\n", what, int(s));
    std::exit(1);
  }
}

int run(int argc, char** argv) {
  int64_t n = 1024;
  std::vector<int64_t> ks = {64, 256, 1024, 4096, 16384};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--n" && i + 1 < argc) {
      n = std::strtoll(argv[++i], nullptr, 10);
    } else if (a == "--ks" && i + 1 < argc) {
      ks.clear();
      for (char* s = argv[++i]; *s;) {
        ks.push_back(std::strtoll(s, &s, 10));
        if (*s == ',') ++s;
      }
    } else {
      std::fprintf(stderr, "usage: tcgemm-lowp-accuracy [--n 1024] [--ks 64,256,1024,4096,16384]\n");
      return 2;
    }
  }
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  cublasHandle_t h = nullptr;
  cublas_check(cublasCreate(&h), "cublasCreate");
  struct Precision {
    const char* name;
    int32_t id;
    double u;
  };
  const Precision precisions[] = {{"tf32", TCGEMM_PRECISION_TF32, std::ldexp(1.0, -11)},
                                  {"fp16", TCGEMM_PRECISION_FP16, std::ldexp(1.0, -11)},
                                  {"bf16", TCGEMM_PRECISION_BF16, std::ldexp(1.0, -8)},
                                  {"fp32", TCGEMM_PRECISION_FP32, std::ldexp(1.0, -24)}};
  std::printf("# device %s; tcgemm_sgemm('N', 'N', %lld, %lld, k), inputs uniform in [-1, 1), beta = 0; reference:\n"
              "# cublasDgemm on the same values in FP64. normwise = ||C - ref||_F / ||ref||_F; max = max |C - ref| / "
              "(|A||B|); u = the inputs' unit roundoff\n",
              prop.name, static_cast<long long>(n), static_cast<long long>(n));
  std::printf("%-6s %7s %11s %11s %11s\n", "prec", "k", "normwise", "max", "u");
  std::mt19937_64 rng(2026);
  std::uniform_real_distribution<float> uni(-1.0f, 1.0f);
  for (const int64_t k : ks) {
    std::vector<float> a(size_t(n * k)), b(size_t(k * n));
    for (float& v : a) v = uni(rng);
    for (float& v : b) v = uni(rng);
    std::vector<double> a64(a.begin(), a.end()), b64(b.begin(), b.end()), abs_a(a.size()), abs_b(b.size());
    for (size_t i = 0; i < a.size(); ++i) abs_a[i] = std::fabs(a64[i]);
    for (size_t i = 0; i < b.size(); ++i) abs_b[i] = std::fabs(b64[i]);
    float* da = device_copy(a);
    float* db = device_copy(b);
    double* da64 = device_copy(a64);
    double* db64 = device_copy(b64);
    double* dabs_a = device_copy(abs_a);
    double* dabs_b = device_copy(abs_b);
    double *dref = nullptr, *dscale = nullptr;
    float* dc = nullptr;
    cuda_check(cudaMalloc(&dref, size_t(n * n) * 8), "cudaMalloc");
    cuda_check(cudaMalloc(&dscale, size_t(n * n) * 8), "cudaMalloc");
    cuda_check(cudaMalloc(&dc, size_t(n * n) * 4), "cudaMalloc");
    const double one = 1.0, zero = 0.0;
    const int in = int(n), ik = int(k);
    cublas_check(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, in, in, ik, &one, da64, in, db64, ik, &zero, dref, in),
                 "cublasDgemm");
    cublas_check(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, in, in, ik, &one, dabs_a, in, dabs_b, ik, &zero, dscale, in),
                 "cublasDgemm");
    const std::vector<double> ref = host_copy(dref, size_t(n * n)), scale = host_copy(dscale, size_t(n * n));
    for (const Precision& pr : precisions) {
      const tcgemm_status s = tcgemm_sgemm('N', 'N', n, n, k, 1.0f, da, n, db, k, 0.0f, dc, n, pr.id, nullptr);
      if (s != TCGEMM_SUCCESS) {
        std::fprintf(stderr, "tcgemm_sgemm: %s\n", tcgemm_last_error());
        return 1;
      }
      cuda_check(cudaDeviceSynchronize(), "tcgemm_sgemm");
      const std::vector<float> c = host_copy(dc, size_t(n * n));
      double num = 0.0, den = 0.0, worst = 0.0;
      for (size_t i = 0; i < c.size(); ++i) {
        const double d = double(c[i]) - ref[i];
        num += d * d;
        den += ref[i] * ref[i];
        if (scale[i] > 0) worst = std::fmax(worst, std::fabs(d) / scale[i]);
      }
      std::printf("%-6s %7lld %11.2e %11.2e %11.2e\n", pr.name, static_cast<long long>(k), std::sqrt(num / den), worst,
                  pr.u);
      std::fflush(stdout);
    }
    for (void* p : {static_cast<void*>(da), static_cast<void*>(db), static_cast<void*>(da64), static_cast<void*>(db64),
                    static_cast<void*>(dabs_a), static_cast<void*>(dabs_b), static_cast<void*>(dref),
                    static_cast<void*>(dscale), static_cast<void*>(dc)})
      cudaFree(p);
  }
  cublasDestroy(h);
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return tcgemm::bench::guarded_main(run, argc, argv); }
