// Family shared_a: the article's Example 5, "shared-memory matrix multiply", with BLAS semantics.
//
// One thread block computes a tile_m x tile_n tile of C with tile_m / 8 warps (tile_n = tile_m: each warp
// owns one 8-column block column of the tile, as in the article). Per k step of wmma_k = 4:
//   1. the block copies the tile_m x 4 slice of op(A) into shared memory (one element per thread: tile_m * 4
//      threads), leading dimension tile_m + pad_a;
//   2. each warp builds its own 4x8 fragment of op(B) straight from global memory;
//   3. each warp walks down its block column: tile_m / 8 fragments of A from shared memory, all multiplied by
//      the same B fragment into tile_m / 8 accumulators.
// The A slice is read by every warp, so it is loaded from global memory once per block instead of once per
// warp; B is used by one warp only and stays in registers.
//
// Why pad_a matters (bank conflicts): a lane of an 8x4 A fragment reads one double at (row r, column c) of
// the shared tile, i.e. word r + c * lda_s. Shared memory serves 16 double-wide banks per 128 bytes; with
// lda_s = tile_m (a multiple of 32) every column starts in the same bank and the four columns of a fragment
// collide (4-way). pad_a = 4 shifts consecutive columns by 4 banks, so the 8 x 4 lanes cover every bank
// exactly twice (the minimum for 256 bytes). pad_a = 2 or 6 removes only part of the conflicts.
//
// What the article restricted and this file does not: any m, n, k >= 1 (edge elements of A and B are zero-filled,
// C is written only inside m x n), op(A)/op(B) transposed or not, any lda/ldb/ldc and base alignment,
// C = alpha op(A) op(B) + beta C (beta == 0 does not read C). The next step's A element and B fragment are
// loaded into registers while the current step computes, hiding part of the global-memory latency.
#include <cstdint>

#include <cuda_runtime.h>

#include "core/device.hpp"
#include "core/errors.hpp"
#include "families/common/shared_gemm.cuh"
#include "families/common/wmma_fragments.cuh"
#include "families/ex5_shared_a/rules.hpp"

namespace tcgemm::detail {
namespace {

template <int kTileM>
struct SharedAShape {
  static_assert(is_shared_tile(kTileM), "shared_a: tile_m must be one of kSharedTiles (32, 64, 96, 128)");
  static_assert(kTileM % kWarpSize == 0,
                "shared_a: tile_m must be a multiple of 32 so that each warp copies whole rows of a column of the "
                "tile_m x 4 A tile");
  static constexpr int kWarps = kTileM / kWmmaM;            // one warp per 8 columns of the C tile
  static constexpr int kThreads = kWarps * kWarpSize;        // = tile_m * 4: one A-tile element per thread
  static constexpr int kTileN = kWarps * kWmmaN;             // = tile_m, as in the article
  static constexpr int kFragsPerColumn = kTileM / kWmmaM;    // accumulators per warp (block column of C)
  static_assert(kThreads == kTileM * kWmmaK, "shared_a: one thread per element of the tile_m x 4 A tile");
  static_assert(kThreads <= 1024, "shared_a: at most 1024 threads per block");
  static_assert(kTileM * kWmmaK >= kCoordTableDoubles, "shared_a: the coordinate table must fit in the A tile");
};

template <int kTileM>
__global__ void __launch_bounds__(SharedAShape<kTileM>::kThreads) dmma_shared_a_kernel(const SharedGemmArgs p) {
  using Shape = SharedAShape<kTileM>;
  double* a_s = shared_gemm_smem();
  const int lda_s = shared_a_tile(kTileM, p.pad_a).ld();  // tile_m + pad_a
  const int tid = static_cast<int>(threadIdx.x);
  const int warp = tid / kWarpSize;

  write_coord_table(a_s, tid, Shape::kThreads);
  __syncthreads();
  const AccCoords c_xy = load_acc_coords(a_s);
  const BCoords b_xy = load_b_coords(a_s);
  const FragOffsets<DmmaFragA::num_elements> a_frag_offsets = fragment_offsets(load_a_coords(a_s), lda_s);
  // The first __syncthreads of the k loop orders these table reads before a_s is overwritten.

  // The A element this thread copies each step. Untransposed A is contiguous along the tile's rows: consecutive
  // threads take consecutive rows (coalesced). A transposed A (stored k x m) is contiguous along k: groups of 4
  // threads take the 4 k values of one row (32-byte segments), which also spreads the shared-memory writes
  // over the banks when pad_a = 4.
  const int a_row = p.trans_a ? tid / kWmmaK : tid % kTileM;
  const int a_col = p.trans_a ? tid % kWmmaK : tid / kTileM;
  const int a_smem = a_row + a_col * lda_s;
  const int64_t a_step = p.trans_a ? kWmmaK : kWmmaK * p.lda;  // pointer advance per k step
  const int64_t b_step = p.trans_b ? kWmmaK * p.ldb : kWmmaK;

  for (int64_t t = blockIdx.x; t < p.total_tiles; t += gridDim.x) {
    const int64_t row0 = (t % p.m_tiles) * kTileM;
    const int64_t col0 = (t / p.m_tiles) * Shape::kTileN;
    const int64_t col_w = col0 + warp * kWmmaN;  // this warp's block column of C
    const bool warp_active = col_w < p.n;

    DmmaFragC acc[Shape::kFragsPerColumn];
#pragma unroll
    for (int j = 0; j < Shape::kFragsPerColumn; ++j) wmma::fill_fragment(acc[j], 0.0);

    // Source pointers at k step 0 and the parts of the bounds check that do not change with k.
    const int64_t gi = row0 + a_row;
    const bool a_row_ok = gi < p.m;
    const double* a_src = p.trans_a ? p.A + a_col + gi * p.lda : p.A + gi + a_col * p.lda;
    const double* b_src[DmmaFragB::num_elements];
    bool b_col_ok[DmmaFragB::num_elements];
#pragma unroll
    for (int e = 0; e < DmmaFragB::num_elements; ++e) {
      const int64_t gj = col_w + b_xy.col[e];
      b_col_ok[e] = gj < p.n;
      b_src[e] = p.trans_b ? p.B + gj + b_xy.row[e] * p.ldb : p.B + b_xy.row[e] + gj * p.ldb;
    }

    // Register prefetch of step k0: out-of-range elements become zeros, which add nothing to the products.
    double a_next = 0.0;
    double b_next[DmmaFragB::num_elements];
    auto fetch = [&](int64_t k0) {
      a_next = (a_row_ok && k0 + a_col < p.k) ? __ldg(a_src) : 0.0;
#pragma unroll
      for (int e = 0; e < DmmaFragB::num_elements; ++e)
        b_next[e] = (b_col_ok[e] && k0 + b_xy.row[e] < p.k) ? __ldg(b_src[e]) : 0.0;
    };
    fetch(0);

    for (int64_t k0 = 0; k0 < p.k; k0 += kWmmaK) {
      __syncthreads();  // every warp has finished reading the previous A slice (and the coordinate table)
      a_s[a_smem] = a_next;
      DmmaFragB b_frag;
#pragma unroll
      for (int e = 0; e < DmmaFragB::num_elements; ++e) b_frag.x[e] = b_next[e];
      __syncthreads();  // the A slice is complete

      if (k0 + kWmmaK < p.k) {  // the next step's loads are in flight while this step computes
        a_src += a_step;
#pragma unroll
        for (int e = 0; e < DmmaFragB::num_elements; ++e) b_src[e] += b_step;
        fetch(k0 + kWmmaK);
      }

      if (warp_active) {
#pragma unroll
        for (int j = 0; j < Shape::kFragsPerColumn; ++j) {
          DmmaFragA a_frag;  // every warp reads the same 8x4 fragments
          fill_fragment_from_shared(a_frag, a_s + j * kWmmaM, a_frag_offsets);
          wmma::mma_sync(acc[j], a_frag, b_frag, acc[j]);
        }
      }
    }

    if (warp_active) {
#pragma unroll
      for (int j = 0; j < Shape::kFragsPerColumn; ++j) store_c_guarded(acc[j], c_xy, p, row0 + j * kWmmaM, col_w);
    }
  }
}

template <int kTileM>
tcgemm_status launch_shared_a_tile(const GemmProblem& pr, const tcgemm_config& cfg, cudaStream_t stream) {
  const SharedGemmArgs args = make_shared_gemm_args(pr, kTileM, kWmmaK, cfg.pad_a, 0);
  // Below the 48 KB default limit for every valid pad_a, so no cudaFuncSetAttribute is needed.
  const int64_t smem_bytes = shared_a_smem_bytes(kTileM, cfg.pad_a);
  dmma_shared_a_kernel<kTileM>
      <<<shared_gemm_grid(args), SharedAShape<kTileM>::kThreads, static_cast<size_t>(smem_bytes), stream>>>(args);
  TCGEMM_CHECK_LAUNCH("dmma_shared_a_kernel");
  return TCGEMM_SUCCESS;
}

constexpr int64_t kDefaultDynamicSmemBytes = 48 * 1024;  // usable without cudaFuncSetAttribute
static_assert(shared_a_smem_bytes(largest_shared_tile(), kMaxPad) <= kDefaultDynamicSmemBytes,
              "shared_a: the largest A tile must fit the default 48 KB dynamic shared-memory limit");

}  // namespace

tcgemm_status launch_shared_a(const GemmProblem& problem, const tcgemm_config& config, const DeviceContext&,
                              cudaStream_t stream) {
  switch (config.tile_m) {
    case 32: return launch_shared_a_tile<32>(problem, config, stream);
    case 64: return launch_shared_a_tile<64>(problem, config, stream);
    case 96: return launch_shared_a_tile<96>(problem, config, stream);
    case 128: return launch_shared_a_tile<128>(problem, config, stream);
    default:
      return set_error(TCGEMM_ERROR_INVALID_CONFIG, "tile_m=%d: family shared_a has no kernel for this tile",
                       config.tile_m);
  }
}

}  // namespace tcgemm::detail
