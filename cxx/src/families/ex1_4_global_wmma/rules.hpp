// Examples 1-4 of the CUDA Fortran tensor-core article and its Figure 1 benchmark: FP64 WMMA with the
// operands read straight from global memory (kernels.cu). Host-only facts and rules: included by the family
// table (so CPU CI checks them) and by the kernels (whose static_asserts use the same numbers).
//   single         Example 1: one warp, one 8x8x4 tile
//   row            Example 2: one warp, C(8x8) = A(8xK) B(Kx8)
//   warp_per_block Example 3: one 8x8 C tile per one-warp block, any m, n, k
//   block_tile     Example 4: tile_m x tile_n C tile per block, one warp per 8x8 sub-tile
//   peak           Figure 1: one load, niter mma_sync, one store
#pragma once

#include <cstdint>

#include "core/arguments.hpp"
#include "families/common/wmma_shape.hpp"

namespace tcgemm::detail {

// Edge and misaligned tiles are staged through one 8x8 double tile of shared memory per warp
// (families/common/wmma_fragments.cuh, WarpScratch).
constexpr int64_t kWarpScratchBytes = int64_t(kWmmaM) * kWmmaN * sizeof(double);

// block_tile: tile_m x tile_n C tile, one warp per 8x8 sub-tile, at most 32 warps per block.
constexpr int kBlockTileMax = 128;
constexpr int kBlockTileMaxWarps = 32;
constexpr int kBlockTileDefaultM = 32;
constexpr int kBlockTileDefaultN = 32;

// peak: fixed block of kPeakWarpsM x kPeakWarpsN warps, each owning one 8x8 C tile.
constexpr int kPeakWarpsM = 4;
constexpr int kPeakWarpsN = 2;

// ---- rules (rules.cpp) ----
tcgemm_status validate_one_tile_config(const tcgemm_config& in, const ArgPositions& pos, tcgemm_config* out);
tcgemm_status validate_block_tile_config(const tcgemm_config& in, const ArgPositions& pos, tcgemm_config* out);
tcgemm_status validate_peak_config(const tcgemm_config& in, const ArgPositions& pos, tcgemm_config* out);
int one_warp_threads(const tcgemm_config& resolved);
int block_tile_threads(const tcgemm_config& resolved);
int peak_threads(const tcgemm_config& resolved);
// Shared memory of these families: the per-warp staging tile.
int64_t warp_scratch_bytes(const tcgemm_config& resolved);
// warp_per_block and block_tile: one block row per tile_m rows of C on gridDim.x (columns: grid-stride).
GridNeed block_rows_grid_need(const GemmProblem& p, const tcgemm_config& resolved);
// tcgemm_dmma_peak's arguments: A is 8 x 4, B is 4 x 8, C is m x n.
tcgemm_status validate_peak(int64_t m, int64_t n, int32_t niter, const double* A, int64_t lda, const double* B,
                            int64_t ldb, const double* C, int64_t ldc);

// ---- launchers (kernels.cu): C = A B, transa = transb = 'N', alpha = 1, beta = 0 ----
tcgemm_status launch_single(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);
tcgemm_status launch_row(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);
tcgemm_status launch_warp_per_block(const GemmProblem&, const tcgemm_config&, const DeviceContext&,
                                    cudaStream_t);
tcgemm_status launch_block_tile(const GemmProblem&, const tcgemm_config&, const DeviceContext&, cudaStream_t);
// Figure 1: every 8x8 tile of C (m x n) gets niter * A(8x4) B(4x8).
tcgemm_status launch_peak(int64_t m, int64_t n, int32_t niter, const double* A, int64_t lda, const double* B,
                          int64_t ldb, double* C, int64_t ldc, const DeviceContext&, cudaStream_t);

}  // namespace tcgemm::detail
