// tcgemm-mma-lowp-probe: an internal tiling study of the mma_lowp kernel template (families/mma_lowp/
// kernel.cuh), for choosing the library's tiling. Times several tilings of F16 (and TF32) products on the
// same random device data against cublasGemmEx in one process and checks each result against cuBLAS's.
// It includes the library's internal kernel header, so it is built against the source tree, not only the
// public API. Times: median of --reps event-timed runs after two warm-ups.
//   tcgemm-mma-lowp-probe [--sizes 4096,8192] [--reps 10]
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "families/mma_lowp/kernel.cuh"
#include "lowp_fill.cuh"
#include "timing.hpp"

namespace {

using tcgemm::bench::cuda_check;
using namespace tcgemm::detail;

// Median milliseconds of `reps` event-timed runs after two warm-ups (bench/timing.hpp).
template <class F>
double median_ms(F&& f, int reps) {
  return tcgemm::bench::time_launches([&] { f(); return true; }, 2, reps).median_ms;
}

double rel_diff(const float* x, const float* ref, int64_t count) {
  std::vector<float> a(count), b(count);
  cuda_check(cudaMemcpy(a.data(), x, count * 4, cudaMemcpyDeviceToHost), "copy");
  cuda_check(cudaMemcpy(b.data(), ref, count * 4, cudaMemcpyDeviceToHost), "copy");
  double num = 0, den = 0;
  for (int64_t i = 0; i < count; ++i) {
    num += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
    den += double(b[i]) * b[i];
  }
  return std::sqrt(num / den);
}

struct Problem {
  int64_t n;
  bool ta, tb;
  const void* A;
  const void* B;
  float* C;
};

template <class In, bool kAK, bool kBK, class T>
void run_tiling(const char* name, const Problem& pr, const float* ref, double cublas_ms, int reps) {
  LowpProblem lp = lowp_problem(pr.ta ? 'T' : 'N', pr.tb ? 'T' : 'N', pr.n, pr.n, pr.n, 1.0f, pr.A, pr.n, pr.B,
                                pr.n, 0.0f, pr.C, pr.n, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32);
  const LowpArgs args = lowp_kernel_args(lp, T::kTileM, T::kTileN);
  auto* kernel = mma_lowp::mma_lowp_kernel<In, kAK, kBK, T>;
  cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, T::kSmemBytes), "smem attr");
  cudaFuncAttributes fa{};
  cuda_check(cudaFuncGetAttributes(&fa, kernel), "attrs");
  int blocks = 0;
  cuda_check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, T::kThreads, T::kSmemBytes), "occ");
  cuda_check(cudaMemset(pr.C, 0xff, pr.n * pr.n * 4), "poison");
  const double ms = median_ms([&] { kernel<<<lowp_grid(args), T::kThreads, T::kSmemBytes>>>(args); }, reps);
  cuda_check(cudaGetLastError(), name);
  const double tf = 2.0 * double(pr.n) * pr.n * pr.n / ms / 1e9;
  std::printf("%-34s %c%c n=%-6lld %8.3f ms %7.1f TFLOP/s  x%.3f cuBLAS  regs %3d  warps/SM %2d  diff %.2e\n", name,
              pr.ta ? 'T' : 'N', pr.tb ? 'T' : 'N', (long long)pr.n, ms, tf, cublas_ms / ms, fa.numRegs,
              blocks * T::kThreads / 32, rel_diff(pr.C, ref, pr.n * pr.n));
}

#define TILING(In, ...) mma_lowp::Tiling<In, __VA_ARGS__>
#define PROBE(In, AK, BK, name, ...) run_tiling<In, AK, BK, TILING(In, __VA_ARGS__)>(name, pr, ref, cb, reps)

// Instruction-rate experiments: one warp holds kFM x kFN accumulator fragments (m16n8k16 F16 -> F32) and
// repeats kFM * kFN independent MMAs per step; kLdsm: the step's A and B fragments come from shared memory by
// ldmatrix, double-buffered as in the kernel (8 ldmatrix.x4 per 32 MMAs at 4 x 8).
template <int kFM, int kFN, bool kLdsm>
__global__ void __launch_bounds__(128) rate_kernel(float* out, int iters) {
  __shared__ __align__(128) unsigned char buf[16384];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < 16384 / 4; i += blockDim.x) reinterpret_cast<uint32_t*>(buf)[i] = 0x3c003c00u * (i & 1);
  __syncthreads();
  const uint32_t s0 = static_cast<uint32_t>(__cvta_generic_to_shared(buf)) + warp * 4096;
  float acc[kFM][kFN][4] = {};
  uint32_t af[2][kFM][4], bf[2][kFN / 2][4];
  for (int i = 0; i < kFM; ++i)
    for (int e = 0; e < 4; ++e) af[0][i][e] = af[1][i][e] = 0x3c003c00u + lane;
  for (int j = 0; j < kFN / 2; ++j)
    for (int e = 0; e < 4; ++e) bf[0][j][e] = bf[1][j][e] = 0x3c003c00u + warp;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int s = 0; s < 2; ++s) {
      if constexpr (kLdsm) {
#pragma unroll
        for (int i = 0; i < kFM; ++i) mma_lowp::ldmatrix_x4<false>(af[s ^ 1][i], s0 + ((lane * 16 + i * 512) & 4095));
#pragma unroll
        for (int j = 0; j < kFN / 2; ++j)
          mma_lowp::ldmatrix_x4<false>(bf[s ^ 1][j], s0 + ((lane * 16 + j * 512 + 2048) & 4095));
      }
#pragma unroll
      for (int j = 0; j < kFN / 2; ++j)
#pragma unroll
        for (int i = 0; i < kFM; ++i) {
          mma_lowp::MmaOp<__half>::mma(acc[i][2 * j], af[s][i], bf[s][j][0], bf[s][j][1]);
          mma_lowp::MmaOp<__half>::mma(acc[i][2 * j + 1], af[s][i], bf[s][j][2], bf[s][j][3]);
        }
    }
  }
  float sum = 0;
  for (int i = 0; i < kFM; ++i)
    for (int j = 0; j < kFN; ++j)
      for (int e = 0; e < 4; ++e) sum += acc[i][j][e];
  if (sum == 1234.5f) out[threadIdx.x] = sum;
}

template <int kFM, int kFN, bool kLdsm>
void rate(const char* name, int blocks_per_sm, int sms) {
  const int iters = 4096;
  float* out;
  cuda_check(cudaMalloc(&out, 4096), "malloc");
  const double ms = median_ms([&] { rate_kernel<kFM, kFN, kLdsm><<<sms * blocks_per_sm, 128>>>(out, iters); }, 5);
  cuda_check(cudaGetLastError(), name);
  const double flops = double(sms) * blocks_per_sm * 4 * iters * 2 * kFM * kFN * 4096.0;
  cudaFuncAttributes fa{};
  cuda_check(cudaFuncGetAttributes(&fa, rate_kernel<kFM, kFN, kLdsm>), "attrs");
  std::printf("rate %-28s warps/SM %2d regs %3d  %7.1f TFLOP/s\n", name, blocks_per_sm * 4, fa.numRegs, flops / ms / 1e9);
  cudaFree(out);
}

// L2 -> SM bandwidth: every block streams an L2-resident buffer (`bytes`, read many times) into a
// shared-memory ring by cp.async.cg (as the kernel's copies do), or into registers by ld.global.cg.
template <bool kCpAsync>
__global__ void __launch_bounds__(256) l2_read_kernel(const uint4* buf, int64_t n16, int iters, float* out) {
  extern __shared__ __align__(128) unsigned char ring[];
  const uint32_t r0 = static_cast<uint32_t>(__cvta_generic_to_shared(ring));
  uint32_t x = 0;
  int64_t at = (int64_t(blockIdx.x) * 12288 + threadIdx.x) % n16;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int j = 0; j < 12; ++j) {  // 12 x 256 x 16 = 48 KiB per step, as a 256 x 128 x 64 F16 k-tile
      if constexpr (kCpAsync) {
        mma_lowp::cp_async16(r0 + uint32_t(((it % 3) * 12 + j) * 4096 + threadIdx.x * 16), buf + at, true);
      } else {
        const uint4 v = __ldcg(buf + at);
        x ^= v.x ^ v.w;
      }
      at += 256;
      if (at >= n16) at -= n16;
    }
    if constexpr (kCpAsync) {
      mma_lowp::cp_async_commit();
      mma_lowp::cp_async_wait<1>();
    }
  }
  if constexpr (kCpAsync) mma_lowp::cp_async_wait<0>();
  if (x == 0x12345u) out[0] = float(x);
}

template <bool kCpAsync>
void l2_rate(int sms, int blocks_per_sm, int64_t bytes) {
  uint4* buf;
  float* out;
  cuda_check(cudaMalloc(&buf, bytes), "malloc");
  cuda_check(cudaMalloc(&out, 64), "malloc");
  cuda_check(cudaMemset(buf, 1, bytes), "memset");
  const int iters = 2000, smem = kCpAsync ? 3 * 48 * 1024 : 0;
  cuda_check(cudaFuncSetAttribute(l2_read_kernel<kCpAsync>, cudaFuncAttributeMaxDynamicSharedMemorySize, 3 * 48 * 1024),
             "smem attr");
  const double ms = median_ms(
      [&] { l2_read_kernel<kCpAsync><<<sms * blocks_per_sm, 256, smem>>>(buf, bytes / 16, iters, out); }, 5);
  cuda_check(cudaGetLastError(), "l2_read_kernel");
  const double moved = double(sms) * blocks_per_sm * iters * 48.0 * 1024;
  std::printf("L2 read %-10s buffer %3lld MiB blocks/SM %d  %6.2f TB/s\n", kCpAsync ? "cp.async" : "ld.cg",
              (long long)(bytes >> 20), blocks_per_sm, moved / ms / 1e9);
  cudaFree(buf);
  cudaFree(out);
}

void rates(int sms) {
  l2_rate<true>(sms, 1, 8 << 20);
  l2_rate<false>(sms, 1, 8 << 20);
  l2_rate<false>(sms, 2, 8 << 20);
  l2_rate<true>(sms, 1, 32 << 20);
  l2_rate<true>(sms, 1, 512 << 20);
  rate<4, 8, false>("regs 4x8", 1, sms);
  rate<4, 8, false>("regs 4x8", 2, sms);
  rate<2, 8, false>("regs 2x8", 2, sms);
  rate<2, 8, false>("regs 2x8", 4, sms);
  rate<4, 8, true>("ldmatrix 4x8", 1, sms);
  rate<4, 8, true>("ldmatrix 4x8", 2, sms);
  rate<2, 8, true>("ldmatrix 2x8", 2, sms);
  rate<2, 8, true>("ldmatrix 2x8", 4, sms);
}

template <bool kAK, bool kBK>
void probe_f16(const Problem& pr, const float* ref, double cb, int reps) {
  PROBE(__half, kAK, kBK, "256x128x64 4x2 s3 g8", 256, 128, 64, 4, 2, 3, 1, 8);
  PROBE(__half, kAK, kBK, "256x128x64 4x2 s3 g8 spread", 256, 128, 64, 4, 2, 3, 1, 8, true);
  PROBE(__half, kAK, kBK, "256x128x64 4x2 s4 g8 spread", 256, 128, 64, 4, 2, 4, 1, 8, true);
  PROBE(__half, kAK, kBK, "128x256x64 2x4 s3 g8 spread", 128, 256, 64, 2, 4, 3, 1, 8, true);
  PROBE(__half, kAK, kBK, "128x256x64 2x4 s4 g8 spread", 128, 256, 64, 2, 4, 4, 1, 8, true);
  PROBE(__half, kAK, kBK, "256x128x64 4x2 s3 g16 spread", 256, 128, 64, 4, 2, 3, 1, 16, true);
}

void probe_tf32(const Problem& pr, const float* ref, double cb, int reps) {
  PROBE(mma_lowp::Tf32Rounded, true, true, "tf32pre 256x128x32 4x2 s3 g8", 256, 128, 32, 4, 2, 3, 1, 8);
  PROBE(mma_lowp::Tf32Rounded, true, true, "tf32pre 256x128x32 4x2 s3 g8 spr", 256, 128, 32, 4, 2, 3, 1, 8, true);
  PROBE(mma_lowp::Tf32Rounded, true, true, "tf32pre 256x128x32 4x2 s4 g8 spr", 256, 128, 32, 4, 2, 4, 1, 8, true);
  PROBE(mma_lowp::Tf32Rounded, true, true, "tf32pre 128x256x32 2x4 s4 g8 spr", 128, 256, 32, 2, 4, 4, 1, 8, true);
}

int run(int argc, char** argv) {
  std::vector<int64_t> sizes = {4096, 8192};
  int reps = 10;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--reps") && i + 1 < argc) reps = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--sizes") && i + 1 < argc) {
      sizes.clear();
      for (char* t = std::strtok(argv[++i], ","); t; t = std::strtok(nullptr, ",")) sizes.push_back(std::atoll(t));
    }
  }
  cudaDeviceProp prop{};
  cuda_check(cudaGetDeviceProperties(&prop, 0), "props");
  std::printf("# %s; median of %d runs\n", prop.name, reps);
  if (!std::getenv("PROBE_SKIP_RATES")) rates(prop.multiProcessorCount);
  if (std::getenv("PROBE_RATES_ONLY")) return 0;
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate");
  for (int64_t n : sizes) {
    void *A, *B;
    float *C, *ref;
    cuda_check(cudaMalloc(&A, n * n * 4), "malloc");
    cuda_check(cudaMalloc(&B, n * n * 4), "malloc");
    cuda_check(cudaMalloc(&C, n * n * 4), "malloc");
    cuda_check(cudaMalloc(&ref, n * n * 4), "malloc");
    const float one = 1.0f, zero = 0.0f;
    for (int pass = 0; pass < 2; ++pass) {
      const bool half = pass == 0;
      const int32_t type = half ? TCGEMM_TYPE_F16 : TCGEMM_TYPE_F32;
      tcgemm::bench::fill_uniform_kernel<<<1024, 256>>>(A, type, n * n, 1);
      tcgemm::bench::fill_uniform_kernel<<<1024, 256>>>(B, type, n * n, 2);
      const cudaDataType_t t = half ? CUDA_R_16F : CUDA_R_32F;
      const cublasComputeType_t ct = half ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_32F_FAST_TF32;
      const int forms = half ? 4 : 1;
      for (int f = 0; f < forms; ++f) {
        // forms: NN, TN, NT, TT for F16; TN (both k-contiguous) for TF32.
        const bool ta = half ? (f & 1) : true, tb = half ? (f >> 1) : false;
        auto cublas = [&] {
          cublasGemmEx(h, ta ? CUBLAS_OP_T : CUBLAS_OP_N, tb ? CUBLAS_OP_T : CUBLAS_OP_N, int(n), int(n), int(n),
                       &one, A, t, int(n), B, t, int(n), &zero, ref, CUDA_R_32F, int(n), ct, CUBLAS_GEMM_DEFAULT);
        };
        const double cb = median_ms(cublas, reps);
        std::printf("cuBLAS %s %c%c n=%lld %.3f ms %.1f TFLOP/s\n", half ? "f16" : "tf32", ta ? 'T' : 'N',
                    tb ? 'T' : 'N', (long long)n, cb, 2.0 * double(n) * n * n / cb / 1e9);
        const Problem pr{n, ta, tb, A, B, C};
        if (!half) probe_tf32(pr, ref, cb, reps);
        else if (!ta && !tb) probe_f16<false, true>(pr, ref, cb, reps);
        else if (ta && !tb) probe_f16<true, true>(pr, ref, cb, reps);
        else if (!ta && tb) probe_f16<false, false>(pr, ref, cb, reps);
        else probe_f16<true, false>(pr, ref, cb, reps);
        std::fflush(stdout);
      }
    }
    cudaFree(A);
    cudaFree(B);
    cudaFree(C);
    cudaFree(ref);
  }
  cublasDestroy(h);
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return tcgemm::bench::guarded_main(run, argc, argv); }
