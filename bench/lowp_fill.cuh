// Random device operands for the lower-precision benchmarks (tcgemm-lowp-bench, tcgemm-mma-lowp-probe):
// uniform in [-1, 1) from a counter hash (SplitMix64), written in the element type, so that runs and
// programs see the same data for the same seed without a host copy.
#pragma once

#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "tcgemm/tcgemm.h"

namespace tcgemm::bench {

__global__ inline void fill_uniform_kernel(void* p, int32_t type, int64_t n, uint64_t seed) {
  for (int64_t i = int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += int64_t(gridDim.x) * blockDim.x) {
    uint64_t x = (uint64_t(i) + seed) * 0x9E3779B97F4A7C15ull;
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    const float v = float(x >> 40) / float(1 << 24) * 2.0f - 1.0f;  // uniform in [-1, 1)
    if (type == TCGEMM_TYPE_F16) static_cast<__half*>(p)[i] = __float2half_rn(v);
    else if (type == TCGEMM_TYPE_BF16) static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v);
    else static_cast<float*>(p)[i] = v;
  }
}

}  // namespace tcgemm::bench
