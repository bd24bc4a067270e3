// wmma_lowp instances: FP32 inputs multiplied in TF32 (16x16x8), FP32 accumulators, every tile and form.
#include "families/wmma_lowp/instances.hpp"
#include "families/wmma_lowp/dispatch.cuh"

namespace tcgemm::detail::wmma_lowp {

tcgemm_status launch_tf32(const LowpArgs& args, int /*shape: 16x16x8, the only TF32 shape*/, int tile_m, int tile_n,
                          int64_t smem_bytes, const DeviceContext& ctx, cudaStream_t stream) {
  return launch_tile<float, float, 16, 16, 8>(args, tile_m, tile_n, smem_bytes, ctx, stream);
}

}  // namespace tcgemm::detail::wmma_lowp
