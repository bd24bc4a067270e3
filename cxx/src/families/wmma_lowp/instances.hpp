// The wmma_lowp kernel instances, one translation unit per input and accumulator type (kernel_*.cu), so
// that the build compiles them in parallel. Each takes a prepared LowpArgs, the resolved shape and tile, and
// the dynamic shared memory of the call's operand form (launch.cu prepares all of them).
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

#include "core/device.hpp"
#include "families/wmma_lowp/launch.hpp"

namespace tcgemm::detail::wmma_lowp {

tcgemm_status launch_f16_acc32(const LowpArgs& args, int shape, int tile_m, int tile_n, int64_t smem_bytes,
                               const DeviceContext& ctx, cudaStream_t stream);
tcgemm_status launch_f16_acc16(const LowpArgs& args, int shape, int tile_m, int tile_n, int64_t smem_bytes,
                               const DeviceContext& ctx, cudaStream_t stream);
tcgemm_status launch_bf16(const LowpArgs& args, int shape, int tile_m, int tile_n, int64_t smem_bytes,
                          const DeviceContext& ctx, cudaStream_t stream);
tcgemm_status launch_tf32(const LowpArgs& args, int shape, int tile_m, int tile_n, int64_t smem_bytes,
                          const DeviceContext& ctx, cudaStream_t stream);

}  // namespace tcgemm::detail::wmma_lowp
