// Which kSm90Shapes entry tcgemm_dgemm uses for a problem (host only, no CUDA calls); api/gemm_call.cpp's
// select_config() takes it on cc 9.x.
//   - fewer default (128x64) tiles than SMs, or a shallow k: 64x64x16, whose three blocks per SM keep every
//     SM busy;
//   - a deep k with a skinny C (m or n small): 128x128x16, the least L2 traffic per flop;
//   - otherwise the default 128x64x16.
// The thresholds come from measurements on the H100 (docs/tuning.md, "sm90_mma shape choice").
#pragma once

#include <cstdint>

#include "families/sm90/rules.hpp"

namespace tcgemm::detail {

constexpr int64_t kSm90ShallowK = 256;
constexpr int64_t kSm90DeepK = 2048;
constexpr int64_t kSm90SkinnyMN = 256;
// The block tiles the rule picks besides the default (entries of kSm90Shapes).
constexpr int kSm90SmallTileM = 64, kSm90SmallTileN = 64, kSm90SmallTileK = 16;
constexpr int kSm90LargeTileM = 128, kSm90LargeTileN = 128, kSm90LargeTileK = 16;

static_assert(find_sm90_shape(kSm90SmallTileM, kSm90SmallTileN, kSm90SmallTileK) >= 0 &&
                  find_sm90_shape(kSm90LargeTileM, kSm90LargeTileN, kSm90LargeTileK) >= 0,
              "the small and large tiles picked by sm90_select_shape must be entries of kSm90Shapes");

constexpr int sm90_select_shape(int64_t m, int64_t n, int64_t k, int sm_count) {
  const Sm90Shape& def = kSm90Shapes[kSm90DefaultShape];
  const int64_t default_tiles = ((m + def.tile_m - 1) / def.tile_m) * ((n + def.tile_n - 1) / def.tile_n);
  if (default_tiles < sm_count || k <= kSm90ShallowK)
    return find_sm90_shape(kSm90SmallTileM, kSm90SmallTileN, kSm90SmallTileK);
  if (k >= kSm90DeepK && (m <= kSm90SkinnyMN || n <= kSm90SkinnyMN))
    return find_sm90_shape(kSm90LargeTileM, kSm90LargeTileN, kSm90LargeTileK);
  return kSm90DefaultShape;
}

}  // namespace tcgemm::detail
