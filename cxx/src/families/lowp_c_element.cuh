// Reading and writing one element of C in the lower-precision families (wmma_lowp, mma_lowp): C is F32, F16
// or BF16 by a run-time type, and both families accumulate in FP32 (or FP16, widened) before the epilogue.
#pragma once

#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "tcgemm/tcgemm.h"

namespace tcgemm::detail {

__device__ __forceinline__ float load_c_element(const void* c, int32_t type, int64_t i) {
  switch (type) {
    case TCGEMM_TYPE_F16: return __half2float(static_cast<const __half*>(c)[i]);
    case TCGEMM_TYPE_BF16: return __bfloat162float(static_cast<const __nv_bfloat16*>(c)[i]);
    default: return static_cast<const float*>(c)[i];
  }
}

// Rounds to nearest in C's type.
__device__ __forceinline__ void store_c_element(void* c, int32_t type, int64_t i, float v) {
  switch (type) {
    case TCGEMM_TYPE_F16: static_cast<__half*>(c)[i] = __float2half_rn(v); break;
    case TCGEMM_TYPE_BF16: static_cast<__nv_bfloat16*>(c)[i] = __float2bfloat16_rn(v); break;
    default: static_cast<float*>(c)[i] = v; break;
  }
}

}  // namespace tcgemm::detail
