// wmma_lowp instances: F16 inputs, FP16 accumulators, every 16-bit shape, tile and operand form.
#include "families/wmma_lowp/instances.hpp"
#include "families/wmma_lowp/dispatch.cuh"

namespace tcgemm::detail::wmma_lowp {

tcgemm_status launch_f16_acc16(const LowpArgs& args, int shape, int tile_m, int tile_n, int64_t smem_bytes,
                               const DeviceContext& ctx, cudaStream_t stream) {
  return launch_shape16<__half, __half>(args, shape, tile_m, tile_n, smem_bytes, ctx, stream);
}

}  // namespace tcgemm::detail::wmma_lowp
