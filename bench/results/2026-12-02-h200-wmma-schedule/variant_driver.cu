// Experiment driver (not committed): F16 (FP32 acc) 16x16x16 256x128/64/3 'N','N' WMMA pipelined variants
// selected by TCGEMM_WMMA_EXP, against the WMMA ceiling and cuBLAS, same process, random data.
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <mma.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>
#include "tcgemm/tcgemm.h"
#include "lowp_fill.cuh"
using namespace nvcuda;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("%s: %s\n", #x, cudaGetErrorString(e_)); std::exit(1);} } while (0)
template <class F> double median_ms(F&& f, int reps) {
  cudaEvent_t t0, t1; cudaEventCreate(&t0); cudaEventCreate(&t1);
  f(); f();
  std::vector<double> v;
  for (int r = 0; r < reps; ++r) { cudaEventRecord(t0); f(); cudaEventRecord(t1); CK(cudaEventSynchronize(t1)); float x; cudaEventElapsedTime(&x, t0, t1); v.push_back(x); }
  std::sort(v.begin(), v.end());
  return reps % 2 ? v[reps / 2] : 0.5 * (v[reps / 2 - 1] + v[reps / 2]);
}
constexpr int kIters = 4096;
__global__ void __launch_bounds__(128) peak(const __half* a, const __half* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4];
  wmma::load_matrix_sync(fa, a, 16); wmma::load_matrix_sync(fb, b, 16);
  for (auto& f : acc) wmma::fill_fragment(f, 0.0f);
  for (int i = 0; i < kIters; ++i)
#pragma unroll
    for (auto& f : acc) wmma::mma_sync(f, fa, fb, f);
  const int w = int(blockIdx.x * blockDim.x + threadIdx.x) / 32;
  for (int j = 0; j < 4; ++j) wmma::store_matrix_sync(c + (size_t(w) * 4 + j) * 256, acc[j], 16, wmma::mem_col_major);
}
int main(int argc, char** argv) {
  // exp M[,N,K] variants rounds [soak]
  int64_t m = 8192, n = 8192, k = 8192;
  if (argc > 1) { char* e; m = std::strtoll(argv[1], &e, 10); n = m; k = m; if (*e == ',') { n = std::strtoll(e + 1, &e, 10); if (*e == ',') k = std::strtoll(e + 1, &e, 10); } }
  const char* variants = argc > 2 ? argv[2] : "0,1,2,3,4,5,6,7";
  const int rounds = argc > 3 ? std::atoi(argv[3]) : 2;
  const char* soak = argc > 4 ? argv[4] : nullptr;  // peak | cublas | wmma | default: run it ~4 s, print nothing else
  const double soak_s = 4.0;
  cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));
  const int blocks = prop.multiProcessorCount * 8;
  __half *pa, *pb; float* pc;
  CK(cudaMalloc(&pa, 512)); CK(cudaMalloc(&pb, 512)); CK(cudaMalloc(&pc, size_t(blocks) * 4 * 4 * 256 * 4));
  tcgemm::bench::fill_uniform_kernel<<<1, 256>>>(pa, TCGEMM_TYPE_F16, 256, 11);
  tcgemm::bench::fill_uniform_kernel<<<1, 256>>>(pb, TCGEMM_TYPE_F16, 256, 12);
  const double pms = median_ms([&] { peak<<<blocks, 128>>>(pa, pb, pc); }, 5);
  const double ceil = 2.0 * 4096 * 4 * kIters * blocks * 4 / (pms * 1e-3) / 1e12;
  __half *a, *b; float *c, *cref;
  CK(cudaMalloc(&a, m * k * 2)); CK(cudaMalloc(&b, k * n * 2)); CK(cudaMalloc(&c, m * n * 4)); CK(cudaMalloc(&cref, m * n * 4));
  tcgemm::bench::fill_uniform_kernel<<<1024, 256>>>(a, TCGEMM_TYPE_F16, m * k, 1);
  tcgemm::bench::fill_uniform_kernel<<<1024, 256>>>(b, TCGEMM_TYPE_F16, k * n, 2);
  cublasHandle_t h; cublasCreate(&h);
  const float one = 1, zero = 0;
  const double cms = median_ms([&] { cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, CUDA_R_16F, m, b, CUDA_R_16F, k, &zero, cref, CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT); }, 10);
  std::vector<float> ref(m * n), got(m * n);
  CK(cudaMemcpy(ref.data(), cref, m * n * 4, cudaMemcpyDeviceToHost));
  const double fl = 2.0 * m * n * k;
  if (soak) {
    const std::string what = soak;
    tcgemm_wmma_config cfg{}; cfg.shape = TCGEMM_WMMA_16x16x16; cfg.tile = 256; cfg.tile_n = 128; cfg.tile_k = 64; cfg.stages = 3; cfg.pad_a = cfg.pad_b = 8;
    tcgemm_wmma_config res{}; int64_t smem = 0;
    tcgemm_wmma_config_resolve(TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, &cfg, &res, &smem);
    auto step = [&] {
      if (what == "peak") peak<<<blocks, 128>>>(pa, pb, pc);
      else if (what == "cublas") cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, a, CUDA_R_16F, m, b, CUDA_R_16F, k, &zero, cref, CUDA_R_32F, m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
      else tcgemm_gemm_ex('N', 'N', m, n, k, 1.0f, a, TCGEMM_TYPE_F16, m, b, TCGEMM_TYPE_F16, k, 0.0f, c, TCGEMM_TYPE_F32, m, TCGEMM_TYPE_F32, what == "wmma" ? &res : nullptr, nullptr);
    };
    const double ms = median_ms(step, 5);
    const int count = int(soak_s * 1e3 / ms) + 1;
    cudaEvent_t t0, t1; cudaEventCreate(&t0); cudaEventCreate(&t1);
    cudaEventRecord(t0);
    for (int i = 0; i < count; ++i) step();
    cudaEventRecord(t1); CK(cudaEventSynchronize(t1)); float x; cudaEventElapsedTime(&x, t0, t1);
    std::printf("soak %s: %d runs, %.3f ms each on average (median of 5 first: %.3f)\n", soak, count, x / count, ms);
    return 0;
  }
  std::printf("# %s m,n,k=%lld,%lld,%lld  wmma ceiling %.1f  cublas %.1f TFLOP/s\n", prop.name, (long long)m, (long long)n, (long long)k, ceil, fl / cms / 1e9);
  for (int r = 0; r < rounds; ++r)
    for (const char* v = variants; *v;) {
      char* end; const long x = std::strtol(v, &end, 10); v = *end ? end + 1 : end;
      setenv("TCGEMM_WMMA_EXP", std::to_string(x).c_str(), 1);
      for (int tile_n : {128, 256}) {
        if (tile_n == 256 && x != 0) continue;
        tcgemm_wmma_config cfg{}; cfg.shape = TCGEMM_WMMA_16x16x16; cfg.tile = tile_n == 128 ? 256 : 128; cfg.tile_n = tile_n; cfg.tile_k = 64; cfg.stages = 3; cfg.pad_a = cfg.pad_b = 8;
        tcgemm_wmma_config res{}; int64_t smem = 0;
        if (tcgemm_wmma_config_resolve(TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, &cfg, &res, &smem) != TCGEMM_SUCCESS) { std::printf("resolve: %s\n", tcgemm_last_error()); return 1; }
        CK(cudaMemset(c, 0xff, m * n * 4));
        auto run = [&] { if (tcgemm_gemm_ex('N', 'N', m, n, k, 1.0f, a, TCGEMM_TYPE_F16, m, b, TCGEMM_TYPE_F16, k, 0.0f, c, TCGEMM_TYPE_F32, m, TCGEMM_TYPE_F32, &res, nullptr) != TCGEMM_SUCCESS) { std::printf("gemm_ex: %s\n", tcgemm_last_error()); std::exit(1);} };
        run(); CK(cudaDeviceSynchronize());
        CK(cudaMemcpy(got.data(), c, m * n * 4, cudaMemcpyDeviceToHost));
        double num = 0, den = 0; for (int64_t i = 0; i < m * n; ++i) { const double d = double(got[i]) - ref[i]; num += d * d; den += double(ref[i]) * ref[i]; }
        const double ms = median_ms(run, 10);
        std::printf("variant %ld tile %dx%d: %.1f TFLOP/s  frac %.3f  x cublas %.3f  diff %.1e\n", x, res.tile, res.tile_n, fl / ms / 1e9, fl / ms / 1e9 / ceil, cms / ms, std::sqrt(num / den));
        std::fflush(stdout);
      }
    }
  return 0;
}
