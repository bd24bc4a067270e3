// WMMA family A/B probe (probe-ab.txt): the kernel of a base commit ("old") against the working tree's
// families/wmma_lowp/kernel.cuh ("NEW") in one process, F16 (FP32 and FP16 accumulation), BF16 and TF32.
// Runs A-C had base 62f2027 and run D base 1354463 (probe-ab.txt); as committed it is run D's: "NEW" takes the
// fixed instance where the configuration matches it (LowpFixed), as the library does. The base kernel is that commit's header with its
// namespace renamed:
//   git show 1354463:cxx/src/families/wmma_lowp/kernel.cuh |
//     sed 's/namespace tcgemm::detail::wmma_lowp/namespace tcgemm::detail::wmma_lowp_old/' > old/kernel_old.cuh
//   nvcc -O3 -std=c++17 -arch=sm_90 -Icxx/include -Ibuild/cxx/include -Icxx/src -Ibench -I. wmma_probe.cu
//     -o wmma_probe -Lbuild/cxx -ltcgemm -lcublas
// The kernels are launched directly (cudaFuncSetAttribute from this binary: the library's own CUDA runtime does
// not know this binary's kernels). ONLY=f16,bf16,... selects precisions; argument 1 is n.
#include <cublas_v2.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <vector>
#include "old/kernel_old.cuh"
#include "families/wmma_lowp/kernel.cuh"
#include "lowp_fill.cuh"
#include "timing.hpp"
using namespace tcgemm::detail;
using tcgemm::bench::cuda_check;
template <class F> double median_ms(F&& f, int reps) {
  return tcgemm::bench::time_launches([&] { f(); return true; }, 2, reps).median_ms;
}
double rel_diff(const void* x, const float* ref, int64_t count, bool half_c) {
  std::vector<float> a(count), b(count);
  if (half_c) {
    std::vector<__half> h(count);
    cuda_check(cudaMemcpy(h.data(), x, count * 2, cudaMemcpyDeviceToHost), "copy");
    for (int64_t i = 0; i < count; ++i) a[i] = __half2float(h[i]);
  } else cuda_check(cudaMemcpy(a.data(), x, count * 4, cudaMemcpyDeviceToHost), "copy");
  cuda_check(cudaMemcpy(b.data(), ref, count * 4, cudaMemcpyDeviceToHost), "copy");
  double num = 0, den = 0;
  for (int64_t i = 0; i < count; ++i) { double d = double(a[i]) - b[i]; num += d * d; den += double(b[i]) * b[i]; }
  return std::sqrt(num / den);
}
DeviceContext g_ctx;
template <class In, class Acc, int FM, int FN, int FK, int TM, int TN>
void run(const char* name, int64_t n, bool ta, bool tb, int tile_k, int stages, int shape, const void* A, const void* B,
         void* C, const float* ref, double cb, int reps, int32_t in_type, int32_t compute) {
  tcgemm_wmma_config r{shape, TM, tile_k, 0, 0, stages, TN, {0}};
  const int in_bytes = sizeof(In) == 4 ? 4 : 2;
  r.pad_a = r.pad_b = 16 / in_bytes;
  LowpProblem pr = lowp_problem(ta ? 'T' : 'N', tb ? 'T' : 'N', n, n, n, 1.0f, A, n, B, n, 0.0f, C, n, in_type,
                                compute == TCGEMM_TYPE_F16 ? TCGEMM_TYPE_F16 : TCGEMM_TYPE_F32, compute);
  LowpArgs a = lowp_kernel_args(pr, TM, TN);
  a.vec_a = a.vec_b = true;
  a.tile_k = tile_k; a.stages = stages;
  const LowpTiles tiles = lowp_tiles(r, in_bytes, a.trans_a, a.trans_b);
  a.lda_s = tiles.a.ld; a.ldb_s = tiles.b.ld; a.a_tile_bytes = tiles.a_bytes; a.b_tile_bytes = tiles.b_bytes;
  const int acc_bytes = compute == TCGEMM_TYPE_F16 ? 2 : 4;
  const int64_t smem = lowp_smem_bytes(r, in_bytes, acc_bytes, a.trans_a, a.trans_b);
  for (int v = 0; v < 2; ++v) {
    cuda_check(cudaMemset(C, 0xff, n * n * acc_bytes), "poison");
    auto launch = [&](auto* kernel, int threads) {
      cuda_check(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)), "attr");
      kernel<<<lowp_grid(a), threads, smem>>>(a);
    };
    auto f = [&] {
      constexpr int threads = wmma_lowp::LowpShape<In, Acc, FM, FN, FK, TM, TN, false, true>::kThreads;
      constexpr int K = wmma_lowp::kLowpFixedTileK<In>;
      if (v == 0) {
        if (ta) launch(wmma_lowp_old::wmma_lowp_kernel<In, Acc, FM, FN, FK, TM, TN, true, true>, threads);
        else launch(wmma_lowp_old::wmma_lowp_kernel<In, Acc, FM, FN, FK, TM, TN, false, true>, threads);
      } else if (ta) {
        if (wmma_lowp::LowpFixed<In, FM, FN, TM, TN, true, true, K>::matches(a) && TM == 128 && TN == 128)
          launch(wmma_lowp::wmma_lowp_kernel<In, Acc, FM, FN, FK, TM, TN, true, true, K>, threads);
        else launch(wmma_lowp::wmma_lowp_kernel<In, Acc, FM, FN, FK, TM, TN, true, true, 0>, threads);
      } else {
        if (wmma_lowp::LowpFixed<In, FM, FN, TM, TN, false, true, K>::matches(a) && TM == 128 && TN == 128)
          launch(wmma_lowp::wmma_lowp_kernel<In, Acc, FM, FN, FK, TM, TN, false, true, K>, threads);
        else launch(wmma_lowp::wmma_lowp_kernel<In, Acc, FM, FN, FK, TM, TN, false, true, 0>, threads);
      }
    };
    const double ms = median_ms(f, reps);
    cuda_check(cudaDeviceSynchronize(), name);
    const double tf = 2.0 * double(n) * n * n / ms / 1e9;
    std::printf("%-5s %-22s %c%c n=%lld tk%-3d s%d %8.3f ms %7.1f TFLOP/s x%.3f cuBLAS diff %.2e\n", v ? "NEW" : "old",
                name, ta ? 'T' : 'N', tb ? 'T' : 'N', (long long)n, tile_k, stages, ms, tf, cb / ms,
                rel_diff(C, ref, n * n, acc_bytes == 2));
    std::fflush(stdout);
  }
}
int main(int argc, char** argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : 8192;
  int reps = 10;
  cuda_check(cudaSetDevice(0), "dev");
  if (device_gate(0, &g_ctx) != TCGEMM_SUCCESS) { std::printf("gate failed\n"); return 1; }
  cublasHandle_t h; cublasCreate(&h);
  void *A, *B, *C; float* ref;
  cuda_check(cudaMalloc(&A, n * n * 4), "m"); cuda_check(cudaMalloc(&B, n * n * 4), "m");
  cuda_check(cudaMalloc(&C, n * n * 4), "m"); cuda_check(cudaMalloc(&ref, n * n * 4), "m");
  const float one = 1, zero = 0;
  const char* only = getenv("ONLY");
  for (int prec = 0; prec < 4; ++prec) {
    const char* pname[] = {"f16", "f16acc16", "bf16", "tf32"};
    if (only && !strstr(only, pname[prec])) continue;
    int32_t type = prec == 2 ? TCGEMM_TYPE_BF16 : prec == 3 ? TCGEMM_TYPE_F32 : TCGEMM_TYPE_F16;
    tcgemm::bench::fill_uniform_kernel<<<1024, 256>>>(A, type, n * n, 1);
    tcgemm::bench::fill_uniform_kernel<<<1024, 256>>>(B, type, n * n, 2);
    for (int f = 0; f < 2; ++f) {
      bool ta = f == 1, tb = false;
      cudaDataType_t t = prec == 2 ? CUDA_R_16BF : prec == 3 ? CUDA_R_32F : CUDA_R_16F;
      cublasComputeType_t ct = prec == 3 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
      auto cub = [&] { cublasGemmEx(h, ta ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, int(n), int(n), int(n), &one, A, t,
                                    int(n), B, t, int(n), &zero, ref, CUDA_R_32F, int(n), ct, CUBLAS_GEMM_DEFAULT); };
      double cb = median_ms(cub, reps);
      std::printf("cuBLAS %s %c%c %.3f ms %.1f\n", pname[prec], ta ? 'T' : 'N', 'N', cb, 2.0 * n * n * n / cb / 1e9);
      if (prec == 0) {
        run<__half, float, 16, 16, 16, 128, 128>("f16 16x16x16 128", n, ta, tb, 64, 3, TCGEMM_WMMA_16x16x16, A, B, C, ref, cb, reps, type, TCGEMM_TYPE_F32);
        run<__half, float, 16, 16, 16, 128, 128>("f16 16x16x16 128", n, ta, tb, 32, 3, TCGEMM_WMMA_16x16x16, A, B, C, ref, cb, reps, type, TCGEMM_TYPE_F32);
        run<__half, float, 16, 16, 16, 128, 128>("f16 16x16x16 128", n, ta, tb, 64, 4, TCGEMM_WMMA_16x16x16, A, B, C, ref, cb, reps, type, TCGEMM_TYPE_F32);
        run<__half, float, 16, 16, 16, 256, 128>("f16 16x16x16 256x128", n, ta, tb, 64, 3, TCGEMM_WMMA_16x16x16, A, B, C, ref, cb, reps, type, TCGEMM_TYPE_F32);
        run<__half, float, 32, 8, 16, 128, 128>("f16 32x8x16 128", n, ta, tb, 64, 3, TCGEMM_WMMA_32x8x16, A, B, C, ref, cb, reps, type, TCGEMM_TYPE_F32);
        run<__half, float, 8, 32, 16, 128, 128>("f16 8x32x16 128", n, ta, tb, 64, 3, TCGEMM_WMMA_8x32x16, A, B, C, ref, cb, reps, type, TCGEMM_TYPE_F32);
      } else if (prec == 1) {
        run<__half, __half, 16, 16, 16, 128, 128>("f16acc16 16x16x16 128", n, ta, tb, 64, 3, TCGEMM_WMMA_16x16x16, A, B, C, ref, cb, reps, type, TCGEMM_TYPE_F16);
      } else if (prec == 2) {
        run<__nv_bfloat16, float, 16, 16, 16, 128, 128>("bf16 16x16x16 128", n, ta, tb, 64, 3, TCGEMM_WMMA_16x16x16, A, B, C, ref, cb, reps, type, TCGEMM_TYPE_F32);
      } else {
        run<float, float, 16, 16, 8, 128, 128>("tf32 16x16x8 128", n, ta, tb, 32, 3, TCGEMM_WMMA_16x16x8, A, B, C, ref, cb, reps, type, TCGEMM_TYPE_F32);
      }
    }
  }
  return 0;
}
