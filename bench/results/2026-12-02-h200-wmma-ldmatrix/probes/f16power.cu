// Is the WMMA family's F16 (FP32 accumulation) deficit against BF16 the data's? Same kernel (SASS histograms
// match), same sizes: time tcgemm_gemm_ex 'N','N' n = 8192, 256 x 128 fixed configuration (and the default
// path), on F16 inputs with full 11-bit significands, on the same values rounded to 8 significant bits (BF16's
// precision, exact in F16), and on BF16 inputs of both kinds.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>
#include "tcgemm/tcgemm.h"

static float round_bits(float v, int bits) {  // round to `bits` significant bits
  if (v == 0.0f) return v;
  int e;
  std::frexp(v, &e);
  const float q = std::ldexp(1.0f, e - bits);
  return std::nearbyint(v / q) * q;
}

int main() {
  const int64_t n = 8192;
  const size_t N = size_t(n) * n;
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<float> a(N), b(N);
  for (auto& v : a) v = u(rng);
  for (auto& v : b) v = u(rng);
  void *dA, *dB, *dC;
  cudaMalloc(&dA, N * 2);
  cudaMalloc(&dB, N * 2);
  cudaMalloc(&dC, N * 4);
  std::vector<uint16_t> ha(N), hb(N);
  const tcgemm_wmma_config fixed{TCGEMM_WMMA_16x16x16, 256, 64, 8, 8, 3, 128, {0}};
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int type : {TCGEMM_TYPE_F16, TCGEMM_TYPE_BF16})
    for (int bits : {24, 8, 4}) {
      for (size_t i = 0; i < N; ++i) {
        const float x = round_bits(a[i], bits), y = round_bits(b[i], bits);
        if (type == TCGEMM_TYPE_F16) {
          __half hx = __float2half(x), hy = __float2half(y);
          ha[i] = *reinterpret_cast<uint16_t*>(&hx);
          hb[i] = *reinterpret_cast<uint16_t*>(&hy);
        } else {
          __nv_bfloat16 hx = __float2bfloat16(x), hy = __float2bfloat16(y);
          ha[i] = *reinterpret_cast<uint16_t*>(&hx);
          hb[i] = *reinterpret_cast<uint16_t*>(&hy);
        }
      }
      cudaMemcpy(dA, ha.data(), N * 2, cudaMemcpyHostToDevice);
      cudaMemcpy(dB, hb.data(), N * 2, cudaMemcpyHostToDevice);
      for (const tcgemm_wmma_config* cfg : {&fixed, (const tcgemm_wmma_config*)nullptr}) {
        std::vector<float> ms;
        for (int r = 0; r < 13; ++r) {
          cudaEventRecord(e0);
          const tcgemm_status st = tcgemm_gemm_ex('N', 'N', n, n, n, 1.0f, dA, type, n, dB, type, n, 0.0f, dC,
                                                  TCGEMM_TYPE_F32, n, TCGEMM_TYPE_F32, cfg, nullptr);
          cudaEventRecord(e1);
          cudaEventSynchronize(e1);
          if (st != TCGEMM_SUCCESS) { std::printf("error %s\n", tcgemm_last_error()); return 1; }
          float t;
          cudaEventElapsedTime(&t, e0, e1);
          if (r >= 3) ms.push_back(t);
        }
        std::sort(ms.begin(), ms.end());
        const double med = 0.5 * (ms[4] + ms[5]);
        std::printf("%-5s inputs with %2d significant bits (at most the type's), %-22s %7.1f TFLOP/s\n",
                    type == TCGEMM_TYPE_F16 ? "F16" : "BF16", bits, cfg ? "WMMA 256x128/64/3:" : "default (mma.sync):",
                    2.0 * n * n * n / (med * 1e-3) / 1e12);
      }
    }
  return 0;
}
