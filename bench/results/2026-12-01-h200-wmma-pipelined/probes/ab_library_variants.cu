// A/B of the WMMA family's pipelined kernel against the schedule probe that measured 446 TFLOP/s (F16, NN,
// 256 x 128, n = 8192): which of the library kernel's differences costs the time.
#include <cublas_v2.h>
#include <cstdio>
#include <vector>
#include <algorithm>
#include "families/wmma_lowp/dispatch.cuh"
#define AB_NS v_raw
#define AB_NO_EDGE 0
#define AB_RAW_EPILOGUE 1
#define AB_INT_TILE 0
#include "kernel_ab.cuh"
#undef AB_NS
#undef AB_NO_EDGE
#undef AB_RAW_EPILOGUE
#undef AB_INT_TILE
#define AB_NS v_raw_noedge
#define AB_NO_EDGE 1
#define AB_RAW_EPILOGUE 1
#define AB_INT_TILE 0
#include "kernel_ab.cuh"
#undef AB_NS
#undef AB_NO_EDGE
#undef AB_RAW_EPILOGUE
#undef AB_INT_TILE
#define AB_NS v_all
#define AB_NO_EDGE 1
#define AB_RAW_EPILOGUE 1
#define AB_INT_TILE 1
#define AB_INT_K 1
#define AB_ONE_TILE 1
#include "kernel_ab.cuh"
using namespace tcgemm::detail;
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e_)); exit(1); } } while (0)
__global__ void fill(__half* x, int64_t cnt, uint32_t seed) {
  for (int64_t i = blockIdx.x * int64_t(blockDim.x) + threadIdx.x; i < cnt; i += int64_t(gridDim.x) * blockDim.x) {
    uint32_t h = uint32_t(i) * 2654435761u ^ seed * 0x9E3779B9u; h ^= h >> 15; h *= 0x2c1b3c6dU; h ^= h >> 12;
    x[i] = __float2half(float(h & 0xFFFF) / 65536.0f * 2.0f - 1.0f);
  }
}
template <class F> float med_ms(F f, int reps = 12) {
  for (int i = 0; i < 3; ++i) f();
  std::vector<cudaEvent_t> ev(2 * reps);
  for (auto& e : ev) CK(cudaEventCreate(&e));
  for (int r = 0; r < reps; ++r) { CK(cudaEventRecord(ev[2 * r])); f(); CK(cudaEventRecord(ev[2 * r + 1])); }
  CK(cudaDeviceSynchronize());
  std::vector<float> t(reps);
  for (int r = 0; r < reps; ++r) CK(cudaEventElapsedTime(&t[r], ev[2 * r], ev[2 * r + 1]));
  std::sort(t.begin(), t.end());
  return 0.5f * (t[(reps - 1) / 2] + t[reps / 2]);
}
int main() {
  const int n = 8192;
  __half *A, *B; float *C, *R;
  CK(cudaMalloc(&A, size_t(n) * n * 2)); CK(cudaMalloc(&B, size_t(n) * n * 2));
  CK(cudaMalloc(&C, size_t(n) * n * 4)); CK(cudaMalloc(&R, size_t(n) * n * 4));
  fill<<<1024, 256>>>(A, int64_t(n) * n, 1); fill<<<1024, 256>>>(B, int64_t(n) * n, 2);
  cublasHandle_t h; cublasCreate(&h);
  const float one = 1, zero = 0;
  for (int f = 0; f < 2; ++f) {
    const char ta = f ? 'T' : 'N';
    float cb = med_ms([&] { cublasGemmEx(h, f ? CUBLAS_OP_T : CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, A, CUDA_R_16F, n, B, CUDA_R_16F, n, &zero, R, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT); });
    printf("cuBLAS %cN %.1f TFLOP/s\n", ta, 2.0 * n * double(n) * n / cb / 1e9);
    for (int tile = 0; tile < 3; ++tile) {
      const int tm = tile == 1 ? 256 : 128, tn = tile == 2 ? 256 : 128;
      tcgemm_wmma_config cfg{TCGEMM_WMMA_16x16x16, tm, 64, 8, 8, 3, tn, {0}};
      LowpProblem pr = lowp_problem(ta, 'N', n, n, n, 1.0f, A, n, B, n, 0.0f, C, n, TCGEMM_TYPE_F16, TCGEMM_TYPE_F32, TCGEMM_TYPE_F32);
      LowpArgs a = lowp_wmma_args(pr, cfg);
      const int64_t smem = lowp_smem_bytes(cfg, 2, 4, ta == 'T', false);
      auto time = [&](const char* name, auto kernel, int threads) {
        CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
        cudaFuncAttributes fa; CK(cudaFuncGetAttributes(&fa, kernel));
        CK(cudaMemset(C, 0xff, size_t(n) * n * 4));
        float ms = med_ms([&] { kernel<<<lowp_grid(a), threads, smem>>>(a); });
        CK(cudaGetLastError());
        std::vector<float> x(4096), y(4096);
        CK(cudaMemcpy(x.data(), C + size_t(n) * 4000, 4096 * 4, cudaMemcpyDeviceToHost));
        CK(cudaMemcpy(y.data(), R + size_t(n) * 4000, 4096 * 4, cudaMemcpyDeviceToHost));
        double md = 0; for (int i = 0; i < 4096; ++i) md = std::max(md, double(std::fabs(x[i] - y[i])));
        printf("%cN %dx%d %-28s regs %3d %7.1f TFLOP/s  maxdiff %.1e\n", ta, tm, tn, name, fa.numRegs, 2.0 * n * double(n) * n / ms / 1e9, md);
        fflush(stdout);
      };
#define RUN(TM, TN, AK)                                                                                                 \
  {                                                                                                                     \
    using S = wmma_lowp::PipelinedShape<__half, float, 16, 16, 16, TM, TN, AK, true>;                                   \
    time("library", wmma_lowp::wmma_lowp_pipelined_kernel<__half, float, 16, 16, 16, TM, TN, AK, true>, S::kThreads);   \
    time("raw epilogue", wmma_lowp::v_raw::wmma_lowp_pipelined_kernel<__half, float, 16, 16, 16, TM, TN, AK, true>, S::kThreads); \
    time("raw epi, no edge test", wmma_lowp::v_raw_noedge::wmma_lowp_pipelined_kernel<__half, float, 16, 16, 16, TM, TN, AK, true>, S::kThreads); \
    time("raw, no edge, int, one tile", wmma_lowp::v_all::wmma_lowp_pipelined_kernel<__half, float, 16, 16, 16, TM, TN, AK, true>, S::kThreads); \
  }
      if (f == 0) { if (tile == 0) RUN(128, 128, false) else if (tile == 1) RUN(256, 128, false) else RUN(128, 256, false) }
      else { if (tile == 0) RUN(128, 128, true) else if (tile == 1) RUN(256, 128, true) else RUN(128, 256, true) }
    }
  }
  return 0;
}
