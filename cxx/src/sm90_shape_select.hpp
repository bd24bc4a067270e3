// Which kSm90Shapes entry tcgemm_dgemm should use for a problem (host only, no CUDA calls); api.cpp's
// select_config() takes it for cc 9.x.
//
// Rule, from the H100 measurements (tcgemm-bench, cuBLAS timed interleaved, and bench/sm90_probe.cu;
// 2026-11-22, after the edge-free interior copies; ratios to cuBLAS DGEMM NN):
//   - fewer 128x64 tiles than SMs (n = 1024: 128 tiles on 132 SMs) or a shallow k (<= 256): 64x64x16,
//     3 blocks per SM keep every SM busy (n = 1024: 1.17 vs 1.06; m = n = 8192, k = 256: 0.90 vs 0.87);
//   - a deep k (>= 2048) with a skinny C (m or n <= 256): 128x128x16, least L2 traffic per flop
//     (m = 256, n = k = 8192: 1.10 vs 1.06; m = 8192, n = 256: 1.05 vs 1.02);
//   - otherwise the default 128x64x16. Square n = 2048 .. 8192 in the interleaved benchmark: 128x64
//     0.93 / 0.92 / 0.96 / 0.97, 128x128 0.92 / 0.90 / 0.94 / 0.93 (n = 2048 / 3200 / 4096 / 8192).
#pragma once

#include <cstdint>

#include "config_rules.hpp"

namespace tcgemm::detail {

constexpr int64_t kSm90ShallowK = 256;
constexpr int64_t kSm90DeepK = 2048;
constexpr int64_t kSm90SkinnyMN = 256;
// The block tiles the rule picks besides the default (entries of kSm90Shapes).
constexpr int kSm90SmallTileM = 64, kSm90SmallTileN = 64, kSm90SmallTileK = 16;
constexpr int kSm90LargeTileM = 128, kSm90LargeTileN = 128, kSm90LargeTileK = 16;

// Index into kSm90Shapes of the first entry with this block tile, or kSm90DefaultShape.
constexpr int sm90_shape_index(int tile_m, int tile_n, int tile_k) {
  for (int i = 0; i < kSm90ShapeCount; ++i)
    if (kSm90Shapes[i].tile_m == tile_m && kSm90Shapes[i].tile_n == tile_n && kSm90Shapes[i].tile_k == tile_k)
      return i;
  return kSm90DefaultShape;
}

static_assert(sm90_shape_index(kSm90SmallTileM, kSm90SmallTileN, kSm90SmallTileK) != kSm90DefaultShape &&
                  sm90_shape_index(kSm90LargeTileM, kSm90LargeTileN, kSm90LargeTileK) != kSm90DefaultShape,
              "the small and large tiles picked by sm90_select_shape must be entries of kSm90Shapes");

constexpr int sm90_select_shape(int64_t m, int64_t n, int64_t k, int sm_count) {
  const Sm90Shape& def = kSm90Shapes[kSm90DefaultShape];
  const int64_t default_tiles = ((m + def.tile_m - 1) / def.tile_m) * ((n + def.tile_n - 1) / def.tile_n);
  if (default_tiles < sm_count || k <= kSm90ShallowK)
    return sm90_shape_index(kSm90SmallTileM, kSm90SmallTileN, kSm90SmallTileK);
  if (k >= kSm90DeepK && (m <= kSm90SkinnyMN || n <= kSm90SkinnyMN))
    return sm90_shape_index(kSm90LargeTileM, kSm90LargeTileN, kSm90LargeTileK);
  return kSm90DefaultShape;
}

}  // namespace tcgemm::detail
