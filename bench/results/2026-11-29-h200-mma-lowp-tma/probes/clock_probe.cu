// Clock/power under load: the mma.sync rate loop vs the library's mma_lowp 256x128 kernel at n=8192,
// each run back to back for ~4 s; kernels record clock64 and globaltimer so the SM clock is measured in-kernel
// for the rate loop; nvidia-smi samples both phases.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <chrono>
#include <thread>
#include <ctime>
#include "families/mma_lowp/kernel.cuh"
#include "lowp_fill.cuh"
using namespace tcgemm::detail;
static void ck(cudaError_t e, const char* w){ if(e){printf("%s: %s\n",w,cudaGetErrorString(e)); exit(1);} }
static double now(){ timespec t; clock_gettime(CLOCK_REALTIME,&t); return t.tv_sec+t.tv_nsec*1e-9; }
template <int kFM, int kFN>
__global__ void __launch_bounds__(128) rate_kernel(float* out, int iters, unsigned long long* clk) {
  __shared__ __align__(128) unsigned char buf[16384];
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  for (int i = threadIdx.x; i < 16384 / 4; i += blockDim.x) reinterpret_cast<uint32_t*>(buf)[i] = 0x3c003c00u * (i & 1);
  __syncthreads();
  unsigned long long c0 = clock64(), g0; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g0));
  const uint32_t s0 = static_cast<uint32_t>(__cvta_generic_to_shared(buf)) + warp * 4096;
  float acc[kFM][kFN][4] = {};
  uint32_t af[2][kFM][4], bf[2][kFN / 2][4];
  for (int i = 0; i < kFM; ++i) for (int e = 0; e < 4; ++e) af[0][i][e] = af[1][i][e] = 0x3c003c00u + lane;
  for (int j = 0; j < kFN / 2; ++j) for (int e = 0; e < 4; ++e) bf[0][j][e] = bf[1][j][e] = 0x3c003c00u + warp;
  for (int it = 0; it < iters; ++it) {
#pragma unroll
    for (int s = 0; s < 2; ++s) {
#pragma unroll
      for (int i = 0; i < kFM; ++i) mma_lowp::ldmatrix_x4<false>(af[s ^ 1][i], s0 + ((lane * 16 + i * 512) & 4095));
#pragma unroll
      for (int j = 0; j < kFN / 2; ++j) mma_lowp::ldmatrix_x4<false>(bf[s ^ 1][j], s0 + ((lane * 16 + j * 512 + 2048) & 4095));
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
  for (int i = 0; i < kFM; ++i) for (int j = 0; j < kFN; ++j) for (int e = 0; e < 4; ++e) sum += acc[i][j][e];
  if (sum == 1234.5f) out[threadIdx.x] = sum;
  unsigned long long c1 = clock64(), g1; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(g1));
  if (threadIdx.x == 0 && blockIdx.x == 0) { clk[0] = c1 - c0; clk[1] = g1 - g0; }
}
using Large = mma_lowp::Tiling<__half, 256, 128, 64, 4, 2, 3, 1, 8, true>;
int main(int argc, char** argv) {
  cudaDeviceProp prop{}; ck(cudaGetDeviceProperties(&prop, 0), "props");
  const int sms = prop.multiProcessorCount;
  float* out; unsigned long long* clk; ck(cudaMalloc(&out, 4096), "m"); ck(cudaMallocManaged(&clk, 16), "m");
  const int iters = 40000;
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  // phase 1: rate loop for ~4 s
  double t0 = now(); printf("phase rate start %.3f\n", t0);
  int launches = 0; float total_ms = 0;
  while (now() - t0 < 4.0) {
    cudaEventRecord(e0);
    rate_kernel<4, 8><<<sms * 2, 128>>>(out, iters, clk);
    cudaEventRecord(e1); ck(cudaEventSynchronize(e1), "rate");
    float ms; cudaEventElapsedTime(&ms, e0, e1); total_ms += ms; ++launches;
    if (launches % 5 == 1) printf("  rate %.1f TFLOP/s  in-kernel clock %.0f MHz\n", double(sms) * 2 * 4 * iters * 2 * 32 * 4096.0 / ms / 1e9, double(clk[0]) / double(clk[1]) * 1e3);
  }
  printf("phase rate end %.3f\n", now());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  // phase 2: GEMM 8192 F16 NN
  const int64_t n = argc > 1 ? atoll(argv[1]) : 8192;
  void *A, *B; float* C;
  ck(cudaMalloc(&A, n * n * 2), "m"); ck(cudaMalloc(&B, n * n * 2), "m"); ck(cudaMalloc(&C, n * n * 4), "m");
  tcgemm::bench::fill_uniform_kernel<<<1024, 256>>>(A, TCGEMM_TYPE_F16, n * n, 1);
  tcgemm::bench::fill_uniform_kernel<<<1024, 256>>>(B, TCGEMM_TYPE_F16, n * n, 2);
  LowpProblem lp = lowp_problem('N', 'N', n, n, n, 1.0f, A, n, B, n, 0.0f, C, n, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32);
  const LowpArgs args = lowp_kernel_args(lp, Large::kTileM, Large::kTileN);
  auto* kernel = mma_lowp::mma_lowp_kernel<__half, false, true, Large>;
  ck(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, Large::kSmemBytes), "attr");
  t0 = now(); printf("phase gemm start %.3f\n", t0); launches = 0;
  while (now() - t0 < 4.0) {
    cudaEventRecord(e0);
    for (int r = 0; r < 10; ++r) kernel<<<lowp_grid(args), Large::kThreads, Large::kSmemBytes>>>(args);
    cudaEventRecord(e1); ck(cudaEventSynchronize(e1), "gemm");
    float ms; cudaEventElapsedTime(&ms, e0, e1); ++launches;
    if (launches % 10 == 1) printf("  gemm %.1f TFLOP/s\n", 10 * 2.0 * n * n * n / ms / 1e9);
  }
  printf("phase gemm end %.3f\n", now());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  cublasHandle_t h; cublasCreate(&h); const float one = 1, zero = 0;
  t0 = now(); printf("phase cublas start %.3f\n", t0); launches = 0;
  while (now() - t0 < 4.0) {
    cudaEventRecord(e0);
    for (int r = 0; r < 10; ++r) cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, CUDA_R_16F, n, B, CUDA_R_16F, n, &zero, C, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    cudaEventRecord(e1); ck(cudaEventSynchronize(e1), "cublas");
    float ms; cudaEventElapsedTime(&ms, e0, e1); ++launches;
    if (launches % 10 == 1) printf("  cublas %.1f TFLOP/s\n", 10 * 2.0 * n * n * n / ms / 1e9);
  }
  printf("phase cublas end %.3f\n", now());
  return 0;
}
