// Rules shared by the two shared-memory WMMA families, shared_a (Example 5) and shared_ab (Example 6):
// the square C tiles they instantiate and what a shared-memory padding may be (host-only).
#pragma once

#include <cstdint>

#include "core/arguments.hpp"
#include "core/host_device.hpp"
#include "families/common/wmma_shape.hpp"

namespace tcgemm::detail {

// WMMA load/store_matrix_sync need a leading dimension that is a multiple of 16 bytes = 2 doubles, and a
// 32-byte aligned tile pointer. A shared-memory padding is therefore a multiple of 2 doubles.
constexpr int kPadMultiple = 2;
constexpr int kMaxPad = 64;  // doubles; more only wastes shared memory

// Square C tiles (tile_m a multiple of 32, so tile_m * kWmmaK threads load one A tile column per warp exactly
// as in the article).
constexpr int kSharedTiles[] = {32, 64, 96, 128};
constexpr int kSharedTileCount = 4;
// True for the square C tiles both families instantiate (validation and the kernels' static_asserts).
constexpr bool is_shared_tile(int tile) {
  for (int i = 0; i < kSharedTileCount; ++i)
    if (kSharedTiles[i] == tile) return true;
  return false;
}
constexpr int largest_shared_tile() {
  int largest = 0;
  for (int i = 0; i < kSharedTileCount; ++i) largest = kSharedTiles[i] > largest ? kSharedTiles[i] : largest;
  return largest;
}

// A column-major tile in shared memory whose leading dimension is its row count plus a padding in doubles
// (the article's smPad, smPadA, smPadB): element (r, c) is at r + c * ld(). This is the one place where a
// padding enters shared-memory addressing; the footprints that validation checks are built from it too.
struct PaddedTile {
  int rows, cols, pad;
  TCGEMM_HOST_DEVICE constexpr int ld() const { return rows + pad; }
  TCGEMM_HOST_DEVICE constexpr int64_t doubles() const { return int64_t(rows + pad) * cols; }
};

// tile_m from the set (default_tile when 0), tile_n 0 or equal to it.
tcgemm_status validate_shared_tile(const ArgPositions& pos, const char* family, const tcgemm_config& c,
                                   int default_tile, int* tile);

}  // namespace tcgemm::detail
