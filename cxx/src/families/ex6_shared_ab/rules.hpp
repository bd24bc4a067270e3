// Example 6 of the CUDA Fortran tensor-core article: tile x tile_k A and tile_k x tile B tiles in dynamic
// shared memory, leading dimensions padded by pad_a and pad_b (the article's smPadA, smPadB), a cp.async
// pipeline of 1 .. kSharedABMaxStages stages (kernel.cu). Host-only facts and rules:
// included by the family table (CPU CI checks them) and by the kernel.
#pragma once

#include <cstdint>

#include "core/arguments.hpp"
#include "families/common/shared_tiles.hpp"

namespace tcgemm::detail {

// tile_k is a run-time loop bound (a multiple of kWmmaK); stages 1 (the article's load-sync-compute) or
// 2 .. kSharedABMaxStages (a ring of buffers: the next stages - 1 k-tiles are copied with cp.async while the
// current one is multiplied). Both are run-time values (the kernel has one instance for stages = 1 and one
// for every ring).
constexpr int kSharedABMinTileK = 4;
constexpr int kSharedABMaxTileK = 256;
constexpr int kSharedABMaxStages = 6;
constexpr int kSharedABDefaultTile = 128;  // 141 KB of shared memory: fits an A100 too
constexpr int kSharedABDefaultTileK = 32;
constexpr int kSharedABDefaultPad = 4;
constexpr int kSharedABDefaultStages = 2;

// One pipeline stage holds the A k-tile (tile x tile_k, leading dimension tile + pad_a) and, right after it,
// the B k-tile (tile_k x tile, leading dimension tile_k + pad_b).
TCGEMM_HOST_DEVICE constexpr PaddedTile shared_ab_a_tile(int tile, int tile_k, int pad_a) {
  return PaddedTile{tile, tile_k, pad_a};
}
TCGEMM_HOST_DEVICE constexpr PaddedTile shared_ab_b_tile(int tile, int tile_k, int pad_b) {
  return PaddedTile{tile_k, tile, pad_b};
}
// Shared memory of one block, in bytes. Validation and the launcher both use it.
constexpr int64_t shared_ab_smem_bytes(int tile, int tile_k, int pad_a, int pad_b, int stages) {
  return int64_t(sizeof(double)) * stages *
         (shared_ab_a_tile(tile, tile_k, pad_a).doubles() + shared_ab_b_tile(tile, tile_k, pad_b).doubles());
}

// ---- rules (rules.cpp) ----
tcgemm_status validate_shared_ab_config(const tcgemm_config& in, const ArgPositions& pos, tcgemm_config* out);
int64_t shared_ab_config_smem_bytes(const tcgemm_config& resolved);
int shared_ab_threads(const tcgemm_config& resolved);  // one warp per 8-row block row of C

// ---- launcher (kernel.cu): full BLAS semantics ----
tcgemm_status launch_shared_ab(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);

}  // namespace tcgemm::detail
