// Compile-time facts shared by validation (validate.cpp) and the kernels (static_asserts, instantiation
// tables). Validation is the only place that turns these into run-time rules and error messages.
#pragma once

#include <cstdint>

namespace tcgemm::detail {

// FP64 WMMA fragment shape (nvcuda::wmma, 8x8x4 double; = mma.m8n8k4.f64).
constexpr int kWmmaM = 8;
constexpr int kWmmaN = 8;
constexpr int kWmmaK = 4;
constexpr int kWarpSize = 32;
// The example families (single .. peak) stage edge and misaligned tiles through one 8x8 double tile of
// shared memory per warp (wmma_common.cuh, WarpScratch).
constexpr int64_t kWarpScratchBytes = int64_t(kWmmaM) * kWmmaN * sizeof(double);

// WMMA load/store_matrix_sync need a leading dimension that is a multiple of 16 bytes = 2 doubles, and a
// 32-byte aligned tile pointer. A shared-memory padding is therefore a multiple of 2 doubles.
constexpr int kPadMultiple = 2;
constexpr int kMaxPad = 64;  // doubles; more only wastes shared memory

// block_tile (Example 4): tile_m x tile_n C tile, one warp per 8x8 sub-tile, at most 32 warps per block.
constexpr int kBlockTileMax = 128;
constexpr int kBlockTileMaxWarps = 32;
constexpr int kBlockTileDefaultM = 32;
constexpr int kBlockTileDefaultN = 32;

// peak (Figure 1): fixed block of kPeakWarpsM x kPeakWarpsN warps, each owning one 8x8 C tile.
constexpr int kPeakWarpsM = 4;
constexpr int kPeakWarpsN = 2;

// shared_a (Example 5) and shared_ab (Example 6): square C tiles from this set (tile_m a multiple of 32,
// so tile_m * kWmmaK threads load one A tile column per warp exactly as in the seed).
constexpr int kSharedTiles[] = {32, 64, 96, 128};
constexpr int kSharedTileCount = 4;
// True for the square C tiles both families instantiate (validation and the kernels' static_asserts).
constexpr bool is_shared_tile(int tile) {
  for (int i = 0; i < kSharedTileCount; ++i)
    if (kSharedTiles[i] == tile) return true;
  return false;
}
constexpr int kSharedADefaultTile = 64;
constexpr int kSharedADefaultPad = 4;

// shared_ab: tile_k is a run-time loop bound (multiple of kWmmaK); stages 1 (the seed's load-sync-compute)
// or 2 (double buffering: the next tile_k slab is copied with cp.async while the current one is used).
constexpr int kSharedABMinTileK = 4;
constexpr int kSharedABMaxTileK = 256;
constexpr int kSharedABMaxStages = 2;
constexpr int kSharedABDefaultTile = 128;  // H100: 24.7 TFLOP/s at n = 4096; 141 KB, fits an A100 too
constexpr int kSharedABDefaultTileK = 32;
constexpr int kSharedABDefaultPad = 4;
constexpr int kSharedABDefaultStages = 2;

// sm90_mma (Hopper, mma.sync.m16n8k*.f64): the instantiated block shapes. Each entry is one template
// instance in sm90_mma.cu; validation accepts exactly these (tile_m, tile_n, tile_k) and stages in range.
struct Sm90Shape {
  int tile_m, tile_n, tile_k;
  int warps_m, warps_n;  // warp grid; warp tile = (tile_m / warps_m) x (tile_n / warps_n)
  int min_stages, max_stages, default_stages;
};
// Measured on the H100 (tcgemm-bench, cuBLAS timed interleaved, 2026-11-22; ratios to cuBLAS DGEMM; the
// tuning log is in bench/sm90_probe.cu):
//   128x64x16, 2x2 warps (64x32 warp tiles, 2 blocks/SM), 3 stages: cuBLAS's own H100 DGEMM tile; NN 0.93,
//     0.92, 0.96, 0.97 at n = 2048, 3200, 4096, 8192. The default, and tcgemm_dgemm's choice at those sizes.
//   64x64x16, 2x2 warps (32x32, 3 blocks/SM), 4 stages: more blocks for small or shallow-k problems
//     (0.95 at n = 1024).
//   128x128x16, 2x4 warps (64x32, 1 block/SM), 3 stages: least L2 traffic; ahead only for a skinny C with a
//     deep k (m or n <= 256, k >= 2048).
constexpr Sm90Shape kSm90Shapes[] = {
    {128, 64, 16, 2, 2, 2, 4, 3},
    {64, 64, 16, 2, 2, 2, 5, 4},
    {128, 128, 16, 2, 4, 2, 4, 3},
};
constexpr int kSm90ShapeCount = sizeof(kSm90Shapes) / sizeof(kSm90Shapes[0]);
constexpr int kSm90DefaultShape = 0;
constexpr int kSm90MinCcMajor = 9;

}  // namespace tcgemm::detail

namespace tcgemm::detail {

// Shared-memory footprints, in bytes, of the families whose tiles live in shared memory. Validation (the
// device limit check, tcgemm_config_shared_memory_bytes) and the launchers (dynamic shared-memory size)
// both call these, so the two can never disagree.
constexpr int64_t shared_a_smem_bytes(int tile_m, int pad_a) {
  return int64_t(sizeof(double)) * (tile_m + pad_a) * kWmmaK;
}
constexpr int64_t shared_ab_smem_bytes(int tile, int tile_k, int pad_a, int pad_b, int stages) {
  return int64_t(sizeof(double)) * stages * (int64_t(tile + pad_a) * tile_k + int64_t(tile_k + pad_b) * tile);
}
// sm90_mma also keeps its block's tile origin (two int64) in static shared memory, out of the registers.
constexpr int64_t kSm90StaticSmemBytes = 2 * int64_t(sizeof(int64_t));
constexpr int64_t sm90_smem_bytes(const Sm90Shape& s, int stages) {
  return int64_t(sizeof(double)) * stages * (int64_t(s.tile_m) * s.tile_k + int64_t(s.tile_k) * s.tile_n) +
         kSm90StaticSmemBytes;
}

}  // namespace tcgemm::detail
