// wmma_lowp instances: BF16 inputs, FP32 accumulators, every 16-bit shape, tile and operand form.
#include "families/wmma_lowp/instances.hpp"
#include "families/wmma_lowp/dispatch.cuh"

namespace tcgemm::detail::wmma_lowp {

tcgemm_status launch_bf16(const LowpArgs& args, int shape, int tile_m, int tile_n, int64_t smem_bytes,
                          const DeviceContext& ctx, cudaStream_t stream) {
  return launch_shape16<__nv_bfloat16, float>(args, shape, tile_m, tile_n, smem_bytes, ctx, stream);
}

}  // namespace tcgemm::detail::wmma_lowp
