// Device helpers shared by every FP64 WMMA family (nvcuda::wmma, fragment 8x8x4 double): fragment types,
// edge- and alignment-safe fragment loads from a column-major matrix, and the BLAS epilogue store
// C = alpha * acc + beta * C.
//
// Why a staged path exists
// ------------------------
// wmma::load_matrix_sync / store_matrix_sync have two layout rules (CUDA C++ Programming Guide, WMMA):
//   (1) the tile pointer must be 256-bit (32-byte) aligned;
//   (2) the leading dimension must be a multiple of 16 bytes (2 doubles).
// They also touch the whole 8x4 / 4x8 / 8x8 tile, with no notion of a matrix edge. A user's matrix breaks
// these easily: an odd lda, a sub-matrix view A(i:, j:) passed from Fortran (base offset by one element),
// or m, n, k that are not multiples of 8/8/4. Rather than asking the caller to pad, a tile that is not both
// fully inside the matrix and WMMA-aligned goes through a per-warp scratch tile in shared memory: the lanes
// copy the in-bounds elements with ordinary loads, write ZEROS for the rest (zero rows/columns add nothing
// to the products, and zero-filling both A and B keeps garbage such as NaN out of 0 * x), and the fragment
// is then loaded from the scratch, whose layout always satisfies (1) and (2). For FP64 each lane owns one
// element of an A or B fragment and two of the accumulator, so the detour costs one shared-memory round
// trip per fragment, not a different algorithm.
//
// When the direct path is legal
// -----------------------------
// wmma_direct_ok(base, ld) is computed once on the host per matrix: base 32-byte aligned and ld % 4 == 0
// (ld a multiple of 32 bytes, hence of 16). Then a tile whose origin row is a multiple of 4 starts at
// base + (row + col * ld) doubles, a multiple of 4 doubles = 32 bytes, so it is aligned for every column.
// The device helpers additionally test the tile pointer itself (one AND, warp-uniform), so a caller whose
// tile origins are not multiples of 4 rows still stays correct; the flag only has to be right about the
// leading dimension.
//
// Usage (one warp, all 32 lanes converged; every helper is warp-collective):
//   __shared__ tcgemm::detail::WarpScratch scratch[kWarpsPerBlock];
//   WarpScratch& s = scratch[warp_in_block];
//   load_a_fragment(a_frag, a_ref, row0, p, s.a_tile());   // 8x4 tile of op(A) at (row0, p)
//   load_b_fragment(b_frag, b_ref, p, col0, s.b_tile());   // 4x8 tile of op(B) at (p, col0)
//   wmma::mma_sync(acc, a_frag, b_frag, acc);
//   store_c_tile(acc, c_ref, row0, col0, alpha, beta, s.c_tile());  // 8x8, only in-bounds elements written
// The A and B scratch halves are disjoint, so both fragments may be staged in the same step; the C scratch
// covers both halves and is used only after the loads (every staged path begins with __syncwarp(), which
// orders the previous fragment load's shared-memory reads before the next writes).
#pragma once

#include <cstdint>

#include <mma.h>

#include "families/common/wmma_shape.hpp"

namespace tcgemm::detail {

namespace wmma = nvcuda::wmma;

// ---- fragment types: C(8x8) += A(8x4) B(4x8), operands column-major like the user's matrices ----------
using DmmaFragA = wmma::fragment<wmma::matrix_a, kWmmaM, kWmmaN, kWmmaK, double, wmma::col_major>;
using DmmaFragB = wmma::fragment<wmma::matrix_b, kWmmaM, kWmmaN, kWmmaK, double, wmma::col_major>;
using DmmaFragC = wmma::fragment<wmma::accumulator, kWmmaM, kWmmaN, kWmmaK, double>;

// ---- WMMA layout rules --------------------------------------------------------------------------------
constexpr int kWmmaPtrAlignBytes = 32;   // rule (1): tile pointer alignment
constexpr int kWmmaLdMultipleBytes = 16; // rule (2): leading dimension granularity
// ld multiple for wmma_direct_ok: 4 doubles = 32 bytes keeps every tile at a row multiple of 4 aligned.
constexpr int kDirectLdMultiple = kWmmaPtrAlignBytes / static_cast<int>(sizeof(double));
static_assert(kDirectLdMultiple * sizeof(double) % kWmmaLdMultipleBytes == 0,
              "the direct-path leading-dimension multiple must also satisfy WMMA's 16-byte rule");
static_assert(kWmmaM * kWmmaK == kWarpSize && kWmmaK * kWmmaN == kWarpSize,
              "the staged A/B copies give each lane exactly one element of the 8x4 / 4x8 tile");
static_assert((kWmmaM * kWmmaN) % kWarpSize == 0, "the staged C copy gives each lane whole elements");

// True when wmma::load/store_matrix_sync may read/write tiles of this matrix in place (see header comment).
// ldm is an unsigned in the WMMA API, so a leading dimension beyond 32 bits also forces the staged path.
__host__ __device__ inline bool wmma_direct_ok(const void* base, int64_t ld) {
  const auto address = reinterpret_cast<uintptr_t>(base);
  return base != nullptr && address % kWmmaPtrAlignBytes == 0 && ld > 0 && ld % kDirectLdMultiple == 0 &&
         ld <= static_cast<int64_t>(UINT32_MAX);
}

__device__ __forceinline__ bool wmma_pointer_aligned(const void* p) {
  return reinterpret_cast<uintptr_t>(p) % kWmmaPtrAlignBytes == 0;
}

// ---- matrix references passed to kernels by value -----------------------------------------------------
// rows x cols are the LOGICAL sizes (those of op(X)); the stored matrix is rows x cols, or cols x rows when
// the loader is instantiated with kTrans = true. `direct` is wmma_direct_ok(data, ld), computed on the host.
struct ConstMatrixRef {
  const double* data;
  int64_t ld;
  int64_t rows;
  int64_t cols;
  bool direct;
};
struct MatrixRef {
  double* data;
  int64_t ld;
  int64_t rows;
  int64_t cols;
  bool direct;
};

inline ConstMatrixRef make_matrix_ref(const double* data, int64_t ld, int64_t rows, int64_t cols) {
  return ConstMatrixRef{data, ld, rows, cols, wmma_direct_ok(data, ld)};
}
inline MatrixRef make_matrix_ref(double* data, int64_t ld, int64_t rows, int64_t cols) {
  return MatrixRef{data, ld, rows, cols, wmma_direct_ok(data, ld)};
}

// ---- per-warp scratch ----------------------------------------------------------------------------------
// One 8x8 double tile (512 bytes), 32-byte aligned so that every tile inside it satisfies rule (1).
// A is staged at offset 0 (8x4, ld 8), B at offset 32 (4x8, ld 4), C uses the whole tile (8x8, ld 8);
// all three leading dimensions are multiples of 16 bytes (rule (2)).
constexpr int kScratchLdA = kWmmaM;
constexpr int kScratchLdB = kWmmaK;
constexpr int kScratchLdC = kWmmaM;
constexpr int kScratchOffsetB = kWmmaM * kWmmaK;
constexpr int kWarpScratchDoubles = kWmmaM * kWmmaN;
static_assert(kScratchOffsetB * sizeof(double) % kWmmaPtrAlignBytes == 0, "B scratch must be 32-byte aligned");
static_assert(kScratchOffsetB + kWmmaK * kWmmaN <= kWarpScratchDoubles, "A and B scratch must not overlap");

struct alignas(kWmmaPtrAlignBytes) WarpScratch {
  double v[kWarpScratchDoubles];
  __device__ double* a_tile() { return v; }
  __device__ double* b_tile() { return v + kScratchOffsetB; }
  __device__ double* c_tile() { return v; }
};
static_assert(sizeof(WarpScratch) % kWmmaPtrAlignBytes == 0, "an array of WarpScratch keeps every one aligned");

__device__ __forceinline__ int lane_id() { return static_cast<int>(threadIdx.x) % kWarpSize; }

// ---- fragment loads ------------------------------------------------------------------------------------
namespace wmma_detail {

// Loads the kRows x kCols tile of op(X) at (row0, col0) into `frag`. Direct when the tile is inside, the
// matrix is not transposed, the host flag allows it and the tile pointer is aligned; otherwise staged
// through `scratch` (kRows * kCols doubles, 32-byte aligned) with bounds checks and zero fill.
template <int kRows, int kCols, bool kTrans, typename Frag>
__device__ __forceinline__ void load_operand_tile(Frag& frag, const ConstMatrixRef& x, int64_t row0,
                                                  int64_t col0, double* scratch) {
  static_assert(kRows * kCols == kWarpSize, "one element per lane");
  const bool inside = row0 + kRows <= x.rows && col0 + kCols <= x.cols;
  if (!kTrans && inside && x.direct) {
    const double* tile = x.data + row0 + col0 * x.ld;
    if (wmma_pointer_aligned(tile)) {
      wmma::load_matrix_sync(frag, tile, static_cast<unsigned>(x.ld));
      return;
    }
  }
  // Staged path. Lane -> element mapping keeps the global reads coalesced: consecutive lanes walk down a
  // stored column (logical rows when not transposed, logical columns when transposed).
  const int lane = lane_id();
  const int r = kTrans ? lane / kCols : lane % kRows;
  const int c = kTrans ? lane % kCols : lane / kRows;
  const int64_t gr = row0 + r;
  const int64_t gc = col0 + c;
  double value = 0.0;
  if (gr < x.rows && gc < x.cols) value = kTrans ? x.data[gc + gr * x.ld] : x.data[gr + gc * x.ld];
  __syncwarp();  // the previous load_matrix_sync from this scratch has finished reading it
  scratch[r + c * kRows] = value;
  __syncwarp();  // all lanes' elements are visible before the collective load
  wmma::load_matrix_sync(frag, scratch, static_cast<unsigned>(kRows));
}

}  // namespace wmma_detail

// 8x4 tile of op(A) (logical m x k) at (row0, p0); scratch = WarpScratch::a_tile().
template <bool kTrans = false>
__device__ __forceinline__ void load_a_fragment(DmmaFragA& frag, const ConstMatrixRef& a, int64_t row0,
                                                int64_t p0, double* scratch) {
  wmma_detail::load_operand_tile<kWmmaM, kWmmaK, kTrans>(frag, a, row0, p0, scratch);
}

// 4x8 tile of op(B) (logical k x n) at (p0, col0); scratch = WarpScratch::b_tile().
template <bool kTrans = false>
__device__ __forceinline__ void load_b_fragment(DmmaFragB& frag, const ConstMatrixRef& b, int64_t p0,
                                                int64_t col0, double* scratch) {
  wmma_detail::load_operand_tile<kWmmaK, kWmmaN, kTrans>(frag, b, p0, col0, scratch);
}

// ---- epilogue ------------------------------------------------------------------------------------------
// C(row0:row0+7, col0:col0+7) = alpha * acc + beta * C, writing only elements inside c.rows x c.cols.
// beta == 0 never reads C (BLAS rule: C may hold NaN or be uninitialized). scratch = WarpScratch::c_tile().
__device__ __forceinline__ void store_c_tile(const DmmaFragC& acc, const MatrixRef& c, int64_t row0,
                                             int64_t col0, double alpha, double beta, double* scratch) {
  const bool inside = row0 + kWmmaM <= c.rows && col0 + kWmmaN <= c.cols;
  if (inside && c.direct) {
    double* tile = c.data + row0 + col0 * c.ld;
    if (wmma_pointer_aligned(tile)) {
      const auto ldc = static_cast<unsigned>(c.ld);
      if (alpha == 1.0 && beta == 0.0) {
        wmma::store_matrix_sync(tile, acc, ldc, wmma::mem_col_major);
        return;
      }
      // Fragments of the same type share the element -> lane mapping, so element-wise combination of the
      // accumulator with C loaded into an accumulator fragment is legal without knowing that mapping.
      DmmaFragC out;
      if (beta == 0.0) {
        for (int i = 0; i < out.num_elements; ++i) out.x[i] = alpha * acc.x[i];
      } else {
        wmma::load_matrix_sync(out, tile, ldc, wmma::mem_col_major);
        for (int i = 0; i < out.num_elements; ++i) out.x[i] = fma(beta, out.x[i], alpha * acc.x[i]);
      }
      wmma::store_matrix_sync(tile, out, ldc, wmma::mem_col_major);
      return;
    }
  }
  // Staged path: park the accumulator in the scratch, then each lane finishes two elements with bounds
  // checks. Consecutive lanes take consecutive rows of a column, so the C accesses are coalesced.
  __syncwarp();  // earlier fragment loads from this scratch (A/B halves) have finished reading it
  wmma::store_matrix_sync(scratch, acc, static_cast<unsigned>(kScratchLdC), wmma::mem_col_major);
  __syncwarp();
  const int lane = lane_id();
  for (int e = lane; e < kWmmaM * kWmmaN; e += kWarpSize) {
    const int r = e % kWmmaM;
    const int col = e / kWmmaM;
    const int64_t gr = row0 + r;
    const int64_t gc = col0 + col;
    if (gr < c.rows && gc < c.cols) {
      double* dst = c.data + gr + gc * c.ld;
      const double product = alpha * scratch[r + col * kScratchLdC];
      *dst = (beta == 0.0) ? product : fma(beta, *dst, product);
    }
  }
}

}  // namespace tcgemm::detail
