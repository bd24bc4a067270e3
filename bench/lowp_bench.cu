// tcgemm-lowp-bench: the lower-precision WMMA family (tcgemm_gemm_ex) against its own instruction ceiling
// and against cuBLAS (cublasGemmEx) on the same random device data, in one process.
//   - ceiling: a peak kernel per WMMA shape and precision (fragments in registers, niter mma_sync per warp,
//     as the CUDA Fortran tensor-core article's dmma_peak does for FP64);
//   - the mma.sync ceiling the same way (m16n8k16 for F16 and BF16, m16n8k8 for TF32; FP32 accumulation, and
//     FP16 accumulation for F16);
//   - tcgemm: the default path (no configuration: the mma.sync fast path for F16/BF16/TF32 with FP32
//     accumulation and F16 with FP16), then the WMMA family at every shape in six configurations (C tile / tile_k /
//     stages: 64x64/32/3, 128x128/32/3, 256x128/32/3 on the run-time kernel; 128x128/64/3, 256x128/64/3,
//     128x256/64/3 on the pipelined one (TF32: half the tile_k, the same bytes); paddings of 16 bytes), those
//     that fit the device;
//   - cuBLAS: cublasGemmEx with the same input, output and compute types (TF32: CUBLAS_COMPUTE_32F_FAST_TF32).
// Each product's C is compared with cuBLAS's (normwise relative difference). Times: median of --reps
// event-timed runs after two warm-ups.
//   tcgemm-lowp-bench [--sizes 4096,8192] [--reps 10] [--default-only] [--fixed-only] [--trans NN|NT|TN|TT]
// --fixed-only: of the WMMA family's rows, those of the fixed configurations only (the pipelined kernel's; the
// first three configurations run the run-time kernel). The default path's row is still printed.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <mma.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "tcgemm/tcgemm.h"
#include "families/wmma_lowp/rules.hpp"
#include "lowp_fill.cuh"
#include "timing.hpp"

namespace {

using namespace nvcuda;
using tcgemm::bench::cuda_check;
using tcgemm::bench::median_of;

// ---- data: bench/lowp_fill.cuh -------------------------------------------------------------------------
template <class In>
constexpr int32_t input_type_of() {
  return sizeof(In) == 4 ? TCGEMM_TYPE_F32 : std::is_same<In, __half>::value ? TCGEMM_TYPE_F16 : TCGEMM_TYPE_BF16;
}

// Median of `reps` event-timed runs of f() after two untimed warm-ups, in milliseconds.
template <class F>
double median_ms(F&& f, int reps) {
  cudaEvent_t t0, t1;
  cuda_check(cudaEventCreate(&t0), "cudaEventCreate");
  cuda_check(cudaEventCreate(&t1), "cudaEventCreate");
  f();
  f();
  std::vector<double> ms;
  for (int r = 0; r < reps; ++r) {
    cuda_check(cudaEventRecord(t0), "cudaEventRecord");
    f();
    cuda_check(cudaEventRecord(t1), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(t1), "timed run");
    float x = 0;
    cuda_check(cudaEventElapsedTime(&x, t0, t1), "cudaEventElapsedTime");
    ms.push_back(x);
  }
  cudaEventDestroy(t0);
  cudaEventDestroy(t1);
  return median_of(ms);
}

// ---- the instruction ceiling ----------------------------------------------------------------------------
constexpr int kPeakIters = 4096, kPeakWarps = 4;

template <class In, class FragT, class Acc, int M, int N, int K>
__global__ void __launch_bounds__(kPeakWarps * 32) wmma_peak_kernel(const In* a, const In* b, Acc* c) {
  wmma::fragment<wmma::matrix_a, M, N, K, FragT, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, FragT, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, Acc> acc[4];
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, K);
  for (auto& f : acc) wmma::fill_fragment(f, Acc(0.0f));
  // Four independent accumulators keep the tensor pipe full (one chain would wait on its own latency).
  for (int i = 0; i < kPeakIters; ++i)
#pragma unroll
    for (auto& f : acc) wmma::mma_sync(f, fa, fb, f);
  const int warp = int(blockIdx.x * blockDim.x + threadIdx.x) / 32;
#pragma unroll
  for (int j = 0; j < 4; ++j) wmma::store_matrix_sync(c + (size_t(warp) * 4 + j) * M * N, acc[j], M, wmma::mem_col_major);
}

template <class In, class FragT, class Acc, int M, int N, int K>
double peak_tflops(int sms) {
  const int blocks = sms * 8, warps = blocks * kPeakWarps;
  In *a = nullptr, *b = nullptr;
  Acc* c = nullptr;
  cuda_check(cudaMalloc(&a, size_t(M) * K * sizeof(In)), "cudaMalloc");
  cuda_check(cudaMalloc(&b, size_t(K) * N * sizeof(In)), "cudaMalloc");
  cuda_check(cudaMalloc(&c, size_t(warps) * 4 * M * N * sizeof(Acc)), "cudaMalloc");
  // Random fragments, not zeros: zero data draws less power and could run at a clock real data does not get.
  tcgemm::bench::fill_uniform_kernel<<<64, 256>>>(a, input_type_of<In>(), int64_t(M) * K, 11);
  tcgemm::bench::fill_uniform_kernel<<<64, 256>>>(b, input_type_of<In>(), int64_t(K) * N, 12);
  cuda_check(cudaGetLastError(), "fill_kernel");
  const double ms = median_ms(
      [&] {
        wmma_peak_kernel<In, FragT, Acc, M, N, K><<<blocks, kPeakWarps * 32>>>(a, b, c);
        cuda_check(cudaGetLastError(), "peak kernel");
      },
      5);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return 2.0 * M * N * K * 4.0 * kPeakIters * warps / (ms * 1e-3) / 1e12;
}

// The mma.sync ceilings: eight independent accumulators per warp on random fragments, the instructions the
// fast path (family mma_lowp) issues: m16n8k16 for F16 (FP32 or FP16 accumulators) and BF16, m16n8k8 for TF32.
enum class MmaKind { F16, F16Acc16, Bf16, Tf32 };
template <MmaKind kKind>
__global__ void __launch_bounds__(kPeakWarps * 32) mma_peak_kernel(const uint32_t* ab, float* c) {
  const int lane = int(threadIdx.x) % 32;
  uint32_t a[4], b[2];
  for (int i = 0; i < 4; ++i) a[i] = ab[lane * 6 + i];
  for (int i = 0; i < 2; ++i) b[i] = ab[lane * 6 + 4 + i];
  float acc[8][4] = {};
  for (int it = 0; it < kPeakIters; ++it)
#pragma unroll
    for (int j = 0; j < 8; ++j) {
      if constexpr (kKind == MmaKind::Tf32)
        asm volatile(
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      else if constexpr (kKind == MmaKind::F16Acc16) {  // FP16 accumulators: two registers of half pairs
        uint32_t d0 = __float_as_uint(acc[j][0]), d1 = __float_as_uint(acc[j][1]);
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%0,%1};\n"
            : "+r"(d0), "+r"(d1)
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
        acc[j][0] = __uint_as_float(d0);
        acc[j][1] = __uint_as_float(d1);
      } else if constexpr (kKind == MmaKind::Bf16)
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
      else
        asm volatile(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
            : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
            : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
  float sum = 0.0f;
  for (int j = 0; j < 8; ++j) sum += acc[j][0] + acc[j][1] + acc[j][2] + acc[j][3];
  c[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

template <MmaKind kKind>
double mma_peak_tflops(int sms) {
  const int blocks = sms * 8, threads = kPeakWarps * 32;
  uint32_t* ab = nullptr;
  float* c = nullptr;
  cuda_check(cudaMalloc(&ab, 32 * 6 * sizeof(uint32_t)), "cudaMalloc");
  cuda_check(cudaMalloc(&c, size_t(blocks) * threads * sizeof(float)), "cudaMalloc");
  const int32_t type = kKind == MmaKind::Tf32 ? TCGEMM_TYPE_F32 : kKind == MmaKind::Bf16 ? TCGEMM_TYPE_BF16 : TCGEMM_TYPE_F16;
  tcgemm::bench::fill_uniform_kernel<<<1, 256>>>(ab, type, kKind == MmaKind::Tf32 ? 32 * 6 : 32 * 12, 13);
  cuda_check(cudaGetLastError(), "fill_kernel");
  const double ms = median_ms(
      [&] {
        mma_peak_kernel<kKind><<<blocks, threads>>>(ab, c);
        cuda_check(cudaGetLastError(), "mma peak kernel");
      },
      5);
  cudaFree(ab);
  cudaFree(c);
  const double k = kKind == MmaKind::Tf32 ? 8 : 16;
  return 2.0 * 16 * 8 * k * 8.0 * kPeakIters * (double(blocks) * kPeakWarps) / (ms * 1e-3) / 1e12;
}

int type_bytes(int32_t t) { return t == TCGEMM_TYPE_F32 ? 4 : 2; }
cudaDataType_t cuda_type(int32_t t) {
  return t == TCGEMM_TYPE_F16 ? CUDA_R_16F : t == TCGEMM_TYPE_BF16 ? CUDA_R_16BF : CUDA_R_32F;
}

// C as doubles on the host (for the comparison).
std::vector<double> fetch(const void* d, int32_t type, int64_t n) {
  std::vector<unsigned char> raw(size_t(n) * type_bytes(type));
  cuda_check(cudaMemcpy(raw.data(), d, raw.size(), cudaMemcpyDeviceToHost), "D2H");
  std::vector<double> out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    if (type == TCGEMM_TYPE_F32) out[size_t(i)] = reinterpret_cast<const float*>(raw.data())[i];
    else if (type == TCGEMM_TYPE_F16) out[size_t(i)] = __half2float(reinterpret_cast<const __half*>(raw.data())[i]);
    else out[size_t(i)] = __bfloat162float(reinterpret_cast<const __nv_bfloat16*>(raw.data())[i]);
  }
  return out;
}


struct Precision {
  const char* name;
  int32_t in, c, compute;
  cublasComputeType_t cublas_compute;
  int32_t shapes[3];
  int shape_count;
  double peak[3];
  double mma_peak;  // the mma.sync ceiling, for the precisions the fast path takes (0: none)
};

int run(int argc, char** argv) {
  std::vector<int64_t> sizes = {8192};
  int reps = 10;
  bool default_only = false;  // only the default path (and cuBLAS), for the F16/BF16 fast path's experiments
  bool fixed_only = false;    // the WMMA family in its fixed configurations only (the pipelined kernel's)
  char ta = 'N', tb = 'N';    // the operand form of every product (square: n x n operands either way)
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--sizes" && i + 1 < argc) {
      sizes.clear();
      for (char* s = argv[++i]; *s;) {
        sizes.push_back(std::strtoll(s, &s, 10));
        if (*s == ',') ++s;
      }
    } else if (a == "--default-only") {
      default_only = true;
    } else if (a == "--fixed-only") {
      fixed_only = true;
    } else if (a == "--reps" && i + 1 < argc) {
      reps = std::atoi(argv[++i]);
    } else if (a == "--trans" && i + 1 < argc && std::strlen(argv[i + 1]) == 2 &&
               std::strchr("NT", argv[i + 1][0]) && std::strchr("NT", argv[i + 1][1])) {
      ta = argv[++i][0];
      tb = argv[i][1];
    } else {
      std::fprintf(stderr,
                   "usage: tcgemm-lowp-bench [--sizes 4096,8192] [--reps 10] [--default-only] [--fixed-only] [--trans NN|NT|TN|TT]\n");
      return 2;
    }
  }
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  const int sms = prop.multiProcessorCount;
  Precision precisions[] = {
      {"f16 (f32 acc)", TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, CUBLAS_COMPUTE_32F,
       {TCGEMM_WMMA_16x16x16, TCGEMM_WMMA_32x8x16, TCGEMM_WMMA_8x32x16}, 3, {}, 0.0},
      {"f16 (f16 acc)", TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, TCGEMM_TYPE_F16, CUBLAS_COMPUTE_16F,
       {TCGEMM_WMMA_16x16x16, TCGEMM_WMMA_32x8x16, TCGEMM_WMMA_8x32x16}, 3, {}, 0.0},
      {"bf16 (f32 acc)", TCGEMM_TYPE_BF16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, CUBLAS_COMPUTE_32F,
       {TCGEMM_WMMA_16x16x16, TCGEMM_WMMA_32x8x16, TCGEMM_WMMA_8x32x16}, 3, {}, 0.0},
      {"tf32 (f32 acc)", TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32, CUBLAS_COMPUTE_32F_FAST_TF32,
       {TCGEMM_WMMA_16x16x8, 0, 0}, 1, {}, 0.0},
  };
  // Ceilings, same run.
  precisions[0].peak[0] = peak_tflops<__half, __half, float, 16, 16, 16>(sms);
  precisions[0].peak[1] = peak_tflops<__half, __half, float, 32, 8, 16>(sms);
  precisions[0].peak[2] = peak_tflops<__half, __half, float, 8, 32, 16>(sms);
  precisions[1].peak[0] = peak_tflops<__half, __half, __half, 16, 16, 16>(sms);
  precisions[1].peak[1] = peak_tflops<__half, __half, __half, 32, 8, 16>(sms);
  precisions[1].peak[2] = peak_tflops<__half, __half, __half, 8, 32, 16>(sms);
  precisions[2].peak[0] = peak_tflops<__nv_bfloat16, __nv_bfloat16, float, 16, 16, 16>(sms);
  precisions[2].peak[1] = peak_tflops<__nv_bfloat16, __nv_bfloat16, float, 32, 8, 16>(sms);
  precisions[2].peak[2] = peak_tflops<__nv_bfloat16, __nv_bfloat16, float, 8, 32, 16>(sms);
  precisions[3].peak[0] = peak_tflops<float, wmma::precision::tf32, float, 16, 16, 8>(sms);
  precisions[0].mma_peak = mma_peak_tflops<MmaKind::F16>(sms);
  precisions[1].mma_peak = mma_peak_tflops<MmaKind::F16Acc16>(sms);
  precisions[2].mma_peak = mma_peak_tflops<MmaKind::Bf16>(sms);
  precisions[3].mma_peak = mma_peak_tflops<MmaKind::Tf32>(sms);

  cublasHandle_t h = nullptr;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "cublasCreate failed\n");
    return 1;
  }
  std::printf("# device %s; form %c%c; median of %d event-timed runs; TFLOP/s; frac = tcgemm / ceiling (shape mma.sync: the default "
              "path, against the mma.sync m16n8k16 (TF32: m16n8k8) ceiling; the others: the WMMA family, against its WMMA shape's); "
              "x = tcgemm / cuBLAS; diff = ||C_tcgemm - C_cublas|| / ||C_cublas||\n",
              prop.name, ta, tb, reps);
  std::printf("%-15s %-9s %13s %6s %9s %9s %9s %6s %6s %9s\n", "precision", "shape", "tile/k/st", "n", "tcgemm", "cublas",
              "ceiling", "frac", "x", "diff");
  for (int64_t n : sizes) {
    for (const Precision& pr : precisions) {
      if (default_only && pr.mma_peak <= 0) continue;
      void *a = nullptr, *b = nullptr, *c = nullptr, *cref = nullptr;
      const size_t in_bytes = size_t(n) * n * type_bytes(pr.in), c_bytes = size_t(n) * n * type_bytes(pr.c);
      cuda_check(cudaMalloc(&a, in_bytes), "cudaMalloc");
      cuda_check(cudaMalloc(&b, in_bytes), "cudaMalloc");
      cuda_check(cudaMalloc(&c, c_bytes), "cudaMalloc");
      cuda_check(cudaMalloc(&cref, c_bytes), "cudaMalloc");
      tcgemm::bench::fill_uniform_kernel<<<1024, 256>>>(a, pr.in, n * n, 1);
      tcgemm::bench::fill_uniform_kernel<<<1024, 256>>>(b, pr.in, n * n, 2);
      const float alpha = 1.0f, beta = 0.0f;
      const __half alpha_h = __float2half(1.0f), beta_h = __float2half(0.0f);
      const bool half_scalars = pr.cublas_compute == CUBLAS_COMPUTE_16F;
      auto cublas_run = [&] {
        const cublasStatus_t s = cublasGemmEx(
            h, ta == 'T' ? CUBLAS_OP_T : CUBLAS_OP_N, tb == 'T' ? CUBLAS_OP_T : CUBLAS_OP_N, int(n), int(n), int(n), half_scalars ? static_cast<const void*>(&alpha_h) : &alpha,
            a, cuda_type(pr.in), int(n), b, cuda_type(pr.in), int(n), half_scalars ? static_cast<const void*>(&beta_h) : &beta,
            cref, cuda_type(pr.c), int(n), pr.cublas_compute, CUBLAS_GEMM_DEFAULT);
        if (s != CUBLAS_STATUS_SUCCESS) {
          std::fprintf(stderr, "cublasGemmEx failed (%d)\n", int(s));
          std::exit(1);
        }
      };
      const double cublas_ms = median_ms(cublas_run, reps);
      const std::vector<double> ref = fetch(cref, pr.c, n * n);
      const double flops = 2.0 * double(n) * n * n;
      // One row: tcgemm_gemm_ex with `cfg` (nullptr: the default path), against `ceiling`.
      auto measure = [&](const tcgemm_wmma_config* cfg, const char* shape, const char* config, double ceiling) {
        auto tc_run = [&] {
          const tcgemm_status s = tcgemm_gemm_ex(ta, tb, n, n, n, 1.0f, a, pr.in, n, b, pr.in, n, 0.0f, c, pr.c, n,
                                                 pr.compute, cfg, nullptr);
          if (s != TCGEMM_SUCCESS) {
            std::fprintf(stderr, "tcgemm_gemm_ex: %s\n", tcgemm_last_error());
            std::exit(1);
          }
        };
        const double ms = median_ms(tc_run, reps);
        const std::vector<double> got = fetch(c, pr.c, n * n);
        double num = 0, den = 0;
        for (size_t i = 0; i < got.size(); ++i) {
          num += (got[i] - ref[i]) * (got[i] - ref[i]);
          den += ref[i] * ref[i];
        }
        const double tf = flops / (ms * 1e-3) / 1e12, cb = flops / (cublas_ms * 1e-3) / 1e12;
        std::printf("%-15s %-9s %13s %6lld %9.1f %9.1f %9.1f %6.2f %6.2f %9.1e\n", pr.name, shape, config,
                    static_cast<long long>(n), tf, cb, ceiling, tf / ceiling, tf / cb,
                    std::sqrt(num / (den > 0 ? den : 1.0)));
        std::fflush(stdout);
      };
      // The default path first: for F16/BF16/TF32 with FP32 accumulation and F16 with FP16 the mma.sync fast path (TF32 with
      // its packing included), against the mma.sync ceiling.
      if (pr.mma_peak > 0) measure(nullptr, "mma.sync", "default", pr.mma_peak);
      // tile, tile_n, tile_k, stages
      const int configs[6][4] = {{64, 64, 32, 3},   {128, 128, 32, 3},  {256, 128, 32, 3},
                                 {128, 128, 64, 3}, {256, 128, 64, 3}, {128, 256, 64, 3}};
      for (int si = 0; si < (default_only ? 0 : pr.shape_count); ++si)
        for (const auto& tks : configs) {
          tcgemm_wmma_config cfg{};
          tcgemm_wmma_config resolved{};
          cfg.shape = pr.shapes[si];
          cfg.tile = tks[0];
          cfg.tile_n = tks[1];
          cfg.tile_k = pr.in == TCGEMM_TYPE_F32 ? tks[2] / 2 : tks[2];  // the same bytes of k (TF32 elements are 4)
          cfg.stages = tks[3];
          cfg.pad_a = cfg.pad_b = pr.in == TCGEMM_TYPE_F32 ? 4 : 8;
          int64_t smem = 0;
          if (tcgemm_wmma_config_resolve(pr.in, pr.compute, &cfg, &resolved, &smem) != TCGEMM_SUCCESS) continue;
          if (smem > int64_t(prop.sharedMemPerBlockOptin)) continue;  // does not fit this device
          // The library's own rule for which configurations run the pipelined kernel.
          if (fixed_only && !tcgemm::detail::lowp_is_fixed_config(resolved, type_bytes(pr.in))) continue;
          cfg = resolved;
          const int dims[5][3] = {{0, 0, 0}, {16, 16, 16}, {32, 8, 16}, {8, 32, 16}, {16, 16, 8}};
          char shape[16], config[32];
          std::snprintf(shape, sizeof shape, "%dx%dx%d", dims[cfg.shape][0], dims[cfg.shape][1], dims[cfg.shape][2]);
          std::snprintf(config, sizeof config, "%dx%d/%d/%d", cfg.tile, cfg.tile_n, cfg.tile_k, cfg.stages);
          measure(&cfg, shape, config, pr.peak[si]);
        }
      cudaFree(a);
      cudaFree(b);
      cudaFree(c);
      cudaFree(cref);
    }
  }
  cublasDestroy(h);
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return tcgemm::bench::guarded_main(run, argc, argv); }
