// The other WMMA tile shapes of "Using Tensor Cores in CUDA Fortran" (its Table 1) through tcgemm_gemm_ex:
// F16 inputs with FP32 or FP16 accumulation and BF16 inputs on 16x16x16, 32x8x16 and 8x32x16, TF32 on
// 16x16x8 (family wmma_lowp: the article's Example 6 structure with run-time paddings), and the default path
// of each precision (no configuration: the mma.sync fast path). Each product is checked against cublasGemmEx
// on the same data (normwise relative difference, bounded by the format's unit roundoff) and timed.
//
//   tcgemm-example-lowp_shapes [--size N] [--tile 64|128] [--runs R]      (defaults 2048, 128, 10)
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "example_util.hpp"
#include "tcgemm/tcgemm.h"

namespace {

struct Precision {
  const char* name;
  int32_t in, c, compute;
  cudaDataType_t cuda_in, cuda_c;
  cublasComputeType_t cublas_compute;
  double u;  // the unit roundoff that bounds the difference (inputs' rounding or FP16 accumulation)
};

// Host values uniform in [-1, 1), stored in `type` (2 or 4 bytes per element).
std::vector<unsigned char> random_values(int32_t type, int64_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const int bytes = type == TCGEMM_TYPE_F32 ? 4 : 2;
  std::vector<unsigned char> out(size_t(count) * bytes);
  for (int64_t i = 0; i < count; ++i) {
    const float v = u(rng);
    if (type == TCGEMM_TYPE_F16) {
      const __half h = __float2half_rn(v);
      std::memcpy(&out[size_t(i) * 2], &h, 2);
    } else if (type == TCGEMM_TYPE_BF16) {
      const __nv_bfloat16 h = __float2bfloat16_rn(v);
      std::memcpy(&out[size_t(i) * 2], &h, 2);
    } else {
      std::memcpy(&out[size_t(i) * 4], &v, 4);
    }
  }
  return out;
}

std::vector<double> as_doubles(const void* d, int32_t type, int64_t count) {
  const int bytes = type == TCGEMM_TYPE_F32 ? 4 : 2;
  std::vector<unsigned char> raw(size_t(count) * bytes);
  EXAMPLE_CUDA_CHECK(cudaMemcpy(raw.data(), d, raw.size(), cudaMemcpyDeviceToHost));
  std::vector<double> out(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    if (type == TCGEMM_TYPE_F32) out[size_t(i)] = reinterpret_cast<const float*>(raw.data())[i];
    else if (type == TCGEMM_TYPE_F16) out[size_t(i)] = __half2float(reinterpret_cast<const __half*>(raw.data())[i]);
    else out[size_t(i)] = __bfloat162float(reinterpret_cast<const __nv_bfloat16*>(raw.data())[i]);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  int64_t n = 2048;
  int tile = 128, runs = 10;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--size")) n = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--tile")) tile = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--runs")) runs = std::atoi(argv[i + 1]);
  }
  example::print_device();
  const Precision precisions[] = {
      {"F16, FP32 accumulation", TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, CUDA_R_16F, CUDA_R_32F,
       CUBLAS_COMPUTE_32F, std::ldexp(1.0, -24)},
      {"F16, FP16 accumulation", TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, CUDA_R_16F, CUDA_R_16F,
       CUBLAS_COMPUTE_16F, std::ldexp(1.0, -11)},
      {"BF16, FP32 accumulation", TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, CUDA_R_16BF, CUDA_R_32F,
       CUBLAS_COMPUTE_32F, std::ldexp(1.0, -24)},
      {"TF32, FP32 accumulation", TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, CUDA_R_32F, CUDA_R_32F,
       CUBLAS_COMPUTE_32F_FAST_TF32, std::ldexp(1.0, -11)},
  };
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasCreate failed\n");
    return EXIT_FAILURE;
  }
  bool passed = true;
  std::printf("M = N = K = %lld, tile %d (WMMA family), NN, median of %d runs; diff = ||C - C_cublas|| / ||C_cublas||\n",
              static_cast<long long>(n), tile, runs);
  std::printf("%-26s %-10s %10s %10s %10s\n", "precision", "shape", "TFLOP/s", "cuBLAS", "diff");
  for (const Precision& p : precisions) {
    const int in_bytes = p.in == TCGEMM_TYPE_F32 ? 4 : 2, c_bytes = p.c == TCGEMM_TYPE_F32 ? 4 : 2;
    void *a, *b, *c, *cref;
    EXAMPLE_CUDA_CHECK(cudaMalloc(&a, size_t(n * n) * in_bytes));
    EXAMPLE_CUDA_CHECK(cudaMalloc(&b, size_t(n * n) * in_bytes));
    EXAMPLE_CUDA_CHECK(cudaMalloc(&c, size_t(n * n) * c_bytes));
    EXAMPLE_CUDA_CHECK(cudaMalloc(&cref, size_t(n * n) * c_bytes));
    const auto ha = random_values(p.in, n * n, 1), hb = random_values(p.in, n * n, 2);
    EXAMPLE_CUDA_CHECK(cudaMemcpy(a, ha.data(), ha.size(), cudaMemcpyHostToDevice));
    EXAMPLE_CUDA_CHECK(cudaMemcpy(b, hb.data(), hb.size(), cudaMemcpyHostToDevice));
    const float one = 1.0f, zero = 0.0f;
    const __half one_h = __float2half(1.0f), zero_h = __float2half(0.0f);
    const bool half_scalars = p.cublas_compute == CUBLAS_COMPUTE_16F;
    auto run_cublas = [&] {
      cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n),
                   half_scalars ? static_cast<const void*>(&one_h) : &one, a, p.cuda_in, int(n), b, p.cuda_in,
                   int(n), half_scalars ? static_cast<const void*>(&zero_h) : &zero, cref, p.cuda_c, int(n),
                   p.cublas_compute, CUBLAS_GEMM_DEFAULT);
    };
    const double cublas_ms = example::median_ms(run_cublas, 2, runs);
    const std::vector<double> ref = as_doubles(cref, p.c, n * n);
    double ref_norm = 0;
    for (double v : ref) ref_norm += v * v;
    ref_norm = std::sqrt(ref_norm);

    // One product: the default path (cfg NULL) or the WMMA family on `shape`.
    auto measure = [&](const tcgemm_wmma_config* cfg, const char* shape) {
      auto run = [&] {
        EXAMPLE_TCGEMM_CHECK(tcgemm_gemm_ex('N', 'N', n, n, n, 1.0f, a, p.in, n, b, p.in, n, 0.0f, c, p.c, n,
                                            p.compute, cfg, nullptr));
      };
      const double ms = example::median_ms(run, 2, runs);
      const std::vector<double> got = as_doubles(c, p.c, n * n);
      double diff = 0;
      for (size_t i = 0; i < got.size(); ++i) diff += (got[i] - ref[i]) * (got[i] - ref[i]);
      diff = std::sqrt(diff) / ref_norm;
      // Both products round the same inputs; they differ by their accumulation order and, for TF32, by
      // where each rounds: a few unit roundoffs of the accumulator or of the inputs, never more than 8 u.
      const bool ok = diff <= 8.0 * p.u + 1e-6;
      passed = passed && ok;
      std::printf("%-26s %-10s %10.1f %10.1f %10.2e%s\n", p.name, shape, example::tflops(n, n, n, ms),
                  example::tflops(n, n, n, cublas_ms), diff, ok ? "" : "  FAILED");
    };
    if (p.compute == TCGEMM_TYPE_F32) measure(nullptr, "default");
    const int32_t shapes16[] = {TCGEMM_WMMA_16x16x16, TCGEMM_WMMA_32x8x16, TCGEMM_WMMA_8x32x16};
    const char* names16[] = {"16x16x16", "32x8x16", "8x32x16"};
    const int count = p.in == TCGEMM_TYPE_F32 ? 1 : 3;
    for (int s = 0; s < count; ++s) {
      tcgemm_wmma_config cfg{};
      cfg.shape = p.in == TCGEMM_TYPE_F32 ? TCGEMM_WMMA_16x16x8 : shapes16[s];
      cfg.tile = tile;
      cfg.pad_a = cfg.pad_b = p.in == TCGEMM_TYPE_F32 ? 4 : 8;  // 16 bytes: no bank conflicts on the fragment loads
      measure(&cfg, p.in == TCGEMM_TYPE_F32 ? "16x16x8" : names16[s]);
    }
    cudaFree(a);
    cudaFree(b);
    cudaFree(c);
    cudaFree(cref);
  }
  cublasDestroy(handle);
  return example::report(passed);
}
