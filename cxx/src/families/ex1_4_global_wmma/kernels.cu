// Families single, row, warp_per_block, block_tile and peak: the FP64 WMMA kernels of the reference
// design's Examples 1-4 and its Figure 1 benchmark (the CUDA Fortran tensor-core article, "Using Tensor Cores in CUDA Fortran").
//
// Every warp computes one 8x8 tile of C straight from global memory, as in the article; what changes is that
// any m, n, k >= 1 and any leading dimensions / base pointers are accepted. Tiles at the matrix edge, a
// k that is not a multiple of 4, and operands that break WMMA's alignment rules go through the per-warp
// staged path of families/common/wmma_fragments.cuh (bounds-checked, zero-filled); interior aligned tiles use
// load/store_matrix_sync directly on global memory exactly like the article.
//
// The kernels accumulate C = A B and finish with the general epilogue C = alpha * acc + beta * C
// (the API passes alpha = 1, beta = 0 for these families, which takes the plain store_matrix_sync path).
#include <algorithm>
#include <cstdint>

#include <cuda_runtime.h>

#include "core/checked_math.hpp"
#include "core/errors.hpp"
#include "families/common/wmma_fragments.cuh"
#include "families/ex1_4_global_wmma/rules.hpp"

namespace tcgemm::detail {
namespace {

// Grid limits: gridDim.x up to 2^31 - 1, gridDim.y up to 65535. Block rows of C map to blockIdx.x, one
// block each (validation's grid rule, check_grid, refuses more than 2^31 - 1 block rows before anything
// runs). Block columns map to blockIdx.y with a grid-stride loop, because n / 8 > 65535 is a realistic shape
// (a short, wide C).
constexpr int64_t kMaxGridY = 65535;

constexpr int kOneWarpThreads = kWarpSize;
constexpr int kPeakWarps = kPeakWarpsM * kPeakWarpsN;
constexpr int kPeakTileM = kPeakWarpsM * kWmmaM;  // C rows covered by one peak block
constexpr int kPeakTileN = kPeakWarpsN * kWmmaN;  // C columns covered by one peak block
constexpr int kBlockTileMaxThreads = kBlockTileMaxWarps * kWarpSize;

static_assert(kBlockTileMax % kWmmaM == 0 && kBlockTileMax % kWmmaN == 0,
              "block_tile: the largest tile must be a whole number of 8x8 warp tiles");
static_assert(kBlockTileMaxThreads <= 1024, "block_tile: at most 1024 threads per block");
static_assert(kPeakWarps * kWarpSize <= 1024, "peak: at most 1024 threads per block");


// Grid of blocks_m x min(blocks_n, 65535) thread blocks (see the grid-limit note above).
dim3 make_grid(int64_t blocks_m, int64_t blocks_n) {
  return dim3(static_cast<unsigned>(blocks_m), static_cast<unsigned>(std::min(blocks_n, kMaxGridY)), 1);
}

// ---- the warp-level building block ---------------------------------------------------------------------
// One warp: C(row0:row0+7, col0:col0+7) = alpha * A(row0:row0+7, :) B(:, col0:col0+7) + beta * C, marching
// over k in steps of wmma_k = 4 (Example 2's loop).
//
// When both operand strips are inside the matrix and WMMA-aligned, every full k step is too: with the
// direct flag, lda and ldb are multiples of 4 doubles, so stepping A by 4 columns (4 * lda doubles) and B by
// 4 rows (4 doubles) keeps the 32-byte alignment. That loop therefore runs without per-step checks, which
// also keeps the kernels' register count low. The k remainder (k % 4 != 0), strips at the m/n edge and
// misaligned operands go through the checked helpers, which stage through shared memory as needed.
__device__ __forceinline__ void warp_tile_gemm(const ConstMatrixRef& a, const ConstMatrixRef& b,
                                               const MatrixRef& c, int64_t row0, int64_t col0, double alpha,
                                               double beta, WarpScratch& scratch) {
  DmmaFragA a_frag;
  DmmaFragB b_frag;
  DmmaFragC acc;
  wmma::fill_fragment(acc, 0.0);
  const int64_t k = a.cols;
  int64_t p = 0;

  const double* a_tile = a.data + row0;           // A(row0, 0)
  const double* b_tile = b.data + col0 * b.ld;    // B(0, col0)
  const bool strips_direct = a.direct && b.direct && row0 + kWmmaM <= a.rows && col0 + kWmmaN <= b.cols &&
                             wmma_pointer_aligned(a_tile) && wmma_pointer_aligned(b_tile);
  if (strips_direct) {
    const int64_t k_full = k - k % kWmmaK;
    const auto lda = static_cast<unsigned>(a.ld);
    const auto ldb = static_cast<unsigned>(b.ld);
    const int64_t a_step = kWmmaK * a.ld;
    for (; p < k_full; p += kWmmaK, a_tile += a_step, b_tile += kWmmaK) {
      wmma::load_matrix_sync(a_frag, a_tile, lda);
      wmma::load_matrix_sync(b_frag, b_tile, ldb);
      wmma::mma_sync(acc, a_frag, b_frag, acc);
    }
  }
  for (; p < k; p += kWmmaK) {
    load_a_fragment(a_frag, a, row0, p, scratch.a_tile());
    load_b_fragment(b_frag, b, p, col0, scratch.b_tile());
    wmma::mma_sync(acc, a_frag, b_frag, acc);
  }
  store_c_tile(acc, c, row0, col0, alpha, beta, scratch.c_tile());
}

// ---- Example 1: one warp, C(8x8) = A(8x4) B(4x8) -----------------------------------------------------
// A single load of each operand, one mma_sync, one store (k = 4 by the API; a shorter k is zero-filled).
__global__ void __launch_bounds__(kOneWarpThreads)
    dmma_single_kernel(ConstMatrixRef a, ConstMatrixRef b, MatrixRef c, double alpha, double beta) {
  __shared__ WarpScratch scratch;
  DmmaFragA a_frag;
  DmmaFragB b_frag;
  DmmaFragC acc;
  wmma::fill_fragment(acc, 0.0);
  load_a_fragment(a_frag, a, 0, 0, scratch.a_tile());
  load_b_fragment(b_frag, b, 0, 0, scratch.b_tile());
  wmma::mma_sync(acc, a_frag, b_frag, acc);
  store_c_tile(acc, c, 0, 0, alpha, beta, scratch.c_tile());
}

// ---- Example 2: one warp, C(8x8) = A(8xK) B(Kx8) ------------------------------------------------------
__global__ void __launch_bounds__(kOneWarpThreads)
    dmma_row_kernel(ConstMatrixRef a, ConstMatrixRef b, MatrixRef c, double alpha, double beta) {
  __shared__ WarpScratch scratch;
  warp_tile_gemm(a, b, c, 0, 0, alpha, beta, scratch);
}

// ---- Example 3: grid of one-warp blocks, block (x, y) owns the 8x8 C tile (x, y) ------------------------
__global__ void __launch_bounds__(kOneWarpThreads)
    dmma_warp_per_block_kernel(ConstMatrixRef a, ConstMatrixRef b, MatrixRef c, double alpha, double beta) {
  __shared__ WarpScratch scratch;
  const int64_t tiles_n = (c.cols + kWmmaN - 1) / kWmmaN;
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * kWmmaM;
  for (int64_t tile_n = blockIdx.y; tile_n < tiles_n; tile_n += gridDim.y)
    warp_tile_gemm(a, b, c, row0, tile_n * kWmmaN, alpha, beta, scratch);
}

// ---- Example 4: blockDim = (tile_m / 8 * 32, tile_n / 8), warp (wx, wy) owns one 8x8 tile -----------------
// The block tile is read back from blockDim, so one kernel serves every validated tile shape. Warps whose
// tile lies wholly outside C skip it; there is no block-wide barrier, so they may.
__global__ void __launch_bounds__(kBlockTileMaxThreads)
    dmma_block_tile_kernel(ConstMatrixRef a, ConstMatrixRef b, MatrixRef c, double alpha, double beta) {
  extern __shared__ WarpScratch block_scratch[];  // one per warp, sized by the launcher
  const int warp_m = static_cast<int>(threadIdx.x) / kWarpSize;
  const int warp_n = static_cast<int>(threadIdx.y);
  const int warps_m = static_cast<int>(blockDim.x) / kWarpSize;
  const int64_t tile_m = static_cast<int64_t>(warps_m) * kWmmaM;
  const int64_t tile_n = static_cast<int64_t>(blockDim.y) * kWmmaN;
  WarpScratch& scratch = block_scratch[warp_n * warps_m + warp_m];
  const int64_t blocks_n = (c.cols + tile_n - 1) / tile_n;
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * tile_m + warp_m * kWmmaM;
  if (row0 >= c.rows) return;  // this warp's tile row lies below C
  for (int64_t block_n = blockIdx.y; block_n < blocks_n; block_n += gridDim.y) {
    const int64_t col0 = block_n * tile_n + warp_n * kWmmaN;
    if (col0 < c.cols) warp_tile_gemm(a, b, c, row0, col0, alpha, beta, scratch);
  }
}

// ---- Figure 1: one load of A(8x4) and B(4x8), niter dependent mma_sync, one store per 8x8 C tile --------
// Each step feeds the previous accumulator back in, so the compiler must issue all niter DMMAs; the stored
// tile is exactly niter * (A B) whenever the products are exactly representable (the tests rely on it).
__global__ void __launch_bounds__(kPeakWarps * kWarpSize)
    dmma_peak_kernel(ConstMatrixRef a, ConstMatrixRef b, MatrixRef c, int32_t niter) {
  __shared__ WarpScratch scratch[kPeakWarps];
  const int warp_m = static_cast<int>(threadIdx.x) / kWarpSize;
  const int warp_n = static_cast<int>(threadIdx.y);
  WarpScratch& s = scratch[warp_n * kPeakWarpsM + warp_m];
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * kPeakTileM + warp_m * kWmmaM;
  if (row0 >= c.rows) return;  // this warp's tile row lies below C

  DmmaFragA a_frag;
  DmmaFragB b_frag;
  load_a_fragment(a_frag, a, 0, 0, s.a_tile());
  load_b_fragment(b_frag, b, 0, 0, s.b_tile());

  const int64_t blocks_n = (c.cols + kPeakTileN - 1) / kPeakTileN;
  for (int64_t block_n = blockIdx.y; block_n < blocks_n; block_n += gridDim.y) {
    const int64_t col0 = block_n * kPeakTileN + warp_n * kWmmaN;
    if (col0 >= c.cols) continue;
    DmmaFragC acc;
    wmma::fill_fragment(acc, 0.0);
    for (int32_t i = 0; i < niter; ++i) wmma::mma_sync(acc, a_frag, b_frag, acc);
    store_c_tile(acc, c, row0, col0, 1.0, 0.0, s.c_tile());
  }
}

// ---- host side -----------------------------------------------------------------------------------------
struct Operands {
  ConstMatrixRef a, b;
  MatrixRef c;
};

// These families implement C = alpha A B + beta C without transposes; the API only routes 'N','N' here.
// Anything else is a dispatch bug, reported rather than computed wrongly.
tcgemm_status check_no_transpose(const GemmProblem& p, const char* family) {
  if (p.transa != 'N' || p.transb != 'N')
    return set_error(TCGEMM_ERROR_INVALID_CONFIG, "family %s supports only transa = transb = 'N' (got '%c', '%c')",
                     family, p.transa, p.transb);
  return TCGEMM_SUCCESS;
}

Operands operands_of(const GemmProblem& p) {
  return Operands{make_matrix_ref(p.A, p.lda, p.m, p.k), make_matrix_ref(p.B, p.ldb, p.k, p.n),
                  make_matrix_ref(p.C, p.ldc, p.m, p.n)};
}

}  // namespace

tcgemm_status launch_single(const GemmProblem& p, const tcgemm_config&, const DeviceContext&,
                            cudaStream_t stream) {
  if (tcgemm_status st = check_no_transpose(p, "single"); st != TCGEMM_SUCCESS) return st;
  const Operands op = operands_of(p);
  dmma_single_kernel<<<1, kOneWarpThreads, 0, stream>>>(op.a, op.b, op.c, p.alpha, p.beta);
  TCGEMM_CHECK_LAUNCH("dmma_single_kernel");
  return TCGEMM_SUCCESS;
}

tcgemm_status launch_row(const GemmProblem& p, const tcgemm_config&, const DeviceContext&, cudaStream_t stream) {
  if (tcgemm_status st = check_no_transpose(p, "row"); st != TCGEMM_SUCCESS) return st;
  const Operands op = operands_of(p);
  dmma_row_kernel<<<1, kOneWarpThreads, 0, stream>>>(op.a, op.b, op.c, p.alpha, p.beta);
  TCGEMM_CHECK_LAUNCH("dmma_row_kernel");
  return TCGEMM_SUCCESS;
}

tcgemm_status launch_warp_per_block(const GemmProblem& p, const tcgemm_config&, const DeviceContext&,
                                    cudaStream_t stream) {
  if (tcgemm_status st = check_no_transpose(p, "warp_per_block"); st != TCGEMM_SUCCESS) return st;
  if (p.m < 1 || p.n < 1) return TCGEMM_SUCCESS;  // nothing to write (the API returns earlier)
  const Operands op = operands_of(p);
  const dim3 grid = make_grid(ceil_div_nonneg(p.m, kWmmaM), ceil_div_nonneg(p.n, kWmmaN));
  dmma_warp_per_block_kernel<<<grid, kOneWarpThreads, 0, stream>>>(op.a, op.b, op.c, p.alpha, p.beta);
  TCGEMM_CHECK_LAUNCH("dmma_warp_per_block_kernel");
  return TCGEMM_SUCCESS;
}

// config.tile_m / tile_n were validated: multiples of 8, at most kBlockTileMax, at most kBlockTileMaxWarps
// warps. The per-warp scratch (512 bytes a warp, 16 KiB at most) stays below the 48 KiB default limit of
// dynamic shared memory, so no opt-in is needed.
tcgemm_status launch_block_tile(const GemmProblem& p, const tcgemm_config& config, const DeviceContext&,
                                cudaStream_t stream) {
  if (tcgemm_status st = check_no_transpose(p, "block_tile"); st != TCGEMM_SUCCESS) return st;
  if (p.m < 1 || p.n < 1) return TCGEMM_SUCCESS;
  const int tile_m = config.tile_m > 0 ? config.tile_m : kBlockTileDefaultM;
  const int tile_n = config.tile_n > 0 ? config.tile_n : kBlockTileDefaultN;
  const int warps_m = tile_m / kWmmaM;
  const int warps_n = tile_n / kWmmaN;
  const Operands op = operands_of(p);
  const dim3 block(static_cast<unsigned>(warps_m * kWarpSize), static_cast<unsigned>(warps_n), 1);
  const dim3 grid = make_grid(ceil_div_nonneg(p.m, tile_m), ceil_div_nonneg(p.n, tile_n));
  const size_t scratch_bytes = sizeof(WarpScratch) * static_cast<size_t>(warps_m * warps_n);
  dmma_block_tile_kernel<<<grid, block, scratch_bytes, stream>>>(op.a, op.b, op.c, p.alpha, p.beta);
  TCGEMM_CHECK_LAUNCH("dmma_block_tile_kernel");
  return TCGEMM_SUCCESS;
}

tcgemm_status launch_peak(int64_t m, int64_t n, int32_t niter, const double* A, int64_t lda, const double* B,
                          int64_t ldb, double* C, int64_t ldc, const DeviceContext&, cudaStream_t stream) {
  if (m < 1 || n < 1) return TCGEMM_SUCCESS;
  const ConstMatrixRef a = make_matrix_ref(A, lda, kWmmaM, kWmmaK);
  const ConstMatrixRef b = make_matrix_ref(B, ldb, kWmmaK, kWmmaN);
  const MatrixRef c = make_matrix_ref(C, ldc, m, n);
  const dim3 block(kPeakWarpsM * kWarpSize, kPeakWarpsN, 1);
  const dim3 grid = make_grid(ceil_div_nonneg(m, kPeakTileM), ceil_div_nonneg(n, kPeakTileN));
  dmma_peak_kernel<<<grid, block, 0, stream>>>(a, b, c, niter);
  TCGEMM_CHECK_LAUNCH("dmma_peak_kernel");
  return TCGEMM_SUCCESS;
}

}  // namespace tcgemm::detail
