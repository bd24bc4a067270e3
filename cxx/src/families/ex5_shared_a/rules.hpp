// Example 5 of the CUDA Fortran tensor-core article: the tile_m x 4 A tile in shared memory with leading
// dimension tile_m + pad_a (the article's smPad), B fragments straight from global memory (kernel.cu).
// Host-only facts and rules: included by the family table (CPU CI checks them) and by the kernel.
#pragma once

#include <cstdint>

#include "core/arguments.hpp"
#include "families/common/shared_tiles.hpp"

namespace tcgemm::detail {

constexpr int kSharedADefaultTile = 64;
constexpr int kSharedADefaultPad = 4;

// The block's one shared-memory tile: tile_m x 4 of A, leading dimension tile_m + pad_a.
TCGEMM_HOST_DEVICE constexpr PaddedTile shared_a_tile(int tile_m, int pad_a) {
  return PaddedTile{tile_m, kWmmaK, pad_a};
}
// Shared memory of one block, in bytes. Validation (the device limit check, tcgemm_config_shared_memory_bytes)
// and the launcher (dynamic shared-memory size) both use it.
constexpr int64_t shared_a_smem_bytes(int tile_m, int pad_a) {
  return int64_t(sizeof(double)) * shared_a_tile(tile_m, pad_a).doubles();
}

// ---- rules (rules.cpp) ----
tcgemm_status validate_shared_a_config(const tcgemm_config& in, const ArgPositions& pos, tcgemm_config* out);
int64_t shared_a_config_smem_bytes(const tcgemm_config& resolved);
int shared_a_threads(const tcgemm_config& resolved);  // one warp per 8 columns of the C tile

// ---- launcher (kernel.cu): full BLAS semantics ----
tcgemm_status launch_shared_a(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);

}  // namespace tcgemm::detail
