// Family sm90_mma (Hopper, mma.sync.m16n8k*.f64 with a cp.async multistage pipeline): the instantiated block
// shapes and their host-only rules. Included by the family table (CPU CI checks the rules) and by the kernel
// instances (launch.cu), whose static_asserts check every table entry against the kernel's constraints.
// Why each shape exists, and the measurements behind the choice: docs/tuning.md.
#pragma once

#include <cstdint>

#include "core/arguments.hpp"

namespace tcgemm::detail {

// Vocabulary of the k dimension in this family:
//   k-tile  tile_k consecutive k (16): what one pipeline stage holds in shared memory for A and B;
//   k-step  the k of one mma instruction (4 or 8);
//   k-group two k8 steps whose fragments are loaded together (register double buffering).
struct Sm90Shape {
  int tile_m, tile_n, tile_k;
  int warps_m, warps_n;  // warp grid; warp tile = (tile_m / warps_m) x (tile_n / warps_n)
  int min_stages, max_stages, default_stages;
};
// Each entry is one family of template instances in launch.cu; validation accepts exactly these
// (tile_m, tile_n, tile_k) and stages in range.
//   128x64x16, 2x2 warps of 64x32, 2 blocks/SM: the default (cuBLAS's own H100 DGEMM tile);
//   64x64x16, 2x2 warps of 32x32, 3 blocks/SM: more blocks for small or shallow-k problems;
//   128x128x16, 2x4 warps of 64x32, 1 block/SM: least L2 traffic, for a skinny C with a deep k;
//   32x64x32, 2x2 warps of 16x32, 3 blocks/SM: small products (about 1000^3 and below), whose 64x64 tiles
//   fill only 1-2 uneven rounds of the SMs. Four warps per block keep all four tensor pipes of an SM busy
//   even with one block resident; tile_k 32 halves the barriers per flop of a 16-deep stage. (cuBLAS runs
//   this tile at 384^3-896^3 on the H100; a 32x32 tile of one warp measured slower than 64x64.)
//   64x128x32, 2x4 warps of 32x32, 1 block/SM of 8 warps: grids of one full round (about 128 blocks), where it
//   beat the other tiles (1024^3, 1000x1000x20000, 512x512x16384 in 4 slices; cuBLAS runs this tile at
//   512x512x16384). The plan takes it only there (api/dgemm_plan.cpp, sm90_candidate_considered).
//   32x32x32, 2x2 warps of 16x16: products too small to give every SM a 32x64 block (256^3: 32 blocks), where
//   a block's time is its warps' chain of MMAs (64 m16n8k16 per warp at 256^3 on 32x64, about 2 us) plus a
//   fixed ~3 us; a 16x16 warp tile halves the chain. (cuBLAS runs this tile, 5 stages, at 256^3 on the H200.)
constexpr Sm90Shape kSm90Shapes[] = {
    {128, 64, 16, 2, 2, 2, 4, 3},
    {64, 64, 16, 2, 2, 2, 5, 4},
    {128, 128, 16, 2, 4, 2, 4, 3},
    {32, 64, 32, 2, 2, 2, 4, 3},
    {64, 128, 32, 2, 4, 2, 4, 3},
    {32, 32, 32, 2, 2, 2, 5, 3},
};
constexpr int kSm90ShapeCount = sizeof(kSm90Shapes) / sizeof(kSm90Shapes[0]);
constexpr int kSm90DefaultShape = 0;
constexpr int kSm90MinCcMajor = 9;

constexpr int kSm90RegistersPerSm = 65536;
constexpr int kSm90MaxRegistersPerThread = 255;
constexpr int kSm90SmallWarpTileAcc = 32;
constexpr int kSm90SmallWarpTileRegisters = 168;
constexpr int kSm90WarpThreads = 32;
constexpr int sm90_threads_of(const Sm90Shape& s) { return s.warps_m * s.warps_n * kSm90WarpThreads; }

// The configuration that runs shape s at its default depth, without k-splits (the plan model's candidates and
// the batched route start from it).
inline tcgemm_config sm90_shape_config(const Sm90Shape& s) {
  tcgemm_config c{};
  c.family = TCGEMM_FAMILY_SM90_MMA;
  c.tile_m = s.tile_m;
  c.tile_n = s.tile_n;
  c.tile_k = s.tile_k;
  c.stages = s.default_stages;
  return c;
}
// Index into kSm90Shapes of the entry with this block tile, or -1: the one lookup of the table.
constexpr int find_sm90_shape(int tile_m, int tile_n, int tile_k) {
  for (int i = 0; i < kSm90ShapeCount; ++i)
    if (kSm90Shapes[i].tile_m == tile_m && kSm90Shapes[i].tile_n == tile_n && kSm90Shapes[i].tile_k == tile_k)
      return i;
  return -1;
}

// Shared memory of one block, in bytes: `stages` k-tiles of A (tile_m x tile_k) and B (tile_k x tile_n)
// in dynamic shared memory, plus the block's tile origin and write floor (four int64) parked in static
// shared memory.
constexpr int64_t kSm90StaticSmemBytes = 4 * int64_t(sizeof(int64_t));
constexpr int64_t sm90_dynamic_smem_bytes(int tile_m, int tile_n, int tile_k, int stages) {
  return int64_t(sizeof(double)) * stages * (int64_t(tile_m) * tile_k + int64_t(tile_k) * tile_n);
}
constexpr int64_t sm90_smem_bytes(const Sm90Shape& s, int stages) {
  return sm90_dynamic_smem_bytes(s.tile_m, s.tile_n, s.tile_k, stages) + kSm90StaticSmemBytes;
}

// Blocks of shape s one SM holds (the kernel's __launch_bounds__ minimum, launch.cu; the cluster rule below;
// the plan model's residency, api/dgemm_plan.cpp): what the register allocation is planned for (64 x 32 warp
// tiles need up to 255 registers: two 128-thread blocks; warp tiles of at most 32 accumulators per thread fit
// in 168: three), or what the SM's 228 KB of shared memory holds at the default depth (the driver reserves
// 1 KB per block), whichever is fewer. Registers bind for every entry today. (The 32x32 entry's 16 x 16 warp tiles
// compile to 126-156 registers, so its 'N','N' instances could hold 4 blocks; it is planned, bounded and modelled
// at 3, like 32x64, and only runs grids of at most one block per SM.)
constexpr int64_t kSm90SmemPerSm = 233472;
constexpr int64_t kSm90SmemReservedPerBlock = 1024;
constexpr int sm90_blocks_per_sm(const Sm90Shape& s) {
  const int acc = (s.tile_m / s.warps_m) * (s.tile_n / s.warps_n) / kSm90WarpThreads;
  const int regs = acc <= kSm90SmallWarpTileAcc ? kSm90SmallWarpTileRegisters : kSm90MaxRegistersPerThread + 1;
  const int by_registers = kSm90RegistersPerSm / (sm90_threads_of(s) * regs);
  const int by_smem = static_cast<int>(kSm90SmemPerSm / (sm90_smem_bytes(s, s.default_stages) + kSm90SmemReservedPerBlock));
  const int blocks = by_registers < by_smem ? by_registers : by_smem;
  return blocks < 1 ? 1 : blocks;
}

// Split-K: a requested number of k-slices (tcgemm_config.k_splits; 0 or 1: none) becomes slices of
// k_slice = a multiple of tile_k, so every slice starts on a k-tile and none is empty; the count actually
// run is ceil(k / k_slice) <= requested. The slices are block rows of the grid (gridDim.y).
constexpr int kSm90MaxKSplits = 65535;
struct Sm90Split {
  int64_t slices;   // 1: no split
  int64_t k_slice;  // k depth of every slice but the last
};
constexpr Sm90Split sm90_split(int64_t k, int64_t requested, int tile_k) {
  if (requested <= 1 || k <= tile_k) return Sm90Split{1, k};
  const int64_t k_tiles = k / tile_k + (k % tile_k != 0);
  const int64_t per = k_tiles / requested + (k_tiles % requested != 0);  // k-tiles per slice
  const int64_t k_slice = per * tile_k;
  return Sm90Split{k / k_slice + (k % k_slice != 0), k_slice};
}

// Cluster split-K: up to kSm90MaxClusterSlices slices (the portable cluster size) of one C tile run as one thread-
// block cluster and add their partial tiles through distributed shared memory: no workspace and no second kernel.
// It needs the staged epilogue (each warp's tile parked in the pipeline's shared memory, so stages x (tile_m +
// tile_n) x tile_k >= tile_m x tile_n) in the 'N','N' layout; 'T','T' stages its tile as a block of C (its D
// transposed) and has no cluster instance. Measured (docs/tuning.md, "Cluster split-K"), it wins only when the
// whole grid is one round of clusters on the device and each slice is at least kSm90MinClusterSliceKTiles k-tiles
// deep; other split products reduce through workspace. Tiles of one block per SM never cluster (512x512x16384:
// 128x128 with 4 stages in 8 clustered slices 0.297 ms against 0.177 through workspace; 64x128 in 4 clustered
// slices 0.293 against 0.166). Both routes add the slices in the same order (the same bits), and the choice is a
// function of the shape and the device, shared by the launcher and the plan model.
//
// "One round of clusters" counts clusters, not blocks: a cluster is placed whole inside one GPC, and a GPC whose
// free block slots are not a multiple of the cluster size leaves the rest idle. The H100 SXM (132 SMs) holds 62
// clusters of 4 blocks of a 2-blocks-per-SM kernel, not 264 / 4 = 66, and 92 of 4 at 3 per SM, not 99
// (cudaOccupancyMaxActiveClusters; a fixed-length kernel timed over growing cluster counts turns from one round
// to two within one cluster of CUDA's count: bench/results/2026-11-28-h100-cluster-room/). Counting blocks put
// 952x501x4911 (64 tiles of 128x64) in 4 clustered slices: two rounds, 0.178 ms against 0.134 through
// workspace, 0.69 of cuBLAS.
constexpr int kSm90MaxClusterSlices = 8;
constexpr int64_t kSm90MinClusterSliceKTiles = 8;
// Clusters of `slices` blocks (slices = 2..kSm90MaxClusterSlices) of each shape, at its default depth, that a
// device runs at once: CUDA's answer (0: none of that size fits, or the shape has no cluster instance), or -1
// where CUDA could not say.
struct Sm90ClusterRoom {
  int32_t clusters[kSm90ShapeCount][kSm90MaxClusterSlices + 1];
};
// The answers of the H100 SXM the calibration files were measured on (132 SMs; 2026-11-28), for the host-only
// uses of the plan model, which have no device to ask: the CPU tests and tcgemm-plan-check. Another board may
// answer differently; the library always asks its own device (sm90_cluster_room).
static_assert(kSm90ShapeCount == 6, "kH100ClusterRoom has one row per kSm90Shapes entry, in its order");
inline constexpr Sm90ClusterRoom kH100ClusterRoom = {{
    {0, 0, 132, 79, 62, 47, 39, 32, 30},   // 128x64, 2 blocks per SM
    {0, 0, 198, 124, 92, 69, 62, 47, 45},  // 64x64, 3 blocks per SM
    {0, 0, 0, 0, 0, 0, 0, 0, 0},           // 128x128, 1 block per SM: no cluster instance
    {0, 0, 198, 124, 92, 69, 62, 47, 45},  // 32x64, 3 blocks per SM
    {0, 0, 0, 0, 0, 0, 0, 0, 0},           // 64x128, 1 block per SM: no cluster instance
    {0, 0, 198, 124, 92, 69, 62, 47, 45},  // 32x32, 3 blocks per SM (as 32x64; not asked of the H100)
}};
// Each row of the table: zero exactly for the shapes without a cluster instance (one block per SM), and never
// more clusters than block slots over the cluster size.
constexpr bool sm90_cluster_room_plausible(const Sm90ClusterRoom& room, int sm_count) {
  for (int s = 0; s < kSm90ShapeCount; ++s)
    for (int slices = 2; slices <= kSm90MaxClusterSlices; ++slices) {
      const int64_t n = room.clusters[s][slices];
      if ((n > 0) != (sm90_blocks_per_sm(kSm90Shapes[s]) > 1)) return false;
      if (n > int64_t(sm_count) * sm90_blocks_per_sm(kSm90Shapes[s]) / slices) return false;
    }
  return true;
}
static_assert(sm90_cluster_room_plausible(kH100ClusterRoom, 132), "kH100ClusterRoom: a row out of bounds");
// Clusters of `slices` blocks of kSm90Shapes[shape] at once: `room`'s answer when it has one, else (no room, or
// CUDA could not say) the count of block slots, an upper bound (what the rule used before it knew of GPCs).
constexpr int64_t sm90_clusters_at_once(const Sm90ClusterRoom* room, int shape, int64_t slices, int sm_count) {
  if (slices < 2 || slices > kSm90MaxClusterSlices) return 0;
  if (room && room->clusters[shape][slices] >= 0) return room->clusters[shape][slices];
  return int64_t(sm_count) * sm90_blocks_per_sm(kSm90Shapes[shape]) / slices;
}
// Everything the cluster split-K needs but the room: the slice count, slices of at least
// kSm90MinClusterSliceKTiles k-tiles, a cluster instance (more than one block per SM, not 'T','T') and a pipeline
// deep enough to park a warp tile.
constexpr bool sm90_cluster_eligible(const Sm90Shape& s, int stages, const Sm90Split& split, char transa,
                                     char transb) {
  return split.slices > 1 && split.slices <= kSm90MaxClusterSlices && !(transa == 'T' && transb == 'T') &&
         split.k_slice >= kSm90MinClusterSliceKTiles * s.tile_k && sm90_blocks_per_sm(s) > 1 &&
         int64_t(stages) * (s.tile_m + s.tile_n) * s.tile_k >= int64_t(s.tile_m) * s.tile_n;
}
// The rule: eligible, and every tile's cluster on the device at once (clusters_at_once: sm90_clusters_at_once
// for this shape and split.slices, at the call's depth).
constexpr bool sm90_cluster_split(const Sm90Shape& s, int stages, const Sm90Split& split, int64_t tiles,
                                  int64_t clusters_at_once, char transa, char transb) {
  return sm90_cluster_eligible(s, stages, split, transa, transb) && tiles <= clusters_at_once;
}

// Rasterization (kernel.cuh): blocks walk the C tile grid in groups of tile rows, tile rows fastest inside a
// group. Groups of kSm90RasterGroupRows rows keep the A panels of a group in L2 while its blocks move along n,
// so A is read from HBM about once (4 and 16 rows measured the same at large squares). When the whole of A
// (the kernel's left operand, m x k) fits in a quarter of L2, it stays there anyway, and one group of all the
// tile rows lets the blocks that run at once write C down whole columns: at small k, where writing C is
// most of the work, that measured 0.85 -> 1.00 of cuBLAS at 16384x16384x64, 0.91 -> 1.01 at 12000x12000x32
// and 0.93 -> 1.02 at 8192x8192x128 (A of 3-8 MB), while 30000x300x128 (A 30 MB, re-read from HBM for each
// of its 5 tile columns) lost 1.08 -> 0.83 and large squares stayed within 0.5%
// (bench/results/2026-11-27-h100-raster/).
constexpr int kSm90RasterGroupRows = 8;
constexpr int64_t sm90_raster_rows(int64_t m, int64_t k, int64_t tiles_m, int64_t l2_bytes) {
  const int64_t rows = tiles_m < 1 ? 1 : tiles_m;
  if (l2_bytes > 0 && m <= l2_bytes / 4 / int64_t(sizeof(double)) / (k < 1 ? 1 : k)) return rows;
  return rows < kSm90RasterGroupRows ? rows : kSm90RasterGroupRows;
}

// ---- rules (rules.cpp) ----
tcgemm_status validate_sm90_config(const tcgemm_config& in, const ArgPositions& pos, tcgemm_config* out);
int64_t sm90_config_smem_bytes(const tcgemm_config& resolved);
int sm90_threads(const tcgemm_config& resolved);
// One block per C tile on a one-dimensional grid.
GridNeed sm90_grid_need(const GemmProblem& p, const tcgemm_config& resolved);

// ---- launch.cu ----
tcgemm_status launch_sm90_mma(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);
// A strided batch of products of one shape (tcgemm_dgemm_strided_batched): product g multiplies A + g strideA
// and B + g strideB into C + g strideC. One launch per 65535 products; the products are the grid's y
// dimension, through the parameters split-K already has (launch.cu). cfg: a validated configuration of this
// family without k-splits. p: the first product, validated; alpha != 0 and k > 0.
tcgemm_status launch_sm90_strided_batched(const GemmProblem& p, int64_t batch, int64_t stride_a, int64_t stride_b,
                                          int64_t stride_c, const tcgemm_config& cfg, const DeviceContext& ctx,
                                          cudaStream_t stream);
// True when this build carries sm_90 code for the family that can run on ctx's device (a build whose
// CMAKE_CUDA_ARCHITECTURES lacks 90 has none). Cached per device; records no error.
bool sm90_code_available(const DeviceContext& ctx);
// The cluster room of ctx's device (Sm90ClusterRoom) at every shape's default depth, asked of CUDA once per
// (device, CUDA context) for the 'N','N' cluster instance of each shape (an entry CUDA could not answer stays -1
// for that context); never null. The plan model reads it (plan_device), and so does the launcher at the default
// depth, so the two take the same route. Records no error and leaves no CUDA error pending. Only for a device
// with sm_90 code (sm90_code_available).
const Sm90ClusterRoom* sm90_cluster_room(const DeviceContext& ctx);
// Whether launch_sm90_mma runs this product (validated; cfg of this family, resolved) as a cluster split-K: the
// launcher's own decision, for the tests.
bool sm90_takes_cluster_route(const GemmProblem& p, const tcgemm_config& cfg, const DeviceContext& ctx);

}  // namespace tcgemm::detail
