// FP32 -> FP16 / BF16 conversion (convert.hpp): one element per thread in a grid-stride loop, consecutive
// threads along a column (coalesced reads and writes).
#include "families/wmma_lowp/convert.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "core/errors.hpp"

namespace tcgemm::detail {
namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 65535 * 4;  // enough to fill any GPU; the loop covers the rest

template <class Out, Out (*kRound)(float)>
__global__ void convert_f32_kernel(const float* src, int64_t ld, int64_t rows, int64_t total, Out* dst) {
  for (int64_t i = int64_t(blockIdx.x) * kThreads + threadIdx.x; i < total; i += int64_t(gridDim.x) * kThreads) {
    const int64_t r = i % rows, c = i / rows;
    dst[i] = kRound(src[r + c * ld]);
  }
}

__device__ __half to_half(float v) { return __float2half_rn(v); }
__device__ __nv_bfloat16 to_bf16(float v) { return __float2bfloat16_rn(v); }

}  // namespace

tcgemm_status launch_convert_f32(const float* src, int64_t ld, int64_t rows, int64_t cols, void* dst, int32_t type,
                                 cudaStream_t stream) {
  const int64_t total = rows * cols;
  if (total == 0) return TCGEMM_SUCCESS;
  const int64_t want = (total + kThreads - 1) / kThreads;
  const unsigned blocks = static_cast<unsigned>(want < kMaxBlocks ? want : kMaxBlocks);
  if (type == TCGEMM_TYPE_F16)
    convert_f32_kernel<__half, to_half><<<blocks, kThreads, 0, stream>>>(src, ld, rows, total, static_cast<__half*>(dst));
  else
    convert_f32_kernel<__nv_bfloat16, to_bf16>
        <<<blocks, kThreads, 0, stream>>>(src, ld, rows, total, static_cast<__nv_bfloat16*>(dst));
  TCGEMM_CHECK_LAUNCH("convert_f32_kernel");
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
